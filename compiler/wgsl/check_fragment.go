package wgsl

import (
	"github.com/gpudiff/gpudiff/ir"
)

// Checking the IO of @vertex and @fragment entry points as written
// (ARCHITECTURE.md "Entry points as written (fragment)", issue 39's draw
// case): builtin inputs and outputs of each stage, @location vertex
// attributes, varyings with their @interpolate, fragment @location
// outputs (a value, or a struct whose members each have one). What
// gpudiff runs of them is FragmentEntry's, DrawFragmentEntry's and
// VertexEntry's (fragment.go, render.go).

// ioAttrs are the IO attributes of an entry point's parameter, result or
// struct member (WGSL #entry-point-io-types).
type ioAttrs struct {
	builtin    string
	builtinOff int32 // the builtin value's name
	loc        int   // -1: none
	interp     ir.Interpolation
	off        int32 // the first IO attribute
}

func noIO() ioAttrs { return ioAttrs{loc: -1, off: -1} }

// ioAttr reads one IO attribute (@builtin, @location, @interpolate) into
// io; @invariant and @blend_src are outside the subset, as is anything
// else on what is not an entry point's IO.
func (c *chkCtx) ioAttr(at *astAttr, io *ioAttrs) {
	if io.off < 0 {
		io.off = at.off
	}
	switch at.name {
	case "builtin":
		io.builtin = c.builtinAttr(at)
		io.builtinOff = at.args[0].astOff()
	case "location":
		io.loc = c.locationAttr(at)
	case "interpolate":
		io.interp = c.interpolateAttr(at)
	case "invariant":
		c.outsidef(at.off, "@invariant (gpudiff's render pipelines compare positions within tolerances; invariance is not modelled)")
	case "blend_src":
		c.outsidef(at.off, "@blend_src (dual-source blending: gpudiff's v1 draws blend nothing)")
	default:
		c.outsidef(at.off, "attribute @%s", at.name)
	}
}

// paramAttr checks an attribute of a function's parameter: IO attributes
// of an entry point's parameter (ioAttr; entryParam checks them against
// the stage); an ordinary function's parameter takes none in the subset.
func (c *chkCtx) paramAttr(f *ir.Func, at *astAttr, io *ioAttrs) {
	if f.Stage == ir.StageNone {
		c.outsidef(at.off, "parameter attribute @%s", at.name)
	}
	if f.Stage == ir.StageCompute && (at.name == "location" || at.name == "interpolate") {
		c.errorf(at.off, "@%s is not allowed on a compute entry point's input (a compute shader has no user-defined IO; WGSL #entry-point-io-types)", at.name)
	}
	c.ioAttr(at, io)
}

// memberAttr checks one attribute of a struct member: an IO attribute
// (an entry point's input or output: ioAttr); others are outside the
// subset.
func (c *chkCtx) memberAttr(at *astAttr, io *ioAttrs) { c.ioAttr(at, io) }

// interpolateAttr reads @interpolate(type[, sampling]) (WGSL
// #interpolation; attrForm has checked the names): first and either
// only with flat, center only without; centroid and sample are outside
// the subset (v1 interpolates at the pixel centre).
func (c *chkCtx) interpolateAttr(at *astAttr) ir.Interpolation {
	id := at.args[0].(*astIdentExpr)
	t, _ := ir.LookupInterpType(id.name)
	in := ir.Interpolation{Type: t}
	if len(at.args) < 2 {
		return in
	}
	sid := at.args[1].(*astIdentExpr)
	switch sid.name {
	case "centroid", "sample":
		c.outsidef(sid.off, "@interpolate(%s, %s): %s sampling (gpudiff's v1 render pipelines interpolate at the pixel centre)", id.name, sid.name, sid.name)
	}
	s, _ := ir.LookupSampling(sid.name)
	switch {
	case t == ir.InterpFlat && s == ir.SamplingCenter:
		c.errorf(sid.off, "@interpolate(flat, %s): flat takes the sampling first or either (WGSL #interpolation)", sid.name)
	case t != ir.InterpFlat && (s == ir.SamplingFirst || s == ir.SamplingEither):
		c.errorf(sid.off, "@interpolate(%s, %s): the sampling %s is for flat only (WGSL #interpolation)", id.name, sid.name, sid.name)
	}
	in.Sampling = s
	return in
}

// locationAttr is the value of @location(n) (attrValues has checked it is
// a non-negative integer const-expression).
func (c *chkCtx) locationAttr(at *astAttr) int {
	return int(c.expr(at.args[0]).c.i)
}

// ioRole is what a user-defined IO value is to its stage.
type ioRole uint8

const (
	ioAttribute ioRole = iota // a vertex entry point's @location input
	ioVarying                 // a vertex output or a fragment input: interpolated
	ioFragOut                 // a fragment entry point's @location output
)

// userIO checks a user-defined IO value (a @location input or output,
// WGSL #entry-point-io-types, #interpolation): a numeric scalar or vector
// of 32-bit components (an f16 one is valid WGSL but outside the subset:
// gpudiff's render pipelines, rasterizer and vertex formats carry 32-bit
// IO values); @interpolate only
// with @location; an integer vertex output or fragment input written
// @interpolate(flat[, …]). varying is false for a vertex attribute and a
// fragment output: there @interpolate is valid but "only significant on
// user-defined vertex outputs and fragment inputs" (WGSL
// #interpolate-attr), so a fragment output and a vertex attribute keep it
// (the IR holds it, the WGSL emitter prints it, nothing reads it; the
// SPIR-V emitter decorates neither).
func (c *chkCtx) userIO(off int32, t *ir.Type, io ioAttrs, what string, role ioRole) {
	varying := role == ioVarying
	s := t
	if t.Kind == ir.KindVec {
		s = t.Elem
	}
	if s.Kind == ir.KindF16 {
		c.outsidef(off, "%s of type %v (f16 stage IO: gpudiff's render pipelines carry 32-bit IO values)", what, t)
	}
	if s.Kind != ir.KindF32 && s.Kind != ir.KindI32 && s.Kind != ir.KindU32 {
		c.errorf(off, "%s must be a numeric scalar or vector, not %v (WGSL #entry-point-io-types)", what, t)
	}
	if varying && s.IsInteger() && io.interp.Type != ir.InterpFlat {
		c.errorf(off, "%s of integer type %v needs @interpolate(flat) (WGSL #interpolation)", what, t)
	}
}

// resultAttrs checks a function's return type and its attributes against
// its stage: a compute entry point returns nothing; an ordinary function's
// result has no attributes; a fragment entry point's result is a value
// with @location(n), or a struct (with no attribute of its own) whose
// members each have a @location, every output a numeric scalar or vector
// (WGSL #entry-point-io-types); a vertex entry point's (vertexResult)
// holds @builtin(position). @builtin(frag_depth) and
// @builtin(sample_mask) outputs, @invariant and @blend_src are outside
// the subset.
func (c *chkCtx) resultAttrs(f *ir.Func, a *astDecl) {
	switch f.Stage {
	case ir.StageNone:
		if len(a.retAttrs) > 0 {
			c.outsidef(a.retAttrs[0].off, "return type attribute @%s", a.retAttrs[0].name)
		}
		return
	case ir.StageCompute:
		if a.ret != nil {
			c.errorf(a.ret.off, "a compute entry point cannot return a value")
		}
		return
	case ir.StageVertex:
		c.vertexResult(f, a)
		return
	}
	if a.ret == nil {
		return // FragmentEntry refuses a fragment entry point without outputs
	}
	res := f.Result
	if res.Kind == ir.KindStruct {
		if len(a.retAttrs) > 0 {
			c.errorf(a.retAttrs[0].off, "a fragment entry point returning a structure cannot have @%s on its return type: its members carry the @location attributes", a.retAttrs[0].name)
		}
		for _, fl := range res.Struct.Fields {
			switch {
			case fl.Builtin != "":
				c.outsidef(a.ret.off, "fragment output @builtin(%s) (member %s of %s)", fl.Builtin, fl.Name, res.Struct.Name)
			case !fl.HasLocation:
				c.errorf(a.ret.off, "member %s of %s, the output of fragment entry point '%s', needs a @location attribute (WGSL #entry-point-io-types)", fl.Name, res.Struct.Name, f.Name)
			}
			c.userIO(a.ret.off, fl.Type, ioAttrs{loc: fl.Location, interp: fl.Interp, off: a.ret.off}, "a fragment entry point's output member "+fl.Name, ioFragOut)
		}
		return
	}
	io := noIO()
	for _, at := range a.retAttrs {
		if at.name == "builtin" {
			c.builtinAttr(at)
			c.outsidef(at.off, "fragment output @builtin (only @location outputs are read back)")
		}
		c.ioAttr(at, &io)
	}
	if io.loc < 0 {
		c.errorf(a.ret.off, "the result of fragment entry point '%s' needs a @location attribute (WGSL #entry-point-io-types)", f.Name)
	}
	c.userIO(a.ret.off, res, io, "a fragment entry point's output", ioFragOut)
	f.ResultLocation = io.loc
	f.ResultInterp = io.interp // kept, never read (userIO)
}

// vertexResult checks a vertex entry point's result (WGSL
// #entry-point-io-types, #builtin-values): a bare @builtin(position)
// vec4<f32>, or a struct holding exactly one such member beside @location
// varyings (a bare @location result has no position, an error).
// @builtin(clip_distances) is outside the subset.
func (c *chkCtx) vertexResult(f *ir.Func, a *astDecl) {
	if a.ret == nil {
		c.errorf(a.kwOff, "vertex entry point '%s' must return @builtin(position) (WGSL #builtin-values)", f.Name)
	}
	res := f.Result
	if res.Kind == ir.KindStruct {
		if len(a.retAttrs) > 0 {
			c.errorf(a.retAttrs[0].off, "a vertex entry point returning a structure cannot have @%s on its return type: its members carry the IO attributes", a.retAttrs[0].name)
		}
		positions := 0
		locs := map[int]bool{}
		for _, fl := range res.Struct.Fields {
			switch {
			case fl.Builtin != "":
				c.vertexOutBuiltin(a.ret.off, fl.Builtin, fl.Type)
				positions++
			case fl.HasLocation:
				if locs[fl.Location] {
					c.errorf(a.ret.off, "@location(%d) appears more than once among the outputs of vertex entry point '%s' (member %s of %s)", fl.Location, f.Name, fl.Name, res.Struct.Name)
				}
				locs[fl.Location] = true
				c.userIO(a.ret.off, fl.Type, ioAttrs{loc: fl.Location, interp: fl.Interp, off: a.ret.off}, "vertex output member "+fl.Name, ioVarying)
			default:
				c.errorf(a.ret.off, "member %s of %s, the output of vertex entry point '%s', needs a @builtin or @location attribute (WGSL #entry-point-io-types)", fl.Name, res.Struct.Name, f.Name)
			}
		}
		if positions == 0 {
			c.errorf(a.ret.off, "the output %s of vertex entry point '%s' has no @builtin(position) member (WGSL #builtin-values)", res.Struct.Name, f.Name)
		}
		return
	}
	io := noIO()
	for _, at := range a.retAttrs {
		c.ioAttr(at, &io)
	}
	switch {
	case io.builtin != "":
		c.vertexOutBuiltin(a.ret.off, io.builtin, res)
		f.ResultBuiltin = io.builtin
	case io.loc >= 0:
		c.errorf(a.ret.off, "vertex entry point '%s' returns only @location(%d): it must return @builtin(position) (WGSL #builtin-values)", f.Name, io.loc)
	default:
		c.errorf(a.ret.off, "the result of vertex entry point '%s' needs a @builtin(position) attribute (WGSL #entry-point-io-types)", f.Name)
	}
	if !io.interp.IsZero() {
		c.errorf(io.off, "@interpolate on @builtin(%s): only user-defined IO is interpolated (WGSL #interpolation)", io.builtin)
	}
}

// vertexOutBuiltin checks a builtin output of a vertex entry point: only
// position, a vec4<f32>.
func (c *chkCtx) vertexOutBuiltin(off int32, name string, t *ir.Type) {
	want, ok := ir.VertexOutputBuiltins[name]
	if !ok {
		c.errorf(off, "@builtin(%s) is not an output of a vertex entry point (WGSL #builtin-values)", name)
	}
	if !ir.Identical(want, t) {
		c.errorf(off, "@builtin(%s) has type %v, not %v (WGSL #builtin-values)", name, t, want)
	}
}

// renderParam checks a vertex or fragment entry point's parameter: a
// builtin input of its stage of its type (ir.VertexBuiltins,
// ir.FragmentBuiltins), a @location input (userIO: a vertex attribute or
// a varying), or a struct whose members each are one. It returns the
// parameter's builtins and locations, for the duplicate checks.
func (c *chkCtx) renderParam(f *ir.Func, p *astParam, io ioAttrs, t *chkType) (builtins []string, locs []int) {
	builtinsOf, stage := ir.VertexBuiltins, "vertex"
	if f.Stage == ir.StageFragment {
		builtinsOf, stage = ir.FragmentBuiltins, "fragment"
	}
	what := "fragment input"
	if f.Stage == ir.StageVertex {
		what = "vertex attribute"
	}
	// off is where the parameter is; nameOff and typeOff where its
	// builtin's name and its type are (off for a struct's member).
	one := func(off, nameOff, typeOff int32, builtin string, loc int, in ir.Interpolation, ty *ir.Type, name string) {
		switch {
		case builtin != "" && loc >= 0:
			c.errorf(off, "%s has both @builtin and @location (WGSL #entry-point-io-types)", name)
		case builtin != "":
			want, ok := builtinsOf[builtin]
			if !ok && stage == "fragment" && ir.SubgroupBuiltin(builtin) {
				// Valid WGSL (#subgroup-builtin-values: compute and
				// fragment inputs); gpudiff's fragment stage has none.
				c.outsidef(nameOff, "builtin value %s in a fragment entry point (gpudiff takes the subgroup builtin values in compute entry points)", builtin)
			}
			if !ok {
				c.errorf(nameOff, "@builtin(%s) is not an input of a %s entry point (WGSL #builtin-values)", builtin, stage)
			}
			if !ir.Identical(want, ty) {
				c.errorf(typeOff, "@builtin(%s) has type %v, not %v (WGSL #builtin-values)", builtin, ty, want)
			}
			if !in.IsZero() {
				c.errorf(off, "@interpolate on @builtin(%s): only user-defined IO is interpolated (WGSL #interpolation)", builtin)
			}
			builtins = append(builtins, builtin)
		case loc >= 0:
			role := ioAttribute
			if f.Stage == ir.StageFragment {
				role = ioVarying
			}
			c.userIO(off, ty, ioAttrs{loc: loc, interp: in, off: off}, what+" "+name, role)
			locs = append(locs, loc)
		default:
			c.errorf(off, "entry point parameter %s needs a @builtin or @location attribute (WGSL #entry-point-io-types)", name)
		}
	}
	if io.builtin == "" && io.loc < 0 && t.k == ckStruct {
		if !io.interp.IsZero() {
			c.errorf(io.off, "@interpolate on a structure parameter: its members carry the IO attributes")
		}
		for _, fl := range t.st.Fields {
			one(p.off, p.off, p.off, fl.Builtin, locOf(fl), fl.Interp, fl.Type, "'"+p.name+"' member "+fl.Name)
		}
		return
	}
	one(p.off, io.builtinOff, p.typ.off, io.builtin, io.loc, io.interp, t.toIR(), "'"+p.name+"'")
	return
}

func locOf(fl ir.Field) int {
	if fl.HasLocation {
		return fl.Location
	}
	return -1
}
