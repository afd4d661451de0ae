package shaders

import (
	"math"
	"math/bits"
	"testing"
)

// WGSL runtime semantics for the native kernels, written from the WGSL
// specification (and ARCHITECTURE.md "Semantics"), not from the interpreter.
// Every helper names the spec section it implements.

// divI32 is WGSL §8.7 i32 `/` at run time: truncating; x / 0 = x and
// INT_MIN / -1 = INT_MIN.
func divI32(a, b int32) int32 {
	if b == 0 || (a == math.MinInt32 && b == -1) {
		return a
	}
	return a / b
}

// remI32 is WGSL §8.7 i32 `%` at run time: the sign of the dividend;
// x % 0 = 0 and INT_MIN % -1 = 0.
func remI32(a, b int32) int32 {
	if b == 0 || (a == math.MinInt32 && b == -1) {
		return 0
	}
	return a % b
}

// divU32 is WGSL u32 `/`: x / 0 = x.
func divU32(a, b uint32) uint32 {
	if b == 0 {
		return a
	}
	return a / b
}

// remU32 is WGSL u32 `%`: x % 0 = 0.
func remU32(a, b uint32) uint32 {
	if b == 0 {
		return 0
	}
	return a % b
}

// absI32 is WGSL abs on i32: abs(INT_MIN) = INT_MIN (wrapping).
func absI32(a int32) int32 {
	if a < 0 {
		return -a // wraps for INT_MIN in Go too
	}
	return a
}

// shl, shr and sar are WGSL §8.9 shifts: the shift count is taken modulo
// the bit width (32).
func shl(x, s uint32) uint32 { return x << (s % 32) }
func shr(x, s uint32) uint32 { return x >> (s % 32) }
func sar(x int32, s uint32) int32 {
	return x >> (s % 32)
}

// firstLeadingBitU32 is WGSL firstLeadingBit on u32: the index of the most
// significant 1 bit, or 0xFFFFFFFF (-1) for 0.
func firstLeadingBitU32(x uint32) uint32 {
	if x == 0 {
		return math.MaxUint32
	}
	return uint32(31 - bits.LeadingZeros32(x))
}

// firstLeadingBitI32 is WGSL firstLeadingBit on i32: -1 for 0 and -1,
// otherwise the index of the most significant bit that differs from the
// sign bit.
func firstLeadingBitI32(x int32) int32 {
	u := uint32(x)
	if x < 0 {
		u = ^u
	}
	if u == 0 {
		return -1
	}
	return int32(31 - bits.LeadingZeros32(u))
}

// firstTrailingBit is WGSL firstTrailingBit on u32: the index of the least
// significant 1 bit, or 0xFFFFFFFF for 0.
func firstTrailingBit(x uint32) uint32 {
	if x == 0 {
		return math.MaxUint32
	}
	return uint32(bits.TrailingZeros32(x))
}

// bitField clamps an (offset, count) pair as WGSL extractBits/insertBits
// do at run time: o = min(offset, 32), c = min(count, 32 - o).
func bitField(offset, count uint32) (o, c uint32) {
	o = min(offset, 32)
	c = min(count, 32-o)
	return o, c
}

// lowMask returns the c low bits set (c in 0..32).
func lowMask(c uint32) uint32 {
	if c >= 32 {
		return math.MaxUint32
	}
	return 1<<c - 1
}

// extractBitsU32 is WGSL extractBits on u32: bits [o, o+c) of e,
// zero-extended; 0 when c is 0.
func extractBitsU32(e, offset, count uint32) uint32 {
	o, c := bitField(offset, count)
	if c == 0 {
		return 0
	}
	return (e >> o) & lowMask(c)
}

// extractBitsI32 is WGSL extractBits on i32: bits [o, o+c) of e,
// sign-extended from bit c-1; 0 when c is 0.
func extractBitsI32(e int32, offset, count uint32) int32 {
	o, c := bitField(offset, count)
	if c == 0 {
		return 0
	}
	v := (uint32(e) >> o) & lowMask(c)
	if v>>(c-1)&1 == 1 {
		v |= ^lowMask(c)
	}
	return int32(v)
}

// insertBits is WGSL insertBits on u32: e with bits [o, o+c) replaced by
// the c low bits of newbits.
func insertBits(e, newbits, offset, count uint32) uint32 {
	o, c := bitField(offset, count)
	if c == 0 {
		return e
	}
	mask := lowMask(c) << o
	return e&^mask | (newbits<<o)&mask
}

// f32ToI32 is WGSL's f32 → i32 value conversion at run time: truncate
// toward zero, then clamp to [-2^31, 2147483520] (the i32 range intersected
// with the values f32 represents). NaN is indeterminate: the native kernels
// never convert one, so it fails the test.
func f32ToI32(t testing.TB, x float32) int32 { t.Helper(); return toI32(t, x) }

// f32ToU32 is WGSL's f32 → u32 value conversion at run time: truncate
// toward zero, then clamp to [0, 4294967040].
func f32ToU32(t testing.TB, x float32) uint32 { t.Helper(); return toU32(t, x) }

// The f32 builtins below are generic over the float type so that each
// float kernel can run twice: in float32 (the golden) and in float64 (a
// shadow). The examples keep their float values in a domain where f32
// arithmetic is exact; equal results from both runs show that no f32
// rounding decided the golden, so every conforming implementation, whatever
// its rounding, fusion or evaluation order, must produce it. Each
// operation rounds once to F (explicit conversions keep Go from fusing a
// multiply into an add).

// float is the element type of a native float computation.
type float interface{ ~float32 | ~float64 }

// floorF is WGSL floor.
func floorF[F float](x F) F { return F(math.Floor(float64(x))) }

// absF is WGSL abs on floats.
func absF[F float](x F) F { return F(math.Abs(float64(x))) }

// clampF is WGSL clamp(e, low, high) = min(max(e, low), high).
func clampF[F float](e, lo, hi F) F { return min(max(e, lo), hi) }

// clampI32 is WGSL clamp on i32.
func clampI32(e, lo, hi int32) int32 { return min(max(e, lo), hi) }

// dot3 is WGSL dot on vec3<f32>, each product and sum rounded to F.
func dot3[F float](a, b [3]F) F {
	return F(F(F(a[0]*b[0])+F(a[1]*b[1])) + F(a[2]*b[2]))
}

// cross is WGSL cross on vec3<f32>.
func cross[F float](a, b [3]F) [3]F {
	return [3]F{
		F(a[1]*b[2]) - F(a[2]*b[1]),
		F(a[2]*b[0]) - F(a[0]*b[2]),
		F(a[0]*b[1]) - F(a[1]*b[0]),
	}
}

// exactSqrt is WGSL sqrt restricted to perfect squares: WGSL's sqrt is
// not correctly rounded (it inherits 1/inverseSqrt's 2 ULP), so the SDF
// example only takes square roots whose exact result is a float32; there
// every conforming implementation returns that result. It fails the test
// when x is not such a square, so an input that would make the golden
// depend on rounding cannot slip in.
func exactSqrt[F float](t testing.TB, x F) F {
	t.Helper()
	r := math.Sqrt(float64(x))
	if r*r != float64(x) || float64(float32(r)) != r {
		t.Fatalf("sqrt(%v) is not exact in f32: choose inputs whose lengths are exact", x)
	}
	return F(r)
}

// length2 is WGSL length on vec2<f32> for exact cases: sqrt(dot(v, v)).
func length2[F float](t testing.TB, v [2]F) F {
	return exactSqrt(t, F(F(v[0]*v[0])+F(v[1]*v[1])))
}

// smoothstep01 is WGSL smoothstep(0.0, 1.0, x): t = clamp(x, 0, 1);
// t * t * (3 - 2 * t).
func smoothstep01[F float](x F) F {
	t := clampF(x, 0, 1)
	return F(F(t*t) * F(3-F(2*t)))
}

// mixF is WGSL mix(x, y, a) = x * (1 - a) + y * a.
func mixF[F float](x, y, a F) F {
	return F(x*F(1-a)) + F(y*a)
}

// toI32 is f32ToI32 for either float type (the f64 shadow clamps at the
// same bounds).
func toI32[F float](t testing.TB, x F) int32 {
	t.Helper()
	switch {
	case x != x:
		t.Fatalf("native kernel converts NaN to i32 (indeterminate): choose other inputs")
	case x <= -2147483648:
		return math.MinInt32
	case x >= 2147483520:
		return 2147483520
	}
	return int32(x)
}

// toU32 is f32ToU32 for either float type.
func toU32[F float](t testing.TB, x F) uint32 {
	t.Helper()
	switch {
	case x != x:
		t.Fatalf("native kernel converts NaN to u32 (indeterminate): choose other inputs")
	case x <= 0:
		return 0
	case x >= 4294967040:
		return 4294967040
	}
	return uint32(x)
}

// TestWGSLSemanticsHelpers pins the helpers above to values read off the
// WGSL specification, so a slip in a helper cannot move every golden at
// once unnoticed.
func TestWGSLSemanticsHelpers(t *testing.T) {
	type c struct {
		name      string
		got, want any
	}
	for _, tc := range []c{
		{"7/2", divI32(7, 2), int32(3)},
		{"-7/2 truncates", divI32(-7, 2), int32(-3)},
		{"x/0 = x", divI32(5, 0), int32(5)},
		{"INT_MIN/-1", divI32(math.MinInt32, -1), int32(math.MinInt32)},
		{"-7%2 sign of dividend", remI32(-7, 2), int32(-1)},
		{"x%0 = 0", remI32(5, 0), int32(0)},
		{"INT_MIN%-1", remI32(math.MinInt32, -1), int32(0)},
		{"u32 x/0", divU32(9, 0), uint32(9)},
		{"u32 x%0", remU32(9, 0), uint32(0)},
		{"abs(INT_MIN)", absI32(math.MinInt32), int32(math.MinInt32)},
		{"1<<32 = 1<<0", shl(1, 32), uint32(1)},
		{"x>>33 = x>>1", shr(8, 33), uint32(4)},
		{"-8>>>33 arithmetic", sar(-8, 33), int32(-4)},
		{"firstLeadingBit(0u)", firstLeadingBitU32(0), uint32(math.MaxUint32)},
		{"firstLeadingBit(1u)", firstLeadingBitU32(1), uint32(0)},
		{"firstLeadingBit(0x80000000u)", firstLeadingBitU32(0x80000000), uint32(31)},
		{"firstLeadingBit(-1i)", firstLeadingBitI32(-1), int32(-1)},
		{"firstLeadingBit(0i)", firstLeadingBitI32(0), int32(-1)},
		{"firstLeadingBit(-2i) bit 0 differs", firstLeadingBitI32(-2), int32(0)},
		{"firstLeadingBit(INT_MIN)", firstLeadingBitI32(math.MinInt32), int32(30)},
		{"firstTrailingBit(0u)", firstTrailingBit(0), uint32(math.MaxUint32)},
		{"firstTrailingBit(12u)", firstTrailingBit(12), uint32(2)},
		{"extractBits(0xABCDu, 4, 8)", extractBitsU32(0xABCD, 4, 8), uint32(0xBC)},
		{"extractBits(0xABCDi, 4, 8) sign-extends", extractBitsI32(0xABCD, 4, 8), int32(-68)},
		{"extractBits(x, 0, 32)", extractBitsU32(0xDEADBEEF, 0, 32), uint32(0xDEADBEEF)},
		{"extractBits(x, 40, 8) clamps", extractBitsU32(0xDEADBEEF, 40, 8), uint32(0)},
		{"insertBits(0, 0xFFFFFFFF, 4, 8)", insertBits(0, 0xFFFFFFFF, 4, 8), uint32(0xFF0)},
		{"insertBits(x, y, 0, 32)", insertBits(1, 2, 0, 32), uint32(2)},
		{"i32(2.9)", f32ToI32(t, 2.9), int32(2)},
		{"i32(-2.9)", f32ToI32(t, -2.9), int32(-2)},
		{"i32(3e9) saturates", f32ToI32(t, 3e9), int32(2147483520)},
		{"i32(-1e10) saturates", f32ToI32(t, -1e10), int32(math.MinInt32)},
		{"u32(-5)", f32ToU32(t, -5), uint32(0)},
		{"u32(1e10) saturates", f32ToU32(t, 1e10), uint32(4294967040)},
		{"sqrt(25)", exactSqrt(t, float32(25)), float32(5)},
		{"smoothstep(0,1,0.5)", smoothstep01(float32(0.5)), float32(0.5)},
		{"smoothstep(0,1,0.25) = 1/16 * 2.5", smoothstep01(float32(0.25)), float32(0.15625)},
		{"mix(2, 4, 0.25)", mixF(float32(2), 4, 0.25), float32(2.5)},
		{"cross(x, y) = z", cross([3]float32{1, 0, 0}, [3]float32{0, 1, 0}), [3]float32{0, 0, 1}},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}
