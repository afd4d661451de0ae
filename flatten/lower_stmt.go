package flatten

// The lowerer's statements: declarations, returns, ifs and switches.

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

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
		if t.late != nil {
			l.narrow(&t.late, nil, s.Pos)
			break
		}
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
	case *ir.Discard:
		l.discard(s)
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
	if a, ok := s.X.(*ir.Atomic); ok {
		l.atomic(a, true)
		return
	}
	if tc, ok := s.X.(*ir.TextureCall); ok {
		l.textureCall(tc, true)
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
	if set, ok := l.tagSwitches[s]; ok {
		l.lowerTagSwitch(s, sel, set) // tagswitch.go
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
