package flatten

import (
	"github.com/gpudiff/gpudiff/ir"
)

// A loop flatten cannot (or, with Options.Loops, should not) unroll is
// kept in the twin as one loop of the only form the twin contract allows
// (doc.go "Loops in twins"):
//
//	var m: bool = E;            // E: the effective predicate at the loop
//	loop {
//	  … body and continuing, branchless, under m && cont …
//	  m = brk && live;          // the masks the iteration left
//	  continuing { break if !m; }
//	}
//
// m holds "this invocation is still in the loop": it starts as the
// predicate under which the source enters the loop, a break, a break-if
// or a return clears it, and the loop's only exit is m turning false, at
// the end of an iteration. So the twin's loop is entered as often as the
// source's body in every invocation where the source enters the loop, and
// once (a fully masked-off iteration) where it does not: a loop whose
// exit is uniform stays uniform (a kept-uniform loop, whose barriers stay
// as guards on m), and one whose exit is per-invocation is the masked
// loop SIMT hardware runs, with the invocation's own mask as the "no live
// lane left" test.
//
// Masks are SSA values inside one iteration (lets in the body, as in an
// unrolled copy); what crosses the back edge is a var: m, and, when the
// loop holds a return of the current frame, the frame's live mask and
// its scalar return value.

// maskedLoop lowers the Loop lp as a kept loop.
func (l *lowerer) maskedLoop(lp *ir.Loop) {
	pos := lp.Pos
	fr := l.fr
	entry := l.pred()
	if isFalse(entry) {
		return
	}
	if entry == nil {
		entry = boolLit(pos, true)
	}
	mName := l.fresh("inloop", tempMask)
	l.emit(&ir.Decl{Pos: pos, Name: mName, T: ir.Bool, Init: entry, Mutable: true})
	mID := func() *ir.Ident { return &ir.Ident{Pos: pos, Name: mName, T: ir.Bool, Ref: ir.RefVar} }

	returns := containsReturn(lp)
	var liveName, retName string
	if returns {
		// The frame's live mask and scalar result cross the back edge.
		liveName = l.fresh("live", tempMask)
		l.emit(&ir.Decl{Pos: pos, Name: liveName, T: ir.Bool, Init: boolLit(pos, true), Mutable: true})
		if fr.retVar == nil && !fr.fn.Result.IsVoid() {
			init := fr.ret
			if init == nil {
				init = &ir.Lit{Pos: pos, Val: ir.Zero(fr.fn.Result)}
			}
			retName = l.fresh("ret", tempValue)
			l.emit(&ir.Decl{Pos: pos, Name: retName, T: fr.fn.Result, Init: init, Mutable: true})
		}
		fr.returned = true
	}
	liveID := func() *ir.Ident { return &ir.Ident{Pos: pos, Name: liveName, T: ir.Bool, Ref: ir.RefVar} }
	retID := func() *ir.Ident { return &ir.Ident{Pos: pos, Name: retName, T: fr.fn.Result, Ref: ir.RefVar} }

	// Inside, m stands for the whole entry predicate: the outer masks and
	// S are constant during the loop and m implies them, so they are
	// hidden (restored after).
	savedLive, savedS := fr.live, fr.S
	type saved struct{ brk, cont ir.Expr }
	outer := make([]saved, len(fr.targets))
	for i, t := range fr.targets {
		outer[i] = saved{t.brk, t.cont}
		t.brk, t.cont = nil, nil
	}
	savedOut := l.out
	l.out = nil
	l.predKey, l.predVal = nil, nil

	slot := &keptSlot{discards: l.demoted != nil && loopDiscards(l.m, lp)}
	l.keptStack = append(l.keptStack, slot)
	t := &target{loop: true, brk: mID()}
	fr.targets = append(fr.targets, t)
	fr.S = nil
	fr.live = nil
	if returns {
		fr.live = liveID()
		if retName != "" {
			fr.ret = retID()
		}
	}
	if l.fault == "masked-break-late" {
		// The injected bug (FaultEnv): a break clears the loop's mask
		// only for the next iteration, not for the rest of its own.
		t.late = mID()
	}
	early, skip := false, -1
	if l.fault == "masked-exit-first" {
		// The injected bug (FaultEnv): the loop's exit test after its
		// body — the break-if, or the body's last `if (c) { break; }`
		// that is not its first statement — is tested before the body,
		// on the values the previous iteration left.
		if lp.BreakIf != nil {
			early = true
			c := l.expr(lp.BreakIf)
			l.narrow(&t.brk, c, lp.BreakIf.Position())
		} else {
			for j := len(lp.Body.Stmts) - 1; j > 0 && skip < 0; j-- {
				if isBreakIf(lp.Body.Stmts[j]) {
					skip = j
					l.stmt(lp.Body, skip)
				}
			}
		}
	}
	for j := range lp.Body.Stmts {
		if l.dead() {
			break
		}
		if j != skip {
			l.stmt(lp.Body, j)
		}
	}
	t.cont = nil
	for j := range lp.Continuing.Stmts {
		if l.dead() {
			break
		}
		l.stmt(lp.Continuing, j)
	}
	if lp.BreakIf != nil && !early && !l.dead() {
		c := l.expr(lp.BreakIf)
		l.narrow(&t.brk, c, lp.BreakIf.Position())
	}
	// The masks this iteration leaves cross the back edge.
	if returns {
		l.emit(&ir.Assign{Pos: pos, LHS: liveID(), RHS: maskOrTrue(fr.live, pos)})
		if retName != "" {
			l.emit(&ir.Assign{Pos: pos, LHS: retID(), RHS: ir.CloneExpr(fr.ret)})
		}
	}
	next := maskOrTrue(t.brk, pos)
	if returns {
		next = &ir.Binary{Pos: pos, Op: ir.OpLogAnd, X: next, Y: liveID(), T: ir.Bool}
	}
	if t.late != nil {
		next = &ir.Binary{Pos: pos, Op: ir.OpLogAnd, X: next, Y: t.late, T: ir.Bool}
	}
	l.emit(&ir.Assign{Pos: pos, LHS: mID(), RHS: next})
	body := l.out
	cond := &ir.Unary{Pos: pos, Op: ir.OpNot, X: mID(), T: ir.Bool}
	twinLoop := &ir.Loop{Pos: pos, Body: ir.NewBlock(pos, body...), Continuing: ir.NewBlock(pos), BreakIf: cond}
	slot.loop = twinLoop
	l.keptStack = l.keptStack[:len(l.keptStack)-1]

	fr.targets = fr.targets[:len(fr.targets)-1]
	l.out = append(savedOut, twinLoop)
	l.predKey, l.predVal = nil, nil
	for i, t := range fr.targets {
		t.brk, t.cont = outer[i].brk, outer[i].cont
	}
	fr.S = savedS
	fr.live = savedLive
	if returns {
		// After the loop: live where no return inside was taken.
		if savedLive == nil {
			fr.live = liveID()
		} else {
			fr.live = l.bind("live", &ir.Binary{Pos: pos, Op: ir.OpLogAnd, X: savedLive, Y: liveID(), T: ir.Bool}, tempMask)
		}
		if retName != "" {
			fr.ret = retID()
		}
	}
	l.loopStats = append(l.loopStats, keptLoop{pos: pos, loop: twinLoop})
}

// keptLoop records a loop the twin keeps, classified once the whole
// twin is known (uniform or masked).
type keptLoop struct {
	pos  ir.Pos
	loop *ir.Loop // in the twin
}

func maskOrTrue(e ir.Expr, pos ir.Pos) ir.Expr {
	if e == nil {
		return boolLit(pos, true)
	}
	return ir.CloneExpr(e)
}

// containsReturn reports whether n holds a return (of the function n is
// in: inlined callees' returns are their own frames').
func containsReturn(n ir.Node) bool {
	return ir.Any(n, func(k ir.Node) bool { _, ok := k.(*ir.Return); return ok })
}

// isBreakIf reports whether s is `if (c) { break; }` with no else.
func isBreakIf(s ir.Stmt) bool {
	x, ok := s.(*ir.If)
	if !ok || len(x.Else.Stmts) != 0 || len(x.Then.Stmts) != 1 {
		return false
	}
	_, ok = x.Then.Stmts[0].(*ir.Break)
	return ok
}
