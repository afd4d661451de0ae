package drivers

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// TestFindHazards pins, for each instruction SPIR-V leaves undefined on
// some operands, which invocations reach that domain. Every expectation is
// derived by hand from the operands and the SPIR-V 1.3 rules quoted in
// FindHazards' comment, never from a run.
func TestFindHazards(t *testing.T) {
	i, u, f := ir.I32Val, ir.U32Val, ir.F32Val
	const intMin = math.MinInt32
	type want struct {
		op   string
		dom  string
		invs []int
	}
	cases := []struct {
		name string
		src  string
		args [][]ir.Value
		want []want
	}{
		{"i32 division", `fn k(a: i32, b: i32) -> i32 { return a / b; }`,
			[][]ir.Value{{i(7), i(0)}, {i(intMin), i(-1)}, {i(7), i(2)}, {i(intMin), i(1)}, {i(0), i(0)}},
			[]want{{"OpSDiv", "a zero divisor", []int{0, 4}}, {"OpSDiv", "INT_MIN and -1 (signed overflow)", []int{1}}}},
		{"u32 remainder", `fn k(a: u32, b: u32) -> u32 { return a % b; }`,
			[][]ir.Value{{u(7), u(0)}, {u(7), u(3)}},
			[]want{{"OpUMod", "a zero divisor", []int{0}}}},
		{"shifts by 32 or more", `fn k(a: i32, s: u32) -> i32 { return (a << s) + (a >> s); }`,
			[][]ir.Value{{i(1), u(31)}, {i(1), u(32)}, {i(-1), u(4000000000)}},
			[]want{{"OpShiftLeftLogical", "a shift count ≥ 32", []int{1, 2}}, {"OpShiftRightArithmetic", "a shift count ≥ 32", []int{1, 2}}}},
		// trunc(x) must be representable: i32 holds [-2^31, 2^31 - 1],
		// so 2147483520 (the largest f32 below 2^31) is fine, 2^31 and
		// -2^31 - 256 (next f32 below -2^31) are not; u32: -0.5
		// truncates to 0 (fine), -1 and 2^32 do not fit.
		{"f32 to i32", `fn k(x: f32) -> i32 { return i32(x); }`,
			[][]ir.Value{{f(1.5)}, {f(2147483520)}, {f(2147483648)}, {f(-2147483648)}, {f(-2147483904)}},
			[]want{{"OpConvertFToS", "a value out of the integer type's range", []int{2, 4}}}},
		{"f32 to u32", `fn k(x: f32) -> u32 { return u32(x); }`,
			[][]ir.Value{{f(-0.5)}, {f(-1)}, {f(4294967040)}, {f(4294967296)}},
			[]want{{"OpConvertFToU", "a value out of the integer type's range", []int{1, 3}}}},
		{"clamp with low above high", `fn k(x: i32, lo: i32, hi: i32) -> i32 { return clamp(x, lo, hi); }`,
			[][]ir.Value{{i(5), i(0), i(9)}, {i(5), i(9), i(0)}, {i(5), i(3), i(3)}},
			[]want{{"SClamp", "minVal > maxVal", []int{1}}}},
		// offset + count > 32: 30 + 4 and 33 + 0 are out, 28 + 4 is in.
		{"extractBits", `fn k(e: u32, o: u32, c: u32) -> u32 { return extractBits(e, o, c); }`,
			[][]ir.Value{{u(1), u(28), u(4)}, {u(1), u(30), u(4)}, {u(1), u(33), u(0)}},
			[]want{{"OpBitFieldUExtract", "Offset + Count > 32", []int{1, 2}}}},
		{"insertBits", `fn k(e: i32, n: i32, o: u32, c: u32) -> i32 { return insertBits(e, n, o, c); }`,
			[][]ir.Value{{i(1), i(1), u(0), u(32)}, {i(1), i(1), u(1), u(32)}},
			[]want{{"OpBitFieldInsert", "Offset + Count > 32", []int{1}}}},
		// Dynamic: a division on a path the invocation does not take is
		// not executed, so b = 0 in invocation 0 is no hazard there.
		{"untaken branch", `fn k(a: i32, b: i32) -> i32 { var r = a; if (b != 0) { r = a / b; } else { r = a % 3; } return r; }`,
			[][]ir.Value{{i(7), i(0)}, {i(7), i(2)}},
			nil},
		{"compound assignment and vector lane", `fn k(a: vec2<i32>, b: i32) -> vec2<i32> { var v = a; v /= vec2<i32>(1, b); return v; }`,
			[][]ir.Value{{ir.CompositeVal(ir.Vec(2, ir.I32), i(4), i(4)), i(2)}, {ir.CompositeVal(ir.Vec(2, ir.I32), i(4), i(4)), i(0)}},
			[]want{{"OpSDiv", "a zero divisor", []int{1}}}},
		{"in a helper", `fn h(x: u32, y: u32) -> u32 { return x / y; }
fn k(a: u32) -> u32 { return h(a, a - 1u); }`,
			[][]ir.Value{{u(1)}, {u(2)}},
			[]want{{"OpUDiv", "a zero divisor", []int{0}}}},
		{"nothing undefined", `fn k(a: i32, b: i32) -> i32 { return a * b + (a & b); }`,
			[][]ir.Value{{i(intMin), i(-1)}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := wgsl.Parse("t.wgsl", []byte(c.src))
			require.NoError(t, err)
			hz, err := FindHazards(m, "k", c.args)
			require.NoError(t, err)
			var got []want
			for _, h := range hz {
				got = append(got, want{h.Op, h.Domain, h.Invocations})
			}
			assert.Equal(t, c.want, got)
		})
	}
}

// TestFindHazardsLeavesModuleAlone: the probe instruments a copy; the
// module's printed form is unchanged.
func TestFindHazardsLeavesModuleAlone(t *testing.T) {
	m, err := wgsl.Parse("t.wgsl", []byte(`fn k(a: i32, b: i32) -> i32 { return a / b; }`))
	require.NoError(t, err)
	before := ir.Print(m)
	_, err = FindHazards(m, "k", [][]ir.Value{{ir.I32Val(1), ir.I32Val(0)}})
	require.NoError(t, err)
	assert.Equal(t, before, ir.Print(m))
}
