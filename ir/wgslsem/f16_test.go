package wgslsem

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// binary16: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits. Its
// largest finite value is (2 - 2^-10) × 2^15 = 65504 (0x7BFF), the least
// normal 2^-14 (0x0400), the least subnormal 2^-24 (0x0001). Under
// roundTiesToEven a value rounds to infinity from 65520 on: 65520 is the
// midpoint between 65504 (odd fraction 0x3FF) and 2^16 (the next value an
// unbounded exponent would give, fraction 0: even), IEEE 754 §7.4.

// TestF32ToF16HandDerived: each expected encoding is derived by hand from
// the format above.
func TestF32ToF16HandDerived(t *testing.T) {
	for _, c := range []struct {
		name          string
		bits          uint32 // the f32's bits
		h             uint16
		exact, finite bool
	}{
		{"1", 0x3F800000, 0x3C00, true, true},
		{"-2", 0xC0000000, 0xC000, true, true},
		{"65504, the largest finite", 0x477FE000, 0x7BFF, true, true},
		{"65519: beyond the finite range, rounds down to 65504", math.Float32bits(65519), 0x7BFF, false, false},
		{"65520: the tie rounds to the even infinity", math.Float32bits(65520), 0x7C00, false, false},
		{"-65520", math.Float32bits(-65520), 0xFC00, false, false},
		{"65536", math.Float32bits(65536), 0x7C00, false, false},
		{"1e10", math.Float32bits(1e10), 0x7C00, false, false},
		{"+inf", 0x7F800000, 0x7C00, true, false},
		{"-inf", 0xFF800000, 0xFC00, true, false},
		{"2^-14, the least normal", math.Float32bits(0x1p-14), 0x0400, true, true},
		{"2^-24, the least subnormal", math.Float32bits(0x1p-24), 0x0001, true, true},
		{"-2^-24", math.Float32bits(-0x1p-24), 0x8001, true, true},
		{"1023 × 2^-24, the largest subnormal", math.Float32bits(1023 * 0x1p-24), 0x03FF, true, true},
		{"2^-25: the tie between 0 and 2^-24 goes to 0 (even)", math.Float32bits(0x1p-25), 0x0000, false, true},
		{"-2^-25", math.Float32bits(-0x1p-25), 0x8000, false, true},
		{"2^-25 + 2^-40: above the tie", math.Float32bits(0x1p-25 + 0x1p-40), 0x0001, false, true},
		{"3 × 2^-25: the tie 1.5 × 2^-24 goes to 2 × 2^-24", math.Float32bits(3 * 0x1p-25), 0x0002, false, true},
		{"1023.5 × 2^-24: the tie goes to 2^-14 (a carry into the normals)", math.Float32bits(1023.5 * 0x1p-24), 0x0400, false, true},
		{"2^-26", math.Float32bits(0x1p-26), 0x0000, false, true},
		{"the least f32 subnormal", 0x00000001, 0x0000, false, true},
		{"+0", 0x00000000, 0x0000, true, true},
		{"-0", 0x80000000, 0x8000, true, true},
		{"1 + 2^-11: the tie goes to 1 (fraction 0)", math.Float32bits(1 + 0x1p-11), 0x3C00, false, true},
		{"1 + 3 × 2^-11: the tie goes to fraction 2", math.Float32bits(1 + 3*0x1p-11), 0x3C02, false, true},
		{"1 + 2^-11 + 2^-23: above the tie", math.Float32bits(1 + 0x1p-11 + 0x1p-23), 0x3C01, false, true},
		{"0.1 ≈ 0x2E66.66…: down", math.Float32bits(0.1), 0x2E66, false, true},
		{"65512: beyond the finite range, rounds down to 65504", math.Float32bits(65512), 0x7BFF, false, false},
		{"quiet NaN", 0x7FC00000, 0x7E00, false, false},
		{"negative quiet NaN", 0xFFC00000, 0xFE00, false, false},
		{"signalling NaN, payload 1: quieted, payload's top bits 0", 0x7F800001, 0x7E00, false, false},
		{"signalling NaN, payload 0x200000: quieted, payload 0x100", 0x7FA00000, 0x7F00, false, false},
		{"NaN payload 0x7FFFFF", 0x7FFFFFFF, 0x7FFF, false, false},
	} {
		h, exact, finite := F32ToF16(math.Float32frombits(c.bits))
		assert.Equal(t, c.h, h, "%s: bits %#04x", c.name, h)
		assert.Equal(t, c.exact, exact, "%s: exact", c.name)
		assert.Equal(t, c.finite, finite, "%s: finite", c.name)
	}
}

// TestF16ToF32HandDerived: values of encodings derived by hand; NaN's
// payload moves up 13 bits, its quiet bit as it was.
func TestF16ToF32HandDerived(t *testing.T) {
	for _, c := range []struct {
		h              uint16
		bits           uint32 // the f32's bits
		finite, subnml bool
	}{
		{0x3C00, 0x3F800000, true, false},                      // 1
		{0xC000, 0xC0000000, true, false},                      // -2
		{0x7BFF, 0x477FE000, true, false},                      // 65504
		{0x0400, math.Float32bits(0x1p-14), true, false},       // least normal
		{0x0001, math.Float32bits(0x1p-24), true, true},        // least subnormal
		{0x03FF, math.Float32bits(1023 * 0x1p-24), true, true}, // largest subnormal
		{0x8001, math.Float32bits(-0x1p-24), true, true},
		{0x0000, 0x00000000, true, false},
		{0x8000, 0x80000000, true, false},  // -0
		{0x7C00, 0x7F800000, false, false}, // +inf
		{0xFC00, 0xFF800000, false, false}, // -inf
		{0x7E00, 0x7FC00000, false, false}, // quiet NaN
		{0xFE01, 0xFFC02000, false, false},
		{0x7C01, 0x7F802000, false, false}, // signalling: stays so
	} {
		f, finite, sub := F16ToF32(c.h)
		assert.Equal(t, c.bits, math.Float32bits(f), "%#04x", c.h)
		assert.Equal(t, c.finite, finite, "%#04x: finite", c.h)
		assert.Equal(t, c.subnml, sub, "%#04x: subnormal", c.h)
	}
}

// TestF16RoundTripsEveryPattern: every one of the 65,536 binary16 bit
// patterns converts to the f32 of its value (computed here from the
// format, in float64) and back to itself, exactly; a NaN stays a NaN of
// its sign and payload, quieted (bit 9 set).
func TestF16RoundTripsEveryPattern(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		h := uint16(i)
		f, finite, sub := F16ToF32(h)
		e, m := int(h>>10&0x1F), float64(h&0x3FF)
		sign := 1.0
		if h&0x8000 != 0 {
			sign = -1
		}
		isNaN := e == 31 && m != 0
		switch {
		case isNaN:
			if !assert.True(t, f != f, "%#04x is a NaN", h) {
				return
			}
		case e == 31:
			assert.Equal(t, math.Inf(int(sign)), float64(f), "%#04x", h)
		case e == 0:
			assert.Equal(t, sign*m*0x1p-24, float64(f), "%#04x", h)
		default:
			assert.Equal(t, sign*math.Ldexp(1024+m, e-25), float64(f), "%#04x", h)
		}
		assert.Equal(t, e != 31, finite, "%#04x: finite", h)
		assert.Equal(t, e == 0 && m != 0, sub, "%#04x: subnormal", h)
		if math.Signbit(float64(f)) != (h&0x8000 != 0) {
			t.Errorf("%#04x: sign lost", h)
		}
		back, exact, _ := F32ToF16(f)
		if isNaN {
			if back != h|0x0200 {
				t.Errorf("NaN %#04x → %#08x → %#04x, want %#04x", h, math.Float32bits(f), back, h|0x0200)
			}
			continue
		}
		if back != h || !exact {
			t.Errorf("%#04x → %g → %#04x (exact %v)", h, f, back, exact)
		}
	}
}

// TestF32ToF16RoundsToNearestEven: between every two adjacent positive
// binary16 values a < b (b = 2^16 past 65504: where infinity begins),
// their midpoint (exact in f32: 12 significant bits) rounds to the one
// with the even fraction, the f32 just below it to a, the f32 just above
// it to b; likewise negated.
func TestF32ToF16RoundsToNearestEven(t *testing.T) {
	for h := uint16(0); h < 0x7C00; h++ {
		a, _, _ := F16ToF32(h)
		b := float32(65536)
		if h+1 < 0x7C00 {
			b, _, _ = F16ToF32(h + 1)
		}
		mid := float32((float64(a) + float64(b)) / 2)
		if float64(mid) != (float64(a)+float64(b))/2 {
			t.Fatalf("midpoint of %#04x and the next is not an f32", h)
		}
		even := h
		if h&1 == 1 {
			even = h + 1
		}
		for _, s := range []float32{1, -1} {
			neg := uint16(0)
			if s < 0 {
				neg = 0x8000
			}
			below := math.Nextafter32(s*mid, 0)
			above := math.Nextafter32(s*mid, s*float32(math.Inf(1)))
			for _, c := range []struct {
				x    float32
				want uint16
			}{{s * mid, even}, {below, h}, {above, h + 1}} {
				if got, _, _ := F32ToF16(c.x); got != neg|c.want {
					t.Fatalf("F32ToF16(%g) = %#04x, want %#04x", c.x, got, neg|c.want)
				}
			}
		}
	}
}
