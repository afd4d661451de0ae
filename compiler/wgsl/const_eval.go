package wgsl

import (
	"math"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// Evaluation of operators and builtins on constants (WGSL #const-expr).
// Abstract operands are evaluated in int64/float64, concrete ones in their
// own type. Every outcome WGSL makes a shader-creation error is returned as
// an error: integer division or remainder by zero, the most negative value
// divided by -1, a shift by the bit width or more, overflow of AbstractInt,
// a non-finite float result, a left shift of a concrete integer that
// changes its sign or loses set bits. Concrete i32 and u32 addition,
// subtraction and multiplication wrap (WGSL #integer-types), as in Tint
// and naga. The values of concrete integer operations and builtins, and
// which const-expressions are shader-creation errors (wgslsem.Fault), are
// ir/wgslsem's; this file adds AbstractInt/AbstractFloat, f32 rounding and
// the error messages.

// cvRound rounds a float result to the leaf type t (f32, f16 or
// AbstractFloat) and rejects non-finite values (and, for f16, values
// outside its finite range: cvF16).
func cvRound(x float64, t *chkType, what string) (cVal, error) {
	if t.k == ckF32 {
		f, err := cvF32(x, what)
		return cvFloat(t, f), err
	}
	if t.k == ckF16 {
		f, err := cvF16(x, what)
		return cvFloat(t, f), err
	}
	f, err := cvAbsFloat(x, what)
	return cvFloat(t, f), err
}

// cvConcrete applies a wgslsem operation to i32 or u32 operands carried
// as int64 (the int32 or uint32 value), by their type t.
func cvConcrete(t *chkType, a, b int64, i32 func(x, y int32) int32, u32 func(x, y uint32) uint32) cVal {
	if t.k == ckI32 {
		return cvInt(t, int64(i32(int32(a), int32(b))))
	}
	return cvInt(t, int64(u32(uint32(a), uint32(b))))
}

// cvMap applies f component-wise: vector arguments contribute their i-th
// component, scalar arguments themselves. res is the result type.
func cvMap(args []cVal, res *chkType, f func(comp []cVal, t *chkType) (cVal, error)) (cVal, error) {
	if res.k != ckVec {
		return f(args, res)
	}
	el := make([]cVal, res.n)
	comp := make([]cVal, len(args))
	for i := range el {
		for j, a := range args {
			if a.t.k == ckVec {
				comp[j] = a.el[i]
			} else {
				comp[j] = a
			}
		}
		r, err := f(comp, res.elem)
		if err != nil {
			return cVal{}, err
		}
		el[i] = r
	}
	return cVal{t: res, el: el}, nil
}

// cvUnary evaluates -x, !x or ~x (WGSL #arithmetic-expr, #logical-expr,
// #bit-expr).
func cvUnary(op ir.UnaryOp, x cVal) (cVal, error) {
	return cvMap([]cVal{x}, x.t, func(c []cVal, t *chkType) (cVal, error) {
		a := c[0]
		switch op {
		case ir.OpNeg:
			switch t.k {
			case ckAbsInt:
				if a.i == math.MinInt64 {
					return cVal{}, cvErrf("negation of %d overflows AbstractInt", a.i)
				}
				return cvInt(t, -a.i), nil
			case ckI32:
				return cvInt(t, int64(wgslsem.Neg(int32(a.i)))), nil // -MIN is MIN (WGSL #arithmetic-expr)
			case ckF32, ckF16, ckAbsFloat:
				return cvFloat(t, -a.f), nil
			}
		case ir.OpNot:
			return cvBool(!a.b), nil
		case ir.OpCompl:
			switch t.k {
			case ckAbsInt:
				return cvInt(t, ^a.i), nil
			case ckI32:
				return cvInt(t, int64(^int32(a.i))), nil
			case ckU32:
				return cvInt(t, int64(^uint32(a.i))), nil
			}
		}
		return cVal{}, cvErrf("operator %s is not defined for %v", op, t)
	})
}

// cvBinary evaluates x op y for operands whose scalar types agree (the
// checker converts abstract operands first); a scalar operand of an
// arithmetic operator is splatted against a vector one. res is the result
// type.
func cvBinary(op ir.BinaryOp, x, y cVal, res *chkType) (cVal, error) {
	return cvMap([]cVal{x, y}, res, func(c []cVal, t *chkType) (cVal, error) {
		return cvScalarBinary(op, c[0], c[1])
	})
}

func cvScalarBinary(op ir.BinaryOp, a, b cVal) (cVal, error) {
	k := a.t
	what := func() string { return a.String() + " " + op.String() + " " + b.String() }
	switch op.Info().Class {
	case ir.ClassArith:
		switch {
		case k.k == ckAbsInt:
			return cvAbsIntArith(op, a.i, b.i, what)
		case k.isInt():
			switch op {
			case ir.OpAdd:
				return cvConcrete(k, a.i, b.i, wgslsem.Add[int32], wgslsem.Add[uint32]), nil
			case ir.OpSub:
				return cvConcrete(k, a.i, b.i, wgslsem.Sub[int32], wgslsem.Sub[uint32]), nil
			case ir.OpMul:
				return cvConcrete(k, a.i, b.i, wgslsem.Mul[int32], wgslsem.Mul[uint32]), nil
			}
			f := wgslsem.DivFaultU32(uint32(a.i), uint32(b.i))
			if k.k == ckI32 {
				f = wgslsem.DivFaultI32(int32(a.i), int32(b.i))
			}
			switch f {
			case wgslsem.ZeroDivisor:
				return cVal{}, cvErrf("integer %s by zero in %s", cvDivName(op), what())
			case wgslsem.DivOverflow:
				return cVal{}, cvErrf("%s overflows i32", what())
			}
			if op == ir.OpDiv {
				return cvConcrete(k, a.i, b.i, wgslsem.DivI32, wgslsem.DivU32), nil
			}
			return cvConcrete(k, a.i, b.i, wgslsem.RemI32, wgslsem.RemU32), nil
		case k.k == ckF32:
			x, y := float32(a.f), float32(b.f)
			var r float32
			switch op {
			case ir.OpAdd:
				r = x + y
			case ir.OpSub:
				r = x - y
			case ir.OpMul:
				r = x * y
			case ir.OpDiv:
				r = x / y
			case ir.OpRem:
				r = float32(math.Mod(float64(x), float64(y)))
			}
			return cvRound(float64(r), k, what())
		case k.k == ckAbsFloat || k.k == ckF16:
			// f16: the float64 result of two binary16 operands, rounded
			// once (const_f16.go: correctly rounded).
			var r float64
			switch op {
			case ir.OpAdd:
				r = a.f + b.f
			case ir.OpSub:
				r = a.f - b.f
			case ir.OpMul:
				r = a.f * b.f
			case ir.OpDiv:
				r = a.f / b.f
			case ir.OpRem:
				r = math.Mod(a.f, b.f)
			}
			return cvRound(r, k, what())
		}
	case ir.ClassBitwise:
		if k.k == ckBool {
			if op == ir.OpAnd {
				return cvBool(a.b && b.b), nil
			}
			return cvBool(a.b || b.b), nil
		}
		var r int64
		switch op {
		case ir.OpAnd:
			r = a.i & b.i
		case ir.OpOr:
			r = a.i | b.i
		case ir.OpXor:
			r = a.i ^ b.i
		}
		if k.k == ckI32 {
			r = int64(int32(r))
		}
		return cvInt(k, r), nil
	case ir.ClassShift:
		return cvShift(op, a, b)
	case ir.ClassLogical:
		if op == ir.OpLogAnd {
			return cvBool(a.b && b.b), nil
		}
		return cvBool(a.b || b.b), nil
	case ir.ClassEquality, ir.ClassOrder:
		var cmp int
		switch {
		case k.k == ckBool:
			if a.b != b.b {
				cmp = 1
			}
		case k.isInt():
			cmp = cvCmp(a.i < b.i, a.i > b.i)
		default:
			cmp = cvCmp(a.f < b.f, a.f > b.f)
		}
		switch op {
		case ir.OpEq:
			return cvBool(cmp == 0), nil
		case ir.OpNe:
			return cvBool(cmp != 0), nil
		case ir.OpLt:
			return cvBool(cmp < 0), nil
		case ir.OpLe:
			return cvBool(cmp <= 0), nil
		case ir.OpGt:
			return cvBool(cmp > 0), nil
		case ir.OpGe:
			return cvBool(cmp >= 0), nil
		}
	}
	return cVal{}, cvErrf("operator %s is not defined for %v", op, k)
}

func cvCmp(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

func cvDivName(op ir.BinaryOp) string {
	if op == ir.OpDiv {
		return "division"
	}
	return "remainder"
}

// cvAbsIntArith evaluates AbstractInt arithmetic, rejecting overflow.
func cvAbsIntArith(op ir.BinaryOp, a, b int64, what func() string) (cVal, error) {
	overflow := func() (cVal, error) { return cVal{}, cvErrf("%s overflows AbstractInt", what()) }
	switch op {
	case ir.OpAdd:
		r := a + b
		if (a >= 0) == (b >= 0) && (r >= 0) != (a >= 0) {
			return overflow()
		}
		return cvInt(chkAbsInt, r), nil
	case ir.OpSub:
		r := a - b
		if (a >= 0) != (b >= 0) && (r >= 0) != (a >= 0) {
			return overflow()
		}
		return cvInt(chkAbsInt, r), nil
	case ir.OpMul:
		if a == 0 || b == 0 {
			return cvInt(chkAbsInt, 0), nil
		}
		r := a * b
		if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
			return overflow()
		}
		return cvInt(chkAbsInt, r), nil
	}
	if b == 0 {
		return cVal{}, cvErrf("integer %s by zero in %s", cvDivName(op), what())
	}
	if a == math.MinInt64 && b == -1 {
		return overflow()
	}
	if op == ir.OpDiv {
		return cvInt(chkAbsInt, a/b), nil
	}
	return cvInt(chkAbsInt, a%b), nil
}

// cvShift evaluates e1 << e2 and e1 >> e2 (WGSL #bit-expr); e2 is u32.
func cvShift(op ir.BinaryOp, a, b cVal) (cVal, error) {
	n := b.i
	switch a.t.k {
	case ckAbsInt:
		if op == ir.OpShl {
			if n >= 64 {
				return cVal{}, cvErrf("shift of AbstractInt %d by %d overflows", a.i, n)
			}
			if top := a.i >> (63 - n); top != 0 && top != -1 {
				return cVal{}, cvErrf("%d << %d overflows AbstractInt", a.i, n)
			}
			return cvInt(a.t, a.i<<n), nil
		}
		if n >= 64 {
			n = 63
		}
		return cvInt(a.t, a.i>>n), nil
	case ckI32, ckU32:
		e2 := uint32(n)
		f := wgslsem.ShiftFault(e2)
		if op == ir.OpShl && a.t.k == ckI32 {
			f = wgslsem.ShlFaultI32(int32(a.i), e2)
		} else if op == ir.OpShl {
			f = wgslsem.ShlFaultU32(uint32(a.i), e2)
		}
		switch {
		case f == wgslsem.ShiftCount:
			return cVal{}, cvErrf("shift amount %d is not less than the bit width 32 of %v", n, a.t)
		case f == wgslsem.ShiftOverflow && a.t.k == ckI32:
			return cVal{}, cvErrf("%d << %d overflows i32", int32(a.i), n)
		case f == wgslsem.ShiftOverflow:
			return cVal{}, cvErrf("%du << %d overflows u32", uint32(a.i), n)
		}
		switch {
		case op == ir.OpShl && a.t.k == ckI32:
			return cvInt(a.t, int64(wgslsem.Shl(int32(a.i), e2))), nil
		case op == ir.OpShl:
			return cvInt(a.t, int64(wgslsem.Shl(uint32(a.i), e2))), nil
		case a.t.k == ckI32:
			return cvInt(a.t, int64(wgslsem.Shr(int32(a.i), e2))), nil
		}
		return cvInt(a.t, int64(wgslsem.Shr(uint32(a.i), e2))), nil
	}
	return cVal{}, cvErrf("shift of %v", a.t)
}

// ---- builtins ----

// cvFloat1 applies a float function component-wise and rounds.
func cvFloatMap(args []cVal, res *chkType, name string, f func(x []float64) float64) (cVal, error) {
	return cvMap(args, res, func(c []cVal, t *chkType) (cVal, error) {
		xs := make([]float64, len(c))
		for i, a := range c {
			xs[i] = a.f
		}
		return cvRound(f(xs), t, name)
	})
}

// cvBuiltin evaluates a call of a const builtin (WGSL "Built-in
// Functions"; every subset builtin of class Math, Bits or Logic is
// @const). Arguments have already been converted to the overload's
// parameter types; res is the result type.
func cvBuiltin(b ir.Builtin, args []cVal, res *chkType) (cVal, error) {
	name := b.Info().Name
	fl := func(f func(x []float64) float64) (cVal, error) { return cvFloatMap(args, res, name, f) }
	f1 := func(f func(float64) float64) (cVal, error) {
		return fl(func(x []float64) float64 { return f(x[0]) })
	}
	switch b {
	case ir.BAbs:
		return cvMap(args, res, func(c []cVal, t *chkType) (cVal, error) {
			a := c[0]
			switch t.k {
			case ckAbsInt:
				if a.i == math.MinInt64 {
					return cVal{}, cvErrf("abs(%d) overflows AbstractInt", a.i)
				}
				return cvInt(t, wgslsem.Abs(a.i)), nil
			case ckI32:
				return cvInt(t, int64(wgslsem.Abs(int32(a.i)))), nil // abs(MIN) is MIN
			case ckU32:
				return a, nil
			}
			return cvFloat(t, math.Abs(a.f)), nil
		})
	case ir.BMin, ir.BMax:
		return cvMap(args, res, func(c []cVal, t *chkType) (cVal, error) {
			a, bb := c[0], c[1]
			if t.isInt() {
				// i32, u32 and AbstractInt values keep their order as int64.
				if b == ir.BMin {
					return cvInt(t, wgslsem.Min(a.i, bb.i)), nil
				}
				return cvInt(t, wgslsem.Max(a.i, bb.i)), nil
			}
			if (a.f < bb.f) == (b == ir.BMin) {
				return a, nil
			}
			return bb, nil
		})
	case ir.BClamp:
		return cvMap(args, res, func(c []cVal, t *chkType) (cVal, error) {
			e, lo, hi := c[0], c[1], c[2]
			if t.isInt() {
				if wgslsem.ClampFault(lo.i, hi.i) != wgslsem.NoFault {
					return cVal{}, cvErrf("clamp: low %s is greater than high %s", lo, hi)
				}
				return cvInt(t, wgslsem.Clamp(e.i, lo.i, hi.i)), nil
			}
			if wgslsem.ClampFault(lo.f, hi.f) != wgslsem.NoFault {
				return cVal{}, cvErrf("clamp: low %s is greater than high %s", lo, hi)
			}
			return cvFloat(t, math.Min(math.Max(e.f, lo.f), hi.f)), nil
		})
	case ir.BSign:
		return cvMap(args, res, func(c []cVal, t *chkType) (cVal, error) {
			a := c[0]
			if t.isInt() {
				return cvInt(t, wgslsem.Sign(a.i)), nil // i32 and AbstractInt: the sign of the int64
			}
			if a.f == 0 {
				return a, nil // sign(±0) is that zero, as in Tint
			}
			return cvFloat(t, float64(cvCmp(a.f < 0, a.f > 0))), nil
		})
	case ir.BFloor:
		return f1(math.Floor)
	case ir.BCeil:
		return f1(math.Ceil)
	case ir.BRound:
		return f1(wgslsem.Round)
	case ir.BTrunc:
		return f1(math.Trunc)
	case ir.BDegrees, ir.BRadians:
		k := 57.295779513082322865
		if b == ir.BRadians {
			k = 0.017453292519943295769
		}
		return cvMap(args, res, func(c []cVal, t *chkType) (cVal, error) {
			if t.k == ckF32 {
				return cvRound(float64(float32(c[0].f)*float32(k)), t, name)
			}
			return cvRound(c[0].f*k, t, name)
		})
	case ir.BFract:
		return cvMap(args, res, func(c []cVal, t *chkType) (cVal, error) {
			x := c[0].f
			if t.k == ckF32 {
				return cvRound(float64(float32(x)-float32(math.Floor(x))), t, name)
			}
			return cvRound(x-math.Floor(x), t, name)
		})
	case ir.BSaturate:
		return f1(func(x float64) float64 { return math.Min(math.Max(x, 0), 1) })
	case ir.BSinh:
		return f1(math.Sinh)
	case ir.BCosh:
		return f1(math.Cosh)
	case ir.BTanh:
		return f1(math.Tanh)
	case ir.BLdexp:
		// WGSL #ldexp-builtin: e1 * 2^e2; e2 > bias + 1 (128 for f32,
		// 1023 + 1 for AbstractFloat) is a shader-creation error. The
		// exact product, rounded (its "may be zero" is not taken).
		return cvMap(args, res, func(c []cVal, t *chkType) (cVal, error) {
			bias := int64(1023)
			switch t.k {
			case ckF32:
				bias = wgslsem.F32Bias
			case ckF16:
				bias = f16Bias
			}
			e2 := c[1].i
			if wgslsem.LdexpFault(e2, bias) != wgslsem.NoFault {
				return cVal{}, cvErrf("ldexp: the exponent %d is greater than %d, the bias of %s + 1", e2, bias+1, t)
			}
			return cvRound(math.Ldexp(c[0].f, int(max(e2, -2000))), t, name)
		})
	case ir.BReflect, ir.BFaceForward:
		return cvOrient(b, args, res)
	case ir.BSqrt:
		return f1(math.Sqrt)
	case ir.BInverseSqrt:
		return f1(func(x float64) float64 { return 1 / math.Sqrt(x) })
	case ir.BPow:
		return fl(func(x []float64) float64 { return math.Pow(x[0], x[1]) })
	case ir.BExp:
		return f1(math.Exp)
	case ir.BExp2:
		return f1(math.Exp2)
	case ir.BLog:
		return f1(math.Log)
	case ir.BLog2:
		return f1(math.Log2)
	case ir.BSin:
		return f1(math.Sin)
	case ir.BCos:
		return f1(math.Cos)
	case ir.BTan:
		return f1(math.Tan)
	case ir.BAsin:
		return f1(math.Asin)
	case ir.BAcos:
		return f1(math.Acos)
	case ir.BAtan:
		return f1(math.Atan)
	case ir.BAtan2:
		return fl(func(x []float64) float64 { return math.Atan2(x[0], x[1]) })
	case ir.BStep:
		return fl(func(x []float64) float64 { return wgslsem.Step(x[0], x[1]) })
	case ir.BSmoothstep:
		return cvMap(args, res, func(c []cVal, t *chkType) (cVal, error) {
			e0, e1, x := c[0].f, c[1].f, c[2].f
			if e0 == e1 {
				return cVal{}, cvErrf("smoothstep: edge0 equals edge1 (%g)", e0)
			}
			s := math.Min(math.Max((x-e0)/(e1-e0), 0), 1)
			return cvRound(s*s*(3-2*s), t, name)
		})
	case ir.BFma:
		return fl(func(x []float64) float64 { return x[0]*x[1] + x[2] })
	case ir.BMix:
		return fl(func(x []float64) float64 { return x[0]*(1-x[2]) + x[1]*x[2] })
	case ir.BDot:
		return cvDot(args[0], args[1], res)
	case ir.BCross:
		a, c := args[0].el, args[1].el
		comp := func(i, j int) float64 { return a[i].f*c[j].f - a[j].f*c[i].f }
		xs := []float64{comp(1, 2), comp(2, 0), comp(0, 1)}
		el := make([]cVal, 3)
		for i, x := range xs {
			r, err := cvRound(x, res.elem, name)
			if err != nil {
				return cVal{}, err
			}
			el[i] = r
		}
		return cVal{t: res, el: el}, nil
	case ir.BLength:
		return cvRound(cvNorm(args[0]), res, name)
	case ir.BDistance:
		d, err := cvBinary(ir.OpSub, args[0], args[1], args[0].t)
		if err != nil {
			return cVal{}, err
		}
		return cvRound(cvNorm(d), res, name)
	case ir.BNormalize:
		n := cvNorm(args[0])
		if n == 0 {
			return cVal{}, cvErrf("normalize of a zero vector")
		}
		return cvMap(args, res, func(c []cVal, t *chkType) (cVal, error) { return cvRound(c[0].f/n, t, name) })
	case ir.BCountOneBits, ir.BReverseBits, ir.BFirstLeadingBit, ir.BFirstTrailingBit:
		return cvMap(args, res, func(c []cVal, t *chkType) (cVal, error) {
			if t.k == ckI32 {
				return cvInt(t, int64(cvBits1[int32](b, int32(c[0].i), wgslsem.FirstLeadingBitI32))), nil
			}
			return cvInt(t, int64(cvBits1[uint32](b, uint32(c[0].i), wgslsem.FirstLeadingBitU32))), nil
		})
	case ir.BExtractBits, ir.BInsertBits:
		no := 1
		if b == ir.BInsertBits {
			no = 2
		}
		off, cnt := args[no].i, args[no+1].i // u32 values
		if wgslsem.BitRangeFault(uint32(off), uint32(cnt)) != wgslsem.NoFault {
			return cVal{}, cvErrf("%s: offset %d + count %d is greater than 32", name, off, cnt)
		}
		o, n := uint32(off), uint32(cnt)
		return cvMap(args, res, func(c []cVal, t *chkType) (cVal, error) {
			switch {
			case b == ir.BInsertBits && t.k == ckI32:
				return cvInt(t, int64(wgslsem.InsertBits(int32(c[0].i), int32(c[1].i), o, n))), nil
			case b == ir.BInsertBits:
				return cvInt(t, int64(wgslsem.InsertBits(uint32(c[0].i), uint32(c[1].i), o, n))), nil
			case t.k == ckI32:
				return cvInt(t, int64(wgslsem.ExtractBitsI32(int32(c[0].i), o, n))), nil
			}
			return cvInt(t, int64(wgslsem.ExtractBitsU32(uint32(c[0].i), o, n))), nil
		})
	case ir.BAll, ir.BAny:
		want := b == ir.BAll
		for _, c := range cvComponents(args[0]) {
			if c.b != want {
				return cvBool(!want), nil
			}
		}
		return cvBool(want), nil
	}
	if b == ir.BPack2x16Float || b == ir.BUnpack2x16Float {
		return cvHalf(b, args[0], res)
	}
	if b.Info().Class == ir.ClassPack {
		return cvPack(b, args[0], res), nil
	}
	return cVal{}, cvErrf("%s is not a const function", name)
}

// cvHalf is pack2x16float (each component rounded to binary16, ties to
// even; one outside binary16's finite range is a shader-creation error)
// or unpack2x16float (an infinity or NaN half is not a const value).
func cvHalf(b ir.Builtin, a cVal, res *chkType) (cVal, error) {
	if b == ir.BPack2x16Float {
		var r uint32
		for i, c := range cvComponents(a) {
			h, _, finite := wgslsem.F32ToF16(float32(c.f))
			if !finite {
				return cVal{}, cvErrf("pack2x16float: %g is outside the finite range of f16", c.f)
			}
			r |= uint32(h) << (16 * i)
		}
		return cvInt(res, int64(r)), nil
	}
	el := make([]cVal, 2)
	for i := range el {
		v, finite, _ := wgslsem.F16ToF32(uint16(uint32(a.i) >> (16 * i)))
		if !finite {
			return cVal{}, cvErrf("unpack2x16float: half %d of %#x is not finite", i, uint32(a.i))
		}
		el[i] = cvFloat(res.elem, float64(v))
	}
	return cVal{t: res, el: el}, nil
}

// cvPack is a data packing or unpacking builtin of a (WGSL
// #pack-builtin-functions, #unpack-builtin-functions), with wgslsem's
// values; the unpacked floats are the correctly rounded quotients.
func cvPack(b ir.Builtin, a cVal, res *chkType) cVal {
	cs := cvComponents(a)
	switch b {
	case ir.BPack4x8Snorm, ir.BPack4x8Unorm, ir.BPack2x16Snorm, ir.BPack2x16Unorm:
		bits := 32 / len(cs)
		signed := b == ir.BPack4x8Snorm || b == ir.BPack2x16Snorm
		var r uint32
		for i, c := range cs {
			r |= wgslsem.PackNorm(float32(c.f), bits, signed) << (bits * i)
		}
		return cvInt(res, int64(r))
	case ir.BPack4xI8, ir.BPack4xU8, ir.BPack4xI8Clamp, ir.BPack4xU8Clamp:
		var in [4]uint32
		for i, c := range cs {
			in[i] = uint32(c.i)
		}
		signed := b == ir.BPack4xI8 || b == ir.BPack4xI8Clamp
		return cvInt(res, int64(wgslsem.Pack4x8(in, signed, b == ir.BPack4xI8Clamp || b == ir.BPack4xU8Clamp)))
	}
	e := uint32(a.i)
	el := make([]cVal, res.n)
	for i := range el {
		switch b {
		case ir.BUnpack4xI8:
			el[i] = cvInt(res.elem, int64(int32(wgslsem.Unpack4x8(e, i, true))))
		case ir.BUnpack4xU8:
			el[i] = cvInt(res.elem, int64(wgslsem.Unpack4x8(e, i, false)))
		default:
			bits := 32 / res.n
			signed := b == ir.BUnpack4x8Snorm || b == ir.BUnpack2x16Snorm
			el[i] = cvFloat(res.elem, float64(wgslsem.UnpackNorm(e>>(bits*i), bits, signed)))
		}
	}
	return cVal{t: res, el: el}
}

// cvBits1 is the one-operand bit builtin b (countOneBits, reverseBits,
// firstLeadingBit, firstTrailingBit) of e; firstLeading is the
// firstLeadingBit of e's signedness.
func cvBits1[T wgslsem.Concrete](b ir.Builtin, e T, firstLeading func(T) T) T {
	switch b {
	case ir.BCountOneBits:
		return wgslsem.CountOneBits(e)
	case ir.BReverseBits:
		return wgslsem.ReverseBits(e)
	case ir.BFirstTrailingBit:
		return wgslsem.FirstTrailingBit(e)
	}
	return firstLeading(e)
}

// cvDot is dot(x, y): the sum of component products, in the operand type.
func cvDot(x, y cVal, res *chkType) (cVal, error) {
	if res.isInt() {
		acc := cvInt(res, 0)
		for i := range x.el {
			p, err := cvScalarBinary(ir.OpMul, x.el[i], y.el[i])
			if err != nil {
				return cVal{}, err
			}
			if acc, err = cvScalarBinary(ir.OpAdd, acc, p); err != nil {
				return cVal{}, err
			}
		}
		return acc, nil
	}
	sum := 0.0
	for i := range x.el {
		if res.k == ckF32 {
			sum = float64(float32(sum) + float32(x.el[i].f)*float32(y.el[i].f))
		} else {
			sum += x.el[i].f * y.el[i].f
		}
	}
	return cvRound(sum, res, "dot")
}

// cvOrient is reflect(e1, e2) = e1 - 2 * dot(e2, e1) * e2 (WGSL
// #reflect-builtin) or faceForward(e1, e2, e3) = e1 if dot(e2, e3) < 0,
// else -e1 (#faceForward-builtin), in the operands' type: f32 step by
// step in float32 (the inherited expression's own rounding), AbstractFloat
// in float64.
func cvOrient(b ir.Builtin, args []cVal, res *chkType) (cVal, error) {
	name := b.Info().Name
	if b == ir.BFaceForward {
		d, err := cvDot(args[1], args[2], res.elem)
		if err != nil {
			return cVal{}, err
		}
		if d.f < 0 {
			return args[0], nil
		}
		return cvUnary(ir.OpNeg, args[0])
	}
	d, err := cvDot(args[0], args[1], res.elem)
	if err != nil {
		return cVal{}, err
	}
	el := make([]cVal, res.n)
	for i := range el {
		x, y := args[0].el[i].f, args[1].el[i].f
		r := x - 2*d.f*y
		if res.elem.k == ckF32 {
			// The explicit conversion rounds the product (no fusion).
			p := float32(float32(2*float32(d.f)) * float32(y))
			r = float64(float32(x) - p)
		}
		if el[i], err = cvRound(r, res.elem, name); err != nil {
			return cVal{}, err
		}
	}
	return cVal{t: res, el: el}, nil
}

// cvNorm is the Euclidean length of a float scalar or vector.
func cvNorm(v cVal) float64 {
	s := 0.0
	for _, c := range cvComponents(v) {
		s += c.f * c.f
	}
	return math.Sqrt(s)
}
