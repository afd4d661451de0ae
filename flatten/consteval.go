package flatten

import (
	"math"
	"math/big"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// Constant evaluation of one IR node whose operands are literals.
//
// Folding must be exact under WGSL's rules (the reference is strict): a
// fold may only replace an expression by the one value every conforming
// implementation computes for it at run time. So:
//
//   - integer operations and builtins fold with WGSL's run-time rules,
//     the values of ir/wgslsem (wrapping arithmetic; x / 0 = x is never
//     reached because a constant zero divisor is a shader-creation error,
//     wgslsem.Fault, WGSL #arithmetic-expr);
//   - f32 and f16 operations fold only when the result is exactly
//     representable in the operation's own format (no rounding happened:
//     binary16 results are checked with wgslsem.F64ToF16, never as f32),
//     finite and normal or zero, with normal or zero operands — so
//     flush-to-zero, fused evaluation and rounding freedom (WGSL
//     #floating-point-evaluation) cannot make the run-time value differ;
//     bitcasts that involve f16 (which change the component count:
//     vec2<f16> ↔ u32) are never folded;
//   - builtins fold only when WGSL specifies them exactly (WGSL
//     #concrete-float-accuracy "correctly rounded" or integer/bool
//     builtins), never sin, exp, sqrt and the other approximated ones.
//
// A const-expression WGSL rejects at shader creation (a zero divisor, a
// shift by ≥ 32, an out-of-range index, a non-finite f32, clamp with
// low > high, extractBits/insertBits with offset + count > 32,
// smoothstep with equal edges) must never be produced by flatten; the
// evaluator reports those as evalError so substitution can keep the
// operand a run-time value instead (issue item 4e).

// evalStatus is what evaluating one node with literal operands found.
type evalStatus uint8

const (
	// evalOK: the node equals the returned value; it may be replaced by a
	// literal.
	evalOK evalStatus = iota
	// evalKeep: a valid const-expression flatten leaves unfolded (an
	// inexact but finite f32 result).
	evalKeep
	// evalUnknown: flatten cannot tell whether WGSL accepts the node as a
	// const-expression (an approximated builtin); it is never created by
	// substitution.
	evalUnknown
	// evalError: a shader-creation error if left as a const-expression.
	evalError
)

// litVal returns e's value when e is a literal.
func litVal(e ir.Expr) (ir.Value, bool) {
	if l, ok := e.(*ir.Lit); ok {
		return l.Val, true
	}
	return ir.Value{}, false
}

func isLit(e ir.Expr) bool { _, ok := e.(*ir.Lit); return ok }

// allLit reports whether every child expression of e is a literal (true
// for nodes without children other than Ident).
func allLit(e ir.Expr) bool {
	if _, ok := e.(*ir.Ident); ok {
		return false
	}
	ok := true
	ir.DoChildren(e, func(n ir.Node) bool {
		if !isLit(n.(ir.Expr)) {
			ok = false
			return true
		}
		return false
	})
	return ok
}

// evalNode evaluates e, whose children are all literals.
func evalNode(e ir.Expr) (ir.Value, evalStatus) {
	switch x := e.(type) {
	case *ir.Lit:
		return x.Val, evalOK
	case *ir.Unary:
		v, _ := litVal(x.X)
		return evalUnary(x.Op, v, x.T)
	case *ir.Binary:
		a, _ := litVal(x.X)
		b, _ := litVal(x.Y)
		return evalBinary(x.Op, a, b, x.T)
	case *ir.Select:
		f, _ := litVal(x.False)
		t, _ := litVal(x.True)
		c, _ := litVal(x.Cond)
		if c.Type.Kind == ir.KindBool {
			if c.Bool() {
				return t, evalOK
			}
			return f, evalOK
		}
		out := make([]ir.Value, len(c.Elems))
		for i, ci := range c.Elems {
			if ci.Bool() {
				out[i] = t.Elems[i]
			} else {
				out[i] = f.Elems[i]
			}
		}
		return ir.CompositeVal(x.T, out...), evalOK
	case *ir.Construct:
		return evalConstruct(x)
	case *ir.Convert:
		v, _ := litVal(x.X)
		return mapComps(x.T, func(i int, t *ir.Type) (ir.Value, evalStatus) { return convertScalar(comp(v, i), t) })
	case *ir.Bitcast:
		v, _ := litVal(x.X)
		if x.T.HasF16() || x.X.Type().HasF16() {
			return ir.Value{}, evalUnknown // 16-bit components: the counts differ
		}
		return mapComps(x.T, func(i int, t *ir.Type) (ir.Value, evalStatus) {
			r := ir.ScalarVal(t, comp(v, i).Bits)
			if t.Kind == ir.KindF32 && !normalOrZero(r.F32()) {
				return ir.Value{}, evalError
			}
			return r, evalOK
		})
	case *ir.Index:
		base, _ := litVal(x.X)
		idx, _ := litVal(x.Index)
		i := idx.Int64()
		if i < 0 || i >= int64(len(base.Elems)) {
			return ir.Value{}, evalError
		}
		return base.Elems[i], evalOK
	case *ir.Member:
		base, _ := litVal(x.X)
		return base.Elems[x.Field], evalOK
	case *ir.Swizzle:
		base, _ := litVal(x.X)
		if len(x.Comps) == 1 {
			return base.Elems[x.Comps[0]], evalOK
		}
		out := make([]ir.Value, len(x.Comps))
		for i, c := range x.Comps {
			out[i] = base.Elems[c]
		}
		return ir.CompositeVal(x.T, out...), evalOK
	case *ir.BuiltinCall:
		args := make([]ir.Value, len(x.Args))
		for i, a := range x.Args {
			args[i], _ = litVal(a)
		}
		return evalBuiltin(x.Fn, args, x.T)
	}
	return ir.Value{}, evalUnknown
}

// comp returns component i of a scalar (i ignored) or vector value.
func comp(v ir.Value, i int) ir.Value {
	if v.Type.Kind == ir.KindVec {
		return v.Elems[i]
	}
	return v
}

// mapComps builds a scalar or vector of type t component by component;
// the worst status wins.
func mapComps(t *ir.Type, f func(i int, scalar *ir.Type) (ir.Value, evalStatus)) (ir.Value, evalStatus) {
	if t.Kind != ir.KindVec {
		return f(0, t)
	}
	out := make([]ir.Value, t.Len)
	worst := evalOK
	for i := range out {
		v, st := f(i, t.Elem)
		if st > worst {
			worst = st
		}
		if st >= evalUnknown {
			return ir.Value{}, st
		}
		out[i] = v
	}
	return ir.CompositeVal(t, out...), worst
}

func evalConstruct(x *ir.Construct) (ir.Value, evalStatus) {
	t := x.T
	if len(x.Args) == 0 {
		return ir.Zero(t), evalOK
	}
	vals := make([]ir.Value, len(x.Args))
	for i, a := range x.Args {
		vals[i], _ = litVal(a)
	}
	switch t.Kind {
	case ir.KindVec:
		var es []ir.Value
		if len(vals) == 1 && vals[0].Type.IsScalar() {
			for i := 0; i < t.Len; i++ {
				es = append(es, vals[0])
			}
		} else {
			for _, v := range vals {
				if v.Type.Kind == ir.KindVec {
					es = append(es, v.Elems...)
				} else {
					es = append(es, v)
				}
			}
		}
		return ir.CompositeVal(t, es...), evalOK
	case ir.KindArray, ir.KindStruct, ir.KindMat:
		// An IR matrix constructor takes its C columns (ir.Verify).
		return ir.CompositeVal(t, vals...), evalOK
	}
	return vals[0], evalOK // scalar identity constructor
}

// normalOrZero reports whether f is zero or a finite normal f32.
func normalOrZero(f float32) bool {
	a := math.Abs(float64(f))
	return f == 0 || (a >= 0x1p-126 && a <= math.MaxFloat32)
}

// exactF32 returns the f32 result r of an operation whose exact real
// result is exact, when r is that result exactly and normal or zero.
func exactF32(r float32, exact *big.Float) (ir.Value, evalStatus) {
	if math.IsNaN(float64(r)) || math.IsInf(float64(r), 0) {
		return ir.Value{}, evalError
	}
	if !normalOrZero(r) {
		return ir.Value{}, evalKeep
	}
	if exact != nil && exact.Cmp(big.NewFloat(float64(r))) != 0 {
		return ir.Value{}, evalKeep
	}
	return ir.F32Val(r), evalOK
}

func bigF(f float32) *big.Float { return new(big.Float).SetPrec(1024).SetFloat64(float64(f)) }

// normalOrZero16 reports whether the f16 value v is zero or a finite
// normal binary16 (|v| in [2^-14, 65504]).
func normalOrZero16(v ir.Value) bool {
	f := math.Abs(v.Float())
	return f == 0 || (f >= 0x1p-14 && f <= 65504)
}

// normalOrZeroF reports whether the float scalar v (f32 or f16) is zero
// or normal and finite in its own format.
func normalOrZeroF(v ir.Value) bool {
	if v.Type.Kind == ir.KindF16 {
		return normalOrZero16(v)
	}
	return normalOrZero(v.F32())
}

// exactF16 returns the f16 whose value is x, the exact real result of an
// operation, when x is a finite binary16 that is normal or zero: a result
// beyond the finite range is a shader-creation error as a
// const-expression (evalError), one that needs rounding or is subnormal is
// left to run time (evalKeep).
func exactF16(x float64) (ir.Value, evalStatus) {
	if math.IsNaN(x) {
		return ir.Value{}, evalError
	}
	h, exact, finite := wgslsem.F64ToF16(x)
	if !finite {
		return ir.Value{}, evalError
	}
	v := ir.F16Bits(h)
	if !exact || !normalOrZero16(v) {
		return ir.Value{}, evalKeep
	}
	return v, evalOK
}

// f16Binary folds an f16 arithmetic operator: +, - and * of two binary16
// values are exact in float64 (11-bit significands, exponents within
// [-24, 15]), so the float64 result is the real one; x / y is exact when
// the binary16 nearest the quotient times y is x.
//
// A result beyond ±65504 is a shader-creation error as a const-expression
// whatever the operands (the front end's rule, compiler/wgsl: the exact
// value outside the finite range), so it is evalError before the
// operands' normality is looked at: a subnormal operand (which may flush
// at run time) otherwise leaves the node to run time.
func f16Binary(op ir.BinaryOp, a, b ir.Value) (ir.Value, evalStatus) {
	x, y := a.Float(), b.Float()
	var r float64
	switch op {
	case ir.OpAdd:
		r = x + y
	case ir.OpSub:
		r = x - y
	case ir.OpMul:
		r = x * y
	case ir.OpDiv:
		if y == 0 {
			return ir.Value{}, evalError
		}
		r = x / y
	default:
		return ir.Value{}, evalKeep // % on f16: not folded
	}
	if math.Abs(r) > 65504 {
		return ir.Value{}, evalError
	}
	if !normalOrZero16(a) || !normalOrZero16(b) {
		return ir.Value{}, evalKeep
	}
	if op == ir.OpDiv {
		if ay := math.Abs(y); ay < 0x1p-14 || ay > 0x1p14 {
			// WGSL specifies f16's x / y (2.5 ULP) only for |y| in
			// [2^-14, 2^14] (#concrete-float-accuracy): unspecified
			// outside, so no one value to fold to.
			return ir.Value{}, evalKeep
		}
		h, _, _ := wgslsem.F64ToF16(r)
		if q := wgslsem.F16Value(h); q*y != x {
			return ir.Value{}, evalKeep
		}
		r = wgslsem.F16Value(h)
	}
	return exactF16(r)
}

func evalUnary(op ir.UnaryOp, v ir.Value, t *ir.Type) (ir.Value, evalStatus) {
	return mapComps(t, func(i int, st *ir.Type) (ir.Value, evalStatus) {
		c := comp(v, i)
		switch op {
		case ir.OpNeg:
			if st.Kind == ir.KindF32 {
				if !normalOrZero(c.F32()) {
					return ir.Value{}, evalKeep
				}
				return ir.ScalarVal(st, c.Bits^0x80000000), evalOK
			}
			if st.Kind == ir.KindF16 {
				if !normalOrZero16(c) {
					return ir.Value{}, evalKeep
				}
				return ir.F16Bits(uint16(c.Bits) ^ 0x8000), evalOK
			}
			return ir.I32Val(wgslsem.Neg(c.I32())), evalOK // -INT_MIN = INT_MIN
		case ir.OpNot:
			return ir.BoolVal(!c.Bool()), evalOK
		case ir.OpCompl:
			return ir.ScalarVal(st, ^c.Bits), evalOK
		}
		return ir.Value{}, evalUnknown
	})
}

func evalBinary(op ir.BinaryOp, a, b ir.Value, t *ir.Type) (ir.Value, evalStatus) {
	if op == ir.OpLogAnd {
		return ir.BoolVal(a.Bool() && b.Bool()), evalOK
	}
	if op == ir.OpLogOr {
		return ir.BoolVal(a.Bool() || b.Bool()), evalOK
	}
	if a.Type.IsMat() || b.Type.IsMat() {
		return evalMatrixBinary(op, a, b, t)
	}
	operand := a.Type.Scalar()
	return mapComps(t, func(i int, rt *ir.Type) (ir.Value, evalStatus) {
		return scalarBinary(op, comp(a, i), comp(b, i), operand)
	})
}

// evalMatrixBinary folds matrix ± matrix, matrix × f32 and f32 × matrix
// column by column (WGSL #matrix-arithmetic: component-wise, each
// component correctly rounded, so scalarBinary's exactness rules apply).
// The products with a vector or a matrix are sums of products whose
// accuracy WGSL inherits from dot (#concrete-float-accuracy): an
// implementation may fuse or reorder them, so they are not folded
// (evalUnknown, as for dot of f32).
func evalMatrixBinary(op ir.BinaryOp, a, b ir.Value, t *ir.Type) (ir.Value, evalStatus) {
	if !t.IsMat() || (op == ir.OpMul && a.Type.IsMat() && b.Type.IsMat()) {
		return ir.Value{}, evalUnknown
	}
	col := func(v ir.Value, j int) ir.Value {
		if v.Type.IsMat() {
			return v.Elems[j]
		}
		return v
	}
	cols := make([]ir.Value, t.Len)
	worst := evalOK
	for j := range cols {
		v, st := evalBinary(op, col(a, j), col(b, j), t.Elem)
		if st >= evalUnknown {
			return ir.Value{}, st
		}
		worst = max(worst, st)
		cols[j] = v
	}
	return ir.CompositeVal(t, cols...), worst
}

func scalarBinary(op ir.BinaryOp, a, b ir.Value, st *ir.Type) (ir.Value, evalStatus) {
	switch op.Info().Class {
	case ir.ClassEquality, ir.ClassOrder:
		var lt, eq bool
		switch st.Kind {
		case ir.KindF32:
			x, y := a.F32(), b.F32()
			if !normalOrZero(x) || !normalOrZero(y) {
				return ir.Value{}, evalKeep
			}
			lt, eq = x < y, x == y
		case ir.KindF16:
			if !normalOrZero16(a) || !normalOrZero16(b) {
				return ir.Value{}, evalKeep
			}
			lt, eq = a.Float() < b.Float(), a.Float() == b.Float()
		case ir.KindI32:
			lt, eq = a.I32() < b.I32(), a.Bits == b.Bits
		default:
			lt, eq = a.Bits < b.Bits, a.Bits == b.Bits
		}
		var r bool
		switch op {
		case ir.OpEq:
			r = eq
		case ir.OpNe:
			r = !eq
		case ir.OpLt:
			r = lt
		case ir.OpLe:
			r = lt || eq
		case ir.OpGt:
			r = !lt && !eq
		case ir.OpGe:
			r = !lt
		}
		return ir.BoolVal(r), evalOK
	}
	switch st.Kind {
	case ir.KindBool:
		switch op {
		case ir.OpAnd:
			return ir.BoolVal(a.Bool() && b.Bool()), evalOK
		case ir.OpOr:
			return ir.BoolVal(a.Bool() || b.Bool()), evalOK
		}
	case ir.KindF32:
		return f32Binary(op, a.F32(), b.F32())
	case ir.KindF16:
		return f16Binary(op, a, b)
	case ir.KindI32, ir.KindU32:
		return intBinary(op, a, b, st)
	}
	return ir.Value{}, evalUnknown
}

func f32Binary(op ir.BinaryOp, x, y float32) (ir.Value, evalStatus) {
	if !normalOrZero(x) || !normalOrZero(y) {
		return ir.Value{}, evalKeep
	}
	switch op {
	case ir.OpAdd:
		r := float32(x + y)
		return exactF32(r, new(big.Float).SetPrec(1024).Add(bigF(x), bigF(y)))
	case ir.OpSub:
		r := float32(x - y)
		return exactF32(r, new(big.Float).SetPrec(1024).Sub(bigF(x), bigF(y)))
	case ir.OpMul:
		r := float32(x * y)
		return exactF32(r, new(big.Float).SetPrec(1024).Mul(bigF(x), bigF(y)))
	case ir.OpDiv:
		if y == 0 {
			return ir.Value{}, evalError // non-finite or NaN
		}
		r := float32(x / y)
		if math.IsInf(float64(r), 0) {
			return ir.Value{}, evalError
		}
		if ay := math.Abs(float64(y)); ay < 0x1p-126 || ay > 0x1p126 {
			// WGSL specifies f32's x / y (2.5 ULP) only for |y| in
			// [2^-126, 2^126] (#concrete-float-accuracy).
			return ir.Value{}, evalKeep
		}
		// r is exact iff r*y == x exactly.
		if new(big.Float).SetPrec(1024).Mul(bigF(r), bigF(y)).Cmp(bigF(x)) != 0 {
			return ir.Value{}, evalKeep
		}
		return exactF32(r, nil)
	}
	return ir.Value{}, evalKeep // % on f32: not folded
}

// intBinary folds an i32 or u32 operator with wgslsem's values. A
// wgslsem.Fault (zero divisor, MIN / -1, shift count ≥ 32) is evalError:
// the expression must stay a run-time one.
func intBinary(op ir.BinaryOp, a, b ir.Value, st *ir.Type) (ir.Value, evalStatus) {
	signed := st.Kind == ir.KindI32
	x, y := a.Bits, b.Bits
	mk := func(bits uint32) (ir.Value, evalStatus) { return ir.ScalarVal(st, bits), evalOK }
	switch op {
	case ir.OpAdd:
		return mk(wgslsem.Add(x, y))
	case ir.OpSub:
		return mk(wgslsem.Sub(x, y))
	case ir.OpMul:
		return mk(wgslsem.Mul(x, y))
	case ir.OpDiv, ir.OpRem:
		if signed {
			if wgslsem.DivFaultI32(int32(x), int32(y)) != wgslsem.NoFault {
				return ir.Value{}, evalError
			}
			if op == ir.OpDiv {
				return mk(uint32(wgslsem.DivI32(int32(x), int32(y))))
			}
			return mk(uint32(wgslsem.RemI32(int32(x), int32(y))))
		}
		if wgslsem.DivFaultU32(x, y) != wgslsem.NoFault {
			return ir.Value{}, evalError
		}
		if op == ir.OpDiv {
			return mk(wgslsem.DivU32(x, y))
		}
		return mk(wgslsem.RemU32(x, y))
	case ir.OpAnd:
		return mk(x & y)
	case ir.OpOr:
		return mk(x | y)
	case ir.OpXor:
		return mk(x ^ y)
	case ir.OpShl, ir.OpShr:
		if wgslsem.ShiftFault(y) != wgslsem.NoFault {
			return ir.Value{}, evalError
		}
		if op == ir.OpShl {
			return mk(wgslsem.Shl(x, y))
		}
		if signed {
			return mk(uint32(wgslsem.Shr(int32(x), y)))
		}
		return mk(wgslsem.Shr(x, y))
	}
	return ir.Value{}, evalUnknown
}

// convertScalar is the value conversion T(v) for scalars (WGSL
// #conversion-builtin-functions, #scalar-floating-point-to-integral-conversion).
func convertScalar(v ir.Value, t *ir.Type) (ir.Value, evalStatus) {
	from := v.Type
	switch t.Kind {
	case ir.KindBool:
		if from.IsFloat() {
			if !normalOrZeroF(v) {
				return ir.Value{}, evalKeep
			}
			return ir.BoolVal(v.Float() != 0), evalOK // -0.0 is false
		}
		return ir.BoolVal(v.Bits != 0), evalOK
	case ir.KindI32, ir.KindU32:
		switch from.Kind {
		case ir.KindBool, ir.KindI32, ir.KindU32:
			return ir.ScalarVal(t, v.Bits), evalOK // bool→0/1; i32↔u32 keep the bits
		case ir.KindF32, ir.KindF16:
			if !normalOrZeroF(v) {
				return ir.Value{}, evalKeep
			}
			f := v.Float()
			if t.Kind == ir.KindI32 {
				return ir.I32Val(wgslsem.F32ToI32(f)), evalOK
			}
			return ir.U32Val(wgslsem.F32ToU32(f)), evalOK
		}
	case ir.KindF32:
		switch from.Kind {
		case ir.KindBool:
			if v.Bool() {
				return ir.F32Val(1), evalOK
			}
			return ir.F32Val(0), evalOK
		case ir.KindF32:
			return v, evalOK
		case ir.KindF16:
			if !normalOrZero16(v) {
				return ir.Value{}, evalKeep // a subnormal input may flush
			}
			return ir.F32Val(v.F16()), evalOK // every binary16 is a binary32
		case ir.KindI32, ir.KindU32:
			n := v.Int64()
			f := float32(n)
			if int64(f) != n {
				return ir.Value{}, evalKeep // rounding direction is implementation-chosen
			}
			return ir.F32Val(f), evalOK
		}
	case ir.KindF16:
		switch from.Kind {
		case ir.KindBool:
			if v.Bool() {
				return ir.F16Bits(0x3c00), evalOK
			}
			return ir.F16Bits(0), evalOK
		case ir.KindF16:
			return v, evalOK
		case ir.KindF32:
			if !normalOrZero(v.F32()) {
				return ir.Value{}, evalKeep
			}
			// exactF16: an out-of-range value is a shader-creation error
			// as a const-expression, a rounded one (either neighbour at
			// run time, WGSL #floating-point-conversion) stays.
			return exactF16(float64(v.F32()))
		case ir.KindI32, ir.KindU32:
			return exactF16(float64(v.Int64()))
		}
	}
	return ir.Value{}, evalUnknown
}

// evalBuiltin folds the builtins WGSL specifies exactly.
func evalBuiltin(fn ir.Builtin, args []ir.Value, t *ir.Type) (ir.Value, evalStatus) {
	if isSubgroup(fn) {
		// A subgroup operation is no const-expression: its value depends
		// on the other invocations, whatever its operands (WGSL
		// #subgroup-builtin-functions).
		return ir.Value{}, evalKeep
	}
	if fn.Info().Class == ir.ClassPack {
		return ir.Value{}, evalUnknown // data packing: not folded
	}
	if fn == ir.BModf || fn == ir.BFrexp {
		// Not folded: the result is a predeclared struct (ir.ModfResult,
		// ir.FrexpResult), which no WGSL literal can spell.
		return ir.Value{}, evalUnknown
	}
	switch fn {
	case ir.BAll, ir.BAny:
		v := args[0]
		if v.Type.Kind == ir.KindBool {
			return v, evalOK
		}
		r := fn == ir.BAll
		for _, e := range v.Elems {
			if fn == ir.BAll {
				r = r && e.Bool()
			} else {
				r = r || e.Bool()
			}
		}
		return ir.BoolVal(r), evalOK
	case ir.BTranspose:
		// Moves values: exact (WGSL #transpose-builtin).
		m := args[0]
		cols := make([]ir.Value, t.Len)
		for c := range cols {
			es := make([]ir.Value, t.Rows())
			for r := range es {
				es[r] = m.Elems[r].Elems[c]
			}
			cols[c] = ir.CompositeVal(t.Elem, es...)
		}
		return ir.CompositeVal(t, cols...), evalOK
	case ir.BDeterminant:
		// Infinite ULP (WGSL #concrete-float-accuracy): not folded.
		return ir.Value{}, evalUnknown
	case ir.BDot:
		if !args[0].Type.Elem.IsInteger() {
			return ir.Value{}, evalUnknown
		}
		x, y := make([]uint32, len(args[0].Elems)), make([]uint32, len(args[1].Elems))
		for i := range x {
			x[i], y[i] = args[0].Elems[i].Bits, args[1].Elems[i].Bits
		}
		return ir.ScalarVal(t, wgslsem.Dot(x, y)), evalOK // the bits are the same for i32 and u32
	}
	return mapComps(t, func(i int, st *ir.Type) (ir.Value, evalStatus) {
		cs := make([]ir.Value, len(args))
		for j, a := range args {
			cs[j] = comp(a, i)
		}
		return scalarBuiltin(fn, cs, st)
	})
}

func scalarBuiltin(fn ir.Builtin, a []ir.Value, st *ir.Type) (ir.Value, evalStatus) {
	if st.IsFloat() {
		// f32 and f16 alike: each operand's value (exact as a float32),
		// each result checked in the result's own format.
		fs := make([]float32, len(a))
		for i, v := range a {
			if !v.Type.IsFloat() || !normalOrZeroF(v) {
				return ir.Value{}, evalKeep
			}
			fs[i] = float32(v.Float())
		}
		ok := func(f float64) (ir.Value, evalStatus) { return exactF32(float32(f), nil) }
		if st.Kind == ir.KindF16 {
			ok = exactF16
		}
		switch fn {
		case ir.BAbs:
			return ok(math.Abs(float64(fs[0])))
		case ir.BFloor:
			return ok(math.Floor(float64(fs[0])))
		case ir.BCeil:
			return ok(math.Ceil(float64(fs[0])))
		case ir.BTrunc:
			return ok(math.Trunc(float64(fs[0])))
		case ir.BRound:
			return ok(wgslsem.Round(float64(fs[0])))
		case ir.BSign:
			switch {
			case fs[0] > 0:
				return ok(1)
			case fs[0] < 0:
				return ok(-1)
			}
			// A zero keeps its sign, as the front end's constant does
			// (WGSL says 0.0; a run-time result's zero sign is free).
			return ok(float64(fs[0]))
		case ir.BStep:
			return ok(wgslsem.Step(float64(fs[0]), float64(fs[1])))
		case ir.BMin, ir.BMax:
			if fs[0] == 0 && fs[1] == 0 && math.Signbit(float64(fs[0])) != math.Signbit(float64(fs[1])) {
				return ir.Value{}, evalKeep // either zero may be returned
			}
			if fn == ir.BMin {
				return ok(math.Min(float64(fs[0]), float64(fs[1])))
			}
			return ok(math.Max(float64(fs[0]), float64(fs[1])))
		case ir.BClamp:
			if wgslsem.ClampFault(fs[1], fs[2]) != wgslsem.NoFault {
				return ir.Value{}, evalError
			}
			if fs[1] == 0 || fs[2] == 0 || fs[0] == 0 {
				return ir.Value{}, evalKeep // zero signs: min/max and median may differ
			}
			return ok(math.Min(math.Max(float64(fs[0]), float64(fs[1])), float64(fs[2])))
		case ir.BSmoothstep:
			if fs[0] == fs[1] {
				return ir.Value{}, evalError
			}
		}
		return ir.Value{}, evalUnknown
	}
	if st.Kind == ir.KindBool {
		return ir.Value{}, evalUnknown
	}
	if st.Kind == ir.KindI32 {
		return intBuiltin(fn, a, st, i32Builtins)
	}
	return intBuiltin(fn, a, st, u32Builtins)
}

// intBuiltins is the integer builtins flatten folds, on the bits of one
// component: the values are wgslsem's, and a const-expression that WGSL
// rejects (clamp with low > high, extractBits/insertBits with
// offset + count > 32) is reported as a wgslsem.Fault.
type intBuiltins struct {
	k1    map[ir.Builtin]func(e uint32) uint32
	k2    map[ir.Builtin]func(e1, e2 uint32) uint32
	clamp func(e, low, high uint32) (uint32, wgslsem.Fault)
	ext   func(e, offset, count uint32) uint32
}

var (
	i32Builtins = intBuiltins{
		k1: map[ir.Builtin]func(uint32) uint32{
			ir.BAbs:              func(e uint32) uint32 { return uint32(wgslsem.Abs(int32(e))) },
			ir.BSign:             func(e uint32) uint32 { return uint32(wgslsem.Sign(int32(e))) },
			ir.BCountOneBits:     wgslsem.CountOneBits[uint32],
			ir.BReverseBits:      wgslsem.ReverseBits[uint32],
			ir.BFirstTrailingBit: wgslsem.FirstTrailingBit[uint32],
			ir.BFirstLeadingBit:  func(e uint32) uint32 { return uint32(wgslsem.FirstLeadingBitI32(int32(e))) },
		},
		k2: map[ir.Builtin]func(uint32, uint32) uint32{
			ir.BMin: func(e1, e2 uint32) uint32 { return uint32(wgslsem.Min(int32(e1), int32(e2))) },
			ir.BMax: func(e1, e2 uint32) uint32 { return uint32(wgslsem.Max(int32(e1), int32(e2))) },
		},
		clamp: func(e, low, high uint32) (uint32, wgslsem.Fault) {
			l, h := int32(low), int32(high)
			return uint32(wgslsem.Clamp(int32(e), l, h)), wgslsem.ClampFault(l, h)
		},
		ext: func(e, offset, count uint32) uint32 { return uint32(wgslsem.ExtractBitsI32(int32(e), offset, count)) },
	}
	u32Builtins = intBuiltins{
		k1: map[ir.Builtin]func(uint32) uint32{
			ir.BAbs:              wgslsem.Abs[uint32],
			ir.BCountOneBits:     wgslsem.CountOneBits[uint32],
			ir.BReverseBits:      wgslsem.ReverseBits[uint32],
			ir.BFirstTrailingBit: wgslsem.FirstTrailingBit[uint32],
			ir.BFirstLeadingBit:  wgslsem.FirstLeadingBitU32,
		},
		k2: map[ir.Builtin]func(uint32, uint32) uint32{
			ir.BMin: wgslsem.Min[uint32],
			ir.BMax: wgslsem.Max[uint32],
		},
		clamp: func(e, low, high uint32) (uint32, wgslsem.Fault) {
			return wgslsem.Clamp(e, low, high), wgslsem.ClampFault(low, high)
		},
		ext: wgslsem.ExtractBitsU32,
	}
)

// intBuiltin folds integer builtin fn on the scalar components a of type
// st with the kernels of one signedness.
func intBuiltin(fn ir.Builtin, a []ir.Value, st *ir.Type, ks intBuiltins) (ir.Value, evalStatus) {
	mk := func(bits uint32) (ir.Value, evalStatus) { return ir.ScalarVal(st, bits), evalOK }
	if k, ok := ks.k1[fn]; ok {
		return mk(k(a[0].Bits))
	}
	if k, ok := ks.k2[fn]; ok {
		return mk(k(a[0].Bits, a[1].Bits))
	}
	switch fn {
	case ir.BClamp:
		r, f := ks.clamp(a[0].Bits, a[1].Bits, a[2].Bits)
		if f != wgslsem.NoFault {
			return ir.Value{}, evalError
		}
		return mk(r)
	case ir.BExtractBits:
		if wgslsem.BitRangeFault(a[1].Bits, a[2].Bits) != wgslsem.NoFault {
			return ir.Value{}, evalError
		}
		return mk(ks.ext(a[0].Bits, a[1].Bits, a[2].Bits))
	case ir.BInsertBits:
		if wgslsem.BitRangeFault(a[2].Bits, a[3].Bits) != wgslsem.NoFault {
			return ir.Value{}, evalError
		}
		return mk(wgslsem.InsertBits(a[0].Bits, a[1].Bits, a[2].Bits, a[3].Bits))
	}
	return ir.Value{}, evalUnknown
}

// constError reports whether e, as it stands, is a WGSL shader-creation
// error because some of its operands are const-expressions (literals),
// even though not all of them are: a constant zero divisor, a constant
// shift count ≥ 32, a constant out-of-range index, clamp with constant
// low > high, extractBits/insertBits with constant offset + count > 32,
// smoothstep with equal constant edges (WGSL #arithmetic-expr,
// #bit-expr, #clamp, #extractBits-unsigned-builtin, #insertBits-builtin,
// #smoothstep-builtin).
func constError(e ir.Expr) bool {
	anyComp := func(v ir.Value, bad func(ir.Value) bool) bool {
		if v.Type.Kind == ir.KindVec {
			for _, c := range v.Elems {
				if bad(c) {
					return true
				}
			}
			return false
		}
		return bad(v)
	}
	switch x := e.(type) {
	case *ir.Binary:
		y, ok := litVal(x.Y)
		if !ok {
			return false
		}
		switch x.Op {
		case ir.OpDiv, ir.OpRem:
			if x.T.Scalar().IsInteger() {
				return anyComp(y, func(c ir.Value) bool { return c.Bits == 0 })
			}
		case ir.OpShl, ir.OpShr:
			return anyComp(y, func(c ir.Value) bool { return wgslsem.ShiftFault(c.Bits) != wgslsem.NoFault })
		}
	case *ir.Index:
		i, ok := litVal(x.Index)
		return ok && (i.Int64() < 0 || i.Int64() >= int64(x.X.Type().Len))
	case *ir.BuiltinCall:
		switch x.Fn {
		case ir.BClamp:
			lo, ok1 := litVal(x.Args[1])
			hi, ok2 := litVal(x.Args[2])
			if ok1 && ok2 {
				for i := 0; i < max(1, lo.Type.Width()); i++ {
					l, h := comp(lo, i), comp(hi, i)
					f := wgslsem.ClampFault(l.Bits, h.Bits)
					switch l.Type.Kind {
					case ir.KindF32, ir.KindF16:
						f = wgslsem.ClampFault(l.Float(), h.Float())
					case ir.KindI32:
						f = wgslsem.ClampFault(l.I32(), h.I32())
					}
					if f != wgslsem.NoFault {
						return true
					}
				}
			}
		case ir.BLdexp:
			// A constant exponent past the bias + 1 is a shader-creation
			// error (WGSL #ldexp-builtin): a fold that makes one must not.
			e2, ok := litVal(x.Args[1])
			bias := int64(wgslsem.F32Bias)
			if x.T.Scalar().Kind == ir.KindF16 {
				bias = f16Bias
			}
			return ok && anyComp(e2, func(c ir.Value) bool { return wgslsem.LdexpFault(int64(c.I32()), bias) != wgslsem.NoFault })
		case ir.BExtractBits, ir.BInsertBits:
			n := len(x.Args)
			o, ok1 := litVal(x.Args[n-2])
			c, ok2 := litVal(x.Args[n-1])
			return ok1 && ok2 && wgslsem.BitRangeFault(o.Bits, c.Bits) != wgslsem.NoFault
		case ir.BSmoothstep:
			e0, ok1 := litVal(x.Args[0])
			e1, ok2 := litVal(x.Args[1])
			if ok1 && ok2 {
				for i := 0; i < max(1, e0.Type.Width()); i++ {
					if comp(e0, i).Float() == comp(e1, i).Float() {
						return true
					}
				}
			}
		}
	}
	return false
}

// f16Bias is the exponent bias of f16 (IEEE-754 binary16): ldexp's
// exponent past f16Bias + 1 = 16 is a shader-creation error as a
// const-expression (WGSL #ldexp-builtin).
const f16Bias = 15
