package ir

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// refLeaf is a leaf as a plain walk of WGSL #memory-layouts enumerates
// it: the independent derivation the structural layout is checked
// against.
type refLeaf struct {
	off  int
	t    *Type
	path string
}

// refLeaves enumerates t's leaves one by one (a runtime-sized array with
// n elements), with FieldOffsets and ArrayStride and nothing of
// leafLayout.
func refLeaves(t *Type, off int, path string, n int, out *[]refLeaf) {
	switch t.Kind {
	case KindAtomic:
		refLeaves(t.Elem, off, path, n, out)
	case KindVec:
		for i := range t.Len {
			*out = append(*out, refLeaf{off + i*ScalarSize(t.Elem), t.Elem, path + "[" + strconv.Itoa(i) + "]"})
		}
	case KindArray, KindMat, KindRuntimeArray:
		k := t.Len
		if t.Kind == KindRuntimeArray {
			k = n
		}
		for i := range k {
			refLeaves(t.Elem, off+i*ArrayStride(t), path+"["+strconv.Itoa(i)+"]", n, out)
		}
	case KindStruct:
		for i, fo := range FieldOffsets(t.Struct) {
			refLeaves(t.Struct.Fields[i].Type, off+fo, path+"."+t.Struct.Fields[i].Name, n, out)
		}
	default:
		*out = append(*out, refLeaf{off, t, path})
	}
}

// TestLeafLayoutIsStructural: for types whose fixed arrays are large
// (laid out as a repeated element) and small (leaf by leaf), nested, of
// structs holding vectors, matrices and arrays, with f16 members and
// behind a runtime-sized array, every leaf's offset, type and path (at()
// and path(), computed from the structure) is the plain walk's; Dense
// holds exactly when leaf i lies at 4i; and the layout of the
// cluster-lights-shaped struct is a handful of runs, not one per leaf.
func TestLeafLayoutIsStructural(t *testing.T) {
	pair := StructType(&StructDecl{Name: "L", Fields: []Field{{Name: "offset", Type: U32}, {Name: "count", Type: U32}}})
	group := StructType(&StructDecl{Name: "G", Fields: []Field{
		{Name: "offset", Type: AtomicOf(U32)},
		{Name: "lights", Type: ArrayOf(pair, 27648)},
		{Name: "indices", Type: ArrayOf(U32, 1769472)},
	}})
	bounds := StructType(&StructDecl{Name: "B", Fields: []Field{{Name: "minAABB", Type: Vec(3, F32)}, {Name: "maxAABB", Type: Vec(3, F32)}}})
	mixed := StructType(&StructDecl{Name: "M", Fields: []Field{
		{Name: "h", Type: F16},
		{Name: "m", Type: Mat(3, 3)},
		{Name: "grid", Type: ArrayOf(ArrayOf(Vec(2, I32), 7), 5)},
		{Name: "small", Type: ArrayOf(U32, 3)},
		{Name: "hv", Type: Vec(3, F16)},
		{Name: "ms", Type: ArrayOf(Mat(2, 4), 9)},
	}})
	cases := []struct {
		t     *Type
		n     int // runtime-sized array elements
		dense bool
	}{
		{group, 0, true},
		{ArrayOf(bounds, 27648), 0, false},
		{mixed, 0, false},
		{RuntimeArrayOf(ArrayOf(bounds, 20)), 3, false},
		{RuntimeArrayOf(ArrayOf(U32, 40)), 4, true},
		{StructType(&StructDecl{Name: "T", Fields: []Field{{Name: "n", Type: U32}, {Name: "xs", Type: RuntimeArrayOf(mixed)}}}), 2, false},
		{ArrayOf(ArrayOf(F32, 100), 100), 0, true},
		{ArrayOf(Vec(3, F32), 50), 0, false}, // 12 bytes in a 16-byte stride
	}
	for _, c := range cases {
		var want []refLeaf
		refLeaves(c.t, 0, "", c.n, &want)
		l := LeafOffsets(c.t)
		size := SizeOf(c.t)
		if ok, off, stride, _, _ := l.Tail(); ok {
			size = off + c.n*stride
		}
		b := Buffer{Type: c.t, Bytes: make([]byte, size)}
		require.Equal(t, len(want), b.Leaves(), "%v", c.t)
		require.Equal(t, len(want), l.Count(size), "%v", c.t)
		dense := true
		for i, w := range want {
			off, typ := l.At(i)
			if off != w.off || typ != w.t {
				t.Fatalf("%v leaf %d: at %d %v, want %d %v", c.t, i, off, typ, w.off, w.t)
			}
			dense = dense && w.off == 4*i && ScalarSize(w.t) == 4
			// Paths are built on demand: check a sample (all of a small
			// type), as building 1.8M strings is slow.
			if len(want) < 5000 || i%997 == 0 || i == len(want)-1 {
				require.Equal(t, w.path, b.LeafPath(i), "%v leaf %d", c.t, i)
			}
		}
		require.Equal(t, dense, l.Dense(), "%v", c.t)
		require.Equal(t, c.dense, l.Dense(), "%v", c.t)
	}
	g := leafLayoutOf(group)
	require.Len(t, g.runs, 3, "offset, lights (repeated), indices (repeated)")
	require.Equal(t, 1+2*27648+1769472, g.n)
	require.Equal(t, []*Type{U32}, LeafOffsets(group).Scalars())
	require.Equal(t, []*Type{F16, F32, I32, U32}, LeafOffsets(mixed).Scalars())
}

// TestLeafLayoutBitsRoundTrip: leaves written by index through the
// structural layout decode (BindingValue, an independent walk of the
// bytes) to a tree whose leaves, in order, are those indices.
func TestLeafLayoutBitsRoundTrip(t *testing.T) {
	inner := StructType(&StructDecl{Name: "E", Fields: []Field{{Name: "a", Type: ArrayOf(Vec(3, U32), 6)}, {Name: "b", Type: I32}}})
	ty := StructType(&StructDecl{Name: "W", Fields: []Field{{Name: "es", Type: ArrayOf(inner, 40)}, {Name: "rt", Type: RuntimeArrayOf(inner)}}})
	b := BufferOfLength(ty, 5)
	require.Equal(t, 45*19, b.Leaves())
	for i := range b.Leaves() {
		b.SetLeaf(i, uint32(7+i))
	}
	v, err := b.Value()
	require.NoError(t, err)
	var got []uint32
	WalkValue(v, leafCollector{&got})
	require.Len(t, got, b.Leaves())
	for i, x := range got {
		require.Equal(t, uint32(7+i), x, "leaf %d (%s)", i, b.LeafPath(i))
	}
	require.Equal(t, ".rt[4].b", b.LeafPath(b.Leaves()-1))
	require.Equal(t, ".es[39].a[5][2]", b.LeafPath(40*19-2))
}

type leafCollector struct{ out *[]uint32 }

func (leafCollector) Open(*Type, int)       {}
func (leafCollector) Child(*Type, int)      {}
func (leafCollector) Close(*Type)           {}
func (c leafCollector) Leaf(_ int, v Value) { *c.out = append(*c.out, v.Bits) }
