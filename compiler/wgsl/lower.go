package wgsl

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// Checking and lowering of statements (WGSL #statements) to the IR's
// structured tree with its one loop form:
//
//	for (init; cond; update) body
//	    → { init; loop { if (!(cond)) { break; } body  continuing { update; } } }
//	while (cond) body
//	    → loop { if (!(cond)) { break; } body }
//
// A condition a && b && c becomes successive exit tests
// `if (!(a)) { break; } if (!(b)) { break; } …`, which keeps && 's
// short-circuit order and leaves the counter test visible to
// ir.BoundLoop. else-if chains become nested Ifs, x++ and x-- become
// x += 1 and x -= 1, and _ = e becomes an ExprStmt.

// stmtList checks statements in the current scope.
func (c *chkCtx) stmtList(ss []astStmt) []ir.Stmt {
	var out []ir.Stmt
	for _, s := range ss {
		out = append(out, c.stmt(s)...)
	}
	return out
}

// block checks a compound statement in a new scope.
func (c *chkCtx) block(b *astBlock) *ir.Block {
	c.noAttrs(b.attrs)
	c.push()
	defer c.pop()
	return &ir.Block{Pos: c.pos(b.off), Stmts: c.stmtList(b.stmts)}
}

func (c *chkCtx) noAttrs(as []*astAttr) {
	for _, a := range as {
		if a.name != "diagnostic" {
			c.errorf(a.off, "attribute @%s does not apply to a statement (WGSL #attributes: only @diagnostic does)", a.name)
		}
	}
	if len(as) > 0 {
		c.outsidef(as[0].off, "statement attribute @%s", as[0].name)
	}
}

func (c *chkCtx) stmt(s astStmt) []ir.Stmt {
	switch x := s.(type) {
	case *astEmptyStmt:
		return nil
	case *astBlock:
		return []ir.Stmt{c.block(x)}
	case *astVarStmt:
		return c.localDecl(x)
	case *astAssignStmt:
		if s := c.assign(x); s != nil {
			return []ir.Stmt{s}
		}
		return nil
	case *astIncDecStmt:
		return []ir.Stmt{c.incDec(x)}
	case *astCallStmt:
		op := c.call(x.call, true)
		return []ir.Stmt{&ir.ExprStmt{Pos: c.pos(x.call.callee.off), X: op.e}}
	case *astIfStmt:
		c.noAttrs(x.attrs)
		return []ir.Stmt{c.ifStmt(x)}
	case *astSwitchStmt:
		return []ir.Stmt{c.switchStmt(x)}
	case *astLoopStmt:
		return []ir.Stmt{c.loopStmt(x)}
	case *astForStmt:
		return c.forStmt(x)
	case *astWhileStmt:
		return []ir.Stmt{c.whileStmt(x)}
	case *astBreakStmt:
		c.checkBreak(x.off)
		return []ir.Stmt{&ir.Break{Pos: c.pos(x.off)}}
	case *astContinueStmt:
		c.checkContinue(x.off)
		return []ir.Stmt{&ir.Continue{Pos: c.pos(x.off)}}
	case *astDiscardStmt:
		// WGSL #discard-statement: demote to a helper invocation. Its
		// stage (fragment only) is renderStages'.
		return []ir.Stmt{&ir.Discard{Pos: c.pos(x.off)}}
	case *astReturnStmt:
		return []ir.Stmt{c.returnStmt(x)}
	case *astConstAssertStmt:
		c.constAssert(x.x)
		return nil
	}
	panic("wgsl: unknown statement")
}

// localDecl checks let, var and const in a function (WGSL #let-decls,
// #var-decls, #const-decls). A const has no IR: its uses become Lits.
// stableWorkgroupView reports whether p, a let's pointer, is into
// workgroup memory through indices that read no mutable memory and call
// nothing: evaluating its view where the pointer is used gives the
// location evaluating it at the let does, so the subset takes the let
// (its one use it accepts is workgroupUniformLoad's argument, addrOf).
func stableWorkgroupView(p *chkPtr) bool {
	return p.space == ir.SpaceWorkgroup && stableView(p)
}

// stableView reports whether p's view reads no mutable memory and calls
// nothing in its index operands (they are lets, parameters, constants
// and pure builtins of them): evaluating the view where the pointer is
// used then designates the location evaluating it where the pointer was
// formed does (WGSL #address-of-expr), so a let of such a pointer is in
// the subset as a name for its view.
func stableView(p *chkPtr) bool {
	if p.view.e == nil {
		return false
	}
	root := ir.RootIdent(p.view.e)
	return root != nil && stableBut(p.view.e, root)
}

func (c *chkCtx) localDecl(x *astVarStmt) []ir.Stmt {
	var t *chkType
	var ptrType *astIdentExpr // let p: ptr<AS, T, A> = …
	if x.kw == "let" && x.typ != nil && x.typ.name == "ptr" && c.local("ptr") == nil && c.mc.byName["ptr"] == nil {
		ptrType = x.typ
	} else if x.typ != nil {
		t = c.valueType(x.typ, "a function-scope "+x.kw)
	}
	if x.kw == "var" && x.hasTmpl {
		as, ok := x.tmpl[0].(*astIdentExpr)
		if !ok || as.hasTmpl || as.name != "function" || len(x.tmpl) > 1 {
			if ok && (as.name == "private" || as.name == "workgroup" || as.name == "uniform" || as.name == "storage") {
				c.errorf(x.tmpl[0].astOff(), "a function-scope var must be in the function address space, not %s", as.name)
			}
			c.errorf(x.tmpl[0].astOff(), "a function-scope var takes only the address space 'function'")
		}
	}
	var init *chkOp
	if x.init != nil {
		if x.kw == "let" {
			if p := c.pointer(x.init); p != nil {
				if ptrType != nil {
					c.letPointerType(ptrType, p, x.name)
				}
				// A let of a pointer is a name for its view where the view
				// is stable (a pointer parameter's always is); otherwise
				// its unstable indices are evaluated here, into lets, and
				// the view reads them (pinView).
				q := *p
				var pre []ir.Stmt
				if !q.param && !stableView(p) && p.view.e != nil {
					q.view.e, pre = c.pinView(p.view.e, x.name)
				}
				q.stable = q.param || stableView(&q)
				q.param = false
				if !q.stable {
					c.deferOutside(p.off, "pointer (address-of operator '&') whose indices read mutable memory or call a function")
				}
				c.declare(x.name, &chkLocal{ref: ir.RefLet, t: p.view.t, ptr: &q})
				return pre
			}
			if ptrType != nil {
				a := c.value(x.init)
				c.errorf(astExprStart(x.init), "let '%s' is declared %s but initialized with a value of type %v", x.name, "ptr", a.t)
			}
		}
		op := c.value(x.init)
		if t == nil {
			t = op.t
			if x.kw != "const" {
				t = t.concretize()
			}
		}
		op = c.to(op, t, x.kw+" '"+x.name+"'")
		init = &op
	}
	if t == nil {
		c.errorf(x.nameOff, "var '%s' needs a type or an initializer", x.name)
	}
	c.constructible(t, x.nameOff, x.kw+" '"+x.name+"'")
	c.valueLimit(t, x.nameOff, x.kw+" '"+x.name+"'")
	switch x.kw {
	case "const":
		if init.c == nil {
			c.errorf(astExprStart(x.init), "the initializer of const '%s' must be a const-expression", x.name)
		}
		c.declare(x.name, &chkLocal{t: t, c: init.c})
		return nil
	case "let":
		c.declare(x.name, &chkLocal{ref: ir.RefLet, t: t})
		return []ir.Stmt{&ir.Decl{Pos: c.pos(x.off), Name: x.name, T: t.toIR(), Init: c.irOf(*init)}}
	}
	d := &ir.Decl{Pos: c.pos(x.off), Name: x.name, T: t.toIR(), Mutable: true}
	if init != nil {
		d.Init = c.irOf(*init)
	}
	c.declare(x.name, &chkLocal{ref: ir.RefVar, t: t})
	return []ir.Stmt{d}
}

// pinView evaluates the index operands of view, the memory view of a
// let's pointer (let name = &view), that read mutable memory or call a
// function, into fresh lets, in WGSL's evaluation order (the base before
// its index, left to right): a pointer designates the location its view
// had when the pointer was formed (WGSL #address-of-expr), so each use of
// the pointer reads the lets instead of re-evaluating the operands. It
// returns the view that reads them and the lets' declarations, which
// precede the pointer's let.
func (c *chkCtx) pinView(view ir.Expr, name string) (ir.Expr, []ir.Stmt) {
	var pre []ir.Stmt
	var pin func(e ir.Expr) ir.Expr
	pin = func(e ir.Expr) ir.Expr {
		switch x := e.(type) {
		case *ir.Index:
			y := *x
			y.X = pin(x.X)
			if !stableExpr(x.Index) {
				n := fmt.Sprintf("%s_index%d", name, len(pre))
				for c.local(n) != nil {
					n += "_"
				}
				pre = append(pre, &ir.Decl{Pos: x.Index.Position(), Name: n, T: x.Index.Type(), Init: x.Index})
				y.Index = &ir.Ident{Pos: x.Index.Position(), Name: n, T: x.Index.Type(), Ref: ir.RefLet}
			}
			return &y
		case *ir.Member:
			y := *x
			y.X = pin(x.X)
			return &y
		case *ir.Swizzle:
			y := *x
			y.X = pin(x.X)
			return &y
		}
		return e
	}
	return pin(view), pre
}

// stableExpr reports whether e reads no mutable memory and calls nothing.
func stableExpr(e ir.Expr) bool { return stableBut(e, nil) }

// stableBut is stableExpr with the identifier root (nil: none) allowed to
// name mutable memory: a view's root variable, which the view designates
// rather than reads.
func stableBut(e ir.Expr, root *ir.Ident) bool {
	ok := true
	ir.Inspect(e, func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Ident:
			if x != root && x.Ref.Mutable() {
				ok = false
			}
		case *ir.Call, *ir.Atomic:
			ok = false
		case *ir.BuiltinCall:
			if !x.Fn.Info().Pure() {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// ref checks an assignment target: a memory view rooted at a var or a
// private global (WGSL #simple-assignment-section).
func (c *chkCtx) ref(e astExpr, what string) chkOp {
	op := c.value(e)
	if op.ref {
		return op
	}
	root := e
	for {
		switch x := root.(type) {
		case *astParenExpr:
			root = x.x
			continue
		case *astIndexExpr:
			root = x.x
			continue
		case *astMemberExpr:
			// Re-checking the base is safe: it already checked once.
			if len(x.name) > 1 && c.value(x.x).t.k == ckVec {
				c.errorf(x.off, "cannot %s a multi-component swizzle", what)
			}
			root = x.x
			continue
		case *astUnaryExpr:
			if x.op == lexStar {
				if p := c.pointer(x.x); p != nil && p.readOnly {
					c.errorf(x.off, "cannot %s the memory %s points to: its access mode is read (WGSL #access-mode)", what, p.what)
				}
			}
		case *astIdentExpr:
			if l := c.local(x.name); l != nil {
				if l.ptr != nil && l.ptr.param && l.ptr.readOnly {
					c.errorf(x.off, "cannot %s the memory %s points to: its access mode is read (WGSL #access-mode)", what, l.ptr.what)
				}
				switch l.ref {
				case ir.RefParam:
					c.errorf(x.off, "cannot %s parameter '%s'", what, x.name)
				case ir.RefLet:
					c.errorf(x.off, "cannot %s let '%s'", what, x.name)
				case 0:
					c.errorf(x.off, "cannot %s const '%s'", what, x.name)
				}
			} else if d, ok := c.mc.byName[x.name]; ok && (d.a.kind == "const" || d.a.kind == "override") {
				c.errorf(x.off, "cannot %s %s '%s'", what, d.a.kind, x.name)
			}
		}
		break
	}
	c.errorf(astExprStart(e), "cannot %s a value that is not a variable reference", what)
	return op
}

func (c *chkCtx) assign(x *astAssignStmt) ir.Stmt {
	if x.lhs == nil {
		// A phony assignment (WGSL #phony-assignment-section) evaluates
		// its right-hand side for its effects only.
		if p := c.pointerUse(x.rhs); p != nil {
			// _ = &view: only the calls in the view's indices have an
			// effect (the view itself is never loaded, so a runtime-sized
			// array's view needs no value).
			b := &ir.Block{Pos: c.pos(x.off)}
			if p.view.e != nil {
				ir.Inspect(p.view.e, func(n ir.Node) bool {
					if ix, ok := n.(*ir.Index); ok && !stableExpr(ix.Index) {
						b.Stmts = append(b.Stmts, &ir.ExprStmt{Pos: ix.Index.Position(), X: ix.Index})
						return false
					}
					return true
				})
			}
			if len(b.Stmts) == 0 {
				return nil
			}
			return b
		}
		op := c.value(x.rhs)
		if op.c != nil && op.t.isAbstract() {
			// A constant of an abstract type: no effect, and nothing to
			// concretize (_ = 5000000000 is valid WGSL).
			return nil
		}
		op = c.concrete(op)
		c.constructible(op.t, x.off, "a phony assignment's value")
		return &ir.ExprStmt{Pos: c.pos(x.off), X: c.irOf(op)}
	}
	lhs := c.ref(x.lhs, "assign to")
	c.constructible(lhs.t, x.off, "an assignment's left-hand side")
	rhs := c.value(x.rhs)
	if x.op == lexAssign {
		rhs = c.to(rhs, lhs.t, "assignment")
		return &ir.Assign{Pos: c.pos(x.off), LHS: lhs.e, RHS: c.irOf(rhs)}
	}
	op := chkBinaryOps[x.op]
	res := c.binaryOps(op, chkOp{t: lhs.t, e: lhs.e, off: lhs.off}, rhs, x.off)
	if !chkIdentical(res.t, lhs.t) {
		c.errorf(x.off, "the result of %s= has type %v, which cannot be stored in %v", op, res.t, lhs.t)
	}
	bin := res.e.(*ir.Binary)
	return &ir.Assign{Pos: c.pos(x.off), LHS: lhs.e, Op: op, RHS: bin.Y}
}

func (c *chkCtx) incDec(x *astIncDecStmt) ir.Stmt {
	what := "decrement"
	op := ir.OpSub
	if x.inc {
		what, op = "increment", ir.OpAdd
	}
	lhs := c.ref(x.lhs, what)
	if lhs.t.k != ckI32 && lhs.t.k != ckU32 {
		c.errorf(x.off, "cannot %s a value of type %v (want i32 or u32)", what, lhs.t)
	}
	one := cvInt(lhs.t, 1)
	return &ir.Assign{Pos: c.pos(x.off), LHS: lhs.e, Op: op, RHS: &ir.Lit{Pos: c.pos(x.off), Val: one.toIR()}}
}

// cond checks a bool condition.
func (c *chkCtx) cond(e astExpr, what string) chkOp {
	op := c.value(e)
	if op.t.k != ckBool {
		c.errorf(astExprStart(e), "%s must be bool, not %v", what, op.t)
	}
	return op
}

func (c *chkCtx) ifStmt(x *astIfStmt) *ir.If {
	cond := c.cond(x.cond, "if condition")
	s := &ir.If{Pos: c.pos(x.off), Cond: c.irOf(cond), Then: c.block(x.then), Else: &ir.Block{Pos: c.pos(x.off)}}
	switch e := x.els.(type) {
	case *astBlock:
		s.Else = c.block(e)
	case *astIfStmt:
		s.Else = &ir.Block{Pos: c.pos(e.off), Stmts: []ir.Stmt{c.ifStmt(e)}}
	}
	return s
}

func (c *chkCtx) switchStmt(x *astSwitchStmt) *ir.Switch {
	c.noAttrs(x.attrs)
	c.noAttrs(x.bodyAttrs)
	sel := c.value(x.sel)
	if !sel.t.isScalar() || !sel.t.isInt() {
		c.errorf(astExprStart(x.sel), "switch selector must be i32 or u32, not %v", sel.t)
	}
	// The selector and every case value convert to one concrete integer
	// type (WGSL #switch-statement).
	type caseVal struct {
		op  chkOp
		off int32
	}
	var vals [][]caseVal
	leaf := sel.t
	defaults := 0
	for _, cl := range x.clauses {
		var vs []caseVal
		for i, e := range cl.sels {
			if e == nil {
				defaults++
				if defaults > 1 {
					c.errorf(cl.offs[i], "a switch may have only one default clause")
				}
				continue
			}
			op := c.value(e)
			if op.c == nil {
				c.errorf(astExprStart(e), "case selector must be a const-expression")
			}
			if !op.t.isScalar() || !op.t.isInt() {
				c.errorf(astExprStart(e), "case selector must be i32 or u32, not %v", op.t)
			}
			if leaf = chkUnifyLeaf(leaf, op.t); leaf == nil {
				c.errorf(astExprStart(e), "case selector of type %v does not match the selector type %v", op.t, sel.t)
			}
			vs = append(vs, caseVal{op, astExprStart(e)})
		}
		vals = append(vals, vs)
	}
	if defaults == 0 {
		c.errorf(x.off, "switch statement must have a default clause")
	}
	leaf = leaf.concretize()
	sel = c.to(sel, leaf, "switch selector")
	s := &ir.Switch{Pos: c.pos(x.off), Selector: c.irOf(sel)}
	seen := map[int64]bool{}
	c.flow = append(c.flow, 's')
	for i, cl := range x.clauses {
		cs := &ir.Case{Pos: c.pos(cl.off)}
		for _, e := range cl.sels {
			if e == nil {
				cs.Default = true
			}
		}
		for _, v := range vals[i] {
			op := c.to(v.op, leaf, "case selector")
			if seen[op.c.i] {
				c.errorf(v.off, "duplicate case value %s", op.c)
			}
			seen[op.c.i] = true
			cs.Values = append(cs.Values, op.c.toIR())
		}
		cs.Body = c.block(cl.body)
		s.Cases = append(s.Cases, cs)
	}
	c.flow = c.flow[:len(c.flow)-1]
	return s
}

// exitTests lowers a loop condition to `if (!(cond)) { break; }` tests,
// one per operand of a top-level && chain.
func (c *chkCtx) exitTests(e astExpr) []ir.Stmt {
	if b, ok := e.(*astBinaryExpr); ok && b.op == lexAndAnd {
		return append(c.exitTests(b.x), c.exitTests(b.y)...)
	}
	cond := c.cond(e, "loop condition")
	off := astExprStart(e)
	var neg ir.Expr
	if cond.c != nil {
		neg = &ir.Lit{Pos: c.pos(off), Val: ir.BoolVal(!cond.c.b)}
	} else {
		neg = &ir.Unary{Pos: c.pos(off), Op: ir.OpNot, X: cond.e, T: ir.Bool}
	}
	return []ir.Stmt{&ir.If{Pos: c.pos(off), Cond: neg,
		Then: &ir.Block{Pos: c.pos(off), Stmts: []ir.Stmt{&ir.Break{Pos: c.pos(off)}}},
		Else: &ir.Block{Pos: c.pos(off)}}}
}

func (c *chkCtx) loopStmt(x *astLoopStmt) *ir.Loop {
	c.noAttrs(x.attrs)
	c.noAttrs(x.bodyAttrs)
	l := &ir.Loop{Pos: c.pos(x.off), Continuing: &ir.Block{Pos: c.pos(x.end)}}
	c.push()
	c.flow = append(c.flow, 'l')
	l.Body = &ir.Block{Pos: c.pos(x.off), Stmts: c.stmtList(x.body)}
	c.flow = c.flow[:len(c.flow)-1]
	if x.cont != nil {
		c.noAttrs(x.cont.attrs)
		c.checkContinuePastDecls(x)
		c.push()
		c.flow = append(c.flow, 'c')
		l.Continuing = &ir.Block{Pos: c.pos(x.cont.off), Stmts: c.stmtList(x.cont.stmts)}
		if x.cont.breakIf != nil {
			l.BreakIf = c.irOf(c.cond(x.cont.breakIf, "break-if condition"))
		}
		c.flow = c.flow[:len(c.flow)-1]
		c.pop()
	}
	c.pop()
	return l
}

func (c *chkCtx) forStmt(x *astForStmt) []ir.Stmt {
	c.noAttrs(x.attrs)
	c.noAttrs(x.body.attrs)
	c.push()
	defer c.pop()
	var init []ir.Stmt
	if x.init != nil {
		init = c.stmt(x.init)
	}
	l := &ir.Loop{Pos: c.pos(x.off), Body: &ir.Block{Pos: c.pos(x.body.off)}, Continuing: &ir.Block{Pos: c.pos(x.off)}}
	if x.cond != nil {
		l.Body.Stmts = c.exitTests(x.cond)
	}
	if x.update != nil {
		l.Continuing.Stmts = c.stmt(x.update)
	}
	c.flow = append(c.flow, 'l')
	l.Body.Stmts = append(l.Body.Stmts, c.stmtList(x.body.stmts)...)
	c.flow = c.flow[:len(c.flow)-1]
	if len(init) == 0 {
		return []ir.Stmt{l}
	}
	return []ir.Stmt{&ir.Block{Pos: c.pos(x.off), Stmts: append(init, l)}}
}

func (c *chkCtx) whileStmt(x *astWhileStmt) *ir.Loop {
	c.noAttrs(x.attrs)
	l := &ir.Loop{Pos: c.pos(x.off), Body: &ir.Block{Pos: c.pos(x.body.off)}, Continuing: &ir.Block{Pos: c.pos(x.off)}}
	l.Body.Stmts = c.exitTests(x.cond)
	c.flow = append(c.flow, 'l')
	body := c.block(x.body)
	c.flow = c.flow[:len(c.flow)-1]
	l.Body.Stmts = append(l.Body.Stmts, body.Stmts...)
	return l
}

// checkBreak applies WGSL #break-statement: only in a loop or switch, and
// never leaving a continuing block.
func (c *chkCtx) checkBreak(off int32) {
	if len(c.flow) == 0 {
		c.errorf(off, "break statement outside of a loop or switch")
	}
	if c.flow[len(c.flow)-1] == 'c' {
		c.errorf(off, "a break may not exit a continuing block; use 'break if'")
	}
}

// checkContinue applies WGSL #continue-statement.
func (c *chkCtx) checkContinue(off int32) {
	for i := len(c.flow) - 1; i >= 0; i-- {
		switch c.flow[i] {
		case 'l':
			return
		case 'c':
			c.errorf(off, "a continue may not be used in a continuing block")
		}
	}
	c.errorf(off, "continue statement outside of a loop")
}

func (c *chkCtx) returnStmt(x *astReturnStmt) ir.Stmt {
	for _, f := range c.flow {
		if f == 'c' {
			c.errorf(x.off, "return is not allowed in a continuing block")
		}
	}
	r := &ir.Return{Pos: c.pos(x.off)}
	if c.result.k == ckVoid {
		if x.x != nil {
			c.errorf(x.off, "function '%s' has no return type; return must not have a value", c.d.a.name)
		}
		return r
	}
	if x.x == nil {
		c.errorf(x.off, "function '%s' must return a value of type %v", c.d.a.name, c.result)
	}
	op := c.to(c.value(x.x), c.result, "return value")
	r.Value = c.irOf(op)
	return r
}

// checkContinuePastDecls applies the rule that a continue must not skip
// a declaration the continuing block uses (WGSL #continue-statement).
func (c *chkCtx) checkContinuePastDecls(x *astLoopStmt) {
	used := map[string]bool{}
	var names func(n any)
	names = func(n any) {
		chkWalk(n, func(m any) {
			if id, ok := m.(*astIdentExpr); ok {
				used[id.name] = true
			}
		})
	}
	for _, s := range x.cont.stmts {
		names(s)
	}
	if x.cont.breakIf != nil {
		names(x.cont.breakIf)
	}
	decl := map[string]int{}
	for j, s := range x.body {
		if v, ok := s.(*astVarStmt); ok && used[v.name] {
			decl[v.name] = j
		}
	}
	if len(decl) == 0 {
		return
	}
	for k, s := range x.body {
		chkWalkContinues(s, func(off int32) {
			for name, j := range decl {
				if j > k {
					c.errorf(off, "continue skips the declaration of '%s', which the continuing block uses", name)
				}
			}
		})
	}
}

// chkWalkContinues calls f for each continue that targets the enclosing
// loop (not those of nested loops).
func chkWalkContinues(s astStmt, f func(off int32)) {
	switch x := s.(type) {
	case *astContinueStmt:
		f(x.off)
	case *astBlock:
		for _, t := range x.stmts {
			chkWalkContinues(t, f)
		}
	case *astIfStmt:
		chkWalkContinues(x.then, f)
		if x.els != nil {
			chkWalkContinues(x.els, f)
		}
	case *astSwitchStmt:
		for _, cl := range x.clauses {
			chkWalkContinues(cl.body, f)
		}
	}
}

// chkWalk calls f on every statement and expression node under n.
func chkWalk(n any, f func(any)) {
	if n == nil {
		return
	}
	f(n)
	switch x := n.(type) {
	case *astCallExpr:
		chkWalk(x.callee, f)
		for _, a := range x.args {
			chkWalk(a, f)
		}
	case *astIdentExpr:
		for _, a := range x.tmpl {
			chkWalk(a, f)
		}
	case *astParenExpr:
		chkWalk(x.x, f)
	case *astUnaryExpr:
		chkWalk(x.x, f)
	case *astBinaryExpr:
		chkWalk(x.x, f)
		chkWalk(x.y, f)
	case *astIndexExpr:
		chkWalk(x.x, f)
		chkWalk(x.index, f)
	case *astMemberExpr:
		chkWalk(x.x, f)
	case *astBlock:
		for _, s := range x.stmts {
			chkWalk(s, f)
		}
	case *astVarStmt:
		if x.typ != nil {
			chkWalk(x.typ, f)
		}
		if x.init != nil {
			chkWalk(x.init, f)
		}
	case *astAssignStmt:
		if x.lhs != nil {
			chkWalk(x.lhs, f)
		}
		chkWalk(x.rhs, f)
	case *astIncDecStmt:
		chkWalk(x.lhs, f)
	case *astCallStmt:
		chkWalk(x.call, f)
	case *astIfStmt:
		chkWalk(x.cond, f)
		chkWalk(x.then, f)
		if x.els != nil {
			chkWalk(x.els, f)
		}
	case *astSwitchStmt:
		chkWalk(x.sel, f)
		for _, cl := range x.clauses {
			for _, e := range cl.sels {
				if e != nil {
					chkWalk(e, f)
				}
			}
			chkWalk(cl.body, f)
		}
	case *astLoopStmt:
		for _, s := range x.body {
			chkWalk(s, f)
		}
		if x.cont != nil {
			for _, s := range x.cont.stmts {
				chkWalk(s, f)
			}
			if x.cont.breakIf != nil {
				chkWalk(x.cont.breakIf, f)
			}
		}
	case *astForStmt:
		if x.init != nil {
			chkWalk(x.init, f)
		}
		if x.cond != nil {
			chkWalk(x.cond, f)
		}
		if x.update != nil {
			chkWalk(x.update, f)
		}
		chkWalk(x.body, f)
	case *astWhileStmt:
		chkWalk(x.cond, f)
		chkWalk(x.body, f)
	case *astReturnStmt:
		if x.x != nil {
			chkWalk(x.x, f)
		}
	case *astConstAssertStmt:
		chkWalk(x.x, f)
	}
}

// letPointerType checks a let's declared pointer type against the
// pointer p that initializes it (WGSL #let-decls: the initializer's type
// is the declared type): address space, store type and access mode.
func (c *chkCtx) letPointerType(typ *astIdentExpr, p *chkPtr, name string) {
	space, access, t := c.ptrParamType(typ)
	readOnly := space == ir.SpaceUniform || space == ir.SpaceStorage && access != ir.AccessReadWrite
	if space != p.space || !ir.Identical(t.toIRMaybe(), p.view.t.toIRMaybe()) || readOnly != p.readOnly {
		c.errorf(typ.off, "let '%s' is declared with a pointer type that differs from its initializer, %s", name, p.what)
	}
}
