package interp

import (
	"github.com/gpudiff/gpudiff/ir"
)

// block compiles a block: each statement executed is one step (WGSL
// #program-order: statements run in control flow order).
func (c *compiler) block(b *ir.Block) stmtFn {
	var fns []stmtFn
	var poss []ir.Pos
	for _, s := range b.Stmts {
		if f := c.stmt(s); f != nil {
			fns = append(fns, f)
			// Running out of steps inside a loop is reported at the
			// loop: that is where the kernel may not terminate.
			pos := s.Position()
			if c.loopPos != nil {
				pos = *c.loopPos
			}
			poss = append(poss, pos)
		}
	}
	if c.opts.countOps {
		for i, f := range fns {
			fns[i] = func(fr *frame) ctl { fr.ops++; return f(fr) }
		}
	}
	if len(fns) == 1 {
		f, pos := fns[0], poss[0]
		return func(fr *frame) ctl {
			fr.steps++
			if fr.steps > fr.limit {
				return fr.overLimit(pos)
			}
			return f(fr)
		}
	}
	return func(fr *frame) ctl {
		for i, f := range fns {
			fr.steps++
			if fr.steps > fr.limit {
				return fr.overLimit(poss[i])
			}
			if c := f(fr); c != cNext {
				return c
			}
		}
		return cNext
	}
}

func nextOrStop(fr *frame) ctl {
	if fr.stop {
		return cAbort
	}
	return cNext
}

// exec runs an expression for its effect or its destination.
func exec(ce cexpr) stmtFn {
	f := ce.fn
	switch {
	case f == nil:
		return nil
	case ce.stops:
		return func(fr *frame) ctl { f(fr); return nextOrStop(fr) }
	}
	return func(fr *frame) ctl { f(fr); return cNext }
}

func (c *compiler) stmt(s ir.Stmt) stmtFn {
	switch s := s.(type) {
	case *ir.Block:
		if len(s.Stmts) == 0 {
			return nil
		}
		return c.block(s)
	case *ir.Decl:
		n := size(s.T)
		base := c.alloc(n)
		var f stmtFn
		if s.Init == nil {
			f = func(fr *frame) ctl { clear(fr.s[base : base+n]); return cNext }
		} else {
			f = exec(c.exprTo(s.Init, base))
		}
		c.vars[s.Name] = varInfo{base: base, n: n, t: s.T}
		return f
	case *ir.Assign:
		return c.assign(s)
	case *ir.ExprStmt:
		return exec(c.expr(s.X))
	case *ir.If:
		return c.ifStmt(s)
	case *ir.Loop:
		return c.loop(s)
	case *ir.Switch:
		return c.switchStmt(s)
	case *ir.Break:
		return func(*frame) ctl { return cBreak }
	case *ir.Continue:
		return func(*frame) ctl { return cContinue }
	case *ir.Return:
		return c.ret(s)
	}
	c.errorf(s.Position(), "unsupported statement %T", s)
	return nil
}

func (c *compiler) ret(s *ir.Return) stmtFn {
	if s.Value == nil {
		return func(*frame) ctl { return cReturn }
	}
	ret, n := c.fn.ret, c.fn.retN
	if !c.hasCall(s.Value) {
		f := c.exprTo(s.Value, ret).fn
		if f == nil {
			return func(*frame) ctl { return cReturn }
		}
		return func(fr *frame) ctl { f(fr); return cReturn }
	}
	// A call may stop the invocation: compute into a temporary so that
	// the result slots never hold a partial value.
	ce := c.expr(s.Value)
	f, src := ce.fn, ce.loc
	return func(fr *frame) ctl {
		if f != nil {
			f(fr)
		}
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
		idf, il := idx.fn, idx.loc
		ln := int32(e.X.Type().Len)
		signed := e.Index.Type().Kind == ir.KindI32
		r.fn = func(fr *frame) (int32, int32) {
			off, b := prevOff, int32(0)
			if prev != nil {
				off, b = prev(fr)
			}
			if idf != nil {
				idf(fr)
			}
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
func (c *compiler) assign(s *ir.Assign) stmtFn {
	r := c.ref(s.LHS)
	n := size(s.LHS.Type())
	call := c.hasCall(s.RHS)
	if s.Op == ir.OpNone {
		if r.fn == nil && !call {
			return exec(c.exprTo(s.RHS, r.off))
		}
		return c.store(r, c.expr(s.RHS), n)
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
		return c.store(r, c.binary(s, s.Op, x, y, -1), n)
	}
	// A run-time indexed reference: evaluate it, load through it, then
	// evaluate e and store.
	tmp := c.alloc(n)
	y := c.expr(s.RHS)
	ce := c.binary(s, s.Op, cexpr{loc: tmp, n: n}, y, -1)
	refFn, root := r.fn, r.root
	f, src := ce.fn, ce.loc
	stops := r.stops || ce.stops
	return func(fr *frame) ctl {
		off, bad := refFn(fr)
		sl := fr.s
		copy(sl[tmp:tmp+n], sl[off:off+n])
		if bad != 0 {
			for i := tmp; i < tmp+n; i++ {
				sl[i].why = bad
			}
		}
		f(fr)
		if stops && fr.stop {
			return cAbort
		}
		copy(sl[off:off+n], sl[src:src+n])
		if bad != 0 {
			markRoot(sl, root, bad)
		}
		return cNext
	}
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
	f, src := v.fn, v.loc
	stops := r.stops || v.stops
	return func(fr *frame) ctl {
		off, bad := off0, int32(0)
		if refFn != nil {
			off, bad = refFn(fr)
		}
		if f != nil {
			f(fr)
		}
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
func (c *compiler) cond(e ir.Expr, site ir.Stmt) (func(fr *frame) (bool, ctl), int32) {
	ce := c.expr(e)
	f, l, stops := ce.fn, ce.loc, ce.stops
	r := c.addReason(site.Position(), rBranch, site, "")
	return func(fr *frame) (bool, ctl) {
		if f != nil {
			f(fr)
			if stops && fr.stop {
				return false, cAbort
			}
		}
		v := fr.s[l]
		if v.why < 0 {
			return false, fr.poisonAll(r, v.why)
		}
		return v.bits != 0, cNext
	}, r
}

func (c *compiler) ifStmt(s *ir.If) stmtFn {
	cond, _ := c.cond(s.Cond, s)
	then, els := c.stmt(s.Then), c.stmt(s.Else)
	return func(fr *frame) ctl {
		b, ctl := cond(fr)
		switch {
		case ctl != cNext:
			return ctl
		case b:
			if then != nil {
				return then(fr)
			}
		case els != nil:
			return els(fr)
		}
		return cNext
	}
}

// loop compiles the one loop form (WGSL #loop-statement): body, then
// continuing (also after continue), then break-if. Each iteration is a
// step.
func (c *compiler) loop(s *ir.Loop) stmtFn {
	outer := c.loopPos
	c.loopPos = &s.Pos
	body := c.stmt(s.Body)
	cont := c.stmt(s.Continuing)
	c.loopPos = outer
	var breakIf func(fr *frame) (bool, ctl)
	if s.BreakIf != nil {
		breakIf, _ = c.cond(s.BreakIf, s)
	}
	pos := s.Pos
	return func(fr *frame) ctl {
		for {
			fr.steps++
			if fr.steps > fr.limit {
				return fr.overLimit(pos)
			}
			if body != nil {
				switch body(fr) {
				case cBreak:
					return cNext
				case cReturn:
					return cReturn
				case cAbort:
					return cAbort
				}
			}
			if cont != nil {
				if r := cont(fr); r == cAbort {
					return cAbort
				}
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
		body := c.stmt(cs.Body)
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
	f, stops := sel.fn, sel.stops
	return func(fr *frame) ctl {
		if f != nil {
			f(fr)
			if stops && fr.stop {
				return cAbort
			}
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
