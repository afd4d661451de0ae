package wgslsem

import "math"

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

// F32ToF16 converts f to IEEE-754 binary16 bits, rounding to nearest
// with ties to even (one of the two values WGSL's #floating-point-
// conversion allows for an inexact value). exact reports that f is
// representable; finite is false for NaN and outside binary16's finite
// range [-65504, 65504] (pack2x16float's result is then indeterminate,
// a const-expression a shader-creation error). Subnormal results are
// kept (0x0001 is 2^-24).
func F32ToF16(f float32) (h uint16, exact, finite bool) {
	a := math.Abs(float64(f))
	var sign uint16
	if math.Signbit(float64(f)) {
		sign = 0x8000
	}
	switch {
	case math.IsNaN(a) || a > 65504:
		return 0, false, false
	case a < 0x1p-14:
		q := a / 0x1p-24 // exact: a scaling by a power of two
		r := math.RoundToEven(q)
		return sign | uint16(r), r == q, true // r = 1024 is 2^-14, the least normal
	}
	_, e := math.Frexp(a) // a = m·2^e, m ∈ [0.5, 1)
	e--                   // a ∈ [2^e, 2^(e+1))
	q := a / math.Ldexp(1, e-10)
	r := math.RoundToEven(q)
	if r == 2048 {
		r, e = 1024, e+1
	}
	return sign | uint16(e+15)<<10 | uint16(r-1024), r == q, true
}

// F16ToF32 is the value of binary16 bits h (every binary16 value is an
// f32): finite is false for infinities and NaNs, subnormal true for a
// nonzero value below 2^-14 (one an implementation may flush).
func F16ToF32(h uint16) (f float32, finite, subnormal bool) {
	e, m := int(h>>10&0x1F), float64(h&0x3FF)
	var v float64
	switch e {
	case 31:
		return 0, false, false
	case 0:
		v = m * 0x1p-24
		subnormal = m != 0
	default:
		v = (1024 + m) * math.Ldexp(1, e-25)
	}
	if h&0x8000 != 0 {
		v = -v
	}
	return float32(v), true, subnormal
}
