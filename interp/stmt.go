package interp

import (
	"github.com/gpudiff/gpudiff/ir"
)

// cstmt is a compiled statement: a general statement, or (the common
// case, run without a wrapper call) an expression evaluated for its
// effect on its destination.
type cstmt struct {
	run   stmtFn
	code  code
	stops bool // code may stop the invocation
}

// fn returns the statement as a stmtFn (nil for an empty statement).
func (s cstmt) fn() stmtFn {
	switch cd, stops := s.code, s.stops; {
	case s.run != nil:
		return s.run
	case len(cd) == 0:
		return nil
	case stops:
		return func(fr *frame) ctl { cd.run(fr); return nextOrStop(fr) }
	default:
		return func(fr *frame) ctl { cd.run(fr); return cNext }
	}
}

// item is a compiled statement of a block. Consecutive statements that
// are plain code (assignments, declarations, calls) are merged into one
// item, ending after any whose code may stop the invocation.
type item struct {
	cstmt
	pos ir.Pos
}

// items compiles the statements of a block.
func (c *compiler) items(b *ir.Block) []item {
	var items []item
	for _, s := range b.Stmts {
		cs := c.stmt(s)
		if cs.run == nil && len(cs.code) == 0 {
			continue
		}
		if c.opts.countOps {
			f := cs.fn()
			cs = cstmt{run: func(fr *frame) ctl { fr.ops++; return f(fr) }}
		}
		// Running out of steps inside a loop is reported at the loop:
		// that is where the kernel may not terminate.
		pos := s.Position()
		if c.loopPos != nil {
			pos = *c.loopPos
		}
		if n := len(items); n > 0 && cs.run == nil && items[n-1].run == nil && !items[n-1].stops {
			last := &items[n-1]
			last.code = append(last.code[:len(last.code):len(last.code)], cs.code...)
			last.stops = cs.stops
			continue
		}
		items = append(items, item{cs, pos})
	}
	return items
}

// execItems runs a block's statements. Steps are counted when the block
// is entered, one per statement, whether or not a jump leaves it early
// (the step limit is a termination bound, not an exact count).
func execItems(fr *frame, items []item, nstmts int64) ctl {
	fr.steps += nstmts
	if fr.steps > fr.limit {
		if len(items) == 0 {
			return fr.overLimit(ir.Pos{})
		}
		return fr.overLimit(items[0].pos)
	}
	for i := range items {
		it := &items[i]
		if it.run == nil {
			for _, f := range it.code {
				f(fr)
			}
			if it.stops && fr.stop {
				return cAbort
			}
			continue
		}
		if c := it.run(fr); c != cNext {
			return c
		}
	}
	return cNext
}

// block compiles a block as one statement.
func (c *compiler) block(b *ir.Block) stmtFn {
	items, n := c.items(b), int64(len(b.Stmts))
	return func(fr *frame) ctl { return execItems(fr, items, n) }
}

func nextOrStop(fr *frame) ctl {
	if fr.stop {
		return cAbort
	}
	return cNext
}

// exec runs an expression for its effect or its destination.
func exec(ce cexpr) cstmt { return cstmt{code: ce.code, stops: ce.stops} }

func (c *compiler) stmt(s ir.Stmt) cstmt {
	switch s := s.(type) {
	case *ir.Block:
		if len(s.Stmts) == 0 {
			return cstmt{}
		}
		return cstmt{run: c.block(s)}
	case *ir.Decl:
		n := size(s.T)
		base := c.alloc(n)
		var cs cstmt
		if s.Init == nil {
			cs = cstmt{code: code{func(fr *frame) { clear(fr.s[base : base+n]) }}}
		} else {
			cs = exec(c.exprTo(s.Init, base))
		}
		c.vars[s.Name] = varInfo{base: base, n: n, t: s.T}
		return cs
	case *ir.Assign:
		return c.assign(s)
	case *ir.ExprStmt:
		return exec(c.expr(s.X))
	case *ir.If:
		return cstmt{run: c.ifStmt(s)}
	case *ir.Loop:
		return cstmt{run: c.loop(s)}
	case *ir.Switch:
		return cstmt{run: c.switchStmt(s)}
	case *ir.Break:
		return cstmt{run: func(*frame) ctl { return cBreak }}
	case *ir.Continue:
		return cstmt{run: func(*frame) ctl { return cContinue }}
	case *ir.Return:
		return cstmt{run: c.ret(s)}
	}
	c.errorf(s.Position(), "unsupported statement %T", s)
	return cstmt{}
}

func (c *compiler) ret(s *ir.Return) stmtFn {
	if s.Value == nil {
		return func(*frame) ctl { return cReturn }
	}
	ret, n := c.fn.ret, c.fn.retN
	if !c.hasCall(s.Value) {
		cd := c.exprTo(s.Value, ret).code
		return func(fr *frame) ctl { cd.run(fr); return cReturn }
	}
	// A call may stop the invocation: compute into a temporary so that
	// the result slots never hold a partial value.
	ce := c.expr(s.Value)
	cd, src := ce.code, ce.loc
	return func(fr *frame) ctl {
		cd.run(fr)
		if fr.stop {
			return cAbort
		}
		copy(fr.s[ret:ret+n], fr.s[src:src+n])
		return cReturn
	}
}

// cref is a compiled reference (the left-hand side of an assignment):
// a static slot offset, or fn computing it at run time together with a
// reason (< 0) when an index was out of bounds or indeterminate.
type cref struct {
	off   int32
	fn    func(fr *frame) (off, bad int32)
	root  varInfo
	stops bool
}

func (r cref) plus(k int32) cref {
	if r.fn == nil {
		r.off += k
		return r
	}
	f := r.fn
	r.fn = func(fr *frame) (int32, int32) { o, b := f(fr); return o + k, b }
	return r
}

// ref compiles a reference chain rooted at a var or global, evaluating
// index operands left to right (outermost first).
func (c *compiler) ref(e ir.Expr) cref {
	switch e := e.(type) {
	case *ir.Ident:
		v, ok := c.lookup(e)
		if !ok {
			c.errorf(e.Pos, "unknown %s %s", e.Ref, e.Name)
			v = varInfo{base: c.alloc(size(e.T)), n: size(e.T), t: e.T}
		}
		return cref{off: v.base, root: v}
	case *ir.Member:
		return c.ref(e.X).plus(fieldOffset(e.X.Type(), e.Field))
	case *ir.Swizzle:
		return c.ref(e.X).plus(int32(e.Comps[0]))
	case *ir.Index:
		r := c.ref(e.X)
		esz := size(e.T)
		if lit, ok := e.Index.(*ir.Lit); ok {
			return r.plus(int32(lit.Val.Int64()) * esz)
		}
		idx := c.expr(e.Index)
		name := "?"
		if id := ir.RootIdent(e); id != nil {
			name = id.Name
		}
		bad := -c.addReason(e.Pos, rOOBWrite, e, name)
		prev, prevOff := r.fn, r.off
		idcode, il := idx.code, idx.loc
		ln := int32(e.X.Type().Len)
		signed := e.Index.Type().Kind == ir.KindI32
		r.fn = func(fr *frame) (int32, int32) {
			off, b := prevOff, int32(0)
			if prev != nil {
				off, b = prev(fr)
			}
			idcode.run(fr)
			is := fr.s[il]
			k, ok := clampIndex(is.bits, signed, ln)
			if !ok || is.why < 0 {
				b = bad
			}
			return off + k*esz, b
		}
		r.stops = r.stops || idx.stops
		return r
	}
	c.errorf(e.Position(), "%T is not a reference", e)
	return cref{off: c.alloc(size(e.Type()))}
}

// assign compiles r = e and r op= e (WGSL #simple-assignment-section,
// #compound-assignment-sec): r is evaluated first, then e; r op= e is
// r = r op e with r evaluated once and loaded before e is evaluated.
func (c *compiler) assign(s *ir.Assign) cstmt {
	r := c.ref(s.LHS)
	n := size(s.LHS.Type())
	call := c.hasCall(s.RHS)
	if s.Op == ir.OpNone {
		if r.fn == nil && !call {
			return exec(c.exprTo(s.RHS, r.off))
		}
		return cstmt{run: c.store(r, c.expr(s.RHS), n)}
	}
	if r.fn == nil {
		x := cexpr{loc: r.off, n: n, global: r.root.global}
		if x.global && call {
			x = c.into(x, c.alloc(n)) // the load happens before the call
		}
		y := c.expr(s.RHS)
		if !call {
			return exec(c.into(c.binary(s, s.Op, x, y, r.off), r.off))
		}
		return cstmt{run: c.store(r, c.binary(s, s.Op, x, y, -1), n)}
	}
	// A run-time indexed reference: evaluate it, load through it, then
	// evaluate e and store.
	tmp := c.alloc(n)
	y := c.expr(s.RHS)
	ce := c.binary(s, s.Op, cexpr{loc: tmp, n: n}, y, -1)
	refFn, root := r.fn, r.root
	cd, src := ce.code, ce.loc
	stops := r.stops || ce.stops
	return cstmt{run: func(fr *frame) ctl {
		off, bad := refFn(fr)
		sl := fr.s
		copy(sl[tmp:tmp+n], sl[off:off+n])
		if bad != 0 {
			for i := tmp; i < tmp+n; i++ {
				sl[i].why = bad
			}
		}
		cd.run(fr)
		if stops && fr.stop {
			return cAbort
		}
		copy(sl[off:off+n], sl[src:src+n])
		if bad != 0 {
			markRoot(sl, root, bad)
		}
		return cNext
	}}
}

// markRoot makes every leaf of a variable indeterminate: a store through
// an invalid memory reference may be dropped or land on any part of the
// same variable.
func markRoot(s []slot, root varInfo, why int32) {
	for i := root.base; i < root.base+root.n; i++ {
		s[i].why = why
	}
}

// store evaluates the reference, then the value, then stores.
func (c *compiler) store(r cref, v cexpr, n int32) stmtFn {
	refFn, off0, root := r.fn, r.off, r.root
	cd, src := v.code, v.loc
	stops := r.stops || v.stops
	return func(fr *frame) ctl {
		off, bad := off0, int32(0)
		if refFn != nil {
			off, bad = refFn(fr)
		}
		cd.run(fr)
		if stops && fr.stop {
			return cAbort
		}
		s := fr.s
		if n == 1 {
			s[off] = s[src]
		} else {
			copy(s[off:off+n], s[src:src+n])
		}
		if bad != 0 {
			markRoot(s, root, bad)
		}
		return cNext
	}
}

// cond compiles a control-flow condition; reading it when it is
// indeterminate poisons the rest of the invocation.
func (c *compiler) cond(e ir.Expr, site ir.Stmt) func(fr *frame) (bool, ctl) {
	return c.condExpr(e, c.addReason(site.Position(), rBranch, site, ""), false)
}

// condExpr compiles a condition (negated when neg is set) without
// materializing its bool: a negation, a short-circuit or a scalar
// comparison is branched on directly.
func (c *compiler) condExpr(e ir.Expr, r int32, neg bool) func(fr *frame) (bool, ctl) {
	switch e := e.(type) {
	case *ir.Unary:
		if e.Op == ir.OpNot {
			return c.condExpr(e.X, r, !neg)
		}
	case *ir.Binary:
		switch cls := e.Op.Info().Class; {
		case e.Op == ir.OpLogAnd || e.Op == ir.OpLogOr:
			// !(x && y) is !x || !y, and !(x || y) is !x && !y.
			x, y := c.condExpr(e.X, r, neg), c.condExpr(e.Y, r, neg)
			decide := (e.Op == ir.OpLogOr) != neg
			return func(fr *frame) (bool, ctl) {
				b, k := x(fr)
				if k != cNext || b == decide {
					return b, k
				}
				return y(fr)
			}
		case (cls == ir.ClassEquality || cls == ir.ClassOrder) && e.X.Type().IsScalar():
			return c.condCompare(e, r, neg)
		}
	}
	ce := c.expr(e)
	cd, l, stops := ce.code, ce.loc, ce.stops
	return func(fr *frame) (bool, ctl) {
		cd.run(fr)
		if stops && fr.stop {
			return false, cAbort
		}
		v := fr.s[l]
		if v.why < 0 {
			return false, fr.poisonAll(r, v.why)
		}
		return (v.bits != 0) != neg, cNext
	}
}

// negated maps a comparison to its negation (on exact, non-NaN operands).
var negated = map[ir.BinaryOp]ir.BinaryOp{
	ir.OpEq: ir.OpNe, ir.OpNe: ir.OpEq, ir.OpLt: ir.OpGe, ir.OpGe: ir.OpLt, ir.OpLe: ir.OpGt, ir.OpGt: ir.OpLe,
}

// condCompare branches on a scalar comparison (negated when neg is set).
func (c *compiler) condCompare(e *ir.Binary, r int32, neg bool) func(fr *frame) (bool, ctl) {
	ops := c.operands(e.X, e.Y)
	pre, xl, yl := seq(ops), ops[0].loc, ops[1].loc
	stops := anyStops(ops...)
	op := e.Op
	if neg {
		op = negated[op] // the operands are finite whenever it matters
	}
	kind := e.X.Type().Kind
	if kind == ir.KindF32 {
		site := c.site(e.Pos, e, "correct result")
		k := cmpKernel(e.Op)
		return func(fr *frame) (bool, ctl) {
			pre.run(fr)
			if stops && fr.stop {
				return false, cAbort
			}
			s := fr.s
			a, b := s[xl], s[yl]
			if exactNormal(a) && exactNormal(b) {
				x, y := f32of(a.bits), f32of(b.bits)
				switch op {
				case ir.OpEq:
					return x == y, cNext
				case ir.OpNe:
					return x != y, cNext
				case ir.OpLt:
					return x < y, cNext
				case ir.OpLe:
					return x <= y, cNext
				case ir.OpGt:
					return x > y, cNext
				}
				return x >= y, cNext
			}
			v := evalCmp(site, k, a, b)
			if v.why < 0 {
				return false, fr.poisonAll(r, v.why)
			}
			return (v.bits != 0) != neg, cNext
		}
	}
	flip := uint32(0)
	if kind == ir.KindI32 {
		flip = 1 << 31
	}
	return func(fr *frame) (bool, ctl) {
		pre.run(fr)
		if stops && fr.stop {
			return false, cAbort
		}
		s := fr.s
		a, b := &s[xl], &s[yl]
		if w := firstWhy(a.why, b.why); w < 0 {
			return false, fr.poisonAll(r, w)
		}
		return cmpBits(op, a.bits^flip, b.bits^flip), cNext
	}
}

func (c *compiler) ifStmt(s *ir.If) stmtFn {
	cond := c.cond(s.Cond, s)
	then, els := c.items(s.Then), c.items(s.Else)
	nt, ne := int64(len(s.Then.Stmts)), int64(len(s.Else.Stmts))
	if len(then) == 1 && len(els) == 0 && !c.opts.countOps {
		if _, ok := s.Then.Stmts[0].(*ir.Break); ok {
			// if (c) { break; }: the exit test of a lowered for or while.
			return func(fr *frame) ctl {
				b, ctl := cond(fr)
				switch {
				case ctl != cNext:
					return ctl
				case b:
					fr.steps++ // the break statement
					return cBreak
				}
				return cNext
			}
		}
	}
	return func(fr *frame) ctl {
		b, ctl := cond(fr)
		switch {
		case ctl != cNext:
			return ctl
		case b:
			return execItems(fr, then, nt)
		}
		return execItems(fr, els, ne)
	}
}

// loop compiles the one loop form (WGSL #loop-statement): body, then
// continuing (also after continue), then break-if. Each iteration is a
// step.
func (c *compiler) loop(s *ir.Loop) stmtFn {
	outer := c.loopPos
	c.loopPos = &s.Pos
	body, nb := c.items(s.Body), int64(len(s.Body.Stmts))
	cont, nc := c.items(s.Continuing), int64(len(s.Continuing.Stmts))
	c.loopPos = outer
	var breakIf func(fr *frame) (bool, ctl)
	if s.BreakIf != nil {
		breakIf = c.cond(s.BreakIf, s)
	}
	pos := s.Pos
	return func(fr *frame) ctl {
		for {
			fr.steps++
			if fr.steps > fr.limit {
				return fr.overLimit(pos)
			}
			switch execItems(fr, body, nb) {
			case cBreak:
				return cNext
			case cReturn:
				return cReturn
			case cAbort:
				return cAbort
			}
			if len(cont) > 0 && execItems(fr, cont, nc) == cAbort {
				return cAbort
			}
			if breakIf != nil {
				b, ctl := breakIf(fr)
				if ctl != cNext {
					return ctl
				}
				if b {
					return cNext
				}
			}
		}
	}
}

// switchStmt compiles a switch (WGSL #switch-statement): the first clause
// holding the selector's value runs, else the default clause; no
// fall-through.
func (c *compiler) switchStmt(s *ir.Switch) stmtFn {
	sel := c.expr(s.Selector)
	l := sel.loc
	r := c.addReason(s.Pos, rBranch, s, "")
	type arm struct {
		vals []uint32
		body stmtFn
	}
	var arms []arm
	var def stmtFn
	for _, cs := range s.Cases {
		body := c.stmt(cs.Body).fn()
		if body == nil {
			body = func(*frame) ctl { return cNext }
		}
		a := arm{body: body}
		for _, v := range cs.Values {
			a.vals = append(a.vals, v.Bits)
		}
		arms = append(arms, a)
		if cs.Default {
			def = body
		}
	}
	if def == nil {
		def = func(*frame) ctl { return cNext }
	}
	cd, stops := sel.code, sel.stops
	return func(fr *frame) ctl {
		cd.run(fr)
		if stops && fr.stop {
			return cAbort
		}
		v := fr.s[l]
		if v.why < 0 {
			return fr.poisonAll(r, v.why)
		}
		body := def
	find:
		for _, a := range arms {
			for _, x := range a.vals {
				if x == v.bits {
					body = a.body
					break find
				}
			}
		}
		switch ctl := body(fr); ctl {
		case cBreak:
			return cNext
		default:
			return ctl
		}
	}
}
