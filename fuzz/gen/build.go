package gen

import (
	"fmt"
	"math"

	"github.com/gpudiff/gpudiff/ir"
)

// Typed IR constructors. They compute result types with ir's own typing
// tables and panic on a mismatch: that is a generator bug, never an input
// error.

func lit(v ir.Value) *ir.Lit { return &ir.Lit{Val: v} }

func bin(op ir.BinaryOp, x, y ir.Expr) *ir.Binary {
	t, err := ir.BinaryResultType(op, x.Type(), y.Type())
	if err != nil {
		panic(fmt.Sprintf("gen: %v", err))
	}
	return &ir.Binary{Op: op, X: x, Y: y, T: t}
}

func un(op ir.UnaryOp, x ir.Expr) *ir.Unary {
	t, err := ir.UnaryResultType(op, x.Type())
	if err != nil {
		panic(fmt.Sprintf("gen: %v", err))
	}
	return &ir.Unary{Op: op, X: x, T: t}
}

func builtin(fn ir.Builtin, args ...ir.Expr) *ir.BuiltinCall {
	ts := make([]*ir.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	t, err := ir.BuiltinResultType(fn, ts)
	if err != nil {
		panic(fmt.Sprintf("gen: %v", err))
	}
	return &ir.BuiltinCall{Fn: fn, Args: args, T: t}
}

func convert(t *ir.Type, x ir.Expr) *ir.Convert {
	if err := ir.CheckConvert(t, x.Type()); err != nil {
		panic(fmt.Sprintf("gen: %v", err))
	}
	return &ir.Convert{T: t, X: x}
}

func construct(t *ir.Type, args ...ir.Expr) *ir.Construct {
	if err := ir.CheckConstruct(t, args); err != nil {
		panic(fmt.Sprintf("gen: %v", err))
	}
	return &ir.Construct{T: t, Args: args}
}

func swizzle(x ir.Expr, comps ...uint8) *ir.Swizzle {
	t := x.Type().Elem
	if len(comps) > 1 {
		t = ir.Vec(len(comps), t)
	}
	return &ir.Swizzle{X: x, Comps: comps, T: t}
}

func index(x, i ir.Expr) *ir.Index { return &ir.Index{X: x, Index: i, T: x.Type().Elem} }

func member(x ir.Expr, field int) *ir.Member {
	return &ir.Member{X: x, Field: field, T: x.Type().Struct.Fields[field].Type}
}

// scalarValue makes a scalar of type t from an integer (f32: the integer
// as a float, exact for |v| ≤ 2^24).
func scalarValue(t *ir.Type, v int64) ir.Value {
	switch t.Kind {
	case ir.KindBool:
		return ir.BoolVal(v != 0)
	case ir.KindI32:
		return ir.I32Val(int32(v))
	case ir.KindU32:
		return ir.U32Val(uint32(v))
	case ir.KindF32:
		return ir.F32Val(float32(v))
	case ir.KindF16:
		return ir.F16Val(float32(v))
	}
	panic(fmt.Sprintf("gen: scalarValue(%v)", t))
}

// splat returns the constant of scalar or vector type t whose every
// component is v (scalarValue).
func splat(t *ir.Type, v int64) ir.Value {
	if t.Kind == ir.KindVec {
		es := make([]ir.Value, t.Len)
		for i := range es {
			es[i] = scalarValue(t.Elem, v)
		}
		return ir.CompositeVal(t, es...)
	}
	return scalarValue(t, v)
}

// isConst reports whether e is a WGSL const-expression as generated here:
// literals and constructors, operators and builtins of const-expressions
// (WGSL {#const-expr}). Identifiers (params, lets, vars, globals) and calls
// are run-time.
func isConst(e ir.Expr) bool {
	switch e.(type) {
	case *ir.Lit:
		return true
	case *ir.Ident, *ir.Call:
		return false
	}
	c := true
	ir.DoChildren(e, func(n ir.Node) bool {
		if !isConst(n.(ir.Expr)) {
			c = false
			return true
		}
		return false
	})
	return c
}

// ---- the exact float domain ----
//
// Every f32 value a generated program computes is an integer v with
// |v| ≤ FloatBound = 2^23, so every f32 operation the generator emits is
// exact and its result is bit-identical on every conforming
// implementation (WGSL {#concrete-float-accuracy}: +, -, * are correctly
// rounded; abs, min, max, clamp, floor, ceil, round, trunc, sign and step
// are exact). The invariant is kept by reconditioning after each operation,
// the way WGSLsmith does:
//
//   - a + b, a - b: clamp(a ± b, -2^23, 2^23) (|a ± b| ≤ 2^24, exact);
//   - a * b: both operands clamped to ±2^11 first (|a·b| ≤ 2^22);
//   - division only by a power of two 2^k (k = 1..4), followed by floor or
//     trunc (the quotient of an integer by 2^k is exact in binary32);
//   - i32 → f32 of clamp(x, -2^23, 2^23), u32 → f32 of min(x, 2^23);
//   - f32 → i32 of any value (|v| ≤ 2^23 is in range), f32 → u32 of
//     abs(v) (never negative).

// FloatBound is the magnitude bound of every f32 value in generated
// programs (2^23).
const FloatBound = 1 << 23

// mulBound bounds the operands of an f32 multiplication (2^11).
const mulBound = 1 << 11

// fclamp reconditions an f32 (or vecN<f32>) expression into the domain.
func fclamp(e ir.Expr) ir.Expr {
	t := e.Type()
	return builtin(ir.BClamp, e, lit(splat(t, -FloatBound)), lit(splat(t, FloatBound)))
}

// convertScalar converts x to the scalar kind of to (same shape as x),
// keeping float values exact and float→integer conversions in range. x
// must not be a const-expression (the reconditioning would be const).
func convertScalar(x ir.Expr, to *ir.Type) ir.Expr {
	from := x.Type()
	target := from.WithScalar(to.Scalar())
	if ir.Identical(from, target) {
		return x
	}
	switch to.Scalar().Kind {
	case ir.KindU32:
		if from.Scalar().Kind == ir.KindF32 {
			x = builtin(ir.BAbs, x)
		}
	case ir.KindF32:
		switch from.Scalar().Kind {
		case ir.KindI32:
			x = builtin(ir.BClamp, x, lit(splat(from, -FloatBound)), lit(splat(from, FloatBound)))
		case ir.KindU32:
			x = builtin(ir.BMin, x, lit(splat(from, FloatBound)))
		}
	}
	return convert(target, x)
}

// Edge values of each scalar type, used by literals and Inputs.
var (
	edgesI32 = []int64{0, 1, -1, math.MinInt32, math.MaxInt32, 2, -2}
	edgesU32 = []int64{0, 1, math.MaxUint32, 1 << 31, 2}
	edgesF32 = []int64{0, 1, -1, FloatBound, -FloatBound, 2, -2}
	edgesF16 = []int64{0, 1, -1, hBound, -hBound, 2, -2}
)

// scalarLit returns a random constant of scalar type t: mostly small,
// sometimes an edge value, sometimes anything in the type's (for f32: the
// exact domain's) range.
func (g *generator) scalarLit(t *ir.Type) ir.Value {
	r := g.r
	switch t.Kind {
	case ir.KindBool:
		return ir.BoolVal(r.chance(50))
	case ir.KindI32:
		switch r.weighted(70, 10, 10, 10) {
		case 1:
			return scalarValue(t, edgesI32[r.intn(len(edgesI32))])
		case 2:
			return scalarValue(t, int64(r.between(-1000, 1000)))
		case 3:
			return ir.I32Val(int32(r.u32()))
		}
		return scalarValue(t, int64(r.between(-8, 8)))
	case ir.KindU32:
		switch r.weighted(70, 10, 10, 10) {
		case 1:
			return scalarValue(t, edgesU32[r.intn(len(edgesU32))])
		case 2:
			return scalarValue(t, int64(r.between(0, 1000)))
		case 3:
			return ir.U32Val(r.u32())
		}
		return scalarValue(t, int64(r.between(0, 16)))
	case ir.KindF32:
		switch r.weighted(70, 20, 10) {
		case 1:
			return scalarValue(t, int64(r.between(-4096, 4096)))
		case 2:
			return scalarValue(t, int64(r.between(-FloatBound, FloatBound)))
		}
		return scalarValue(t, int64(r.between(-16, 16)))
	}
	panic(fmt.Sprintf("gen: scalarLit(%v)", t))
}

// litValue returns a random constant of any type.
func (g *generator) litValue(t *ir.Type) ir.Value {
	switch t.Kind {
	case ir.KindVec, ir.KindArray:
		es := make([]ir.Value, t.Len)
		for i := range es {
			es[i] = g.litValue(t.Elem)
		}
		return ir.CompositeVal(t, es...)
	case ir.KindStruct:
		es := make([]ir.Value, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			es[i] = g.litValue(f.Type)
		}
		return ir.CompositeVal(t, es...)
	}
	return g.scalarLit(t)
}

// smallLit returns a constant of scalar or vector type t whose components
// lie in [lo, hi].
func (g *generator) smallLit(t *ir.Type, lo, hi int) ir.Value {
	if t.Kind == ir.KindVec {
		es := make([]ir.Value, t.Len)
		for i := range es {
			es[i] = scalarValue(t.Elem, int64(g.r.between(lo, hi)))
		}
		return ir.CompositeVal(t, es...)
	}
	return scalarValue(t, int64(g.r.between(lo, hi)))
}
