package gen

import (
	"github.com/gpudiff/gpudiff/ir"
)

// Expression generation. expr(t, d) returns an expression of exactly type
// t whose tree is at most d levels deep. Well-typed by construction: each
// kind below only chooses operand types its typing rule accepts. Two
// further rules keep every expression valid and exact on a GPU:
//
//   - no operator, builtin or conversion is applied to const-expressions
//     only (WGSL {#const-expr}: overflow, a zero divisor, a shift ≥ 32 or
//     an out-of-range index in a const-expression is a shader-creation
//     error): one operand is always run-time (nonConst); constant
//     divisors are non-zero literals, constant shift counts are < 32 and
//     constant indices are in range;
//   - f32 values stay in the exact domain (see FloatBound).

const (
	kLeaf = iota
	kLit
	kUnary
	kBinary
	kSelect
	kCall
	kBuiltin
	kConvert
	kConstruct
	kAccess
	numKinds
)

func (c *fnGen) expr(t *ir.Type, d int) ir.Expr {
	if d <= 0 {
		return c.leaf(t)
	}
	w := c.g.prof.Expr
	var ws [numKinds]int
	ws[kLeaf], ws[kLit] = w.Leaf, w.Lit
	sv := t.IsScalar() || t.Kind == ir.KindVec
	if sv {
		ws[kUnary], ws[kBinary], ws[kSelect], ws[kBuiltin], ws[kConvert] = w.Unary, w.Binary, w.Select, w.Builtin, w.Convert
		if t.Kind == ir.KindVec && t.Elem.Kind == ir.KindBool {
			ws[kBuiltin] = 0
		}
	}
	if !t.IsScalar() {
		ws[kConstruct] = w.Construct
	}
	ws[kAccess] = w.Access
	if w.Call > 0 && len(c.callees(t)) > 0 {
		ws[kCall] = w.Call
	}
	var e ir.Expr
	switch c.r.weighted(ws[:]...) {
	case kLit:
		return lit(c.g.litValue(t))
	case kUnary:
		e = c.unary(t, d)
	case kBinary:
		e = c.binary(t, d)
	case kSelect:
		e = c.selectExpr(t, d)
	case kCall:
		e = c.callExpr(t)
	case kBuiltin:
		e = c.builtinExpr(t, d)
	case kConvert:
		e = c.convertExpr(t, d)
	case kConstruct:
		e = c.constructExpr(t, d)
	case kAccess:
		e = c.access(t, d)
	}
	if e == nil {
		e = c.leaf(t)
	}
	return e
}

// leaf returns a read of a variable (or part of one) of type t, or a
// literal.
func (c *fnGen) leaf(t *ir.Type) ir.Expr {
	if !c.r.chance(20) {
		if e := c.readPlace(t); e != nil {
			return e
		}
	}
	return lit(c.g.litValue(t))
}

// nonConst returns e, or a run-time expression of e's type when e is a
// const-expression.
func (c *fnGen) nonConst(e ir.Expr) ir.Expr {
	if isConst(e) {
		return c.runtime(e.Type())
	}
	return e
}

// runtime returns a run-time (never const) expression of type t: a read
// of a variable of type t, or one built from a run-time scalar (every
// program has the scalar global g0).
func (c *fnGen) runtime(t *ir.Type) ir.Expr {
	if e := c.readPlace(t); e != nil {
		return e
	}
	switch t.Kind {
	case ir.KindVec:
		return construct(t, c.runtime(t.Elem))
	case ir.KindStruct:
		args := make([]ir.Expr, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			if i == 0 {
				args[i] = c.runtime(f.Type)
			} else {
				args[i] = lit(c.g.litValue(f.Type))
			}
		}
		return construct(t, args...)
	case ir.KindArray:
		args := make([]ir.Expr, t.Len)
		for i := range args {
			if i == 0 {
				args[i] = c.runtime(t.Elem)
			} else {
				args[i] = lit(c.g.litValue(t.Elem))
			}
		}
		return construct(t, args...)
	}
	s := c.readGoal(func(u *ir.Type) bool { return u.IsScalar() }, false, 0)
	if s == nil {
		panic("gen: no run-time scalar in scope (g0 is missing)")
	}
	return convertScalar(s, t)
}

func (c *fnGen) unary(t *ir.Type, d int) ir.Expr {
	var op ir.UnaryOp
	switch t.Scalar().Kind {
	case ir.KindBool:
		op = ir.OpNot
	case ir.KindI32:
		op = []ir.UnaryOp{ir.OpNeg, ir.OpCompl}[c.r.intn(2)]
	case ir.KindU32:
		op = ir.OpCompl
	case ir.KindF32:
		op = ir.OpNeg
	}
	return un(op, c.nonConst(c.expr(t, d-1)))
}

var (
	arithOps   = []ir.BinaryOp{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv, ir.OpRem}
	bitwiseOps = []ir.BinaryOp{ir.OpAnd, ir.OpOr, ir.OpXor}
	shiftOps   = []ir.BinaryOp{ir.OpShl, ir.OpShr}
	orderOps   = []ir.BinaryOp{ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe, ir.OpEq, ir.OpNe}
	eqOps      = []ir.BinaryOp{ir.OpEq, ir.OpNe}
)

func (c *fnGen) binary(t *ir.Type, d int) ir.Expr {
	switch t.Scalar().Kind {
	case ir.KindBool:
		return c.boolBinary(t, d)
	case ir.KindF32:
		return c.floatBinary(t, d)
	}
	return c.intBinary(t, d)
}

// intBinary: i32/u32 (vector) arithmetic, bitwise and shift operators.
// Every run-time integer operation is defined in WGSL (wrapping, x/0 = x,
// x%0 = 0, shift counts modulo 32; WGSL {#arithmetic-expr}, {#bit-expr}).
func (c *fnGen) intBinary(t *ir.Type, d int) ir.Expr {
	switch c.r.weighted(6, 3, 2) {
	case 1:
		op := bitwiseOps[c.r.intn(len(bitwiseOps))]
		x, y := c.expr(t, d-1), c.expr(t, d-1)
		if isConst(x) && isConst(y) {
			x = c.runtime(t)
		}
		return bin(op, x, y)
	case 2:
		op := shiftOps[c.r.intn(len(shiftOps))]
		x, y := c.expr(t, d-1), c.expr(t.WithScalar(ir.U32), d-1)
		if isConst(y) {
			y = lit(c.g.smallLit(y.Type(), 0, 31))
			x = c.nonConst(x)
		}
		return bin(op, x, y)
	}
	op := arithOps[c.r.intn(len(arithOps))]
	xt, yt := t, t
	if t.Kind == ir.KindVec && c.r.chance(20) {
		if c.r.chance(50) {
			xt = t.Elem
		} else {
			yt = t.Elem
		}
	}
	x, y := c.expr(xt, d-1), c.expr(yt, d-1)
	if op == ir.OpDiv || op == ir.OpRem {
		if isConst(y) {
			y = lit(c.nonZeroLit(yt))
			x = c.nonConst(x)
		}
	} else if isConst(x) && isConst(y) {
		x = c.runtime(xt)
	}
	return bin(op, x, y)
}

// nonZeroLit is a constant of integer scalar/vector type t with no zero
// component (a const divisor may not be zero).
func (c *fnGen) nonZeroLit(t *ir.Type) ir.Value {
	v := c.g.litValue(t)
	fix := func(s *ir.Value) {
		if s.Bits == 0 {
			*s = scalarValue(s.Type, int64(c.r.between(1, 7)))
		}
	}
	if v.Type.Kind == ir.KindVec {
		for i := range v.Elems {
			fix(&v.Elems[i])
		}
	} else {
		fix(&v)
	}
	return v
}

// floatBinary keeps the exact domain (see FloatBound).
func (c *fnGen) floatBinary(t *ir.Type, d int) ir.Expr {
	switch c.r.weighted(6, 3, 1) {
	case 1: // a * b with both operands clamped to ±2^11
		x, y := c.expr(t, d-1), c.expr(t, d-1)
		if isConst(x) && isConst(y) {
			x = c.runtime(t)
		}
		return bin(ir.OpMul, c.mulOperand(x), c.mulOperand(y))
	case 2: // floor(a / 2^k) or trunc(a / 2^k)
		x := c.nonConst(c.expr(t, d-1))
		k := c.r.between(1, 4)
		q := bin(ir.OpDiv, x, lit(ir.F32Val(float32(int(1)<<k))))
		return builtin([]ir.Builtin{ir.BFloor, ir.BTrunc}[c.r.intn(2)], q)
	}
	op := []ir.BinaryOp{ir.OpAdd, ir.OpSub}[c.r.intn(2)]
	x, y := c.expr(t, d-1), c.expr(t, d-1)
	if isConst(x) && isConst(y) {
		x = c.runtime(t)
	}
	return fclamp(bin(op, x, y))
}

// mulOperand bounds an f32 multiplication operand to ±2^11: a constant is
// replaced by a small one, anything else is clamped.
func (c *fnGen) mulOperand(e ir.Expr) ir.Expr {
	if isConst(e) {
		return lit(c.g.smallLit(e.Type(), -64, 64))
	}
	t := e.Type()
	return builtin(ir.BClamp, e, lit(splat(t, -mulBound)), lit(splat(t, mulBound)))
}

// boolBinary: comparisons (scalar or component-wise), && / || (with a
// helper call on the right: the effectful short-circuit ir.Normalize
// lowers to if), and & | == != on bools.
func (c *fnGen) boolBinary(t *ir.Type, d int) ir.Expr {
	scalar := t.Kind == ir.KindBool
	logicW := 0
	if scalar {
		logicW = 4
	}
	switch c.r.weighted(6, logicW, 2) {
	case 1:
		op := []ir.BinaryOp{ir.OpLogAnd, ir.OpLogOr}[c.r.intn(2)]
		x := c.expr(ir.Bool, d-1)
		var y ir.Expr
		if c.r.chance(c.g.prof.Expr.SCCall) {
			y = c.callBool(d)
		}
		if y == nil {
			y = c.expr(ir.Bool, d-1)
		}
		if isConst(x) && isConst(y) {
			x = c.runtime(ir.Bool)
		}
		return bin(op, x, y)
	case 2:
		op := []ir.BinaryOp{ir.OpAnd, ir.OpOr, ir.OpEq, ir.OpNe}[c.r.intn(4)]
		x, y := c.expr(t, d-1), c.expr(t, d-1)
		if isConst(x) && isConst(y) {
			x = c.runtime(t)
		}
		return bin(op, x, y)
	}
	ot := t.WithScalar(c.g.scalarType())
	ops := orderOps
	if ot.Scalar().Kind == ir.KindBool {
		ops = eqOps
	}
	op := ops[c.r.intn(len(ops))]
	x, y := c.expr(ot, d-1), c.expr(ot, d-1)
	if isConst(x) && isConst(y) {
		x = c.runtime(ot)
	}
	return bin(op, x, y)
}

// callBool returns a bool expression that calls a helper: the call itself
// when it returns bool, else a comparison of a scalar result; nil when no
// helper fits.
func (c *fnGen) callBool(d int) ir.Expr {
	var hs []*helper
	for _, h := range c.callees(nil) {
		if h.f.Result.IsScalar() {
			hs = append(hs, h)
		}
	}
	if len(hs) == 0 {
		return nil
	}
	call := c.call(c.pickCallee(hs))
	if call == nil {
		return nil
	}
	if call.T.Kind == ir.KindBool {
		return call
	}
	ops := orderOps
	return bin(ops[c.r.intn(len(ops))], call, c.expr(call.T, d-1))
}

// selectExpr: select(f, t, cond) on scalars and vectors (WGSL
// {#select-builtin}); a vector may have a vector condition; an arm may be
// a call.
func (c *fnGen) selectExpr(t *ir.Type, d int) ir.Expr {
	f, tr := c.expr(t, d-1), c.expr(t, d-1)
	if c.r.chance(30) {
		if call := c.callExpr(t); call != nil {
			if c.r.chance(50) {
				f = call
			} else {
				tr = call
			}
		}
	}
	ct := ir.Bool
	if t.Kind == ir.KindVec && c.r.chance(30) {
		ct = ir.Vec(t.Len, ir.Bool)
	}
	cond := c.expr(ct, d-1)
	if isConst(f) && isConst(tr) && isConst(cond) {
		cond = c.runtime(ct)
	}
	return &ir.Select{False: f, True: tr, Cond: cond, T: t}
}

// builtinExpr: the exact builtins only (WGSL {#concrete-float-accuracy}
// "correctly rounded"/exact for abs, min, max, clamp, sign, floor, ceil,
// round, trunc, step; integer builtins are exact).
func (c *fnGen) builtinExpr(t *ir.Type, d int) ir.Expr {
	r := c.r
	if t.Kind == ir.KindBool {
		vt := ir.Vec(r.between(2, 4), ir.Bool)
		return builtin([]ir.Builtin{ir.BAll, ir.BAny}[r.intn(2)], c.nonConst(c.expr(vt, d-1)))
	}
	s := t.Scalar().Kind
	x := func() ir.Expr { return c.nonConst(c.expr(t, d-1)) }
	isF, isI := s == ir.KindF32, s == ir.KindI32
	isInt := s == ir.KindI32 || s == ir.KindU32
	signW, floatW, intW := 0, 0, 0
	if isF || isI {
		signW = 1
	}
	if isF {
		floatW = 4
	}
	if isInt {
		intW = 3
	}
	packW := 0
	if t == ir.U32 || t.Kind == ir.KindU32 {
		packW = c.g.prof.Expr.Pack
	}
	switch r.weighted(2, 4, 2, signW, floatW, intW, packW) {
	case 0:
		return builtin(ir.BAbs, x())
	case 1:
		a, b := c.expr(t, d-1), c.expr(t, d-1)
		if isConst(a) && isConst(b) {
			a = c.runtime(t)
		}
		return builtin([]ir.Builtin{ir.BMin, ir.BMax}[r.intn(2)], a, b)
	case 2:
		lo, hi := c.boundsPair(t)
		return builtin(ir.BClamp, x(), lit(lo), lit(hi))
	case 3:
		return builtin(ir.BSign, x())
	case 4:
		if r.chance(20) {
			edge := c.expr(t, d-1)
			return builtin(ir.BStep, edge, x())
		}
		return builtin([]ir.Builtin{ir.BFloor, ir.BCeil, ir.BRound, ir.BTrunc}[r.intn(4)], x())
	case 5:
		switch r.intn(6) {
		case 4:
			o, n := c.bitRange()
			return builtin(ir.BExtractBits, x(), lit(ir.U32Val(o)), lit(ir.U32Val(n)))
		case 5:
			o, n := c.bitRange()
			return builtin(ir.BInsertBits, x(), c.expr(t, d-1), lit(ir.U32Val(o)), lit(ir.U32Val(n)))
		default:
			fns := []ir.Builtin{ir.BCountOneBits, ir.BReverseBits, ir.BFirstLeadingBit, ir.BFirstTrailingBit}
			return builtin(fns[r.intn(4)], x())
		}
	case 6:
		return c.packRoundTrip(x())
	}
	return nil
}

// packRoundTrip returns a data packing builtin applied to its unpack of
// x, a u32 (ExprWeights.Pack; WGSL #pack-builtin-functions,
// #unpack-builtin-functions), which every conforming implementation
// computes exactly:
//
//	pack4x8unorm(unpack4x8unorm(x)) == x, and pack2x16unorm likewise: the
//	  unpacked k / 255 (k / 65535) scales back to within far less than
//	  0.5 of k, which floor(0.5 + …) rounds to k;
//	pack4x8snorm(unpack4x8snorm(x)), pack2x16snorm likewise: x with each
//	  most negative byte (halfword) -128 (-32768) made -127 (-32767), the
//	  unpack clamping k / 127 to -1;
//	pack2x16float(unpack2x16float((x & 0x3fff3fff) | 0x04000400)): each
//	  half a positive normal binary16 (its exponent odd, 1 to 15: no
//	  subnormal an implementation may flush, no infinity, no NaN) that
//	  f32 holds exactly and converts back exactly;
//	pack4xI8(unpack4xI8(x)) == x, pack4xU8(unpack4xU8(x)) == x and their
//	  Clamp forms (WGSL #pack4xI8-builtin … #unpack4xU8-builtin, the
//	  language extension packed_4x8_integer_dot_product): each byte is
//	  extended to a component and truncated back, and a component of an
//	  unpack is within the Clamp bounds. They need the language
//	  extension: naga 0.19 declares it missing (harness.NeedLanguageFeature).
func (c *fnGen) packRoundTrip(x ir.Expr) ir.Expr {
	pairs := [][2]ir.Builtin{
		{ir.BPack4x8Unorm, ir.BUnpack4x8Unorm}, {ir.BPack4x8Snorm, ir.BUnpack4x8Snorm},
		{ir.BPack2x16Unorm, ir.BUnpack2x16Unorm}, {ir.BPack2x16Snorm, ir.BUnpack2x16Snorm},
		{ir.BPack2x16Float, ir.BUnpack2x16Float},
		{ir.BPack4xI8, ir.BUnpack4xI8}, {ir.BPack4xU8, ir.BUnpack4xU8},
		{ir.BPack4xI8Clamp, ir.BUnpack4xI8}, {ir.BPack4xU8Clamp, ir.BUnpack4xU8},
	}
	p := pairs[c.r.intn(len(pairs))]
	if p[0] == ir.BPack2x16Float {
		x = bin(ir.OpOr, bin(ir.OpAnd, x, lit(ir.U32Val(0x3fff3fff))), lit(ir.U32Val(0x04000400)))
	}
	return builtin(p[0], builtin(p[1], x))
}

// boundsPair returns constant clamp bounds lo ≤ hi (component-wise) of
// scalar or vector type t (WGSL {#clamp}: with lo > hi the result is
// implementation-defined).
func (c *fnGen) boundsPair(t *ir.Type) (ir.Value, ir.Value) {
	lo, hi := c.g.litValue(t), c.g.litValue(t)
	order := func(a, b *ir.Value) {
		less := false
		switch a.Type.Kind {
		case ir.KindI32:
			less = b.I32() < a.I32()
		case ir.KindU32:
			less = b.U32() < a.U32()
		case ir.KindF32:
			less = b.F32() < a.F32()
		}
		if less {
			*a, *b = *b, *a
		}
	}
	if t.Kind == ir.KindVec {
		for i := range lo.Elems {
			order(&lo.Elems[i], &hi.Elems[i])
		}
	} else {
		order(&lo, &hi)
	}
	return lo, hi
}

// bitRange returns offset and count with offset + count ≤ 32 (a const
// overflow is a shader-creation error for extractBits/insertBits).
func (c *fnGen) bitRange() (uint32, uint32) {
	o := c.r.between(0, 31)
	n := c.r.between(0, 32-o)
	return uint32(o), uint32(n)
}

// convertExpr converts from another scalar kind of the same shape (and,
// for i32/u32, sometimes bitcasts).
func (c *fnGen) convertExpr(t *ir.Type, d int) ir.Expr {
	s := t.Scalar()
	if s.IsInteger() && c.r.chance(20) {
		other := ir.U32
		if s.Kind == ir.KindU32 {
			other = ir.I32
		}
		return &ir.Bitcast{T: t, X: c.nonConst(c.expr(t.WithScalar(other), d-1))}
	}
	from := c.g.scalarType()
	if from.Kind == s.Kind {
		return nil
	}
	x := c.nonConst(c.expr(t.WithScalar(from), d-1))
	return convertScalar(x, s)
}

// constructExpr builds a vector (splat, or scalars and sub-vectors whose
// widths sum to N), a struct or an array from generated parts.
func (c *fnGen) constructExpr(t *ir.Type, d int) ir.Expr {
	switch t.Kind {
	case ir.KindVec:
		if c.r.chance(25) {
			return construct(t, c.expr(t.Elem, d-1))
		}
		var args []ir.Expr
		for left := t.Len; left > 0; {
			w := 1
			if left > 1 && c.r.chance(40) {
				w = c.r.between(2, left)
			}
			if w == 1 {
				args = append(args, c.expr(t.Elem, d-1))
			} else {
				args = append(args, c.expr(ir.Vec(w, t.Elem), d-1))
			}
			left -= w
		}
		return construct(t, args...)
	case ir.KindStruct:
		args := make([]ir.Expr, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			args[i] = c.expr(f.Type, d-1)
		}
		return construct(t, args...)
	case ir.KindArray:
		args := make([]ir.Expr, t.Len)
		for i := range args {
			args[i] = c.expr(t.Elem, d-1)
		}
		return construct(t, args...)
	}
	return nil
}

// access reads a part of a computed composite: a component or swizzle of
// a vector, a member of a struct, an element of an array.
func (c *fnGen) access(t *ir.Type, d int) ir.Expr {
	var structs []*ir.StructDecl
	for _, s := range c.g.m.Structs {
		for _, f := range s.Fields {
			if ir.Identical(f.Type, t) {
				structs = append(structs, s)
				break
			}
		}
	}
	vecW := 0
	if t.IsScalar() || t.Kind == ir.KindVec {
		vecW = 4
	}
	structW := 0
	if len(structs) > 0 {
		structW = 2
	}
	switch c.r.weighted(vecW, structW, 2) {
	case 0:
		n := c.r.between(2, 4)
		src := c.expr(ir.Vec(n, t.Scalar()), d-1)
		if t.Kind == ir.KindVec {
			comps := make([]uint8, t.Len)
			for i := range comps {
				comps[i] = uint8(c.r.intn(n))
			}
			return swizzle(src, comps...)
		}
		if c.r.chance(50) {
			return swizzle(src, uint8(c.r.intn(n)))
		}
		return index(src, c.index(n))
	case 1:
		s := structs[c.r.intn(len(structs))]
		var fields []int
		for i, f := range s.Fields {
			if ir.Identical(f.Type, t) {
				fields = append(fields, i)
			}
		}
		return member(c.expr(ir.StructType(s), d-1), fields[c.r.intn(len(fields))])
	}
	n := c.r.between(1, 4)
	return index(c.expr(ir.ArrayOf(t, n), d-1), c.index(n))
}

// index returns an in-range index for a vector or array of n elements: a
// constant in [0, n), or a run-time u32 reduced as e % n or min(e, n-1)
// (a run-time out-of-bounds index yields an indeterminate value, WGSL
// {#array-access-expr}). Indices inside a run-time index are constant.
func (c *fnGen) index(n int) ir.Expr {
	if n > 1 && c.inIndex == 0 && c.r.chance(50) {
		c.inIndex++
		e := c.expr(ir.U32, 1)
		c.inIndex--
		if !isConst(e) {
			if c.r.chance(50) {
				return bin(ir.OpRem, e, lit(ir.U32Val(uint32(n))))
			}
			return builtin(ir.BMin, e, lit(ir.U32Val(uint32(n-1))))
		}
	}
	k := c.r.intn(n)
	if c.r.chance(50) {
		return lit(ir.I32Val(int32(k)))
	}
	return lit(ir.U32Val(uint32(k)))
}
