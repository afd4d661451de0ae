package flatten

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/ir"
)

func tLit(v ir.Value) ir.Expr          { return &ir.Lit{Val: v} }
func tI(v int32) ir.Expr               { return tLit(ir.I32Val(v)) }
func tU(v uint32) ir.Expr              { return tLit(ir.U32Val(v)) }
func tF(v float32) ir.Expr             { return tLit(ir.F32Val(v)) }
func tB(v bool) ir.Expr                { return tLit(ir.BoolVal(v)) }
func tID(n string, t *ir.Type) ir.Expr { return &ir.Ident{Name: n, T: t, Ref: ir.RefParam} }

func tBin(op ir.BinaryOp, x, y ir.Expr) ir.Expr {
	t, err := ir.BinaryResultType(op, x.Type(), y.Type())
	if err != nil {
		panic(err)
	}
	return &ir.Binary{Op: op, X: x, Y: y, T: t}
}

func tCall(name string, args ...ir.Expr) ir.Expr {
	b, _ := ir.LookupBuiltin(name)
	ts := make([]*ir.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	t, err := ir.BuiltinResultType(b, ts)
	if err != nil {
		panic(err)
	}
	return &ir.BuiltinCall{Fn: b, Args: args, T: t}
}

func tSel(f, t, c ir.Expr) ir.Expr { return &ir.Select{False: f, True: t, Cond: c, T: f.Type()} }

// TestFolds: each fold is exact under WGSL's rules; every expected text
// is derived by hand from the rule (and the WGSL spec where a rule is
// deliberately not applied).
func TestFolds(t *testing.T) {
	x, y := tID("x", ir.F32), tID("y", ir.F32)
	k, n := tID("k", ir.I32), tID("n", ir.U32)
	b, c := tID("b", ir.Bool), tID("c", ir.Bool)
	v := tID("v", ir.Vec(3, ir.F32))
	vk := tID("vk", ir.Vec(2, ir.I32))
	a := tID("a", ir.ArrayOf(ir.I32, 4))
	negZero := tLit(ir.ScalarVal(ir.F32, 0x80000000))
	for _, tc := range []struct {
		name string
		in   ir.Expr
		want string
	}{
		{"x*1 f32", tBin(ir.OpMul, x, tF(1)), "x"},
		{"1*x i32", tBin(ir.OpMul, tI(1), k), "k"},
		{"vector*1 keeps the vector", tBin(ir.OpMul, v, tF(1)), "v"},
		{"scalar*vector(1) would change the type", tBin(ir.OpMul, x, tLit(ir.CompositeVal(ir.Vec(3, ir.F32), ir.F32Val(1), ir.F32Val(1), ir.F32Val(1)))), "x * vec3<f32>(1.0f, 1.0f, 1.0f)"},
		{"x/1", tBin(ir.OpDiv, x, tF(1)), "x"},
		{"x+0 i32", tBin(ir.OpAdd, k, tI(0)), "k"},
		{"x+0.0 f32 is not exact (-0 + 0 = +0)", tBin(ir.OpAdd, x, tF(0)), "x + 0.0f"},
		{"x+(-0.0) f32 is exact", tBin(ir.OpAdd, x, negZero), "x"},
		{"x-0.0 f32 is exact", tBin(ir.OpSub, x, tF(0)), "x"},
		{"x-(-0.0) f32 is not exact", tBin(ir.OpSub, x, negZero), "x - -0.0f"},
		{"x*-1 i32", tBin(ir.OpMul, k, tI(-1)), "-k"},
		{"-1*x f32", tBin(ir.OpMul, tF(-1), x), "-x"},
		{"integer scalar x*0", tBin(ir.OpMul, k, tI(0)), "0i"},
		{"f32 x*0 is not exact (NaN*0, Inf*0, -x*0)", tBin(ir.OpMul, x, tF(0)), "x * 0.0f"},
		{"vector x*0 is not folded", tBin(ir.OpMul, vk, tI(0)), "vk * 0i"},
		{"true && x", tBin(ir.OpLogAnd, tB(true), b), "b"},
		{"x && false", tBin(ir.OpLogAnd, b, tB(false)), "false"},
		{"false || x", tBin(ir.OpLogOr, tB(false), b), "b"},
		{"x || !x", tBin(ir.OpLogOr, b, &ir.Unary{Op: ir.OpNot, X: b, T: ir.Bool}), "true"},
		{"a && !(a && c)", tBin(ir.OpLogAnd, b, &ir.Unary{Op: ir.OpNot, X: tBin(ir.OpLogAnd, b, c), T: ir.Bool}), "b && !c"},
		{"!const", &ir.Unary{Op: ir.OpNot, X: tB(true), T: ir.Bool}, "false"},
		{"!!x", &ir.Unary{Op: ir.OpNot, X: &ir.Unary{Op: ir.OpNot, X: b, T: ir.Bool}, T: ir.Bool}, "b"},
		{"constant-condition select", tSel(x, y, tB(true)), "y"},
		{"c ? true : false", tSel(tB(false), tB(true), c), "c"},
		{"c ? false : true", tSel(tB(true), tB(false), c), "!c"},
		{"select(a, a, c)", tSel(x, x, c), "x"},
		{"select of !c swaps the arms", tSel(x, y, &ir.Unary{Op: ir.OpNot, X: c, T: ir.Bool}), "select(y, x, c)"},
		{"nested select on one condition", tSel(x, tSel(tF(0), y, c), c), "select(x, y, c)"},
		{"select(c, b, c) is c && b", tSel(c, b, c), "c && b"},
		{"select(a, c, c) is c || a", tSel(b, c, c), "c || b"},
		{"select(c, true, c) is c (issue 12's sc_cond)", tSel(c, tB(true), c), "c"},
		{"b == false is !b", tBin(ir.OpEq, b, tB(false)), "!b"},
		{"true != b is !b", tBin(ir.OpNe, tB(true), b), "!b"},
		{"b != false is b", tBin(ir.OpNe, b, tB(false)), "b"},
		{"bool b & false", tBin(ir.OpAnd, b, tB(false)), "false"},
		{"bool b | b", tBin(ir.OpOr, b, b), "b"},
		// The Boolean identity rule (truth tables): each expected form by
		// hand from Boolean algebra.
		{"absorption: b && (c || b) is b", tBin(ir.OpLogAnd, b, tBin(ir.OpLogOr, c, b)), "b"},
		{"absorption: (b || c) && c is c", tBin(ir.OpLogAnd, tBin(ir.OpLogOr, b, c), c), "c"},
		{"contradiction in a chain: (c && !b) && b is false", tBin(ir.OpLogAnd, tBin(ir.OpLogAnd, c, &ir.Unary{Op: ir.OpNot, X: b, T: ir.Bool}), b), "false"},
		{"select(false, !c, c) is false", tSel(tB(false), &ir.Unary{Op: ir.OpNot, X: c, T: ir.Bool}, c), "false"},
		{"select(!c, false, c) is !c", tSel(&ir.Unary{Op: ir.OpNot, X: c, T: ir.Bool}, tB(false), c), "!c"},
		{"(b == c) || (b != c) is true", tBin(ir.OpLogOr, tBin(ir.OpEq, b, c), tBin(ir.OpNe, b, c)), "true"},
		{"an irreducible expression stays: b && (c || !b)", tBin(ir.OpLogAnd, b, tBin(ir.OpLogOr, c, &ir.Unary{Op: ir.OpNot, X: b, T: ir.Bool})), "b && (c || !b)"},
		{"comparisons are atoms: (x < y) && !(x < y) is false", tBin(ir.OpLogAnd, tBin(ir.OpLt, x, y), &ir.Unary{Op: ir.OpNot, X: tBin(ir.OpLt, x, y), T: ir.Bool}), "false"},
		{"constant constructor", &ir.Construct{T: ir.Vec(2, ir.I32), Args: []ir.Expr{tI(1), tBin(ir.OpAdd, tI(1), tI(1))}}, "vec2<i32>(1i, 2i)"},
		{"constant exact builtin", tCall("min", tI(2), tI(3)), "2i"},
		{"constant conversion", &ir.Convert{T: ir.F32, X: tI(7)}, "7.0f"},
		{"constant float to int saturates", &ir.Convert{T: ir.I32, X: tF(1e20)}, "2147483520i"},
		{"sqrt is not correctly rounded in WGSL", tCall("sqrt", tF(4)), "sqrt(4.0f)"},
		{"inexact f32 product stays", tBin(ir.OpDiv, tF(1), tF(3)), "1.0f / 3.0f"},
		{"exact f32 product folds", tBin(ir.OpMul, tF(0.5), tF(4)), "2.0f"},
		{"i32 arithmetic wraps", tBin(ir.OpAdd, tI(2147483647), tI(1)), "i32(-2147483648)"},
		{"abs(INT_MIN) = INT_MIN", tCall("abs", tI(-2147483648)), "i32(-2147483648)"},
		{"range: 3u < min(n, 3u) is false", tBin(ir.OpLt, tU(3), tCall("min", n, tU(3))), "false"},
		{"range: (n & 3u) < 4u is true", tBin(ir.OpLt, tBin(ir.OpAnd, n, tU(3)), tU(4)), "true"},
		{"range: 0u < min(n, 3u) is open", tBin(ir.OpLt, tU(0), tCall("min", n, tU(3))), "0u < min(n, 3u)"},
		{"a zero divisor from a fold keeps its run-time form", tBin(ir.OpDiv, k, tBin(ir.OpMul, k, tI(0))), "k / (k * 0i)"},
		{"constant index", &ir.Index{X: tLit(ir.CompositeVal(ir.ArrayOf(ir.I32, 2), ir.I32Val(4), ir.I32Val(5))), Index: tI(1), T: ir.I32}, "5i"},
		{"dynamic index stays", &ir.Index{X: a, Index: k, T: ir.I32}, "a[k]"},
		{"a constant array indexed at run time is not made a literal", &ir.Index{X: &ir.Construct{T: ir.ArrayOf(ir.I32, 2), Args: []ir.Expr{tI(4), tI(5)}}, Index: k, T: ir.I32}, "array<i32, 2>(4i, 5i)[k]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &folder{}
			got := f.expr(tc.in)
			assert.Equal(t, tc.want, ir.PrintExpr(got))
			assert.Equal(t, tc.want != ir.PrintExpr(tc.in), f.changed(), "changed() reports a rewrite")
		})
	}
}

// TestSubstitutionKeepsRunTimeOperands: substituting a known constant for
// an identifier never creates a const-expression WGSL rejects at shader
// creation (issue item 4e); the identifier stays instead.
func TestSubstitutionKeepsRunTimeOperands(t *testing.T) {
	i := &ir.Ident{Name: "i", T: ir.I32, Ref: ir.RefVar}
	u := &ir.Ident{Name: "u", T: ir.U32, Ref: ir.RefVar}
	x := tID("x", ir.I32)
	a := tID("a", ir.ArrayOf(ir.I32, 4))
	for _, tc := range []struct {
		name string
		in   ir.Expr
		i, u ir.Value
		want string
	}{
		{"divisor 0 stays a variable", tBin(ir.OpDiv, x, i), ir.I32Val(0), ir.U32Val(0), "x / i"},
		{"divisor 2 is substituted", tBin(ir.OpDiv, x, i), ir.I32Val(2), ir.U32Val(0), "x / 2i"},
		{"remainder by 0 stays", tBin(ir.OpRem, x, i), ir.I32Val(0), ir.U32Val(0), "x % i"},
		{"shift by 32 stays", tBin(ir.OpShl, x, tBin(ir.OpAdd, u, tU(31))), ir.I32Val(0), ir.U32Val(1), "x << (u + 31u)"},
		{"shift by 31 folds", tBin(ir.OpShl, x, tBin(ir.OpAdd, u, tU(31))), ir.I32Val(0), ir.U32Val(0), "x << 31u"},
		{"index out of range stays", &ir.Index{X: a, Index: i, T: ir.I32}, ir.I32Val(4), ir.U32Val(0), "a[i]"},
		{"index in range is substituted", &ir.Index{X: a, Index: i, T: ir.I32}, ir.I32Val(3), ir.U32Val(0), "a[3i]"},
		{"INT_MIN / -1 of constants stays", tBin(ir.OpDiv, i, tI(-1)), ir.I32Val(-2147483648), ir.U32Val(0), "i / -1i"},
		{"clamp with low > high stays", tCall("clamp", x, i, tI(3)), ir.I32Val(5), ir.U32Val(0), "clamp(x, i, 3i)"},
		{"extractBits past 32 bits stays", tCall("extractBits", x, u, tU(8)), ir.I32Val(0), ir.U32Val(30), "extractBits(x, u, 8u)"},
		{"constant overflow wraps into a literal", tBin(ir.OpMul, i, tI(65536)), ir.I32Val(65536), ir.U32Val(0), "0i"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &folder{lookup: func(id *ir.Ident) (ir.Value, bool) {
				switch id.Name {
				case "i":
					return tc.i, true
				case "u":
					return tc.u, true
				}
				return ir.Value{}, false
			}}
			assert.Equal(t, tc.want, ir.PrintExpr(f.expr(tc.in)))
		})
	}
}
