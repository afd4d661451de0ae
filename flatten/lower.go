package flatten

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// lowerer is the predicated-lowering pass: it walks the original
// function (never modifying it) and emits the twin's straight-line body.
//
// State threaded down the body (daslang-flatten §8.2):
//
//   - the structural predicate S of the current frame: the conjunction of
//     the hoisted conditions of the enclosing ifs and switch cases (nil
//     means statically true);
//   - the live mask of the current frame, narrowed by return;
//   - for each enclosing loop, a break mask (persisting across the
//     unrolled copies) and a continue mask (fresh per copy), and for each
//     enclosing switch a break mask.
//
// Masks are SSA values: every narrowing binds a fresh let, so a mask is an
// expression (nil for statically true, the literal false for statically
// false). The effective predicate E of a statement is the conjunction of
// the masks in scope and S. A frame is the function being flattened or an
// inlined callee, whose live mask is seeded with the caller's E at the
// call: the callee never reads or narrows the caller's masks.
type lowerer struct {
	fault  string // FaultEnv's value (tests only)
	m      *ir.Module
	white  map[string]bool
	namer  *ir.Namer
	out    []ir.Stmt
	errs   ir.ErrorList
	fr     *frame
	bounds map[*ir.Loop]*ir.LoopBound
	// info records the kind of every name flatten introduced.
	info map[string]tempKind
	// consts maps twin names to the constant their reads may be replaced
	// with at this point: constant lets, parameter temporaries bound to a
	// literal, and loop counters inside an unrolled copy.
	consts map[string]ir.Value
	// kept records the names of the flattened function's own locals
	// already declared in the twin (the first declaration keeps its name,
	// later ones — unrolled copies — get fresh names).
	kept map[string]bool
	// excludes maps a mask value to the conjunct lists it was narrowed by
	// unconditionally (mask = old && !(c1 && … && cn) with the ci all the
	// other conjuncts at that point): wherever all of some list are
	// conjuncts again, the effective predicate is statically false.
	excludes map[ir.Expr]*exclusions
	// pred caches the let bound for the last effective predicate built
	// from more than one conjunct.
	predKey []ir.Expr
	predVal ir.Expr
}

// tempKind classifies flatten's temporaries for the cleanup passes.
type tempKind uint8

const (
	tempValue tempKind = iota + 1 // hoisted conditions, predicates, return values, parameter and index temps
	tempMask                      // live, break and continue masks
	tempRet                       // a composite return variable
)

type frame struct {
	fn       *ir.Func
	root     bool                 // the function being flattened (its names are kept)
	names    map[string]*ir.Ident // original parameter/local name → its twin identifier
	live     ir.Expr
	S        ir.Expr
	targets  []*target
	ret      ir.Expr // scalar/vector result: the current return value (nil: none yet)
	retVar   *ir.Ident
	returned bool // a return has been lowered
}

// target is an enclosing loop or switch: what break (and continue) narrow.
type target struct {
	loop bool
	brk  ir.Expr
	cont ir.Expr
}

func boolLit(pos ir.Pos, b bool) *ir.Lit { return &ir.Lit{Pos: pos, Val: ir.BoolVal(b)} }

// isFalse reports whether e is the literal false (a statically false mask).
func isFalse(e ir.Expr) bool { return e != nil && isBoolLit(e, false) }

// lowerFunc is the "lower" pass: the twin's body, unoptimized but correct.
func lowerFunc(l *lowerer, f *ir.Func) *ir.Block {
	fr := &frame{fn: f, root: true, names: map[string]*ir.Ident{}}
	for _, p := range f.Params {
		fr.names[p.Name] = &ir.Ident{Pos: p.Pos, Name: p.Name, T: p.T, Ref: ir.RefParam}
		l.kept[p.Name] = true
	}
	l.fr = fr
	l.beginFrame(f.Result, f.Pos)
	l.block(f.Body)
	if !f.Result.IsVoid() {
		l.out = append(l.out, &ir.Return{Pos: f.Pos, Value: l.frameResult(f.Pos)})
	}
	return ir.NewBlock(f.Body.Pos, l.out...)
}

func (l *lowerer) beginFrame(result *ir.Type, pos ir.Pos) {
	if !result.IsVoid() && !result.Scalar().IsScalar() {
		name := l.fresh("ret", tempRet)
		l.emit(&ir.Decl{Pos: pos, Name: name, T: result, Mutable: true})
		l.fr.retVar = &ir.Ident{Pos: pos, Name: name, T: result, Ref: ir.RefVar}
	}
}

// frameResult is the value a finished frame returned.
func (l *lowerer) frameResult(pos ir.Pos) ir.Expr {
	if l.fr.retVar != nil {
		return l.fr.retVar
	}
	if l.fr.ret == nil { // every return was statically dead: cannot happen for a valid function
		return &ir.Lit{Pos: pos, Val: ir.Zero(l.fr.fn.Result)}
	}
	return l.fr.ret
}

func (l *lowerer) emit(s ir.Stmt) { l.out = append(l.out, s) }

func (l *lowerer) errorf(pos ir.Pos, format string, args ...any) {
	l.errs.Add(l.m.File, pos, "flatten", format, args...)
}

func (l *lowerer) fresh(base string, k tempKind) string {
	n := l.namer.Fresh(base)
	l.info[n] = k
	return n
}

// bind returns e bound to a fresh let named after base — or e itself
// when it is a literal or an immutable identifier, which need no binding.
func (l *lowerer) bind(base string, e ir.Expr, k tempKind) ir.Expr {
	if isLit(e) {
		return e
	}
	if id, ok := e.(*ir.Ident); ok && !id.Ref.Mutable() {
		return e
	}
	name := l.fresh(base, k)
	l.emit(&ir.Decl{Pos: e.Position(), Name: name, T: e.Type(), Init: e})
	return &ir.Ident{Pos: e.Position(), Name: name, T: e.Type(), Ref: ir.RefLet}
}

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

// ---- statements ----

func (l *lowerer) block(b *ir.Block) {
	for i := range b.Stmts {
		if l.dead() {
			return
		}
		l.stmt(b, i)
	}
}

func (l *lowerer) stmt(b *ir.Block, i int) {
	switch s := b.Stmts[i].(type) {
	case *ir.Block:
		l.block(s)
	case *ir.Decl:
		l.decl(s)
	case *ir.Assign:
		l.assign(s)
	case *ir.ExprStmt:
		l.exprStmt(s)
	case *ir.If:
		l.ifStmt(s)
	case *ir.Loop:
		l.loop(b, i)
	case *ir.Switch:
		l.switchStmt(s)
	case *ir.Break:
		t := l.fr.targets[len(l.fr.targets)-1]
		l.narrow(&t.brk, nil, s.Pos)
	case *ir.Continue:
		for j := len(l.fr.targets) - 1; j >= 0; j-- {
			if t := l.fr.targets[j]; t.loop {
				l.narrow(&t.cont, nil, s.Pos)
				break
			}
		}
	case *ir.Return:
		l.ret(s)
	default:
		panic(fmt.Sprintf("flatten: unknown statement %T", s))
	}
}

// declName returns the twin name of a local declared as name.
func (l *lowerer) declName(name string) string {
	if l.fr.root && !l.kept[name] {
		l.kept[name] = true
		return name
	}
	return l.namer.Fresh(name)
}

func (l *lowerer) decl(s *ir.Decl) {
	var init ir.Expr
	if s.Init != nil {
		init = l.expr(s.Init)
	}
	name := l.declName(s.Name)
	ref := ir.RefLet
	if s.Mutable {
		ref = ir.RefVar
	}
	l.emit(&ir.Decl{Pos: s.Pos, Name: name, T: s.T, Init: init, Mutable: s.Mutable})
	l.fr.names[s.Name] = &ir.Ident{Pos: s.Pos, Name: name, T: s.T, Ref: ref}
	if v, ok := litVal(init); ok && !s.Mutable {
		l.consts[name] = v
	}
}

func (l *lowerer) ret(s *ir.Return) {
	fr := l.fr
	if s.Value != nil {
		v := l.expr(s.Value)
		e := l.pred()
		// The first return of a frame stores unconditionally: every path
		// of a function with a result ends in a return, whose store comes
		// later in program order under a predicate that holds exactly
		// where it runs and overrides this one, so the value stored here
		// is only observed where this return is the one taken.
		if fr.retVar != nil {
			if !fr.returned {
				e = nil
			}
			l.store(fr.retVar, v, e, s.Pos)
		} else {
			if e != nil && fr.ret != nil {
				v = &ir.Select{Pos: s.Pos, False: fr.ret, True: v, Cond: e, T: v.Type()}
			}
			fr.ret = l.bindAlways("ret", v)
		}
		fr.returned = true
	}
	l.narrow(&fr.live, nil, s.Pos)
}

// bindAlways binds e to a fresh let unless it is a parameter: a value
// (a return value, an operand evaluated before a call) must be evaluated
// where the source evaluates it. A literal is bound too, and recorded as
// the let's constant, so that it reaches its uses by substitution, which
// keeps the let where the constant would make a WGSL const-expression
// error (4e).
func (l *lowerer) bindAlways(base string, e ir.Expr) ir.Expr {
	if id, ok := e.(*ir.Ident); ok && id.Ref == ir.RefParam {
		return e
	}
	name := l.fresh(base, tempValue)
	l.emit(&ir.Decl{Pos: e.Position(), Name: name, T: e.Type(), Init: e})
	if v, ok := litVal(e); ok {
		l.consts[name] = v
	}
	return &ir.Ident{Pos: e.Position(), Name: name, T: e.Type(), Ref: ir.RefLet}
}

func (l *lowerer) exprStmt(s *ir.ExprStmt) {
	if bc, ok := s.X.(*ir.BuiltinCall); ok && bc.T.IsVoid() {
		// A whitelisted void builtin (a barrier): kept, only where
		// control is uniform.
		if l.checkUniform(bc) {
			l.emit(&ir.ExprStmt{Pos: s.Pos, X: &ir.BuiltinCall{Pos: bc.Pos, Fn: bc.Fn, T: bc.T}})
		}
		return
	}
	// A call statement or a phony assignment: only the effects (inlined
	// calls) matter; the value is dropped.
	l.translate(s.X)
}

func (l *lowerer) ifStmt(s *ir.If) {
	c := l.expr(s.Cond)
	if v, ok := litVal(c); ok {
		if v.Bool() {
			l.block(s.Then)
		} else {
			l.block(s.Else)
		}
		return
	}
	// The condition is evaluated once, before either arm, so the else arm
	// never sees the then arm's writes.
	c = l.bind("cond", c, tempValue)
	if len(s.Then.Stmts) > 0 {
		l.withS(c, func() { l.block(s.Then) })
	}
	if len(s.Else.Stmts) > 0 {
		if l.fault == "retest-else" {
			c = l.expr(ir.CloneExpr(s.Cond)) // the injected bug (FaultEnv)
		}
		l.withS(not(c), func() { l.block(s.Else) })
	}
}

func (l *lowerer) switchStmt(s *ir.Switch) {
	sel := l.expr(s.Selector)
	t := &target{}
	l.fr.targets = append(l.fr.targets, t)
	defer func() { l.fr.targets = l.fr.targets[:len(l.fr.targets)-1] }()
	if v, ok := litVal(sel); ok {
		l.block(matchingCase(s, v).Body)
		return
	}
	sel = l.bind("sel", sel, tempValue)
	eq := func(v ir.Value, op ir.BinaryOp) ir.Expr {
		return &ir.Binary{Pos: s.Pos, Op: op, X: sel, Y: &ir.Lit{Pos: s.Pos, Val: v}, T: ir.Bool}
	}
	var noMatch ir.Expr // no case value equals the selector
	for _, cs := range s.Cases {
		for _, v := range cs.Values {
			noMatch = and(noMatch, eq(v, ir.OpNe))
		}
	}
	for _, cs := range s.Cases {
		if len(cs.Body.Stmts) == 0 {
			continue
		}
		var match ir.Expr
		for _, v := range cs.Values {
			match = or(match, eq(v, ir.OpEq))
		}
		if cs.Default {
			if noMatch == nil {
				noMatch = boolLit(cs.Pos, true)
			}
			match = or(match, noMatch)
		}
		match = l.bind("case", match, tempValue)
		if l.dead() {
			return
		}
		l.withS(match, func() { l.block(cs.Body) })
	}
}

func matchingCase(s *ir.Switch, v ir.Value) *ir.Case {
	var def *ir.Case
	for _, cs := range s.Cases {
		for _, cv := range cs.Values {
			if cv.Bits == v.Bits {
				return cs
			}
		}
		if cs.Default {
			def = cs
		}
	}
	return def
}

func and(a, b ir.Expr) ir.Expr {
	if a == nil {
		return b
	}
	return &ir.Binary{Pos: b.Position(), Op: ir.OpLogAnd, X: a, Y: b, T: ir.Bool}
}

func or(a, b ir.Expr) ir.Expr {
	if a == nil {
		return b
	}
	return &ir.Binary{Pos: b.Position(), Op: ir.OpLogOr, X: a, Y: b, T: ir.Bool}
}

// ---- assignments and predicated stores ----

func (l *lowerer) assign(s *ir.Assign) {
	rhsCalls := ir.HasCall(s.RHS)
	ref := l.ref(s.LHS, rhsCalls)
	var cur ir.Expr
	if s.Op != ir.OpNone && rhsCalls && readsGlobal(ref) {
		// A compound assignment loads its left-hand side before the
		// right-hand side runs (the inlined callee may write it).
		cur = l.bindAlways("cur", ir.CloneExpr(ref))
	}
	if s.Op == ir.OpNone {
		rhs := l.expr(s.RHS)
		l.store(ref, rhs, l.pred(), s.Pos)
		return
	}
	// ref op= rhs is folded as the whole ref op rhs, so a substituted
	// constant never becomes a divisor or shift count WGSL rejects.
	rhs := l.translate(s.RHS)
	load := cur
	if load == nil {
		load = ir.CloneExpr(ref)
	}
	t, err := ir.BinaryResultType(s.Op, load.Type(), rhs.Type())
	if err != nil {
		panic(err) // the input verified
	}
	val := l.finish(&ir.Binary{Pos: s.Pos, Op: s.Op, X: load, Y: rhs, T: t})
	e := l.pred()
	if b, ok := val.(*ir.Binary); ok && e == nil && cur == nil && b.Op == s.Op && exprEqual(b.X, ref) {
		l.emit(&ir.Assign{Pos: s.Pos, LHS: ref, Op: s.Op, RHS: b.Y})
		return
	}
	l.store(ref, val, e, s.Pos)
}

func anyCall(es []ir.Expr) bool {
	for _, e := range es {
		if ir.HasCall(e) {
			return true
		}
	}
	return false
}

func readsGlobal(e ir.Expr) bool {
	return ir.Any(e, func(n ir.Node) bool {
		id, ok := n.(*ir.Ident)
		return ok && id.Ref == ir.RefGlobal
	})
}

// ref translates an assignment's left-hand side: the root becomes the
// twin's variable, index operands are evaluated now (bound to lets, so
// the store and the select read the same element) and, on a predicated
// path, guarded so they stay in bounds where the path is dead.
func (l *lowerer) ref(e ir.Expr, rhsCalls bool) ir.Expr {
	switch x := e.(type) {
	case *ir.Ident:
		return l.ident(x)
	case *ir.Index:
		base := l.ref(x.X, rhsCalls)
		raw := l.translate(x.Index)
		idx := l.fold(raw, true)
		if constError(&ir.Index{X: base, Index: idx, T: x.T}) {
			idx = l.fold(raw, false)
		}
		idx = l.guardIndex(l.guard(idx), x.X.Type().Len)
		// Bind the index unless it is a literal or a name nothing can
		// change before the store (only an inlined call can, and only a
		// global).
		if id, ok := idx.(*ir.Ident); !isLit(idx) && !(ok && (id.Ref != ir.RefGlobal || !rhsCalls)) {
			idx = l.bindAlways("idx", idx)
		}
		return &ir.Index{Pos: x.Pos, X: base, Index: idx, T: x.T}
	case *ir.Member:
		return &ir.Member{Pos: x.Pos, X: l.ref(x.X, rhsCalls), Field: x.Field, T: x.T}
	case *ir.Swizzle:
		return &ir.Swizzle{Pos: x.Pos, X: l.ref(x.X, rhsCalls), Comps: append([]uint8(nil), x.Comps...), T: x.T}
	}
	panic(fmt.Sprintf("flatten: %T is not a reference", e))
}

// store emits ref = val under the predicate e: a plain store when e is
// statically true, else ref = select(ref, val, e) — element by element
// for arrays and structs, which WGSL's select does not take.
func (l *lowerer) store(ref, val, e ir.Expr, pos ir.Pos) {
	if e == nil {
		l.emit(&ir.Assign{Pos: pos, LHS: ref, RHS: val})
		return
	}
	t := ref.Type()
	if t.IsScalar() || t.Kind == ir.KindVec {
		l.emit(&ir.Assign{Pos: pos, LHS: ref, RHS: &ir.Select{Pos: pos, False: ir.CloneExpr(ref), True: val, Cond: e, T: t}})
		return
	}
	val = l.bindAlways("val", val)
	var leaves func(r, v ir.Expr)
	leaves = func(r, v ir.Expr) {
		t := r.Type()
		switch t.Kind {
		case ir.KindArray:
			for k := 0; k < t.Len; k++ {
				i := &ir.Lit{Pos: pos, Val: ir.I32Val(int32(k))}
				leaves(&ir.Index{Pos: pos, X: ir.CloneExpr(r), Index: i, T: t.Elem}, &ir.Index{Pos: pos, X: ir.CloneExpr(v), Index: i, T: t.Elem})
			}
		case ir.KindStruct:
			for k, fd := range t.Struct.Fields {
				leaves(&ir.Member{Pos: pos, X: ir.CloneExpr(r), Field: k, T: fd.Type}, &ir.Member{Pos: pos, X: ir.CloneExpr(v), Field: k, T: fd.Type})
			}
		default:
			l.emit(&ir.Assign{Pos: pos, LHS: r, RHS: &ir.Select{Pos: pos, False: ir.CloneExpr(r), True: v, Cond: e, T: t}})
		}
	}
	leaves(ref, val)
}

// ---- expressions ----

// expr translates e into the twin: calls inlined (their statements
// emitted first), names renamed, constants substituted and folded, and
// dynamic indexes guarded.
func (l *lowerer) expr(e ir.Expr) ir.Expr { return l.finish(l.translate(e)) }

// finish folds (with constant substitution) and guards a translated
// expression.
func (l *lowerer) finish(e ir.Expr) ir.Expr { return l.guard(l.fold(e, true)) }

func (l *lowerer) fold(e ir.Expr, subst bool) ir.Expr {
	f := &folder{}
	if subst {
		f.lookup = func(id *ir.Ident) (ir.Value, bool) {
			if id.Ref == ir.RefGlobal {
				return ir.Value{}, false
			}
			v, ok := l.consts[id.Name]
			return v, ok
		}
	}
	return f.expr(e)
}

func (l *lowerer) ident(x *ir.Ident) *ir.Ident {
	if x.Ref == ir.RefGlobal {
		return &ir.Ident{Pos: x.Pos, Name: x.Name, T: x.T, Ref: ir.RefGlobal}
	}
	tw, ok := l.fr.names[x.Name]
	if !ok {
		panic(fmt.Sprintf("flatten: %s %s not declared", x.Ref, x.Name))
	}
	return &ir.Ident{Pos: x.Pos, Name: tw.Name, T: tw.T, Ref: tw.Ref}
}

// translate renames e into twin names and inlines its calls. WGSL
// evaluates operands left to right: an operand evaluated before a call
// that reads a private global (the only state a callee can write) is
// bound to a let before the call's body is emitted.
func (l *lowerer) translate(e ir.Expr) ir.Expr {
	switch x := e.(type) {
	case *ir.Lit:
		return &ir.Lit{Pos: x.Pos, Val: x.Val.Clone()}
	case *ir.Ident:
		return l.ident(x)
	case *ir.Call:
		return l.call(x)
	case *ir.BuiltinCall:
		l.checkUniform(x)
	case *ir.Index, *ir.Member, *ir.Swizzle:
		if root := ir.RootIdent(e); root != nil && root.Ref.Mutable() {
			return l.translateChain(e, root)
		}
	}
	var ob, kb ir.Operands
	orig := ir.ExprOperands(e, &ob)
	last := -1
	for i, k := range orig {
		if ir.HasCall(k) {
			last = i
		}
	}
	kids := kb.Slots(len(orig))
	for i, k := range orig {
		kids[i] = l.translate(k)
		if i < last && readsGlobal(kids[i]) {
			kids[i] = l.bindAlways("v", l.finish(kids[i]))
		}
	}
	return ir.WithOperands(e, kids)
}

// translateChain translates a load through a reference chain rooted at a
// var or global (a[i].f[j]): a memory view, whose element is loaded only
// after every index operand is evaluated, innermost first (WGSL
// #memory-views). So the root is never bound early, and an index operand
// that reads a global is bound before a later operand's call runs. A
// chain may stop being a memory view part way (g.yyy[h()]: the swizzle
// is a value, loaded before h runs); from there on it is a value like
// any other operand.
func (l *lowerer) translateChain(e ir.Expr, root *ir.Ident) ir.Expr {
	var chain []ir.Expr // innermost accessor first
	for x := e; x != ir.Expr(root); {
		chain = append([]ir.Expr{x}, chain...)
		switch y := x.(type) {
		case *ir.Index:
			x = y.X
		case *ir.Member:
			x = y.X
		case *ir.Swizzle:
			x = y.X
		}
	}
	last := -1
	for k, x := range chain {
		if ix, ok := x.(*ir.Index); ok && ir.HasCall(ix.Index) {
			last = k
		}
	}
	var base ir.Expr = l.ident(root)
	for k, x := range chain {
		switch y := x.(type) {
		case *ir.Index:
			idx := l.translate(y.Index)
			if k < last && readsGlobal(idx) {
				idx = l.bindAlways("v", l.finish(idx))
			}
			base = &ir.Index{Pos: y.Pos, X: base, Index: idx, T: y.T}
		case *ir.Member:
			base = &ir.Member{Pos: y.Pos, X: base, Field: y.Field, T: y.T}
		case *ir.Swizzle:
			base = &ir.Swizzle{Pos: y.Pos, X: base, Comps: append([]uint8(nil), y.Comps...), T: y.T}
		}
		// Where the chain stops being a reference (ir.IsReference: a
		// multi-component swizzle always yields a value, WGSL
		// #vector-multi-component), the load rule applies here, in
		// left-to-right order: a value read from a global is bound
		// before a later index operand's call can write the global.
		if k < last && !ir.IsReference(base) && readsGlobal(base) {
			base = l.bindAlways("v", l.finish(base))
		}
	}
	return base
}

// checkUniform refuses a uniformity-dependent builtin (derivative,
// barrier, subgroup operation) where the effective predicate is not
// statically true: predication would run it in invocations the source
// does not, or change which invocations take part (issue item 4f; WGSL
// #uniformity). Where control is uniform it may stay when the whitelist
// has it. It reports whether the call may stay.
func (l *lowerer) checkUniform(x *ir.BuiltinCall) bool {
	if !uniformityDependent(x.Fn) {
		return true
	}
	if !l.uniform() {
		l.errorf(x.Pos, "%s in non-uniform control flow: predication would change its meaning (WGSL #uniformity)", x.Fn)
		return false
	}
	if !l.white[x.Fn.String()] {
		l.errorf(x.Pos, "builtin %s is not in the whitelist of leaf builtins (%s)", x.Fn, builtinWhy(x.Fn))
		return false
	}
	return true
}

// call inlines a user call and returns its value (nil for void).
func (l *lowerer) call(c *ir.Call) ir.Expr {
	callee := l.m.Func(c.Func)
	args := make([]ir.Expr, len(c.Args))
	for i, a := range c.Args {
		args[i] = l.translate(a)
		if readsGlobal(args[i]) && anyCall(c.Args[i+1:]) {
			args[i] = l.bindAlways("v", l.finish(args[i]))
		}
	}
	e := l.pred()
	nf := &frame{fn: callee, names: map[string]*ir.Ident{}, live: e}
	for i, p := range callee.Params {
		a := l.finish(args[i])
		name := l.fresh(p.Name, tempValue)
		l.emit(&ir.Decl{Pos: c.Pos, Name: name, T: p.T, Init: a})
		nf.names[p.Name] = &ir.Ident{Pos: p.Pos, Name: name, T: p.T, Ref: ir.RefLet}
		if v, ok := litVal(a); ok {
			l.consts[name] = v
		}
	}
	caller := l.fr
	l.fr = nf
	l.beginFrame(callee.Result, c.Pos)
	l.block(callee.Body)
	var result ir.Expr
	if !callee.Result.IsVoid() {
		result = l.frameResult(c.Pos)
	}
	l.fr = caller
	if result == nil {
		return nil
	}
	return ir.CloneExpr(result)
}

// guard rewrites every dynamic index in e that is not provably in bounds
// to select(0, i, E): unchanged where the path is live, in bounds where it
// is dead (issue item 4d), so the twin never indexes out of bounds where
// the source did not.
func (l *lowerer) guard(e ir.Expr) ir.Expr {
	if l.uniform() || !ir.Any(e, func(n ir.Node) bool { _, ok := n.(*ir.Index); return ok }) {
		return e
	}
	var walk func(e ir.Expr) ir.Expr
	walk = func(e ir.Expr) ir.Expr {
		switch e.(type) {
		case *ir.Lit, *ir.Ident:
			return e
		}
		var ob, kb ir.Operands
		orig := ir.ExprOperands(e, &ob)
		kids := kb.Slots(len(orig))
		for i, k := range orig {
			kids[i] = walk(k)
		}
		if x, ok := e.(*ir.Index); ok {
			kids[1] = l.guardIndex(kids[1], x.X.Type().Len)
		}
		return ir.WithOperands(e, kids)
	}
	return walk(e)
}

func (l *lowerer) guardIndex(idx ir.Expr, n int) ir.Expr {
	if inRange(idx, n) {
		return idx
	}
	e := l.pred()
	if e == nil {
		return idx
	}
	return &ir.Select{Pos: idx.Position(), False: &ir.Lit{Pos: idx.Position(), Val: ir.Zero(idx.Type())}, True: idx, Cond: e, T: idx.Type()}
}

// inRange reports whether every value of the integer expression e is in
// [0, n): a literal, or min/clamp/&/% by constants that keep it there.
func inRange(e ir.Expr, n int) bool {
	if v, ok := litVal(e); ok {
		return v.Int64() >= 0 && v.Int64() < int64(n)
	}
	unsigned := e.Type().Kind == ir.KindU32
	lit := func(e ir.Expr) (int64, bool) {
		v, ok := litVal(e)
		if !ok {
			return 0, false
		}
		return v.Int64(), true
	}
	switch x := e.(type) {
	case *ir.BuiltinCall:
		switch x.Fn {
		case ir.BMin:
			if !unsigned {
				return false
			}
			for _, a := range x.Args {
				if c, ok := lit(a); ok && c < int64(n) {
					return true
				}
			}
		case ir.BClamp:
			lo, ok1 := lit(x.Args[1])
			hi, ok2 := lit(x.Args[2])
			return ok1 && ok2 && lo >= 0 && hi < int64(n) && lo <= hi
		}
	case *ir.Binary:
		switch x.Op {
		case ir.OpAnd:
			for _, a := range []ir.Expr{x.X, x.Y} {
				if c, ok := lit(a); ok && c >= 0 && c < int64(n) {
					return true
				}
			}
		case ir.OpRem:
			c, ok := lit(x.Y)
			return ok && unsigned && c > 0 && c <= int64(n)
		}
	}
	return false
}
