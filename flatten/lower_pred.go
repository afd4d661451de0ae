package flatten

// The lowerer's predicates: the effective predicate of a statement, masks
// narrowed by jumps, and the static deadness the exclusions prove.

import (
	"github.com/gpudiff/gpudiff/ir"
)

// ---- predicates ----

// conjuncts returns the components of the effective predicate, leaving
// out skip (a mask being narrowed): the live mask, the masks of the
// enclosing targets, then S. nil components (statically true) are
// dropped.
func (l *lowerer) conjuncts(skip *ir.Expr) []ir.Expr {
	fr := l.fr
	var cs []ir.Expr
	add := func(p *ir.Expr) {
		if p != skip && *p != nil {
			cs = append(cs, *p)
		}
	}
	add(&fr.live)
	for _, t := range fr.targets {
		add(&t.brk)
		add(&t.cont)
	}
	add(&fr.S)
	return cs
}

// dead reports whether the current point is statically unreachable: a
// mask is false, or a mask excludes a conjunction of the other current
// conjuncts (the code after a jump taken under the current predicate).
func (l *lowerer) dead() bool {
	cs := l.conjuncts(nil)
	for _, c := range cs {
		if isFalse(c) {
			return true
		}
	}
	for i, m := range cs {
		x := l.excludes[m]
		if x == nil {
			continue
		}
		for j, c := range cs {
			if j == i {
				continue
			}
			for _, ex := range x.byLast[c] {
				if containsAll(cs, ex, i) {
					return true
				}
			}
		}
	}
	return false
}

// exclusions are the conjunct lists a mask's lineage was narrowed by,
// indexed by each list's last conjunct (the innermost: usually the
// structural predicate of the jump's if, which is never a conjunct again
// once that if is lowered), so dead() looks only at lists that can match
// the current conjuncts: O(conjuncts²) per statement, not O(jumps so far)
// — a function with thousands of early returns stays linear.
//
// One exclusions value is shared by a mask and every mask narrowed from
// it (a mask is never current again once narrowed, so nothing needs the
// old value's smaller set). A callee's live mask may start as the
// caller's mask and add to the caller's set; those lists hold only the
// callee's own conjuncts, which are never conjuncts in the caller, so
// they never match there. An empty list is never added: narrowing by the
// empty conjunction makes the mask the literal false, which dead() sees
// directly.
type exclusions struct {
	byLast map[ir.Expr][][]ir.Expr
}

func (x *exclusions) add(cs []ir.Expr) {
	last := cs[len(cs)-1]
	x.byLast[last] = append(x.byLast[last], cs)
}

// containsAll reports whether every element of sub is in set (by
// identity), ignoring set[skip].
func containsAll(set, sub []ir.Expr, skip int) bool {
	for _, x := range sub {
		found := false
		for i, y := range set {
			if i != skip && x == y {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// uniform reports whether the effective predicate is statically true.
func (l *lowerer) uniform() bool { return len(l.conjuncts(nil)) == 0 }

// pred returns the effective predicate E: nil when statically true, the
// single conjunct, or a let bound to their conjunction (cached until a
// mask or S changes).
func (l *lowerer) pred() ir.Expr { return l.conj(l.conjuncts(nil), true) }

func (l *lowerer) conj(cs []ir.Expr, cache bool) ir.Expr {
	for _, c := range cs {
		if isFalse(c) {
			return boolLit(c.Position(), false)
		}
	}
	switch len(cs) {
	case 0:
		return nil
	case 1:
		return cs[0]
	}
	if cache && len(cs) == len(l.predKey) {
		same := true
		for i := range cs {
			same = same && cs[i] == l.predKey[i]
		}
		if same {
			return l.predVal
		}
	}
	var e ir.Expr = cs[0]
	for _, c := range cs[1:] {
		e = &ir.Binary{Pos: c.Position(), Op: ir.OpLogAnd, X: e, Y: c, T: ir.Bool}
	}
	v := l.bind("p", e, tempValue)
	if cache {
		l.predKey, l.predVal = cs, v
	}
	return v
}

// narrow turns off *mask wherever the rest of the effective predicate
// holds (and, when extra is non-nil, extra holds): the lowering of
// return (live mask), break (break mask), continue (continue mask) and
// break-if. The new mask is mask && !rest.
func (l *lowerer) narrow(mask *ir.Expr, extra ir.Expr, pos ir.Pos) {
	cs := l.conjuncts(mask)
	if extra != nil {
		cs = append(cs, extra)
	}
	rest := l.conj(cs, false)
	var nm ir.Expr
	switch {
	case rest == nil:
		nm = boolLit(pos, false)
	case isFalse(rest):
		return
	case *mask == nil:
		nm = not(rest)
	default:
		nm = &ir.Binary{Pos: pos, Op: ir.OpLogAnd, X: *mask, Y: not(rest), T: ir.Bool}
	}
	base := "live"
	if mask != &l.fr.live {
		base = "brk"
		for _, t := range l.fr.targets {
			if mask == &t.cont {
				base = "cont"
			}
		}
	}
	ex := l.excludes[*mask]
	if extra == nil && len(cs) > 0 {
		if ex == nil {
			ex = &exclusions{byLast: map[ir.Expr][][]ir.Expr{}}
		}
		ex.add(cs)
	}
	*mask = l.bind(base, nm, tempMask)
	if ex != nil {
		l.excludes[*mask] = ex
	}
}

// withS runs body with the structural predicate S && c.
func (l *lowerer) withS(c ir.Expr, body func()) {
	saved := l.fr.S
	if saved == nil {
		l.fr.S = c
	} else {
		l.fr.S = l.bind("p", &ir.Binary{Pos: c.Position(), Op: ir.OpLogAnd, X: saved, Y: c, T: ir.Bool}, tempValue)
	}
	body()
	l.fr.S = saved
}
