package wgslsem

import (
	"math"
	"math/bits"
)

// Data packing and unpacking builtins (WGSL §17.9 #pack-builtin-functions,
// §17.10 #unpack-builtin-functions) on one component: the packed word is
// assembled by the caller, 8 bits per component for the 4x8 forms and 16
// for the 2x16 forms, component i in bits [w·i, w·i + w).

// PackNorm is the w-bit integer component i of pack4x8snorm/unorm
// (w = 8) and pack2x16snorm/unorm (w = 16) of e: ⌊0.5 + M × min(1,
// max(lo, e))⌋ with M = 2^(w-1) - 1, lo = -1 for snorm and M = 2^w - 1,
// lo = 0 for unorm, truncated to w bits (two's complement for snorm). The
// accuracy WGSL gives these is "correctly rounded intermediate result
// value, correct result" (#concrete-float-accuracy): the intermediate
// 0.5 + M × c is rounded once to f32, then floored. In float64 the
// product and the sum are exact (24 + 16 bits), so r32 of it is that one
// rounding. NaN is not defined; it gives 0 here.
func PackNorm(e float32, bits int, signed bool) uint32 {
	return uint32(PackNormInt(float64(e), bits, signed)) & (1<<bits - 1)
}

// PackNormInt is PackNorm's integer before truncation to w bits, for any
// e (monotone nondecreasing in e, so an evaluator can bound it over an
// interval of e).
func PackNormInt(e float64, bits int, signed bool) int32 {
	m, lo := float64(int64(1)<<bits-1), 0.0
	if signed {
		m, lo = float64(int64(1)<<(bits-1)-1), -1
	}
	if math.IsNaN(e) {
		return 0
	}
	c := math.Min(1, math.Max(lo, e))
	return int32(math.Floor(float64(float32(0.5 + float64(m*c)))))
}

// PackNormRange is the smallest and largest integer component the stacks
// produce for e: WGSL's ⌊0.5 + M × c⌋ (PackNormInt) and GLSL.std.450's
// PackSnorm4x8 & co., round(M × c) of the f32 product with either tie
// direction (round(x) "may round .5 either way"), which is what Tint and
// naga emit. They differ where M × c rounds to f32 near a half
// (pack4x8unorm(0.3): 255 × 0.3f = 76.500003 rounds to 76.5, GLSL gives
// 76 rounding half to even, WGSL 77) and at the snorm tie -0.5.
func PackNormRange(e float64, bits int, signed bool) (lo, hi int32) {
	w := PackNormInt(e, bits, signed)
	m, l := float64(int64(1)<<bits-1), 0.0
	if signed {
		m, l = float64(int64(1)<<(bits-1)-1), -1
	}
	if math.IsNaN(e) {
		return w, w
	}
	p := float64(float32(m * math.Min(1, math.Max(l, e))))
	even, away := int32(math.RoundToEven(p)), int32(math.Round(p))
	return min(w, even, away), max(w, even, away)
}

// UnpackNorm is component i of unpack4x8snorm/unorm (w = 8) and
// unpack2x16snorm/unorm (w = 16) of the w-bit chunk v: max(v ÷ M, -1) for
// snorm (v read as two's complement, M = 2^(w-1) - 1), v ÷ M for unorm
// (M = 2^w - 1), correctly rounded to f32. WGSL gives these 3 ULP
// (#concrete-float-accuracy); the caller owns that bound.
func UnpackNorm(v uint32, bits int, signed bool) float32 {
	v &= 1<<bits - 1
	if signed {
		s := int64(v)
		if s >= 1<<(bits-1) {
			s -= 1 << bits
		}
		return float32(math.Max(float64(s)/float64(int64(1)<<(bits-1)-1), -1))
	}
	return float32(float64(v) / float64(int64(1)<<bits-1))
}

// Pack4x8 is pack4xI8/pack4xU8 (and, with clamp, pack4xI8Clamp: each
// component clamped to [-128, 127], pack4xU8Clamp: to [0, 255]) of the
// four components' bits (WGSL #pack4xI8-builtin … #pack4xU8Clamp-builtin).
func Pack4x8(e [4]uint32, signed, clamp bool) uint32 {
	var r uint32
	for i, x := range e {
		if clamp {
			if signed {
				x = uint32(Clamp(int32(x), -128, 127))
			} else {
				x = Min(x, 255)
			}
		}
		r |= (x & 0xFF) << (8 * i)
	}
	return r
}

// Unpack4x8 is component i of unpack4xI8 (sign-extended) and unpack4xU8
// (zero-extended) of e (WGSL #unpack4xI8-builtin, #unpack4xU8-builtin).
func Unpack4x8(e uint32, i int, signed bool) uint32 {
	b := e >> (8 * i) & 0xFF
	if signed {
		return uint32(int32(int8(b)))
	}
	return b
}

// binary16 (IEEE 754's 16-bit interchange format: 1 sign bit, 5 exponent
// bits biased by 15, 10 fraction bits) is converted here and nowhere
// else in gpudiff: pack2x16float and unpack2x16float (interp, the front
// end's constant evaluation), float16 texels (interp's reference, check's
// case files). Each caller keeps its own policy on top of the one
// conversion: pack2x16float's indeterminate result outside binary16's
// finite range (WGSL #pack2x16float-builtin), a case file's refusal of a
// channel value no float16 texel holds.

// f16Max is the bits of 65504 as an f32, binary16's largest finite value.
const f16Max = 0x477FE000

// F32ToF16 converts f to binary16 bits as IEEE 754's convertFormat does
// under roundTiesToEven (one of the two values WGSL's
// #floating-point-conversion allows for an inexact value): a value
// beyond the finite range rounds to ±65504 below 65520 and to ±infinity
// from 65520 on (the tie 65520 goes to the even infinity); ±infinity
// stays ±infinity; a NaN becomes a quiet NaN with f's sign and the top 9
// bits of its payload (0x7E00 | payload >> 13); subnormal results are
// kept (0x0001 is 2^-24, 2^-25 ties to 0); -0 is 0x8000.
//
// exact reports that h's value is f (never for a NaN). finite is false
// for NaN, infinities and every f outside binary16's finite range
// [-65504, 65504] before rounding (WGSL: pack2x16float's and
// quantizeToF16's result is then indeterminate, a const-expression a
// shader-creation error; that policy is the caller's).
func F32ToF16(f float32) (h uint16, exact, finite bool) {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	e, m := int(b>>23&0xFF), b&0x7FFFFF
	finite = b&0x7FFFFFFF <= f16Max
	switch {
	case e == 0xFF && m != 0: // NaN
		return sign | 0x7E00 | uint16(m>>13), false, false
	case e == 0xFF: // ±infinity
		return sign | 0x7C00, true, false
	case e == 0: // zero or an f32 subnormal, below 2^-126: rounds to ±0
		return sign, m == 0, true
	}
	x := int(e) - 127 // f = 1.m × 2^x
	switch {
	case x > 15: // ≥ 65536: beyond the even infinity's threshold
		return sign | 0x7C00, false, false
	case x >= -14: // a normal binary16, or a carry into the next binade (infinity from 65520)
		r := uint32(x+15)<<10 | m>>13
		rem := m & 0x1FFF
		if rem > 0x1000 || rem == 0x1000 && r&1 == 1 {
			r++
		}
		return sign | uint16(r), rem == 0, finite
	case x < -25: // below 2^-25, half the least subnormal: rounds to ±0
		return sign, false, true
	}
	// A subnormal binary16 (or 2^-14 by a carry): f = M × 2^(x-23) with
	// M = 1.m × 2^23, in units of 2^-24 M × 2^(x+1), a right shift by
	// -(x+1) ∈ [14, 24].
	mm := m | 0x800000
	sh := uint(-(x + 1))
	r := mm >> sh
	rem, half := mm&(1<<sh-1), uint32(1)<<(sh-1)
	if rem > half || rem == half && r&1 == 1 {
		r++
	}
	return sign | uint16(r), rem == 0, true
}

// F16ToF32 is the value of binary16 bits h, exactly (every binary16 value
// is an f32): an infinity is the f32 infinity of its sign, a NaN the f32
// NaN of its sign and payload (payload << 13, the quiet bit as it was).
// finite is false for infinities and NaNs, subnormal true for a nonzero
// value below 2^-14 (one an implementation may flush).
func F16ToF32(h uint16) (f float32, finite, subnormal bool) {
	sign := uint32(h&0x8000) << 16
	e, m := uint32(h>>10&0x1F), uint32(h&0x3FF)
	switch {
	case e == 31:
		return math.Float32frombits(sign | 0x7F800000 | m<<13), false, false
	case e == 0 && m == 0:
		return math.Float32frombits(sign), true, false
	case e == 0:
		// m × 2^-24 with m's leading one at bit p: 2^(p-24) × 1.fraction.
		p := uint32(bits.Len32(m)) - 1
		return math.Float32frombits(sign | (p+103)<<23 | (m<<(23-p))&0x7FFFFF), true, true
	}
	return math.Float32frombits(sign | (e+112)<<23 | m<<13), true, false
}
