package ir

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBufferLeavesMatchBindingValue: a Buffer's leaves, read from the
// bytes by offset, are the leaves of the decoded ir.Value tree in
// ComponentTypes order, for a struct with a vec3 (12 bytes in a 16-byte
// slot), a mat3x3 (columns padded to 16), an @size member and a
// runtime-sized array of structs; the offsets of a few leaves are derived
// by hand from WGSL #memory-layouts.
func TestBufferLeavesMatchBindingValue(t *testing.T) {
	inner := StructType(&StructDecl{Name: "P", Fields: []Field{{Name: "pos", Type: Vec(3, F32)}, {Name: "id", Type: U32}}})
	outer := StructType(&StructDecl{Name: "S", Fields: []Field{
		{Name: "a", Type: I32, Size: 16},
		{Name: "m", Type: Mat(3, 3)},
		{Name: "ps", Type: RuntimeArrayOf(inner)},
	}})
	// Layout by hand: a at 0 (@size 16), m at 16 (3 columns × 16 bytes),
	// ps at 64, P's stride 16 (vec3 12 bytes + id at 12).
	b := BufferOfLength(outer, 3)
	require.Equal(t, 64+3*16, len(b.Bytes))
	require.Equal(t, 3, b.RuntimeLength())
	require.Equal(t, 1+9+3*4, b.Leaves())
	for i := range b.Leaves() {
		b.SetLeaf(i, uint32(100+i))
	}
	require.Equal(t, 0, b.Offset(0))
	require.Equal(t, 16+16+4, b.Offset(1+3+1))   // m[1][1]
	require.Equal(t, 64+16+12, b.Offset(10+4+3)) // ps[1].id
	require.Equal(t, ".m[1][1]", b.LeafPath(5))
	require.Equal(t, ".ps[1].id", b.LeafPath(17))
	require.Equal(t, ".ps[2].pos[0]", b.LeafPath(18))
	require.Equal(t, U32, b.LeafType(17))
	require.Equal(t, F32, b.LeafType(18))

	v, err := b.Value()
	require.NoError(t, err)
	var leaves []uint32
	var walk func(v Value)
	walk = func(v Value) {
		if v.Elems == nil && v.Type.Kind != KindRuntimeArray {
			leaves = append(leaves, v.Bits)
			return
		}
		for _, e := range v.Elems {
			walk(e)
		}
	}
	walk(v)
	require.Len(t, leaves, b.Leaves())
	for i, x := range leaves {
		require.Equal(t, uint32(100+i), x, "leaf %d (%s)", i, b.LeafPath(i))
		require.Equal(t, x, b.Bits(i))
	}
	// Round trip through NewBuffer: the same bytes.
	b2, err := NewBuffer(outer, v)
	require.NoError(t, err)
	require.Equal(t, b.Bytes, b2.Bytes)
	require.Equal(t, uint32(100+17), binary.LittleEndian.Uint32(b.Bytes[64+16+12:]))
}

// TestBufferRuntimeArrayCountsAsBindingValue: a runtime-sized array holds
// as many elements as fit, the last without its trailing padding
// (array<vec3<f32>>: stride 16, size 12; 44 bytes hold 3).
func TestBufferRuntimeArrayCountsAsBindingValue(t *testing.T) {
	rt := RuntimeArrayOf(Vec(3, F32))
	for n, want := range map[int]int{0: 0, 11: 0, 12: 1, 16: 1, 28: 2, 44: 3, 48: 3} {
		b := Buffer{Type: rt, Bytes: make([]byte, n)}
		v, err := b.Value()
		require.NoError(t, err)
		require.Equal(t, want, len(v.Elems), "%d bytes", n)
		require.Equal(t, want, b.RuntimeLength(), "%d bytes", n)
		require.Equal(t, 3*want, b.Leaves(), "%d bytes", n)
	}
	require.Equal(t, "[2][1]", Buffer{Type: rt, Bytes: make([]byte, 48)}.LeafPath(7))
	require.Equal(t, "", Buffer{Type: F32, Bytes: make([]byte, 4)}.LeafPath(0))
	fixed := ZeroBuffer(ArrayOf(Vec(2, U32), 3))
	require.Equal(t, 6, fixed.Leaves())
	require.Equal(t, 0, fixed.RuntimeLength())
	require.Equal(t, 0, Buffer{Type: fixed.Type, Bytes: make([]byte, 8)}.Leaves(), "shorter than the fixed part")
}
