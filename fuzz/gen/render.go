package gen

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// Render pipelines (the "render" profile, Profile.Render; issue 39): a
// program is a @vertex and a @fragment entry point in one module, as a
// shader author writes a draw, with the draw itself (Program.Draw,
// render_inputs.go). Names are fixed; T, U are generated types:
//
//	struct Uniforms { f0: T, … }                                    (optional)
//	@group(0) @binding(0) var<uniform> u: Uniforms;
//	@group(0) @binding(1) var tex: texture_2d<f32>;                 (optional, with smp)
//	@group(0) @binding(2) var smp: sampler;
//	struct VOut { @builtin(position) pos: vec4<f32>, @location(k) [@interpolate(…)] vk: T, … }
//
//	@vertex
//	fn vs(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32,
//	      @location(k) pos: vec2<f32>, @location(k) ak: T, …) -> VOut {   (or one struct VIn of them)
//	  [let un = u;] var acc = …; { generated statements }
//	  let pxy = clamp(pos.xy + clamp(E, -2, 2) * 0.0625, -0.9375, 0.9375);
//	  let pz = 0.5 + clamp(E, -6, 6) * 0.0625;  let pw = 1.0 + clamp(E, 0, 4) * 0.25;  (or 1.0)
//	  var o: VOut; o.pos = vec4(pxy * pw, pz * pw, pw); o.vk = …; return o;
//	}
//
//	fn dk(p0: U) { if (…) { discard; } }                          (optional)
//
//	@fragment
//	fn fs(in: VOut, @builtin(front_facing) ff: bool) -> FOut {    (or the varyings as params, or a struct FIn)
//	  let … = the flat varyings, vec2<u32>(position.xy), the uniform;
//	  [if (c) { discard; }]                                       (before the derivatives, or later)
//	  let d0 = dpdxFine(in.v1.y); let ts0 = textureSample(tex, smp, in.v2);
//	  var acc = …; { generated statements } [if (c) { discard; } | dk(…);] { generated statements }
//	  var o: FOut; o.c0 = vec4<f32>(…); o.c1 = …; return o;        (or a bare @location(0) vec4<f32>)
//	}
//
// What keeps every such program valid, exact where it can be, and its
// draw drawing, by construction:
//
//   - The position. pos is an attribute (@location, float32x2–4) whose x
//     and y are multiples of 1/64 in [-0.875, 0.875] (RenderInputs); it
//     is never in the generated statements' scope (its fractions would
//     leave the exact domain). Every E is a generated f32 expression, an
//     integer in the exact domain, so clamp(E, a, b) · 2^-k is a small
//     dyadic rational: pxy is a multiple of 1/64 within ±0.9375, pz one
//     of 1/16 in [0.125, 0.875], pw one of 1/4 in [1, 2], and the
//     products pxy·pw, pz·pw are exact in f32. So every vertex lies
//     inside the clip volume (|x|, |y| ≤ 0.9375·w, 0 < z < w, w ≥ 1:
//     WebGPU #clipping, nothing is clipped) and its position is the same
//     bits on every conforming implementation; x/w is pxy up to the
//     GPU's division. With w varying per vertex, perspective and linear
//     interpolation differ.
//   - Varyings of every interpolation v1 takes (WGSL #interpolation): f32
//     scalars and vectors with none written (perspective), perspective,
//     linear (each with or without center), flat, flat first and flat
//     either; integer ones always flat (as WGSL requires). The fragment
//     reads all of them (in: VOut) or a subset, with the same
//     @interpolate (wgsl.CheckInterface holds).
//   - What the fragment's generated statements see is exact in the
//     reference: flat varyings (the provoking vertex's value),
//     vec2<u32>(position.xy) (the pixel, WebGPU #rasterization: x + ½, y
//     + ½), front_facing, the uniform and private globals. Interpolated
//     varyings, position.z and .w, derivatives and texture samples carry
//     an allowed interval in the reference (interp/raster); they reach
//     only the vec4<f32> output, through arithmetic (never a branch, so
//     the reference never forks on them). A flat either varying is the
//     first or the last vertex's value: most are computed from values
//     constant over a primitive (instance_index, per-instance attributes,
//     the uniform, a triangle list's per-triangle attribute tri), so both
//     are one value and the statements may branch on it; a few
//     (renderFreeEither percent) are computed from anything, to exercise
//     the reference's two-member sets.
//   - Derivatives (dpdx, dpdy, fwidth, coarse and fine) and textureSample
//     run at the top of the fragment, before any generated control flow:
//     uniform control flow (WGSL #uniformity), in the original and in
//     flatten's twin. A discard may precede them: discard demotes (WGSL
//     #discard-statement) and does not change uniformity, so they stay
//     valid, and the demoted helper's values still feed its quad's
//     derivatives — where a stack that kills the invocation instead
//     (naga's OpKill) would differ.
//   - discard runs under a generated condition: at the top, after the
//     first statements, or in a helper dk the fragment alone calls.
//   - No early return in either stage (the statement generator's
//     noReturn); the helpers are the kernels' own (exact, terminating,
//     within flatten's caps), called from both stages.
//   - Outputs: @location(0) vec4<f32>, and sometimes more @location
//     outputs (u32, i32 scalars and vectors, not vec3) within WebGPU's
//     32 bytes per sample; at least one output reads acc, so the
//     generated statements reach the target.
//
// Such a module verifies (ir.Verify), its EmitDraw text parses back
// (compiler/wgsl), its entry points pass wgsl.VertexEntry,
// wgsl.DrawFragmentEntry and wgsl.CheckInterface, and flatten takes both
// (render_test.go checks it over many seeds).

// The names of a render program's entry points (Program.Vertex and
// Program.Kernel of a render-profile program).
const (
	RenderVertexName   = "vs"
	RenderFragmentName = "fs"
)

// renderFreeEither is the percentage of flat either varyings computed
// from values that may differ between a primitive's vertices.
const renderFreeEither = 15

// renderAttr is a vertex attribute.
type renderAttr struct {
	name string // the parameter's or VIn member's name
	loc  int
	t    *ir.Type
	// instance: the attribute steps per instance; pos: the position
	// attribute; tri: a triangle list's per-triangle index (vertex / 3).
	instance, pos, tri bool
	// field is its member index in VIn (-1: a parameter), param its
	// parameter's index.
	field, param int
}

// renderVarying is a user-defined vertex output, a VOut member.
type renderVarying struct {
	loc    int
	t      *ir.Type
	interp ir.Interpolation
	// soft: perspective or linear (an interval in the fragment's
	// reference); either: flat either; free: an either varying computed
	// from anything; uv: the texture coordinate.
	soft, either, free, uv bool
	field                  int
}

func (v *renderVarying) name() string { return fmt.Sprintf("v%d", v.loc) }

// renderGen holds a render program's state beside the generator.
type renderGen struct {
	g *generator
	r *chooser

	strip bool // the draw's topology is triangle-strip
	attrs []*renderAttr
	vin   *ir.StructDecl // nil: the attributes are parameters
	vout  *ir.StructDecl // nil: vs returns a bare position
	posF  int            // the position's member index in VOut
	vary  []*renderVarying
	io    []*ir.StructDecl // the IO structs, added to the module last

	uniform *ir.SharedVar
	tex     *ir.TextureVar
	smp     *ir.TextureVar

	// Set by the fragment for render_inputs.go and the tests.
	outputs []*ir.Type
	inputs  *RenderInputs
}

// generateRender is generate for a profile with Render set.
func generateRender(src source, cfg Config) *Program {
	cfg = cfg.normalized()
	g := newGenerator(&chooser{src: src}, cfg, shape{})
	rg := &renderGen{g: g, r: g.r}
	rg.program()
	if err := ir.Normalize(g.m); err != nil {
		panic(fmt.Sprintf("gen: generated render program does not verify (generator bug): %v\n%s", err, ir.Print(g.m)))
	}
	return &Program{Module: g.m, Kernel: RenderFragmentName, Vertex: RenderVertexName, Draw: rg.inputs}
}

func (rg *renderGen) program() {
	g, r := rg.g, rg.r
	g.genStructs()
	g.genGlobals()
	for i, n := 0, r.between(0, g.nHelpers); i < n; i++ {
		g.genHelper(i)
	}
	rg.strip = r.chance(30)
	if r.chance(75) {
		rg.declareUniform()
	}
	if r.chance(40) {
		rg.declareTexture()
	}
	rg.declareAttributes()
	rg.declareVaryings()
	rg.vertex()
	rg.fragment()
	g.m.Structs = append(g.m.Structs, rg.io...)
	// Helpers neither stage reaches are dropped.
	live := map[string]bool{}
	for _, ep := range []string{RenderVertexName, RenderFragmentName} {
		for _, fn := range g.m.CallGraph(ep) {
			live[fn.Name] = true
		}
	}
	fs := g.m.Funcs[:0]
	for _, fn := range g.m.Funcs {
		if live[fn.Name] {
			fs = append(fs, fn)
		}
	}
	g.m.Funcs = fs
	rg.makeInputs()
}

// ioScalar picks i32, u32 or f32; ioType a scalar or vector of one
// (vec3 when three is true).
func (rg *renderGen) ioScalar() *ir.Type {
	return []*ir.Type{ir.F32, ir.U32, ir.I32}[rg.r.weighted(50, 25, 25)]
}

func (rg *renderGen) ioType(s *ir.Type, three bool) *ir.Type {
	lens := []int{1, 2, 3, 4}
	ws := []int{40, 25, 15, 20}
	if !three {
		ws[2] = 0
	}
	n := lens[rg.r.weighted(ws...)]
	if n == 1 {
		return s
	}
	return ir.Vec(n, s)
}

// declareUniform adds var<uniform> u of a struct of scalars and
// vectors (no vec3, no arrays: no padding rules to get wrong).
func (rg *renderGen) declareUniform() {
	s := &ir.StructDecl{Name: "Uniforms"}
	for i, n := 0, rg.r.between(1, 4); i < n; i++ {
		s.Fields = append(s.Fields, ir.Field{Name: fmt.Sprintf("f%d", i), Type: rg.ioType(rg.ioScalar(), false)})
	}
	rg.g.m.Structs = append(rg.g.m.Structs, s)
	rg.uniform = &ir.SharedVar{Name: "u", T: ir.StructType(s), Space: ir.SpaceUniform, Access: ir.AccessRead, Group: 0, Binding: 0}
	rg.g.m.Shared = append(rg.g.m.Shared, rg.uniform)
}

// declareTexture adds a sampled texture_2d<f32> and a filtering
// sampler; the fragment samples it at the uv varying.
func (rg *renderGen) declareTexture() {
	m := rg.g.m
	rg.tex = &ir.TextureVar{Name: "tex", T: ir.TextureOf(ir.TexSampled, ir.Tex2D, ir.F32, 0, 0), Group: 0, Binding: 1}
	rg.smp = &ir.TextureVar{Name: "smp", T: ir.SamplerOf(false), Group: 0, Binding: 2}
	m.Textures = append(m.Textures, rg.tex, rg.smp)
}

// distinctLocs returns n distinct locations in [0, 10), shuffled.
func (rg *renderGen) distinctLocs(n int) []int {
	pool := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	for i := len(pool) - 1; i > 0; i-- {
		j := rg.r.intn(i + 1)
		pool[i], pool[j] = pool[j], pool[i]
	}
	if rg.r.chance(50) {
		// Often the first locations, in order, as most shaders have them.
		for i := range pool {
			pool[i] = i
		}
	}
	return pool[:n]
}

func (rg *renderGen) declareAttributes() {
	r := rg.r
	n := r.between(0, 3)
	tri := !rg.strip && r.chance(40)
	total := 1 + n
	if tri {
		total++
	}
	locs := rg.distinctLocs(total)
	pt := []*ir.Type{ir.Vec(2, ir.F32), ir.Vec(3, ir.F32), ir.Vec(4, ir.F32)}[r.weighted(70, 15, 15)]
	rg.attrs = append(rg.attrs, &renderAttr{name: "pos", loc: locs[0], t: pt, pos: true, field: -1})
	for i := 0; i < n; i++ {
		a := &renderAttr{name: fmt.Sprintf("a%d", i), loc: locs[1+i], t: rg.ioType(rg.ioScalar(), true), field: -1}
		a.instance = r.chance(25)
		rg.attrs = append(rg.attrs, a)
	}
	if tri {
		rg.attrs = append(rg.attrs, &renderAttr{name: "tri", loc: locs[total-1], t: ir.U32, tri: true, field: -1})
	}
}

// declareVaryings draws the varyings and VOut (none: a bare position;
// the uv varying when there is a texture).
func (rg *renderGen) declareVaryings() {
	r := rg.r
	n := r.between(0, 5)
	if rg.tex != nil && n == 0 {
		n = 1
	}
	if n == 0 && r.chance(50) {
		n = 1 // a bare position result is the rarer shape
	}
	locs := rg.distinctLocs(n)
	for i := 0; i < n; i++ {
		v := &renderVarying{loc: locs[i]}
		if i == 0 && rg.tex != nil {
			v.uv, v.soft, v.t = true, true, ir.Vec(2, ir.F32)
			if r.chance(30) {
				v.interp = ir.Interpolation{Type: ir.InterpLinear}
			}
			rg.vary = append(rg.vary, v)
			continue
		}
		if r.chance(60) {
			v.t = rg.ioType(ir.F32, true)
			in := []ir.Interpolation{
				{},
				{Type: ir.InterpPerspective},
				{Type: ir.InterpPerspective, Sampling: ir.SamplingCenter},
				{Type: ir.InterpLinear},
				{Type: ir.InterpLinear, Sampling: ir.SamplingCenter},
				{Type: ir.InterpFlat},
				{Type: ir.InterpFlat, Sampling: ir.SamplingFirst},
				{Type: ir.InterpFlat, Sampling: ir.SamplingEither},
			}
			v.interp = in[r.weighted(20, 10, 5, 15, 5, 10, 5, 10)]
		} else {
			v.t = rg.ioType([]*ir.Type{ir.U32, ir.I32}[r.intn(2)], true)
			in := []ir.Interpolation{
				{Type: ir.InterpFlat},
				{Type: ir.InterpFlat, Sampling: ir.SamplingFirst},
				{Type: ir.InterpFlat, Sampling: ir.SamplingEither},
			}
			v.interp = in[r.weighted(45, 20, 35)]
		}
		res := v.interp.Resolved(v.t)
		v.soft = res.Type != ir.InterpFlat
		v.either = res.Sampling == ir.SamplingEither
		v.free = v.either && r.chance(renderFreeEither)
		rg.vary = append(rg.vary, v)
	}
	if len(rg.vary) == 0 {
		return
	}
	s := &ir.StructDecl{Name: "VOut"}
	rg.posF = r.intn(len(rg.vary) + 1)
	if r.chance(60) {
		rg.posF = 0
	}
	for i := 0; i <= len(rg.vary); i++ {
		if i == rg.posF {
			s.Fields = append(s.Fields, ir.Field{Name: "pos", Type: ir.Vec(4, ir.F32), Builtin: "position"})
		}
		if i < len(rg.vary) {
			v := rg.vary[i]
			v.field = len(s.Fields)
			s.Fields = append(s.Fields, ir.Field{Name: v.name(), Type: v.t, HasLocation: true, Location: v.loc, Interp: v.interp})
		}
	}
	rg.vout = s
	rg.io = append(rg.io, s)
}

// shuffle permutes n items with swap.
func (rg *renderGen) shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, rg.r.intn(i+1))
	}
}

// phase appends a block of generated statements spending up to budget
// of c's statement budget.
func phase(c *fnGen, stmts *[]ir.Stmt, budget int) {
	if c.budget <= 0 {
		return
	}
	saved := c.budget
	c.budget = min(budget, c.budget)
	spent := c.budget
	c.push()
	ss := c.stmtList(c.budget)
	c.pop()
	spent -= c.budget
	c.budget = saved - spent
	if len(ss) > 0 {
		*stmts = append(*stmts, &ir.Block{Stmts: ss})
	}
}

// letIn appends `let name = e;` to stmts, declared to c when visible.
func letIn(c *fnGen, stmts *[]ir.Stmt, name string, e ir.Expr, visible bool) func() *ir.Ident {
	*stmts = append(*stmts, &ir.Decl{Name: name, T: e.Type(), Init: e})
	if visible {
		c.declare(name, e.Type(), ir.RefLet, false)
	}
	t := e.Type()
	return func() *ir.Ident { return &ir.Ident{Name: name, T: t, Ref: ir.RefLet} }
}

// accType picks the type of a stage's accumulator.
func (rg *renderGen) accType() *ir.Type {
	t := rg.ioScalar()
	if rg.r.chance(30) {
		t = ir.Vec(rg.r.between(2, 4), t)
	}
	return t
}

// mix returns an exact combination of e (a scalar or vector of i32,
// u32 or f32) with acc's first component.
func (rg *renderGen) mix(e ir.Expr, acc *ir.Ident) ir.Expr {
	t := e.Type()
	var a ir.Expr = acc
	if acc.T.Kind == ir.KindVec {
		a = swizzle(a, 0)
	}
	v := convertScalar(a, t.Scalar())
	if t.Kind == ir.KindVec {
		v = construct(t, v)
	}
	if t.Scalar().Kind == ir.KindF32 {
		return fclamp(bin(ir.OpAdd, e, v))
	}
	return bin([]ir.BinaryOp{ir.OpAdd, ir.OpXor, ir.OpSub}[rg.r.intn(3)], e, v)
}

func f32Lit(t *ir.Type, x float32) ir.Expr {
	if t.Kind == ir.KindVec {
		es := make([]ir.Value, t.Len)
		for i := range es {
			es[i] = ir.F32Val(x)
		}
		return lit(ir.CompositeVal(t, es...))
	}
	return lit(ir.F32Val(x))
}

// scaled returns clamp(e, lo, hi) * k for an f32 (vector) expression e.
func scaled(e ir.Expr, lo, hi, k float32) ir.Expr {
	t := e.Type()
	return bin(ir.OpMul, builtin(ir.BClamp, e, f32Lit(t, lo), f32Lit(t, hi)), lit(ir.F32Val(k)))
}

// vertex generates vs.
func (rg *renderGen) vertex() {
	g, r := rg.g, rg.r
	f := &ir.Func{Name: RenderVertexName, Stage: ir.StageVertex}
	if rg.vout != nil {
		f.Result = ir.StructType(rg.vout)
	} else {
		f.Result, f.ResultBuiltin = ir.Vec(4, ir.F32), "position"
	}
	// The inputs: the two builtins and the attributes, in any order.
	type input struct {
		name, builtin string
		t             *ir.Type
		a             *renderAttr
	}
	ins := []input{{name: "vi", builtin: "vertex_index", t: ir.U32}, {name: "ii", builtin: "instance_index", t: ir.U32}}
	for _, a := range rg.attrs {
		ins = append(ins, input{name: a.name, t: a.t, a: a})
	}
	rg.shuffle(len(ins), func(i, j int) { ins[i], ins[j] = ins[j], ins[i] })

	c := newFnGen(g, f, max(2, g.kernelBudget/3), g.callDepth)
	c.kernel = true   // the unroll cap is the entry point's
	c.noReturn = true // the result is built at the end
	c.push()
	var stmts []ir.Stmt
	access := map[string]func() ir.Expr{}
	if r.chance(25) {
		// One struct of inputs: its members as lets.
		s := &ir.StructDecl{Name: "VIn"}
		for _, in := range ins {
			fl := ir.Field{Name: in.name, Type: in.t, Builtin: in.builtin}
			if in.a != nil {
				fl.HasLocation, fl.Location = true, in.a.loc
				in.a.field, in.a.param = len(s.Fields), 0
			}
			s.Fields = append(s.Fields, fl)
		}
		rg.vin = s
		rg.io = append(rg.io, s)
		st := ir.StructType(s)
		f.Params = []*ir.Param{{Name: "vin", T: st}}
		for i, in := range ins {
			e := member(&ir.Ident{Name: "vin", T: st, Ref: ir.RefParam}, i)
			id := letIn(c, &stmts, in.name, e, in.a == nil || !in.a.pos)
			access[in.name] = func() ir.Expr { return id() }
		}
	} else {
		for _, in := range ins {
			p := &ir.Param{Name: in.name, T: in.t, Builtin: in.builtin}
			if in.a != nil {
				p.HasLocation, p.Location = true, in.a.loc
				in.a.param = len(f.Params)
			}
			f.Params = append(f.Params, p)
			if in.a == nil || !in.a.pos {
				c.declare(in.name, in.t, ir.RefParam, false)
			}
			name, t := in.name, in.t
			access[in.name] = func() ir.Expr { return &ir.Ident{Name: name, T: t, Ref: ir.RefParam} }
		}
	}
	// What is constant over a primitive (for the flat either varyings).
	var constant []*variable
	for _, v := range c.scopes[len(c.scopes)-1] {
		if v.name == "ii" {
			constant = append(constant, v)
		}
		for _, a := range rg.attrs {
			if v.name == a.name && (a.instance || a.tri) {
				constant = append(constant, v)
			}
		}
	}
	if rg.uniform != nil && r.chance(60) {
		id := letIn(c, &stmts, "un", &ir.Ident{Name: "u", T: rg.uniform.T, Ref: ir.RefShared}, true)
		constant = append(constant, &variable{name: id().Name, t: rg.uniform.T, ref: ir.RefLet})
	}
	at := rg.accType()
	stmts = append(stmts, &ir.Decl{Name: "acc", T: at, Mutable: true, Init: c.expr(at, g.exprDepth)})
	c.declare("acc", at, ir.RefVar, false)
	acc := &ir.Ident{Name: "acc", T: at, Ref: ir.RefVar}
	phase(c, &stmts, c.budget)

	// The position, inside the clip volume by construction.
	v2 := ir.Vec(2, ir.F32)
	var pa ir.Expr = access["pos"]()
	pa = swizzle(pa, 0, 1)
	e := func(t *ir.Type) ir.Expr { return c.nonConst(c.expr(t, g.exprDepth)) }
	ez := e(ir.F32)
	if r.chance(40) {
		ez = rg.mix(ez, acc)
	}
	pxy := letIn(c, &stmts, "pxy", builtin(ir.BClamp, bin(ir.OpAdd, pa, scaled(e(v2), -2, 2, 0.0625)), f32Lit(v2, -0.9375), f32Lit(v2, 0.9375)), false)
	pz := letIn(c, &stmts, "pz", bin(ir.OpAdd, lit(ir.F32Val(0.5)), scaled(ez, -6, 6, 0.0625)), false)
	var pwE ir.Expr = lit(ir.F32Val(1))
	if r.chance(60) {
		pwE = bin(ir.OpAdd, lit(ir.F32Val(1)), scaled(e(ir.F32), 0, 4, 0.25))
	}
	pw := letIn(c, &stmts, "pw", pwE, false)
	pos := construct(ir.Vec(4, ir.F32), bin(ir.OpMul, pxy(), pw()), bin(ir.OpMul, pz(), pw()), pw())

	if rg.vout == nil {
		stmts = append(stmts, &ir.Return{Value: pos})
	} else {
		ot := ir.StructType(rg.vout)
		o := func() *ir.Ident { return &ir.Ident{Name: "o", T: ot, Ref: ir.RefVar} }
		stmts = append(stmts, &ir.Decl{Name: "o", T: ot, Mutable: true})
		stmts = append(stmts, &ir.Assign{LHS: member(o(), rg.posF), RHS: pos})
		for i, v := range rg.vary {
			var val ir.Expr
			switch {
			case v.uv:
				// [-1, 1] in steps of 1/8: inside and outside the
				// texture, where its address modes apply.
				val = scaled(e(v.t), -8, 8, 0.125)
			case v.either && !v.free:
				val = rg.constantExpr(c, v.t, constant)
			default:
				val = c.expr(v.t, g.exprDepth)
				if v.soft && r.chance(50) {
					val = builtin(ir.BClamp, c.nonConst(val), f32Lit(v.t, -64), f32Lit(v.t, 64))
				}
			}
			if i == 0 && !v.uv && !(v.either && !v.free) && r.chance(60) {
				val = rg.mix(c.nonConst(val), acc)
			}
			stmts = append(stmts, &ir.Assign{LHS: member(o(), v.field), RHS: val})
		}
		stmts = append(stmts, &ir.Return{Value: o()})
	}
	c.pop()
	f.Body = &ir.Block{Stmts: stmts}
	g.m.Funcs = append(g.m.Funcs, f)
}

// constantExpr returns an expression of type t over the variables in
// constant only (values equal at every vertex of a primitive), calling
// no helper (helpers read private globals, which differ per vertex).
func (rg *renderGen) constantExpr(c *fnGen, t *ir.Type, constant []*variable) ir.Expr {
	saved := c.scopes
	c.scopes = [][]*variable{constant}
	c.noCalls++
	e := c.expr(t, rg.g.exprDepth)
	c.noCalls--
	c.scopes = saved
	return e
}

// soft is a value of the fragment that carries an interval in the
// reference: it reaches only the float output, through arithmetic.
type soft func() ir.Expr

// fragment generates fs (and dk, when the discard is in a helper).
func (rg *renderGen) fragment() {
	g, r := rg.g, rg.r
	f := &ir.Func{Name: RenderFragmentName, Stage: ir.StageFragment}
	c := newFnGen(g, f, max(3, g.kernelBudget/2), g.callDepth)
	c.kernel = true
	c.noReturn = true
	c.push()
	var stmts []ir.Stmt

	// The inputs: which varyings, position, front_facing, and how.
	type input struct {
		name, builtin string
		t             *ir.Type
		v             *renderVarying
	}
	var ins []input
	wholeVOut := rg.vout != nil && r.chance(35)
	if !wholeVOut {
		for _, v := range rg.vary {
			if v.uv || r.chance(75) {
				ins = append(ins, input{name: v.name(), t: v.t, v: v})
			}
		}
		if r.chance(60) {
			ins = append(ins, input{name: "fpos", builtin: "position", t: ir.Vec(4, ir.F32)})
		}
	}
	ffParam := r.chance(50)
	asStruct := !wholeVOut && len(ins) > 0 && r.chance(35)
	if asStruct && ffParam && r.chance(50) {
		ins = append(ins, input{name: "ff", builtin: "front_facing", t: ir.Bool})
		ffParam = false
	}
	rg.shuffle(len(ins), func(i, j int) { ins[i], ins[j] = ins[j], ins[i] })
	access := map[string]func() ir.Expr{}
	var ffAccess func() ir.Expr
	switch {
	case wholeVOut:
		vt := ir.StructType(rg.vout)
		f.Params = append(f.Params, &ir.Param{Name: "vin", T: vt})
		in := func(i int) func() ir.Expr {
			return func() ir.Expr { return member(&ir.Ident{Name: "vin", T: vt, Ref: ir.RefParam}, i) }
		}
		for _, v := range rg.vary {
			access[v.name()] = in(v.field)
		}
		access["fpos"] = in(rg.posF)
	case asStruct:
		s := &ir.StructDecl{Name: "FIn"}
		st := ir.StructType(s)
		f.Params = append(f.Params, &ir.Param{Name: "fin", T: st})
		for i, in := range ins {
			fl := ir.Field{Name: in.name, Type: in.t, Builtin: in.builtin}
			if in.v != nil {
				fl.HasLocation, fl.Location, fl.Interp = true, in.v.loc, in.v.interp
			}
			s.Fields = append(s.Fields, fl)
			i := i
			acc := func() ir.Expr { return member(&ir.Ident{Name: "fin", T: st, Ref: ir.RefParam}, i) }
			if in.builtin == "front_facing" {
				ffAccess = acc
			} else {
				access[in.name] = acc
			}
		}
		rg.io = append(rg.io, s)
	default:
		for _, in := range ins {
			p := &ir.Param{Name: in.name, T: in.t, Builtin: in.builtin}
			if in.v != nil {
				p.HasLocation, p.Location, p.Interp = true, in.v.loc, in.v.interp
			}
			f.Params = append(f.Params, p)
			name, t := in.name, in.t
			access[in.name] = func() ir.Expr { return &ir.Ident{Name: name, T: t, Ref: ir.RefParam} }
		}
	}
	if ffParam {
		p := &ir.Param{Name: "ff", T: ir.Bool, Builtin: "front_facing"}
		at := r.intn(len(f.Params) + 1)
		f.Params = append(f.Params[:at], append([]*ir.Param{p}, f.Params[at:]...)...)
		ffAccess = func() ir.Expr { return &ir.Ident{Name: "ff", T: ir.Bool, Ref: ir.RefParam} }
	}

	// The exact values, as lets the generated statements see, and the
	// soft ones, as lets they do not.
	var softs []soft
	var uv func() *ir.Ident
	// key is an exact run-time u32 of the fragment that no fold can
	// make a constant (the pixel's x + y, else an input's): a discard's
	// condition is `c && key % m == k`, so that it never folds to true
	// (every pixel discarded) and discards a pattern of pixels.
	var key func() ir.Expr
	keyFrom := func(of func() ir.Expr) {
		if key != nil {
			return
		}
		key = func() ir.Expr {
			e := of()
			if e.Type().Kind == ir.KindVec {
				e = swizzle(e, 0)
			}
			if e.Type().Kind == ir.KindBool {
				return &ir.Select{False: lit(ir.U32Val(0)), True: lit(ir.U32Val(1)), Cond: e, T: ir.U32}
			}
			return convertScalar(e, ir.U32)
		}
	}
	for _, v := range rg.vary {
		get, ok := access[v.name()]
		if !ok {
			continue
		}
		name := "f" + v.name()
		if v.soft {
			name = "s" + v.name()
		}
		id := letIn(c, &stmts, name, get(), !v.soft)
		if v.soft {
			softs = append(softs, func() ir.Expr { return id() })
		}
		if v.uv {
			uv = id
		}
		if !v.soft && !v.free && v.t.Scalar().IsInteger() {
			keyFrom(func() ir.Expr { return id() })
		}
	}
	if get, ok := access["fpos"]; ok {
		fp := letIn(c, &stmts, "fp", get(), false)
		letIn(c, &stmts, "px", convert(ir.Vec(2, ir.U32), swizzle(fp(), 0, 1)), true)
		softs = append(softs, func() ir.Expr { return swizzle(fp(), 2) }, func() ir.Expr { return swizzle(fp(), 3) })
		key = func() ir.Expr {
			px := &ir.Ident{Name: "px", T: ir.Vec(2, ir.U32), Ref: ir.RefLet}
			return bin(ir.OpAdd, swizzle(px, 0), swizzle(ir.CloneExpr(px), 1))
		}
	}
	if ffAccess != nil {
		ffv := letIn(c, &stmts, "ffv", ffAccess(), true)
		keyFrom(func() ir.Expr { return ffv() })
	}
	if rg.uniform != nil && r.chance(80) {
		un := letIn(c, &stmts, "un", &ir.Ident{Name: "u", T: rg.uniform.T, Ref: ir.RefShared}, true)
		keyFrom(func() ir.Expr { return member(un(), 0) })
	}
	if key == nil {
		// The first private global, g0 (a scalar), which no fold knows.
		g0 := g.m.Globals[0]
		keyFrom(func() ir.Expr { return &ir.Ident{Name: g0.Name, T: g0.T, Ref: ir.RefGlobal} })
	}

	// discard: where, if anywhere.
	const (
		noDiscard = iota
		discardFirst
		discardLater
		discardHelper
	)
	where := noDiscard
	if r.chance(80) {
		where = []int{discardFirst, discardLater, discardHelper}[r.weighted(30, 50, 20)]
	}
	discardIf := func() ir.Stmt {
		return &ir.If{Cond: rg.keyed(c.cond(), key()), Then: ir.NewBlock(ir.Pos{}, &ir.Discard{}), Else: &ir.Block{}}
	}
	if where == discardFirst {
		stmts = append(stmts, discardIf())
	}

	// Derivatives and sampling, in uniform control flow.
	derivs := []ir.Builtin{ir.BDpdx, ir.BDpdxCoarse, ir.BDpdxFine, ir.BDpdy, ir.BDpdyCoarse, ir.BDpdyFine, ir.BFwidth, ir.BFwidthCoarse, ir.BFwidthFine}
	nd := 0
	if r.chance(70) {
		nd = r.between(1, 3)
	}
	for i := 0; i < nd; i++ {
		var operand ir.Expr
		if len(softs) > 0 && r.chance(85) {
			operand = softs[r.intn(len(softs))]()
			if operand.Type().Kind == ir.KindVec && r.chance(50) {
				operand = swizzle(operand, uint8(r.intn(operand.Type().Len)))
			}
		} else {
			// A derivative of an exact value: the pixel's own x or y.
			operand = convertScalar(c.runtime(ir.Vec(2, ir.U32)), ir.F32)
		}
		id := letIn(c, &stmts, fmt.Sprintf("d%d", i), builtin(derivs[r.intn(len(derivs))], operand), false)
		softs = append(softs, func() ir.Expr { return id() })
	}
	if rg.tex != nil && uv != nil {
		for i, n := 0, r.between(1, 2); i < n; i++ {
			tc := &ir.TextureCall{Op: ir.TexSample, Args: []ir.Expr{
				&ir.Ident{Name: rg.tex.Name, T: rg.tex.T, Ref: ir.RefHandle},
				&ir.Ident{Name: rg.smp.Name, T: rg.smp.T, Ref: ir.RefHandle}, uv()}}
			form, err := ir.TextureForm(ir.TexSample, rg.tex.T, 3, false)
			if err != nil {
				panic(fmt.Sprintf("gen: %v (generator bug)", err))
			}
			tc.Form, tc.T = form, ir.TextureResultType(ir.TexSample, rg.tex.T)
			id := letIn(c, &stmts, fmt.Sprintf("ts%d", i), tc, false)
			softs = append(softs, func() ir.Expr { return id() })
		}
	}

	at := rg.accType()
	stmts = append(stmts, &ir.Decl{Name: "acc", T: at, Mutable: true, Init: c.expr(at, g.exprDepth)})
	c.declare("acc", at, ir.RefVar, false)
	acc := &ir.Ident{Name: "acc", T: at, Ref: ir.RefVar}
	phase(c, &stmts, max(1, c.budget/2))
	switch where {
	case discardLater:
		stmts = append(stmts, discardIf())
	case discardHelper:
		stmts = append(stmts, rg.discardHelper(key()))
	}
	phase(c, &stmts, c.budget)

	// The outputs.
	rg.outputs = []*ir.Type{ir.Vec(4, ir.F32)}
	bytes := 16
	if r.chance(50) {
		for i, n := 0, r.between(1, 2); i < n; i++ {
			t := []*ir.Type{ir.U32, ir.I32}[r.intn(2)]
			if k := []int{1, 2, 4}[r.weighted(50, 25, 25)]; k > 1 {
				t = ir.Vec(k, t)
			}
			if bytes+ir.SizeOf(t) > 32 {
				break
			}
			bytes += ir.SizeOf(t)
			rg.outputs = append(rg.outputs, t)
		}
	}
	accUsed := false
	comps := make([]ir.Expr, 4)
	for i := range comps {
		switch {
		case len(softs) > 0 && r.chance(60):
			s := softs[r.intn(len(softs))]()
			if s.Type().Kind == ir.KindVec {
				s = swizzle(s, uint8(r.intn(s.Type().Len)))
			}
			switch r.intn(4) {
			case 0:
				s = bin(ir.OpMul, s, lit(ir.F32Val([]float32{0.5, 2, 0.25}[r.intn(3)])))
			case 1:
				s = bin(ir.OpAdd, s, builtin(ir.BClamp, c.nonConst(c.expr(ir.F32, g.exprDepth)), lit(ir.F32Val(-16)), lit(ir.F32Val(16))))
			}
			comps[i] = s
		default:
			comps[i] = c.expr(ir.F32, g.exprDepth)
		}
	}
	if len(rg.outputs) == 1 || r.chance(30) {
		k := r.intn(4)
		comps[k] = rg.mix(c.nonConst(c.expr(ir.F32, g.exprDepth)), acc)
		accUsed = true
	}
	vals := []ir.Expr{construct(ir.Vec(4, ir.F32), comps...)}
	for i, t := range rg.outputs[1:] {
		e := c.expr(t, g.exprDepth)
		if i == 0 && !accUsed {
			e = rg.mix(c.nonConst(e), acc)
		}
		vals = append(vals, e)
	}
	if len(rg.outputs) == 1 && r.chance(60) {
		f.Result, f.ResultLocation = rg.outputs[0], 0
		stmts = append(stmts, &ir.Return{Value: vals[0]})
	} else {
		s := &ir.StructDecl{Name: "FOut"}
		for i, t := range rg.outputs {
			s.Fields = append(s.Fields, ir.Field{Name: fmt.Sprintf("c%d", i), Type: t, HasLocation: true, Location: i})
		}
		rg.io = append(rg.io, s)
		ot := ir.StructType(s)
		f.Result = ot
		o := func() *ir.Ident { return &ir.Ident{Name: "o", T: ot, Ref: ir.RefVar} }
		stmts = append(stmts, &ir.Decl{Name: "o", T: ot, Mutable: true})
		order := make([]int, len(vals))
		for i := range order {
			order[i] = i
		}
		rg.shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			stmts = append(stmts, &ir.Assign{LHS: member(o(), i), RHS: vals[i]})
		}
		stmts = append(stmts, &ir.Return{Value: o()})
	}
	c.pop()
	f.Body = &ir.Block{Stmts: stmts}
	g.m.Funcs = append(g.m.Funcs, f)
}

// keyed returns `c && key % m == k` for a small m and k < m.
func (rg *renderGen) keyed(c, key ir.Expr) ir.Expr {
	m := rg.r.between(2, 4)
	k := rg.r.intn(m)
	return bin(ir.OpLogAnd, c, bin(ir.OpEq, bin(ir.OpRem, key, lit(ir.U32Val(uint32(m)))), lit(ir.U32Val(uint32(k)))))
}

// discardHelper adds fn dk(p0: u32) { if (c && p0 % m == k) { discard; } }
// — a void helper only the fragment calls, c over p0 and the private
// globals — and returns its call with the fragment's key.
func (rg *renderGen) discardHelper(key ir.Expr) ir.Stmt {
	g := rg.g
	f := &ir.Func{Name: "dk", Params: []*ir.Param{{Name: "p0", T: ir.U32}}, Result: ir.Void}
	h := newFnGen(g, f, 1, 0)
	h.push()
	h.declare("p0", ir.U32, ir.RefParam, false)
	p0 := &ir.Ident{Name: "p0", T: ir.U32, Ref: ir.RefParam}
	f.Body = &ir.Block{Stmts: []ir.Stmt{&ir.If{Cond: rg.keyed(h.cond(), p0), Then: ir.NewBlock(ir.Pos{}, &ir.Discard{}), Else: &ir.Block{}}}}
	h.pop()
	g.m.Funcs = append(g.m.Funcs, f)
	return &ir.ExprStmt{X: &ir.Call{Func: "dk", Args: []ir.Expr{key}, T: ir.Void}}
}
