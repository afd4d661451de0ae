package flatten

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/ir"
)

func tH(bits uint16) ir.Expr { return tLit(ir.F16Bits(bits)) }

func tConv(x ir.Expr, t *ir.Type) ir.Expr { return &ir.Convert{X: x, T: t} }

// TestF16Folds: f16 constants fold only when the binary16 result is
// exact, finite and normal or zero — never as f32, whose wider
// significand would fold sums binary16 must round. Each expectation is
// derived by hand from binary16 (1 sign, 5 exponent bits of bias 15, 10
// fraction bits: the ulp of 1 is 2^-10, integers are exact to 2048,
// 65504 is the largest finite value, 2^-14 the smallest normal).
func TestF16Folds(t *testing.T) {
	one, two, half := tH(0x3c00), tH(0x4000), tH(0x3800)
	x := tID("x", ir.F16)
	for _, tc := range []struct {
		name string
		in   ir.Expr
		want string
	}{
		{"1.5 + 2.25 = 3.75 exactly", tBin(ir.OpAdd, tH(0x3e00), tH(0x4080)), "3.75h"},
		{"1 + 2^-10 is the next binary16", tBin(ir.OpAdd, one, tH(0x1400)), "1.0009765625h"},
		{"1 + 2^-11 must round (f32 would fold it)", tBin(ir.OpAdd, one, tH(0x1000)), "1.0h + 0.00048828125h"},
		{"2048 + 1 must round", tBin(ir.OpAdd, tH(0x6800), one), "2048.0h + 1.0h"},
		{"3 / 4 = 0.75", tBin(ir.OpDiv, tH(0x4200), tH(0x4400)), "0.75h"},
		{"1 / 3 is inexact", tBin(ir.OpDiv, one, tH(0x4200)), "1.0h / 3.0h"},
		{"-(2)", &ir.Unary{Op: ir.OpNeg, X: two, T: ir.F16}, "-2.0h"},
		{"-0 == 0 (not the bits)", tBin(ir.OpEq, tH(0x8000), tH(0x0000)), "true"},
		{"-1 < 0.5 (not the bits)", tBin(ir.OpLt, tH(0xbc00), half), "true"},
		{"bool(-0.0h) is false", tConv(tH(0x8000), ir.Bool), "false"},
		{"abs(-3) = 3", tCall("abs", tH(0xc200)), "3.0h"},
		{"min(1, -2) = -2", tCall("min", one, tH(0xc000)), "-2.0h"},
		{"floor(2.5) = 2", tCall("floor", tH(0x4100)), "2.0h"},
		{"f16(0.5f) = 0.5h", tConv(tF(0.5), ir.F16), "0.5h"},
		{"f16(0.1f) must round", tConv(tF(0.1), ir.F16), "f16(0.1f)"},
		{"f16(2049i) must round", tConv(tI(2049), ir.F16), "f16(2049i)"},
		{"f16(2048u) is exact", tConv(tU(2048), ir.F16), "2048.0h"},
		{"f32(0.5h) = 0.5f", tConv(half, ir.F32), "0.5f"},
		{"i32(-2.5h) truncates", tConv(tH(0xc100), ir.I32), "-2i"},
		{"a subnormal operand is left to run time (it may flush)", tBin(ir.OpAdd, tH(0x0001), one), "5.960464477539063e-08h + 1.0h"},
		{"x * 1.0h", tBin(ir.OpMul, x, one), "x"},
		{"x + -0.0h", tBin(ir.OpAdd, x, tH(0x8000)), "x"},
		{"x + 0.0h stays (-0 + 0 = +0)", tBin(ir.OpAdd, x, tH(0)), "x + 0.0h"},
		{"x * -1.0h", tBin(ir.OpMul, x, tH(0xbc00)), "-x"},
	} {
		f := &folder{}
		assert.Equal(t, tc.want, ir.PrintExpr(f.expr(tc.in)), tc.name)
	}
}

// TestF16ConstErrors: a binary16 const-expression past 65504 is a
// shader-creation error (WGSL #floating-point-evaluation: a
// const-expression overflow), so substitution must never make one:
// evalError, as for f32's overflow.
func TestF16ConstErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   ir.Expr
	}{
		{"60000 + 10000", tBin(ir.OpAdd, tH(0x7b53), tH(0x70e2))},
		{"1 / 0", tBin(ir.OpDiv, tH(0x3c00), tH(0))},
		{"f16(70000.0f)", tConv(tF(70000), ir.F16)},
	} {
		_, st := evalNode(tc.in)
		assert.Equal(t, evalError, st, tc.name)
	}
	v := ir.CompositeVal(ir.Vec(2, ir.F16), ir.F16Bits(0x3c00), ir.F16Bits(0x4000))
	_, st := evalNode(&ir.Bitcast{X: tLit(v), T: ir.U32})
	assert.Equal(t, evalUnknown, st, "bitcast<u32>(vec2<f16>) is not folded")
	_, st = evalNode(tCall("subgroupAdd", tU(1)))
	assert.Equal(t, evalKeep, st, "a subgroup operation is never a constant")
}
