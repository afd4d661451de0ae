package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// TestPackBuiltins checks the data packing builtins against values derived
// by hand from WGSL's formulas (#pack-builtin-functions,
// #unpack-builtin-functions).
func TestPackBuiltins(t *testing.T) {
	v4 := func(t *ir.Type, xs ...ir.Value) ir.Value { return ir.CompositeVal(ir.Vec(len(xs), t), xs...) }
	f := func(xs ...float32) ir.Value {
		es := make([]ir.Value, len(xs))
		for i, x := range xs {
			es[i] = ir.F32Val(x)
		}
		return v4(ir.F32, es...)
	}
	i := func(xs ...int32) ir.Value {
		es := make([]ir.Value, len(xs))
		for j, x := range xs {
			es[j] = ir.I32Val(x)
		}
		return v4(ir.I32, es...)
	}
	u := func(xs ...uint32) ir.Value {
		es := make([]ir.Value, len(xs))
		for j, x := range xs {
			es[j] = ir.U32Val(x)
		}
		return v4(ir.U32, es...)
	}
	for _, tc := range []struct {
		fn   ir.Builtin
		arg  ir.Value
		want ir.Value
	}{
		// ⌊0.5 + 255·clamp(e, 0, 1)⌋: 0, 128 (127.5 → 128), 255, 255.
		{ir.BPack4x8Unorm, f(0, 0.5, 1, 2), ir.U32Val(0xFFFF8000)},
		// ⌊0.5 + 127·clamp(e, -1, 1)⌋: 0, 64, 127, 127 / -127, -127, 32, -32.
		{ir.BPack4x8Snorm, f(0, 0.5, 1, 2), ir.U32Val(0x7F7F4000)},
		{ir.BPack4x8Snorm, f(-1, -2, 0.25, -0.25), ir.U32Val(0xE0208181)},
		// 32767·0.25 + 0.5 = 8192.25 → 0x2000; -1 → -32767 = 0x8001.
		{ir.BPack2x16Snorm, f(0.25, -1), ir.U32Val(0x80012000)},
		// 65535·0.5 + 0.5 = 32768 → 0x8000; 1 → 0xFFFF.
		{ir.BPack2x16Unorm, f(0.5, 1), ir.U32Val(0xFFFF8000)},
		{ir.BPack4xI8, i(1, -1, 256+5, -129), ir.U32Val(0x7F05FF01)},
		{ir.BPack4xU8, u(1, 255, 256+5, 0x1234), ir.U32Val(0x3405FF01)},
		{ir.BPack4xI8Clamp, i(1, -1, 300, -129), ir.U32Val(0x807FFF01)},
		{ir.BPack4xU8Clamp, u(1, 255, 300, 0x1234), ir.U32Val(0xFFFFFF01)},
		{ir.BUnpack4xI8, ir.U32Val(0x807FFF01), i(1, -1, 127, -128)},
		{ir.BUnpack4xU8, ir.U32Val(0x807FFF01), u(1, 255, 127, 128)},
		// max(v/127, -1): 0x80 = -128 → -1; 0x7F → 1; 0 → 0; 0x81 = -127 → -1.
		{ir.BUnpack4x8Snorm, ir.U32Val(0x81007F80), f(-1, 1, 0, -1)},
		{ir.BUnpack4x8Unorm, ir.U32Val(0xFF0000FF), f(1, 0, 0, 1)},
		{ir.BUnpack2x16Unorm, ir.U32Val(0xFFFF0000), f(0, 1)},
		{ir.BUnpack2x16Snorm, ir.U32Val(0x80007FFF), f(1, -1)},
		// binary16: 1 = 0x3C00, -2 = 0xC000, 65504 = 0x7BFF, 2^-14 = 0x0400.
		{ir.BPack2x16Float, f(1, -2), ir.U32Val(0xC0003C00)},
		{ir.BPack2x16Float, f(65504, 0x1p-14), ir.U32Val(0x04007BFF)},
		{ir.BUnpack2x16Float, ir.U32Val(0xC0003C00), f(1, -2)},
	} {
		rt, err := ir.BuiltinResultType(tc.fn, []*ir.Type{tc.arg.Type})
		require.NoError(t, err, "%v", tc.fn)
		e := &ir.BuiltinCall{Fn: tc.fn, Args: []ir.Expr{param("a", tc.arg.Type)}, T: rt}
		o := retOf(t, exprKernel(e, P{"a", tc.arg.Type}), "k", tc.arg)
		assert.True(t, ir.Equal(tc.want, o.Value), "%v(%s) = %s, want %s", tc.fn, ir.MarshalValue(tc.arg), ir.MarshalValue(o.Value), ir.MarshalValue(tc.want))
		assert.False(t, indeterminate(o), "%v", tc.fn)
	}
}

// TestPackHalfIndeterminate: pack2x16float of a value binary16 cannot
// hold (0.1: either neighbour), beyond its finite range (65520) or a
// binary16 subnormal (2^-20, which may be flushed) is indeterminate; so is
// unpack2x16float of an infinity (0x7C00) or a subnormal half (0x0001).
func TestPackHalfIndeterminate(t *testing.T) {
	for _, x := range []float32{0.1, 65520, 0x1p-20} {
		arg := ir.CompositeVal(ir.Vec(2, ir.F32), ir.F32Val(1), ir.F32Val(x))
		e := &ir.BuiltinCall{Fn: ir.BPack2x16Float, Args: []ir.Expr{param("a", arg.Type)}, T: ir.U32}
		o := retOf(t, exprKernel(e, P{"a", arg.Type}), "k", arg)
		assert.True(t, indeterminate(o), "pack2x16float(1, %g) = %s, want indeterminate", x, ir.MarshalValue(o.Value))
	}
	for _, w := range []uint32{0x7C00, 0x0001} {
		e := &ir.BuiltinCall{Fn: ir.BUnpack2x16Float, Args: []ir.Expr{param("a", ir.U32)}, T: ir.Vec(2, ir.F32)}
		o := retOf(t, exprKernel(e, P{"a", ir.U32}), "k", ir.U32Val(w|0x3C000000))
		assert.Equal(t, []bool{true, false}, o.Indeterminate, "unpack2x16float(%#x)", w|0x3C000000)
	}
}

// TestPackNormAmbiguous: where WGSL's ⌊0.5 + M·c⌋ and the GLSL.std.450
// round(M·c) that Tint and naga emit differ, the packed word is
// indeterminate: 255·0.3f = 76.500003 rounds to 76.5 in f32 (GLSL half to
// even: 76; WGSL: 77), and pack4x8snorm(-0.5) is a tie (-63 or -64).
func TestPackNormAmbiguous(t *testing.T) {
	for _, tc := range []struct {
		fn ir.Builtin
		x  float32
	}{{ir.BPack4x8Unorm, 0.3}, {ir.BPack4x8Snorm, -0.5}, {ir.BPack2x16Snorm, -0.5}} {
		w := 4
		if tc.fn == ir.BPack2x16Snorm {
			w = 2
		}
		es := make([]ir.Value, w)
		for i := range es {
			es[i] = ir.F32Val(0)
		}
		es[0] = ir.F32Val(tc.x)
		arg := ir.CompositeVal(ir.Vec(w, ir.F32), es...)
		e := &ir.BuiltinCall{Fn: tc.fn, Args: []ir.Expr{param("a", arg.Type)}, T: ir.U32}
		o := retOf(t, exprKernel(e, P{"a", arg.Type}), "k", arg)
		assert.True(t, indeterminate(o), "%v(%g) should be indeterminate, got %s", tc.fn, tc.x, ir.MarshalValue(o.Value))
	}
}
