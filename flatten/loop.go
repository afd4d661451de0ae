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
		l.maskedLoop(lp)
		return
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
