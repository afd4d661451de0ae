package gen

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// Compute entry points (the "compute" profile, Profile.Entry): a program
// is a @compute entry point as a shader author writes it, with storage
// and uniform bindings, var<workgroup> memory, barriers and atomics, run
// as a dispatch of several workgroups. The discipline that makes every
// such program race-free and its barriers uniform by construction is in
// doc.go ("Compute entry points").
//
// Shape of a generated entry point (names are fixed; T is the element
// type, L the workgroup's invocation count, N = L × workgroups the
// dispatch's):
//
//	@group(0) @binding(0) var<storage, read> inp: array<T, N>;
//	@group(0) @binding(1) var<storage, read_write> out: array<T, N>;
//	@group(0) @binding(2) var<storage, read_write> hist: array<atomic<A>, K>;   (optional)
//	@group(0) @binding(3) var<uniform> prm: P;                                  (optional)
//	var<workgroup> tile: array<T, L>;  (or array<array<T, X>, Y> for a 2-D tile)
//	var<workgroup> wcnt: array<atomic<A>, K2>;                                  (optional)
//
//	@compute @workgroup_size(X, Y)
//	fn main(builtins…) {
//	  let gi = <the invocation's linear global index>;
//	  let x = inp[gi]; [let xn = inp[(gi + k) % N];] [let pv = prm;]
//	  var acc = x;
//	  phase*: generated statements; tile[own] = acc; [atomic RMWs];
//	          workgroupBarrier();
//	          neighbour reads of tile [and atomicLoads of wcnt]; acc = f(acc, …);
//	          workgroupBarrier();
//	  [reduction: tile[own] = acc; barrier; for s = L/2 … 1 { if li < s {
//	          tile[li] = f(tile[li], tile[li + s]) } barrier } acc = f(acc, tile[0]); barrier]
//	  generated statements; [matrix code; mout[gi] = …;] out[gi] = acc; [atomic RMWs on hist]
//	  [if li < K2 { atomicAdd(&hist[li], atomicLoad(&wcnt[li])) }]
//	}
//
// A share of the programs (Profile.Matrices) also has matrices: the
// optional bindings minp and mout and the workgroup array mtile, matrix
// code after a phase's statements, an own-slot write of mtile beside the
// tile's and a neighbour's mtile slot read after the barrier
// (compute_matrix.go).

// ComputeEntryName is the name of every generated compute entry point
// (Program.Kernel of a compute-profile program).
const ComputeEntryName = "main"

// Caps of generated dispatches.
const (
	maxLocalInvocations = 64  // invocations per workgroup
	maxDispatch         = 256 // invocations per dispatch
)

// computeGen holds the entry point's own state beside the fnGen that
// generates its per-invocation statements.
type computeGen struct {
	g *generator
	c *fnGen
	// t is the element type of inp, out and tile; at the atomics'.
	t, at *ir.Type
	// ws is the workgroup size, l its invocation count, wg the dispatch
	// size, n the dispatch's invocation count.
	ws, wg [3]uint32
	l, n   int
	// tile2 marks a 2-D tile array<array<T, X>, Y> indexed [lid.y][lid.x].
	tile2 bool
	// hist and wcnt are the atomic arrays' lengths (0: absent), histOp
	// and wcntOp the one read-modify-write each array ever gets: one
	// operation applied in any order gives one result, two different
	// ones (max after add, add after max) do not.
	hist, wcnt     int
	histOp, wcntOp ir.AtomicOp
	// wcntLoaded: the last phase read wcnt (atomicLoad), so its atomic
	// read-modify-writes must wait for a barrier.
	stmts []ir.Stmt
	// wst is the workgroup array<atomic<A>, l> of Profile.AtomicStores
	// (nil: absent): each invocation atomicStores and atomicExchanges its
	// own slot wst[li] in a phase's write part and atomicLoads a neighbour's in its read part.
	wst *ir.Ident
	// ids of the builtins and bindings.
	li, lid, gid, wid, nwg *ir.Ident
	// gi and x are the lets of the invocation's linear index and input.
	gi, x *ir.Ident
	acc   *ir.Ident
	seq   int
	// mg generates the matrix code (compute_matrix.go); nil in a
	// program without matrices.
	mg *matGen
	// tg generates the texture code (compute_texture.go); nil in a
	// program without textures.
	tg *texGen
	// sg generates the subgroup operations (compute_subgroup.go); nil
	// in a program without them.
	sg *sgGen
	// hg generates the f16 code (compute_f16.go); nil in a program
	// without it.
	hg *f16Gen
}

// generateCompute is generate for a profile with Entry set.
func generateCompute(src source, cfg Config) *Program {
	cfg = cfg.normalized()
	g := newGenerator(&chooser{src: src}, cfg, shape{})
	cg := &computeGen{g: g}
	cg.program()
	if err := ir.Normalize(g.m); err != nil {
		panic(fmt.Sprintf("gen: generated compute program does not verify (generator bug): %v\n%s", err, ir.Print(g.m)))
	}
	p := &Program{Module: g.m, Kernel: ComputeEntryName, Workgroups: cg.wg}
	if cg.tg != nil {
		p.Textures, p.Samplers = cg.tg.texs, cg.tg.samps
	}
	return p
}

func (cg *computeGen) program() {
	g := cg.g
	r := g.r
	g.genStructs()
	g.genGlobals()
	n := g.r.between(0, g.nHelpers)
	for i := 0; i < n; i++ {
		g.genHelper(i)
	}

	// The element type: a scalar, sometimes a vector of one.
	w := g.prof.Type
	switch r.weighted(w.I32, w.U32, w.F32) {
	case 0:
		cg.t = ir.I32
	case 1:
		cg.t = ir.U32
	default:
		cg.t = ir.F32
	}
	if r.chance(w.Vec) {
		cg.t = ir.Vec([]int{2, 4}[r.intn(2)], cg.t)
	}
	cg.at = ir.U32
	if r.chance(40) {
		cg.at = ir.I32
	}

	// The workgroup size (1-D or 2-D) and the dispatch (1-D or 2-D).
	if g.prof.Subgroups > 0 && r.chance(g.prof.Subgroups) {
		cg.sg = &sgGen{cg: cg, r: r}
		cg.ws, cg.tile2 = cg.sg.workgroupSize()
	} else if r.chance(60) {
		cg.ws = [3]uint32{[]uint32{1, 2, 3, 4, 8, 16, 32, 64}[r.intn(8)], 1, 1}
	} else {
		for {
			x, y := uint32(1)<<r.between(1, 3), uint32(1)<<r.between(1, 3)
			if r.chance(20) {
				x = 3
			}
			if x*y <= maxLocalInvocations {
				cg.ws = [3]uint32{x, y, 1}
				break
			}
		}
		cg.tile2 = r.chance(50)
	}
	cg.l = int(cg.ws[0] * cg.ws[1])
	cg.wg = [3]uint32{uint32(r.between(1, 4)), 1, 1}
	if r.chance(30) {
		cg.wg[1] = 2
	}
	for cg.l*int(cg.wg[0]*cg.wg[1]) > maxDispatch && cg.wg[0] > 1 {
		cg.wg[0]--
	}
	cg.n = cg.l * int(cg.wg[0]*cg.wg[1])

	// Bindings and workgroup memory.
	m := g.m
	add := func(v *ir.SharedVar) *ir.Ident {
		m.Shared = append(m.Shared, v)
		return &ir.Ident{Name: v.Name, T: v.T, Ref: ir.RefShared}
	}
	// Uniform loops (Profile.UniformLoops): inp is runtime-sized (its
	// arrayLength, N, bounds a scan loop) and one exchange phase repeats
	// for a uniform number of rounds.
	uniformLoops := g.prof.UniformLoops > 0 && r.chance(g.prof.UniformLoops)
	inpT := ir.ArrayOf(cg.t, cg.n)
	if uniformLoops {
		inpT = ir.RuntimeArrayOf(cg.t)
	}
	inp := add(&ir.SharedVar{Name: "inp", T: inpT, Space: ir.SpaceStorage, Access: ir.AccessRead, Group: 0, Binding: 0})
	out := add(&ir.SharedVar{Name: "out", T: ir.ArrayOf(cg.t, cg.n), Space: ir.SpaceStorage, Access: ir.AccessReadWrite, Group: 0, Binding: 1})
	var hist, prm, tile, wcnt *ir.Ident
	if r.chance(60) {
		cg.hist = r.between(1, 8)
		cg.histOp = cg.pickAtomicOp()
		hist = add(&ir.SharedVar{Name: "hist", T: ir.ArrayOf(ir.AtomicOf(cg.at), cg.hist), Space: ir.SpaceStorage, Access: ir.AccessReadWrite, Group: 0, Binding: 2})
	}
	if r.chance(40) {
		p := &ir.StructDecl{Name: "Params"}
		for i, nf := 0, r.between(1, 4); i < nf; i++ {
			ft := g.scalarType()
			if ft.Kind == ir.KindBool {
				ft = ir.U32 // bool is not host-shareable
			}
			p.Fields = append(p.Fields, ir.Field{Name: fmt.Sprintf("f%d", i), Type: ft})
		}
		m.Structs = append(m.Structs, p)
		prm = add(&ir.SharedVar{Name: "prm", T: ir.StructType(p), Space: ir.SpaceUniform, Access: ir.AccessRead, Group: 0, Binding: 3})
	}
	tt := ir.ArrayOf(cg.t, cg.l)
	if cg.tile2 {
		tt = ir.ArrayOf(ir.ArrayOf(cg.t, int(cg.ws[0])), int(cg.ws[1]))
	}
	tile = add(&ir.SharedVar{Name: "tile", T: tt, Space: ir.SpaceWorkgroup, Access: ir.AccessRead, Group: -1, Binding: -1})
	if r.chance(40) {
		cg.wcnt = r.between(1, 4)
		cg.wcntOp = cg.pickAtomicOp()
		wcnt = add(&ir.SharedVar{Name: "wcnt", T: ir.ArrayOf(ir.AtomicOf(cg.at), cg.wcnt), Space: ir.SpaceWorkgroup, Access: ir.AccessRead, Group: -1, Binding: -1})
	}
	if g.prof.AtomicStores > 0 && r.chance(g.prof.AtomicStores) {
		cg.wst = add(&ir.SharedVar{Name: "wst", T: ir.ArrayOf(ir.AtomicOf(cg.at), cg.l), Space: ir.SpaceWorkgroup, Access: ir.AccessRead, Group: -1, Binding: -1})
	}
	if r.chance(g.prof.Matrices) {
		cg.mg = &matGen{cg: cg, r: r}
		cg.mg.declare(add)
	}
	if g.prof.Textures > 0 && r.chance(g.prof.Textures) {
		cg.tg = &texGen{cg: cg, r: r}
		cg.tg.declare()
	}
	if g.prof.F16 > 0 && r.chance(g.prof.F16) {
		cg.hg = &f16Gen{cg: cg, r: r}
		cg.hg.declare(add)
	}

	// The entry point and its builtins.
	v3 := ir.Vec(3, ir.U32)
	f := &ir.Func{Name: ComputeEntryName, Result: ir.Void, Stage: ir.StageCompute, WorkgroupSize: cg.ws}
	param := func(name, builtin string, t *ir.Type) *ir.Ident {
		f.Params = append(f.Params, &ir.Param{Name: name, T: t, Builtin: builtin})
		return &ir.Ident{Name: name, T: t, Ref: ir.RefParam}
	}
	cg.li = param("li", "local_invocation_index", ir.U32)
	cg.lid = param("lid", "local_invocation_id", v3)
	cg.gid = param("gid", "global_invocation_id", v3)
	cg.wid = param("wid", "workgroup_id", v3)
	cg.nwg = param("nwg", "num_workgroups", v3)
	if cg.sg != nil {
		cg.sg.params(param)
	}

	c := newFnGen(g, f, g.kernelBudget, g.callDepth)
	c.kernel = true   // the unroll cap is the entry point's
	c.noReturn = true // an early return would leave the barriers non-uniform
	cg.c = c
	c.push()
	for _, p := range f.Params {
		c.declare(p.Name, p.T, ir.RefParam, false)
	}

	// let gi: the invocation's linear index in the dispatch.
	u := func(v uint32) ir.Expr { return lit(ir.U32Val(v)) }
	x := func(e ir.Expr, k uint8) ir.Expr { return swizzle(e, k) }
	var giE ir.Expr
	if r.chance(50) {
		// (wid.y * nwg.x + wid.x) * L + li
		giE = bin(ir.OpAdd, bin(ir.OpMul, bin(ir.OpAdd, bin(ir.OpMul, x(cg.wid, 1), x(cg.nwg, 0)), x(cg.wid, 0)), u(uint32(cg.l))), cg.li)
	} else {
		// gid.y * (X * nwg.x) + gid.x
		giE = bin(ir.OpAdd, bin(ir.OpMul, x(cg.gid, 1), bin(ir.OpMul, u(cg.ws[0]), x(cg.nwg, 0))), x(cg.gid, 0))
	}
	gi := cg.let("gi", giE, true)
	cg.gi = gi
	cg.x = cg.let("x", index(inp, gi), true)
	if r.chance(40) {
		k := uint32(r.between(1, cg.n))
		cg.let("xn", index(inp, bin(ir.OpRem, bin(ir.OpAdd, gi, u(k)), u(uint32(cg.n)))), true)
	}
	if prm != nil {
		cg.let("pv", prm, true)
	}
	cg.acc = &ir.Ident{Name: "acc", T: cg.t, Ref: ir.RefVar}
	cg.stmts = append(cg.stmts, &ir.Decl{Name: "acc", T: cg.t, Mutable: true, Init: &ir.Ident{Name: "x", T: cg.t, Ref: ir.RefLet}})
	c.declare("acc", cg.t, ir.RefVar, false)
	if cg.hg != nil {
		cg.hg.init()
	}

	phases := r.between(1, 3)
	budget := max(1, c.budget/(phases+1))
	for p := 0; p < phases; p++ {
		cg.computePhase(budget)
		if cg.sg != nil {
			cg.stmts = append(cg.stmts, cg.sg.sites(r.between(0, 2))...)
		}
		if cg.mg != nil && r.chance(40) {
			cg.mg.phase()
		}
		if cg.tg != nil {
			cg.tg.phase()
		}
		if cg.hg != nil {
			cg.hg.phase()
		}
		if uniformLoops && p == 0 && cg.mg == nil {
			cg.roundsPhase(p, tile, wcnt, hist)
		} else {
			cg.exchangePhase(p, tile, wcnt, hist)
		}
	}
	if uniformLoops {
		cg.scanLoop(inp)
	}
	if cg.powerOfTwo() && !cg.tile2 && cg.l > 1 && r.chance(40) {
		cg.reductionPhase(tile)
	}
	cg.computePhase(max(1, c.budget))
	if cg.sg != nil {
		cg.stmts = append(cg.stmts, cg.sg.sites(r.between(1, 3))...)
	}
	if cg.tg != nil {
		cg.tg.reads()
	}
	if cg.mg != nil {
		if r.chance(40) {
			cg.mg.phase()
		}
		if cg.mg.mout != nil {
			cg.mg.output()
		}
	}
	if cg.hg != nil {
		cg.hg.output()
	}
	cg.stmts = append(cg.stmts, &ir.Assign{LHS: index(out, gi), RHS: cg.acc})
	if cg.tg != nil {
		cg.tg.final()
	}
	if hist != nil {
		cg.atomicRMW(hist, cg.hist, cg.histOp)
	}
	if hist != nil && wcnt != nil && r.chance(70) {
		// if (li < min(K, K2)) { atomicOp(&hist[li], atomicLoad(&wcnt[li])); }
		// — after the last barrier no invocation writes wcnt any more.
		k := min(cg.hist, cg.wcnt)
		load := &ir.Atomic{Op: ir.AtomicLoad, Args: []ir.Expr{index(wcnt, cg.li)}, T: cg.at}
		add := &ir.Atomic{Op: cg.histOp, Args: []ir.Expr{index(hist, cg.li), load}, T: cg.at}
		cg.stmts = append(cg.stmts, &ir.If{Cond: bin(ir.OpLt, cg.li, u(uint32(k))),
			Then: &ir.Block{Stmts: []ir.Stmt{&ir.ExprStmt{X: add}}}, Else: &ir.Block{}})
	}
	if cg.sg != nil {
		cg.stmts = append(cg.stmts, cg.sg.tail()...)
		cg.sg.directives(g.m)
	}
	if cg.hg != nil {
		cg.hg.finish()
	}
	c.pop()
	f.Body = &ir.Block{Stmts: cg.stmts}
	g.m.Funcs = append(g.m.Funcs, f)
	// Helpers the entry point never reaches are dropped.
	live := map[string]bool{}
	for _, fn := range g.m.CallGraph(ComputeEntryName) {
		live[fn.Name] = true
	}
	fs := g.m.Funcs[:0]
	for _, fn := range g.m.Funcs {
		if live[fn.Name] {
			fs = append(fs, fn)
		}
	}
	g.m.Funcs = fs
}

func (cg *computeGen) powerOfTwo() bool { return cg.l&(cg.l-1) == 0 }

// let appends `let name = e;` and declares it to the statement generator
// (visible: the generated statements may read it).
func (cg *computeGen) let(name string, e ir.Expr, visible bool) *ir.Ident {
	cg.stmts = append(cg.stmts, &ir.Decl{Name: name, T: e.Type(), Init: e})
	if visible {
		cg.c.declare(name, e.Type(), ir.RefLet, false)
	}
	return &ir.Ident{Name: name, T: e.Type(), Ref: ir.RefLet}
}

// computePhase appends generated per-invocation statements (the function
// kernels' statement generator: exact, terminating, in the subset; no
// early return) spending up to budget statements. They touch no shared
// memory: the variables in scope are the builtins, lets, acc and the
// private globals (not the matrix lets of compute_matrix.go).
func (cg *computeGen) computePhase(budget int) {
	c := cg.c
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
		// A block of its own: its declarations stay local, so a later
		// phase's names never collide.
		cg.stmts = append(cg.stmts, &ir.Block{Stmts: ss})
	}
}

// own returns the reference to the invocation's own tile slot.
func (cg *computeGen) own(tile *ir.Ident) ir.Expr {
	if cg.tile2 {
		return index(index(tile, swizzle(cg.lid, 1)), swizzle(cg.lid, 0))
	}
	return index(tile, cg.li)
}

// neighbour returns a read of another invocation's tile slot (any slot
// of the workgroup: in range by construction).
func (cg *computeGen) neighbour(tile *ir.Ident) ir.Expr {
	r := cg.g.r
	rot := cg.rot
	if cg.tile2 {
		y, x := swizzle(cg.lid, 1), swizzle(cg.lid, 0)
		var yi, xi ir.Expr = y, x
		switch r.intn(3) {
		case 0:
			yi = rot(y, cg.ws[1])
		case 1:
			xi = rot(x, cg.ws[0])
		default:
			yi, xi = rot(y, cg.ws[1]), rot(x, cg.ws[0])
		}
		return index(index(tile, yi), xi)
	}
	return index(tile, rot(cg.li, uint32(cg.l)))
}

// rot returns another index in [0, n) from an index i ∈ [0, n): (i +
// k) % n, n - 1 - i or i ^ m (0 when n is 1).
func (cg *computeGen) rot(i ir.Expr, n uint32) ir.Expr {
	r := cg.g.r
	u := func(v uint32) ir.Expr { return lit(ir.U32Val(v)) }
	if n <= 1 {
		return u(0)
	}
	switch r.intn(3) {
	case 0: // (i + k) % n
		return bin(ir.OpRem, bin(ir.OpAdd, i, u(uint32(r.between(1, int(n)-1)))), u(n))
	case 1: // n - 1 - i
		return bin(ir.OpSub, u(n-1), i)
	}
	if n&(n-1) == 0 { // i ^ m
		return bin(ir.OpXor, i, u(uint32(r.between(1, int(n)-1))))
	}
	return bin(ir.OpRem, bin(ir.OpAdd, i, u(n-1)), u(n))
}

// combine returns an exact combination of a and b (both of type cg.t):
// wrapping integer arithmetic and bit operations, min/max, and for f32
// a reconditioned sum or difference (doc.go: the exact float domain).
func (cg *computeGen) combine(a, b ir.Expr) ir.Expr {
	r := cg.g.r
	if cg.t.Scalar().Kind == ir.KindF32 {
		switch r.intn(4) {
		case 0:
			return builtin(ir.BMax, a, b)
		case 1:
			return builtin(ir.BMin, a, b)
		case 2:
			return fclamp(bin(ir.OpSub, a, b))
		}
		return fclamp(bin(ir.OpAdd, a, b))
	}
	switch r.intn(7) {
	case 0:
		return bin(ir.OpSub, a, b)
	case 1:
		return bin(ir.OpXor, a, b)
	case 2:
		return bin(ir.OpOr, a, b)
	case 3:
		return bin(ir.OpAnd, a, b)
	case 4:
		return builtin(ir.BMax, a, b)
	case 5:
		return builtin(ir.BMin, a, b)
	}
	return bin(ir.OpAdd, a, b)
}

// scalarOf returns a scalar of type t derived from acc (its first
// component), exactly converted.
func (cg *computeGen) scalarOf(t *ir.Type) ir.Expr {
	var e ir.Expr = cg.acc
	if cg.t.Kind == ir.KindVec {
		e = swizzle(e, 0)
	}
	return convertScalar(e, t)
}

// fromScalar returns a value of type cg.t from a u32/i32 expression e.
func (cg *computeGen) fromScalar(e ir.Expr) ir.Expr {
	s := convertScalar(e, cg.t.Scalar())
	if cg.t.Kind == ir.KindVec {
		return construct(cg.t, s)
	}
	return s
}

// pickAtomicOp picks the read-modify-write an atomic array gets.
func (cg *computeGen) pickAtomicOp() ir.AtomicOp {
	ops := []ir.AtomicOp{ir.AtomicAdd, ir.AtomicSub, ir.AtomicMax, ir.AtomicMin, ir.AtomicAnd, ir.AtomicOr, ir.AtomicXor}
	return ops[cg.g.r.weighted(6, 1, 2, 2, 1, 2, 1)]
}

// atomicRMW appends an order-independent atomic read-modify-write op of
// arr[index from acc] with a value from acc, its result unused: the
// final contents do not depend on the order of the invocations'
// operations, since every operation on arr is op and add, sub, and, or,
// xor, min and max each commute and associate with themselves.
func (cg *computeGen) atomicRMW(arr *ir.Ident, k int, op ir.AtomicOp) {
	r := cg.g.r
	var idx ir.Expr = lit(ir.U32Val(0))
	if k > 1 {
		idx = bin(ir.OpRem, cg.scalarOf(ir.U32), lit(ir.U32Val(uint32(k))))
	}
	var val ir.Expr = lit(scalarValue(cg.at, 1))
	if op != ir.AtomicAdd || r.chance(50) {
		val = cg.scalarOf(cg.at)
	}
	cg.stmts = append(cg.stmts, &ir.ExprStmt{X: &ir.Atomic{Op: op, Args: []ir.Expr{index(arr, idx), val}, T: cg.at}})
}

func (cg *computeGen) barrier() {
	cg.stmts = append(cg.stmts, &ir.ExprStmt{X: &ir.BuiltinCall{Fn: ir.BWorkgroupBarrier, T: ir.Void}})
}

// exchangePhase appends a write phase and a read phase, each ended by a
// barrier: every invocation writes its own tile slot (and makes atomic
// read-modify-writes), then reads its neighbours' slots (and loads the
// workgroup counters) into acc.
func (cg *computeGen) exchangePhase(p int, tile, wcnt, hist *ir.Ident) {
	r := cg.g.r
	cg.stmts = append(cg.stmts, &ir.Assign{LHS: cg.own(tile), RHS: cg.acc})
	mtile := cg.mg != nil && cg.mg.mtile != nil && r.chance(80)
	if mtile {
		cg.mg.write()
	}
	htile := cg.hg != nil && cg.hg.htile != nil && r.chance(80)
	if htile {
		cg.hg.write()
	}
	if wcnt != nil && r.chance(70) {
		cg.atomicRMW(wcnt, cg.wcnt, cg.wcntOp)
	}
	if hist != nil && r.chance(30) {
		cg.atomicRMW(hist, cg.hist, cg.histOp)
	}
	if cg.wst != nil && r.chance(70) {
		cg.atomicOwnSlot(p)
	}
	cg.barrier()
	if mtile {
		cg.mg.read()
	}
	if htile {
		cg.hg.read()
	}
	for i, n := 0, r.between(1, 2); i < n; i++ {
		nb := cg.let(fmt.Sprintf("nb%d_%d", p, i), cg.neighbour(tile), true)
		cg.stmts = append(cg.stmts, &ir.Assign{LHS: cg.acc, RHS: cg.combine(cg.acc, nb)})
	}
	if r.chance(30) {
		// The own slot again: written by this invocation alone.
		cg.stmts = append(cg.stmts, &ir.Assign{LHS: cg.acc, RHS: cg.combine(cg.acc, cg.own(tile))})
	}
	if wcnt != nil && r.chance(60) {
		var idx ir.Expr = lit(ir.U32Val(uint32(r.intn(cg.wcnt))))
		if r.chance(50) {
			idx = bin(ir.OpRem, cg.li, lit(ir.U32Val(uint32(cg.wcnt))))
		}
		ld := cg.let(fmt.Sprintf("cnt%d", p), &ir.Atomic{Op: ir.AtomicLoad, Args: []ir.Expr{index(wcnt, idx)}, T: cg.at}, true)
		cg.stmts = append(cg.stmts, &ir.Assign{LHS: cg.acc, RHS: cg.combine(cg.acc, cg.fromScalar(ld))})
	}
	if cg.wst != nil && r.chance(60) {
		// A neighbour's slot, which only its owner wrote, before the
		// barrier above (or zero: workgroup memory starts zeroed).
		ld := cg.let(fmt.Sprintf("wl%d", p), &ir.Atomic{Op: ir.AtomicLoad, Args: []ir.Expr{index(cg.wst, cg.rot(cg.li, uint32(cg.l)))}, T: cg.at}, true)
		cg.stmts = append(cg.stmts, &ir.Assign{LHS: cg.acc, RHS: cg.combine(cg.acc, cg.fromScalar(ld))})
	}
	cg.barrier()
}

// atomicOwnSlot appends the atomic stores of phase p to the invocation's
// own slot of wst (Profile.AtomicStores; the class of Dawn's
// vulkan_replace_workgroup_atomic_store_with_exchange):
//
//	atomicStore(&wst[li], a);
//	[let wxP = atomicExchange(&wst[li], b); acc = f(acc, wxP);]   (wxP is a)
//
// Race-free: no other invocation touches wst[li] between the barriers
// around the write part, so the exchange returns the invocation's own
// store. No atomicCompareExchangeWeak: flatten cannot guard one under a
// predicate (its result type cannot be declared in WGSL), and a phase may
// run under the live mask of an earlier return.
func (cg *computeGen) atomicOwnSlot(p int) {
	r := cg.g.r
	own := func() ir.Expr { return index(cg.wst, cg.li) }
	cg.stmts = append(cg.stmts, &ir.ExprStmt{X: &ir.Atomic{Op: ir.AtomicStore, Args: []ir.Expr{own(), cg.scalarOf(cg.at)}, T: ir.Void}})
	if r.chance(60) {
		xo := cg.let(fmt.Sprintf("wx%d", p), &ir.Atomic{Op: ir.AtomicExchange, Args: []ir.Expr{own(), cg.scalarOf(cg.at)}, T: cg.at}, true)
		cg.stmts = append(cg.stmts, &ir.Assign{LHS: cg.acc, RHS: cg.combine(cg.acc, cg.fromScalar(xo))})
	}
}

// reductionPhase appends a tree reduction of tile (1-D, L a power of
// two) into tile[0]:
//
//	tile[li] = acc; workgroupBarrier();
//	for (var s = L/2; s > 0u; s = s / 2u) {
//	  if (li < s) { tile[li] = f(tile[li], tile[li + s]); }
//	  workgroupBarrier();
//	}
//	acc = f(acc, tile[0]); workgroupBarrier();
//
// Race-free: in the step of stride s only invocations li < s write, each
// its own slot li < s, and they read slots li and li + s ≥ s, which no
// one writes in that step. The loop's trip count is uniform (log2 L), so
// its barrier is too.
func (cg *computeGen) reductionPhase(tile *ir.Ident) {
	c := cg.c
	steps := 0
	for s := cg.l / 2; s > 0; s /= 2 {
		steps++
	}
	if !c.copiesFit(steps + 1) {
		return
	}
	c.addCopies(steps + 1)
	u := func(v uint32) ir.Expr { return lit(ir.U32Val(v)) }
	cg.stmts = append(cg.stmts, &ir.Assign{LHS: cg.own(tile), RHS: cg.acc})
	cg.barrier()
	cg.seq++
	name := fmt.Sprintf("s%d", cg.seq-1)
	s := &ir.Ident{Name: name, T: ir.U32, Ref: ir.RefVar}
	step := &ir.If{Cond: bin(ir.OpLt, cg.li, s),
		Then: &ir.Block{Stmts: []ir.Stmt{&ir.Assign{LHS: index(tile, cg.li),
			RHS: cg.combine(index(tile, cg.li), index(tile, bin(ir.OpAdd, cg.li, s)))}}},
		Else: &ir.Block{}}
	exit := &ir.If{Cond: un(ir.OpNot, bin(ir.OpGt, s, u(0))), Then: &ir.Block{Stmts: []ir.Stmt{&ir.Break{}}}, Else: &ir.Block{}}
	loop := &ir.Loop{
		Body:       &ir.Block{Stmts: []ir.Stmt{exit, step, &ir.ExprStmt{X: &ir.BuiltinCall{Fn: ir.BWorkgroupBarrier, T: ir.Void}}}},
		Continuing: &ir.Block{Stmts: []ir.Stmt{&ir.Assign{LHS: s, RHS: bin(ir.OpDiv, s, u(2))}}},
	}
	cg.stmts = append(cg.stmts, &ir.Block{Stmts: []ir.Stmt{&ir.Decl{Name: name, T: ir.U32, Mutable: true, Init: u(uint32(cg.l / 2))}, loop}})
	cg.stmts = append(cg.stmts, &ir.Assign{LHS: cg.acc, RHS: cg.combine(cg.acc, index(tile, u(0)))})
	cg.barrier()
}

// roundsPhase appends an exchange phase repeated for a uniform number of
// rounds, 1 to 3, read from num_workgroups or workgroup_id (WGSL
// #uniformity: both are uniform in a workgroup), so ir.BoundLoop cannot
// bound it and flatten keeps it as a uniform loop with its barriers:
//
//	{ var rnd = 0u; loop { if (rnd >= nwg.x % 3u + 1u) { break; } exchange phase continuing { rnd += 1u; } } }
//
// Race-free as one phase is: each round ends with a barrier. The phase's
// lets live in the loop body (a scope of their own).
func (cg *computeGen) roundsPhase(p int, tile, wcnt, hist *ir.Ident) {
	u := func(v uint32) ir.Expr { return lit(ir.U32Val(v)) }
	src, m := cg.nwg, uint32(3)
	if cg.g.r.chance(40) {
		src, m = cg.wid, 2
	}
	bound := bin(ir.OpAdd, bin(ir.OpRem, swizzle(src, 0), u(m)), u(1))
	rnd := func() ir.Expr { return &ir.Ident{Name: "rnd", T: ir.U32, Ref: ir.RefVar} }
	saved := cg.stmts
	cg.stmts = nil
	cg.c.push()
	cg.exchangePhase(p, tile, wcnt, hist)
	cg.c.pop()
	body := append([]ir.Stmt{&ir.If{Cond: bin(ir.OpGe, rnd(), bound), Then: ir.NewBlock(ir.Pos{}, &ir.Break{}), Else: &ir.Block{}}}, cg.stmts...)
	cg.stmts = append(saved, &ir.Block{Stmts: []ir.Stmt{
		&ir.Decl{Name: "rnd", T: ir.U32, Init: u(0), Mutable: true},
		&ir.Loop{Body: &ir.Block{Stmts: body}, Continuing: ir.NewBlock(ir.Pos{}, &ir.Assign{LHS: rnd(), Op: ir.OpAdd, RHS: u(1)})},
	}})
}

// scanLoop appends a loop over the runtime-sized inp, bounded by its
// arrayLength (uniform; not a constant, so flatten keeps the loop):
//
//	{ var sj = 0u; loop { if (!(sj < arrayLength(&inp))) { break; } acc = f(acc, inp[sj]); continuing { sj += S; } } }
func (cg *computeGen) scanLoop(inp *ir.Ident) {
	u := func(v uint32) ir.Expr { return lit(ir.U32Val(v)) }
	sj := func() ir.Expr { return &ir.Ident{Name: "sj", T: ir.U32, Ref: ir.RefVar} }
	step := uint32(cg.g.r.between(1, 4))
	n := &ir.ArrayLength{X: &ir.Ident{Name: inp.Name, T: inp.T, Ref: ir.RefShared}}
	exit := &ir.If{Cond: un(ir.OpNot, bin(ir.OpLt, sj(), n)), Then: ir.NewBlock(ir.Pos{}, &ir.Break{}), Else: &ir.Block{}}
	upd := &ir.Assign{LHS: cg.acc, RHS: cg.combine(cg.acc, index(inp, sj()))}
	cg.stmts = append(cg.stmts, &ir.Block{Stmts: []ir.Stmt{
		&ir.Decl{Name: "sj", T: ir.U32, Init: u(0), Mutable: true},
		&ir.Loop{Body: &ir.Block{Stmts: []ir.Stmt{exit, upd}}, Continuing: ir.NewBlock(ir.Pos{}, &ir.Assign{LHS: sj(), Op: ir.OpAdd, RHS: u(step)})},
	}})
}
