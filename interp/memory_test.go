package interp

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// TestLeafMapIsTheBuffersLayout: the dispatch's own map of where each
// leaf lies (leafMap, read on every access of a read-only binding) gives,
// for every leaf of bindings with padding (vec3 members and arrays,
// matrices with padded columns, nested structs, runtime-sized arrays of
// structs), the offset and scalar kind ir.Buffer gives — the layout of
// WGSL #memory-layouts that check writes the bytes in — and the same
// leaf count for buffers holding 0 to 3 elements, the last one without
// its trailing padding.
func TestLeafMapIsTheBuffersLayout(t *testing.T) {
	src := `struct In { a: vec3<f32>, b: u32, c: array<vec3<i32>, 2>, m: mat3x3<f32>, d: f32 }
struct E { p: vec2<f32>, q: In, r: atomic<u32> }
struct T { n: u32, v: vec4<f32>, tail: array<E> }
@group(0) @binding(0) var<storage, read_write> s: T;
@group(0) @binding(1) var<storage, read_write> r: array<vec3<f32>>;
@group(0) @binding(2) var<uniform> u: In;
@group(0) @binding(3) var<storage, read_write> f: array<u32>;
@compute @workgroup_size(1)
fn main() {}
`
	m, err := wgsl.Parse("l.wgsl", []byte(src))
	require.NoError(t, err)
	dense := map[string]bool{"s": false, "r": false, "u": false, "f": true}
	for name, wantDense := range dense {
		g := m.SharedVar(name)
		lm := newLeafMap(g.T, true)
		require.Equal(t, wantDense, lm.dense, name)
		for _, k := range []int{0, 1, 2, 3} {
			b := ir.BufferOfLength(g.T, k)
			for _, n := range []int{len(b.Bytes), len(b.Bytes) - 4} {
				if n < ir.SizeOf(g.T) {
					continue
				}
				bb := ir.Buffer{Type: g.T, Bytes: b.Bytes[:n]}
				want := len(g.T.ComponentTypes())
				if bb.RuntimeLength() > 0 || g.T.Kind == ir.KindRuntimeArray || g.T.Kind == ir.KindStruct && g.T.Struct.Fields[len(g.T.Struct.Fields)-1].Type.Kind == ir.KindRuntimeArray {
					want = bb.Leaves()
				}
				require.Equal(t, want, lm.count(n), "%s: %d elements, %d bytes", name, k, n)
				for i := range lm.count(n) {
					require.Equal(t, bb.Offset(i), lm.off(int32(i)), "%s leaf %d (%s)", name, i, bb.LeafPath(i))
					require.Equal(t, bb.LeafType(i).Kind, lm.kind(int32(i)), "%s leaf %d (%s)", name, i, bb.LeafPath(i))
				}
			}
		}
	}
}
