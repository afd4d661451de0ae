package interp

import (
	"github.com/gpudiff/gpudiff/ir"
)

// Statements compile into the same flat code as expressions: a function
// body is one code, in which control flow is jumps. A block starts with
// opSteps, which counts all its statements when the block is entered
// (also those a break, continue or return then skips: the step limit is a
// termination bound, not an exact count) and stops the invocation at the
// limit; a loop counts one step per iteration (opLoopStep); conditions
// branch directly on comparisons (opBrInt, opBrF) or on a computed bool
// (opBrBool), and an indeterminate condition poisons the rest of the
// invocation; break, continue and the exits of if and switch are opJmp;
// return is opRet. Statements whose code may stop the invocation (a user
// call, an unexecutable builtin) are followed by opStop.

// cstmt is a compiled simple statement: code evaluated for its effect on
// its destination (stops: the code may stop the invocation), or run, a
// closure (assignments through run-time indices).
type cstmt struct {
	run   stmtFn
	code  code
	stops bool
}

// exec runs an expression for its effect or its destination.
func exec(ce cexpr) cstmt { return cstmt{code: ce.code, stops: ce.stops} }

// target is an enclosing loop or switch: where break and continue go.
type target struct {
	loop   bool
	breaks []int // opJmp instructions to patch with the exit
	conts  []int // opJmp instructions to patch with the continuing block (loops)
}

// emit appends one instruction to the function being compiled and returns
// its index.
func (c *compiler) emitOp(in instr) int {
	c.out = append(c.out, in)
	return len(c.out) - 1
}

// patch makes the jumps at the given instructions go to instruction to.
func (c *compiler) patch(at []int, to int) {
	for _, i := range at {
		c.out[i].d = int32(to)
	}
}

// posIndex records a position for step-limit errors.
func (c *compiler) posIndex(pos ir.Pos) int32 {
	c.p.positions = append(c.p.positions, pos)
	return int32(len(c.p.positions) - 1)
}

// body compiles a function body into one code.
func (c *compiler) body(b *ir.Block) code {
	out, targets := c.out, c.targets
	c.out, c.targets = nil, nil
	c.block(b)
	prog := c.out
	c.out, c.targets = out, targets
	if !c.opts.countOps { // (countOps: every instruction on its own, for cross-checks)
		fuse(prog, c.p.tables)
	}
	return prog
}

// block compiles a block: opSteps, then its statements. Statements that
// compile to nothing (an empty block, an expression statement of a
// variable) are dropped; the step check reports the first statement that
// is not (or the innermost loop, inside one).
func (c *compiler) block(b *ir.Block) {
	at := c.emitOp(instr{op: opSteps, x: uint32(len(b.Stmts))})
	var pos ir.Pos
	first := true
	for _, s := range b.Stmts {
		start := c.here()
		if c.opts.countOps {
			c.emitOp(instr{op: opCount})
		}
		c.stmt(s)
		if c.opts.countOps && c.here() == start+1 {
			c.out = c.out[:start] // nothing to count
		}
		if c.here() == start || !first {
			continue
		}
		first = false
		pos = s.Position()
		if c.loopPos != nil {
			pos = *c.loopPos
		}
	}
	c.out[at].b = c.posIndex(pos)
}

func (c *compiler) here() int { return len(c.out) }

// simple emits a simple statement.
func (c *compiler) simple(cs cstmt) {
	if cs.run != nil {
		c.emitOp(instr{op: opStmt, st: cs.run})
		return
	}
	c.out = append(c.out, cs.code...)
	if cs.stops && len(cs.code) > 0 {
		c.emitOp(instr{op: opStop})
	}
}

func (c *compiler) stmt(s ir.Stmt) {
	switch s := s.(type) {
	case *ir.Block:
		if len(s.Stmts) > 0 {
			c.block(s)
		}
	case *ir.Decl:
		n := size(s.T)
		base := c.alloc(n)
		if s.Init == nil {
			c.emitOp(instr{op: opClear, d: base, x: uint32(n)})
		} else if b, ok := s.Init.(*ir.BuiltinCall); ok && b.Fn == ir.BWorkgroupUniformLoad && c.entry != nil && c.inBody {
			// workgroupUniformLoad(&R): barrier, load R, barrier.
			c.barrier(b.Pos, ir.BWorkgroupBarrier)
			c.simple(exec(c.exprTo(ir.UniformLoadValue(b), base)))
			c.barrier(b.Pos, ir.BWorkgroupBarrier)
		} else {
			c.simple(exec(c.exprTo(s.Init, base)))
		}
		c.vars[s.Name] = varInfo{base: base, n: n, t: s.T, global: c.addressed[s.Name]}
	case *ir.Assign:
		if c.entry != nil && sharedRoot(s.LHS) {
			c.simple(c.sharedAssign(s))
			return
		}
		c.simple(c.assign(s))
	case *ir.ExprStmt:
		if c.entry != nil && c.barrierStmt(s) {
			return
		}
		c.simple(exec(c.expr(s.X)))
	case *ir.If:
		c.ifStmt(s)
	case *ir.Loop:
		c.loop(s)
	case *ir.Switch:
		c.switchStmt(s)
	case *ir.Break:
		t := c.targets[len(c.targets)-1]
		t.breaks = append(t.breaks, c.emitOp(instr{op: opJmp}))
	case *ir.Continue:
		for i := len(c.targets) - 1; i >= 0; i-- {
			if t := c.targets[i]; t.loop {
				t.conts = append(t.conts, c.emitOp(instr{op: opJmp}))
				break
			}
		}
	case *ir.Return:
		c.ret(s)
	case *ir.Discard:
		c.discard(s)
	default:
		c.errorf(s.Position(), "unsupported statement %T", s)
	}
}

func (c *compiler) ret(s *ir.Return) {
	if s.Value == nil {
		c.emitOp(instr{op: opRet})
		return
	}
	ret, n := c.fn.ret, c.fn.retN
	if !c.hasCall(s.Value) {
		c.out = append(c.out, c.exprTo(s.Value, ret).code...)
		c.emitOp(instr{op: opRet})
		return
	}
	// A call may stop the invocation: compute into a temporary so that
	// the result slots never hold a partial value.
	ce := c.expr(s.Value)
	c.out = append(c.out, ce.code...)
	c.emitOp(instr{op: opStop})
	cp := instr{op: opCopyN, a: ce.loc, d: ret, x: uint32(n)}
	if n == 1 {
		cp.op = opCopy1
	}
	c.emitOp(cp)
	c.emitOp(instr{op: opRet})
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
// index operands left to right (outermost first), for a store: an
// out-of-bounds index is an rOOBWrite.
func (c *compiler) ref(e ir.Expr) cref { return c.refFor(e, rOOBWrite) }

// refFor is ref with the reason an out-of-bounds or indeterminate index
// gives (rOOBWrite for a store, rOOBRead for a load through the
// reference).
func (c *compiler) refFor(e ir.Expr, oob rkind) cref {
	switch e := e.(type) {
	case *ir.Ident:
		v, ok := c.lookup(e)
		if !ok {
			c.errorf(e.Pos, "unknown %s %s", e.Ref, e.Name)
			v = varInfo{base: c.alloc(size(e.T)), n: size(e.T), t: e.T}
		}
		return cref{off: v.base, root: v}
	case *ir.Member:
		return c.refFor(e.X, oob).plus(fieldOffset(e.X.Type(), e.Field))
	case *ir.Swizzle:
		return c.refFor(e.X, oob).plus(int32(e.Comps[0]))
	case *ir.Index:
		r := c.refFor(e.X, oob)
		esz := size(e.T)
		if lit, ok := e.Index.(*ir.Lit); ok {
			return r.plus(int32(lit.Val.Int64()) * esz)
		}
		idx := c.expr(e.Index)
		name := "?"
		if id := ir.RootIdent(e); id != nil {
			name = id.Name
		}
		bad := -c.addReason(e.Pos, oob, e, name)
		prev, prevOff := r.fn, r.off
		idcode, il := c.verified(idx.code), idx.loc
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
	cd, src := c.verified(ce.code), ce.loc
	stops := r.stops || ce.stops
	return cstmt{run: func(fr *frame) ctl {
		off, bad := refFn(fr)
		sl := fr.s
		copy(sl[tmp:tmp+n], sl[off:off+n])
		if bad != 0 {
			for i := tmp; i < tmp+n; i++ {
				sl[i].taint(bad)
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
		s[i].taint(why)
	}
}

// store evaluates the reference, then the value, then stores.
func (c *compiler) store(r cref, v cexpr, n int32) stmtFn {
	refFn, off0, root := r.fn, r.off, r.root
	cd, src := c.verified(v.code), v.loc
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

// jumpIf compiles a control-flow condition (negated when neg is set) into
// code that jumps when its value is sense and falls through otherwise; it
// returns the jumps to patch. A negation, a short-circuit or a scalar
// comparison is branched on without materializing its bool. Reading an
// indeterminate condition poisons the rest of the invocation (reason r).
func (c *compiler) jumpIf(e ir.Expr, r int32, neg, sense bool) []int {
	switch e := e.(type) {
	case *ir.Unary:
		if e.Op == ir.OpNot {
			return c.jumpIf(e.X, r, !neg, sense)
		}
	case *ir.Binary:
		switch cls := e.Op.Info().Class; {
		case e.Op == ir.OpLogAnd || e.Op == ir.OpLogOr:
			// !(x && y) is !x || !y, and !(x || y) is !x && !y.
			if orLike := (e.Op == ir.OpLogOr) != neg; orLike == sense {
				// x || y jumps when either is true; x && y when either
				// is false.
				return append(c.jumpIf(e.X, r, neg, sense), c.jumpIf(e.Y, r, neg, sense)...)
			}
			skip := c.jumpIf(e.X, r, neg, !sense)
			out := c.jumpIf(e.Y, r, neg, sense)
			c.patch(skip, c.here())
			return out
		case (cls == ir.ClassEquality || cls == ir.ClassOrder) && e.X.Type().IsScalar() && e.X.Type().Kind != ir.KindF16:
			// (An f16 comparison is computed, then branched on as a
			// bool: the branch instructions read f32 or integer bits.)
			// Jump when the value is sense: when the value negated
			// once more (for a true sense) is false.
			return []int{c.branchCompare(e, r, neg != sense)}
		}
	}
	ce := c.expr(e)
	c.out = append(c.out, ce.code...)
	if ce.stops {
		c.emitOp(instr{op: opStop})
	}
	x := uint32(0)
	if neg != sense {
		x = 1
	}
	return []int{c.emitOp(instr{op: opBrBool, a: ce.loc, c: r, x: x})}
}

// negated maps a comparison to its negation (on exact, non-NaN operands).
var negated = map[ir.BinaryOp]ir.BinaryOp{
	ir.OpEq: ir.OpNe, ir.OpNe: ir.OpEq, ir.OpLt: ir.OpGe, ir.OpGe: ir.OpLt, ir.OpLe: ir.OpGt, ir.OpGt: ir.OpLe,
}

// branchCompare emits a scalar comparison (negated when neg is set) that
// jumps when it is false, and returns the jump.
func (c *compiler) branchCompare(e *ir.Binary, r int32, neg bool) int {
	ops := c.operands(e.X, e.Y)
	c.out = append(c.out, seq(ops)...)
	if anyStops(ops...) {
		c.emitOp(instr{op: opStop})
	}
	xl, yl := ops[0].loc, ops[1].loc
	op := e.Op
	if neg {
		op = negated[op] // the operands are finite whenever it matters
	}
	kind := e.X.Type().Kind
	if kind == ir.KindF32 {
		site := c.site(e.Pos, e, "correct result")
		k := cmpKernel(e.Op)
		slow := func(fr *frame) {
			v := evalCmp(site, k, fr.s[xl], fr.s[yl])
			cb := (v.bits != 0) != neg
			if v.why < 0 {
				var stop bool
				if cb, stop = fr.fork2(r, fr.brPC, v.why, cb); stop {
					return
				}
			}
			fr.cb = cb
		}
		return c.emitOp(instr{op: opBrF, a: xl, b: yl, c: r, x: uint32(op), fn: slow})
	}
	x := uint32(0)
	if kind == ir.KindI32 {
		x = 1 << 31
	}
	if k, ok := c.intConst(ops[1]); ok && !c.opts.countOps { // (countOps: the general branch, for cross-checks)
		return c.emitOp(instr{op: brOps[op] - opBrEq + opBrEqK, a: xl, b: int32(x), c: r, x: k ^ x})
	}
	return c.emitOp(instr{op: brOps[op], a: xl, b: yl, c: r, x: x})
}

// brOps are the branches on integer comparisons.
var brOps = map[ir.BinaryOp]opcode{ir.OpEq: opBrEq, ir.OpNe: opBrNe, ir.OpLt: opBrLt, ir.OpLe: opBrLe, ir.OpGt: opBrGt, ir.OpGe: opBrGe}

// ifStmt compiles if/else: the condition jumps to the else block when
// false; the then block jumps over it.
func (c *compiler) ifStmt(s *ir.If) {
	r := c.addReason(s.Position(), rBranch, s, "")
	if len(s.Then.Stmts) == 1 && !c.opts.countOps && c.emptyBlock(s.Else) {
		if _, ok := s.Then.Stmts[0].(*ir.Break); ok {
			// if (c) { break; }: the exit test of a lowered for or while
			// counts the break statement only.
			skip := c.jumpIf(s.Cond, r, false, false)
			c.emitOp(instr{op: opAddSteps, x: 1})
			c.stmt(s.Then.Stmts[0])
			c.patch(skip, c.here())
			return
		}
	}
	toElse := c.jumpIf(s.Cond, r, false, false)
	c.block(s.Then)
	end := c.emitOp(instr{op: opJmp})
	c.patch(toElse, c.here())
	c.block(s.Else)
	c.patch([]int{end}, c.here())
}

// emptyBlock reports whether b compiles to no statements (compiling it
// aside and dropping the result).
func (c *compiler) emptyBlock(b *ir.Block) bool {
	if len(b.Stmts) == 0 {
		return true
	}
	out, targets := c.out, c.targets
	c.out = nil
	c.targets = append([]*target(nil), targets...)
	for i, t := range c.targets {
		c.targets[i] = &target{loop: t.loop}
	}
	c.block(b)
	empty := len(c.out) == 1 // opSteps alone
	c.out, c.targets = out, targets
	return empty
}

// loop compiles the one loop form (WGSL #loop-statement): body, then
// continuing (also after continue), then break-if. Each iteration is a
// step.
func (c *compiler) loop(s *ir.Loop) {
	outer := c.loopPos
	c.loopPos = &s.Pos
	t := &target{loop: true}
	c.targets = append(c.targets, t)
	head := c.emitOp(instr{op: opLoopStep, b: c.posIndex(s.Pos)})
	c.block(s.Body)
	cont := c.here()
	c.block(s.Continuing)
	if c.here() == cont+1 {
		c.out = c.out[:cont] // no statements: not entered
	}
	c.loopPos = outer
	var exits []int
	if s.BreakIf != nil {
		exits = c.jumpIf(s.BreakIf, c.addReason(s.Position(), rBranch, s, ""), false, true)
	}
	// The back edge counts the next iteration's step itself.
	c.emitOp(instr{op: opLoopBack, b: c.out[head].b, d: int32(head + 1)})
	c.targets = c.targets[:len(c.targets)-1]
	c.patch(t.conts, cont)
	c.patch(append(exits, t.breaks...), c.here())
}

// switchStmt compiles a switch (WGSL #switch-statement): the first clause
// holding the selector's value runs, else the default clause; no
// fall-through.
func (c *compiler) switchStmt(s *ir.Switch) {
	sel := c.expr(s.Selector)
	c.out = append(c.out, sel.code...)
	if sel.stops {
		c.emitOp(instr{op: opStop})
	}
	r := c.addReason(s.Pos, rBranch, s, "")
	tbl := int32(len(c.p.tables))
	c.p.tables = append(c.p.tables, nil)
	c.emitOp(instr{op: opSwitch, a: sel.loc, b: tbl, c: r})
	t := &target{}
	c.targets = append(c.targets, t)
	var table []uint32
	def := -1
	for _, cs := range s.Cases {
		start := c.here()
		if len(cs.Body.Stmts) > 0 {
			c.block(cs.Body)
		}
		t.breaks = append(t.breaks, c.emitOp(instr{op: opJmp}))
		for _, v := range cs.Values {
			table = append(table, v.Bits, uint32(start))
		}
		if cs.Default {
			def = start
		}
	}
	c.targets = c.targets[:len(c.targets)-1]
	end := c.here()
	if def < 0 {
		def = end
	}
	c.p.tables[tbl] = append(table, uint32(def))
	c.patch(t.breaks, end)
}
