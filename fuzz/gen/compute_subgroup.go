package gen

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// Subgroup operations (Profile.Subgroups, the "subgroups" profile; doc.go
// "Subgroup operations"): a compute entry point of the compute profile
// that also calls WGSL's subgroup builtins (WGSL
// #subgroup-builtin-functions) in the shapes compilers get wrong in the
// field — wgpu#10019 (subgroupAdd / subgroupBroadcastFirst in both arms of
// a divergent if/else and in switch cases), intel-graphics-compiler#402
// (a shuffle under a branch), llpc#1242 (subgroup operations moved across
// control flow), gpuweb/cts#4035 (a subgroup size outside the reported
// range) — and reads @builtin(subgroup_invocation_id) (sid) and
// @builtin(subgroup_size) (ssz). Every operation's result is stored, by
// every invocation that runs it, to a slot of its own in a result binding
// (K slots per invocation, gi the invocation's linear index):
//
//	enable subgroups;
//	diagnostic(off, subgroup_uniformity);
//	@group(0) @binding(16) var<storage, read_write> sgi: array<i32, N·K>;        (i32 results)
//	@group(0) @binding(17) var<storage, read_write> sgu: array<u32, N·K>;        (u32 results, bools as 0u/1u, sid, ssz)
//	@group(0) @binding(18) var<storage, read_write> sgf: array<f32, N·K>;        (f32 results)
//	@group(0) @binding(19) var<storage, read_write> sgb: array<vec4<u32>, N·K>;  (ballots)
//
// (each declared only when used), in these shapes:
//
//	uniform    sgu[gi·K + k] = subgroupAdd(v);  [let sgvN = …; acc = f(acc, sgvN);]
//	if/else    var sgrN = 0u; if (c) { sgrN = subgroupAdd(a); } else { sgrN = subgroupAdd(b); } sgu[…] = sgrN;
//	switch     var sgrN = 0u; switch (sel) { case 0u { sgrN = op(a); } case 1u, 2u { … } default { … } } sgu[…] = sgrN;
//	loop       var sgrN = init; var sgjN = 0u; loop { if (!(sgjN < T)) { break; } if (sgjN >= lim) { break; } sgrN = f(sgrN, op(v)); continuing { sgjN += 1u; } } sgu[…] = sgrN;
//	early exit (at the end of the entry point, after its last barrier) if (c) { return; } sites…
//
// No subgroup operation is in a loop flatten keeps: a loop whose trip
// count is per invocation is refused there (flatten/subgroup.go,
// checkSubgroupLoops), so the diverging loops are counted ones that a
// second, per-invocation break leaves early, which flatten unrolls.
//
// c is divergent within a subgroup (sid % 2u == 0u, sid < k, li % 3u ==
// 0u, a comparison of the invocation's data) or uniform in the workgroup
// (wid.x % 2u == 0u, ssz >= 8u); sel likewise; lim differs per invocation
// (li % 3u + 1u, sid % 4u, the data's low bits). An arm holds one or two
// sites (leaf stores, or at the first level a nested if/else, switch or
// loop). The operations: subgroupAdd, Mul, Min, Max, And, Or, Xor, the
// inclusive and exclusive Add and Mul scans, subgroupAll, Any, Ballot,
// Elect, BroadcastFirst, Broadcast (constant id), Shuffle (an id computed
// from sid), ShuffleXor (constant mask), ShuffleUp and ShuffleDown
// (constant delta), on i32, u32 and f32 values.
//
// Exactness: i32 and u32 reductions and scans wrap, so any order gives one
// result; an f32 operand of a sum or sum scan is clamped to ±2^17 (a
// subgroup is part of one workgroup, at most 64 invocations here, so every
// partial sum is an integer ≤ 2^23), of a product or product scan to ±2
// (every partial product is ±2^k, k ≤ 64, exact). A share of the f32 sums
// have fractional operands: v·0.25 + 0.5 (exact in any order) or v·0.1
// (rounded, and the sum then depends on the order: the reference's float
// bounds cover it); those results are only stored. Only a determinate
// result of an operation in uniform control flow with integral operands
// (reductions, scans, BroadcastFirst, All, Any, Elect, a ballot's bit
// count; not an f32 product, which the reference bounds as if it
// rounded) feeds acc, and so the rest of the program's data; the rest —
// shuffles (their source lane may be inactive: indeterminate), Broadcast
// and every result in divergent control flow (it depends on the active
// set, which WGSL leaves to the implementation: the reference marks it,
// oracle's Reconvergence) — is only stored. subgroupBroadcast's id is a
// lane the shape keeps active: 0..3 in uniform control flow when the
// workgroup's size is a multiple of 4 (0 otherwise), below k under a
// branch on sid < k; elsewhere the operation is subgroupBroadcastFirst.
//
// Race-free as the compute profile is (doc.go): each invocation writes
// only its own slots of the result bindings, which nothing reads; no
// barrier is under a branch (the sites are statements between phases)
// and the early exit comes after the last barrier.

// Result binding kinds of subgroup operations.
const (
	sgI32 = iota
	sgU32
	sgF32
	sgBallot
	sgKinds
)

// sgResultBinding is the first binding number of the result bindings
// (after the compute profile's buffers, 0–5, and textures, 6 on).
const sgResultBinding = 16

var sgResultNames = [sgKinds]string{"sgi", "sgu", "sgf", "sgb"}

// sgGen generates the subgroup operations of one entry point.
type sgGen struct {
	cg *computeGen
	r  *chooser
	// sid and ssz are the subgroup builtin parameters.
	sid, ssz *ir.Ident
	// k is the number of result slots per invocation of each binding;
	// used counts the slots handed out, per kind and in all.
	k     int
	res   [sgKinds]*ir.SharedVar
	used  [sgKinds]int
	total int
	seq   int
}

// sgCtx is where a site is placed.
type sgCtx struct {
	// divergent: not in uniform control flow within the workgroup (a
	// subgroup's active set is then the implementation's choice).
	divergent bool
	// lanes: the invocations of subgroup invocation id < lanes are known
	// active (0: none known).
	lanes int
	// depth is the nesting of shapes (0: the entry point's top level).
	depth int
	// mult is the unroll multiplier of the loops of sites around it.
	mult int
}

// subgroupWorkgroupSizes are the 1-D workgroup sizes of a subgroups
// program: multiples of the common subgroup sizes 4, 8, 16, 32 and sizes
// that are not (partial subgroups).
var subgroupWorkgroupSizes = []uint32{1, 3, 4, 5, 7, 8, 12, 16, 20, 24, 31, 32, 33, 48, 64}

// workgroupSize draws the workgroup size of a subgroups program (1-D, or
// 2-D with X·Y ≤ 64) and whether its tile is 2-D.
func (sg *sgGen) workgroupSize() (ws [3]uint32, tile2 bool) {
	r := sg.r
	if r.chance(70) {
		return [3]uint32{subgroupWorkgroupSizes[r.intn(len(subgroupWorkgroupSizes))], 1, 1}, false
	}
	xs, ys := []uint32{2, 3, 4, 5, 8, 16}, []uint32{2, 3, 4}
	for {
		x, y := xs[r.intn(len(xs))], ys[r.intn(len(ys))]
		if x*y <= maxLocalInvocations {
			return [3]uint32{x, y, 1}, r.chance(50)
		}
	}
}

// params adds the subgroup builtin parameters to the entry point.
func (sg *sgGen) params(param func(name, builtin string, t *ir.Type) *ir.Ident) {
	sg.sid = param("sid", "subgroup_invocation_id", ir.U32)
	sg.ssz = param("ssz", "subgroup_size", ir.U32)
	sg.k = sg.r.between(4, 10)
}

// directives adds the module's `enable subgroups;` and
// `diagnostic(off, subgroup_uniformity);` (WGSL #enable-extensions-sec,
// #filterable-triggering-rules: the divergent sites are not in uniform
// control flow), as the front end represents them.
func (sg *sgGen) directives(m *ir.Module) {
	for _, d := range []struct{ kind, text string }{
		{"enable", "enable subgroups;"},
		{"diagnostic", "diagnostic(off, subgroup_uniformity);"},
	} {
		m.Opaque = append(m.Opaque, &ir.Opaque{Kind: d.kind, Text: d.text, Reason: "module-scope " + d.kind + " (kept verbatim)"})
	}
}

func (sg *sgGen) full() bool { return sg.total >= sg.k }

func (sg *sgGen) u(v uint32) ir.Expr { return lit(ir.U32Val(v)) }

func (sg *sgGen) sidE() ir.Expr { return &ir.Ident{Name: sg.sid.Name, T: ir.U32, Ref: ir.RefParam} }
func (sg *sgGen) sszE() ir.Expr { return &ir.Ident{Name: sg.ssz.Name, T: ir.U32, Ref: ir.RefParam} }
func (sg *sgGen) liE() ir.Expr  { return &ir.Ident{Name: sg.cg.li.Name, T: ir.U32, Ref: ir.RefParam} }
func (sg *sgGen) giE() ir.Expr  { return &ir.Ident{Name: sg.cg.gi.Name, T: ir.U32, Ref: ir.RefLet} }

// slot returns the reference to the next result slot of kind: the
// binding's element gi·K + k (declaring the binding on first use).
func (sg *sgGen) slot(kind int) ir.Expr {
	if sg.res[kind] == nil {
		elem := []*ir.Type{ir.I32, ir.U32, ir.F32, ir.Vec(4, ir.U32)}[kind]
		v := &ir.SharedVar{Name: sgResultNames[kind], T: ir.ArrayOf(elem, sg.cg.n*sg.k), Space: ir.SpaceStorage,
			Access: ir.AccessReadWrite, Group: 0, Binding: sgResultBinding + kind}
		sg.cg.g.m.Shared = append(sg.cg.g.m.Shared, v)
		sg.res[kind] = v
	}
	v := sg.res[kind]
	k := sg.used[kind]
	sg.used[kind]++
	sg.total++
	at := bin(ir.OpAdd, bin(ir.OpMul, sg.giE(), sg.u(uint32(sg.k))), sg.u(uint32(k)))
	return index(&ir.Ident{Name: v.Name, T: v.T, Ref: ir.RefShared}, at)
}

func sgKindOf(t *ir.Type) int {
	switch t.Kind {
	case ir.KindI32:
		return sgI32
	case ir.KindU32:
		return sgU32
	case ir.KindF32:
		return sgF32
	}
	return sgBallot
}

// valueType draws the scalar type of a value operation.
func (sg *sgGen) valueType() *ir.Type {
	w := sg.cg.g.prof.Type
	return []*ir.Type{ir.I32, ir.U32, ir.F32}[sg.r.weighted(w.I32, w.U32, w.F32)]
}

// source returns a run-time scalar of type t from the invocation's data
// or ids (in the exact domain for f32).
func (sg *sgGen) source(t *ir.Type) ir.Expr {
	cg := sg.cg
	switch sg.r.weighted(4, 3, 2, 2, 1) {
	case 0:
		return cg.scalarOf(t)
	case 1:
		var e ir.Expr = &ir.Ident{Name: cg.x.Name, T: cg.t, Ref: ir.RefLet}
		if cg.t.Kind == ir.KindVec {
			e = swizzle(e, uint8(sg.r.intn(cg.t.Len)))
		}
		return convertScalar(e, t)
	case 2:
		return convertScalar(sg.liE(), t)
	case 3:
		return convertScalar(sg.sidE(), t)
	}
	return convertScalar(sg.giE(), t)
}

// sgOp describes a generated operation.
type sgOp struct {
	e ir.Expr
	// mixable: determinate given the partition and integral in the exact
	// domain (or an integer) when run in uniform control flow.
	mixable bool
}

// valueOp returns a subgroup operation whose result has scalar type t.
func (sg *sgGen) valueOp(t *ir.Type, ctx sgCtx) sgOp { return sg.valueOpOf(t, ctx, sg.pickOp(t, ctx)) }

// pickOp draws the operation of a value site.
func (sg *sgGen) pickOp(t *ir.Type, ctx sgCtx) ir.Builtin {
	r := sg.r
	isInt := t.Kind != ir.KindF32
	bits := 0
	if isInt {
		bits = 2
	}
	bcast := 0
	switch {
	case ctx.lanes > 0 && ctx.divergent:
		bcast = 12 // under sid < k: the lanes below k run it
	case ctx.lanes > 0:
		bcast = 4
	}
	ops := []ir.Builtin{ir.BSubgroupAdd, ir.BSubgroupMul, ir.BSubgroupMin, ir.BSubgroupMax,
		ir.BSubgroupAnd, ir.BSubgroupOr, ir.BSubgroupXor,
		ir.BSubgroupInclusiveAdd, ir.BSubgroupExclusiveAdd, ir.BSubgroupInclusiveMul, ir.BSubgroupExclusiveMul,
		ir.BSubgroupBroadcastFirst, ir.BSubgroupBroadcast,
		ir.BSubgroupShuffle, ir.BSubgroupShuffleXor, ir.BSubgroupShuffleUp, ir.BSubgroupShuffleDown}
	return ops[r.weighted(8, 3, 3, 3, bits, bits, bits, 4, 4, 2, 2, 6, bcast, 3, 3, 2, 2)]
}

// valueOpOf returns the operation op (drawn by pickOp for t, maybe at
// another ctx: subgroupBroadcast where no lane is known active becomes
// subgroupBroadcastFirst) on a fresh operand.
func (sg *sgGen) valueOpOf(t *ir.Type, ctx sgCtx, op ir.Builtin) sgOp {
	r := sg.r
	if op == ir.BSubgroupBroadcast && ctx.lanes == 0 {
		op = ir.BSubgroupBroadcastFirst
	}
	a, frac := sg.operand(t, op)
	switch op {
	case ir.BSubgroupBroadcast:
		return sgOp{e: builtin(op, a, sg.u(uint32(r.intn(ctx.lanes))))}
	case ir.BSubgroupShuffle:
		var id ir.Expr
		switch r.intn(4) {
		case 0:
			id = bin(ir.OpXor, sg.sidE(), sg.u(1))
		case 1:
			id = bin(ir.OpRem, bin(ir.OpAdd, sg.sidE(), sg.u(1)), sg.sszE())
		case 2:
			id = bin(ir.OpSub, bin(ir.OpSub, sg.sszE(), sg.u(1)), sg.sidE())
		default:
			id = sg.u(0)
		}
		return sgOp{e: builtin(op, a, id)}
	case ir.BSubgroupShuffleXor:
		return sgOp{e: builtin(op, a, sg.u(uint32(r.between(1, 3))))}
	case ir.BSubgroupShuffleUp, ir.BSubgroupShuffleDown:
		return sgOp{e: builtin(op, a, sg.u(uint32(r.between(1, 2))))}
	}
	// An f32 product (every partial product ±2^k, exact) is only stored:
	// the reference bounds float products as if they rounded, so one
	// converted to an integer would be indeterminate there.
	prod := op == ir.BSubgroupMul || op == ir.BSubgroupInclusiveMul || op == ir.BSubgroupExclusiveMul
	return sgOp{e: builtin(op, a), mixable: !frac && !(prod && t.Kind == ir.KindF32)}
}

// operand returns the operand of op of type t: a small literal or a
// run-time value, in op's exact domain for f32 (sums ±2^17, products
// ±2); frac reports a fractional f32 operand (sums only).
func (sg *sgGen) operand(t *ir.Type, op ir.Builtin) (e ir.Expr, frac bool) {
	r := sg.r
	sum := op == ir.BSubgroupAdd || op == ir.BSubgroupInclusiveAdd || op == ir.BSubgroupExclusiveAdd
	prod := op == ir.BSubgroupMul || op == ir.BSubgroupInclusiveMul || op == ir.BSubgroupExclusiveMul
	if r.chance(15) {
		lo, hi := -8, 8
		if t.Kind == ir.KindU32 {
			lo = 0
		}
		if prod && t.Kind == ir.KindF32 {
			lo, hi = -2, 2
		}
		return lit(scalarValue(t, int64(r.between(lo, hi)))), false
	}
	e = sg.source(t)
	if t.Kind != ir.KindF32 {
		return e, false
	}
	f := func(v float32) ir.Expr { return lit(ir.F32Val(v)) }
	switch {
	case sum && r.chance(20):
		e = builtin(ir.BClamp, e, f(-1024), f(1024))
		if r.chance(50) {
			return bin(ir.OpAdd, bin(ir.OpMul, e, f(0.25)), f(0.5)), true
		}
		return bin(ir.OpMul, e, f(0.1)), true
	case sum:
		return builtin(ir.BClamp, e, f(-(1 << 17)), f(1<<17)), false
	case prod:
		return builtin(ir.BClamp, e, f(-2), f(2)), false
	}
	return e, false
}

// boolSource returns a bool operand of subgroupAll/Any/Ballot.
func (sg *sgGen) boolSource() ir.Expr {
	if sg.r.chance(15) {
		return lit(ir.BoolVal(true))
	}
	c, _ := sg.cond(true)
	return c
}

// cond returns a branch condition: divergent within a subgroup when
// divergent is set, uniform in the workgroup otherwise. lanes is k for a
// condition sid < k (its true arm keeps the lanes below k), else 0.
func (sg *sgGen) cond(divergent bool) (c ir.Expr, lanes int) {
	r := sg.r
	cg := sg.cg
	if !divergent {
		if r.chance(50) {
			return bin(ir.OpEq, bin(ir.OpRem, swizzle(cg.wid, 0), sg.u(2)), sg.u(0)), 0
		}
		return bin(ir.OpGe, sg.sszE(), sg.u(uint32(4<<r.intn(3)))), 0
	}
	switch r.weighted(3, 3, 2, 2, 3, 1) {
	case 0:
		return bin(ir.OpEq, bin(ir.OpRem, sg.sidE(), sg.u(2)), sg.u(0)), 0
	case 1:
		k := r.between(1, 5)
		return bin(ir.OpLt, sg.sidE(), sg.u(uint32(k))), k
	case 2:
		return bin(ir.OpEq, bin(ir.OpRem, sg.liE(), sg.u(3)), sg.u(0)), 0
	case 3:
		return bin(ir.OpNe, bin(ir.OpAnd, sg.giE(), sg.u(1)), sg.u(0)), 0
	case 4:
		return bin(ir.OpGt, cg.scalarOf(ir.I32), lit(ir.I32Val(int32(r.between(-4, 4))))), 0
	}
	return bin(ir.OpGe, sg.sidE(), bin(ir.OpDiv, sg.sszE(), sg.u(2))), 0
}

// leaf returns one operation stored to its slot (nil when the slots are
// spent), and, in uniform control flow at the top level, sometimes its
// result mixed into acc.
func (sg *sgGen) leaf(ctx sgCtx) []ir.Stmt {
	if sg.full() {
		return nil
	}
	r := sg.r
	var e ir.Expr
	mixable := false
	var kind int
	switch r.weighted(12, 2, 2, 1, 2) {
	case 0: // a value operation
		t := sg.valueType()
		op := sg.valueOp(t, ctx)
		e, mixable, kind = op.e, op.mixable, sgKindOf(t)
	case 1: // subgroupAll / subgroupAny
		fn := ir.BSubgroupAll
		if r.chance(50) {
			fn = ir.BSubgroupAny
		}
		e, mixable, kind = sgBoolU32(builtin(fn, sg.boolSource())), true, sgU32
	case 2: // subgroupBallot
		e, kind = builtin(ir.BSubgroupBallot, sg.boolSource()), sgBallot
		mixable = true
	case 3: // subgroupElect
		e, mixable, kind = sgBoolU32(builtin(ir.BSubgroupElect)), true, sgU32
	default: // subgroup_invocation_id, subgroup_size
		if r.chance(50) {
			e = sg.sidE()
		} else {
			e = sg.sszE()
		}
		mixable, kind = true, sgU32
	}
	if !mixable || ctx.divergent || ctx.depth > 0 || !r.chance(50) {
		return []ir.Stmt{&ir.Assign{LHS: sg.slot(kind), RHS: e}}
	}
	sg.seq++
	name := fmt.Sprintf("sgv%d", sg.seq-1)
	d := &ir.Decl{Name: name, T: e.Type(), Init: e}
	v := &ir.Ident{Name: name, T: e.Type(), Ref: ir.RefLet}
	st := &ir.Assign{LHS: sg.slot(kind), RHS: v}
	mix := &ir.Assign{LHS: sg.cg.acc, RHS: sg.cg.combine(sg.cg.acc, sg.cg.fromScalar(sgToInt(ir.CloneExpr(v))))}
	return []ir.Stmt{d, st, mix}
}

// sgBoolU32 is select(0u, 1u, b).
func sgBoolU32(b ir.Expr) ir.Expr {
	return &ir.Select{False: lit(ir.U32Val(0)), True: lit(ir.U32Val(1)), Cond: b, T: ir.U32}
}

// sgToInt converts a mixable result to a u32 or i32 scalar: f32 after
// reconditioning (a product may reach 2^64), a ballot as the count of its
// first word's bits.
func sgToInt(e ir.Expr) ir.Expr {
	switch e.Type().Kind {
	case ir.KindF32:
		return convertScalar(fclamp(e), ir.I32)
	case ir.KindVec:
		return builtin(ir.BCountOneBits, swizzle(e, 0))
	}
	return e
}

// sites returns n sites at the top level of the entry point.
func (sg *sgGen) sites(n int) []ir.Stmt {
	var out []ir.Stmt
	for i := 0; i < n && !sg.full(); i++ {
		out = append(out, sg.site(sgCtx{lanes: sg.uniformLanes(), mult: 1})...)
	}
	return out
}

// uniformLanes is the active lanes known in uniform control flow: 0..3
// when the workgroup's size is a multiple of 4 (every subgroup then holds
// a multiple of 4 invocations), lane 0 otherwise.
func (sg *sgGen) uniformLanes() int {
	if sg.cg.l%4 == 0 {
		return 4
	}
	return 1
}

// site returns one shape at ctx.
func (sg *sgGen) site(ctx sgCtx) []ir.Stmt {
	r := sg.r
	nest := 4
	if ctx.depth >= 2 {
		nest = 0
	}
	switch r.weighted(4, nest, nest/2, nest/2) {
	case 1:
		return sg.ifElse(ctx)
	case 2:
		return sg.switchSite(ctx)
	case 3:
		return sg.loopSite(ctx)
	}
	return sg.leaf(ctx)
}

// arm returns the body of a branch arm: one or two sites, or an
// assignment of the shape's result variable rv (nil: none) with one
// operation — same when it is not 0 (every arm's the same operation, on
// its own operand: wgpu#10019's shape).
func (sg *sgGen) arm(ctx sgCtx, rv *ir.Ident, same ir.Builtin) *ir.Block {
	b := &ir.Block{}
	if rv != nil && !sg.full() {
		var op sgOp
		if same != 0 {
			op = sg.valueOpOf(rv.T, ctx, same)
		} else {
			op = sg.valueOp(rv.T, ctx)
		}
		b.Stmts = append(b.Stmts, &ir.Assign{LHS: ir.CloneExpr(rv), RHS: op.e})
		if sg.r.chance(70) {
			return b
		}
	}
	inner := ctx
	inner.depth++
	for i, n := 0, sg.r.between(1, 2); i < n; i++ {
		b.Stmts = append(b.Stmts, sg.site(inner)...)
	}
	return b
}

// resultVar declares the var a branching or looping shape assigns in
// each arm (stored after it: wgpu#10019's shape).
func (sg *sgGen) resultVar(t *ir.Type, init ir.Value) (*ir.Decl, *ir.Ident) {
	sg.seq++
	name := fmt.Sprintf("sgr%d", sg.seq-1)
	return &ir.Decl{Name: name, T: t, Init: lit(init), Mutable: true}, &ir.Ident{Name: name, T: t, Ref: ir.RefVar}
}

// ifElse: if (c) { … } else { … }, both arms assigning one result var
// with a subgroup operation (mostly), or holding sites of their own.
func (sg *sgGen) ifElse(ctx sgCtx) []ir.Stmt {
	if sg.full() {
		return nil
	}
	r := sg.r
	divergent := r.chance(80)
	c, lanes := sg.cond(divergent)
	in := ctx
	in.divergent = ctx.divergent || divergent
	then, els := in, in
	if divergent {
		// sid < k keeps the lanes below k only where all were active.
		then.lanes, els.lanes = 0, 0
		if !ctx.divergent {
			then.lanes = lanes
		}
	}
	var rv *ir.Ident
	var decl *ir.Decl
	var dst ir.Expr
	var same ir.Builtin
	if r.chance(75) {
		t := sg.valueType()
		decl, rv = sg.resultVar(t, scalarValue(t, 0))
		dst = sg.slot(sgKindOf(t)) // taken before the arms take theirs
		if r.chance(50) {
			same = sg.pickOp(t, then)
		}
	}
	s := &ir.If{Cond: c, Then: sg.arm(then, rv, same), Else: &ir.Block{}}
	if r.chance(85) {
		s.Else = sg.arm(els, rv, same)
	}
	if rv == nil {
		return []ir.Stmt{s}
	}
	return []ir.Stmt{&ir.Block{Stmts: []ir.Stmt{decl, s, &ir.Assign{LHS: dst, RHS: ir.CloneExpr(rv)}}}}
}

// switchSite: switch (sel) { case …: { rv = op(…); } … default: { … } }.
func (sg *sgGen) switchSite(ctx sgCtx) []ir.Stmt {
	if sg.full() {
		return nil
	}
	r := sg.r
	var sel ir.Expr
	divergent := true
	switch r.weighted(3, 3, 2, 1) {
	case 0:
		sel = bin(ir.OpRem, sg.liE(), sg.u(uint32(r.between(2, 4))))
	case 1:
		sel = bin(ir.OpRem, sg.sidE(), sg.u(uint32(r.between(2, 4))))
	case 2:
		sel = bin(ir.OpAnd, sg.cg.scalarOf(ir.U32), sg.u(3))
	default:
		sel = bin(ir.OpRem, swizzle(sg.cg.nwg, 0), sg.u(3))
		divergent = false
	}
	in := ctx
	in.divergent = ctx.divergent || divergent
	if divergent {
		in.lanes = 0
	}
	t := sg.valueType()
	decl, rv := sg.resultVar(t, scalarValue(t, 0))
	dst := sg.slot(sgKindOf(t))
	var same ir.Builtin
	if r.chance(50) {
		same = sg.pickOp(t, in)
	}
	sw := &ir.Switch{Selector: sel}
	vals := []uint32{0, 1, 2, 3}
	n := r.between(1, 3)
	for i := 0; i < n; i++ {
		c := &ir.Case{Values: []ir.Value{ir.U32Val(vals[i])}}
		if i == n-1 && n < 3 && r.chance(40) {
			c.Values = append(c.Values, ir.U32Val(vals[i+1]))
		}
		c.Body = sg.arm(in, rv, same)
		sw.Cases = append(sw.Cases, c)
	}
	def := &ir.Case{Default: true, Body: &ir.Block{}}
	if r.chance(70) {
		def.Body = sg.arm(in, rv, same)
	}
	sw.Cases = append(sw.Cases, def)
	return []ir.Stmt{&ir.Block{Stmts: []ir.Stmt{decl, sw, &ir.Assign{LHS: dst, RHS: ir.CloneExpr(rv)}}}}
}

// accumulate returns f(rv, e): a wrapping sum or xor for integers, for
// f32 a reconditioned sum or a max (exact: rv and e are integers).
func (sg *sgGen) accumulate(rv *ir.Ident, e ir.Expr) ir.Expr {
	if rv.T.Kind == ir.KindF32 {
		if sg.r.chance(30) {
			return builtin(ir.BMax, ir.CloneExpr(rv), e)
		}
		return fclamp(bin(ir.OpAdd, ir.CloneExpr(rv), e))
	}
	if sg.r.chance(30) {
		return bin(ir.OpXor, ir.CloneExpr(rv), e)
	}
	return bin(ir.OpAdd, ir.CloneExpr(rv), e)
}

// divergentLimit returns a per-invocation trip limit in [0, 4].
func (sg *sgGen) divergentLimit() ir.Expr {
	switch sg.r.intn(3) {
	case 0:
		return bin(ir.OpAdd, bin(ir.OpRem, sg.liE(), sg.u(3)), sg.u(1))
	case 1:
		return bin(ir.OpRem, sg.sidE(), sg.u(4))
	}
	return bin(ir.OpAnd, sg.cg.scalarOf(ir.U32), sg.u(3))
}

// loopSite: a counted loop (ir.BoundLoop bounds it: flatten unrolls it)
// whose iterations diverge by a second, per-invocation break.
func (sg *sgGen) loopSite(ctx sgCtx) []ir.Stmt {
	if sg.full() {
		return nil
	}
	r := sg.r
	c := sg.cg.c
	trips := r.between(2, 4)
	if !c.copiesFit(ctx.mult * (trips + 1)) {
		return sg.leaf(ctx)
	}
	c.addCopies(ctx.mult * (trips + 1))
	sg.seq++
	j := fmt.Sprintf("sgj%d", sg.seq-1)
	jE := func() ir.Expr { return &ir.Ident{Name: j, T: ir.U32, Ref: ir.RefVar} }
	t := sg.valueType()
	decl, rv := sg.resultVar(t, scalarValue(t, 0))
	dst := sg.slot(sgKindOf(t))
	brk := func(e ir.Expr) ir.Stmt {
		return &ir.If{Cond: e, Then: ir.NewBlock(ir.Pos{}, &ir.Break{}), Else: &ir.Block{}}
	}
	in := ctx
	in.divergent, in.lanes, in.depth, in.mult = true, 0, ctx.depth+1, ctx.mult*(trips+1)
	body := []ir.Stmt{brk(un(ir.OpNot, bin(ir.OpLt, jE(), sg.u(uint32(trips))))), brk(bin(ir.OpGe, jE(), sg.divergentLimit()))}
	body = append(body, &ir.Assign{LHS: ir.CloneExpr(rv), RHS: sg.accumulate(rv, sg.valueOp(t, in).e)})
	if r.chance(30) {
		body = append(body, sg.site(in)...)
	}
	l := &ir.Loop{Body: &ir.Block{Stmts: body}, Continuing: ir.NewBlock(ir.Pos{}, &ir.Assign{LHS: jE(), Op: ir.OpAdd, RHS: sg.u(1)})}
	jd := &ir.Decl{Name: j, T: ir.U32, Init: sg.u(0), Mutable: true}
	if _, err := ir.BoundLoop(&ir.Block{Stmts: []ir.Stmt{jd, l}}, 1); err != nil {
		panic(fmt.Sprintf("gen: generated subgroup loop is not bounded (generator bug): %v", err))
	}
	return []ir.Stmt{&ir.Block{Stmts: []ir.Stmt{decl, jd, l, &ir.Assign{LHS: dst, RHS: ir.CloneExpr(rv)}}}}
}

// tail returns the entry point's last statements: sometimes an early
// exit of a divergent (or uniform) set of invocations followed by sites
// the rest run (in non-uniform control flow), after the last barrier.
func (sg *sgGen) tail() []ir.Stmt {
	r := sg.r
	if sg.full() || !r.chance(50) {
		return nil
	}
	divergent := r.chance(85)
	c, _ := sg.cond(divergent)
	out := []ir.Stmt{&ir.If{Cond: c, Then: ir.NewBlock(ir.Pos{}, &ir.Return{}), Else: &ir.Block{}}}
	ctx := sgCtx{divergent: divergent, mult: 1, depth: 1}
	if !divergent {
		ctx.lanes = sg.uniformLanes()
	}
	for i, n := 0, r.between(1, 3); i < n; i++ {
		out = append(out, sg.site(ctx)...)
	}
	return out
}
