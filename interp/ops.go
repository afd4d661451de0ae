package interp

import (
	"math"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// Integer operators (WGSL #arithmetic-expr, #bit-expr, #comparison-expr).
// i32 and u32 share their bit patterns; signedness is in the kernel. The
// values are wgslsem's: wrapping + - *, x / 0 = x, x % 0 = 0,
// MIN / -1 = MIN, MIN % -1 = 0, shift counts modulo 32, >> arithmetic on
// i32 and logical on u32.

func andU(a, b uint32) uint32 { return a & b }
func orU(a, b uint32) uint32  { return a | b }
func xorU(a, b uint32) uint32 { return a ^ b }

func divI(a, b uint32) uint32 { return uint32(wgslsem.DivI32(int32(a), int32(b))) }
func remI(a, b uint32) uint32 { return uint32(wgslsem.RemI32(int32(a), int32(b))) }
func shrI(a, b uint32) uint32 { return uint32(wgslsem.Shr(int32(a), b)) }

func eqU(a, b uint32) bool { return a == b }
func neU(a, b uint32) bool { return a != b }
func ltU(a, b uint32) bool { return a < b }
func leU(a, b uint32) bool { return a <= b }
func gtU(a, b uint32) bool { return a > b }
func geU(a, b uint32) bool { return a >= b }
func ltI(a, b uint32) bool { return int32(a) < int32(b) }
func leI(a, b uint32) bool { return int32(a) <= int32(b) }
func gtI(a, b uint32) bool { return int32(a) > int32(b) }
func geI(a, b uint32) bool { return int32(a) >= int32(b) }

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// intKernel returns the kernel of an integer (or, for & | ^, bool)
// arithmetic, bitwise or shift operator.
func intKernel(op ir.BinaryOp, signed bool) func(a, b uint32) uint32 {
	switch op {
	case ir.OpAdd:
		return wgslsem.Add[uint32]
	case ir.OpSub:
		return wgslsem.Sub[uint32]
	case ir.OpMul:
		return wgslsem.Mul[uint32]
	case ir.OpDiv:
		if signed {
			return divI
		}
		return wgslsem.DivU32
	case ir.OpRem:
		if signed {
			return remI
		}
		return wgslsem.RemU32
	case ir.OpAnd:
		return andU
	case ir.OpOr:
		return orU
	case ir.OpXor:
		return xorU
	case ir.OpShl:
		return wgslsem.Shl[uint32]
	case ir.OpShr:
		if signed {
			return shrI
		}
		return wgslsem.Shr[uint32]
	}
	return nil
}

// intCompare returns the kernel of a comparison of integer or bool bits.
func intCompare(op ir.BinaryOp, signed bool) func(a, b uint32) bool {
	switch op {
	case ir.OpEq:
		return eqU
	case ir.OpNe:
		return neU
	case ir.OpLt:
		if signed {
			return ltI
		}
		return ltU
	case ir.OpLe:
		if signed {
			return leI
		}
		return leU
	case ir.OpGt:
		if signed {
			return gtI
		}
		return gtU
	case ir.OpGe:
		if signed {
			return geI
		}
		return geU
	}
	return nil
}

// binary compiles x op y for a non-short-circuit operator; node is the
// expression the operation is reported as (the Binary, or the compound
// assignment it was built from).
func (c *compiler) binary(node ir.Node, op ir.BinaryOp, x, y cexpr, dst int32) cexpr {
	var xt, yt, rt *ir.Type
	var pos ir.Pos
	switch e := node.(type) {
	case *ir.Binary:
		xt, yt, rt, pos = e.X.Type(), e.Y.Type(), e.T, e.Pos
	case *ir.Assign:
		xt, yt, pos = e.LHS.Type(), e.RHS.Type(), e.Pos
		rt = xt
	}
	if xt.IsMat() || yt.IsMat() {
		return c.matrixBinary(pos, node, op, xt, yt, rt, x, y, dst)
	}
	n := int32(rt.Width())
	sx, sy := int32(0), int32(0) // lane strides: 0 broadcasts a scalar (or a splat's scalar: splatArg)
	if xt.Kind == ir.KindVec && x.n > 1 {
		sx = 1
	}
	if yt.Kind == ir.KindVec && y.n > 1 {
		sy = 1
	}
	d := c.pickDst(dst, n, true, x, y)
	elem := xt.Scalar()
	cls := op.Info().Class
	signed := elem.Kind == ir.KindI32
	in := instr{a: x.loc, b: y.loc, d: d}
	switch {
	case elem.Kind == ir.KindF32 && (cls == ir.ClassEquality || cls == ir.ClassOrder):
		in.fn = c.f32Compare(c.site(pos, node, "correct result"), op, x, y, sx, sy, n, d)
		in.op, in.x = opCmpF, uint32(op)
	case elem.Kind == ir.KindF16 && (cls == ir.ClassEquality || cls == ir.ClassOrder):
		in.fn = c.f16Compare(c.site(pos, node, "correct result"), op, x, y, sx, sy, n, d)
		in.op = opFn
	case elem.Kind == ir.KindF16:
		in.fn = c.f16Arith(pos, node, op, x, y, sx, sy, n, d)
		in.op = opFn
	case elem.Kind == ir.KindF32:
		in.fn = c.f32Arith(pos, node, op, x, y, sx, sy, n, d)
		switch {
		case op == ir.OpAdd && n == 1:
			in.op = opAddF
		case op == ir.OpSub && n == 1:
			in.op, in.x = opAddF, 1<<31
		case op == ir.OpMul && n == 1:
			in.op = opMulF
		case op == ir.OpAdd:
			in.op, in.x = opAddFV, laneBits(n, sx, sy)
		case op == ir.OpSub:
			in.op, in.x = opAddFV, laneBits(n, sx, sy)|1<<31
		case op == ir.OpMul:
			in.op, in.x = opMulFV, laneBits(n, sx, sy)
		}
	case cls == ir.ClassEquality || cls == ir.ClassOrder:
		in.fn = intCmp(op, signed, intCompare(op, signed), x, y, sx, sy, n, d)
		in.op = intCmpOps[op]
		if signed {
			in.x = 1 << 31
		}
	default:
		in.fn = intBin(op, intKernel(op, signed), x, y, sx, sy, n, d)
		in.op = intBinOps[op]
		if signed {
			in.op = intBinOpsI[op]
		}
	}
	if n != 1 && in.op != opAddFV && in.op != opMulFV {
		in.op = opFn
	}
	if (in.op == opAddFV || in.op == opMulFV) && c.goodConst(y.loc, sy, n) {
		in.x |= goodB
	}
	if in.op == opMulFV {
		// A vector times a constant scalar power of two (v * 2.0,
		// 0.5 * v): the fast path scales exponents.
		if k, sign, ok := c.pow2Const(y, sy); ok {
			in.op, in.c, in.x = opScaleFV, k, laneBits(n, sx)|sign
		} else if k, sign, ok := c.pow2Const(x, sx); ok {
			in.op, in.a, in.c, in.x = opScaleFV, y.loc, k, laneBits(n, sy)|sign
		}
	}
	if k, ok := c.intConst(y); ok && kOps[in.op] != 0 {
		in.op, in.x, in.b = kOps[in.op], k, 0
	} else if k, ok := c.intConst(x); ok && kOps[in.op] != 0 && commutes[in.op] {
		in.op, in.x, in.a, in.b = kOps[in.op], k, y.loc, 0
	}
	return cexpr{code: c.emitI(in, x, y), loc: d, n: n, stops: x.stops || y.stops}
}

// pow2Const reports whether x is a broadcast scalar f32 constant ±2^k
// (stride 0), and returns k and its sign bit.
func (c *compiler) pow2Const(x cexpr, stride int32) (int32, uint32, bool) {
	if stride != 0 || len(x.code) != 0 || !c.konst[x.loc] || c.image[x.loc].why != 0 {
		return 0, 0, false
	}
	b := c.image[x.loc].bits
	e := int32(b >> 23 & 0xff)
	if b&0x7fffff != 0 || e == 0 || e == 0xff {
		return 0, 0, false
	}
	return e - 127, b & (1 << 31), true
}

// kOps are the instructions of scalar integer operators with a constant
// right operand; commutes, those whose constant may be the left one.
var (
	kOps = map[opcode]opcode{opAdd: opAddK, opMul: opMulK, opAnd: opAndK, opOr: opOrK, opXor: opXorK,
		opShl: opShlK, opShrU: opShrUK, opShrI: opShrIK, opRemU: opRemUK, opDivU: opDivUK}
	commutes = map[opcode]bool{opAdd: true, opMul: true, opAnd: true, opOr: true, opXor: true}
)

// intConst returns the bits of a scalar integer or bool constant operand
// (never indeterminate).
func (c *compiler) intConst(x cexpr) (uint32, bool) {
	if x.n != 1 || len(x.code) != 0 || !c.konst[x.loc] || c.image[x.loc].why != 0 {
		return 0, false
	}
	return c.image[x.loc].bits, true
}

// Instructions of scalar integer operators (opFn where there is none).
var (
	intBinOps = map[ir.BinaryOp]opcode{ir.OpAdd: opAdd, ir.OpSub: opSub, ir.OpMul: opMul, ir.OpAnd: opAnd, ir.OpOr: opOr,
		ir.OpXor: opXor, ir.OpShl: opShl, ir.OpShr: opShrU, ir.OpDiv: opDivU, ir.OpRem: opRemU}
	intBinOpsI = map[ir.BinaryOp]opcode{ir.OpAdd: opAdd, ir.OpSub: opSub, ir.OpMul: opMul, ir.OpAnd: opAnd, ir.OpOr: opOr,
		ir.OpXor: opXor, ir.OpShl: opShl, ir.OpShr: opShrI, ir.OpDiv: opDivI, ir.OpRem: opRemI}
	intCmpOps = map[ir.BinaryOp]opcode{ir.OpEq: opEq, ir.OpNe: opNe, ir.OpLt: opLt, ir.OpLe: opLe, ir.OpGt: opGt, ir.OpGe: opGe}
)

// intBin applies an integer kernel lane by lane (a scalar operand of a
// vector operation has stride 0: it is broadcast).
func intBin(op ir.BinaryOp, k func(a, b uint32) uint32, x, y cexpr, sx, sy, n, d int32) exprFn {
	xl, yl := x.loc, y.loc
	if n == 1 {
		// The common scalar operators, without the kernel call.
		switch op {
		case ir.OpAdd:
			return func(fr *frame) {
				s := fr.s
				a, b := &s[xl], &s[yl]
				s[d] = slot{bits: wgslsem.Add(a.bits, b.bits), why: firstWhy(a.why, b.why)}
			}
		case ir.OpSub:
			return func(fr *frame) {
				s := fr.s
				a, b := &s[xl], &s[yl]
				s[d] = slot{bits: wgslsem.Sub(a.bits, b.bits), why: firstWhy(a.why, b.why)}
			}
		case ir.OpMul:
			return func(fr *frame) {
				s := fr.s
				a, b := &s[xl], &s[yl]
				s[d] = slot{bits: wgslsem.Mul(a.bits, b.bits), why: firstWhy(a.why, b.why)}
			}
		case ir.OpAnd:
			return func(fr *frame) {
				s := fr.s
				a, b := &s[xl], &s[yl]
				s[d] = slot{bits: a.bits & b.bits, why: firstWhy(a.why, b.why)}
			}
		case ir.OpXor:
			return func(fr *frame) {
				s := fr.s
				a, b := &s[xl], &s[yl]
				s[d] = slot{bits: a.bits ^ b.bits, why: firstWhy(a.why, b.why)}
			}
		case ir.OpOr:
			return func(fr *frame) {
				s := fr.s
				a, b := &s[xl], &s[yl]
				s[d] = slot{bits: a.bits | b.bits, why: firstWhy(a.why, b.why)}
			}
		case ir.OpShl:
			return func(fr *frame) {
				s := fr.s
				a, b := &s[xl], &s[yl]
				s[d] = slot{bits: wgslsem.Shl(a.bits, b.bits), why: firstWhy(a.why, b.why)}
			}
		}
		return func(fr *frame) {
			s := fr.s
			a, b := &s[xl], &s[yl]
			s[d] = slot{bits: k(a.bits, b.bits), why: firstWhy(a.why, b.why)}
		}
	}
	return func(fr *frame) {
		s := fr.s
		for i := int32(0); i < n; i++ {
			a, b := s[xl+i*sx], s[yl+i*sy]
			s[d+i] = slot{bits: k(a.bits, b.bits), why: firstWhy(a.why, b.why)}
		}
	}
}

// cmpBits compares integer or bool bits: signed comparisons flip the
// sign bits (flip = 1<<31) and compare unsigned.
func cmpBits(op ir.BinaryOp, a, b uint32) bool {
	switch op {
	case ir.OpEq:
		return a == b
	case ir.OpNe:
		return a != b
	case ir.OpLt:
		return a < b
	case ir.OpLe:
		return a <= b
	case ir.OpGt:
		return a > b
	}
	return a >= b
}

func intCmp(op ir.BinaryOp, signed bool, k func(a, b uint32) bool, x, y cexpr, sx, sy, n, d int32) exprFn {
	xl, yl := x.loc, y.loc
	if n == 1 {
		flip := uint32(0)
		if signed {
			flip = 1 << 31
		}
		return func(fr *frame) {
			s := fr.s
			a, b := &s[xl], &s[yl]
			s[d] = slot{bits: b2u(cmpBits(op, a.bits^flip, b.bits^flip)), why: firstWhy(a.why, b.why)}
		}
	}
	return func(fr *frame) {
		s := fr.s
		for i := int32(0); i < n; i++ {
			a, b := s[xl+i*sx], s[yl+i*sy]
			s[d+i] = slot{bits: b2u(k(a.bits, b.bits)), why: firstWhy(a.why, b.why)}
		}
	}
}

// unary compiles -x, !x and ~x (WGSL #arithmetic-expr, #logical-expr,
// #bit-expr): integer negation wraps (-MIN = MIN); f32 and f16 negation
// flips the sign bit (exact).
func (c *compiler) unary(e *ir.Unary, x cexpr, dst int32) cexpr {
	n := int32(e.T.Width())
	d := c.pickDst(dst, n, true, x)
	xl := x.loc
	var k func(uint32) uint32
	f16 := e.T.Scalar().Kind == ir.KindF16
	switch {
	case e.Op == ir.OpNeg && e.T.Scalar().Kind == ir.KindF32:
		k = func(b uint32) uint32 { return b ^ 0x80000000 }
	case e.Op == ir.OpNeg && f16:
		k = func(b uint32) uint32 { return b ^ 0x8000 }
	case e.Op == ir.OpNeg:
		k = func(b uint32) uint32 { return uint32(wgslsem.Neg(int32(b))) }
	case e.Op == ir.OpNot:
		k = func(b uint32) uint32 { return b ^ 1 }
	default:
		k = func(b uint32) uint32 { return ^b }
	}
	fn := func(fr *frame) {
		s := fr.s
		for i := int32(0); i < n; i++ {
			a := s[xl+i]
			a.bits = k(a.bits)
			a.dropSet()
			s[d+i] = a
		}
	}
	in := instr{op: opFn, a: xl, d: d, fn: fn}
	if n == 1 && !f16 {
		switch {
		case e.Op == ir.OpNeg && e.T.Scalar().Kind == ir.KindF32:
			in.op = opNegF
		case e.Op == ir.OpNeg:
			in.op = opNeg
		case e.Op == ir.OpNot:
			in.op = opNot
		default:
			in.op = opCompl
		}
	}
	return cexpr{code: c.emitI(in, x), loc: d, n: n, stops: x.stops}
}

// convert compiles a value conversion T(x) between scalar or vector types
// of one width (WGSL #conversion-expr, #floating-point-conversion).
func (c *compiler) convert(e *ir.Convert, x cexpr, dst int32) cexpr {
	from, to := e.X.Type().Scalar().Kind, e.T.Scalar().Kind
	isInt := func(k ir.Kind) bool { return k == ir.KindI32 || k == ir.KindU32 }
	if from == to || isInt(from) && isInt(to) {
		// Same type, or i32 <-> u32: the bits are kept.
		return x
	}
	n := int32(e.T.Width())
	d := c.pickDst(dst, n, true, x)
	site := c.site(e.Pos, e, "conversion")
	var k func(a slot) slot
	switch {
	case from == ir.KindF16 || to == ir.KindF16:
		k = f16Convert(site, from, to) // f16ops.go
	case from == ir.KindBool && to == ir.KindF32:
		k = func(a slot) slot { return slot{bits: a.bits * 0x3f800000, why: a.why} }
	case from == ir.KindBool:
		k = func(a slot) slot { return a }
	case to == ir.KindBool && from == ir.KindF32:
		k = func(a slot) slot {
			v := f32of(a.bits)
			r := slot{bits: b2u(v != 0), why: a.why}
			switch {
			case a.why < 0:
			case isSubnormal(a.bits):
				r.why = -(site + int32(fsSubnormal))
			case a.err > 0 && math.Abs(v) <= a.err:
				r.why = -(site + int32(fsAmbiguous))
			}
			if r.why > 0 {
				r.why = 0
			}
			return r
		}
	case to == ir.KindBool:
		k = func(a slot) slot { return slot{bits: b2u(a.bits != 0), why: a.why} }
	case from == ir.KindF32:
		signed := to == ir.KindI32
		k = func(a slot) slot { return float2int(f32F, site, a, signed) }
	default: // i32 or u32 to f32: correctly rounded
		signed := from == ir.KindI32
		k = func(a slot) slot {
			var x float64
			if signed {
				x = float64(int32(a.bits))
			} else {
				x = float64(a.bits)
			}
			v := float32(x)
			r := slot{bits: math.Float32bits(v), why: a.why}
			if float64(v) != x && a.why == 0 {
				r.why, r.err = site, ulp(x)
			}
			return r
		}
	}
	xl := x.loc
	var fn exprFn
	switch {
	case n == 1 && to == ir.KindF32 && from == ir.KindI32:
		// The common f32(i) of a loop counter: exact below 2^24.
		fn = func(fr *frame) {
			s := fr.s
			a := &s[xl]
			if v := int32(a.bits); a.why == 0 && v >= -1<<24 && v <= 1<<24 {
				s[d] = slot{bits: math.Float32bits(float32(v))}
				return
			}
			s[d] = k(*a)
		}
	case n == 1:
		fn = func(fr *frame) { fr.s[d] = k(fr.s[xl]) }
	default:
		fn = func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				s[d+i] = k(s[xl+i])
			}
		}
	}
	in := instr{op: opFn, a: xl, d: d, fn: fn}
	if n == 1 && to == ir.KindF32 && from == ir.KindI32 {
		in.op = opI2F
	}
	return cexpr{code: c.emitI(in, x), loc: d, n: n, stops: x.stops}
}

// bitcast compiles bitcast<T>(x) (WGSL #bitcast-builtin): the bits are
// kept. WGSL may flush a subnormal f32 produced or consumed by a bitcast,
// so an f32 source that is subnormal or inexact gives an indeterminate
// integer, and an integer whose bits are an f32 infinity or NaN gives an
// indeterminate f32 (finite math assumption).
func (c *compiler) bitcast(e *ir.Bitcast, x cexpr, dst int32) cexpr {
	from, to := e.X.Type().Scalar().Kind, e.T.Scalar().Kind
	if from == ir.KindF16 || to == ir.KindF16 {
		return c.f16Bitcast(e, x, dst) // f16ops.go
	}
	if (from == ir.KindF32) == (to == ir.KindF32) {
		return x
	}
	n := int32(e.T.Width())
	d := c.pickDst(dst, n, true, x)
	var k func(a slot) slot
	if from == ir.KindF32 {
		bad := -c.addReason(e.Pos, rBitcast, e, "the f32 source is subnormal (WGSL may flush it) or inexact")
		k = func(a slot) slot {
			if a.why >= 0 && (isSubnormal(a.bits) || a.err > 0) {
				return slot{bits: a.bits, why: bad}
			}
			return slot{bits: a.bits, why: min(a.why, 0)}
		}
	} else {
		bad := -c.addReason(e.Pos, rBitcast, e, "the result is an f32 infinity or NaN (finite math assumption)")
		k = func(a slot) slot {
			if a.why == 0 && nonFinite(a.bits) {
				return slot{bits: a.bits, why: bad}
			}
			return a
		}
	}
	xl := x.loc
	fn := func(fr *frame) {
		s := fr.s
		for i := int32(0); i < n; i++ {
			s[d+i] = k(s[xl+i])
		}
	}
	return cexpr{code: c.emit(fn, x), loc: d, n: n, stops: x.stops}
}
