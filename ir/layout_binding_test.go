package ir

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBindingBytesPaths: a shape error names the component's path, built
// on the way out of the recursion (layout_binding.go: bindingErr), and a
// good value is laid out little-endian at WGSL's offsets
// (#alignment-and-size: struct S { pos: u32, v: vec2<f32> } has v at 8,
// size 16, so array<S> has stride 16).
func TestBindingBytesPaths(t *testing.T) {
	s := &StructDecl{Name: "S", Fields: []Field{{Name: "pos", Type: U32}, {Name: "v", Type: Vec(2, F32)}}}
	st := StructType(s)
	arr := RuntimeArrayOf(st)
	elem := func(p uint32) Value {
		return CompositeVal(st, U32Val(p), CompositeVal(Vec(2, F32), F32Val(1), F32Val(-2)))
	}
	good := Value{Type: arr, Elems: []Value{elem(1), elem(2), elem(3), elem(4)}}
	b, err := BindingBytes(arr, good)
	require.NoError(t, err)
	require.Len(t, b, 64)
	require.Equal(t, []byte{3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0}, b[32:48]) // 1.0f = 0x3f800000, -2.0f = 0xc0000000

	bad := good.Clone()
	bad.Elems[3].Elems[0] = I32Val(7)
	_, err = BindingBytes(arr, bad)
	require.EqualError(t, err, "[3].pos: has type i32, want u32")

	flat := Value{Type: RuntimeArrayOf(F32), Elems: []Value{F32Val(1), U32Val(2)}}
	_, err = BindingBytes(RuntimeArrayOf(F32), flat)
	require.EqualError(t, err, "[1]: has type u32, want f32")
	_, err = BindingBytes(U32, F32Val(1))
	require.EqualError(t, err, "value: has type f32, want u32")
}
