package interp

import (
	"github.com/gpudiff/gpudiff/ir"
	"math"
)

// seq concatenates the code of operands, in order, and then ops.
func seq(operands []cexpr, ops ...exprFn) code {
	var out code
	for _, o := range operands {
		out = append(out, o.code...)
	}
	for _, f := range ops {
		out = append(out, fnInstr(f))
	}
	return out
}

// cexpr is a compiled expression: after code runs (it is empty when the
// value is already in place: a constant, a variable, or a part of either),
// the value is in slots [loc, loc+n).
type cexpr struct {
	code code
	loc  int32
	n    int32
	// global reports that the slots belong to a private global, which a
	// user call evaluated later in the same expression may change.
	global bool
	// stops reports that evaluation may stop the invocation (a user call,
	// or a builtin the reference cannot execute).
	stops bool
}

// expr compiles e with its result anywhere.
func (c *compiler) expr(e ir.Expr) cexpr { return c.compileExpr(e, -1) }

// exprTo compiles e with its result in slots starting at dst.
func (c *compiler) exprTo(e ir.Expr, dst int32) cexpr { return c.compileExpr(e, dst) }

func (c *compiler) compileExpr(e ir.Expr, dst int32) cexpr {
	var ce cexpr
	if c.entry != nil {
		if ce, ok := c.sharedExpr(e, dst); ok {
			return c.into(ce, dst)
		}
	} else if ce, ok := c.bindingExpr(e, dst); ok { // render.go
		return c.into(ce, dst)
	}
	switch e := e.(type) {
	case *ir.Lit:
		ce = cexpr{loc: c.constant(e.Pos, e, e.Val), n: size(e.Val.Type)}
	case *ir.Ident:
		v, ok := c.lookup(e)
		if !ok {
			c.errorf(e.Pos, "unknown %s %s", e.Ref, e.Name)
			return c.dummy(e.T, dst)
		}
		ce = cexpr{loc: v.base, n: v.n, global: v.global}
	case *ir.Member:
		x := c.expr(e.X)
		ce = cexpr{code: x.code, loc: x.loc + fieldOffset(e.X.Type(), e.Field), n: size(e.T), global: x.global, stops: x.stops}
	case *ir.Swizzle:
		ce = c.swizzle(e, dst)
	case *ir.Index:
		ce = c.index(e, dst)
	case *ir.Unary:
		ce = c.unary(e, c.expr(e.X), dst)
	case *ir.Binary:
		if e.Op == ir.OpLogAnd || e.Op == ir.OpLogOr {
			ce = c.logical(e, dst)
		} else {
			x, y := e.X, e.Y
			if !c.opts.countOps && !x.Type().IsMat() && !y.Type().IsMat() {
				// Read in place, broadcast. Not beside a matrix: the
				// products read every component of their vector operand.
				x, y = splatArg(x), splatArg(y)
			}
			ops := c.operands(x, y)
			ce = c.binary(e, e.Op, ops[0], ops[1], dst)
			if why := c.reassociationOverflow(e); why != 0 {
				// (x op c1) op c2 where c1 op c2 overflows f32: an
				// implementation may reassociate the constants
				// (#reassociation-and-fusion) and compute an infinity
				// (Mesa's NIR folds them): the result is indeterminate.
				loc, n := ce.loc, ce.n
				ce.code = append(ce.code, c.emit(func(fr *frame) {
					for j := int32(0); j < n; j++ {
						fr.s[loc+j].taint(why)
					}
				})...)
			}
		}
	case *ir.Select:
		ce = c.selectExpr(e, dst)
	case *ir.Call:
		ce = c.call(e, dst)
	case *ir.BuiltinCall:
		ce = c.builtin(e, dst)
	case *ir.TextureCall:
		ce = c.textureCall(e, dst)
	case *ir.Construct:
		ce = c.construct(e, dst)
	case *ir.Convert:
		ce = c.convert(e, c.expr(e.X), dst)
	case *ir.Bitcast:
		ce = c.bitcast(e, c.expr(e.X), dst)
	default:
		c.errorf(e.Position(), "unsupported expression %T", e)
		return c.dummy(e.Type(), dst)
	}
	return c.into(ce, dst)
}

// splatArg returns the scalar of a vector splat T(x) of a run-time x,
// which a lane-wise operation reads as a broadcast operand instead of
// materializing the vector (the same slot in every lane); any other
// operand as it is. (Operation counting keeps the splat: it is an
// operation of the program.)
func splatArg(e ir.Expr) ir.Expr {
	if k, ok := e.(*ir.Construct); ok && k.T.Kind == ir.KindVec && len(k.Args) == 1 && k.Args[0].Type().IsScalar() {
		if _, lit := k.Args[0].(*ir.Lit); !lit {
			return k.Args[0]
		}
	}
	return e
}

// dummy stands in for an expression that failed to compile.
func (c *compiler) dummy(t *ir.Type, dst int32) cexpr {
	n := size(t)
	if dst < 0 {
		dst = c.alloc(n)
	}
	return cexpr{loc: dst, n: n}
}

// into makes ce's value land in dst (when dst ≥ 0), adding a copy.
func (c *compiler) into(ce cexpr, dst int32) cexpr {
	if dst < 0 || ce.loc == dst {
		return ce
	}
	cp := instr{op: opCopyN, a: ce.loc, d: dst, x: uint32(ce.n)}
	if ce.n == 1 {
		cp.op = opCopy1
	}
	return cexpr{code: append(seq([]cexpr{ce}), cp), loc: dst, n: ce.n, stops: ce.stops}
}

// pickDst chooses where an operation of n result slots writes: dst when
// that cannot clobber an operand before it is read, else a fresh
// temporary (and compileExpr's into copies it to dst). An elementwise
// operation reads lane i of each operand just before writing lane i, so an
// operand occupying exactly the destination is safe; any other overlap is
// not (a broadcast scalar inside the destination, a swizzle, a
// constructor's arguments).
func (c *compiler) pickDst(dst, n int32, elementwise bool, ops ...cexpr) int32 {
	if dst < 0 {
		return c.alloc(n)
	}
	for _, o := range ops {
		if o.loc < dst+n && dst < o.loc+o.n {
			if elementwise && o.loc == dst && o.n == n {
				continue
			}
			return c.alloc(n)
		}
	}
	return dst
}

// hasCall reports whether e contains a user call (memoized per node).
func (c *compiler) hasCall(e ir.Expr) bool { return e != nil && ir.HasCall(e) }

// operands compiles the operands of one operation, left to right. An
// operand that reads a private global directly is copied to a temporary
// when a later operand contains a user call, which could change the global
// before the operation reads it (WGSL #program-order: the load happens
// when the operand is evaluated).
func (c *compiler) operands(es ...ir.Expr) []cexpr {
	out := make([]cexpr, len(es))
	for i, e := range es {
		out[i] = c.expr(e)
	}
	for i := range out {
		if !out[i].global {
			continue
		}
		for _, later := range es[i+1:] {
			if c.hasCall(later) {
				out[i] = c.into(out[i], c.alloc(out[i].n))
				out[i].global = false
				break
			}
		}
	}
	return out
}

// emit is the code of an operation: its operands' code, then op (wrapped
// for operation counting when enabled).
func (c *compiler) emit(op exprFn, operands ...cexpr) code { return seq(operands, c.op(op)) }

// op wraps a freshly built operation for operation counting.
func (c *compiler) op(fn exprFn) exprFn {
	if !c.opts.countOps {
		return fn
	}
	return func(fr *frame) { fr.ops++; fn(fr) }
}

func anyStops(ops ...cexpr) bool {
	for _, o := range ops {
		if o.stops {
			return true
		}
	}
	return false
}

func (c *compiler) swizzle(e *ir.Swizzle, dst int32) cexpr {
	x := c.expr(e.X)
	if len(e.Comps) == 1 {
		return cexpr{code: x.code, loc: x.loc + int32(e.Comps[0]), n: 1, global: x.global, stops: x.stops}
	}
	n := int32(len(e.Comps))
	d := c.pickDst(dst, n, false, x)
	var comps [4]int32
	for i, k := range e.Comps {
		comps[i] = x.loc + int32(k)
	}
	fn := func(fr *frame) {
		s := fr.s
		for i := int32(0); i < n; i++ {
			s[d+i] = s[comps[i]]
		}
	}
	return cexpr{code: c.emit(fn, x), loc: d, n: n, stops: x.stops}
}

// clampIndex clamps a run-time index into [0, n) and reports whether it
// was in bounds.
func clampIndex(bits uint32, signed bool, n int32) (int32, bool) {
	if signed {
		v := int32(bits)
		switch {
		case v < 0:
			return 0, false
		case v >= n:
			return n - 1, false
		}
		return v, true
	}
	if bits >= uint32(n) {
		return n - 1, false
	}
	return int32(bits), true
}

// index compiles x[i]. A constant index (in bounds, as ir.Verify checks)
// selects slots statically. A run-time index out of bounds yields the
// clamped element marked indeterminate (WGSL #array-access-expr).
func (c *compiler) index(e *ir.Index, dst int32) cexpr {
	if c.hasCall(e.Index) && dynamicRef(e.X) {
		return c.indexThroughRef(e, dst)
	}
	x := c.expr(e.X)
	esz := size(e.T)
	if lit, ok := e.Index.(*ir.Lit); ok {
		k := int32(lit.Val.Int64())
		return cexpr{code: x.code, loc: x.loc + k*esz, n: esz, global: x.global, stops: x.stops}
	}
	idx := c.expr(e.Index)
	d := dst
	if d < 0 {
		d = c.alloc(esz)
	}
	xl, il := x.loc, idx.loc
	ln := int32(e.X.Type().Len)
	signed := e.Index.Type().Kind == ir.KindI32
	oob := -c.addReason(e.Pos, rOOBRead, e, "")
	fn := func(fr *frame) {
		s := fr.s
		is := s[il]
		k, ok := clampIndex(is.bits, signed, ln)
		src := xl + k*esz
		if esz == 1 {
			s[d] = s[src]
		} else {
			copy(s[d:d+esz], s[src:src+esz])
		}
		if !ok || is.why < 0 {
			w := oob
			if is.why < 0 {
				w = is.why
			}
			for j := int32(0); j < esz; j++ {
				s[d+j].taint(w)
			}
		}
	}
	return cexpr{code: c.emit(fn, x, idx), loc: d, n: esz, stops: x.stops || idx.stops}
}

// dynamicRef reports whether e is a reference chain (ir.IsReference)
// with a run-time index in it: compiled as a value, such a chain copies
// the element it designates when its code runs.
func dynamicRef(e ir.Expr) bool {
	if !ir.IsReference(e) {
		return false
	}
	for {
		switch x := e.(type) {
		case *ir.Index:
			if _, ok := x.Index.(*ir.Lit); !ok {
				return true
			}
			e = x.X
		case *ir.Member:
			e = x.X
		case *ir.Swizzle:
			e = x.X
		default:
			return false
		}
	}
}

// indexThroughRef compiles x[i] where x is a memory view designated with
// a run-time index (m[j][i], s[j].v[i]) and i contains a user call, which
// may write the memory x designates. WGSL evaluates x's own index
// operands first, then i, and loads only then, from the element x
// designates (WGSL #memory-views: a reference is loaded where its value is
// used, after every operand of the expression that forms it;
// #program-order): so the element is read after the call, at the
// location computed before it. Out-of-bounds indices, in x or i, make the
// value read indeterminate (WGSL #array-access-expr).
func (c *compiler) indexThroughRef(e *ir.Index, dst int32) cexpr {
	r := c.refFor(e.X, rOOBRead)
	idx := c.expr(e.Index)
	esz := size(e.T)
	d := dst
	if d < 0 {
		d = c.alloc(esz)
	}
	refFn, idcode, il := r.fn, c.verified(idx.code), idx.loc
	ln := int32(e.X.Type().Len)
	signed := e.Index.Type().Kind == ir.KindI32
	oob := -c.addReason(e.Pos, rOOBRead, e, "")
	fn := func(fr *frame) {
		base, bad := refFn(fr)
		idcode.run(fr)
		s := fr.s
		is := s[il]
		k, ok := clampIndex(is.bits, signed, ln)
		src := base + k*esz
		copy(s[d:d+esz], s[src:src+esz])
		why := bad
		if !ok {
			why = oob
		}
		if is.why < 0 {
			why = is.why
		}
		if why != 0 {
			for j := int32(0); j < esz; j++ {
				s[d+j].taint(why)
			}
		}
	}
	return cexpr{code: c.emit(fn), loc: d, n: esz, stops: r.stops || idx.stops}
}

// logical compiles && and ||. The right operand runs only when the left
// one does not decide the result; it has no effects (ir.Normalize lowers
// any && or || whose right operand has a call to an if), so a left
// operand that is indeterminate simply makes the result indeterminate.
func (c *compiler) logical(e *ir.Binary, dst int32) cexpr {
	x, y := c.expr(e.X), c.expr(e.Y)
	d := c.pickDst(dst, 1, true, x, y)
	xl, ycode, yl := x.loc, c.verified(y.code), y.loc
	decide := uint32(0) // && is decided by false
	if e.Op == ir.OpLogOr {
		decide = 1
	}
	fn := func(fr *frame) {
		a := fr.s[xl]
		if a.why < 0 || a.bits == decide {
			fr.s[d] = a
			return
		}
		ycode.run(fr)
		fr.s[d] = fr.s[yl]
	}
	return cexpr{code: c.emit(fn, x), loc: d, n: 1, stops: x.stops || y.stops}
}

// selectExpr compiles select(f, t, cond) (WGSL #select-builtin): all three
// operands are evaluated; the result has the indeterminacy of the chosen
// arm and of the condition only.
func (c *compiler) selectExpr(e *ir.Select, dst int32) cexpr {
	ops := c.operands(e.False, e.True, e.Cond)
	f, t, cd := ops[0], ops[1], ops[2]
	n := size(e.T)
	d := c.pickDst(dst, n, true, ops...)
	fl, tl, cl := f.loc, t.loc, cd.loc
	var fn exprFn
	switch {
	case e.Cond.Type().Kind == ir.KindVec:
		fn = func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				cv := s[cl+i]
				src := fl
				if cv.bits != 0 {
					src = tl
				}
				r := s[src+i]
				if cv.why < 0 {
					r.taint(cv.why)
				}
				s[d+i] = r
			}
		}
	case n == 1:
		fn = func(fr *frame) {
			s := fr.s
			cv := s[cl]
			src := fl
			if cv.bits != 0 {
				src = tl
			}
			r := s[src]
			if cv.why < 0 {
				r.taint(cv.why)
			}
			s[d] = r
		}
	default:
		fn = func(fr *frame) {
			s := fr.s
			cv := s[cl]
			src := fl
			if cv.bits != 0 {
				src = tl
			}
			copy(s[d:d+n], s[src:src+n])
			if cv.why < 0 {
				for i := int32(0); i < n; i++ {
					s[d+i].taint(cv.why)
				}
			}
		}
	}
	in := instr{op: opFn, a: fl, b: tl, c: cl, d: d, fn: fn}
	if n == 1 {
		in.op = opSel
	}
	return cexpr{code: c.emitI(in, ops...), loc: d, n: n, stops: anyStops(ops...)}
}

// call compiles a user call: arguments left to right, copied into the
// callee's parameter slots, then the callee's body; its result is copied
// out of the callee's result slots (the next call of the same function
// reuses them).
//
// A pointer argument (ir.AddrOf) is evaluated where the arguments are, to
// the view's offset and validity (its index operands then, in WGSL
// order), and passed by copy-in/copy-out: the pointee is copied into the
// parameter's slots before the body and back after it. The alias
// analysis the front end enforces (WGSL #alias-analysis) makes this
// equivalent to passing the view: while the callee runs, the pointee is
// accessed through that parameter only, or only read. A view through an
// invalid index (WGSL #out-of-bounds-access-sec) loads indeterminate
// values, and a callee that writes through it makes the whole root
// variable indeterminate, as a store through it would.
func (c *compiler) call(e *ir.Call, dst int32) cexpr {
	callee := c.funcs[e.Func]
	if callee == nil {
		c.errorf(e.Pos, "call of %s, which is not compiled (recursion?)", e.Func)
		return c.dummy(e.T, dst)
	}
	type view struct {
		at, to, n int32 // the slot holding the offset and bad reason; the parameter's slots
		root      varInfo
		write     bool
	}
	var views []view
	ops := make([]cexpr, len(e.Args))
	for i, a := range e.Args {
		ad, ok := a.(*ir.AddrOf)
		if !ok {
			ops[i] = c.expr(a)
			continue
		}
		r := c.refFor(ad.X, rOOBRead)
		at := c.alloc(1)
		refFn, off := r.fn, r.off
		fn := func(fr *frame) {
			o, bad := off, int32(0)
			if refFn != nil {
				o, bad = refFn(fr)
			}
			fr.s[at] = slot{bits: uint32(o), why: bad}
		}
		ops[i] = cexpr{code: c.emit(fn), loc: at, n: 0, stops: r.stops}
		views = append(views, view{at: at, to: callee.params[i].base, n: callee.params[i].n, root: r.root,
			write: ir.WritesThrough(callee.f, callee.f.Params[i].Name)})
	}
	for i := range ops {
		if !ops[i].global {
			continue
		}
		for _, later := range e.Args[i+1:] {
			if c.hasCall(later) {
				ops[i] = c.into(ops[i], c.alloc(ops[i].n))
				ops[i].global = false
				break
			}
		}
	}
	type move struct{ from, to, n int32 }
	var moves []move
	for i, o := range ops {
		if _, ok := e.Args[i].(*ir.AddrOf); !ok {
			moves = append(moves, move{o.loc, callee.params[i].base, o.n})
		}
	}
	retN, ret := callee.retN, callee.ret
	site := c.addReason(e.Pos, rBranch, e, "call")
	d := dst
	if retN > 0 && d < 0 {
		d = c.alloc(retN)
	}
	fn := func(fr *frame) {
		s := fr.s
		for _, m := range moves {
			if m.n == 1 {
				s[m.to] = s[m.from]
			} else {
				copy(s[m.to:m.to+m.n], s[m.from:m.from+m.n])
			}
		}
		for _, v := range views {
			at := s[v.at]
			copy(s[v.to:v.to+v.n], s[int32(at.bits):int32(at.bits)+v.n])
			if at.why != 0 {
				for j := v.to; j < v.to+v.n; j++ {
					s[j].taint(at.why)
				}
			}
		}
		if fr.fork != nil {
			fr.calls = append(fr.calls, site)
		}
		if callee.body.exec(fr) == cAbort {
			return
		}
		if fr.fork != nil {
			fr.calls = fr.calls[:len(fr.calls)-1]
		}
		for _, v := range views {
			at := s[v.at]
			switch {
			case !v.write:
			case at.why == 0:
				copy(s[int32(at.bits):int32(at.bits)+v.n], s[v.to:v.to+v.n])
			default:
				markRoot(s, v.root, at.why)
			}
		}
		if retN == 1 {
			s[d] = s[ret]
		} else if retN > 0 {
			copy(s[d:d+retN], s[ret:ret+retN])
		}
	}
	return cexpr{code: c.emit(fn, ops...), loc: d, n: retN, stops: true}
}

// construct compiles a value constructor (WGSL #value-constructor-builtin-function):
// the zero value, a splat, or the concatenation of its arguments' leaves.
// Constructors of literals are folded into constants.
func (c *compiler) construct(e *ir.Construct, dst int32) cexpr {
	n := size(e.T)
	if len(e.Args) == 0 {
		return cexpr{loc: c.constant(e.Pos, e, ir.Zero(e.T)), n: n}
	}
	splat := e.T.Kind == ir.KindVec && len(e.Args) == 1 && e.Args[0].Type().IsScalar()
	if len(e.Args) == 1 && !splat {
		return c.expr(e.Args[0]) // T(x) of a value of type T
	}
	if v, ok := foldConstruct(e); ok {
		return cexpr{loc: c.constant(e.Pos, e, v), n: n}
	}
	ops := c.operands(e.Args...)
	d := c.pickDst(dst, n, false, ops...)
	var fn exprFn
	if splat {
		src := ops[0].loc
		fn = func(fr *frame) {
			s := fr.s
			v := s[src]
			for i := int32(0); i < n; i++ {
				s[d+i] = v
			}
		}
	} else {
		type part struct{ from, n int32 }
		parts := make([]part, len(ops))
		for i, o := range ops {
			parts[i] = part{o.loc, o.n}
		}
		fn = func(fr *frame) {
			s := fr.s
			at := d
			for _, p := range parts {
				if p.n == 1 {
					s[at] = s[p.from]
				} else {
					copy(s[at:at+p.n], s[p.from:p.from+p.n])
				}
				at += p.n
			}
		}
	}
	in := instr{op: opFn, fn: fn}
	if splat {
		in.op, in.a, in.d, in.x = opSplat, ops[0].loc, d, uint32(n)
	}
	return cexpr{code: c.emitI(in, ops...), loc: d, n: n, stops: anyStops(ops...)}
}

// foldConstruct evaluates a constructor whose arguments are all literals.
func foldConstruct(e *ir.Construct) (ir.Value, bool) {
	var leaves []ir.Value
	var flat func(v ir.Value)
	flat = func(v ir.Value) {
		if v.Elems == nil && v.Type.IsScalar() {
			leaves = append(leaves, v)
			return
		}
		for _, x := range v.Elems {
			flat(x)
		}
	}
	for _, a := range e.Args {
		lit, ok := a.(*ir.Lit)
		if !ok {
			return ir.Value{}, false
		}
		flat(lit.Val)
	}
	if e.T.Kind == ir.KindVec && len(leaves) == 1 {
		for len(leaves) < e.T.Len {
			leaves = append(leaves, leaves[0])
		}
	}
	pos := 0
	var build func(t *ir.Type) ir.Value
	build = func(t *ir.Type) ir.Value {
		switch t.Kind {
		case ir.KindVec, ir.KindArray, ir.KindMat:
			es := make([]ir.Value, t.Len)
			for i := range es {
				es[i] = build(t.Elem)
			}
			return ir.CompositeVal(t, es...)
		case ir.KindStruct:
			es := make([]ir.Value, len(t.Struct.Fields))
			for i, f := range t.Struct.Fields {
				es[i] = build(f.Type)
			}
			return ir.CompositeVal(t, es...)
		}
		v := ir.ScalarVal(t, leaves[pos].Bits)
		pos++
		return v
	}
	if int32(len(leaves)) != size(e.T) {
		return ir.Value{}, false
	}
	return build(e.T), true
}

// reassociationOverflow returns the (negative) reason for (x op c1) op c2
// on f32 or f16 (op + or *, c1 and c2 literals) whose constants, combined
// first as a reassociating compiler may, overflow the type (beyond its
// largest finite value: WGSL #floating-point-rounding-and-overflow lets
// such a result be infinity); 0 otherwise.
func (c *compiler) reassociationOverflow(e *ir.Binary) int32 {
	if (e.Op != ir.OpMul && e.Op != ir.OpAdd) || e.Type() == nil || !e.Type().IsFloat() {
		return 0
	}
	k := e.Type().Kind
	inner, ok := e.X.(*ir.Binary)
	if !ok || inner.Op != e.Op {
		return 0
	}
	c1, ok1 := inner.Y.(*ir.Lit)
	c2, ok2 := e.Y.(*ir.Lit)
	if !ok1 || !ok2 || c1.Val.Type == nil || c2.Val.Type == nil || c1.Val.Type.Kind != k || c2.Val.Type.Kind != k {
		return 0
	}
	a, b := c1.Val.Float(), c2.Val.Float()
	r := a * b
	if e.Op == ir.OpAdd {
		r = a + b
	}
	if math.Abs(r) <= fmtOf(k).maxF {
		return 0
	}
	return -c.addReason(e.Pos, rReassoc, e, "")
}
