package gen

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// generator holds the module-level state of one program's generation: the
// typing context every function sees (struct types, globals, the helpers
// generated so far with their signatures, call depths and costs).
type generator struct {
	r     *chooser
	cfg   Config
	prof  Profile
	m     *ir.Module
	shape shape

	// Size-derived caps (see Config).
	kernelBudget, helperBudget int
	nesting, callDepth         int
	exprDepth                  int
	nHelpers                   int
	// maxUnroll is flatten's unroll cap the program must stay within
	// (Config.MaxUnroll, see unroll.go).
	maxUnroll int

	helpers []*helper
	// outside is the outside-subset construct this program carries.
	outside string
	// recursive is the recursive helper when outside == OutsideRecursion.
	recursive *helper
}

// helper is a generated helper function and what callers need to know.
type helper struct {
	f *ir.Func
	// depth is the length of the longest call chain starting at f
	// (1 = f calls nothing).
	depth int
	// cost is f's estimated dynamic statement count per call.
	cost int
	// copies is f's unroll count: the loop-body copies flattening f
	// creates, its callees' included (see unroll.go).
	copies int
}

// shape is what one generation makes: a whole program (the zero shape,
// what Generate and Programs make), or the narrower units Functions,
// Statements and Expressions draw.
type shape struct {
	kind int
	// t is the kernel's result type of an expression shape.
	t *ir.Type
}

const (
	shapeProgram = iota
	shapeFunction
	shapeStatement
	shapeExpression
)

func newGenerator(r *chooser, cfg Config, sh shape) *generator {
	s := cfg.Size
	p := cfg.Profile
	g := &generator{r: r, cfg: cfg, prof: p, m: &ir.Module{File: "gen.wgsl"}, shape: sh}
	g.kernelBudget = s
	g.helperBudget = max(2, s/3)
	g.nesting = max(1, min(p.Nesting, 1+s/8))
	g.callDepth = max(0, min(p.CallDepth, 1+s/8))
	g.exprDepth = max(1, min(p.ExprDepth, 1+s/10))
	g.nHelpers = max(0, min(p.Helpers, 1+s/8))
	g.maxUnroll = cfg.MaxUnroll
	if sh.kind == shapeFunction {
		g.nHelpers = 0
	}
	return g
}

func (g *generator) program() {
	if share := g.cfg.OutsideSubset; share > 0 && g.shape.kind == shapeProgram {
		// Integer threshold: no float arithmetic in decisions.
		if g.r.intn(1_000_000) < int(share*1_000_000) {
			if g.r.chance(50) {
				g.outside = OutsideUnboundedLoop
			} else {
				g.outside = OutsideRecursion
			}
		}
	}
	g.genStructs()
	g.genGlobals()
	n := g.r.between(min(1, g.nHelpers), g.nHelpers)
	for i := 0; i < n; i++ {
		g.genHelper(i)
	}
	if g.outside == OutsideRecursion {
		g.genRecursive()
	}
	g.genKernel()
	// Helpers the kernel never reaches are dead weight: drop them, so
	// the kernel is the module's only uncalled function.
	live := map[string]bool{}
	for _, f := range g.m.CallGraph(KernelName) {
		live[f.Name] = true
	}
	fs := g.m.Funcs[:0]
	for _, f := range g.m.Funcs {
		if live[f.Name] {
			fs = append(fs, f)
		}
	}
	g.m.Funcs = fs
}

// ---- types ----

// scalarType picks bool, i32, u32 or f32 by the profile's weights.
func (g *generator) scalarType() *ir.Type {
	w := g.prof.Type
	switch g.r.weighted(w.I32, w.U32, w.F32, w.Bool) {
	case 1:
		return ir.U32
	case 2:
		return ir.F32
	case 3:
		return ir.Bool
	}
	return ir.I32
}

// typ picks a type by the profile's weights; level bounds composite
// nesting (level 0: scalars and vectors only).
func (g *generator) typ(level int) *ir.Type {
	w := g.prof.Type
	structW, arrayW := w.Struct, w.Array
	if level <= 0 {
		structW, arrayW = 0, 0
	}
	if len(g.m.Structs) == 0 {
		structW = 0
	}
	switch g.r.weighted(w.I32+w.U32+w.F32+w.Bool, w.Vec, structW, arrayW) {
	case 1:
		return ir.Vec(g.r.between(2, 4), g.scalarType())
	case 2:
		return ir.StructType(g.m.Structs[g.r.intn(len(g.m.Structs))])
	case 3:
		return ir.ArrayOf(g.typ(level-1), g.r.between(1, 4))
	}
	return g.scalarType()
}

// valueType picks a type for a variable, parameter or result.
func (g *generator) valueType() *ir.Type { return g.typ(2) }

func (g *generator) genStructs() {
	n := g.prof.Structs
	if n > 0 {
		n = g.r.between(0, n)
	}
	for i := 0; i < n; i++ {
		s := &ir.StructDecl{Name: fmt.Sprintf("S%d", i)}
		nf := g.r.between(1, 4)
		for j := 0; j < nf; j++ {
			var t *ir.Type
			switch g.r.weighted(4, 3, 2, 1) {
			case 0:
				t = g.scalarType()
			case 1:
				t = ir.Vec(g.r.between(2, 4), g.scalarType())
			case 2:
				el := g.scalarType()
				if g.r.chance(40) {
					el = ir.Vec(g.r.between(2, 4), g.scalarType())
				}
				t = ir.ArrayOf(el, g.r.between(1, 4))
			case 3:
				if len(g.m.Structs) > 0 {
					t = ir.StructType(g.m.Structs[g.r.intn(len(g.m.Structs))])
				} else {
					t = g.scalarType()
				}
			}
			s.Fields = append(s.Fields, ir.Field{Name: fmt.Sprintf("f%d", j), Type: t})
		}
		g.m.Structs = append(g.m.Structs, s)
	}
}

func (g *generator) genGlobals() {
	// Every program has one scalar global: a run-time value of every type
	// can be derived from it (see fnGen.runtime).
	first := &ir.Global{Name: "g0", T: []*ir.Type{ir.I32, ir.U32, ir.F32}[g.r.intn(3)]}
	g.m.Globals = append(g.m.Globals, first)
	n := g.r.between(0, g.prof.Globals)
	for i := 1; i <= n; i++ {
		g.m.Globals = append(g.m.Globals, &ir.Global{Name: fmt.Sprintf("g%d", i), T: g.valueType()})
	}
	for _, gl := range g.m.Globals {
		if g.r.chance(50) {
			gl.Init = &ir.Lit{Val: g.litValue(gl.T)}
		}
	}
}

// ---- functions ----

func (g *generator) params(max int) []*ir.Param {
	n := g.r.between(0, max)
	ps := make([]*ir.Param, n)
	for i := range ps {
		ps[i] = &ir.Param{Name: fmt.Sprintf("p%d", i), T: g.valueType()}
	}
	return ps
}

func (g *generator) genHelper(i int) {
	f := &ir.Func{Name: fmt.Sprintf("h%d", i), Params: g.params(g.prof.MaxParams), Result: ir.Void}
	if !g.r.chance(g.prof.VoidHelper) {
		f.Result = g.valueType()
	}
	h := &helper{f: f}
	c := newFnGen(g, f, g.helperBudget, g.callDepth-1)
	c.body()
	h.depth = 1 + c.calleeDepth
	h.cost = max(1, c.cost)
	h.copies = c.copies
	g.m.Funcs = append(g.m.Funcs, f)
	g.helpers = append(g.helpers, h)
}

func (g *generator) genKernel() {
	f := &ir.Func{Name: KernelName, Params: g.params(g.prof.MaxParams + 1), Result: ir.Void}
	if g.shape.kind == shapeExpression {
		f.Result = g.shape.t
	} else if !g.r.chance(g.prof.VoidKernel) {
		f.Result = g.valueType()
	}
	c := newFnGen(g, f, g.kernelBudget, g.callDepth)
	c.kernel = true
	c.body()
	g.m.Funcs = append(g.m.Funcs, f)
}

// genRecursive adds the outside-subset recursive helper
//
//	fn hr(d: i32, a: T) -> T {
//	  if (d <= 0i) { return a; }
//	  …statements…
//	  return hr(d - 1i, e);
//	}
//
// which the kernel calls with d = clamp(e, 0i, 4i): at most 5 activations.
func (g *generator) genRecursive() {
	t := g.scalarType()
	if t.Kind == ir.KindBool {
		t = ir.I32
	}
	d := &ir.Param{Name: "d", T: ir.I32}
	a := &ir.Param{Name: "a", T: t}
	f := &ir.Func{Name: "hr", Params: []*ir.Param{d, a}, Result: t, Body: &ir.Block{}}
	h := &helper{f: f, depth: 1}
	dID := func() ir.Expr { return &ir.Ident{Name: "d", T: ir.I32, Ref: ir.RefParam} }
	c := newFnGen(g, f, max(2, g.helperBudget/2), 0)
	c.push()
	c.declare("d", ir.I32, ir.RefParam, true)
	c.declare("a", t, ir.RefParam, false)
	guard := &ir.If{
		Cond: bin(ir.OpLe, dID(), lit(ir.I32Val(0))),
		Then: ir.NewBlock(ir.Pos{}, &ir.Return{Value: &ir.Ident{Name: "a", T: t, Ref: ir.RefParam}}),
		Else: &ir.Block{},
	}
	stmts := []ir.Stmt{guard}
	stmts = append(stmts, c.stmtList(c.budget)...)
	rec := &ir.Call{Func: "hr", T: t, Args: []ir.Expr{bin(ir.OpSub, dID(), lit(ir.I32Val(1))), c.expr(t, g.exprDepth)}}
	stmts = append(stmts, &ir.Return{Value: rec})
	c.pop()
	f.Body.Stmts = stmts
	h.cost = 5 * max(1, c.cost)
	g.m.Funcs = append(g.m.Funcs, f)
	g.recursive = h
}
