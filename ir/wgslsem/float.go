package wgslsem

import "math"

// The limits of f32 → integer conversion: the largest i32 and u32 values
// exactly representable in f32 (WGSL §15.7.6 Floating Point Conversion,
// #floating-point-conversion: "1e20f converted to i32 is the maximum i32
// value, 2147483520i"; "… to u32 … 4294967040u"). The smallest are
// math.MinInt32 (-2^31, exact in f32) and 0.
const (
	MaxI32FromF32 = 2147483520
	MaxU32FromF32 = 4294967040
)

// F32ToI32 is the conversion i32(x) of an f32 value x, carried as a
// float64 (WGSL §15.7.6 Floating Point Conversion,
// #floating-point-conversion): x truncated toward zero and clamped to
// [-2^31, MaxI32FromF32], the i32 values also exactly representable in
// f32 (what Tint and naga emit; ARCHITECTURE.md "Semantics"). WGSL makes
// the result of NaN an indeterminate value; F32ToI32(NaN) is 0, and
// callers that care say the value is indeterminate.
func F32ToI32(x float64) int32 {
	switch {
	case x != x:
		return 0
	case x >= MaxI32FromF32:
		return MaxI32FromF32
	case x <= math.MinInt32:
		return math.MinInt32
	}
	return int32(math.Trunc(x))
}

// F32ToU32 is the conversion u32(x) of an f32 value x (WGSL §15.7.6): x
// truncated toward zero and clamped to [0, MaxU32FromF32]; 0 for NaN,
// whose WGSL result is indeterminate (see F32ToI32).
func F32ToU32(x float64) uint32 {
	switch {
	case x != x:
		return 0
	case x >= MaxU32FromF32:
		return MaxU32FromF32
	case x <= 0:
		return 0
	}
	return uint32(math.Trunc(x))
}

// Round is round(e) (WGSL §17.5.52 round, #round-builtin): the integer
// nearest to e; halfway cases go to the even integer (round(2.5) = 2,
// round(3.5) = 4). Exact in float64 for every f32 e.
func Round(e float64) float64 { return math.RoundToEven(e) }

// Step is step(edge, x) (WGSL §17.5.59 step, #step-builtin): 1 if
// edge ≤ x, and 0 otherwise (also 0 when either is NaN).
func Step(edge, x float64) float64 {
	if edge <= x {
		return 1
	}
	return 0
}
