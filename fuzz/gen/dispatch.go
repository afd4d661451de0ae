package gen

// Dispatch programs (the "dispatch" profile, Profile.Dispatch; issue 17):
// interface-style code that picks one of a closed set of same-signature
// implementations by a u32 tag. The implementations impl0..implN-1
// (N = 3..6) have generated bodies (fnGen, calling the generated helpers);
// a dispatcher switches on the tag and calls them with the same
// arguments, returning or assigning the result (ir.TagSwitch's forms); the
// kernel chooses the tag by control flow — a helper's return, a select,
// an if/else, a constant array indexed by an input, or the input itself
// (unbounded) — passes it through a struct field or a parameter, and
// sometimes dispatches in a bounded loop whose tag is loop-carried
// (t = (t + 1u) % P). So the tag-set analysis meets single-valued,
// narrowed and unbounded tags, and campaigns check the narrowed twins.

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// generateDispatch is generate for a profile with Dispatch set.
func generateDispatch(src source, cfg Config) *Program {
	cfg = cfg.normalized()
	g := newGenerator(&chooser{src: src}, cfg, shape{})
	dg := &dispatchGen{g: g, r: g.r}
	dg.program()
	if err := ir.Normalize(g.m); err != nil {
		panic(fmt.Sprintf("gen: generated dispatch program does not verify (generator bug): %v\n%s", err, ir.Print(g.m)))
	}
	return &Program{Module: g.m, Kernel: KernelName}
}

type dispatchGen struct {
	g     *generator
	r     *chooser
	iface *ir.Type
	vals  []uint32 // the case values, one per implementation but the default's
	// copies is the implementations' unroll count summed (unroll.go).
	copies int
}

func u32Lit(v uint32) ir.Expr { return &ir.Lit{Val: ir.U32Val(v)} }
func i32Lit(v int32) ir.Expr  { return &ir.Lit{Val: ir.I32Val(v)} }
func idOf(name string, t *ir.Type, ref ir.RefKind) *ir.Ident {
	return &ir.Ident{Name: name, T: t, Ref: ref}
}
func binOf(op ir.BinaryOp, x, y ir.Expr, t *ir.Type) ir.Expr {
	return &ir.Binary{Op: op, X: x, Y: y, T: t}
}
func blockOf(stmts ...ir.Stmt) *ir.Block { return &ir.Block{Stmts: stmts} }

func (dg *dispatchGen) program() {
	g, r := dg.g, dg.r
	g.genStructs()
	g.genGlobals()
	for i := 0; i < r.between(0, min(2, g.nHelpers)); i++ {
		g.genHelper(i)
	}
	sd := &ir.StructDecl{Name: "Iface", Fields: []ir.Field{{Name: "tag", Type: ir.U32}, {Name: "w", Type: ir.I32}}}
	g.m.Structs = append(g.m.Structs, sd)
	dg.iface = ir.StructType(sd)

	n := r.between(3, 6)
	var impls []string
	var implFns []*ir.Func
	for i := 0; i < n; i++ {
		f := &ir.Func{Name: fmt.Sprintf("impl%d", i), Result: ir.I32,
			Params: []*ir.Param{{Name: "w", T: ir.I32}, {Name: "tag", T: ir.U32}}}
		c := newFnGen(g, f, g.helperBudget, g.callDepth-1)
		c.body()
		dg.copies += c.copies
		g.m.Funcs = append(g.m.Funcs, f)
		impls = append(impls, f.Name)
		implFns = append(implFns, f)
	}
	// Every implementation is inlined at the dispatch (an unbounded tag
	// keeps them all), so their unroll counts add up; past the cap
	// (Config.MaxUnroll) the bodies become plain returns, with no random
	// draw, so programs within the cap are unchanged.
	if dg.copies > g.maxUnroll {
		for i, f := range implFns {
			f.Body = blockOf(&ir.Return{Value: binOf(ir.OpAdd, idOf("w", ir.I32, ir.RefParam), i32Lit(int32(i+1)), ir.I32)})
		}
		dg.copies = 0
	}
	// Case values: distinct small tags, shuffled; the last implementation
	// is the default arm's (or, with an empty default, one more case).
	pool := []uint32{0, 1, 2, 3, 4, 5, 6, 7}
	for i := len(pool) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		pool[i], pool[j] = pool[j], pool[i]
	}
	emptyDefault := r.chance(30)
	nc := n - 1
	if emptyDefault {
		nc = n
	}
	dg.vals = pool[:nc]
	viaStruct := r.chance(50)
	g.m.Funcs = append(g.m.Funcs, dg.dispatcher(impls, emptyDefault, viaStruct))
	g.m.Funcs = append(g.m.Funcs, dg.chooser())
	g.m.Funcs = append(g.m.Funcs, dg.kernel(viaStruct))
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

// tagConst returns a tag value: mostly a case value, sometimes one that
// only the default arm takes.
func (dg *dispatchGen) tagConst() uint32 {
	if dg.r.chance(15) {
		return 8 + uint32(dg.r.intn(3))
	}
	return dg.vals[dg.r.intn(len(dg.vals))]
}

// dispatcher is fn dispatch(o: Iface) -> i32 (or (t: u32, w: i32)):
// switch on the tag, every arm calling impl_k(w, tag).
func (dg *dispatchGen) dispatcher(impls []string, emptyDefault, viaStruct bool) *ir.Func {
	f := &ir.Func{Name: "dispatch", Result: ir.I32}
	var tag, w ir.Expr
	if viaStruct {
		f.Params = []*ir.Param{{Name: "o", T: dg.iface}}
		o := func() ir.Expr { return idOf("o", dg.iface, ir.RefParam) }
		tag = &ir.Member{X: o(), Field: 0, T: ir.U32}
		w = &ir.Member{X: o(), Field: 1, T: ir.I32}
	} else {
		f.Params = []*ir.Param{{Name: "t", T: ir.U32}, {Name: "w", T: ir.I32}}
		tag, w = idOf("t", ir.U32, ir.RefParam), idOf("w", ir.I32, ir.RefParam)
	}
	assign := dg.r.chance(40)
	r := idOf("r", ir.I32, ir.RefVar)
	arm := func(impl string) *ir.Block {
		c := &ir.Call{Func: impl, Args: []ir.Expr{ir.CloneExpr(w), ir.CloneExpr(tag)}, T: ir.I32}
		if assign {
			return blockOf(&ir.Assign{LHS: r, RHS: c})
		}
		return blockOf(&ir.Return{Value: c})
	}
	sw := &ir.Switch{Selector: ir.CloneExpr(tag)}
	for i, v := range dg.vals {
		sw.Cases = append(sw.Cases, &ir.Case{Values: []ir.Value{ir.U32Val(v)}, Body: arm(impls[i])})
	}
	if emptyDefault {
		sw.Cases = append(sw.Cases, &ir.Case{Default: true, Body: blockOf()})
	} else {
		sw.Cases = append(sw.Cases, &ir.Case{Default: true, Body: arm(impls[len(impls)-1])})
	}
	if assign {
		f.Body = blockOf(&ir.Decl{Name: "r", T: ir.I32, Init: i32Lit(-1), Mutable: true}, sw, &ir.Return{Value: r})
	} else if emptyDefault {
		f.Body = blockOf(sw, &ir.Return{Value: i32Lit(-1)})
	} else {
		f.Body = blockOf(sw)
	}
	return f
}

// chooser is fn choose_tag(x: i32) -> u32: constants chosen by if
// chains on x.
func (dg *dispatchGen) chooser() *ir.Func {
	x := func() ir.Expr { return idOf("x", ir.I32, ir.RefParam) }
	var stmts []ir.Stmt
	for i := 0; i < dg.r.between(1, 3); i++ {
		op := []ir.BinaryOp{ir.OpGt, ir.OpLt, ir.OpEq}[dg.r.intn(3)]
		stmts = append(stmts, &ir.If{Cond: binOf(op, x(), i32Lit(int32(dg.r.between(-8, 8))), ir.Bool),
			Then: blockOf(&ir.Return{Value: u32Lit(dg.tagConst())}), Else: blockOf()})
	}
	stmts = append(stmts, &ir.Return{Value: u32Lit(dg.tagConst())})
	return &ir.Func{Name: "choose_tag", Result: ir.U32, Params: []*ir.Param{{Name: "x", T: ir.I32}}, Body: blockOf(stmts...)}
}

// kernel is fn kernel(x: i32, sel: u32) -> i32: choose t, dispatch
// (once, or in a loop with a loop-carried tag), return the sum.
func (dg *dispatchGen) kernel(viaStruct bool) *ir.Func {
	r := dg.r
	x := func() ir.Expr { return idOf("x", ir.I32, ir.RefParam) }
	sel := func() ir.Expr { return idOf("sel", ir.U32, ir.RefParam) }
	t := func() *ir.Ident { return idOf("t", ir.U32, ir.RefVar) }
	acc := func() *ir.Ident { return idOf("acc", ir.I32, ir.RefVar) }
	cmp := func() ir.Expr {
		op := []ir.BinaryOp{ir.OpGt, ir.OpLt, ir.OpNe}[r.intn(3)]
		return binOf(op, x(), i32Lit(int32(r.between(-8, 8))), ir.Bool)
	}
	stmts := []ir.Stmt{&ir.Decl{Name: "t", T: ir.U32, Init: u32Lit(dg.tagConst()), Mutable: true}}
	switch r.weighted(3, 2, 2, 2, 2) {
	case 0: // a helper's return
		stmts = append(stmts, &ir.Assign{LHS: t(), RHS: &ir.Call{Func: "choose_tag", Args: []ir.Expr{x()}, T: ir.U32}})
	case 1: // a select
		stmts = append(stmts, &ir.Assign{LHS: t(), RHS: &ir.Select{False: u32Lit(dg.tagConst()), True: u32Lit(dg.tagConst()), Cond: cmp(), T: ir.U32}})
	case 2: // an if/else
		stmts = append(stmts, &ir.If{Cond: cmp(), Then: blockOf(&ir.Assign{LHS: t(), RHS: u32Lit(dg.tagConst())}),
			Else: blockOf(&ir.Assign{LHS: t(), RHS: u32Lit(dg.tagConst())})})
	case 3: // a constant array indexed by an input
		at := ir.ArrayOf(ir.U32, 3)
		tbl := &ir.Construct{T: at, Args: []ir.Expr{u32Lit(dg.tagConst()), u32Lit(dg.tagConst()), u32Lit(dg.tagConst())}}
		stmts = append(stmts, &ir.Decl{Name: "tbl", T: at, Init: tbl},
			&ir.Assign{LHS: t(), RHS: &ir.Index{X: idOf("tbl", at, ir.RefLet), Index: binOf(ir.OpRem, sel(), u32Lit(3), ir.U32), T: ir.U32}})
	default: // the input: unbounded
		if r.chance(50) {
			stmts = append(stmts, &ir.Assign{LHS: t(), RHS: sel()})
		} else {
			stmts = append(stmts, &ir.Assign{LHS: t(), RHS: binOf(ir.OpRem, sel(), u32Lit(uint32(r.between(2, 9))), ir.U32)})
		}
	}
	call := func() ir.Expr {
		if viaStruct {
			return &ir.Call{Func: "dispatch", Args: []ir.Expr{&ir.Construct{T: dg.iface, Args: []ir.Expr{t(), x()}}}, T: ir.I32}
		}
		return &ir.Call{Func: "dispatch", Args: []ir.Expr{t(), x()}, T: ir.I32}
	}
	stmts = append(stmts, &ir.Decl{Name: "acc", T: ir.I32, Init: i32Lit(0), Mutable: true})
	loop := r.chance(35)
	var trips int32
	var period uint32
	if loop {
		trips = int32(r.between(2, 4))
		period = uint32(r.between(2, 5))
		// The loop is entered trips+1 times (the last entry breaks), each
		// holding every implementation's copies: past the cap, no loop.
		loop = int(trips+1)*(1+dg.copies) <= dg.g.maxUnroll
	}
	if loop {
		i := func() *ir.Ident { return idOf("i", ir.I32, ir.RefVar) }
		body := blockOf(
			&ir.If{Cond: &ir.Unary{Op: ir.OpNot, X: binOf(ir.OpLt, i(), i32Lit(trips), ir.Bool), T: ir.Bool}, Then: blockOf(&ir.Break{}), Else: blockOf()},
			&ir.Assign{LHS: acc(), Op: ir.OpAdd, RHS: call()},
			&ir.Assign{LHS: t(), RHS: binOf(ir.OpRem, binOf(ir.OpAdd, t(), u32Lit(1), ir.U32), u32Lit(period), ir.U32)},
		)
		stmts = append(stmts, blockOf(&ir.Decl{Name: "i", T: ir.I32, Init: i32Lit(0), Mutable: true},
			&ir.Loop{Body: body, Continuing: blockOf(&ir.Assign{LHS: i(), Op: ir.OpAdd, RHS: i32Lit(1)})}))
	} else {
		stmts = append(stmts, &ir.Assign{LHS: acc(), RHS: call()})
	}
	stmts = append(stmts, &ir.Return{Value: acc()})
	return &ir.Func{Name: KernelName, Result: ir.I32,
		Params: []*ir.Param{{Name: "x", T: ir.I32}, {Name: "sel", T: ir.U32}}, Body: blockOf(stmts...)}
}
