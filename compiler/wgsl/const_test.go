package wgsl

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ptConstCases are const-expressions with their values derived by hand
// from the WGSL rules named beside them.
var ptConstCases = []struct {
	expr, typ string
	want      ir.Value
}{
	// #arithmetic-expr: truncating division, remainder with the sign of e1
	{"7 / 2", "i32", ir.I32Val(3)},
	{"-7 / 2", "i32", ir.I32Val(-3)},
	{"-7 % 2", "i32", ir.I32Val(-1)},
	{"7 % -2", "i32", ir.I32Val(1)},
	{"7u / 2u", "u32", ir.U32Val(3)},
	// #integer-types: concrete arithmetic wraps
	{"2147483647i + 1i", "i32", ir.I32Val(math.MinInt32)},
	{"1u - 2u", "u32", ir.U32Val(math.MaxUint32)},
	{"65536i * 65536i", "i32", ir.I32Val(0)},
	{"-1 * i32(-2147483648)", "i32", ir.I32Val(math.MinInt32)},
	{"-i32(-2147483648)", "i32", ir.I32Val(math.MinInt32)},
	// abstract evaluation, then conversion (#abstract-types examples)
	{"(0x1ffffffff / 8)", "i32", ir.I32Val(0x3fffffff)},
	{"1 << 31", "u32", ir.U32Val(1 << 31)},
	{"u32(4 * 1000 * 1000 * 1000)", "u32", ir.U32Val(4000000000)},
	{"(1 + (1 + (1 + (1 + 1)))) + 1u", "u32", ir.U32Val(6)},
	// #bit-expr
	{"-1 >> 1u", "i32", ir.I32Val(-1)},
	{"0xffffffffu >> 31u", "u32", ir.U32Val(1)},
	{"-8i >> 1u", "i32", ir.I32Val(-4)},
	{"~0u", "u32", ir.U32Val(math.MaxUint32)},
	{"~5", "i32", ir.I32Val(-6)},
	{"(0xf0u | 0x0fu) ^ 0x3u", "u32", ir.U32Val(0xfc)},
	{"6 & 3", "i32", ir.I32Val(2)},
	// floats: f64 quotient rounded to f32; f32 arithmetic in f32
	{"1.0 / 3.0", "f32", ir.F32Val(float32(1.0 / 3.0))},
	{"0.1f + 0.2f", "f32", ir.F32Val(float32(0.1) + float32(0.2))},
	{"0x1p-149f * 1.0f", "f32", ir.F32Val(math.SmallestNonzeroFloat32)},
	{"2.5f % 1.0f", "f32", ir.F32Val(0.5)},
	{"-7.5 % 2.0", "f32", ir.F32Val(-1.5)},
	// #floating-point-conversion: truncate, clamp to what both types hold
	{"i32(3.7)", "i32", ir.I32Val(3)},
	{"i32(-3.7)", "i32", ir.I32Val(-3)},
	{"u32(-1.0)", "u32", ir.U32Val(0)},
	{"i32(1e10)", "i32", ir.I32Val(math.MaxInt32)},
	{"i32(1e10f)", "i32", ir.I32Val(2147483520)},
	{"u32(1e20f)", "u32", ir.U32Val(4294967040)},
	{"i32(-1e20f)", "i32", ir.I32Val(math.MinInt32)},
	{"f32(16777217)", "f32", ir.F32Val(16777216)},
	{"f32(true)", "f32", ir.F32Val(1)},
	{"bool(-0.0)", "bool", ir.BoolVal(false)},
	{"i32(4294967295u)", "i32", ir.I32Val(-1)},
	// #bitcast-builtin
	{"bitcast<u32>(1.0f)", "u32", ir.U32Val(0x3f800000)},
	{"bitcast<f32>(0x40490fdbu)", "f32", ir.F32Val(math.Float32frombits(0x40490fdb))},
	{"bitcast<i32>(0xffffffffu)", "i32", ir.I32Val(-1)},
	{"bitcast<u32>(-1i)", "u32", ir.U32Val(math.MaxUint32)},
	// numeric builtins
	{"abs(-5)", "i32", ir.I32Val(5)},
	{"abs(i32(-2147483648))", "i32", ir.I32Val(math.MinInt32)},
	{"min(3u, 7u)", "u32", ir.U32Val(3)},
	{"max(-1, -5)", "i32", ir.I32Val(-1)},
	{"clamp(10, 0, 5)", "i32", ir.I32Val(5)},
	{"clamp(-0.5, 0.0, 1.0)", "f32", ir.F32Val(0)},
	{"sign(-3.0)", "f32", ir.F32Val(-1)},
	{"sign(7i)", "i32", ir.I32Val(1)},
	{"floor(-1.5)", "f32", ir.F32Val(-2)},
	{"ceil(1.25)", "f32", ir.F32Val(2)},
	{"round(2.5)", "f32", ir.F32Val(2)},
	{"round(3.5)", "f32", ir.F32Val(4)},
	{"trunc(-1.7)", "f32", ir.F32Val(-1)},
	{"fract(1.25)", "f32", ir.F32Val(0.25)},
	{"sqrt(16.0)", "f32", ir.F32Val(4)},
	{"inverseSqrt(4.0)", "f32", ir.F32Val(0.5)},
	{"pow(2.0, 10.0)", "f32", ir.F32Val(1024)},
	{"exp2(3.0)", "f32", ir.F32Val(8)},
	{"log2(8.0)", "f32", ir.F32Val(3)},
	{"step(0.5, 0.7)", "f32", ir.F32Val(1)},
	{"step(0.5, 0.3)", "f32", ir.F32Val(0)},
	{"mix(0.0, 10.0, 0.25)", "f32", ir.F32Val(2.5)},
	{"smoothstep(0.0, 1.0, 0.5)", "f32", ir.F32Val(0.5)},
	{"fma(2.0, 3.0, 1.0)", "f32", ir.F32Val(7)},
	{"dot(vec2(1, 2), vec2(3, 4))", "i32", ir.I32Val(11)},
	{"length(vec2(3.0, 4.0))", "f32", ir.F32Val(5)},
	{"distance(vec2(1.0, 1.0), vec2(4.0, 5.0))", "f32", ir.F32Val(5)},
	{"normalize(vec2(0.0, 2.0)).y", "f32", ir.F32Val(1)},
	{"cross(vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0)).z", "f32", ir.F32Val(1)},
	// #saturate-float-builtin: clamp(e, 0.0, 1.0)
	{"saturate(-0.5)", "f32", ir.F32Val(0)},
	{"saturate(0.25)", "f32", ir.F32Val(0.25)},
	{"saturate(2.0f)", "f32", ir.F32Val(1)},
	{"saturate(vec2(-1.0, 0.5)).y", "f32", ir.F32Val(0.5)},
	// #reflect-builtin: e1 - 2 * dot(e2, e1) * e2; dot = -1, so (1, -1) + (0, 2)
	{"reflect(vec2(1.0, -1.0), vec2(0.0, 1.0)).x", "f32", ir.F32Val(1)},
	{"reflect(vec2(1.0, -1.0), vec2(0.0, 1.0)).y", "f32", ir.F32Val(1)},
	{"reflect(vec3f(3, -2, 5), vec3f(0, 0, 1)).z", "f32", ir.F32Val(-5)},
	// #faceForward-builtin: e1 if dot(e2, e3) < 0, else -e1 (dot 0: -e1)
	{"faceForward(vec2(1.0, 2.0), vec2(1.0, 0.0), vec2(-1.0, 0.0)).y", "f32", ir.F32Val(2)},
	{"faceForward(vec2(1.0, 2.0), vec2(1.0, 0.0), vec2(1.0, 0.0)).y", "f32", ir.F32Val(-2)},
	{"faceForward(vec2(1.0, 2.0), vec2(1.0, 0.0), vec2(0.0, 1.0)).x", "f32", ir.F32Val(-1)},
	// #ldexp-builtin: e1 * 2^e2
	{"ldexp(0.75, 3)", "f32", ir.F32Val(6)},
	{"ldexp(0.75f, 3)", "f32", ir.F32Val(6)},
	{"ldexp(-3.0, -2i)", "f32", ir.F32Val(-0.75)},
	{"ldexp(1.0f, -126)", "f32", ir.F32Val(0x1p-126)},
	{"ldexp(0.75f, 128)", "f32", ir.F32Val(1.5 * 0x1p127)},
	{"ldexp(vec2(1.0, 3.0), vec2(4, -1)).y", "f32", ir.F32Val(1.5)},
	// #sinh-builtin, #cosh-builtin, #tanh-builtin at 0: (1 ∓ 1) / 2, and
	// tanh(20) = 1 - 2e^-40/(1 + e^-40) ≈ 1 - 8.5e-18, which rounds to 1
	{"sinh(0.0)", "f32", ir.F32Val(0)},
	{"cosh(0.0)", "f32", ir.F32Val(1)},
	{"tanh(0.0f)", "f32", ir.F32Val(0)},
	{"tanh(20.0)", "f32", ir.F32Val(1)},
	// bit builtins
	{"countOneBits(0xf0f0u)", "u32", ir.U32Val(8)},
	{"reverseBits(1u)", "u32", ir.U32Val(1 << 31)},
	{"firstLeadingBit(0x00010000u)", "u32", ir.U32Val(16)},
	{"firstLeadingBit(-1i)", "i32", ir.I32Val(-1)},
	{"firstLeadingBit(-2i)", "i32", ir.I32Val(0)},
	{"firstLeadingBit(0u)", "u32", ir.U32Val(math.MaxUint32)},
	{"firstTrailingBit(8u)", "u32", ir.U32Val(3)},
	{"firstTrailingBit(0u)", "u32", ir.U32Val(math.MaxUint32)},
	{"extractBits(0xabcdu, 4u, 8u)", "u32", ir.U32Val(0xbc)},
	{"extractBits(0x80i, 4u, 4u)", "i32", ir.I32Val(-8)},
	{"extractBits(-1i, 4u, 0u)", "i32", ir.I32Val(0)},
	{"insertBits(0u, 0xffu, 8u, 4u)", "u32", ir.U32Val(0xf00)},
	// logical, select, access
	{"true && !false", "bool", ir.BoolVal(true)},
	{"false || (1 > 2)", "bool", ir.BoolVal(false)},
	{"all(vec2(true, false))", "bool", ir.BoolVal(false)},
	{"any(vec2(true, false))", "bool", ir.BoolVal(true)},
	{"select(1, 2, true)", "i32", ir.I32Val(2)},
	{"select(vec2(1, 2), vec2(3, 4), vec2(true, false)).y", "i32", ir.I32Val(2)},
	{"vec3(1, 2, 3)[1]", "i32", ir.I32Val(2)},
	{"array(1.5, 2.5)[1]", "f32", ir.F32Val(2.5)},
	{"vec4(1, 2, 3, 4).wzyx.y", "i32", ir.I32Val(3)},
	{"vec2(1, 2).y == 2 && vec2u(3).x == 3u", "bool", ir.BoolVal(true)},
}

// TestConstEval checks const-expression evaluation (WGSL #const-expr)
// against the hand-derived values of ptConstCases.
func TestConstEval(t *testing.T) {
	for _, tc := range ptConstCases {
		t.Run(tc.expr, func(t *testing.T) {
			src := "fn f() -> " + tc.typ + " { return " + tc.expr + "; }"
			v := ptLit(t, ptReturn(t, src))
			assert.True(t, ir.Equal(tc.want, v), "got %v, want %v", v, tc.want)
		})
	}
}

// TestConstEvalMatchesTint evaluates the same const-expressions with Tint
// (an independent implementation: Dawn folds them when it creates the
// shader module, and a kernel on dawn-vulkan:swiftshader reads the folded
// values back, ptTintValues) and requires bit-identical results.
func TestConstEvalMatchesTint(t *testing.T) {
	var b strings.Builder
	typs := make([]string, len(ptConstCases))
	for i, tc := range ptConstCases {
		fmt.Fprintf(&b, "fn k%d() -> %s { return %s; }\n", i, tc.typ, tc.expr)
		typs[i] = tc.typ
	}
	tint := ptTintValues(t, b.String(), typs)
	require.NoError(t, tint.err, "tint rejects the module")
	for i, tc := range ptConstCases {
		t.Run(tc.expr, func(t *testing.T) {
			mine := ptLit(t, ptReturn(t, "fn f() -> "+tc.typ+" { return "+tc.expr+"; }"))
			assert.True(t, ir.Equal(tint.vals[i], mine), "tint: %v, gpudiff: %v (by hand: %v)", tint.vals[i], mine, tc.want)
		})
	}
}
