package interp

import (
	"math"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ruleCase is one WGSL runtime rule: expr over parameters a, b, c, d
// (values passed at run time, never constants, as WGSL makes constant
// edge cases shader-creation errors), and the value the spec requires.
type ruleCase struct {
	name string
	expr func(a, b, c, d ir.Expr) ir.Expr
	args []ir.Value
	want ir.Value
}

func runRule(t *testing.T, rc ruleCase) {
	t.Helper()
	names := []string{"a", "b", "c", "d"}
	var ps []P
	var ids [4]ir.Expr
	for i, v := range rc.args {
		ps = append(ps, P{names[i], v.Type})
		ids[i] = param(names[i], v.Type)
	}
	e := rc.expr(ids[0], ids[1], ids[2], ids[3])
	o := retOf(t, exprKernel(e, ps...), "k", rc.args...)
	assert.True(t, exact(o), "result should be exact and determinate: %s", desc(o))
	assert.True(t, ir.Equal(rc.want, o.Value), "got %v, want %v", o.Value, rc.want)
}

func binOp(op ir.BinaryOp) func(a, b, c, d ir.Expr) ir.Expr {
	return func(a, b, _, _ ir.Expr) ir.Expr { return bin(op, a, b) }
}

func builtinOp(fn ir.Builtin) func(a, b, c, d ir.Expr) ir.Expr {
	return func(a, b, c, d ir.Expr) ir.Expr {
		args := []ir.Expr{a}
		for _, x := range []ir.Expr{b, c, d} {
			if x != nil {
				args = append(args, x)
			}
		}
		return bi(fn, args...)
	}
}

const minI32 = math.MinInt32

// TestIntegerRules checks WGSL's run-time integer rules (#arithmetic-expr,
// #bit-expr and the integer builtins) at their edges. Expected values are
// derived by hand from the spec text cited in each name.
func TestIntegerRules(t *testing.T) {
	neg := func(a, _, _, _ ir.Expr) ir.Expr { return un(ir.OpNeg, a) }
	cases := []ruleCase{
		// #arithmetic-expr: division and remainder.
		{"i32 x/0 is x", binOp(ir.OpDiv), []ir.Value{iv(7), iv(0)}, iv(7)},
		{"u32 x/0 is x", binOp(ir.OpDiv), []ir.Value{uv(7), uv(0)}, uv(7)},
		{"i32 x%0 is 0", binOp(ir.OpRem), []ir.Value{iv(7), iv(0)}, iv(0)},
		{"u32 x%0 is 0", binOp(ir.OpRem), []ir.Value{uv(7), uv(0)}, uv(0)},
		{"INT_MIN/-1 is INT_MIN", binOp(ir.OpDiv), []ir.Value{iv(minI32), iv(-1)}, iv(minI32)},
		{"INT_MIN%-1 is 0", binOp(ir.OpRem), []ir.Value{iv(minI32), iv(-1)}, iv(0)},
		{"-7/2 truncates to -3", binOp(ir.OpDiv), []ir.Value{iv(-7), iv(2)}, iv(-3)},
		{"-7%2 is -1 (sign of dividend)", binOp(ir.OpRem), []ir.Value{iv(-7), iv(2)}, iv(-1)},
		{"7%-2 is 1", binOp(ir.OpRem), []ir.Value{iv(7), iv(-2)}, iv(1)},
		{"-7/-2 is 3", binOp(ir.OpDiv), []ir.Value{iv(-7), iv(-2)}, iv(3)},
		{"u32 0xFFFFFFFF/2 is 0x7FFFFFFF", binOp(ir.OpDiv), []ir.Value{uv(0xFFFFFFFF), uv(2)}, uv(0x7FFFFFFF)},
		{"u32 0xFFFFFFFF%10 is 5", binOp(ir.OpRem), []ir.Value{uv(0xFFFFFFFF), uv(10)}, uv(5)},
		{"INT_MIN/1 is INT_MIN", binOp(ir.OpDiv), []ir.Value{iv(minI32), iv(1)}, iv(minI32)},
		{"INT_MIN/2 is -2^30", binOp(ir.OpDiv), []ir.Value{iv(minI32), iv(2)}, iv(-1 << 30)},
		// Wrapping.
		{"INT_MAX+1 wraps to INT_MIN", binOp(ir.OpAdd), []ir.Value{iv(math.MaxInt32), iv(1)}, iv(minI32)},
		{"u32 max+1 wraps to 0", binOp(ir.OpAdd), []ir.Value{uv(0xFFFFFFFF), uv(1)}, uv(0)},
		{"u32 0-1 wraps to max", binOp(ir.OpSub), []ir.Value{uv(0), uv(1)}, uv(0xFFFFFFFF)},
		{"INT_MIN-1 wraps to INT_MAX", binOp(ir.OpSub), []ir.Value{iv(minI32), iv(1)}, iv(math.MaxInt32)},
		{"65536*65536 wraps to 0", binOp(ir.OpMul), []ir.Value{iv(65536), iv(65536)}, iv(0)},
		{"INT_MAX*2 wraps to -2", binOp(ir.OpMul), []ir.Value{iv(math.MaxInt32), iv(2)}, iv(-2)},
		{"u32 0x80000001*2 wraps to 2", binOp(ir.OpMul), []ir.Value{uv(0x80000001), uv(2)}, uv(2)},
		{"-INT_MIN is INT_MIN", neg, []ir.Value{iv(minI32)}, iv(minI32)},
		{"-5 is -5", neg, []ir.Value{iv(5)}, iv(-5)},
		// #bit-expr: shift counts modulo 32.
		{"1<<32 is 1", binOp(ir.OpShl), []ir.Value{iv(1), uv(32)}, iv(1)},
		{"1<<33 is 2", binOp(ir.OpShl), []ir.Value{iv(1), uv(33)}, iv(2)},
		{"1<<0xFFFFFFFF is 1<<31", binOp(ir.OpShl), []ir.Value{iv(1), uv(0xFFFFFFFF)}, iv(minI32)},
		{"u32 1<<31", binOp(ir.OpShl), []ir.Value{uv(1), uv(31)}, uv(0x80000000)},
		{"u32 3<<31 drops the high bit", binOp(ir.OpShl), []ir.Value{uv(3), uv(31)}, uv(0x80000000)},
		{"i32 -8>>1 is arithmetic: -4", binOp(ir.OpShr), []ir.Value{iv(-8), uv(1)}, iv(-4)},
		{"i32 -8>>33 is -8>>1", binOp(ir.OpShr), []ir.Value{iv(-8), uv(33)}, iv(-4)},
		{"i32 INT_MIN>>31 is -1", binOp(ir.OpShr), []ir.Value{iv(minI32), uv(31)}, iv(-1)},
		{"u32 0xFFFFFFF8>>1 is logical", binOp(ir.OpShr), []ir.Value{uv(0xFFFFFFF8), uv(1)}, uv(0x7FFFFFFC)},
		{"u32 x>>32 is x", binOp(ir.OpShr), []ir.Value{uv(0x12345678), uv(32)}, uv(0x12345678)},
		{"u32 x>>0xFFFFFFFF is x>>31", binOp(ir.OpShr), []ir.Value{uv(0x80000000), uv(0xFFFFFFFF)}, uv(1)},
		{"vector shift counts per lane", binOp(ir.OpShl),
			[]ir.Value{vecV(tU32, uv(1), uv(1)), vecV(tU32, uv(32), uv(35))}, vecV(tU32, uv(1), uv(8))},
		{"~0 is -1", func(a, _, _, _ ir.Expr) ir.Expr { return un(ir.OpCompl, a) }, []ir.Value{iv(0)}, iv(-1)},
		{"0xF0 & 0x3C", binOp(ir.OpAnd), []ir.Value{uv(0xF0), uv(0x3C)}, uv(0x30)},
		{"0xF0 | 0x0F", binOp(ir.OpOr), []ir.Value{uv(0xF0), uv(0x0F)}, uv(0xFF)},
		{"0xFF ^ 0x0F", binOp(ir.OpXor), []ir.Value{uv(0xFF), uv(0x0F)}, uv(0xF0)},
		// #comparison-expr: signedness.
		{"i32 -1 < 1", binOp(ir.OpLt), []ir.Value{iv(-1), iv(1)}, bv(true)},
		{"u32 0xFFFFFFFF < 1 is false", binOp(ir.OpLt), []ir.Value{uv(0xFFFFFFFF), uv(1)}, bv(false)},
		{"i32 INT_MIN <= INT_MIN", binOp(ir.OpLe), []ir.Value{iv(minI32), iv(minI32)}, bv(true)},
		{"i32 -1 > -2", binOp(ir.OpGt), []ir.Value{iv(-1), iv(-2)}, bv(true)},
		{"u32 1 >= 0xFFFFFFFF is false", binOp(ir.OpGe), []ir.Value{uv(1), uv(0xFFFFFFFF)}, bv(false)},
		{"vector == per lane", binOp(ir.OpEq),
			[]ir.Value{vecV(tI32, iv(1), iv(2)), vecV(tI32, iv(1), iv(3))}, vecV(tBool, bv(true), bv(false))},
		{"bool == bool", binOp(ir.OpEq), []ir.Value{bv(false), bv(false)}, bv(true)},
		{"bool & is not short-circuit but correct", binOp(ir.OpAnd), []ir.Value{bv(true), bv(false)}, bv(false)},
		{"bool | on vectors", binOp(ir.OpOr),
			[]ir.Value{vecV(tBool, bv(true), bv(false)), vecV(tBool, bv(false), bv(false))}, vecV(tBool, bv(true), bv(false))},
		// Vector-scalar arithmetic broadcasts (#arithmetic-expr, mixed operands).
		{"vec * scalar", binOp(ir.OpMul), []ir.Value{vecV(tI32, iv(1), iv(-2), iv(3)), iv(2)}, vecV(tI32, iv(2), iv(-4), iv(6))},
		{"scalar - vec", binOp(ir.OpSub), []ir.Value{iv(10), vecV(tI32, iv(1), iv(2))}, vecV(tI32, iv(9), iv(8))},
		{"vec / vec with INT_MIN/-1 and x/0 lanes", binOp(ir.OpDiv),
			[]ir.Value{vecV(tI32, iv(minI32), iv(7)), vecV(tI32, iv(-1), iv(0))}, vecV(tI32, iv(minI32), iv(7))},
		{"u32 vec % scalar 0", binOp(ir.OpRem), []ir.Value{vecV(tU32, uv(5), uv(9)), uv(0)}, vecV(tU32, uv(0), uv(0))},
		// Integer builtins.
		{"abs(INT_MIN) is INT_MIN", builtinOp(ir.BAbs), []ir.Value{iv(minI32)}, iv(minI32)},
		{"abs(-5) is 5", builtinOp(ir.BAbs), []ir.Value{iv(-5)}, iv(5)},
		{"abs(u32) is itself", builtinOp(ir.BAbs), []ir.Value{uv(0xFFFFFFFF)}, uv(0xFFFFFFFF)},
		{"sign(INT_MIN) is -1", builtinOp(ir.BSign), []ir.Value{iv(minI32)}, iv(-1)},
		{"sign(0) is 0", builtinOp(ir.BSign), []ir.Value{iv(0)}, iv(0)},
		{"sign(7) is 1", builtinOp(ir.BSign), []ir.Value{iv(7)}, iv(1)},
		{"min(-1i, 1i) is -1", builtinOp(ir.BMin), []ir.Value{iv(-1), iv(1)}, iv(-1)},
		{"min(0xFFFFFFFFu, 1u) is 1", builtinOp(ir.BMin), []ir.Value{uv(0xFFFFFFFF), uv(1)}, uv(1)},
		{"max(-1i, 1i) is 1", builtinOp(ir.BMax), []ir.Value{iv(-1), iv(1)}, iv(1)},
		{"max(0xFFFFFFFFu, 1u)", builtinOp(ir.BMax), []ir.Value{uv(0xFFFFFFFF), uv(1)}, uv(0xFFFFFFFF)},
		{"clamp(5, 0, 3) is 3", builtinOp(ir.BClamp), []ir.Value{iv(5), iv(0), iv(3)}, iv(3)},
		{"clamp(-5, 0, 3) is 0", builtinOp(ir.BClamp), []ir.Value{iv(-5), iv(0), iv(3)}, iv(0)},
		{"clamp with low > high is min(max(e, low), high)", builtinOp(ir.BClamp), []ir.Value{iv(1), iv(5), iv(3)}, iv(3)},
		{"countOneBits(0xF0F0u) is 8", builtinOp(ir.BCountOneBits), []ir.Value{uv(0xF0F0)}, uv(8)},
		{"countOneBits(-1i) is 32", builtinOp(ir.BCountOneBits), []ir.Value{iv(-1)}, iv(32)},
		{"reverseBits(1u) is 1<<31", builtinOp(ir.BReverseBits), []ir.Value{uv(1)}, uv(0x80000000)},
		{"reverseBits(0x12345678u)", builtinOp(ir.BReverseBits), []ir.Value{uv(0x12345678)}, uv(0x1E6A2C48)},
		{"reverseBits(i32 1) is INT_MIN", builtinOp(ir.BReverseBits), []ir.Value{iv(1)}, iv(minI32)},
		{"firstLeadingBit(0u) is 0xFFFFFFFF", builtinOp(ir.BFirstLeadingBit), []ir.Value{uv(0)}, uv(0xFFFFFFFF)},
		{"firstLeadingBit(0i) is -1", builtinOp(ir.BFirstLeadingBit), []ir.Value{iv(0)}, iv(-1)},
		{"firstLeadingBit(-1i) is -1", builtinOp(ir.BFirstLeadingBit), []ir.Value{iv(-1)}, iv(-1)},
		{"firstLeadingBit(0xFFFFFFFFu) is 31 (unsigned differs)", builtinOp(ir.BFirstLeadingBit), []ir.Value{uv(0xFFFFFFFF)}, uv(31)},
		{"firstLeadingBit(1u) is 0", builtinOp(ir.BFirstLeadingBit), []ir.Value{uv(1)}, uv(0)},
		{"firstLeadingBit(5i) is 2", builtinOp(ir.BFirstLeadingBit), []ir.Value{iv(5)}, iv(2)},
		{"firstLeadingBit(-2i): bit 0 differs from the sign", builtinOp(ir.BFirstLeadingBit), []ir.Value{iv(-2)}, iv(0)},
		{"firstLeadingBit(-6i) is 2", builtinOp(ir.BFirstLeadingBit), []ir.Value{iv(-6)}, iv(2)},
		{"firstLeadingBit(INT_MIN) is 30", builtinOp(ir.BFirstLeadingBit), []ir.Value{iv(minI32)}, iv(30)},
		{"firstLeadingBit(INT_MAX) is 30", builtinOp(ir.BFirstLeadingBit), []ir.Value{iv(math.MaxInt32)}, iv(30)},
		{"firstTrailingBit(0u) is 0xFFFFFFFF", builtinOp(ir.BFirstTrailingBit), []ir.Value{uv(0)}, uv(0xFFFFFFFF)},
		{"firstTrailingBit(0i) is -1", builtinOp(ir.BFirstTrailingBit), []ir.Value{iv(0)}, iv(-1)},
		{"firstTrailingBit(8u) is 3", builtinOp(ir.BFirstTrailingBit), []ir.Value{uv(8)}, uv(3)},
		{"firstTrailingBit(INT_MIN) is 31", builtinOp(ir.BFirstTrailingBit), []ir.Value{iv(minI32)}, iv(31)},
		{"extractBits(0xF0u, 4, 4) is 0xF", builtinOp(ir.BExtractBits), []ir.Value{uv(0xF0), uv(4), uv(4)}, uv(0xF)},
		{"extractBits(0xF0i, 4, 4) sign-extends to -1", builtinOp(ir.BExtractBits), []ir.Value{iv(0xF0), uv(4), uv(4)}, iv(-1)},
		{"extractBits(0x70i, 4, 4) is 7", builtinOp(ir.BExtractBits), []ir.Value{iv(0x70), uv(4), uv(4)}, iv(7)},
		{"extractBits(u32, 28, 8): c = min(8, 32-28) = 4", builtinOp(ir.BExtractBits), []ir.Value{uv(0xDEADBEEF), uv(28), uv(8)}, uv(0xD)},
		{"extractBits(i32, 28, 8): 0xD sign-extends to -3", builtinOp(ir.BExtractBits), []ir.Value{iv(-559038737 /* 0xDEADBEEF */), uv(28), uv(8)}, iv(-3)},
		{"extractBits(x, 40, 5): o = 32, c = 0, result 0", builtinOp(ir.BExtractBits), []ir.Value{iv(-1), uv(40), uv(5)}, iv(0)},
		{"extractBits(x, 0, 32) is x", builtinOp(ir.BExtractBits), []ir.Value{iv(minI32 + 5), uv(0), uv(32)}, iv(minI32 + 5)},
		{"extractBits(x, 0, 0) is 0", builtinOp(ir.BExtractBits), []ir.Value{uv(0xFFFFFFFF), uv(0), uv(0)}, uv(0)},
		{"extractBits(x, 0xFFFFFFFF, 0xFFFFFFFF) is 0", builtinOp(ir.BExtractBits), []ir.Value{uv(0xFFFFFFFF), uv(0xFFFFFFFF), uv(0xFFFFFFFF)}, uv(0)},
		{"extractBits(x, 31, 0xFFFFFFFF) is bit 31", builtinOp(ir.BExtractBits), []ir.Value{uv(0x80000000), uv(31), uv(0xFFFFFFFF)}, uv(1)},
		{"insertBits(0, 0xFF, 4, 4) is 0xF0", builtinOp(ir.BInsertBits), []ir.Value{uv(0), uv(0xFF), uv(4), uv(4)}, uv(0xF0)},
		{"insertBits(-1, 0, 28, 8): c = 4 clears bits 28..31", builtinOp(ir.BInsertBits), []ir.Value{uv(0xFFFFFFFF), uv(0), uv(28), uv(8)}, uv(0x0FFFFFFF)},
		{"insertBits(e, n, 33, 1): o = 32, c = 0, result e", builtinOp(ir.BInsertBits), []ir.Value{uv(0x1234), uv(0xFFFFFFFF), uv(33), uv(1)}, uv(0x1234)},
		{"insertBits(0, -1, 0, 32) is -1", builtinOp(ir.BInsertBits), []ir.Value{uv(0), uv(0xFFFFFFFF), uv(0), uv(32)}, uv(0xFFFFFFFF)},
		{"insertBits(-1i, 0, 31, 5) clears bit 31", builtinOp(ir.BInsertBits), []ir.Value{iv(-1), iv(0), uv(31), uv(5)}, iv(math.MaxInt32)},
		{"dot(vec2<i32>) wraps", builtinOp(ir.BDot),
			[]ir.Value{vecV(tI32, iv(65536), iv(1)), vecV(tI32, iv(65536), iv(1))}, iv(1)},
		{"dot(vec3<u32>)", builtinOp(ir.BDot),
			[]ir.Value{vecV(tU32, uv(1), uv(2), uv(3)), vecV(tU32, uv(4), uv(5), uv(6))}, uv(32)},
		{"all(vec3<bool>)", builtinOp(ir.BAll), []ir.Value{vecV(tBool, bv(true), bv(false), bv(true))}, bv(false)},
		{"any(vec3<bool>)", builtinOp(ir.BAny), []ir.Value{vecV(tBool, bv(false), bv(false), bv(true))}, bv(true)},
		{"vector builtin per lane: abs", builtinOp(ir.BAbs),
			[]ir.Value{vecV(tI32, iv(minI32), iv(-3))}, vecV(tI32, iv(minI32), iv(3))},
	}
	for _, rc := range cases {
		t.Run(rc.name, func(t *testing.T) { runRule(t, rc) })
	}
}

// TestConversionRules checks scalar conversions and bitcasts
// (#floating-point-conversion, #conversion-expr, #bitcast-builtin).
func TestConversionRules(t *testing.T) {
	to := func(t *ir.Type) func(a, b, c, d ir.Expr) ir.Expr {
		return func(a, _, _, _ ir.Expr) ir.Expr {
			if a.Type().Kind == ir.KindVec {
				return conv(vecT(a.Type().Len, t), a)
			}
			return conv(t, a)
		}
	}
	cast := func(t *ir.Type) func(a, b, c, d ir.Expr) ir.Expr {
		return func(a, _, _, _ ir.Expr) ir.Expr { return bitcast(t, a) }
	}
	cases := []ruleCase{
		{"i32(1e10) saturates to 2147483520", to(tI32), []ir.Value{fvv(1e10)}, iv(2147483520)},
		{"i32(2147483520.0) is exact", to(tI32), []ir.Value{fvv(2147483520)}, iv(2147483520)},
		{"i32(2147483648.0) saturates to 2147483520", to(tI32), []ir.Value{fvv(2147483648)}, iv(2147483520)},
		{"i32(-2147483904.0) saturates to INT_MIN", to(tI32), []ir.Value{fvv(-2147483904)}, iv(minI32)},
		{"i32(-2147483648.0) is INT_MIN", to(tI32), []ir.Value{fvv(-2147483648)}, iv(minI32)},
		{"i32(-1e20) is INT_MIN", to(tI32), []ir.Value{fvv(-1e20)}, iv(minI32)},
		{"i32(-3.9) truncates to -3", to(tI32), []ir.Value{fvv(-3.9)}, iv(-3)},
		{"i32(3.9) truncates to 3", to(tI32), []ir.Value{fvv(3.9)}, iv(3)},
		{"u32(-1.0) saturates to 0", to(tU32), []ir.Value{fvv(-1)}, uv(0)},
		{"u32(-0.5) truncates to 0", to(tU32), []ir.Value{fvv(-0.5)}, uv(0)},
		{"u32(3.9) truncates to 3", to(tU32), []ir.Value{fvv(3.9)}, uv(3)},
		{"u32(4294967296.0) saturates to 4294967040", to(tU32), []ir.Value{fvv(4294967296)}, uv(4294967040)},
		{"u32(4294967040.0) is exact", to(tU32), []ir.Value{fvv(4294967040)}, uv(4294967040)},
		{"u32(1e20) saturates to 4294967040", to(tU32), []ir.Value{fvv(1e20)}, uv(4294967040)},
		{"i32(subnormal) is 0", to(tI32), []ir.Value{ir.ScalarVal(tF32, 1)}, iv(0)},
		{"vec2<i32>(vec2<f32>) per lane", to(tI32), []ir.Value{vecV(tF32, fvv(1e10), fvv(-2.5))}, vecV(tI32, iv(2147483520), iv(-2))},
		{"f32(16777216i) is exact", to(tF32), []ir.Value{iv(16777216)}, fvv(16777216)},
		{"f32(-7i)", to(tF32), []ir.Value{iv(-7)}, fvv(-7)},
		{"f32(INT_MIN) is exact", to(tF32), []ir.Value{iv(minI32)}, fvv(-2147483648)},
		{"f32(0x80000000u) is exact", to(tF32), []ir.Value{uv(0x80000000)}, fvv(2147483648)},
		{"u32(i32 -1) keeps the bits", to(tU32), []ir.Value{iv(-1)}, uv(0xFFFFFFFF)},
		{"i32(u32 0x80000000) keeps the bits", to(tI32), []ir.Value{uv(0x80000000)}, iv(minI32)},
		{"i32(true) is 1", to(tI32), []ir.Value{bv(true)}, iv(1)},
		{"u32(false) is 0", to(tU32), []ir.Value{bv(false)}, uv(0)},
		{"f32(true) is 1.0", to(tF32), []ir.Value{bv(true)}, fvv(1)},
		{"bool(2i) is true", to(tBool), []ir.Value{iv(2)}, bv(true)},
		{"bool(0u) is false", to(tBool), []ir.Value{uv(0)}, bv(false)},
		{"bool(-0.0) is false", to(tBool), []ir.Value{fvv(float32(math.Copysign(0, -1)))}, bv(false)},
		{"bool(0.5) is true", to(tBool), []ir.Value{fvv(0.5)}, bv(true)},
		{"bitcast<f32>(0x3f800000u) is 1.0", cast(tF32), []ir.Value{uv(0x3f800000)}, fvv(1)},
		{"bitcast<u32>(-2.0) is 0xc0000000", cast(tU32), []ir.Value{fvv(-2)}, uv(0xc0000000)},
		{"bitcast<i32>(0xFFFFFFFFu) is -1", cast(tI32), []ir.Value{uv(0xFFFFFFFF)}, iv(-1)},
		{"bitcast<vec2<u32>>(vec2<f32>)", func(a, _, _, _ ir.Expr) ir.Expr { return bitcast(vecT(2, tU32), a) },
			[]ir.Value{vecV(tF32, fvv(1), fvv(-0.0))}, vecV(tU32, uv(0x3f800000), uv(0))},
	}
	for _, rc := range cases {
		t.Run(rc.name, func(t *testing.T) { runRule(t, rc) })
	}
}

// TestIntToFloatRoundsEitherWay: an integer between two f32 values may
// convert to either (#floating-point-conversion); the tolerance must
// cover the other one.
func TestIntToFloatRoundsEitherWay(t *testing.T) {
	for _, tc := range []struct {
		name   string
		arg    ir.Value
		lo, hi float64
	}{
		{"16777217 lies between 16777216 and 16777218", iv(16777217), 16777216, 16777218},
		{"INT_MAX lies between 2147483520 and 2^31", iv(math.MaxInt32), 2147483520, 2147483648},
		{"u32 max lies between 4294967040 and 2^32", uv(0xFFFFFFFF), 4294967040, 4294967296},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := retOf(t, exprKernel(conv(tF32, param("a", tc.arg.Type)), P{"a", tc.arg.Type}), "k", tc.arg)
			require.NotNil(t, o.Tolerance, desc(o))
			assert.False(t, indeterminate(o))
			got := float64(o.Value.F32())
			assert.True(t, got == tc.lo || got == tc.hi, "got %v", got)
			other := tc.lo + tc.hi - got
			assert.GreaterOrEqual(t, o.Tolerance[0], math.Abs(other-got))
			assert.Contains(t, o.Why, "not exact in f32")
		})
	}
}
