package interp

import (
	"math"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSaturateReflectFaceForwardLdexpExact: on operands where the WGSL
// definitions are exact in f32, saturate (#saturate-float-builtin:
// clamp(e, 0.0, 1.0)), reflect (#reflect-builtin: e1 - 2 * dot(e2, e1) *
// e2), faceForward (#faceForward-builtin: e1 if dot(e2, e3) < 0, else
// -e1) and ldexp (#ldexp-builtin: e1 * 2^e2) give the value derived by
// hand, with no tolerance.
func TestSaturateReflectFaceForwardLdexpExact(t *testing.T) {
	v2 := vecT(2, tF32)
	v3 := vecT(3, tF32)
	i2 := vecT(2, tI32)
	f2 := func(a, b float32) ir.Value { return vecV(tF32, fvv(a), fvv(b)) }
	f3 := func(a, b, c float32) ir.Value { return vecV(tF32, fvv(a), fvv(b), fvv(c)) }
	for _, tc := range []struct {
		name string
		e    ir.Expr
		ps   []P
		args []ir.Value
		want ir.Value
	}{
		{"saturate(-2) = 0", bi(ir.BSaturate, param("x", tF32)), []P{{"x", tF32}}, []ir.Value{fvv(-2)}, fvv(0)},
		{"saturate(0.25) = 0.25", bi(ir.BSaturate, param("x", tF32)), []P{{"x", tF32}}, []ir.Value{fvv(0.25)}, fvv(0.25)},
		{"saturate(3) = 1", bi(ir.BSaturate, param("x", tF32)), []P{{"x", tF32}}, []ir.Value{fvv(3)}, fvv(1)},
		{"saturate((-1, 0.5, 7)) = (0, 0.5, 1)", bi(ir.BSaturate, param("v", v3)), []P{{"v", v3}}, []ir.Value{f3(-1, 0.5, 7)}, f3(0, 0.5, 1)},
		// dot((1,-1),(0,1)) = -1; (1,-1) - 2*(-1)*(0,1) = (1,-1) + (0,2).
		{"reflect((1,-1),(0,1)) = (1,1)", bi(ir.BReflect, param("v", v2), param("w", v2)), []P{{"v", v2}, {"w", v2}},
			[]ir.Value{f2(1, -1), f2(0, 1)}, f2(1, 1)},
		// dot((3,-2,5),(0,0,1)) = 5; (3,-2,5) - 10*(0,0,1).
		{"reflect((3,-2,5),(0,0,1)) = (3,-2,-5)", bi(ir.BReflect, param("v", v3), param("w", v3)), []P{{"v", v3}, {"w", v3}},
			[]ir.Value{f3(3, -2, 5), f3(0, 0, 1)}, f3(3, -2, -5)},
		// dot((1,0),(-1,0)) = -1 < 0: e1.
		{"faceForward((1,2),(1,0),(-1,0)) = (1,2)", bi(ir.BFaceForward, param("v", v2), param("w", v2), param("u", v2)),
			[]P{{"v", v2}, {"w", v2}, {"u", v2}}, []ir.Value{f2(1, 2), f2(1, 0), f2(-1, 0)}, f2(1, 2)},
		// dot((1,0),(1,0)) = 1: -e1.
		{"faceForward((1,2),(1,0),(1,0)) = (-1,-2)", bi(ir.BFaceForward, param("v", v2), param("w", v2), param("u", v2)),
			[]P{{"v", v2}, {"w", v2}, {"u", v2}}, []ir.Value{f2(1, 2), f2(1, 0), f2(1, 0)}, f2(-1, -2)},
		// dot((1,0),(0,1)) = 0, not negative: -e1.
		{"faceForward((1,2),(1,0),(0,1)) = (-1,-2)", bi(ir.BFaceForward, param("v", v2), param("w", v2), param("u", v2)),
			[]P{{"v", v2}, {"w", v2}, {"u", v2}}, []ir.Value{f2(1, 2), f2(1, 0), f2(0, 1)}, f2(-1, -2)},
		{"ldexp(0.75, 3) = 6", bi(ir.BLdexp, param("x", tF32), param("n", tI32)), []P{{"x", tF32}, {"n", tI32}},
			[]ir.Value{fvv(0.75), iv(3)}, fvv(6)},
		{"ldexp(-3, -2) = -0.75", bi(ir.BLdexp, param("x", tF32), param("n", tI32)), []P{{"x", tF32}, {"n", tI32}},
			[]ir.Value{fvv(-3), iv(-2)}, fvv(-0.75)},
		// e2 = 128 = bias + 1 is in range: 0.75 * 2^128 = 1.5 * 2^127.
		{"ldexp(0.75, 128) = 1.5 * 2^127", bi(ir.BLdexp, param("x", tF32), param("n", tI32)), []P{{"x", tF32}, {"n", tI32}},
			[]ir.Value{fvv(0.75), iv(128)}, fvv(1.5 * 0x1p127)},
		// e2 = -126: e2 + bias = 1 > 0, so no zero is allowed.
		{"ldexp(1, -126) = 2^-126", bi(ir.BLdexp, param("x", tF32), param("n", tI32)), []P{{"x", tF32}, {"n", tI32}},
			[]ir.Value{fvv(1), iv(-126)}, fvv(0x1p-126)},
		{"ldexp((1, 3), (4, -1)) = (16, 1.5)", bi(ir.BLdexp, param("v", v2), param("n", i2)), []P{{"v", v2}, {"n", i2}},
			[]ir.Value{f2(1, 3), vecV(tI32, iv(4), iv(-1))}, f2(16, 1.5)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := retOf(t, exprKernel(tc.e, tc.ps...), "k", tc.args...)
			assert.True(t, exact(o), "want exact: %s", desc(o))
			assert.True(t, ir.Equal(tc.want, o.Value), "got %v, want %v", o.Value, tc.want)
		})
	}
}

// TestHyperbolicAndLdexpTolerances checks the bounds against WGSL's
// accuracy table (#concrete-float-accuracy): sinh and cosh inherited from
// (exp(x) ∓ exp(-x)) * 0.5 with exp at 3 + 2|x| ULP, tanh the worse of
// 1e-5 absolute and sinh(x) / cosh(x), ldexp correctly rounded but
// possibly zero when e2 + 127 ≤ 0. Values are native float64, rounded;
// bounds derived by hand.
func TestHyperbolicAndLdexpTolerances(t *testing.T) {
	x := param("x", tF32)
	n := param("n", tI32)
	e40 := math.Exp(40)
	for _, tc := range []struct {
		name     string
		e        ir.Expr
		args     []ir.Value
		want     float32
		min, max float64
	}{
		// exp(0) = exp(-0) = 1, each 3 ULP(1) = 3·2^-23; the difference
		// 0 ± 6·2^-23, halved: 3·2^-23 (plus the rounding terms, far below).
		{"sinh(0) = 0 ± 3 ULP(1)", bi(ir.BSinh, x), []ir.Value{fvv(0)}, 0, 3 * 0x1p-23, 3 * 0x1p-23 * 1.001},
		// (1 ± 3·2^-23) + (1 ± 3·2^-23) = 2 ± 6·2^-23, halved: 1 ± 3·2^-23;
		// each of the two roundings of inexact operands may add one ULP
		// (2^-22 at 2, halved, and 2^-23 at 1): at most 5·2^-23.
		{"cosh(0) = 1 ± 3..5 ULP(1)", bi(ir.BCosh, x), []ir.Value{fvv(0)}, 1, 3 * 0x1p-23, 5 * 0x1p-23},
		// sinh(1) = (e - 1/e)/2: exp(1) ∈ [2, 4) at 5 ULP = 5·2^-22,
		// exp(-1) ∈ [0.25, 0.5) at 5 ULP = 5·2^-25; the halved sum of
		// those, plus at most two ULP(1) = 2^-23 of rounding.
		{"sinh(1) is inherited", bi(ir.BSinh, x), []ir.Value{fvv(1)}, float32(math.Sinh(1)),
			(5*0x1p-22 + 5*0x1p-25) / 2, (5*0x1p-22+5*0x1p-25)/2 + 2*0x1p-23},
		// tanh(0): the inherited bound is about 3·2^-23 ≈ 3.6e-7, below
		// the absolute 1e-5, which wins; tanh(0) = 0 exactly, no rounding.
		{"tanh(0) = 0 ± 1e-5", bi(ir.BTanh, x), []ir.Value{fvv(0)}, 0, 1e-5, 1e-5},
		// tanh(1): sinh(1)/cosh(1) inherits about 4e-6 < 1e-5; 1e-5 plus
		// one ULP (tanh(1) ≈ 0.76 is not an f32: 2^-24).
		{"tanh(1) = 1e-5 + 1 ULP", bi(ir.BTanh, x), []ir.Value{fvv(1)}, float32(math.Tanh(1)), 1e-5, 1e-5 + 0x1p-24},
		// tanh(40): exp(40) ≈ 2.354e17 ∈ [2^57, 2^58) at 83 ULP = 83·2^34;
		// sinh and cosh ≈ exp(40)/2 each carry half of that, and their
		// quotient ≈ 1 a relative error of about twice 83·2^34/exp(40),
		// 1.21e-5: worse than 1e-5, so the inherited bound wins.
		{"tanh(40) inherits more than 1e-5", bi(ir.BTanh, x), []ir.Value{fvv(40)}, 1,
			2 * 83 * 0x1p34 / e40, 2 * 83 * 0x1p34 / e40 * 1.1},
		// ldexp(2^100, -127) = 2^-27 but e2 + 127 = 0: it may also be 0,
		// so the bound is the value itself.
		{"ldexp(2^100, -127) may be 0", bi(ir.BLdexp, x, n), []ir.Value{fvv(0x1p100), iv(-127)}, 0x1p-27, 0x1p-27, 0x1p-27},
		// 3 * 2^-150 = 1.5 * 2^-149 rounds to 2^-148 (tie to even), one
		// subnormal ULP 2^-149 off; e2 ≤ -127 also allows 0: 2^-148 + 2^-149.
		{"ldexp(3, -150) rounds into the subnormals", bi(ir.BLdexp, x, n), []ir.Value{fvv(3), iv(-150)}, 0x1p-148, 0x1p-149 + 0x1p-148, 0x1p-149 + 0x1p-148},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := []P{{"x", tF32}}
			if len(tc.args) == 2 {
				ps = append(ps, P{"n", tI32})
			}
			o := retOf(t, exprKernel(tc.e, ps...), "k", tc.args...)
			require.NotNil(t, o.Tolerance, desc(o))
			assert.False(t, indeterminate(o), desc(o))
			assert.Equal(t, tc.want, o.Value.F32())
			assert.GreaterOrEqual(t, o.Tolerance[0], tc.min, desc(o))
			assert.LessOrEqual(t, o.Tolerance[0], tc.max, desc(o))
			assert.NotEmpty(t, o.Why)
		})
	}
}

// TestHyperbolicLdexpFaceForwardIndeterminate: where WGSL leaves the
// result an indeterminate value — an intermediate of the inherited
// expression overflows (finite math), ldexp's e2 > bias + 1 = 128, a
// result past the largest f32, faceForward's comparison that a possible
// flush of a subnormal product can flip — the reference says so.
func TestHyperbolicLdexpFaceForwardIndeterminate(t *testing.T) {
	x := param("x", tF32)
	n := param("n", tI32)
	v2 := vecT(2, tF32)
	f2 := func(a, b float32) ir.Value { return vecV(tF32, fvv(a), fvv(b)) }
	for _, tc := range []struct {
		name string
		e    ir.Expr
		ps   []P
		args []ir.Value
		why  string
	}{
		// exp(89) ≈ 4.5e38 is past the largest f32 though sinh(89) ≈ 2.2e38 is not.
		{"sinh(89): exp(89) overflows", bi(ir.BSinh, x), []P{{"x", tF32}}, []ir.Value{fvv(89)}, "overflow"},
		{"cosh(-89): exp(89) overflows", bi(ir.BCosh, x), []P{{"x", tF32}}, []ir.Value{fvv(-89)}, "overflow"},
		{"tanh(100): sinh(100) overflows", bi(ir.BTanh, x), []P{{"x", tF32}}, []ir.Value{fvv(100)}, "overflow"},
		{"ldexp(1, 129): e2 > 128", bi(ir.BLdexp, x, n), []P{{"x", tF32}, {"n", tI32}}, []ir.Value{fvv(1), iv(129)}, "outside the range"},
		{"ldexp(1.5, 128) overflows", bi(ir.BLdexp, x, n), []P{{"x", tF32}, {"n", tI32}}, []ir.Value{fvv(1.5), iv(128)}, "overflow"},
		{"ldexp(1, i32(NaN)) has an indeterminate exponent", bi(ir.BLdexp, fL(1), conv(tI32, x)), []P{{"x", tF32}},
			[]ir.Value{fvv(float32(math.NaN()))}, "argument x"},
		// dot((2^-70, 0), (-2^-70, 0)) = -2^-140, a subnormal: flushed it
		// is 0, and faceForward picks -e1 instead of e1.
		{"faceForward on a subnormal dot", bi(ir.BFaceForward, param("v", v2), param("w", v2), param("u", v2)),
			[]P{{"v", v2}, {"w", v2}, {"u", v2}}, []ir.Value{f2(1, 1), f2(0x1p-70, 0), f2(-0x1p-70, 0)}, "can change"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := retOf(t, exprKernel(tc.e, tc.ps...), "k", tc.args...)
			assert.True(t, indeterminate(o), desc(o))
			assert.Contains(t, o.Why, tc.why)
		})
	}
}
