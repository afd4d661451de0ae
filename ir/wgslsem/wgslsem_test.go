package wgslsem

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every expected value below is derived by hand from the WGSL sentence
// the case names (quoted in the function's doc comment), not from the
// code: e.g. MinInt32 % 3 is -2 because -2147483648 = -715827882 × 3 - 2
// and the remainder has the sign of e1.

const (
	minI = math.MinInt32
	maxI = math.MaxInt32
	allU = math.MaxUint32
)

type c2[T any] struct {
	name   string
	e1, e2 T
	want   T
}

func run2[T comparable](t *testing.T, fn func(a, b T) T, cases []c2[T]) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, fn(c.e1, c.e2), "(%v, %v)", c.e1, c.e2)
		})
	}
}

// WGSL §8.7 Arithmetic Expressions and §6.2.3 Integer Types: concrete
// integer arithmetic wraps modulo 2^32.
func TestWrappingArithmetic(t *testing.T) {
	run2(t, Add[int32], []c2[int32]{
		{"1+2", 1, 2, 3},
		{"MAX+1 wraps to MIN", maxI, 1, minI},
		{"MIN+MIN wraps to 0", minI, minI, 0},
	})
	run2(t, Add[uint32], []c2[uint32]{
		{"0xFFFFFFFF+1 wraps to 0", allU, 1, 0},
		{"0xFFFFFFFF+0xFFFFFFFF is 2^33-2 mod 2^32", allU, allU, allU - 1},
	})
	run2(t, Sub[int32], []c2[int32]{
		{"MIN-1 wraps to MAX", minI, 1, maxI},
		{"0-MIN is MIN", 0, minI, minI},
	})
	run2(t, Sub[uint32], []c2[uint32]{{"0-1 wraps to 0xFFFFFFFF", 0, 1, allU}})
	run2(t, Mul[int32], []c2[int32]{
		{"65536*65536 is 2^32 mod 2^32", 65536, 65536, 0},
		{"MAX*2 is 2^32-2, i.e. -2", maxI, 2, -2},
		{"MIN*-1 is MIN", minI, -1, minI},
	})
	run2(t, Mul[uint32], []c2[uint32]{
		{"3*0x55555556 is 0x100000002 mod 2^32", 3, 0x55555556, 2},
		{"0xFFFFFFFF*0xFFFFFFFF is 1 mod 2^32", allU, allU, 1},
	})
	assert.Equal(t, int32(minI), Neg[int32](minI), "-MIN is MIN (#arithmetic-expr, unary -)")
	assert.Equal(t, int32(-5), Neg[int32](5))
	assert.Equal(t, int64(5), Neg[int64](-5))
}

// WGSL §8.7: "If e2 is zero ... Otherwise, e1"; "If e1 is most negative
// value in T, and e2 is -1: ... Otherwise, e1"; truncate(e1 ÷ e2)
// otherwise. Remainder: 0 in both special cases, else
// e1 - truncate(e1 ÷ e2) × e2.
func TestIntegerDivisionAndRemainder(t *testing.T) {
	run2(t, DivI32, []c2[int32]{
		{"7/2", 7, 2, 3},
		{"-7/2 truncates toward zero", -7, 2, -3},
		{"7/-2", 7, -2, -3},
		{"-7/-2", -7, -2, 3},
		{"x/0 is x", 7, 0, 7},
		{"MIN/0 is MIN", minI, 0, minI},
		{"0/0 is 0", 0, 0, 0},
		{"MIN/-1 is MIN", minI, -1, minI},
		{"MIN/1", minI, 1, minI},
		{"MIN/2", minI, 2, -1073741824},
		{"MAX/-1", maxI, -1, -maxI},
	})
	run2(t, RemI32, []c2[int32]{
		{"7%2", 7, 2, 1},
		{"-7%2 has the sign of e1", -7, 2, -1},
		{"7%-2", 7, -2, 1},
		{"-7%-2", -7, -2, -1},
		{"x%0 is 0", 7, 0, 0},
		{"MIN%-1 is 0", minI, -1, 0},
		{"MIN%3 is -2", minI, 3, -2},
		{"MAX%MIN is MAX", maxI, minI, maxI},
	})
	run2(t, DivU32, []c2[uint32]{
		{"7/2", 7, 2, 3},
		{"0xFFFFFFFF/2", allU, 2, 0x7FFFFFFF},
		{"x/0 is x", 5, 0, 5},
		{"0x80000000/0xFFFFFFFF is 0", 0x80000000, allU, 0},
	})
	run2(t, RemU32, []c2[uint32]{
		{"x%0 is 0", 5, 0, 0},
		{"4294967295%10 is 5", allU, 10, 5},
		{"0xFFFFFFFF%0x80000000", allU, 0x80000000, 0x7FFFFFFF},
	})
}

// WGSL §8.9 Bit Expressions: "The number of bits to shift is the value of
// e2, modulo the bit width of e1"; >> inserts sign bits for a signed type,
// zeros for an unsigned one.
func TestShiftsTakeTheCountModulo32(t *testing.T) {
	shl := func(e1 int32, e2 uint32) int32 { return Shl(e1, e2) }
	for _, c := range []struct {
		name string
		e1   int32
		e2   uint32
		want int32
	}{
		{"1<<31 is MIN", 1, 31, minI},
		{"1<<32 is 1<<0", 1, 32, 1},
		{"1<<33 is 1<<1", 1, 33, 2},
		{"-1<<4", -1, 4, -16},
		{"3<<0xFFFFFFFF is 3<<31", 3, allU, minI},
	} {
		assert.Equal(t, c.want, shl(c.e1, c.e2), c.name)
	}
	assert.Equal(t, uint32(0xFFFFFFF0), Shl[uint32](allU, 4))
	assert.Equal(t, uint32(0x80000000), Shl[uint32](1, 63), "63 mod 32 is 31")
	for _, c := range []struct {
		name string
		e1   int32
		e2   uint32
		want int32
	}{
		{"-8>>1 is arithmetic", -8, 1, -4},
		{"-1>>31 stays -1", -1, 31, -1},
		{"MIN>>31 is -1", minI, 31, -1},
		{"-8>>33 is -8>>1", -8, 33, -4},
		{"MIN>>32 is MIN>>0", minI, 32, minI},
		{"MAX>>30 is 1", maxI, 30, 1},
	} {
		assert.Equal(t, c.want, Shr(c.e1, c.e2), c.name)
	}
	assert.Equal(t, uint32(1), Shr[uint32](0x80000000, 31), "u32 >> is logical")
	assert.Equal(t, uint32(0x80000000), Shr[uint32](0x80000000, 32))
	assert.Equal(t, uint32(0x7FFFFFFF), Shr[uint32](allU, 33))
}

// The shader-creation errors of const-expressions: WGSL §8.7 (zero
// divisor, MIN / -1), §8.9 (shift count ≥ bit width; a left shift whose
// e2+1 (i32) or e2 (u32) most significant bits of e1 are not all equal /
// not all 0), §17.5.25/26/35 (offset + count > w), §17.5.10 (low > high).
func TestConstExpressionFaults(t *testing.T) {
	for _, c := range []struct {
		name string
		got  Fault
		want Fault
	}{
		{"i32 1/0", DivFaultI32(1, 0), ZeroDivisor},
		{"i32 0/0", DivFaultI32(0, 0), ZeroDivisor},
		{"i32 MIN/-1", DivFaultI32(minI, -1), DivOverflow},
		{"i32 MIN/1", DivFaultI32(minI, 1), NoFault},
		{"i32 -1/-1", DivFaultI32(-1, -1), NoFault},
		{"u32 1/0", DivFaultU32(1, 0), ZeroDivisor},
		{"u32 0xFFFFFFFF/0xFFFFFFFF", DivFaultU32(allU, allU), NoFault},
		{"shift by 31", ShiftFault(31), NoFault},
		{"shift by 32", ShiftFault(32), ShiftCount},
		{"shift by 0xFFFFFFFF", ShiftFault(allU), ShiftCount},
		{"i32 1<<30", ShlFaultI32(1, 30), NoFault},
		{"i32 1<<31 changes the sign", ShlFaultI32(1, 31), ShiftOverflow},
		{"i32 -1<<31 is MIN, no overflow", ShlFaultI32(-1, 31), NoFault},
		{"i32 0x40000000<<1 changes the sign", ShlFaultI32(0x40000000, 1), ShiftOverflow},
		{"i32 -0x40000000<<1 is MIN", ShlFaultI32(-0x40000000, 1), NoFault},
		{"i32 MIN<<1 loses the sign bit", ShlFaultI32(minI, 1), ShiftOverflow},
		{"i32 MIN<<0", ShlFaultI32(minI, 0), NoFault},
		{"i32 0<<31", ShlFaultI32(0, 31), NoFault},
		{"i32 5<<32", ShlFaultI32(5, 32), ShiftCount},
		{"u32 1<<31", ShlFaultU32(1, 31), NoFault},
		{"u32 2<<31 loses a 1", ShlFaultU32(2, 31), ShiftOverflow},
		{"u32 0x80000000<<0", ShlFaultU32(0x80000000, 0), NoFault},
		{"u32 0x80000000<<1", ShlFaultU32(0x80000000, 1), ShiftOverflow},
		{"u32 0<<31", ShlFaultU32(0, 31), NoFault},
		{"u32 1<<32", ShlFaultU32(1, 32), ShiftCount},
		{"bits 0+32", BitRangeFault(0, 32), NoFault},
		{"bits 32+0", BitRangeFault(32, 0), NoFault},
		{"bits 16+16", BitRangeFault(16, 16), NoFault},
		{"bits 16+17", BitRangeFault(16, 17), BitRange},
		{"bits 1+32", BitRangeFault(1, 32), BitRange},
		{"bits 0xFFFFFFFF+1 does not wrap to 0", BitRangeFault(allU, 1), BitRange},
		{"bits 1+0xFFFFFFFF", BitRangeFault(1, allU), BitRange},
		{"clamp i32 low 1 > high 0", ClampFault[int32](1, 0), ClampRange},
		{"clamp i32 low -1 < high 0", ClampFault[int32](-1, 0), NoFault},
		{"clamp equal bounds", ClampFault[int32](3, 3), NoFault},
		{"clamp u32 low 0xFFFFFFFF > high 0", ClampFault[uint32](allU, 0), ClampRange},
		{"clamp f32 low 1.5 > high 1", ClampFault[float32](1.5, 1), ClampRange},
		{"clamp f32 NaN bound", ClampFault(math.NaN(), 0), NoFault},
	} {
		assert.Equal(t, c.want, c.got, c.name)
	}
	names := map[string]bool{}
	for f := NoFault; f <= ClampRange; f++ {
		assert.NotContains(t, names, f.String(), "fault %d", f)
		names[f.String()] = true
	}
}

// WGSL §17.5.14 countOneBits, §17.5.51 reverseBits ("the bit at position k
// of the result equals the bit at position 31-k of e"), §17.5.28/29
// firstLeadingBit, §17.5.30 firstTrailingBit.
func TestBitCounting(t *testing.T) {
	run1 := func(name string, got, want any) { assert.Equal(t, want, got, name) }
	run1("countOneBits(0)", CountOneBits[uint32](0), uint32(0))
	run1("countOneBits(0xFFFFFFFF)", CountOneBits[uint32](allU), uint32(32))
	run1("countOneBits(0x80000001)", CountOneBits[uint32](0x80000001), uint32(2))
	run1("countOneBits(0xF0F0)", CountOneBits[uint32](0xF0F0), uint32(8))
	run1("countOneBits(i32 -1)", CountOneBits[int32](-1), int32(32))
	run1("countOneBits(i32 MIN)", CountOneBits[int32](minI), int32(1))

	run1("reverseBits(1)", ReverseBits[uint32](1), uint32(0x80000000))
	run1("reverseBits(0x0000000F)", ReverseBits[uint32](0xF), uint32(0xF0000000))
	run1("reverseBits(0x12345678)", ReverseBits[uint32](0x12345678), uint32(0x1E6A2C48))
	run1("reverseBits(i32 1) is MIN", ReverseBits[int32](1), int32(minI))
	run1("reverseBits(i32 -2) is MAX", ReverseBits[int32](-2), int32(maxI))

	run1("firstLeadingBit(u32 0) is T(-1)", FirstLeadingBitU32(0), uint32(allU))
	run1("firstLeadingBit(u32 1)", FirstLeadingBitU32(1), uint32(0))
	run1("firstLeadingBit(u32 0xFF)", FirstLeadingBitU32(0xFF), uint32(7))
	run1("firstLeadingBit(u32 0x10000)", FirstLeadingBitU32(0x10000), uint32(16))
	run1("firstLeadingBit(u32 0x80000000)", FirstLeadingBitU32(0x80000000), uint32(31))

	run1("firstLeadingBit(i32 0) is -1", FirstLeadingBitI32(0), int32(-1))
	run1("firstLeadingBit(i32 -1) is -1", FirstLeadingBitI32(-1), int32(-1))
	run1("firstLeadingBit(i32 1)", FirstLeadingBitI32(1), int32(0))
	run1("firstLeadingBit(i32 MAX)", FirstLeadingBitI32(maxI), int32(30))
	run1("firstLeadingBit(i32 MIN): bit 30 differs from the sign", FirstLeadingBitI32(minI), int32(30))
	run1("firstLeadingBit(i32 -2): only bit 0 differs", FirstLeadingBitI32(-2), int32(0))
	run1("firstLeadingBit(i32 -3 = ...1101)", FirstLeadingBitI32(-3), int32(1))
	run1("firstLeadingBit(i32 0x40000000)", FirstLeadingBitI32(0x40000000), int32(30))

	run1("firstTrailingBit(u32 0) is T(-1)", FirstTrailingBit[uint32](0), uint32(allU))
	run1("firstTrailingBit(i32 0) is -1", FirstTrailingBit[int32](0), int32(-1))
	run1("firstTrailingBit(1)", FirstTrailingBit[uint32](1), uint32(0))
	run1("firstTrailingBit(12)", FirstTrailingBit[uint32](12), uint32(2))
	run1("firstTrailingBit(0x80000000)", FirstTrailingBit[uint32](0x80000000), uint32(31))
	run1("firstTrailingBit(i32 MIN)", FirstTrailingBit[int32](minI), int32(31))
	run1("firstTrailingBit(i32 -1)", FirstTrailingBit[int32](-1), int32(0))
}

// WGSL §17.5.25/26 extractBits and §17.5.35 insertBits: o = min(offset, w),
// c = min(count, w - o); 0 (extract) or e (insert) when c is 0.
func TestExtractAndInsertBits(t *testing.T) {
	for _, c := range []struct {
		name             string
		e, offset, count uint32
		wantU            uint32
		wantI            int32
	}{
		{"nibble 0xF at 4", 0xF0, 4, 4, 0xF, -1},
		{"nibble 0x7 at 4", 0x70, 4, 4, 7, 7},
		{"byte 0x56 at 8", 0x12345678, 8, 8, 0x56, 0x56},
		{"byte 0x80 at 8 sign-extends", 0x8000, 8, 8, 0x80, -128},
		{"whole word", 0x87654321, 0, 32, 0x87654321, -0x789ABCDF},
		{"count 0", allU, 0, 0, 0, 0},
		{"offset 32 count 0", allU, 32, 0, 0, 0},
		{"top bit", 0x80000000, 31, 1, 1, -1},
		{"count clamped to 32-o: 28+8 reads 4 bits", allU, 28, 8, 0xF, -1},
		{"offset clamped to 32: c is 0", allU, 40, 5, 0, 0},
		{"count 0xFFFFFFFF at 31 reads 1 bit", 0x80000000, 31, allU, 1, -1},
		{"count 33 at 0 reads the word", 0x40000000, 0, 33, 0x40000000, 0x40000000},
		{"31 bits with bit 30 set sign-extend", 0x40000000, 0, 31, 0x40000000, -0x40000000},
		{"31 low ones", maxI, 0, 31, maxI, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.wantU, ExtractBitsU32(c.e, c.offset, c.count), "unsigned")
			assert.Equal(t, c.wantI, ExtractBitsI32(int32(c.e), c.offset, c.count), "signed")
		})
	}
	for _, c := range []struct {
		name                      string
		e, newbits, offset, count uint32
		want                      uint32
	}{
		{"nibble at 4", 0, 0xF, 4, 4, 0xF0},
		{"clear a byte", allU, 0, 8, 8, 0xFFFF00FF},
		{"replace a byte", 0x12345678, 0xAB, 8, 8, 0x1234AB78},
		{"whole word", 0x12345678, 0x9ABCDEF0, 0, 32, 0x9ABCDEF0},
		{"count 0 keeps e", 0x12345678, allU, 5, 0, 0x12345678},
		{"offset 32: c is 0", 0x12345678, allU, 32, 1, 0x12345678},
		{"count clamped: 28+8 writes 4 bits", 0, allU, 28, 8, 0xF0000000},
		{"newbits above c are ignored", 0, 0x1F, 0, 4, 0xF},
		{"offset 0xFFFFFFFF", 7, allU, allU, allU, 7},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, InsertBits(c.e, c.newbits, c.offset, c.count), "u32")
			assert.Equal(t, int32(c.want), InsertBits(int32(c.e), int32(c.newbits), c.offset, c.count), "i32 (same bits)")
		})
	}
}

// WGSL §17.5.1 abs (abs(MIN) is MIN), §17.5.41/42 max/min, §17.5.10 clamp
// (min(max(e, low), high)), §17.5.54 sign, §17.5.20 dot.
func TestNumericBuiltins(t *testing.T) {
	assert.Equal(t, int32(5), Abs[int32](-5))
	assert.Equal(t, int32(7), Abs[int32](7))
	assert.Equal(t, int32(minI), Abs[int32](minI), "abs of the largest negative value is that value")
	assert.Equal(t, uint32(allU), Abs[uint32](allU), "abs of a u32 is e")
	assert.Equal(t, int64(3), Abs[int64](-3))

	assert.Equal(t, int32(-1), Min[int32](-1, 1), "i32 min is signed")
	assert.Equal(t, int32(1), Max[int32](-1, 1))
	assert.Equal(t, uint32(1), Min[uint32](allU, 1), "u32 min is unsigned")
	assert.Equal(t, uint32(allU), Max[uint32](allU, 1))
	assert.Equal(t, int32(minI), Min[int32](maxI, minI))
	assert.Equal(t, int64(math.MaxInt64), Max[int64](math.MinInt64, math.MaxInt64))

	for _, c := range []struct {
		name               string
		e, low, high, want int32
	}{
		{"above", 5, 0, 3, 3},
		{"below", -5, 0, 3, 0},
		{"inside", 2, 0, 3, 2},
		{"low > high gives high", 5, 3, 0, 0},
		{"low > high, e below both gives high", 1, 5, 2, 2},
		{"MIN into [-1, 1]", minI, -1, 1, -1},
	} {
		assert.Equal(t, c.want, Clamp(c.e, c.low, c.high), c.name)
	}
	assert.Equal(t, uint32(10), Clamp[uint32](0x80000000, 0, 10), "u32 clamp is unsigned")

	assert.Equal(t, int32(1), Sign[int32](5))
	assert.Equal(t, int32(-1), Sign[int32](-5))
	assert.Equal(t, int32(0), Sign[int32](0))
	assert.Equal(t, int32(-1), Sign[int32](minI))
	assert.Equal(t, int64(1), Sign[int64](math.MaxInt64))

	assert.Equal(t, uint32(32), Dot([]uint32{1, 2, 3}, []uint32{4, 5, 6}))
	assert.Equal(t, int32(5), Dot([]int32{-1, 2}, []int32{3, 4}))
	assert.Equal(t, uint32(0x10000), Dot([]uint32{0x10000, 0x10000}, []uint32{0x10000, 1}), "2^32 wraps to 0")
	assert.Equal(t, int32(0), Dot([]int32{maxI, 1}, []int32{2, 2}), "MAX*2 = -2 wraps, then + 2")
	assert.Panics(t, func() { Dot([]int32{1}, []int32{1, 2}) })
}

// WGSL §15.7.6 Floating Point Conversion, its examples: 3.9f → 3u, -1f →
// 0u, 1e20f → 4294967040u, -3.9f → -3i, 1e20f → 2147483520i, -1e20f →
// i32(-2147483648).
func TestFloatToIntegerConversion(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want int32
	}{
		{3.9, 3}, {-3.9, -3}, {1e20, 2147483520}, {-1e20, minI},
		{2147483520, 2147483520}, {2147483648, 2147483520}, {-2147483648, minI},
		{-0.5, 0}, {math.Copysign(0, -1), 0}, {math.Inf(1), 2147483520}, {math.Inf(-1), minI},
		{math.NaN(), 0},
	} {
		assert.Equal(t, c.want, F32ToI32(c.x), "i32(%g)", c.x)
	}
	for _, c := range []struct {
		x    float64
		want uint32
	}{
		{3.9, 3}, {-1, 0}, {1e20, 4294967040}, {4294967040, 4294967040},
		{4294967296, 4294967040}, {0.99, 0}, {-0.5, 0}, {math.Inf(1), 4294967040},
		{math.NaN(), 0},
	} {
		assert.Equal(t, c.want, F32ToU32(c.x), "u32(%g)", c.x)
	}
	// The limits are f32 values: converting them back to f32 is exact.
	assert.Equal(t, float64(MaxI32FromF32), float64(float32(MaxI32FromF32)))
	assert.Equal(t, float64(MaxU32FromF32), float64(float32(MaxU32FromF32)))
	assert.NotEqual(t, float64(MaxI32FromF32+1), float64(float32(MaxI32FromF32+1)))
}

// WGSL §17.5.52 round (halfway cases to the even integer) and §17.5.59
// step (1 if edge ≤ x, else 0).
func TestRoundAndStep(t *testing.T) {
	for _, c := range [][2]float64{{2.5, 2}, {3.5, 4}, {-2.5, -2}, {0.5, 0}, {1.5, 2}, {2.4, 2}, {-0.6, -1}, {-3.5, -4}} {
		assert.Equal(t, c[1], Round(c[0]), "round(%g)", c[0])
	}
	assert.Equal(t, 1.0, Step(1, 1), "edge == x")
	assert.Equal(t, 0.0, Step(1, 0.5))
	assert.Equal(t, 1.0, Step(-1, 0))
	assert.Equal(t, 0.0, Step(math.NaN(), 0))
}

// TestF16Conversion: binary16 encodings derived by hand (1 = 0x3C00,
// -2 = 0xC000, 65504 = 0x7BFF, 2^-14 = 0x0400, 2^-24 = 0x0001, 0.1 ≈
// 0x2E66 rounded down from 0x2E66.66…) and ties to even.
func TestF16Conversion(t *testing.T) {
	for _, c := range []struct {
		f     float32
		h     uint16
		exact bool
	}{
		{1, 0x3C00, true}, {-2, 0xC000, true}, {65504, 0x7BFF, true}, {0x1p-14, 0x0400, true},
		{0x1p-24, 0x0001, true}, {0, 0, true}, {0.1, 0x2E66, false},
		{1 + 0x1p-11, 0x3C00, false},          // tie: to even (mantissa 0)
		{1 + 3*0x1p-11, 0x3C02, false},        // tie: to even (mantissa 2)
		{0x1p-25, 0x0000, false},              // tie below the least subnormal: to 0
		{2047.0 / 1024 * 32768, 0x7BFF, true}, // 65504
	} {
		h, exact, finite := F32ToF16(c.f)
		if !finite || h != c.h || exact != c.exact {
			t.Errorf("F32ToF16(%g) = %#04x, exact %v, finite %v; want %#04x, exact %v", c.f, h, exact, finite, c.h, c.exact)
		}
		if exact {
			if f, ok, _ := F16ToF32(h); !ok || f != c.f {
				t.Errorf("F16ToF32(%#04x) = %g, want %g", h, f, c.f)
			}
		}
	}
	for _, f := range []float32{65505, 65512, 1e6, float32(math.Inf(1))} { // beyond 65504: outside the finite range
		if _, _, finite := F32ToF16(f); finite {
			t.Errorf("F32ToF16(%g) is finite", f)
		}
	}
	if _, ok, _ := F16ToF32(0x7C00); ok {
		t.Error("F16ToF32(0x7C00) (infinity) is finite")
	}
}
