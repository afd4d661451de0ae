package ir

import (
	"fmt"
	"math"
)

// Loop trip-count analysis, shared by flatten (what it may unroll) and the
// program generator (what it may emit as a bounded loop).
//
// A loop is bounded when it has a counter: a function-scope var k of type
// i32 or u32 that
//
//   - is declared (or last assigned) with a constant A before the loop in
//     the same block, with no assignment to it in between;
//   - is updated exactly once per iteration by a constant step S ≠ 0
//     (k += S, k -= S, k = k + S, k = k - S, k++/k--), in a top-level
//     statement of the continuing block, or in a top-level statement of
//     the body that no continue can skip;
//   - is assigned nowhere else in the loop;
//
// and an exit test that cannot be skipped: a top-level `if (E) { …; break; }`
// in the body preceded by no continue, or the break-if, where E is true
// whenever k has passed a constant limit L in the direction of S. E may be
// a comparison of k with a constant (k >= L, !(k < L), L <= k, k == L on
// the counter's lattice), with min/max/clamp of a constant (k < min(n, C)
// exits by C), a negation, or an &&/|| combination (WGSL for and while
// conditions lower to `if (!(cond)) { break; }`).
//
// The bound is on the number of times control enters the loop body. It
// also accounts for integer wrap-around: a loop whose counter would wrap
// before reaching its limit is unbounded. A loop whose body ends in an
// unconditional break and holds no continue is entered at most once.

// LoopBound is a proven bound on a loop's iterations.
type LoopBound struct {
	// MaxEntries is the largest number of times control can enter the
	// loop body (≥ 1: the body is always entered once).
	MaxEntries int
	// Counter is the induction variable's name ("" for a loop bounded by
	// an unconditional break).
	Counter string
	// Start, Step and Limit describe the counter: it starts at Start,
	// moves by Step per iteration and the loop exits once it passes Limit.
	Start, Step, Limit int64
	// Exact reports that the counter test is the loop's only exit and the
	// body is entered exactly MaxEntries times: the loop is a fixed-count
	// loop (no data-dependent exit).
	Exact bool
}

// BoundLoop analyzes the Loop at b.Stmts[i]. It returns the bound, or an
// error saying why no bound could be proven (the loop is then treated as
// unbounded).
func BoundLoop(b *Block, i int) (*LoopBound, error) {
	l, ok := b.Stmts[i].(*Loop)
	if !ok {
		return nil, fmt.Errorf("statement %d is not a loop", i)
	}
	if n := len(l.Body.Stmts); n > 0 && l.BreakIf == nil {
		if _, isBreak := l.Body.Stmts[n-1].(*Break); isBreak && !containsLoopJump(l.Body, false) {
			return &LoopBound{MaxEntries: 1, Exact: !containsBreakOrReturn(l.Body.Stmts[:n-1])}, nil
		}
	}
	var why error = fmt.Errorf("no counter: no var is updated by a constant step once per iteration")
	var best *LoopBound
	for _, cand := range counterCandidates(l) {
		lb, err := boundWithCounter(b, i, l, cand)
		if err != nil {
			why = err
			continue
		}
		if best == nil || lb.MaxEntries < best.MaxEntries {
			best = lb
		}
	}
	if best == nil {
		return nil, why
	}
	return best, nil
}

// HugeBoundError is BoundLoop's error for a loop whose counter test does
// bound it, but by more than 2^30 entries: a bound no unrolling can use.
type HugeBoundError struct {
	Counter string
	Entries int64 // the bound the exit test gives
}

func (e *HugeBoundError) Error() string {
	return fmt.Sprintf("counter %s bounds the loop only at %d entries, more than 2^30", e.Counter, e.Entries)
}

// counterUpdate is a recognized `k += S` statement.
type counterUpdate struct {
	name      string
	t         *Type
	step      int64
	inBody    bool // top-level statement of the body (else of continuing)
	bodyIndex int  // its index in the body when inBody
}

func counterCandidates(l *Loop) []counterUpdate {
	var out []counterUpdate
	for j, s := range l.Body.Stmts {
		if u, ok := asCounterUpdate(s); ok {
			u.inBody, u.bodyIndex = true, j
			out = append(out, u)
		}
	}
	for _, s := range l.Continuing.Stmts {
		if u, ok := asCounterUpdate(s); ok {
			out = append(out, u)
		}
	}
	return out
}

func asCounterUpdate(s Stmt) (counterUpdate, bool) {
	a, ok := s.(*Assign)
	if !ok {
		return counterUpdate{}, false
	}
	k, ok := a.LHS.(*Ident)
	if !ok || k.Ref != RefVar || !k.T.IsInteger() {
		return counterUpdate{}, false
	}
	sign := int64(1)
	var rhs Expr
	switch a.Op {
	case OpAdd:
		rhs = a.RHS
	case OpSub:
		rhs, sign = a.RHS, -1
	case OpNone:
		bin, ok := a.RHS.(*Binary)
		if !ok || (bin.Op != OpAdd && bin.Op != OpSub) {
			return counterUpdate{}, false
		}
		if isIdent(bin.X, k.Name) {
			rhs = bin.Y
			if bin.Op == OpSub {
				sign = -1
			}
		} else if isIdent(bin.Y, k.Name) && bin.Op == OpAdd {
			rhs = bin.X
		} else {
			return counterUpdate{}, false
		}
	default:
		return counterUpdate{}, false
	}
	c, ok := constInt(rhs)
	if !ok || c == 0 {
		return counterUpdate{}, false
	}
	if k.T.Kind == KindU32 && sign < 0 {
		c = -c // u32 k -= c: a negative step (no wrap checked below)
	} else {
		c *= sign
	}
	return counterUpdate{name: k.Name, t: k.T, step: c}, true
}

func isIdent(e Expr, name string) bool {
	id, ok := e.(*Ident)
	return ok && id.Name == name
}

// constInt returns the value of an integer literal.
func constInt(e Expr) (int64, bool) {
	lit, ok := e.(*Lit)
	if !ok || !lit.Val.Type.IsInteger() {
		return 0, false
	}
	return lit.Val.Int64(), true
}

func assigns(n Node, name string) bool {
	return Any(n, func(x Node) bool {
		a, ok := x.(*Assign)
		if !ok {
			return false
		}
		r := RootIdent(a.LHS)
		return r != nil && r.Name == name
	})
}

func containsContinue(stmts []Stmt) bool {
	for _, s := range stmts {
		if Any(s, func(n Node) bool { _, ok := n.(*Continue); return ok }) {
			return true
		}
	}
	return false
}

func containsBreakOrReturn(stmts []Stmt) bool {
	for _, s := range stmts {
		if Any(s, func(n Node) bool {
			switch n.(type) {
			case *Break, *Return:
				return true
			}
			return false
		}) {
			return true
		}
	}
	return false
}

// containsLoopJump reports whether b holds a continue (or, when breaks is
// set, a break) that targets the enclosing loop, ignoring jumps inside
// nested loops (and breaks inside nested switches).
func containsLoopJump(b *Block, breaks bool) bool {
	found := false
	var walk func(n Node, inSwitch bool)
	walk = func(n Node, inSwitch bool) {
		if found {
			return
		}
		switch x := n.(type) {
		case *Loop:
			return
		case *Continue:
			found = true
			return
		case *Break:
			if breaks && !inSwitch {
				found = true
			}
			return
		case *Switch:
			for _, c := range x.Cases {
				walk(c.Body, true)
			}
			return
		case Expr:
			return
		}
		DoChildren(n, func(c Node) bool { walk(c, inSwitch); return found })
	}
	walk(b, false)
	return found
}

func typeRange(t *Type) (lo, hi int64) {
	if t.Kind == KindU32 {
		return 0, math.MaxUint32
	}
	return math.MinInt32, math.MaxInt32
}

func boundWithCounter(b *Block, i int, l *Loop, u counterUpdate) (*LoopBound, error) {
	k := u.name
	// Exactly one assignment to k in the loop: the update itself.
	count := 0
	for _, n := range []Node{l.Body, l.Continuing} {
		Inspect(n, func(x Node) bool {
			if a, ok := x.(*Assign); ok {
				if r := RootIdent(a.LHS); r != nil && r.Name == k {
					count++
				}
			}
			return true
		})
	}
	if count != 1 {
		return nil, fmt.Errorf("counter %s is assigned %d times in the loop, want exactly once", k, count)
	}
	if u.inBody && containsContinue(l.Body.Stmts[:u.bodyIndex]) {
		return nil, fmt.Errorf("a continue can skip the update of counter %s", k)
	}
	// Start value: the latest Decl or assignment of k before the loop.
	start, ok := int64(0), false
	for j := i - 1; j >= 0; j-- {
		s := b.Stmts[j]
		if d, isDecl := s.(*Decl); isDecl && d.Name == k {
			if d.Init == nil {
				start, ok = 0, true
			} else {
				start, ok = constInt(d.Init)
			}
			break
		}
		if a, isAssign := s.(*Assign); isAssign && a.Op == OpNone && isIdent(a.LHS, k) {
			start, ok = constInt(a.RHS)
			break
		}
		if assigns(s, k) {
			break
		}
	}
	if !ok {
		return nil, fmt.Errorf("counter %s has no constant start value before the loop", k)
	}
	lo, hi := typeRange(u.t)
	step := u.step
	// Exit tests.
	var best int64 = -1
	var huge int64 // entries of an exit test too far to count as a bound
	bestLimit := int64(0)
	exact := false
	consider := func(e Expr, afterUpdate bool, isOnlyExit bool) {
		limit, ok := exitLimit(e, &counterCtx{k: k, step: step, start: start})
		if !ok {
			return
		}
		// First iteration j (0-based) whose test value passes limit.
		var j int64
		dist := limit - start
		if step < 0 {
			dist = start - limit
		}
		s := step
		if s < 0 {
			s = -s
		}
		n := int64(0)
		if dist > 0 {
			n = (dist + s - 1) / s // updates needed to pass the limit
		}
		if afterUpdate {
			j = n - 1
			if j < 0 {
				j = 0
			}
		} else {
			j = n
		}
		entries := j + 1
		// No wrap-around before the exit: every value the counter takes
		// (including the update after the last test) stays in range.
		last := start + (entries+1)*step
		if last < lo-int64(math.MaxUint32) {
			return
		}
		if entries > 1<<30 {
			huge = max(huge, entries)
			return
		}
		extreme := start + entries*step
		if extreme < lo || extreme > hi {
			return
		}
		if best < 0 || entries < best {
			best, bestLimit = entries, limit
			exact = isOnlyExit
		}
	}
	otherExits := func(skip int) bool {
		for j, s := range l.Body.Stmts {
			if j == skip {
				continue
			}
			if containsBreakOrReturnForLoop(s) {
				return true
			}
		}
		return containsBreakOrReturnForLoop(l.Continuing)
	}
	for j, s := range l.Body.Stmts {
		if containsContinue(l.Body.Stmts[:j]) {
			break
		}
		iff, isIf := s.(*If)
		if !isIf || len(iff.Else.Stmts) != 0 || len(iff.Then.Stmts) == 0 {
			continue
		}
		if _, endsInBreak := iff.Then.Stmts[len(iff.Then.Stmts)-1].(*Break); !endsInBreak {
			continue
		}
		if containsContinue(iff.Then.Stmts) {
			continue
		}
		after := u.inBody && u.bodyIndex < j
		only := len(iff.Then.Stmts) == 1 && l.BreakIf == nil && !otherExits(j) && !observesEffects(iff.Cond)
		consider(iff.Cond, after, only)
	}
	if l.BreakIf != nil {
		consider(l.BreakIf, true, !otherExits(-1))
	}
	if best < 0 && huge > 0 {
		return nil, &HugeBoundError{Counter: k, Entries: huge}
	}
	if best < 0 {
		return nil, fmt.Errorf("no exit test bounds counter %s (want e.g. `if (%s >= C) { break; }` before any continue)", k, k)
	}
	return &LoopBound{MaxEntries: int(best), Counter: k, Start: start, Step: step, Limit: bestLimit, Exact: exact}, nil
}

// containsBreakOrReturnForLoop reports a break targeting the loop or any
// return inside s.
func containsBreakOrReturnForLoop(n Node) bool {
	found := false
	var walk func(n Node, nested bool)
	walk = func(n Node, nested bool) {
		if found {
			return
		}
		switch x := n.(type) {
		case *Return:
			found = true
			return
		case *Break:
			if !nested {
				found = true
			}
			return
		case *Loop:
			DoChildren(x, func(c Node) bool { walk(c, true); return found })
			return
		case *Switch:
			for _, c := range x.Cases {
				walk(c.Body, true)
			}
			return
		case Expr:
			return
		}
		DoChildren(n, func(c Node) bool { walk(c, nested); return found })
	}
	walk(n, false)
	return found
}

// counterCtx is the counter an exit test is analyzed against.
type counterCtx struct {
	k           string
	step, start int64
}

// exitLimit returns L such that e is true whenever counter k has reached
// or passed L in the direction of step.
func exitLimit(e Expr, c *counterCtx) (int64, bool) {
	k, step := c.k, c.step
	_ = k
	up := step > 0
	pick := func(a, b int64) int64 { // the limit reached first
		if up == (a < b) {
			return a
		}
		return b
	}
	later := func(a, b int64) int64 {
		if pick(a, b) == a {
			return b
		}
		return a
	}
	switch x := e.(type) {
	case *Lit:
		if x.Val.Type.Kind == KindBool && x.Val.Bool() {
			if up {
				return math.MinInt64 / 4, true
			}
			return math.MaxInt64 / 4, true
		}
		return 0, false
	case *Unary:
		if x.Op == OpNot {
			return exitLimitNot(x.X, c)
		}
	case *Binary:
		switch x.Op {
		case OpLogOr:
			a, okA := exitLimit(x.X, c)
			b, okB := exitLimit(x.Y, c)
			switch {
			case okA && okB:
				return pick(a, b), true
			case okA:
				return a, true
			case okB:
				return b, true
			}
			return 0, false
		case OpLogAnd:
			a, okA := exitLimit(x.X, c)
			b, okB := exitLimit(x.Y, c)
			if okA && okB {
				return later(a, b), true
			}
			return 0, false
		}
		return compareLimit(x.Op, x.X, x.Y, c)
	}
	return 0, false
}

// exitLimitNot is exitLimit of !e.
func exitLimitNot(e Expr, c *counterCtx) (int64, bool) {
	switch x := e.(type) {
	case *Unary:
		if x.Op == OpNot {
			return exitLimit(x.X, c)
		}
	case *Binary:
		switch x.Op {
		case OpLogAnd: // !(a && b) = !a || !b
			return exitLimit(&Binary{Op: OpLogOr, X: &Unary{Op: OpNot, X: x.X}, Y: &Unary{Op: OpNot, X: x.Y}}, c)
		case OpLogOr: // !(a || b) = !a && !b
			return exitLimit(&Binary{Op: OpLogAnd, X: &Unary{Op: OpNot, X: x.X}, Y: &Unary{Op: OpNot, X: x.Y}}, c)
		case OpLt:
			return compareLimit(OpGe, x.X, x.Y, c)
		case OpLe:
			return compareLimit(OpGt, x.X, x.Y, c)
		case OpGt:
			return compareLimit(OpLe, x.X, x.Y, c)
		case OpGe:
			return compareLimit(OpLt, x.X, x.Y, c)
		case OpNe:
			return compareLimit(OpEq, x.X, x.Y, c)
		}
	case *Lit:
		if x.Val.Type.Kind == KindBool && !x.Val.Bool() {
			return exitLimit(&Lit{Val: BoolVal(true)}, c)
		}
	}
	return 0, false
}

// compareLimit handles `k op M` and `M op k` where M is bounded by a
// constant on the side that matters.
func compareLimit(op BinaryOp, a, b Expr, c *counterCtx) (int64, bool) {
	k, step := c.k, c.step
	if isIdent(b, k) && !isIdent(a, k) {
		// M op k  ==  k op' M
		switch op {
		case OpLt:
			op = OpGt
		case OpLe:
			op = OpGe
		case OpGt:
			op = OpLt
		case OpGe:
			op = OpLe
		}
		a, b = b, a
	}
	if !isIdent(a, k) {
		return 0, false
	}
	up := step > 0
	switch {
	case up && (op == OpGe || op == OpGt):
		// k >= M holds once k >= U where M <= U.
		u, ok := constUpper(b)
		if !ok {
			return 0, false
		}
		if op == OpGt {
			u++
		}
		return u, true
	case !up && (op == OpLe || op == OpLt):
		l, ok := constLower(b)
		if !ok {
			return 0, false
		}
		if op == OpLt {
			l--
		}
		return l, true
	case op == OpEq:
		l, ok := constInt(b)
		if !ok {
			return 0, false
		}
		// k == L exits only if the counter lands on L exactly.
		d := l - c.start
		if (d > 0) != (step > 0) && d != 0 || d%step != 0 {
			return 0, false
		}
		return l, true
	}
	return 0, false
}

// constUpper returns U with e <= U for every evaluation of e.
func constUpper(e Expr) (int64, bool) {
	if c, ok := constInt(e); ok {
		return c, true
	}
	if bc, ok := e.(*BuiltinCall); ok {
		switch bc.Fn {
		case BMin:
			a, okA := constUpper(bc.Args[0])
			b, okB := constUpper(bc.Args[1])
			switch {
			case okA && okB:
				return min(a, b), true
			case okA:
				return a, true
			case okB:
				return b, true
			}
		case BMax:
			a, okA := constUpper(bc.Args[0])
			b, okB := constUpper(bc.Args[1])
			if okA && okB {
				return max(a, b), true
			}
		case BClamp:
			// clamp(x, lo, hi) = min(max(x, lo), hi) <= hi
			return constUpper(bc.Args[2])
		}
	}
	return 0, false
}

// constLower returns L with e >= L for every evaluation of e.
func constLower(e Expr) (int64, bool) {
	if c, ok := constInt(e); ok {
		return c, true
	}
	if bc, ok := e.(*BuiltinCall); ok {
		switch bc.Fn {
		case BMax:
			a, okA := constLower(bc.Args[0])
			b, okB := constLower(bc.Args[1])
			switch {
			case okA && okB:
				return max(a, b), true
			case okA:
				return a, true
			case okB:
				return b, true
			}
		case BMin:
			a, okA := constLower(bc.Args[0])
			b, okB := constLower(bc.Args[1])
			if okA && okB {
				return min(a, b), true
			}
		}
	}
	return 0, false
}
