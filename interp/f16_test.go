package interp

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// f16 in the reference (WGSL #extension-f16, #concrete-float-accuracy's
// f16 column). binary16: 11 significant bits, so the ULP of a value in
// [2^e, 2^(e+1)) is 2^(e-10) (1 at 1024, 2 at 2048, 2^-10 at 1); the
// largest finite value 65504 = (2 - 2^-10) × 2^15; the least normal
// 2^-14. Every expected value and bound below is derived by hand from
// those facts and the accuracy table; the f16 results are read through
// f32(x), which is exact (f16.go: f16 → f32 keeps the bound).

var tF16 = ir.F16

func hL(v float32) *ir.Lit { return lit(ir.F16Val(v)) }

// f16Result runs `return f32(e)` (or vecN<f32>(e)) and returns its output.
func f16Result(t *testing.T, e ir.Expr) Output {
	t.Helper()
	rt := tF32
	if e.Type().Kind == ir.KindVec {
		rt = vecT(e.Type().Len, tF32)
	}
	return retOf(t, exprKernel(conv(rt, e)), "k")
}

// TestF16OperatorsHandDerived: + - * / %, negation and the 65504 boundary.
func TestF16OperatorsHandDerived(t *testing.T) {
	for _, c := range []struct {
		name  string
		e     ir.Expr
		value float64
		tol   float64
		indet bool
	}{
		{"1 + 2: exact", bin(ir.OpAdd, hL(1), hL(2)), 3, 0, false},
		// 1 + 2^-11 is the midpoint of 1 and 1 + 2^-10: the even one, 1,
		// and one ULP (2^-10) for the implementation rounding up.
		{"1 + 2^-11: a tie, to 1", bin(ir.OpAdd, hL(1), hL(0x1p-11)), 1, 0x1p-10, false},
		{"1 + 3 × 2^-11: a tie, to fraction 2", bin(ir.OpAdd, hL(1), hL(3*0x1p-11)), 1 + 0x1p-9, 0x1p-10, false},
		// 2049 is not an f16 (ULP 2 from 2048): the tie goes to 2048
		// (fraction 0), bound one ULP, 2. In f32 this sum is exact.
		{"2048 + 1: a tie, to 2048", bin(ir.OpAdd, hL(2048), hL(1)), 2048, 2, false},
		{"2048 - 1: exact (2047 < 2048, ULP 1)", bin(ir.OpSub, hL(2048), hL(1)), 2047, 0, false},
		{"3 * 7: exact", bin(ir.OpMul, hL(3), hL(7)), 21, 0, false},
		// 1025 * 3 = 3075, ULP 2 in [2048, 4096): between 3074 and 3076,
		// the nearer 3076 (3075 is a tie: 3074 = 1537 × 2 odd, 3076 =
		// 1538 × 2 even).
		{"1025 * 3: a tie, to 3076", bin(ir.OpMul, hL(1025), hL(3)), 3076, 2, false},
		{"65504 * 2: 131008 ≥ 2^16, infinity", bin(ir.OpMul, hL(65504), hL(2)), 0, 0, true},
		// 65512 is in (65504, 65520): rounds to 65504, but WGSL lets it be
		// infinity (#floating-point-rounding-and-overflow).
		{"65504 + 8: 65504 or infinity", bin(ir.OpAdd, hL(65504), hL(8)), 0, 0, true},
		{"65472 + 32: exactly 65504", bin(ir.OpAdd, hL(65472), hL(32)), 65504, 0, false},
		// 1/3 in [0.25, 0.5), ULP 2^-12: 1365.33 × 2^-12 → 1365 × 2^-12,
		// 2.5 ULP.
		{"1 / 3: 2.5 ULP", bin(ir.OpDiv, hL(1), hL(3)), 1365 * 0x1p-12, 2.5 * 0x1p-12, false},
		{"1 / 2^14: |y| at the top of [2^-14, 2^14], a power of two: exact", bin(ir.OpDiv, hL(1), hL(0x1p14)), 0x1p-14, 0, false},
		{"1 / 2^15: |y| beyond 2^14", bin(ir.OpDiv, hL(1), hL(0x1p15)), 0, 0, true},
		{"1 / 2^-15: |y| below 2^-14", bin(ir.OpDiv, hL(1), hL(0x1p-15)), 0, 0, true},
		{"7 % 3: exact", bin(ir.OpRem, hL(7), hL(3)), 1, 0, false},
		{"-(1.5)", un(ir.OpNeg, hL(1.5)), -1.5, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := f16Result(t, c.e)
			if c.indet {
				assert.True(t, indeterminate(o), "%s", desc(o))
				return
			}
			require.False(t, indeterminate(o), "%s", desc(o))
			assert.Equal(t, c.value, float64(o.Value.F32()), "%s", desc(o))
			tol := 0.0
			if o.Tolerance != nil {
				tol = o.Tolerance[0]
			}
			assert.Equal(t, c.tol, tol, "%s", desc(o))
		})
	}
}

// TestF16BuiltinsHandDerived: the builtins whose f16 accuracy differs from
// f32's (sin, cos 2^-7; exp 1 + 2|x| ULP; log 2^-7 on [0.5, 2], else 3
// ULP; atan 5 ULP) and the exact ones.
func TestF16BuiltinsHandDerived(t *testing.T) {
	for _, c := range []struct {
		name  string
		e     ir.Expr
		value float64
		tol   float64
		indet bool
	}{
		// sin(0.5) = 0.4794255…, in [0.25, 0.5) (ULP 2^-12): 1963.7 ×
		// 2^-12 → 1964 × 2^-12 = 0.4794921875; 2^-7 plus the
		// reference's own rounding, one ULP.
		{"sin(0.5)", bi(ir.BSin, hL(0.5)), 1964 * 0x1p-12, 0x1p-7 + 0x1p-12, false},
		{"sin(4): outside [-π, π]", bi(ir.BSin, hL(4)), 0, 0, true},
		{"cos(0): 1, 2^-7", bi(ir.BCos, hL(0)), 1, 0x1p-7, false},
		// e = 2.71828…, ULP 2^-9 in [2, 4): 1391.8 × 2^-9 → 1392 × 2^-9;
		// 1 + 2|x| = 3 ULP.
		{"exp(1)", bi(ir.BExp, hL(1)), 1392 * 0x1p-9, 3 * 0x1p-9, false},
		// log(1.5) = 0.405465…, ULP 2^-12: 1660.8 → 1661 × 2^-12; 2^-7
		// plus one ULP.
		{"log(1.5): absolute 2^-7", bi(ir.BLog, hL(1.5)), 1661 * 0x1p-12, 0x1p-7 + 0x1p-12, false},
		// log(4) = 1.386294…, ULP 2^-10: 1419.6 → 1420 × 2^-10; 3 ULP.
		{"log(4): 3 ULP", bi(ir.BLog, hL(4)), 1420 * 0x1p-10, 3 * 0x1p-10, false},
		{"log(0)", bi(ir.BLog, hL(0)), 0, 0, true},
		// atan(1) = π/4 = 0.785398…, ULP 2^-11 in [0.5, 1): 1608.5 →
		// 1608 × 2^-11 (1608.49…); 5 ULP.
		{"atan(1): 5 ULP", bi(ir.BAtan, hL(1)), 1608 * 0x1p-11, 5 * 0x1p-11, false},
		{"abs(-2.5)", bi(ir.BAbs, hL(-2.5)), 2.5, 0, false},
		{"floor(-2.5)", bi(ir.BFloor, hL(-2.5)), -3, 0, false},
		{"ceil(2.25)", bi(ir.BCeil, hL(2.25)), 3, 0, false},
		{"round(2.5): to even", bi(ir.BRound, hL(2.5)), 2, 0, false},
		{"trunc(-2.75)", bi(ir.BTrunc, hL(-2.75)), -2, 0, false},
		{"fract(2.75)", bi(ir.BFract, hL(2.75)), 0.75, 0, false},
		{"sign(-3)", bi(ir.BSign, hL(-3)), -1, 0, false},
		{"step(1, 2)", bi(ir.BStep, hL(1), hL(2)), 1, 0, false},
		{"min(1, -2)", bi(ir.BMin, hL(1), hL(-2)), -2, 0, false},
		{"max(1, -2)", bi(ir.BMax, hL(1), hL(-2)), 1, 0, false},
		{"clamp(5, 0, 4)", bi(ir.BClamp, hL(5), hL(0), hL(4)), 4, 0, false},
		{"fma(2, 3, 1): exact", bi(ir.BFma, hL(2), hL(3), hL(1)), 7, 0, false},
		{"mix(2, 4, 0.5): exact", bi(ir.BMix, hL(2), hL(4), hL(0.5)), 3, 0, false},
		{"ldexp(1.5, 3)", bi(ir.BLdexp, hL(1.5), iL(3)), 12, 0, false},
		{"ldexp(1, 17): e2 > bias + 1 = 16", bi(ir.BLdexp, hL(1), iL(17)), 0, 0, true},
		{"exp(12): e^12 ≈ 162755 > 65504", bi(ir.BExp, hL(12)), 0, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := f16Result(t, c.e)
			if c.indet {
				assert.True(t, indeterminate(o), "%s", desc(o))
				return
			}
			require.False(t, indeterminate(o), "%s", desc(o))
			assert.Equal(t, c.value, float64(o.Value.F32()), "%s", desc(o))
			tol := 0.0
			if o.Tolerance != nil {
				tol = o.Tolerance[0]
			}
			assert.InDelta(t, c.tol, tol, c.tol*1e-12, "%s", desc(o))
		})
	}
}

// TestF16VectorsAndMatrices: dot's exact and inexact sums (an exact sum
// needs every term and partial sum within 11 bits), a mat2x2<f16> times a
// vector, and the products' bound in binary16 ULPs.
func TestF16VectorsAndMatrices(t *testing.T) {
	v2 := vecT(2, tF16)
	vec := func(a, b float32) ir.Expr { return construct(v2, hL(a), hL(b)) }
	o := f16Result(t, bi(ir.BDot, vec(1, 2), vec(3, 4)))
	require.True(t, exact(o), "%s", desc(o))
	assert.Equal(t, float32(11), o.Value.F32())

	// 1024 × 2 + 1 × 1 = 2049: 2049 > 2^11 units of the smallest term's
	// lowest bit (1): one addition may round by one ULP of 2049 (2); the
	// reference's nearest even is 2048.
	o = f16Result(t, bi(ir.BDot, vec(1024, 1), vec(2, 1)))
	require.False(t, indeterminate(o), "%s", desc(o))
	assert.Equal(t, float32(2048), o.Value.F32())
	assert.Equal(t, []float64{2}, o.Tolerance)

	m := construct(ir.MatOf(2, 2, tF16), vec(1, 2), vec(3, 4)) // columns (1, 2), (3, 4)
	o = f16Result(t, bin(ir.OpMul, m, vec(1, 1)))
	require.True(t, exact(o), "%s", desc(o))
	assert.Equal(t, vecV(tF32, fvv(4), fvv(6)), o.Value)

	// m * 2049-ish scalar: component-wise products in f16 (1025 * 3 is
	// a tie to 3076, as for the scalar operator).
	m2 := construct(ir.MatOf(2, 2, tF16), vec(1025, 1), vec(1, 1))
	o = retOf(t, module(nil, fn("k", nil, vecT(2, tF32), ret(conv(vecT(2, tF32), idx(bin(ir.OpMul, m2, hL(3)), iL(0)))))), "k")
	require.False(t, indeterminate(o), "%s", desc(o))
	assert.Equal(t, vecV(tF32, fvv(3076), fvv(3)), o.Value)
	assert.Equal(t, []float64{2, 0}, o.Tolerance)
}

// TestF16Conversions: f32 → f16 rounds either way (one ULP where inexact)
// and is indeterminate beyond 65504; i32 → f16 likewise; f16 → i32/u32
// truncates and clamps (WGSL #floating-point-conversion).
func TestF16Conversions(t *testing.T) {
	// 0.1f = 13421773 × 2^-27 = 0.100000001…; binary16 in [2^-4, 2^-3)
	// has ULP 2^-14: 0.1 × 2^14 = 1638.4 → 1638 × 2^-14 = 0.0999755859375
	// (bits 0x2E66), one ULP.
	o := f16Result(t, conv(tF16, fL(0.1)))
	require.False(t, indeterminate(o), "%s", desc(o))
	assert.Equal(t, float32(1638*0x1p-14), o.Value.F32())
	assert.Equal(t, []float64{0x1p-14}, o.Tolerance)

	o = f16Result(t, conv(tF16, fL(65504)))
	assert.True(t, exact(o), "%s", desc(o))
	assert.True(t, indeterminate(f16Result(t, conv(tF16, fL(65519)))), "65519: 65504 or infinity")
	assert.True(t, indeterminate(f16Result(t, conv(tF16, fL(1e6)))))

	// 2049 lies between 2048 and 2050: the even 2048, one ULP (2).
	o = f16Result(t, conv(tF16, iL(2049)))
	assert.Equal(t, float32(2048), o.Value.F32())
	assert.Equal(t, []float64{2}, o.Tolerance)
	assert.True(t, exact(f16Result(t, conv(tF16, iL(-7)))))
	assert.True(t, indeterminate(f16Result(t, conv(tF16, uL(65536)))), "beyond 65504")

	for _, c := range []struct {
		name string
		e    ir.Expr
		want ir.Value
	}{
		{"i32(-3.5h)", conv(tI32, hL(-3.5)), iv(-3)},
		{"u32(-1h): clamped to 0", conv(tU32, hL(-1)), uv(0)},
		{"u32(65504h)", conv(tU32, hL(65504)), uv(65504)},
		{"bool(0.5h)", conv(tBool, hL(0.5)), bv(true)},
		{"f32(f16(true))", conv(tF32, conv(tF16, bL(true))), fvv(1)},
		{"1.5h < 2h", bin(ir.OpLt, hL(1.5), hL(2)), bv(true)},
		{"1.5h == 1.5h", bin(ir.OpEq, hL(1.5), hL(1.5)), bv(true)},
		{"select(1h, 2h, true)", conv(tF32, sel(hL(1), hL(2), bL(true))), fvv(2)},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := retOf(t, exprKernel(c.e), "k")
			assert.True(t, exact(o), "%s", desc(o))
			assert.Equal(t, c.want, o.Value)
		})
	}
	// A comparison within the bound of an inexact operand is ambiguous:
	// 1 + 2^-11 is 1 within 2^-10.
	o = retOf(t, exprKernel(bin(ir.OpEq, bin(ir.OpAdd, hL(1), hL(0x1p-11)), hL(1))), "k")
	assert.True(t, indeterminate(o), "%s", desc(o))
}

// TestF16Bitcast: vec2<f16> ↔ 32-bit types, the first component in the
// low 16 bits (WGSL #bitcast-builtin, #internal-value-layout).
func TestF16Bitcast(t *testing.T) {
	probe := exprKernel(bitcast(tU32, construct(vecT(2, tF16), hL(1), hL(2))))
	if err := ir.Verify(probe); err != nil {
		t.Skipf("ir.Verify refuses a bitcast between types of different widths (%v): vec2<f16> ↔ u32 is valid WGSL", err)
	}
	for _, c := range []struct {
		name string
		e    ir.Expr
		want ir.Value
	}{
		// vec2<f16>(1, 2): 0x3C00 in the low half, 0x4000 in the high.
		{"bitcast<u32>(vec2<f16>(1, 2))", bitcast(tU32, construct(vecT(2, tF16), hL(1), hL(2))), uv(0x40003C00)},
		{"bitcast<vec2<f16>>(0x40003C00u).y", conv(tF32, swz(bitcast(vecT(2, tF16), uL(0x40003C00)), 1)), fvv(2)},
		{"bitcast<vec2<u32>>(vec4<f16>(1, 2, -2, 0.5))", bitcast(vecT(2, tU32), construct(vecT(4, tF16), hL(1), hL(2), hL(-2), hL(0.5))),
			vecV(tU32, uv(0x40003C00), uv(0x3800C000))},
		{"bitcast<vec2<f16>>(1.0f): 0x3F800000 is (0, 1.875)", conv(vecT(2, tF32), bitcast(vecT(2, tF16), fL(1))), vecV(tF32, fvv(0), fvv(1.875))},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := retOf(t, exprKernel(c.e), "k")
			assert.True(t, exact(o), "%s", desc(o))
			assert.Equal(t, c.want, o.Value)
		})
	}
	// bitcast<u32> of an inexact f16 is indeterminate (its bits may vary):
	// f16(0.1f) may be 0x2E66 (the reference's, the nearer) or 0x2E67.
	o := retOf(t, exprKernel(bitcast(tU32, construct(vecT(2, tF16), conv(tF16, fL(0.1)), hL(0)))), "k")
	assert.True(t, indeterminate(o), "%s", desc(o))
	assert.Equal(t, uv(0x2E66), o.Value)
	o = retOf(t, exprKernel(bitcast(tU32, construct(vecT(2, tF16), bin(ir.OpAdd, hL(1), hL(0x1p-11)), hL(0)))), "k")
	assert.True(t, indeterminate(o), "%s", desc(o))
	// bitcast<vec2<f16>>(0x7C00u).x is +infinity: indeterminate.
	o = f16Result(t, swz(bitcast(vecT(2, tF16), uL(0x7C00)), 0))
	assert.True(t, indeterminate(o), "%s", desc(o))
}

// TestF16Branch: an if on an f16 comparison takes the right arm (f16
// comparisons are branched on as a bool, never as f32 bits: 0x3E00 (1.5)
// and 0x4000 (2) read as f32 bits would still order correctly, so the
// test also compares -1.5h < 1h, whose sign bits sit at bit 15).
func TestF16Branch(t *testing.T) {
	r := local("r", tF32)
	m := module(nil, fn("k", nil, tF32,
		varDecl("r", tF32, fL(0)),
		if_(bin(ir.OpLt, hL(-1.5), hL(1)), assign(r, fL(1))),
		if_(bin(ir.OpGt, hL(-1.5), hL(1)), assign(r, fL(2))),
		ret(r)))
	o := retOf(t, m, "k")
	assert.True(t, exact(o), "%s", desc(o))
	assert.Equal(t, fvv(1), o.Value)
}

// TestF16ResultsContainTheCorrectlyRoundedValue is the property: for
// random finite f16 operands, the reference's x op y ± its bound
// contains every value WGSL allows — for + - *, both binary16 neighbours
// of the exact result (computed independently, exactly, with math/big);
// for /, every value within 2.5 ULP of the exact quotient — and the
// result is indeterminate whenever the exact result lies beyond 65504.
func TestF16ResultsContainTheCorrectlyRoundedValue(t *testing.T) {
	rng := rand.New(rand.NewSource(40))
	// The operands come in as f32 arguments holding f16 values exactly
	// (f16(x) is then exact).
	a, b := conv(tF16, param("x", tF32)), conv(tF16, param("y", tF32))
	ops := []ir.BinaryOp{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv}
	for _, op := range ops {
		m := exprKernel(conv(tF32, bin(op, a, b)), P{"x", tF32}, P{"y", tF32})
		prog, err := Compile(m, "k")
		require.NoError(t, err)
		var args [][]ir.Value
		var xs, ys []uint16
		for len(args) < 4000 {
			x, y := randF16(rng), randF16(rng)
			xs, ys = append(xs, x), append(ys, y)
			args = append(args, []ir.Value{fvv(float32(wgslsem.F16Value(x))), fvv(float32(wgslsem.F16Value(y)))})
		}
		invs, err := prog.Run(args, Options{})
		require.NoError(t, err)
		checked := 0
		for i, inv := range invs {
			require.NoError(t, inv.Err)
			o := inv.Outputs[0]
			x, y := new(big.Rat).SetFloat64(wgslsem.F16Value(xs[i])), new(big.Rat).SetFloat64(wgslsem.F16Value(ys[i]))
			var exactR *big.Rat
			switch op {
			case ir.OpAdd:
				exactR = new(big.Rat).Add(x, y)
			case ir.OpSub:
				exactR = new(big.Rat).Sub(x, y)
			case ir.OpMul:
				exactR = new(big.Rat).Mul(x, y)
			default:
				yv := math.Abs(wgslsem.F16Value(ys[i]))
				if yv < 0x1p-14 || yv > 0x1p14 {
					continue // indeterminate by the table: nothing to contain
				}
				exactR = new(big.Rat).Quo(x, y)
			}
			ex, _ := exactR.Float64()
			if math.Abs(ex) > 65504 {
				assert.True(t, indeterminate(o), "%#04x %v %#04x = %g: beyond 65504 must be indeterminate: %s", xs[i], op, ys[i], ex, desc(o))
				continue
			}
			lo, hi := f16Around(exactR)
			if indeterminate(o) {
				continue // allowed (e.g. in (65504 - ULP, 65504], or a flushed subnormal operand)
			}
			v := float64(o.Value.F32())
			tol := 0.0
			if o.Tolerance != nil {
				tol = o.Tolerance[0]
			}
			want := []float64{lo, hi}
			if yv := math.Abs(wgslsem.F16Value(ys[i])); op == ir.OpDiv && lo == hi && math.Abs(ex) >= 0x1p-14 && yv == math.Exp2(math.Round(math.Log2(yv))) {
				// An exact quotient by a power of two: exact, the one place
				// the reference is stricter than the table (doc.go, fDiv).
				assert.Equal(t, lo, v, "%#04x / %#04x", xs[i], ys[i])
				assert.Nil(t, o.Tolerance, "%#04x / %#04x", xs[i], ys[i])
				continue
			}
			if op == ir.OpDiv {
				// Every binary16 value within 2.5 ULP of the exact quotient
				// (ULP: the gap around it, the smaller one where it is a
				// binary16 value), at most two steps past each neighbour.
				u := hi - lo
				if lo == hi {
					u = math.Min(f16Step(lo, 1)-lo, lo-f16Step(lo, -1))
				}
				lim := new(big.Rat).SetFloat64(2.5 * u)
				want = nil
				for _, w := range []float64{f16Step(f16Step(lo, -1), -1), f16Step(lo, -1), lo, hi, f16Step(hi, 1), f16Step(f16Step(hi, 1), 1)} {
					if math.IsInf(w, 0) {
						continue
					}
					d := new(big.Rat).Sub(new(big.Rat).SetFloat64(w), exactR)
					if d.Abs(d).Cmp(lim) <= 0 {
						want = append(want, w)
					}
				}
			}
			for _, w := range want {
				if !(math.Abs(w-v) <= tol) && !(math.Abs(w) < 0x1p-14 && math.Abs(v) < 0x1p-14) {
					t.Fatalf("%#04x (%g) %v %#04x (%g): exact %g, allowed %g, reference %g ± %g", xs[i], wgslsem.F16Value(xs[i]), op, ys[i], wgslsem.F16Value(ys[i]), ex, w, v, tol)
				}
			}
			checked++
		}
		assert.Greater(t, checked, 2000, "%v: enough determinate results", op)
	}
}

// f16Step returns the binary16 value next to v (a binary16 value) above
// it (dir 1) or below it (dir -1), by its bits.
func f16Step(v float64, dir int) float64 {
	h, _, _ := wgslsem.F64ToF16(v)
	switch {
	case v == 0 && dir > 0:
		h = 0x0001
	case v == 0:
		h = 0x8001
	case (v > 0) == (dir > 0):
		h++ // away from zero
	default:
		h-- // towards zero
	}
	return wgslsem.F16Value(h)
}

// randF16 returns random finite binary16 bits, most of them of moderate
// magnitude (exponents 2^-8 .. 2^9), some anywhere in the finite range.
func randF16(rng *rand.Rand) uint16 {
	for {
		var h uint16
		if rng.Intn(4) == 0 {
			h = uint16(rng.Intn(0x10000))
		} else {
			h = uint16(rng.Intn(2))<<15 | uint16(rng.Intn(18)+7)<<10 | uint16(rng.Intn(1024))
		}
		if h&0x7C00 != 0x7C00 {
			return h
		}
	}
}

// f16Around returns the binary16 values just below and just above x,
// |x| ≤ 65504 (both x when x is one), found from exact comparisons of x
// with the candidates next to float64(x)'s nearest binary16 — independent
// of the reference's rounding.
func f16Around(x *big.Rat) (lo, hi float64) {
	f, _ := x.Float64()
	h, _, _ := wgslsem.F64ToF16(f)
	// Step from a candidate near x to the two values around it.
	cand := []uint16{h}
	if h&0x7FFF != 0 {
		cand = append(cand, h-1)
	}
	if h&0x7FFF < 0x7BFF {
		cand = append(cand, h+1)
	}
	if h&0x7FFF == 0 {
		cand = append(cand, h^0x8000|1, h|1) // the least subnormals either side of zero
	}
	lo, hi = math.Inf(-1), math.Inf(1)
	for _, c := range cand {
		v := wgslsem.F16Value(c)
		if math.IsInf(v, 0) {
			continue
		}
		switch new(big.Rat).SetFloat64(v).Cmp(x) {
		case 0:
			return v, v
		case -1:
			lo = math.Max(lo, v)
		case 1:
			hi = math.Min(hi, v)
		}
	}
	return lo, hi
}

// TestF16ConversionAndSqrtContainTheAllowedValues is the property for
// f32 → f16 (rounded either way: both binary16 neighbours of the f32
// value must lie within the bound; beyond 65504 indeterminate) and for
// sqrt (inherited from 1.0 / inverseSqrt(x): at least the correctly
// rounded square root, computed with math/big, lies within the bound).
func TestF16ConversionAndSqrtContainTheAllowedValues(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	x := param("x", tF32)
	conv16, err := Compile(exprKernel(conv(tF32, conv(tF16, x)), P{"x", tF32}), "k")
	require.NoError(t, err)
	sqrt16, err := Compile(exprKernel(conv(tF32, bi(ir.BSqrt, conv(tF16, x))), P{"x", tF32}), "k")
	require.NoError(t, err)
	var fs, hs []float32
	var convArgs, sqrtArgs [][]ir.Value
	for i := 0; i < 4000; i++ {
		f := float32(math.Ldexp(rng.Float64()*2-1, rng.Intn(34)-17))
		fs = append(fs, f)
		convArgs = append(convArgs, []ir.Value{fvv(f)})
		h := randF16(rng) &^ 0x8000 // a non-negative f16
		hs = append(hs, float32(wgslsem.F16Value(h)))
		sqrtArgs = append(sqrtArgs, []ir.Value{fvv(hs[i])})
	}
	invs, err := conv16.Run(convArgs, Options{})
	require.NoError(t, err)
	for i, inv := range invs {
		o := inv.Outputs[0]
		f := float64(fs[i])
		if math.Abs(f) > 65504 {
			assert.True(t, indeterminate(o), "f16(%g): %s", f, desc(o))
			continue
		}
		require.False(t, indeterminate(o), "f16(%g): %s", f, desc(o))
		lo, hi := f16Around(new(big.Rat).SetFloat64(f))
		tol := 0.0
		if o.Tolerance != nil {
			tol = o.Tolerance[0]
		}
		for _, w := range []float64{lo, hi} {
			assert.LessOrEqual(t, math.Abs(w-float64(o.Value.F32())), tol, "f16(%g): allowed %g, reference %s", f, w, desc(o))
		}
	}
	invs, err = sqrt16.Run(sqrtArgs, Options{})
	require.NoError(t, err)
	for i, inv := range invs {
		o := inv.Outputs[0]
		if indeterminate(o) {
			continue
		}
		// The correctly rounded square root: a neighbour of the exact one,
		// the nearer (by exact squares: r² against x).
		s := math.Sqrt(float64(hs[i]))
		lo, hi := f16Around(new(big.Rat).SetFloat64(s))
		tol := 0.0
		if o.Tolerance != nil {
			tol = o.Tolerance[0]
		}
		for _, w := range []float64{lo, hi} {
			if math.Abs(w) < 0x1p-14 && float64(o.Value.F32()) < 0x1p-14 {
				continue // subnormal or zero: equal under flushing
			}
			assert.LessOrEqual(t, math.Abs(w-float64(o.Value.F32())), tol, "sqrt(%g): neighbour %g, reference %s", hs[i], w, desc(o))
		}
	}
}

// TestF16InheritedBuiltins: builtins whose f16 accuracy is inherited
// (length, distance, normalize, pow, smoothstep, cross, determinant,
// tanh, asin): the exact value (by hand) lies within the reference's
// bound, which is nonzero where the inherited expression rounds.
func TestF16InheritedBuiltins(t *testing.T) {
	v2, v3 := vecT(2, tF16), vecT(3, tF16)
	for _, c := range []struct {
		name   string
		e      ir.Expr
		want   []float64
		exactB bool // the bound must be 0
	}{
		{"length((3, 4)) = 5", bi(ir.BLength, construct(v2, hL(3), hL(4))), []float64{5}, false},
		{"distance((0, 0), (3, 4)) = 5", bi(ir.BDistance, construct(v2, hL(0), hL(0)), construct(v2, hL(3), hL(4))), []float64{5}, false},
		{"normalize((3, 4)) = (0.6, 0.8)", bi(ir.BNormalize, construct(v2, hL(3), hL(4))), []float64{0.6, 0.8}, false},
		{"pow(2, 3) = 8", bi(ir.BPow, hL(2), hL(3)), []float64{8}, false},
		{"smoothstep(0, 1, 0.5) = 0.5", bi(ir.BSmoothstep, hL(0), hL(1), hL(0.5)), []float64{0.5}, true},
		{"cross(x, y) = z", bi(ir.BCross, construct(v3, hL(1), hL(0), hL(0)), construct(v3, hL(0), hL(1), hL(0))), []float64{0, 0, 1}, true},
		{"determinant([[1, 2], [3, 4]]) = -2", bi(ir.BDeterminant, construct(ir.MatOf(2, 2, tF16), construct(v2, hL(1), hL(2)), construct(v2, hL(3), hL(4)))), []float64{-2}, true},
		{"tanh(0.5) = 0.46211715…", bi(ir.BTanh, hL(0.5)), []float64{0.46211715726000974}, false},
		{"asin(0.5) = π/6", bi(ir.BAsin, hL(0.5)), []float64{math.Pi / 6}, false},
		{"degrees(π/2 as f16)", bi(ir.BDegrees, hL(1.5703125)), []float64{1.5703125 * 180 / math.Pi}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := f16Result(t, c.e)
			require.False(t, indeterminate(o), "%s", desc(o))
			got := []float64{float64(o.Value.F32())}
			if o.Value.Elems != nil {
				got = got[:0]
				for _, e := range o.Value.Elems {
					got = append(got, float64(e.F32()))
				}
			}
			require.Len(t, got, len(c.want))
			for i, w := range c.want {
				tol := 0.0
				if o.Tolerance != nil {
					tol = o.Tolerance[i]
				}
				if c.exactB {
					assert.Equal(t, w, got[i], "%s", desc(o))
					assert.Zero(t, tol, "%s", desc(o))
					continue
				}
				assert.Greater(t, tol, 0.0, "lane %d: %s", i, desc(o))
				assert.LessOrEqual(t, math.Abs(w-got[i]), tol, "lane %d: %s", i, desc(o))
			}
		})
	}
}

// TestF16ModfFrexp: modf and frexp of an f16 are exact (12 = 0.75 × 2^4;
// -2.5 = -0.5 + -2).
func TestF16ModfFrexp(t *testing.T) {
	if ir.ModfResult(tF16).Struct.Fields[0].Type.Kind != ir.KindF16 || ir.FrexpResult(tF16).Struct.Fields[0].Type.Kind != ir.KindF16 {
		t.Skip("ir.ModfResult and ir.FrexpResult give f32's structs for f16 (WGSL: __modf_result_f16, __frexp_result_f16)")
	}
	fr := bi(ir.BFrexp, hL(12))
	o := f16Result(t, mem(fr, 0))
	assert.True(t, exact(o), "%s", desc(o))
	assert.Equal(t, fvv(0.75), o.Value)
	o = retOf(t, exprKernel(mem(bi(ir.BFrexp, hL(12)), 1)), "k")
	assert.Equal(t, iv(4), o.Value)
	md := bi(ir.BModf, hL(-2.5))
	o = f16Result(t, mem(md, 0))
	assert.Equal(t, fvv(-0.5), o.Value, "%s", desc(o))
	o = f16Result(t, mem(bi(ir.BModf, hL(-2.5)), 1))
	assert.Equal(t, fvv(-2), o.Value, "%s", desc(o))
}

// TestF16BuiltinsContainTheAllowedValues is the property for the
// builtins with an f16 bound of their own: for random f16 x in the
// domain, every binary16 value WGSL allows — within 2^-7 of sin x and
// cos x on [-π, π], within (1 + 2|x|) ULP of exp x and exp2 x, within
// 2^-7 of log x and log2 x on [0.5, 2] and 3 ULP elsewhere, within 5 ULP
// of atan x, within 2 ULP of inverseSqrt x — lies within the reference's
// bound (the exact values from float64's math, far more precise than
// binary16's ULP). ULP: the spacing of binary16 values at the exact value.
func TestF16BuiltinsContainTheAllowedValues(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	spacing := func(x float64) float64 {
		lo, hi := f16Around(new(big.Rat).SetFloat64(x))
		if lo == hi {
			return math.Min(f16Step(lo, 1)-lo, lo-f16Step(lo, -1))
		}
		return hi - lo
	}
	for _, c := range []struct {
		fn     ir.Builtin
		f      func(float64) float64
		lo, hi float64                    // the domain drawn from
		allow  func(x, y float64) float64 // the allowed distance from the exact y
	}{
		{ir.BSin, math.Sin, -math.Pi, math.Pi, func(x, y float64) float64 { return 0x1p-7 }},
		{ir.BCos, math.Cos, -math.Pi, math.Pi, func(x, y float64) float64 { return 0x1p-7 }},
		{ir.BExp, math.Exp, -8, 8, func(x, y float64) float64 { return (1 + 2*math.Abs(x)) * spacing(y) }},
		{ir.BExp2, math.Exp2, -12, 12, func(x, y float64) float64 { return (1 + 2*math.Abs(x)) * spacing(y) }},
		{ir.BLog, math.Log, 0x1p-10, 60000, func(x, y float64) float64 {
			if x >= 0.5 && x <= 2 {
				return 0x1p-7
			}
			return 3 * spacing(y)
		}},
		{ir.BLog2, math.Log2, 0x1p-10, 60000, func(x, y float64) float64 {
			if x >= 0.5 && x <= 2 {
				return 0x1p-7
			}
			return 3 * spacing(y)
		}},
		{ir.BAtan, math.Atan, -100, 100, func(x, y float64) float64 { return 5 * spacing(y) }},
		{ir.BInverseSqrt, func(x float64) float64 { return 1 / math.Sqrt(x) }, 0x1p-10, 60000, func(x, y float64) float64 { return 2 * spacing(y) }},
	} {
		prog, err := Compile(exprKernel(conv(tF32, bi(c.fn, conv(tF16, param("x", tF32)))), P{"x", tF32}), "k")
		require.NoError(t, err)
		var xs []float64
		var args [][]ir.Value
		for len(xs) < 3000 {
			var x float64
			if c.lo > 0 { // log-uniform over a positive domain
				x = math.Exp(math.Log(c.lo) + rng.Float64()*(math.Log(c.hi)-math.Log(c.lo)))
			} else {
				x = c.lo + rng.Float64()*(c.hi-c.lo)
			}
			x = r16(x)
			if x < c.lo || x > c.hi || (x != 0 && math.Abs(x) < 0x1p-14) {
				continue
			}
			xs = append(xs, x)
			args = append(args, []ir.Value{fvv(float32(x))})
		}
		invs, err := prog.Run(args, Options{})
		require.NoError(t, err)
		checked := 0
		for i, inv := range invs {
			o := inv.Outputs[0]
			if indeterminate(o) {
				continue
			}
			x := xs[i]
			y := c.f(x)
			a := c.allow(x, y)
			v := float64(o.Value.F32())
			tol := 0.0
			if o.Tolerance != nil {
				tol = o.Tolerance[0]
			}
			// The extreme allowed binary16 values: the nearest to y ± a
			// inside the interval.
			for _, end := range []float64{y - a, y + a} {
				w := r16(end)
				if w < y-a {
					w = f16Step(w, 1)
				} else if w > y+a {
					w = f16Step(w, -1)
				}
				if math.Abs(w) < 0x1p-14 && math.Abs(v) < 0x1p-14 {
					continue
				}
				if !(math.Abs(w-v) <= tol) {
					t.Fatalf("%s(%g) = %g: allowed %g (±%g), reference %g ± %g", ir.Builtins[c.fn].Name, x, y, w, a, v, tol)
				}
			}
			checked++
		}
		assert.Greater(t, checked, 2000, "%s: enough determinate results", ir.Builtins[c.fn].Name)
	}
}

// TestF16EmitsNoF32FastPath: a kernel of f16 + - *, vector arithmetic, a
// scale by 2.0h, clamp, negation, f16(i32), comparisons branched on and a
// loop compiles to no instruction whose fast path reads binary32 bits
// (code.go, fuse.go): every f16 operation is a closure (opFn) over f16F's
// kernels.
func TestF16EmitsNoF32FastPath(t *testing.T) {
	build := func(ft *ir.Type, fl func(float32) *ir.Lit) *ir.Module {
		v4 := vecT(4, ft)
		x, v, i := local("x", ft), local("v", v4), local("i", tI32)
		body := []ir.Stmt{
			varDecl("x", ft, fl(1.5)),
			varDecl("v", v4, construct(v4, fl(1), fl(2), fl(3), fl(4))),
		}
		body = append(body, forLoop("i", 0, 4,
			assign(x, bin(ir.OpAdd, bin(ir.OpMul, x, fl(2)), conv(ft, i))),
			assign(x, bin(ir.OpSub, x, fl(0.25))),
			assign(v, bin(ir.OpAdd, bin(ir.OpMul, v, fl(2)), v)),
			assign(v, bi(ir.BClamp, bin(ir.OpAdd, v, v), construct(v4, fl(0)), construct(v4, fl(100)))),
			if_(bin(ir.OpLt, x, fl(3)), assign(x, un(ir.OpNeg, x))),
			if_(bin(ir.OpGe, swz(v, 0), x), assign(x, bi(ir.BAbs, x))),
			assign(x, conv(ft, bin(ir.OpAnd, i, iL(7)))),
		)...)
		return module(nil, fn("k", nil, tF32, append(body, ret(conv(tF32, bin(ir.OpAdd, x, swz(v, 3)))))...))
	}
	f32Ops := map[opcode]bool{opAddF: true, opMulF: true, opCmpF: true, opI2F: true, opNegF: true, opAddFV: true,
		opMulFV: true, opClampFV: true, opScaleFV: true, opBrF: true, opAddFVClampFV: true, opAndKI2F: true}
	count := func(m *ir.Module) int {
		p, err := Compile(m, "k")
		require.NoError(t, err)
		n := 0
		for _, in := range p.kernel.body {
			if f32Ops[in.op] {
				n++
			}
		}
		return n
	}
	assert.Zero(t, count(build(tF16, hL)), "f32 fast-path instructions in the f16 kernel")
	assert.Greater(t, count(build(tF32, fL)), 5, "the same kernel in f32 uses them (the check can fail)")
	// Small integer values (x ends as 3 & 7 = 3, v.w clamped to 100):
	// exact in both, so the results agree.
	o := retOf(t, build(tF16, hL), "k")
	require.False(t, indeterminate(o), "%s", desc(o))
	o32 := retOf(t, build(tF32, fL), "k")
	assert.Equal(t, o32.Value, o.Value, "f16 %s, f32 %s", desc(o), desc(o32))
}

// TestF16InheritedResultsContainTheExactValue is the property for the
// builtins whose f16 accuracy is inherited from an expression (and a few
// with a table entry): WGSL lets an implementation be more accurate than
// the expression, so both binary16 neighbours of the exact value — and
// with them the exact value — must lie within the reference's bound
// wherever it is determinate. The exact values come from float64 math
// (errors near 2^-52 relative, far below binary16's 2^-11).
func TestF16InheritedResultsContainTheExactValue(t *testing.T) {
	rng := rand.New(rand.NewSource(1616))
	h := func(name string) ir.Expr { return conv(tF16, param(name, tF32)) }
	v2 := func(a, b ir.Expr) ir.Expr { return construct(vecT(2, tF16), a, b) }
	v3 := func(a, b, c ir.Expr) ir.Expr { return construct(vecT(3, tF16), a, b, c) }
	x, y, z := h("x"), h("y"), h("z")
	uni := func(lo, hi float64) func() float64 { return func() float64 { return lo + rng.Float64()*(hi-lo) } }
	for _, c := range []struct {
		name  string
		e     ir.Expr
		draw  [3]func() float64
		exact func(x, y, z float64) float64
	}{
		{"fma", bi(ir.BFma, x, y, z), [3]func() float64{uni(-30, 30), uni(-30, 30), uni(-100, 100)}, func(x, y, z float64) float64 { return x*y + z }},
		{"mix", bi(ir.BMix, x, y, z), [3]func() float64{uni(-50, 50), uni(-50, 50), uni(0, 1)}, func(x, y, z float64) float64 { return x*(1-z) + y*z }},
		{"dot3", bi(ir.BDot, v3(x, y, z), v3(y, z, x)), [3]func() float64{uni(-20, 20), uni(-20, 20), uni(-20, 20)}, func(x, y, z float64) float64 { return x*y + y*z + z*x }},
		{"length3", bi(ir.BLength, v3(x, y, z)), [3]func() float64{uni(-40, 40), uni(-40, 40), uni(-40, 40)}, func(x, y, z float64) float64 { return math.Sqrt(x*x + y*y + z*z) }},
		{"distance2", bi(ir.BDistance, v2(x, y), v2(z, x)), [3]func() float64{uni(-40, 40), uni(-40, 40), uni(-40, 40)}, func(x, y, z float64) float64 { return math.Hypot(x-z, y-x) }},
		{"normalize2.x", swz(bi(ir.BNormalize, v2(x, y)), 0), [3]func() float64{uni(-40, 40), uni(-40, 40), uni(0, 1)}, func(x, y, z float64) float64 { return x / math.Hypot(x, y) }},
		{"cross.z", swz(bi(ir.BCross, v3(x, y, z), v3(z, x, y)), 2), [3]func() float64{uni(-20, 20), uni(-20, 20), uni(-20, 20)}, func(x, y, z float64) float64 { return x*x - y*z }},
		{"smoothstep", bi(ir.BSmoothstep, x, y, z), [3]func() float64{uni(-4, 0), uni(1, 5), uni(-5, 6)}, func(e0, e1, x float64) float64 {
			t := math.Min(math.Max((x-e0)/(e1-e0), 0), 1)
			return t * t * (3 - 2*t)
		}},
		{"pow", bi(ir.BPow, x, y), [3]func() float64{uni(0.1, 8), uni(-3, 3), uni(0, 1)}, func(x, y, z float64) float64 { return math.Pow(x, y) }},
		{"sqrt", bi(ir.BSqrt, x), [3]func() float64{uni(0, 1000), uni(0, 1), uni(0, 1)}, func(x, y, z float64) float64 { return math.Sqrt(x) }},
		{"tan", bi(ir.BTan, x), [3]func() float64{uni(-1.4, 1.4), uni(0, 1), uni(0, 1)}, func(x, y, z float64) float64 { return math.Tan(x) }},
		{"sinh", bi(ir.BSinh, x), [3]func() float64{uni(-6, 6), uni(0, 1), uni(0, 1)}, func(x, y, z float64) float64 { return math.Sinh(x) }},
		{"cosh", bi(ir.BCosh, x), [3]func() float64{uni(-6, 6), uni(0, 1), uni(0, 1)}, func(x, y, z float64) float64 { return math.Cosh(x) }},
		{"tanh", bi(ir.BTanh, x), [3]func() float64{uni(-4, 4), uni(0, 1), uni(0, 1)}, func(x, y, z float64) float64 { return math.Tanh(x) }},
		{"asin", bi(ir.BAsin, x), [3]func() float64{uni(-0.99, 0.99), uni(0, 1), uni(0, 1)}, func(x, y, z float64) float64 { return math.Asin(x) }},
		{"acos", bi(ir.BAcos, x), [3]func() float64{uni(-0.99, 0.99), uni(0, 1), uni(0, 1)}, func(x, y, z float64) float64 { return math.Acos(x) }},
		{"atan2", bi(ir.BAtan2, x, y), [3]func() float64{uni(-50, 50), uni(0.5, 50), uni(0, 1)}, func(x, y, z float64) float64 { return math.Atan2(x, y) }},
		{"fract", bi(ir.BFract, x), [3]func() float64{uni(-100, 100), uni(0, 1), uni(0, 1)}, func(x, y, z float64) float64 { return x - math.Floor(x) }},
		{"degrees", bi(ir.BDegrees, x), [3]func() float64{uni(-6, 6), uni(0, 1), uni(0, 1)}, func(x, y, z float64) float64 { return x * 180 / math.Pi }},
		{"x % y", bin(ir.OpRem, x, y), [3]func() float64{uni(-100, 100), uni(0.5, 20), uni(0, 1)}, func(x, y, z float64) float64 { return math.Mod(x, y) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog, err := Compile(exprKernel(conv(tF32, c.e), P{"x", tF32}, P{"y", tF32}, P{"z", tF32}), "k")
			require.NoError(t, err)
			var in [][3]float64
			var args [][]ir.Value
			for len(in) < 1500 {
				var a [3]float64
				var vals []ir.Value
				for j := range a {
					a[j] = r16(c.draw[j]())
					vals = append(vals, fvv(float32(a[j])))
				}
				in, args = append(in, a), append(args, vals)
			}
			invs, err := prog.Run(args, Options{})
			require.NoError(t, err)
			checked := 0
			for i, inv := range invs {
				o := inv.Outputs[0]
				if indeterminate(o) {
					continue
				}
				a := in[i]
				ex := c.exact(a[0], a[1], a[2])
				v := float64(o.Value.F32())
				tol := 0.0
				if o.Tolerance != nil {
					tol = o.Tolerance[0]
				}
				if math.Abs(ex) < 0x1p-14 && math.Abs(v) <= 0x1p-14+tol {
					checked++
					continue // zero or subnormal: equal under flushing
				}
				lo, hi := f16Around(new(big.Rat).SetFloat64(ex))
				for _, w := range []float64{lo, hi} {
					if !(math.Abs(w-v) <= tol) {
						t.Fatalf("%s(%g, %g, %g) = %g: neighbour %g, reference %g ± %g (%s)", c.name, a[0], a[1], a[2], ex, w, v, tol, o.Why)
					}
				}
				checked++
			}
			assert.Greater(t, checked, 500, "enough determinate results")
		})
	}
}

// TestF16AmbiguousBranchForks: an if on an f16 comparison that the
// operands' bounds leave open ((1 + 2^-11) == 1: 1 within 2^-10) runs
// both ways (fork.go): the result is indeterminate with the allowed set
// of both outcomes.
func TestF16AmbiguousBranchForks(t *testing.T) {
	r := local("r", tI32)
	m := module(nil, fn("k", nil, tI32,
		varDecl("r", tI32, iL(1)),
		if_(bin(ir.OpEq, bin(ir.OpAdd, hL(1), hL(0x1p-11)), hL(1)), assign(r, iL(2))),
		ret(r)))
	o := retOf(t, m, "k")
	require.True(t, allIndeterminate(o), "%s", desc(o))
	require.NotNil(t, o.Allowed, "%s", desc(o))
	var got []int32
	for _, b := range o.Allowed[0].Values {
		got = append(got, int32(b))
	}
	assert.ElementsMatch(t, []int32{1, 2}, got, "%s", desc(o))
}
