package wgsl

import (
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// Textures and samplers (WGSL #texture-sampler-types,
// #texture-builtin-functions; ir/texture.go): the types, their
// module-scope bindings and the texture builtins. Outside the subset,
// refused where written: texture_external, texture_depth_multisampled_2d,
// a storage texture format that is not one of WebGPU's core storage
// formats, bgra8unorm storage textures but write-only ones, a texture or sampler anywhere but a module-scope binding and
// a texture builtin's argument (a parameter, a let, a var), and
// textureSampleBaseClampToEdge (texture_external's sampler).

var handleDims = map[string]ir.TexDim{
	"1d": ir.Tex1D, "2d": ir.Tex2D, "2d_array": ir.Tex2DArray, "3d": ir.Tex3D, "cube": ir.TexCube, "cube_array": ir.TexCubeArray,
}

// handleType resolves a texture or sampler type name; nil when name is
// not one.
func (c *chkCtx) handleType(t *astIdentExpr) *chkType {
	name := t.name
	noTmpl := func() {
		if t.hasTmpl {
			c.errorf(t.off, "type '%s' does not take template arguments", name)
		}
	}
	h := func(it *ir.Type) *chkType { return &chkType{k: ckHandle, h: it} }
	switch {
	case name == "sampler" || name == "sampler_comparison":
		noTmpl()
		return h(ir.SamplerOf(name == "sampler_comparison"))
	case name == "texture_external" || name == "texture_depth_multisampled_2d":
		c.outsidef(t.off, "texture type %s", name)
	case strings.HasPrefix(name, "texture_depth_"):
		dim, ok := handleDims[strings.TrimPrefix(name, "texture_depth_")]
		if !ok || Tex1DOr3D(dim) != 0 {
			return nil
		}
		noTmpl()
		return h(ir.TextureOf(ir.TexDepth, dim, ir.F32, 0, 0))
	case strings.HasPrefix(name, "texture_storage_"):
		dim, ok := handleDims[strings.TrimPrefix(name, "texture_storage_")]
		if !ok || dim == ir.TexCube || dim == ir.TexCubeArray {
			return nil
		}
		if len(t.tmpl) != 2 {
			c.errorf(t.off, "%s needs two template arguments, a texel format and an access mode", name)
		}
		fid, ok := t.tmpl[0].(*astIdentExpr)
		if !ok || fid.hasTmpl {
			c.errorf(t.tmpl[0].astOff(), "expected a texel format")
		}
		f, ok := ir.LookupTexFormat(fid.name)
		if !ok {
			if chkPredeclaredEnumerants[fid.name] {
				c.outsidef(fid.off, "storage texel format %s (not one of WebGPU's core storage formats)", fid.name)
			}
			c.errorf(fid.off, "unknown texel format '%s'", fid.name)
		}
		aid, ok := t.tmpl[1].(*astIdentExpr)
		if !ok || aid.hasTmpl {
			c.errorf(t.tmpl[1].astOff(), "expected an access mode")
		}
		var acc ir.TexAccess
		switch aid.name {
		case "read":
			acc = ir.TexRead
		case "write":
			acc = ir.TexWrite
		case "read_write":
			acc = ir.TexReadWrite
		default:
			c.errorf(aid.off, "unknown access mode '%s'", aid.name)
		}
		if fid.name == "bgra8unorm" && acc != ir.TexWrite {
			// WebGPU §26.1.1 (texture format capabilities): bgra8unorm
			// binds as storage write-only, with bgra8unorm-storage.
			c.outsidef(aid.off, "storage texel format bgra8unorm with access %s (WebGPU allows it write-only, with the bgra8unorm-storage feature)", aid.name)
		}
		return h(ir.TextureOf(ir.TexStorage, dim, nil, f, acc))
	case name == "texture_multisampled_2d" || strings.HasPrefix(name, "texture_"):
		class, dim := ir.TexMultisampled, ir.Tex2D
		if name != "texture_multisampled_2d" {
			d, ok := handleDims[strings.TrimPrefix(name, "texture_")]
			if !ok {
				return nil
			}
			class, dim = ir.TexSampled, d
		}
		if len(t.tmpl) != 1 {
			c.errorf(t.off, "%s needs one template argument, its sampled type (f32, i32 or u32)", name)
		}
		st := c.resolveType(c.typeArg(t.tmpl[0]))
		if st.k != ckF32 && st.k != ckI32 && st.k != ckU32 {
			c.errorf(t.tmpl[0].astOff(), "%s<%v>: the sampled type must be f32, i32 or u32 (WGSL #sampled-texture-type)", name, st)
		}
		return h(ir.TextureOf(class, dim, st.toIR(), 0, 0))
	}
	return nil
}

// Tex1DOr3D maps the dimensions a depth texture cannot have (1d, 3d) to
// themselves and every other to 0.
func Tex1DOr3D(d ir.TexDim) ir.TexDim {
	if d == ir.Tex1D || d == ir.Tex3D {
		return d
	}
	return 0
}

// textureVar checks a texture or sampler binding `@group(G) @binding(B)
// var name: T` (WGSL #resource-interface: handle address space, no
// initializer).
func (c *chkCtx) textureVar(t *chkType) {
	a := c.d.a
	g := &ir.TextureVar{Pos: c.pos(a.nameOff), Name: a.name, T: t.h, Group: -1, Binding: -1}
	for _, at := range a.attrs {
		switch at.name {
		case "group", "binding":
			if len(at.args) != 1 {
				c.errorf(at.off, "@%s needs one argument", at.name)
			}
			op := c.expr(at.args[0])
			if op.c == nil || !op.t.isInt() || !op.t.isScalar() || op.c.i < 0 {
				c.errorf(astExprStart(at.args[0]), "@%s needs a non-negative integer const-expression", at.name)
			}
			if at.name == "group" {
				g.Group = int(op.c.i)
			} else {
				g.Binding = int(op.c.i)
			}
		default:
			c.outsidef(at.off, "variable attribute @%s", at.name)
		}
	}
	if g.Group < 0 || g.Binding < 0 {
		c.errorf(a.nameOff, "resource variable '%s' needs @group and @binding", a.name)
	}
	if a.init != nil {
		c.errorf(astExprStart(a.init), "a %v variable cannot have an initializer", t)
	}
	c.d.tex = g
}

// textureCall checks a call of a texture builtin against WGSL's overload
// table (ir.TextureForm) and converts its arguments to the parameter
// types.
func (c *chkCtx) textureCall(op ir.TexOp, x *astCallExpr, stmt bool) chkOp {
	id := x.callee
	if id.hasTmpl {
		c.errorf(id.off, "builtin '%s' does not take template arguments", id.name)
	}
	if len(x.args) == 0 {
		c.errorf(id.off, "%s needs a texture argument", op)
	}
	args := make([]chkOp, len(x.args))
	for i, e := range x.args {
		args[i] = c.expr(e)
	}
	component := false
	ti := 0
	if op == ir.TexGather && args[0].t.k != ckHandle {
		component, ti = true, 1
		if len(args) < 2 {
			c.errorf(id.off, "textureGather needs a texture argument")
		}
	}
	tex := args[ti]
	if tex.t.k != ckHandle || tex.t.h.Kind != ir.KindTexture {
		c.errorf(astExprStart(x.args[ti]), "argument %d of %s must be a texture, not %v", ti+1, op, tex.t)
	}
	form, err := ir.TextureForm(op, tex.t.h, len(args), component)
	if err != nil {
		c.errorf(id.off, "%v", err)
	}
	tt := tex.t.h.Tex
	call := &ir.TextureCall{Pos: c.pos(id.off), Op: op, Form: form, T: ir.TextureResultType(op, tex.t.h)}
	call.Args = make([]ir.Expr, len(args))
	for i, a := range args {
		call.Args[i] = c.textureArg(call, i, a, x.args[i], tex.t.h, tt)
	}
	if p := call.Parts(); p.Component != nil {
		if v := p.Component.(*ir.Lit).Val; int32(v.Bits) < 0 || v.Bits > 3 {
			c.errorf(astExprStart(x.args[0]), "the component of textureGather must be 0, 1, 2 or 3, got %d", int32(v.Bits))
		}
	}
	res := chkOp{t: chkFromIR(call.T), e: call, off: id.off}
	if call.T.IsVoid() {
		res.t = chkVoid
		if !stmt {
			c.errorf(id.off, "builtin '%s' does not return a value", op)
		}
		return res
	}
	return c.mustUse(res, stmt, op.String())
}

// textureArg converts argument i of call (operand a, written e) to the
// type its form letter asks for.
func (c *chkCtx) textureArg(call *ir.TextureCall, i int, a chkOp, e astExpr, tex *ir.Type, tt *ir.TextureType) ir.Expr {
	l := call.FormLetter(i)
	what := fmt.Sprintf("argument %d of %s", i+1, call.Op)
	off := astExprStart(e)
	switch l {
	case 'T', 'S', 'Z':
		if a.t.k != ckHandle {
			c.errorf(off, "%s: %v", what, ir.TextureArgCheck(l, tex, a.t.toIRMaybe()))
		}
		if l != 'T' {
			if err := ir.TextureArgCheck(l, tex, a.t.h); err != nil {
				c.errorf(off, "%s: %v", what, err)
			}
		}
		return a.e
	}
	if a.t.k == ckHandle || a.t.k == ckVoid {
		c.errorf(off, "%s: a %v cannot be used here", what, a.t)
	}
	var want *chkType
	switch l {
	case 'c', 'd':
		want = chkF32
		if n := tt.Dim.CoordWidth(); n > 1 {
			want = chkVec(n, chkF32)
		}
	case 'F':
		want = chkF32
	case 'o':
		want = chkVec(tt.Dim.CoordWidth(), chkI32)
	case 'v':
		want = chkVec(4, chkFromIR(tt.Sampled))
	}
	if want != nil && a.t.isAbstract() && chkAutoConvertible(a.t, want) {
		a = c.to(a, want, what)
	} else {
		a = c.concrete(a)
	}
	if err := ir.TextureArgCheck(l, tex, a.t.toIR()); err != nil {
		c.errorf(off, "%s: %v", what, err)
	}
	if (l == 'o' || l == 'C') && a.c == nil {
		name := map[byte]string{'o': "offset", 'C': "component"}[l]
		c.errorf(off, "the %s of %s must be a const-expression (WGSL #texture-builtin-functions)", name, call.Op)
	}
	return c.irOf(a)
}

// textureStages refuses the implicit-derivative samplers (textureSample,
// textureSampleBias, textureSampleCompare) in a compute or vertex entry
// point's call graph: WGSL allows them in the fragment stage only
// (#texturesample: "must only be used in a fragment shader stage").
func (mc *chkModule) textureStages(m *ir.Module) {
	for _, ep := range m.EntryPoints() {
		if ep.Stage == ir.StageFragment {
			continue
		}
		for _, f := range m.CallGraph(ep.Name) {
			ir.Inspect(f.Body, func(n ir.Node) bool {
				if c, ok := n.(*ir.TextureCall); ok && c.Op.ImplicitDerivatives() && !mc.diags.full() {
					mc.diags.list = append(mc.diags.list, ir.Errorf(m.File, c.Pos, "check",
						"%s must only be used in the fragment stage, but %s entry point %s calls it (WGSL #%s)", c.Op, ep.Stage, ep.Name, strings.ToLower(c.Op.String())))
				}
				return true
			})
		}
	}
}
