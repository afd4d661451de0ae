package flatten

// Subgroup operations in a twin (doc.go "Subgroups"; WGSL
// #subgroup-builtin-functions).
//
// A twin is branchless, so a subgroup operation the source runs under the
// path's mask c runs in the twin in every invocation of the subgroup. The
// rewrite below makes that unconditional run give each invocation with c
// what the source's run gives it under maximal reconvergence, where the
// active invocations are exactly those with c: the inactive invocations
// take part with a value that cannot change the result (an identity, a
// false vote), or are skipped by reading a lane chosen from a ballot of c.
// The guarded call is bound to a let where it is evaluated, so no guard of
// an entry point's twin (entry.go: `if (P) { buf[i] = v; }`) ever holds
// it — inside a guard it would run in the invocations with P only — and
// forward never moves it into one (prop.go).

import (
	"math"

	"github.com/gpudiff/gpudiff/ir"
)

// faultSubgroupGuardDropped is the injected bug (FaultEnv,
// Options.Fault): a reduction's or scan's operand is not guarded, so the
// twin's select(old, subgroupAdd(v), c) sums over every invocation of the
// subgroup, not the source's active ones.
const faultSubgroupGuardDropped = "subgroup-guard-dropped"

// keptSlot is a kept loop being lowered (masked.go), filled with the
// twin's loop once it is built, so that a subgroup operation inside it
// can be checked against the loop's kind (checkSubgroupLoops).
type keptSlot struct {
	loop *ir.Loop
	// discards: the source's loop may discard (itself or a function it
	// calls), so a later iteration runs after a discard.
	discards bool
}

// loopDiscards reports whether the source loop lp holds a discard or
// calls a function whose call graph does.
func loopDiscards(m *ir.Module, lp *ir.Loop) bool {
	return ir.Any(lp, func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Discard:
			return true
		case *ir.Call:
			if f := m.Func(x.Func); f != nil {
				return hasDiscard(m, f)
			}
		}
		return false
	})
}

// pendingSubgroup is a subgroup operation lowered inside a kept loop: the
// twin keeps it only if the innermost kept loop around it is uniform.
type pendingSubgroup struct {
	pos  ir.Pos
	fn   ir.Builtin
	slot *keptSlot
}

// isSubgroup reports whether b is a subgroup or quad builtin.
func isSubgroup(b ir.Builtin) bool { return b.Info().Class == ir.ClassSubgroup }

// hasSubgroup reports whether e calls a subgroup or quad builtin.
func hasSubgroup(e ir.Node) bool {
	return ir.Any(e, func(n ir.Node) bool {
		b, ok := n.(*ir.BuiltinCall)
		return ok && isSubgroup(b.Fn)
	})
}

// subgroupCall lowers the subgroup or quad builtin call x: its operands
// translated left to right as any call's, then guarded with the effective
// predicate c (guardSubgroup) and bound to a let. Where c is statically
// true the call is the source's; where it is statically false the value
// (never selected) is zero and nothing runs.
func (l *lowerer) subgroupCall(x *ir.BuiltinCall) ir.Expr {
	if l.demoted != nil && (l.discarded || l.inDiscardingLoop()) {
		l.errorf(x.Pos, "%s in a fragment entry point after a discard may have run: the source's demoted invocation is a helper, whose part in a subgroup operation WGSL leaves to the implementation, while the twin demotes only at its end (doc.go \"Subgroups\"); take the operation before the discard", x.Fn)
		return &ir.Lit{Pos: x.Pos, Val: ir.Zero(x.T)}
	}
	call := l.translateOperands(x).(*ir.BuiltinCall)
	c := l.pred()
	if c == nil {
		return call
	}
	if isFalse(c) {
		return &ir.Lit{Pos: x.Pos, Val: ir.Zero(x.T)}
	}
	if n := len(l.keptStack); n > 0 {
		l.pendingSG = append(l.pendingSG, pendingSubgroup{pos: x.Pos, fn: x.Fn, slot: l.keptStack[n-1]})
	}
	for i, a := range call.Args {
		call.Args[i] = l.finish(a)
	}
	return l.bindAlways("sg", l.guardSubgroup(call, c))
}

// inDiscardingLoop reports whether a kept loop being lowered may discard.
func (l *lowerer) inDiscardingLoop() bool {
	for _, s := range l.keptStack {
		if s.discards {
			return true
		}
	}
	return false
}

// guardSubgroup returns call, whose operands are translated, rewritten so
// that evaluated by every invocation of the subgroup it gives each
// invocation with c what call gives under maximal reconvergence with the
// invocations with c active (doc.go "Subgroups" has the argument for each
// form):
//
//	reductions, scans      op(select(identity, v, c))
//	subgroupAll(p)         subgroupAll(!c || p)
//	subgroupAny(p)         subgroupAny(c && p)
//	subgroupBallot(p)      subgroupBallot(c && p)
//	subgroupElect()        select(false, subgroupInclusiveAdd(select(0u, 1u, c)) == 1u, c)
//	subgroupBroadcastFirst(v)
//	                       subgroupShuffle(v, first(c)), first(c) the lowest
//	                       set bit of subgroupBallot(c)
//	subgroupShuffleUp/Down/Xor(v, d)
//	                       d replaced by subgroupShuffle(d, first(c)) unless
//	                       d is uniform by construction (uniformDelta) or,
//	                       once the twin is lowered, by WGSL's analysis
//	                       (resolveDeltas)
//	subgroupBroadcast, subgroupShuffle, quad operations
//	                       unchanged
func (l *lowerer) guardSubgroup(call *ir.BuiltinCall, c ir.Expr) ir.Expr {
	pos := call.Pos
	sel := func(id ir.Value, v ir.Expr) ir.Expr {
		return &ir.Select{Pos: pos, False: &ir.Lit{Pos: pos, Val: id}, True: v, Cond: ir.CloneExpr(c), T: v.Type()}
	}
	switch call.Fn {
	case ir.BSubgroupAdd, ir.BSubgroupInclusiveAdd, ir.BSubgroupExclusiveAdd,
		ir.BSubgroupMul, ir.BSubgroupInclusiveMul, ir.BSubgroupExclusiveMul,
		ir.BSubgroupMin, ir.BSubgroupMax, ir.BSubgroupAnd, ir.BSubgroupOr, ir.BSubgroupXor:
		if l.fault == faultSubgroupGuardDropped {
			return call // the injected bug: every invocation's operand counts
		}
		call.Args[0] = sel(reductionIdentity(call.Fn, call.T), call.Args[0])
	case ir.BSubgroupAll:
		call.Args[0] = &ir.Binary{Pos: pos, Op: ir.OpLogOr, X: not(ir.CloneExpr(c)), Y: call.Args[0], T: ir.Bool}
	case ir.BSubgroupAny, ir.BSubgroupBallot:
		call.Args[0] = &ir.Binary{Pos: pos, Op: ir.OpLogAnd, X: ir.CloneExpr(c), Y: call.Args[0], T: ir.Bool}
	case ir.BSubgroupElect:
		scan := &ir.BuiltinCall{Pos: pos, Fn: ir.BSubgroupInclusiveAdd, Args: []ir.Expr{sel(ir.U32Val(0), &ir.Lit{Pos: pos, Val: ir.U32Val(1)})}, T: ir.U32}
		first := &ir.Binary{Pos: pos, Op: ir.OpEq, X: scan, Y: &ir.Lit{Pos: pos, Val: ir.U32Val(1)}, T: ir.Bool}
		// select, not &&: WGSL's && would run the scan only where c holds.
		return &ir.Select{Pos: pos, False: &ir.Lit{Pos: pos, Val: ir.BoolVal(false)}, True: first, Cond: ir.CloneExpr(c), T: ir.Bool}
	case ir.BSubgroupBroadcastFirst:
		return &ir.BuiltinCall{Pos: pos, Fn: ir.BSubgroupShuffle, Args: []ir.Expr{call.Args[0], l.firstLane(c, pos)}, T: call.T}
	case ir.BSubgroupShuffleUp, ir.BSubgroupShuffleDown, ir.BSubgroupShuffleXor:
		if !l.uniformDelta(call.Args[1]) {
			d := l.bindAlways("d", call.Args[1])
			call.Args[1] = l.bindAlways("delta", &ir.BuiltinCall{Pos: pos, Fn: ir.BSubgroupShuffle, Args: []ir.Expr{ir.CloneExpr(d), l.firstLane(c, pos)}, T: d.Type()})
			for i := len(l.out) - 1; i >= 0; i-- {
				if x, ok := l.out[i].(*ir.Decl); ok && x.Name == call.Args[1].(*ir.Ident).Name {
					l.deltas = append(l.deltas, pendingDelta{decl: x, plain: d})
					break
				}
			}
		}
	}
	return call
}

// firstLane returns a u32 let holding the subgroup_invocation_id of the
// lowest invocation with c: the lowest set bit of subgroupBallot(c), whose
// vec4<u32> holds ids 0–31 in x, 32–63 in y, 64–95 in z and 96–127 in w
// (WGSL #subgroupBallot-builtin; a subgroup has at most 128 invocations).
// Where no invocation has c it is 0, a valid id whose value no invocation
// with c reads.
func (l *lowerer) firstLane(c ir.Expr, pos ir.Pos) ir.Expr {
	u4 := ir.Vec(4, ir.U32)
	ballot := l.bindAlways("ballot", &ir.BuiltinCall{Pos: pos, Fn: ir.BSubgroupBallot, Args: []ir.Expr{ir.CloneExpr(c)}, T: u4})
	u := func(v uint32) ir.Expr { return &ir.Lit{Pos: pos, Val: ir.U32Val(v)} }
	var idx ir.Expr = u(0)
	for w := 3; w >= 0; w-- {
		word := func() ir.Expr {
			return &ir.Swizzle{Pos: pos, X: ir.CloneExpr(ballot), Comps: []uint8{uint8(w)}, T: ir.U32}
		}
		var bit ir.Expr = &ir.BuiltinCall{Pos: pos, Fn: ir.BFirstTrailingBit, Args: []ir.Expr{word()}, T: ir.U32}
		if w > 0 {
			bit = &ir.Binary{Pos: pos, Op: ir.OpAdd, X: bit, Y: u(uint32(32 * w)), T: ir.U32}
		}
		nonzero := &ir.Binary{Pos: pos, Op: ir.OpNe, X: word(), Y: u(0), T: ir.Bool}
		idx = &ir.Select{Pos: pos, False: idx, True: bit, Cond: nonzero, T: ir.U32}
	}
	return l.bindAlways("first", idx)
}

// uniformDelta reports whether the translated delta d of a relative
// shuffle has one value in every invocation by construction: it reads
// nothing but literals and read-only bindings (var<uniform>,
// var<storage, read>), which no invocation writes during a dispatch.
// Anything else — a local, a parameter, a private global, a mask-selected
// value — may differ between the invocations with c and those without,
// where the source's delta only had to be uniform among the active ones.
func (l *lowerer) uniformDelta(d ir.Expr) bool {
	return !ir.Any(d, func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Ident:
			if x.Ref != ir.RefShared {
				return true
			}
			v := l.m.SharedVar(x.Name)
			return v == nil || v.Writable()
		case *ir.BuiltinCall:
			return isSubgroup(x.Fn)
		case *ir.Atomic, *ir.TextureCall, *ir.Call:
			return true
		}
		return false
	})
}

// reductionIdentity is the value of t that leaves fn's result unchanged
// wherever it stands for an inactive invocation's operand:
//
//	add, inclusive/exclusive add   0 for integers, -0.0 for floats (x + -0 = x
//	                               for every x, +0 included; +0 would turn
//	                               an all -0 sum into +0)
//	mul, inclusive/exclusive mul   1
//	min                            i32 2147483647, u32 0xffffffff, f32
//	                               0x1.fffffep127, f16 65504: the largest
//	                               finite value
//	max                            i32 -2147483648, u32 0, f32
//	                               -0x1.fffffep127, f16 -65504
//	and                            all ones (~0)
//	or, xor                        0
//
// A vector gets the identity in every component.
func reductionIdentity(fn ir.Builtin, t *ir.Type) ir.Value {
	st := t.Scalar()
	var v ir.Value
	switch fn {
	case ir.BSubgroupAdd, ir.BSubgroupInclusiveAdd, ir.BSubgroupExclusiveAdd:
		switch st.Kind {
		case ir.KindF32:
			v = ir.ScalarVal(st, 0x80000000)
		case ir.KindF16:
			v = ir.F16Bits(0x8000)
		default:
			v = ir.ScalarVal(st, 0)
		}
	case ir.BSubgroupMul, ir.BSubgroupInclusiveMul, ir.BSubgroupExclusiveMul:
		switch st.Kind {
		case ir.KindF32:
			v = ir.F32Val(1)
		case ir.KindF16:
			v = ir.F16Bits(0x3c00)
		default:
			v = ir.ScalarVal(st, 1)
		}
	case ir.BSubgroupMin, ir.BSubgroupMax:
		hi := fn == ir.BSubgroupMin
		switch st.Kind {
		case ir.KindF32:
			v = ir.F32Val(math.MaxFloat32)
			if !hi {
				v = ir.F32Val(-math.MaxFloat32)
			}
		case ir.KindF16:
			v = ir.F16Bits(0x7bff)
			if !hi {
				v = ir.F16Bits(0xfbff)
			}
		case ir.KindI32:
			v = ir.I32Val(math.MaxInt32)
			if !hi {
				v = ir.I32Val(math.MinInt32)
			}
		default:
			v = ir.U32Val(math.MaxUint32)
			if !hi {
				v = ir.U32Val(0)
			}
		}
	case ir.BSubgroupAnd:
		v = ir.ScalarVal(st, math.MaxUint32)
	default: // or, xor
		v = ir.ScalarVal(st, 0)
	}
	if t.Kind != ir.KindVec {
		return v
	}
	es := make([]ir.Value, t.Len)
	for i := range es {
		es[i] = v
	}
	return ir.CompositeVal(t, es...)
}

// shortCircuit lowers a && b or a || b whose right operand b calls a
// subgroup builtin. WGSL evaluates b only where a decides nothing
// (#logical-expr), so in the source b's subgroup operation runs in those
// invocations only; a twin that kept the operator would run it in
// non-uniform control flow (WGSL's && branches). So a is bound first, b
// is lowered under the structural predicate a (for ||, !a) — its
// subgroup operations guarded by it — and bound too, and the operator
// then joins two lets. b holds no user call (ir.Normalize lowers those
// to an if), so evaluating it where a decides is no effect.
func (l *lowerer) shortCircuit(x *ir.Binary) ir.Expr {
	a := l.bind("cond", l.finish(l.translate(x.X)), tempValue)
	when := a
	if x.Op == ir.OpLogOr {
		when = not(ir.CloneExpr(a))
	}
	var b ir.Expr
	switch v, ok := litVal(when); {
	case ok && !v.Bool():
		b = &ir.Lit{Pos: x.Y.Position(), Val: ir.Zero(x.Y.Type())} // never evaluated
	case ok:
		b = l.bind("v", l.finish(l.translate(x.Y)), tempValue)
	default:
		l.withS(when, func() { b = l.bind("v", l.finish(l.translate(x.Y)), tempValue) })
	}
	return &ir.Binary{Pos: x.Pos, Op: x.Op, X: ir.CloneExpr(a), Y: b, T: x.T}
}

// checkSubgroupLoops refuses the subgroup operations lowered inside a
// kept loop whose mask is per invocation (a masked loop: loopIsUniform
// false for the innermost kept loop around the operation). The twin's
// loop is then divergent as the source's is, but the invocations that
// run one of its iterations together are those whose mask is still set,
// an iteration count the source's loop need not share: no guard makes
// the sets equal, and WGSL promises nothing about which invocations a
// divergent loop's subgroup operation sees. A uniform kept loop runs
// every iteration in the whole workgroup (so in the whole subgroup), and
// the guard on its mask is as exact as anywhere else.
func checkSubgroupLoops(m *ir.Module, twin *ir.Func, pending []pendingSubgroup) ir.ErrorList {
	var errs ir.ErrorList
	uniform := map[*ir.Loop]bool{}
	for _, p := range pending {
		lp := p.slot.loop
		u, ok := uniform[lp]
		if !ok {
			// A masked loop's exit becomes the subgroup's (subgroupExit),
			// once: its operations are then in a loop the subgroup runs
			// together.
			u = loopIsUniform(m, twin, lp) || subgroupExit(lp)
			uniform[lp] = u
		}
		if !u {
			errs.Add(m.File, p.pos, "flatten", "%s inside a loop whose exit is per invocation (a masked kept loop): the twin's loop diverges too, and the invocations that run one of its iterations together need not be the source's, which no guard can restore (doc.go \"Subgroups\"); give the loop a bound flatten can unroll, or an exit that reads only uniform values", p.fn)
		}
	}
	return errs
}

// subgroupExit makes a masked kept loop that holds a subgroup operation
// iterate as one subgroup (doc.go "Subgroups", masked loops): its exit
// `break if !m` becomes `break if !subgroupAny(m)`, so every invocation
// of the subgroup runs each iteration until none is still in the loop;
// one whose own mask is off runs it masked (the iteration's masks start
// from m), and a guarded operation under m && c sees, in iteration k,
// the invocations the source runs there — the maximal-reconvergence
// answer. WGSL's analysis still calls the loop non-uniform, so the
// module must have subgroup_uniformity off (a source with a subgroup
// operation in a divergent loop has it) and the reference marks those
// results as depending on reconvergence on the devices too. It reports
// false where the loop's exit is not of that form.
func subgroupExit(lp *ir.Loop) bool {
	u, ok := lp.BreakIf.(*ir.Unary)
	if !ok || u.Op != ir.OpNot {
		return false
	}
	id, ok := u.X.(*ir.Ident)
	if !ok || !ir.Identical(id.T, ir.Bool) {
		return false
	}
	u.X = &ir.BuiltinCall{Pos: u.Pos, Fn: ir.BSubgroupAny, Args: []ir.Expr{id}, T: ir.Bool}
	return true
}

// pendingDelta is a relative shuffle's delta the lowering replaced by the
// first active invocation's, decl the let holding that, plain the delta
// as the twin computes it in every invocation.
type pendingDelta struct {
	decl  *ir.Decl
	plain ir.Expr
}

// maxDeltaProbes bounds the uniformity analyses resolveDeltas runs (one
// per delta); the deltas past it keep the replacement.
const maxDeltaProbes = 16

// resolveDeltas gives each pending relative shuffle its plain delta back
// where WGSL's uniformity analysis (ir.Uniformity over the lowered twin)
// finds it uniform: then every invocation of the workgroup, so of the
// subgroup, has the one value, which is the source's in the invocations
// with c, and the twin keeps what the analysis accepts — the replacement
// subgroupShuffle(d, first), uniform at run time, is a subgroup result
// to the analysis, which a module whose subgroup_uniformity is at error
// (Tint: the delta must be uniform) would refuse. The probe is
// quadUniform's: `if (d == d) { workgroupBarrier(); }` after the let,
// accepted only where d is uniform (at workgroup scope, the stricter
// one), and for a function kernel, whose arguments differ per
// invocation, only where no parameter is required to be uniform.
func resolveDeltas(m *ir.Module, twin *ir.Func, deltas []pendingDelta) {
	for k, pd := range deltas {
		if k >= maxDeltaProbes {
			return
		}
		b, i := findDecl(twin.Body, pd.decl)
		if b == nil {
			continue
		}
		pos := pd.decl.Pos
		probe := &ir.If{Pos: pos, Cond: &ir.Binary{Pos: pos, Op: ir.OpEq, X: ir.CloneExpr(pd.plain), Y: ir.CloneExpr(pd.plain), T: ir.Bool},
			Then: ir.NewBlock(pos, &ir.ExprStmt{Pos: pos, X: &ir.BuiltinCall{Pos: pos, Fn: ir.BWorkgroupBarrier, T: ir.Void}}),
			Else: ir.NewBlock(pos)}
		saved := b.Stmts
		b.Stmts = append(append(append([]ir.Stmt(nil), saved[:i+1]...), probe), saved[i+1:]...)
		u := ir.Uniformity(twinModule(m, twin), ir.UniformityOptions{})
		b.Stmts = saved
		uniform := len(u.Errors) == 0
		if twin.Stage != ir.StageCompute {
			for j := range twin.Params {
				if req, _ := u.ParamRequired(twin.Name, j); req {
					uniform = false
				}
			}
		}
		if uniform {
			pd.decl.Init = ir.CloneExpr(pd.plain)
		}
	}
}

// findDecl returns the block of the twin (its body or a kept loop's)
// holding d, and d's index there.
func findDecl(b *ir.Block, d *ir.Decl) (*ir.Block, int) {
	for i, s := range b.Stmts {
		if s == ir.Stmt(d) {
			return b, i
		}
		if lp, ok := s.(*ir.Loop); ok {
			if fb, fi := findDecl(lp.Body, d); fb != nil {
				return fb, fi
			}
		}
	}
	return nil, -1
}
