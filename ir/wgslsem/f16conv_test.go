package wgslsem

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestF64ToF16HandDerived: each expected encoding derived by hand from
// binary16's format (see f16_test.go): fraction ULP 2^-10 at 1, ties go
// to the even fraction, 65520 is the tie between 65504 and 2^16.
func TestF64ToF16HandDerived(t *testing.T) {
	for _, c := range []struct {
		name          string
		x             float64
		h             uint16
		exact, finite bool
	}{
		{"1", 1, 0x3C00, true, true},
		{"-2", -2, 0xC000, true, true},
		{"1 + 2^-11: the tie goes to 1 (fraction 0)", 1 + 0x1p-11, 0x3C00, false, true},
		{"1 + 3 × 2^-11: the tie goes to fraction 2", 1 + 3*0x1p-11, 0x3C02, false, true},
		{"1 + 2^-11 + 2^-40: above the tie (float32 would lose 2^-40 and tie down)", 1 + 0x1p-11 + 0x1p-40, 0x3C01, false, true},
		{"1 + 2^-11 - 2^-40: below the tie", 1 + 0x1p-11 - 0x1p-40, 0x3C00, false, true},
		{"1 + 2^-11 + 2^-52: one float64 ULP above the tie", 1 + 0x1p-11 + 0x1p-52, 0x3C01, false, true},
		{"0.1 ≈ 0x2E66.66…: down", 0.1, 0x2E66, false, true},
		{"65504, the largest finite", 65504, 0x7BFF, true, true},
		{"65519.999: beyond the finite range, below the tie: 65504", 65519.999, 0x7BFF, false, false},
		{"65520: the tie goes to the even infinity", 65520, 0x7C00, false, false},
		{"65520 - 2^-37: just below the tie", 65520 - 0x1p-37, 0x7BFF, false, false},
		{"-65520", -65520, 0xFC00, false, false},
		{"65536", 65536, 0x7C00, false, false},
		{"1e300", 1e300, 0x7C00, false, false},
		{"+inf", math.Inf(1), 0x7C00, true, false},
		{"-inf", math.Inf(-1), 0xFC00, true, false},
		{"2^-14, the least normal", 0x1p-14, 0x0400, true, true},
		{"2^-24, the least subnormal", 0x1p-24, 0x0001, true, true},
		{"1023 × 2^-24, the largest subnormal", 1023 * 0x1p-24, 0x03FF, true, true},
		{"2^-25: the tie between 0 and 2^-24 goes to 0", 0x1p-25, 0x0000, false, true},
		{"2^-25 + 2^-77: above the tie", 0x1p-25 + 0x1p-77, 0x0001, false, true},
		{"-2^-25", -0x1p-25, 0x8000, false, true},
		{"3 × 2^-25: the tie goes to 2 × 2^-24", 3 * 0x1p-25, 0x0002, false, true},
		{"1023.5 × 2^-24: the tie carries into 2^-14", 1023.5 * 0x1p-24, 0x0400, false, true},
		{"2^-26", 0x1p-26, 0x0000, false, true},
		{"the least float64 subnormal", math.SmallestNonzeroFloat64, 0x0000, false, true},
		{"+0", 0, 0x0000, true, true},
		{"-0", math.Copysign(0, -1), 0x8000, true, true},
		{"quiet NaN", math.Float64frombits(0x7FF8000000000000), 0x7E00, false, false},
		{"negative NaN, payload's top bits 0x1FF", math.Float64frombits(0xFFFFFC0000000000), 0xFFFF, false, false},
	} {
		h, exact, finite := F64ToF16(c.x)
		assert.Equal(t, c.h, h, "%s: bits %#04x", c.name, h)
		assert.Equal(t, c.exact, exact, "%s: exact", c.name)
		assert.Equal(t, c.finite, finite, "%s: finite", c.name)
	}
}

// TestF64ToF16AgreesWithF32ToF16OnF32Values: on every value a float32
// holds exactly there is no double rounding, so the two conversions
// agree (random f32 bit patterns, NaNs included).
func TestF64ToF16AgreesWithF32ToF16OnF32Values(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 200000; i++ {
		f := math.Float32frombits(rng.Uint32())
		h1, e1, f1 := F32ToF16(f)
		h2, e2, f2 := F64ToF16(float64(f))
		if h1 != h2 || e1 != e2 || f1 != f2 {
			t.Fatalf("%g (%#08x): F32ToF16 %#04x %v %v, F64ToF16 %#04x %v %v", f, math.Float32bits(f), h1, e1, f1, h2, e2, f2)
		}
	}
}

// TestF64ToF16IsNearest: for random float64 values in binary16's range
// the result is one of the two neighbours, the nearer one (the tie is
// measured exactly: the midpoint of two binary16 values is a float64).
func TestF64ToF16IsNearest(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 200000; i++ {
		x := math.Ldexp(rng.Float64()*2-1, rng.Intn(44)-28)
		h, _, _ := F64ToF16(x)
		v := F16Value(h)
		// The neighbours of h (towards and away from zero).
		up, down := F16Value(h+1), F16Value(h-1)
		if h&0x7FFF == 0 {
			down = v
		}
		d := math.Abs(v - x)
		if math.Abs(up-x) < d || math.Abs(down-x) < d {
			t.Fatalf("%g: %#04x = %g is not the nearest (neighbours %g, %g)", x, h, v, down, up)
		}
	}
}
