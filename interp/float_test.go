package interp

import (
	"math"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExactDomainHasZeroTolerance: on integer-valued f32 operands below
// 2^24 — the generator's domain — every operation the generator uses is
// exact: value as computed by hand, no tolerance, nothing indeterminate.
func TestExactDomainHasZeroTolerance(t *testing.T) {
	f := func(name string) *ir.Ident { return param(name, tF32) }
	v3 := vecT(3, tF32)
	x, y, z := f("x"), f("y"), f("z")
	ps := []P{{"x", tF32}, {"y", tF32}, {"z", tF32}, {"v", v3}, {"w", v3}}
	args := []ir.Value{fvv(-7), fvv(3), fvv(2), vecV(tF32, fvv(1), fvv(-2), fvv(3)), vecV(tF32, fvv(4), fvv(5), fvv(-6))}
	v, w := param("v", v3), param("w", v3)
	big := conv(tF32, iL(16777215)) // 2^24 - 1
	for _, tc := range []struct {
		name string
		e    ir.Expr
		want ir.Value
	}{
		{"x + y", bin(ir.OpAdd, x, y), fvv(-4)},
		{"x - y", bin(ir.OpSub, x, y), fvv(-10)},
		{"x * y", bin(ir.OpMul, x, y), fvv(-21)},
		{"(2^24 - 1) - x", bin(ir.OpSub, big, x), fvv(16777222)}, // exact: even, below 2^25
		{"-x", un(ir.OpNeg, x), fvv(7)},
		{"abs(x)", bi(ir.BAbs, x), fvv(7)},
		{"min(x, y)", bi(ir.BMin, x, y), fvv(-7)},
		{"max(x, y)", bi(ir.BMax, x, y), fvv(3)},
		{"clamp(x, -2, 2)", bi(ir.BClamp, x, fL(-2), fL(2)), fvv(-2)},
		{"floor(x / 2)", bi(ir.BFloor, bin(ir.OpDiv, x, fL(2))), fvv(-4)},
		{"trunc(x / 4)", bi(ir.BTrunc, bin(ir.OpDiv, x, fL(4))), fvv(-1)},
		{"ceil(x / 2)", bi(ir.BCeil, bin(ir.OpDiv, x, fL(2))), fvv(-3)},
		{"round(x / 2) ties to even", bi(ir.BRound, bin(ir.OpDiv, x, fL(2))), fvv(-4)},
		{"round(y / 2) ties to even", bi(ir.BRound, bin(ir.OpDiv, y, fL(2))), fvv(2)},
		{"x / 8 (a power of two)", bin(ir.OpDiv, x, fL(8)), fvv(-0.875)},
		{"fract(x)", bi(ir.BFract, x), fvv(0)},
		{"sign(x)", bi(ir.BSign, x), fvv(-1)},
		{"step(x, y)", bi(ir.BStep, x, y), fvv(1)},
		{"step(y, x)", bi(ir.BStep, y, x), fvv(0)},
		{"select(x, y, x < y)", sel(x, y, bin(ir.OpLt, x, y)), fvv(3)},
		{"x == y", bin(ir.OpEq, x, y), bv(false)},
		{"x <= x", bin(ir.OpLe, x, x), bv(true)},
		{"i32(x * y)", conv(tI32, bin(ir.OpMul, x, y)), iv(-21)},
		{"f32(i32(x)) ", conv(tF32, conv(tI32, x)), fvv(-7)},
		{"dot(v, w)", bi(ir.BDot, v, w), fvv(4 - 10 - 18)},
		{"cross(v, w)", bi(ir.BCross, v, w), vecV(tF32, fvv(-2*-6-3*5), fvv(3*4-1*-6), fvv(1*5-(-2*4)))},
		{"mix(x, y, z)", bi(ir.BMix, x, y, z), fvv(-7*(1-2) + 3*2)},
		{"fma(x, y, z)", bi(ir.BFma, x, y, z), fvv(-19)},
		{"v * z + w", bin(ir.OpAdd, bin(ir.OpMul, v, z), w), vecV(tF32, fvv(6), fvv(1), fvv(0))},
		{"x % y (remainder not at a multiple)", bin(ir.OpRem, x, y), fvv(-1)},
		{"smoothstep(0, 4, 2)", bi(ir.BSmoothstep, fL(0), fL(4), bin(ir.OpAdd, z, fL(0))), fvv(0.5)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := retOf(t, exprKernel(tc.e, ps...), "k", args...)
			assert.True(t, exact(o), "want exact: %s", desc(o))
			assert.True(t, ir.Equal(tc.want, o.Value), "got %v, want %v", o.Value, tc.want)
		})
	}
}

func f32Kernel(e ir.Expr, names ...string) *ir.Module {
	var ps []P
	for _, n := range names {
		ps = append(ps, P{n, tF32})
	}
	return exprKernel(e, ps...)
}

// TestToleranceRules checks error bounds against the WGSL accuracy table
// (#concrete-float-accuracy): values are computed in native float64 from
// the spec's description, bounds by hand.
func TestToleranceRules(t *testing.T) {
	x, y := param("x", tF32), param("y", tF32)
	third := float32(1.0 / 3.0)
	for _, tc := range []struct {
		name     string
		e        ir.Expr
		args     []ir.Value
		want     float32
		min, max float64 // bounds on the tolerance
	}{
		// 1/3 lies in [2^-2, 2^-1), where the f32 spacing is 2^-25.
		{"1.0 / 3.0 is 2.5 ULP", bin(ir.OpDiv, x, y), []ir.Value{fvv(1), fvv(3)}, third, 2.5 * 0x1p-25, 2.5 * 0x1p-25},
		{"7.0 / 3.0 is 2.5 ULP", bin(ir.OpDiv, x, y), []ir.Value{fvv(7), fvv(3)}, float32(7.0 / 3.0), 2.5 * 0x1p-22, 2.5 * 0x1p-22},
		{"6.0 / 3.0 is 2.5 ULP even though 2.0 is exact", bin(ir.OpDiv, x, y), []ir.Value{fvv(6), fvv(3)}, 2, 2.5 * 0x1p-23, 2.5 * 0x1p-22},
		{"sin(1.0) is at least 2^-11", bi(ir.BSin, x), []ir.Value{fvv(1)}, float32(math.Sin(1)), 0x1p-11, 0x1p-11 + 0x1p-23},
		{"cos(0.0) is 2^-11", bi(ir.BCos, x), []ir.Value{fvv(0)}, 1, 0x1p-11, 0x1p-11},
		// 0.1f + 0.2f: the exact sum of the two f32 values is not an f32.
		{"0.1 + 0.2 rounds: 1 ULP", bin(ir.OpAdd, x, y), []ir.Value{fvv(0.1), fvv(0.2)},
			float32(float64(float32(0.1)) + float64(float32(0.2))), 0x1p-25, 0x1p-25},
		// (1/3) * 3: propagated 3 * 2.5 ULP(1/3), plus rounding at ~1.
		{"(1.0 / 3.0) * 3.0 propagates", bin(ir.OpMul, bin(ir.OpDiv, x, y), y), []ir.Value{fvv(1), fvv(3)},
			float32(float64(third) * 3), 3*2.5*0x1p-25 + 0x1p-24, 3*2.5*0x1p-25 + 0x1p-23},
		{"inverseSqrt(4.0) is 2 ULP", bi(ir.BInverseSqrt, x), []ir.Value{fvv(4)}, 0.5, 2 * 0x1p-24, 2 * 0x1p-24},
		{"sqrt(4.0) is inherited from 1.0 / inverseSqrt(4.0)", bi(ir.BSqrt, x), []ir.Value{fvv(4)}, 2,
			// 1/y with y = 0.5 ± 2^-23: (2^-23 / 0.25) plus 2.5 ULP of 2.
			0x1p-23/0.25 + 2.5*0x1p-22, 0x1p-23/(0.25-0x1p-24) + 2.5*0x1p-21},
		{"exp(0.0) is 3 ULP", bi(ir.BExp, x), []ir.Value{fvv(0)}, 1, 3 * 0x1p-23, 3 * 0x1p-23},
		{"exp2(2.0) is 3 + 2*2 ULP", bi(ir.BExp2, x), []ir.Value{fvv(2)}, 4, 7 * 0x1p-21, 7 * 0x1p-21},
		{"log(1.0) is absolute 2^-21 in [0.5, 2]", bi(ir.BLog, x), []ir.Value{fvv(1)}, 0, 0x1p-21, 0x1p-21},
		{"log2(8.0) is 3 ULP outside [0.5, 2]", bi(ir.BLog2, x), []ir.Value{fvv(8)}, 3, 3 * 0x1p-22, 3 * 0x1p-22},
		{"atan(1.0) is 4096 ULP", bi(ir.BAtan, x), []ir.Value{fvv(1)}, float32(math.Pi / 4), 4096 * 0x1p-24, 4096 * 0x1p-24},
		{"acos(0.5) is at least 6.77e-5", bi(ir.BAcos, x), []ir.Value{fvv(0.5)}, float32(math.Acos(0.5)), 6.77e-5, 1e-3},
		{"pow(2.0, 3.0) is inherited from exp2(y * log2(x))", bi(ir.BPow, x, y), []ir.Value{fvv(2), fvv(3)}, 8,
			// log2(2) = 1 ± 2^-21 (absolute); y*log2 = 3 ± 3*2^-21 (+1 ULP(3));
			// exp2 of that: 8 * ln2 * that, plus (3 + 2*3) ULP(8).
			8*math.Ln2*3*0x1p-21 + 9*0x1p-20, 8*math.Ln2*(3*0x1p-21+0x1p-21)*1.01 + 9*0x1p-20},
		{"length(3, 4) is inherited", bi(ir.BLength, construct(vecT(2, tF32), x, y)), []ir.Value{fvv(3), fvv(4)}, 5, 1e-7, 1e-5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			names := []string{"x", "y"}[:len(tc.args)]
			o := retOf(t, f32Kernel(tc.e, names...), "k", tc.args...)
			require.NotNil(t, o.Tolerance, desc(o))
			assert.False(t, indeterminate(o), desc(o))
			assert.Equal(t, tc.want, o.Value.F32())
			assert.GreaterOrEqual(t, o.Tolerance[0], tc.min, desc(o))
			assert.LessOrEqual(t, o.Tolerance[0], tc.max, desc(o))
			assert.NotEmpty(t, o.Why)
		})
	}
}

// TestNoFusedMultiplyAdd: x*y - z with x = y = 1 + 2^-12 and z = 1 + 2^-11.
// The product 1 + 2^-11 + 2^-24 is a tie between two f32 values; rounded
// (to even) it is 1 + 2^-11, so the unfused result is exactly 0. A fused
// evaluation would give 2^-24. Go may fuse x*y+z on some architectures
// unless the product is explicitly converted: this catches it.
func TestNoFusedMultiplyAdd(t *testing.T) {
	x, y, z := param("x", tF32), param("y", tF32), param("z", tF32)
	args := []ir.Value{fvv(1 + 0x1p-12), fvv(1 + 0x1p-12), fvv(1 + 0x1p-11)}
	for name, e := range map[string]ir.Expr{
		"x * y - z":      bin(ir.OpSub, bin(ir.OpMul, x, y), z),
		"fma(x, y, -z)":  bi(ir.BFma, x, y, un(ir.OpNeg, z)),
		"mix(0, y, x)-z": bin(ir.OpSub, bi(ir.BMix, fL(0), y, x), z),
	} {
		t.Run(name, func(t *testing.T) {
			o := retOf(t, f32Kernel(e, "x", "y", "z"), "k", args...)
			assert.Equal(t, float32(0), o.Value.F32(), desc(o))
			// The tolerance must cover the fused result.
			require.NotNil(t, o.Tolerance)
			assert.GreaterOrEqual(t, o.Tolerance[0], 0x1p-24)
		})
	}
	assert.Equal(t, 0.0, fFma(fv{1 + 0x1p-12, 0}, fv{1 + 0x1p-12, 0}, fv{-(1 + 0x1p-11), 0}).v)
}

// TestInexactOutcomesAreIndeterminate: comparisons and conversions whose
// outcome may change within the operands' error bounds.
func TestInexactOutcomesAreIndeterminate(t *testing.T) {
	x, y := param("x", tF32), param("y", tF32)
	q := bin(ir.OpMul, bin(ir.OpDiv, x, y), y) // (1/3)*3 ≈ 1
	args := []ir.Value{fvv(1), fvv(3)}
	for _, tc := range []struct {
		name string
		e    ir.Expr
		ind  bool
		want ir.Value
	}{
		{"(1/3)*3 == 1 may go either way", bin(ir.OpEq, q, fL(1)), true, ir.Value{}},
		{"(1/3)*3 < 1 may go either way", bin(ir.OpLt, q, fL(1)), true, ir.Value{}},
		{"(1/3)*3 < 2 is certain", bin(ir.OpLt, q, fL(2)), false, bv(true)},
		{"(1/3)*3 != 5 is certain", bin(ir.OpNe, q, fL(5)), false, bv(true)},
		{"i32((1/3)*3) may be 0 or 1", conv(tI32, q), true, ir.Value{}},
		{"i32(x/y * 10) is certainly 3", conv(tI32, bin(ir.OpMul, bin(ir.OpDiv, x, y), fL(10))), false, iv(3)},
		{"step(1, (1/3)*3) may be 0 or 1", bi(ir.BStep, fL(1), q), true, ir.Value{}},
		{"sign((1/3)*3 - 1) may be -1, 0 or 1", bi(ir.BSign, bin(ir.OpSub, q, fL(1))), true, ir.Value{}},
		{"bitcast<u32>(1/3) depends on the rounding", bitcast(tU32, bin(ir.OpDiv, x, y)), true, ir.Value{}},
		{"select on a certain comparison keeps its arm's bound", sel(fL(0), q, bin(ir.OpLt, x, y)), false, ir.Value{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := retOf(t, f32Kernel(tc.e, "x", "y"), "k", args...)
			assert.Equal(t, tc.ind, indeterminate(o), desc(o))
			if tc.ind {
				assert.Contains(t, o.Why, "f32")
			}
			if tc.want.Type != nil {
				assert.True(t, exact(o), desc(o))
				assert.True(t, ir.Equal(tc.want, o.Value), "got %v", o.Value)
			}
		})
	}
}

func TestUlp(t *testing.T) {
	for _, tc := range []struct {
		x, want float64
	}{
		{1, 0x1p-23}, {1.5, 0x1p-23}, {0.3333, 0x1p-25}, {2, 0x1p-22}, {-3, 0x1p-22},
		{0x1p-126, 0x1p-149}, {0x1p-130, 0x1p-149}, {0, 0x1p-149}, {16777216, 2}, {math.MaxFloat32, 0x1p104},
	} {
		assert.Equal(t, tc.want, ulp(tc.x), "ulp(%g)", tc.x)
	}
}

// TestExactSum32AgreesWithFloat64: the float32 Fast2Sum exactness test of
// the + and - fast path says "exact" exactly when the float64 sum of the
// two f32 values is an f32 (and finite).
func TestExactSum32AgreesWithFloat64(t *testing.T) {
	properties := gopter.NewProperties(nil)
	properties.Property("exactSum32 agrees with float64 arithmetic", prop.ForAll(
		func(a, b uint32, shift uint8) bool {
			// Bias towards operands of nearby magnitude, where sums can be exact.
			b = b&^0x7f800000 | (a&0x7f800000+uint32(shift%8)<<23)&0x7f800000
			if nonFinite(a) || nonFinite(b) || isSubnormal(a) || isSubnormal(b) {
				return true
			}
			u, v := float64(math.Float32frombits(a)), float64(math.Float32frombits(b))
			s := u + v // exact in float64 for operands this close in magnitude
			want := r32(s) == s && math.Abs(s) <= math.MaxFloat32 && twoSumExact(u, v, s)
			r, ok := exactSum32(a, b)
			return ok == want && (!ok || float64(math.Float32frombits(r)) == s)
		},
		gen.UInt32(), gen.UInt32(), gen.UInt8(),
	))
	properties.TestingRun(t)
}

// TestExactMul32IsSound: whenever the float32 fast path calls a product
// exact, the float64 product of the two f32 values (always exact) is that
// f32 value.
func TestExactMul32IsSound(t *testing.T) {
	properties := gopter.NewProperties(nil)
	properties.Property("exactMul32 is sound", prop.ForAll(
		func(a, b uint32, lowZeros uint8) bool {
			// Bias towards short significands, where products are exact.
			z := uint32(lowZeros % 24)
			a &^= 1<<z - 1
			b &^= 1<<(23-z) - 1
			if nonFinite(a) || nonFinite(b) || isSubnormal(a) || isSubnormal(b) {
				return true
			}
			r, ok := exactMul32(a, b)
			p := float64(math.Float32frombits(a)) * float64(math.Float32frombits(b))
			return !ok || (float64(math.Float32frombits(r)) == p && math.Abs(p) <= math.MaxFloat32)
		},
		gen.UInt32(), gen.UInt32(), gen.UInt8(),
	))
	properties.TestingRun(t)
	r, ok := exactMul32(math.Float32bits(3), math.Float32bits(-7))
	assert.True(t, ok)
	assert.Equal(t, float32(-21), math.Float32frombits(r))
	_, ok = exactMul32(math.Float32bits(1+0x1p-12), math.Float32bits(1+0x1p-12))
	assert.False(t, ok)
}
