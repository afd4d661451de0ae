package gen

import (
	"github.com/gpudiff/gpudiff/ir"
)

const (
	sDecl = iota
	sAssign
	sCompound
	sIncDec
	sElemWrite
	sIf
	sLoop
	sSwitch
	sCall
	sReturn
	sBreak
	sContinue
	sBlock
	numStmtKinds
)

// stmtList generates up to n statements of the current block (the caller
// owns the scope), stopping after a jump (nothing may follow one) or when
// the budget is spent.
func (c *fnGen) stmtList(n int) []ir.Stmt {
	var out []ir.Stmt
	for i := 0; i < n && c.budget > 0; i++ {
		if c.depth == 0 && c.outsideAt >= 0 && c.budget <= c.outsideAt {
			out = append(out, c.outsideStmts()...)
		}
		ss, jump := c.stmt()
		out = append(out, ss...)
		if jump {
			break
		}
	}
	return out
}

// block generates a nested block of 1..4 statements in its own scope.
func (c *fnGen) block() *ir.Block {
	c.push()
	c.depth++
	ss := c.stmtList(c.r.between(1, min(4, max(1, c.budget))))
	c.depth--
	c.pop()
	return &ir.Block{Stmts: ss}
}

// innermostLoop returns the innermost enclosing loop, or nil.
func (c *fnGen) innermostLoop() *ctl {
	for i := len(c.ctl) - 1; i >= 0; i-- {
		if c.ctl[i].loop {
			return &c.ctl[i]
		}
	}
	return nil
}

// continueBlocked reports whether some enclosing loop updates its counter
// at the end of its body: ir.BoundLoop rejects such a loop when any
// continue precedes the update, even one inside a nested loop, so none may
// be generated anywhere in its body.
func (c *fnGen) continueBlocked() bool {
	for _, x := range c.ctl {
		if x.noContinue {
			return true
		}
	}
	return false
}

// stmt generates one statement (sometimes a declaration plus the
// statement using it) and reports whether it is a jump.
func (c *fnGen) stmt() ([]ir.Stmt, bool) {
	c.budget--
	c.cost += c.mult
	w := c.g.prof.Stmt
	var ws [numStmtKinds]int
	ws[sDecl], ws[sAssign], ws[sCompound], ws[sIncDec], ws[sElemWrite] = w.Decl, w.Assign, w.Compound, w.IncDec, w.ElemWrite
	ws[sCall] = w.Call
	if c.depth < c.g.nesting && c.budget > 0 {
		ws[sIf], ws[sLoop], ws[sSwitch], ws[sBlock] = w.If, w.Loop, w.Switch, w.Block
	}
	// Returns, breaks and continues only inside an if or switch: never
	// directly in a loop body (a WhileEnd counter update must stay
	// reachable, and a loop whose body always jumps is degenerate), nor
	// directly in a bare block (naga rejects any statement after a block
	// that ends in a jump: "instructions after return").
	noJumpHere := false
	if n := len(c.ctl); n > 0 && c.ctl[n-1].loop && c.depth == c.ctl[n-1].depth {
		noJumpHere = true
	}
	if n := len(c.bare); n > 0 && c.bare[n-1] == c.depth {
		noJumpHere = true
	}
	if c.depth > 0 && !noJumpHere && !c.noReturn {
		ws[sReturn] = w.Return
	}
	if len(c.ctl) > 0 && !noJumpHere {
		ws[sBreak] = w.Break
	}
	if l := c.innermostLoop(); l != nil && !noJumpHere && !c.continueBlocked() && c.depth > l.depth {
		ws[sContinue] = w.Continue
	}
	var s ir.Stmt
	switch c.r.weighted(ws[:]...) {
	case sDecl:
		s = c.decl()
	case sAssign:
		s = c.assign()
	case sCompound:
		s = c.compound()
	case sIncDec:
		s = c.incDec()
	case sElemWrite:
		s = c.elemWrite()
	case sIf:
		s = c.ifStmt()
	case sLoop:
		if ss := c.loop(); ss != nil {
			return ss, false
		}
	case sSwitch:
		s = c.switchStmt()
	case sCall:
		s = c.callStmt()
	case sReturn:
		return []ir.Stmt{c.returnStmt()}, true
	case sBreak:
		return []ir.Stmt{&ir.Break{}}, true
	case sContinue:
		return []ir.Stmt{&ir.Continue{}}, true
	case sBlock:
		c.bare = append(c.bare, c.depth+1)
		s = c.block()
		c.bare = c.bare[:len(c.bare)-1]
	}
	if s == nil {
		s = c.decl()
	}
	return []ir.Stmt{s}, false
}

func (c *fnGen) decl() ir.Stmt {
	t := c.g.valueType()
	mutable := c.r.chance(60)
	d := &ir.Decl{Name: c.fresh("v"), T: t, Mutable: mutable}
	if !mutable || !c.r.chance(15) {
		d.Init = c.expr(t, c.g.exprDepth)
	}
	ref := ir.RefLet
	if mutable {
		ref = ir.RefVar
	}
	c.declare(d.Name, t, ref, false)
	return d
}

func (c *fnGen) noteWrite(lhs ir.Expr) {
	if r := ir.RootIdent(lhs); r != nil && r.Ref == ir.RefGlobal {
		c.wroteGlobal = true
	}
}

// assign: a whole variable gets a new value.
func (c *fnGen) assign() ir.Stmt {
	lhs := c.readGoal(func(*ir.Type) bool { return true }, true, 0)
	if lhs == nil {
		return nil
	}
	// The generic goal stops anywhere; prefer the whole variable.
	if r := ir.RootIdent(lhs); r != nil && c.r.chance(70) {
		lhs = r
	}
	c.noteWrite(lhs)
	return &ir.Assign{LHS: lhs, RHS: c.expr(lhs.Type(), c.g.exprDepth)}
}

// elemWrite: v.x = e, v[i] = e, s.f = e, a[i] = e, a[i].f.y = e.
func (c *fnGen) elemWrite() ir.Stmt {
	lhs := c.readGoal(func(*ir.Type) bool { return true }, true, 1)
	if lhs == nil {
		return nil
	}
	c.noteWrite(lhs)
	return &ir.Assign{LHS: lhs, RHS: c.expr(lhs.Type(), c.g.exprDepth)}
}

// compound: x op= e on integer scalars/vectors (any operator) and bools
// (& and |). Never on f32: repeated compounding would leave the exact
// domain.
func (c *fnGen) compound() ir.Stmt {
	lhs := c.readGoal(func(t *ir.Type) bool {
		s := t.Scalar()
		return s != nil && (s.IsInteger() || t.Kind == ir.KindBool)
	}, true, 0)
	if lhs == nil {
		return nil
	}
	c.noteWrite(lhs)
	t := lhs.Type()
	var op ir.BinaryOp
	var rhs ir.Expr
	if t.Kind == ir.KindBool {
		op = []ir.BinaryOp{ir.OpAnd, ir.OpOr}[c.r.intn(2)]
		rhs = c.expr(ir.Bool, c.g.exprDepth)
	} else {
		switch c.r.weighted(6, 3, 2) {
		case 0:
			op = arithOps[c.r.intn(len(arithOps))]
			rt := t
			if t.Kind == ir.KindVec && c.r.chance(30) {
				rt = t.Elem
			}
			rhs = c.expr(rt, c.g.exprDepth)
			if (op == ir.OpDiv || op == ir.OpRem) && isConst(rhs) {
				rhs = lit(c.nonZeroLit(rt))
			}
		case 1:
			op = bitwiseOps[c.r.intn(len(bitwiseOps))]
			rhs = c.expr(t, c.g.exprDepth)
		case 2:
			op = shiftOps[c.r.intn(len(shiftOps))]
			rhs = c.expr(t.WithScalar(ir.U32), c.g.exprDepth)
			if isConst(rhs) {
				rhs = lit(c.g.smallLit(rhs.Type(), 0, 31))
			}
		}
	}
	return &ir.Assign{LHS: lhs, Op: op, RHS: rhs}
}

// incDec: x++ / x-- (WGSL {#increment-decrement}), i.e. x += 1 / x -= 1.
func (c *fnGen) incDec() ir.Stmt {
	lhs := c.readGoal(func(t *ir.Type) bool { return t.IsInteger() }, true, 0)
	if lhs == nil {
		return nil
	}
	c.noteWrite(lhs)
	op := []ir.BinaryOp{ir.OpAdd, ir.OpSub}[c.r.intn(2)]
	return &ir.Assign{LHS: lhs, Op: op, RHS: lit(scalarValue(lhs.Type(), 1))}
}

// cond returns an if condition, sometimes a helper call.
func (c *fnGen) cond() ir.Expr {
	if c.r.chance(20) {
		if e := c.callBool(c.g.exprDepth - 1); e != nil {
			return e
		}
	}
	e := c.expr(ir.Bool, c.g.exprDepth)
	if isConst(e) && !c.r.chance(10) {
		e = c.runtime(ir.Bool)
	}
	return e
}

// ifStmt: if / else, with else-if chains.
func (c *fnGen) ifStmt() ir.Stmt {
	s := &ir.If{Cond: c.cond(), Then: c.block(), Else: &ir.Block{}}
	switch {
	case c.budget > 0 && c.depth+1 < c.g.nesting && c.r.chance(c.g.prof.Stmt.ElseIf):
		c.budget--
		c.cost += c.mult
		c.depth++
		s.Else.Stmts = []ir.Stmt{c.ifStmt()}
		c.depth--
	case c.budget > 0 && c.r.chance(50):
		s.Else = c.block()
	}
	return s
}

// switchStmt: a switch on an i32/u32 selector with 1–4 clauses of 1–3
// values each, and a default either alone (anywhere) or beside values
// (WGSL {#switch-statement}).
func (c *fnGen) switchStmt() ir.Stmt {
	t := ir.I32
	if c.r.chance(40) {
		t = ir.U32
	}
	sel := c.expr(t, c.g.exprDepth-1)
	if isConst(sel) && !c.r.chance(10) {
		sel = c.runtime(t)
	}
	if !isConst(sel) && c.r.chance(50) {
		sel = bin(ir.OpAnd, sel, lit(scalarValue(t, 7)))
	}
	// Case values: distinct small values, most of them reachable.
	pool := []int64{0, 1, 2, 3, 4, 5, 6, 7, -1, -2, 8, 100}
	if t.Kind == ir.KindU32 {
		pool[8], pool[9] = 9, 4294967295
	}
	for i := len(pool) - 1; i > 0; i-- {
		j := c.r.intn(i + 1)
		pool[i], pool[j] = pool[j], pool[i]
	}
	n := c.r.between(1, 4)
	s := &ir.Switch{Selector: sel}
	for i := 0; i < n; i++ {
		k := c.r.between(1, 3)
		var vals []ir.Value
		for j := 0; j < k && len(pool) > 0; j++ {
			vals = append(vals, scalarValue(t, pool[0]))
			pool = pool[1:]
		}
		s.Cases = append(s.Cases, &ir.Case{Values: vals})
	}
	if c.r.chance(50) {
		s.Cases[c.r.intn(len(s.Cases))].Default = true
	} else {
		at := c.r.intn(len(s.Cases) + 1)
		s.Cases = append(s.Cases[:at], append([]*ir.Case{{Default: true}}, s.Cases[at:]...)...)
	}
	c.ctl = append(c.ctl, ctl{depth: c.depth + 1})
	for _, cs := range s.Cases {
		cs.Body = c.block()
	}
	c.ctl = c.ctl[:len(c.ctl)-1]
	return s
}

// callStmt calls a helper for its effects (void helpers write globals).
func (c *fnGen) callStmt() ir.Stmt {
	hs := c.callees(nil)
	if len(hs) == 0 {
		return nil
	}
	var void []*helper
	for _, h := range hs {
		if h.f.Result.IsVoid() {
			void = append(void, h)
		}
	}
	if len(void) > 0 && c.r.chance(75) {
		hs = void
	}
	call := c.call(c.pickCallee(hs))
	if call == nil {
		return nil
	}
	if call.T.IsVoid() {
		c.wroteGlobal = true
	}
	return &ir.ExprStmt{X: call}
}

func (c *fnGen) returnStmt() ir.Stmt {
	if c.f.Result.IsVoid() {
		return &ir.Return{}
	}
	return &ir.Return{Value: c.expr(c.f.Result, c.g.exprDepth)}
}
