package wgslsem

import "math"

// f16MaxF64 is 65504, binary16's largest finite value.
const f16MaxF64 = 65504

// F64ToF16 converts x to binary16 bits as IEEE 754's convertFormat does
// under roundTiesToEven, rounding once from the float64 (the reference's
// choice among the two values WGSL allows for an inexact result, WGSL
// #floating-point-accuracy "correctly rounded", #floating-point-conversion):
// converting through float32 first (F32ToF16(float32(x))) rounds twice and
// can miss a tie's side (1 + 2^-11 + 2^-40 rounds up here, to 1 through
// float32). It follows F32ToF16's conventions: a value beyond the finite
// range rounds to ±65504 below 65520 and to ±infinity from 65520 on (the
// tie 65520 goes to the even infinity); ±infinity stays ±infinity; a NaN
// becomes a quiet NaN with x's sign and the top 10 bits of its payload
// (0x7E00 | payload >> 42); subnormal results are kept (2^-24 is 0x0001,
// 2^-25 ties to 0); -0 is 0x8000.
//
// exact reports that h's value is x (never for a NaN). finite is false
// for NaN, infinities and every x outside binary16's finite range
// [-65504, 65504] before rounding (the caller decides what that means:
// for a run-time WGSL result, an indeterminate value, WGSL
// #floating-point-rounding-and-overflow).
func F64ToF16(x float64) (h uint16, exact, finite bool) {
	b := math.Float64bits(x)
	sign := uint16(b>>48) & 0x8000
	e, m := int(b>>52&0x7FF), b&(1<<52-1)
	finite = math.Abs(x) <= f16MaxF64
	switch {
	case e == 0x7FF && m != 0: // NaN
		return sign | 0x7E00 | uint16(m>>42), false, false
	case e == 0x7FF: // ±infinity
		return sign | 0x7C00, true, false
	case e == 0: // zero or a float64 subnormal, far below 2^-25: rounds to ±0
		return sign, m == 0, true
	}
	p := e - 1023 // x = 1.m × 2^p
	switch {
	case p > 15: // ≥ 65536: beyond the even infinity's threshold
		return sign | 0x7C00, false, false
	case p >= -14: // a normal binary16, or a carry into the next binade (infinity from 65520)
		r := uint64(p+15)<<10 | m>>42
		rem, half := m&(1<<42-1), uint64(1)<<41
		if rem > half || rem == half && r&1 == 1 {
			r++
		}
		return sign | uint16(r), rem == 0, finite
	case p < -25: // below 2^-25, half the least subnormal: rounds to ±0
		return sign, false, true
	}
	// A subnormal binary16 (or 2^-14 by a carry): x = M × 2^(p-52) with
	// M = 1.m × 2^52, in units of 2^-24 M × 2^(p-28), a right shift by
	// 28 - p ∈ [43, 53].
	mm := m | 1<<52
	sh := uint(28 - p)
	r := mm >> sh
	rem, half := mm&(1<<sh-1), uint64(1)<<(sh-1)
	if rem > half || rem == half && r&1 == 1 {
		r++
	}
	return sign | uint16(r), rem == 0, true
}

// F16Value is the value of binary16 bits h as a float64, exactly (see
// F16ToF32; every binary16 value is a float64).
func F16Value(h uint16) float64 {
	f, _, _ := F16ToF32(h)
	return float64(f)
}
