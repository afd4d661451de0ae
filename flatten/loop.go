package flatten

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// loop unrolls the Loop at b.Stmts[i] into copies of its body and
// continuing block, as many as its bound (ir.BoundLoop MaxEntries), so the
// twin stays exact for every invocation that enters the body at most that
// often — which is every invocation, since the bound is proven.
//
// Each copy k runs under E && brk && cont:
//
//   - brk, the break mask, is declared once (true) and persists across
//     copies: a break (or a break-if that holds) turns it off for the rest
//     of that copy and every later copy;
//   - cont, the continue mask, is fresh (true) at the head of every copy:
//     a continue turns it off for the rest of the copy's body, and the
//     continuing block, which continue does not skip, runs without it.
//
// When the loop has a counter (LoopBound.Counter), reads of it inside copy
// k are replaced by its value there — Start + k·Step before its update,
// Start + (k+1)·Step after — which is exact wherever the copy is live and
// irrelevant where it is dead; the counter variable itself is still
// updated (predicated), so reads after the loop see its run-time value.
// Substituted constants go through the folder, so a copy never holds a
// const-expression WGSL rejects (4e): such operands keep reading the
// variable. Copies, or the rest of a copy, that the masks make statically
// dead are not emitted.
func (l *lowerer) loop(b *ir.Block, i int) {
	lp := b.Stmts[i].(*ir.Loop)
	lb := l.bounds[lp]
	if l.masked[lp] {
		if lb = l.boundInCopy(b, i); lb == nil {
			l.maskedLoop(lp)
			return
		}
	}
	if lb == nil {
		var err error
		if lb, err = ir.BoundLoop(b, i); err != nil {
			panic(fmt.Sprintf("flatten: loop at %v lost its bound: %v", lp.Pos, err))
		}
	}
	l.unrolled = append(l.unrolled, lp.Pos)
	counter, updInBody, updIdx := "", false, -1
	var counterT *ir.Type
	if lb.Counter != "" {
		if tw, ok := l.fr.names[lb.Counter]; ok {
			updInBody, updIdx = findUpdate(lp, lb.Counter)
			if updIdx >= 0 {
				counter, counterT = tw.Name, tw.T
			}
		}
	}
	seq := l.seqs[lp]
	set := func(k int) {
		if counter == "" {
			return
		}
		if seq != nil {
			l.consts[counter] = seq[min(k, len(seq)-1)]
			return
		}
		v := lb.Start + int64(k)*lb.Step
		if counterT.Kind == ir.KindU32 {
			l.consts[counter] = ir.U32Val(uint32(v))
		} else {
			l.consts[counter] = ir.I32Val(int32(v))
		}
	}
	t := &target{loop: true}
	l.fr.targets = append(l.fr.targets, t)
	defer func() {
		l.fr.targets = l.fr.targets[:len(l.fr.targets)-1]
		if counter != "" {
			delete(l.consts, counter)
		}
	}()
	for k := 0; k < lb.MaxEntries && !l.dead(); k++ {
		t.cont = nil
		set(k)
		for j := range lp.Body.Stmts {
			if updInBody && j == updIdx+1 {
				set(k + 1)
			}
			if l.dead() {
				break
			}
			l.stmt(lp.Body, j)
		}
		t.cont = nil
		if updInBody {
			set(k + 1)
		}
		for j := range lp.Continuing.Stmts {
			if !updInBody && j == updIdx+1 {
				set(k + 1)
			}
			if l.dead() {
				break
			}
			l.stmt(lp.Continuing, j)
		}
		set(k + 1)
		if lp.BreakIf != nil && !l.dead() {
			c := l.expr(lp.BreakIf)
			l.narrow(&t.brk, c, lp.BreakIf.Position())
		}
	}
}

// findUpdate locates the one top-level assignment to the loop counter
// name (ir.BoundLoop guarantees there is exactly one, in the body or the
// continuing block).
func findUpdate(lp *ir.Loop, name string) (inBody bool, idx int) {
	is := func(s ir.Stmt) bool {
		a, ok := s.(*ir.Assign)
		if !ok {
			return false
		}
		id, ok := a.LHS.(*ir.Ident)
		return ok && id.Name == name
	}
	for j, s := range lp.Body.Stmts {
		if is(s) {
			return true, j
		}
	}
	for j, s := range lp.Continuing.Stmts {
		if is(s) {
			return false, j
		}
	}
	return false, -1
}

// boundInCopy bounds a loop precheck kept for want of a syntactic bound
// (an inner loop whose start or limit reads an outer counter:
// `for (var j = k / 2u; j < n; j++)`) where the outer counters are
// constants — inside an unrolled copy of the outer loop: the counter's
// declaration right before the loop and the loop's top-level exit tests
// are evaluated with those constants substituted, and ir.BoundLoop
// bounds the result. Only a leaf loop (no loop or call inside) is
// unrolled so, while its copies fit the room MaxUnroll leaves; nil
// otherwise (the loop is kept).
func (l *lowerer) boundInCopy(b *ir.Block, i int) *ir.LoopBound {
	lp := b.Stmts[i].(*ir.Loop)
	if !l.unbound[lp] || i == 0 || l.room <= 0 {
		return nil
	}
	if ir.Any(lp.Body, func(n ir.Node) bool {
		switch n.(type) {
		case *ir.Loop, *ir.Call:
			return true
		}
		return false
	}) || ir.HasCall(lp.Continuing) {
		return nil
	}
	decl, ok := b.Stmts[i-1].(*ir.Decl)
	if !ok || !decl.Mutable || decl.Init == nil {
		return nil
	}
	substituted := false
	subst := func(e ir.Expr) ir.Expr {
		e = mapIdents(ir.CloneExpr(e), func(id *ir.Ident) ir.Expr {
			if id.Ref.IsModuleScope() {
				return id
			}
			if tw, ok := l.fr.names[id.Name]; ok {
				if v, ok := l.consts[tw.Name]; ok {
					substituted = true
					return &ir.Lit{Pos: id.Pos, Val: v}
				}
			}
			return id
		})
		return (&folder{}).expr(e)
	}
	init := subst(decl.Init)
	if !isLit(init) {
		return nil
	}
	c := ir.CloneStmt(lp).(*ir.Loop)
	for _, s := range c.Body.Stmts {
		if x, ok := s.(*ir.If); ok {
			x.Cond = subst(x.Cond)
		}
	}
	if c.BreakIf != nil {
		c.BreakIf = subst(c.BreakIf)
	}
	if !substituted {
		return nil
	}
	tmp := ir.NewBlock(lp.Pos, &ir.Decl{Pos: decl.Pos, Name: decl.Name, T: decl.T, Init: init, Mutable: true}, c)
	lb, err := ir.BoundLoop(tmp, 1)
	if err != nil || int64(lb.MaxEntries) > l.room {
		return nil
	}
	l.room -= int64(lb.MaxEntries)
	return lb
}
