package interp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// TestOwnedVars: which bindings the entry point accesses only as
// v[gid.x] (owned.go), by hand for each form.
func TestOwnedVars(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		owned      bool
	}{
		{"y[gid.x]", "y[gid.x] = y[gid.x] + 1u;", true},
		{"a let of gid.x", "let i = gid.x; y[i] = y[i] * 2u; n = arrayLength(&y);", true},
		{"another index", "y[gid.x + 1u] = 1u;", false},
		{"a constant index as well", "y[gid.x] = y[0];", false},
		{"gid.y", "y[gid.y] = 1u;", false},
		{"a var of gid.x, never assigned", "var i = gid.x; y[i] = 1u;", true},
		{"a var of gid.x, assigned", "var i = gid.x; i += 1u; y[i] = 1u;", false},
		{"a var of gid.x, through a pointer", "var i = gid.x; inc(&i); y[i] = 1u;", false},
		{"a let shadowed by another let", "let i = gid.x; { let i = 0u; y[i] = 1u; }", false},
		{"through a helper", "put(gid.x);", false},
		{"through a pointer", "bump(&y[gid.x]);", false},
		{"a member's array", "b.data[gid.x] = b.data[gid.x] + 1u; n = arrayLength(&b.data);", true},
		{"a member's array and another member", "b.data[gid.x] = b.head;", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `@group(0) @binding(0) var<storage, read_write> y: array<u32>;
@group(0) @binding(1) var<storage, read_write> n: u32;
struct Buf { head: u32, data: array<u32> }
@group(0) @binding(2) var<storage, read_write> b: Buf;
fn put(i: u32) { y[i] = 1u; }
fn bump(p: ptr<storage, u32, read_write>) { *p = *p + 1u; }
fn inc(p: ptr<function, u32>) { *p = *p + 1u; }
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  ` + tc.body + `
}
`
			m, err := wgsl.Parse("owned.wgsl", []byte(src))
			require.NoError(t, err)
			d, err := CompileEntry(m, "main")
			require.NoError(t, err)
			v := "y"
			if strings.Contains(tc.body, "b.") {
				v = "b"
			}
			assert.Equal(t, tc.owned, d.e.owned[d.e.ids[v]])
			assert.False(t, d.e.owned[d.e.ids["n"]], "n is not an array")
		})
	}
}

// TestOwnedBindingsChangeNothing: a dispatch runs the same (final
// buffers, marks, allowed sets, races) with owned bindings (no race
// shadow or claims for them) as without, on one worker and on several;
// where invocations share gid.x (a dispatch two high) or gid.x runs past
// the binding, nothing is owned and the race or the out-of-bounds access
// is still found.
func TestOwnedBindingsChangeNothing(t *testing.T) {
	const src = `@group(0) @binding(0) var<storage, read_write> y: array<u32>;
@group(0) @binding(1) var<storage, read> x: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  y[i] = y[i] * 3u + x[i] + gid.y;
}
@compute @workgroup_size(4)
fn guarded(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= arrayLength(&y)) { return; }
  y[i] = y[i] * 3u + x[i] + gid.y;
}
`
	m, err := wgsl.Parse("owned.wgsl", []byte(src))
	require.NoError(t, err)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	gd, err := CompileEntry(m, "guarded")
	require.NoError(t, err)
	arr := func(n int) ir.Value {
		v := ir.Value{Type: ir.RuntimeArrayOf(tU32)}
		for k := range n {
			v.Elems = append(v.Elems, uv(uint32(k+1)))
		}
		return v
	}
	const structSrc = `struct Buf { pad: vec4<u32>, data: array<u32, 64> }
@group(0) @binding(0) var<storage, read_write> b: Buf;
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  b.data[gid.x] = b.data[gid.x] * 3u + gid.x + gid.y;
}
`
	sm, err := wgsl.Parse("owned_struct.wgsl", []byte(structSrc))
	require.NoError(t, err)
	sd, err := CompileEntry(sm, "main")
	require.NoError(t, err)
	for _, wg := range [][3]uint32{{16, 1, 1}, {16, 2, 1}} {
		assert.Equal(t, wg[1] == 1, sd.ownedFor(wg, func(int) int32 { return 68 }) != nil, "%v", wg)
		for _, workers := range []int{1, 2, 3} {
			got, err := sd.Run(nil, wg, Options{Workers: workers})
			require.NoError(t, err)
			noOwned = true
			want, err := sd.Run(nil, wg, Options{Workers: workers})
			noOwned = false
			require.NoError(t, err)
			require.Equal(t, want, got, "%v, %d workers", wg, workers)
			assert.Equal(t, wg[1] == 2, len(got.Races) > 0, "races %v", got.Races)
		}
	}
	for _, tc := range []struct {
		name       string
		d          *Dispatch
		n          int
		workgroups [3]uint32
		owned      bool
		races      bool
		dropped    int64 // passes started again without owned bindings, per run
	}{
		{"one high: owned", d, 64, [3]uint32{16, 1, 1}, true, false, 0},
		{"two high: shared gid.x, a race", d, 64, [3]uint32{16, 2, 1}, false, true, 0},
		{"gid.x past the binding: the pass again, nothing owned", d, 40, [3]uint32{16, 1, 1}, true, true, 1},
		{"gid.x past the binding, guarded: owned", gd, 40, [3]uint32{16, 1, 1}, true, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.d
			in := map[string]ir.Value{"y": arr(tc.n), "x": arr(tc.n)}
			assert.Equal(t, tc.owned, d.ownedFor(tc.workgroups, func(int) int32 { return int32(tc.n) }) != nil)
			for _, workers := range []int{1, 2, 3} {
				dropped := ownedDropped.Load()
				got, err := d.Run(in, tc.workgroups, Options{Workers: workers})
				require.NoError(t, err)
				assert.Equal(t, tc.dropped, ownedDropped.Load()-dropped, "%d workers: passes started again", workers)
				noOwned = true
				want, err := d.Run(in, tc.workgroups, Options{Workers: workers})
				noOwned = false
				require.NoError(t, err)
				require.Equal(t, want, got, "%d workers", workers)
				assert.Equal(t, tc.races, len(got.Races) > 0, "races %v", got.Races)
			}
		})
	}
}
