package interp

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
)

// TestParallelPassTakenOrAbandoned: which path a dispatch takes
// (parallel.go). A kernel whose workgroups touch disjoint leaves of its
// written buffer, with a workgroup barrier and workgroup memory, runs in
// parallel; one whose workgroups all read a leaf that one of them writes
// (a cross-workgroup race) is abandoned and runs in order; one with a
// storage atomic runs in order without trying — with the results of one worker
// (shaders' TestParallelDispatchIsTheSameForAnyWorkers compares them on
// every compute shader).
func TestParallelPassTakenOrAbandoned(t *testing.T) {
	cases := []struct {
		src  string
		path string // "parallel", "abandoned", or "in order" (not tried)
	}{
		{`@group(0) @binding(0) var<storage, read_write> y: array<u32, 64>;
var<workgroup> t: array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) l: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
  t[l] = y[gid.x] + 1u;
  workgroupBarrier();
  y[gid.x] = t[(l + 1u) % 4u];
}
`, "parallel"},
		// Issue 26's tiled kernel's shape: a read-only binding every
		// workgroup reads (never claimed), a workgroup tile, and a
		// read-modify-write of the invocation's own leaf.
		{`@group(0) @binding(0) var<storage, read> x: array<f32, 64>;
@group(0) @binding(1) var<storage, read_write> y: array<f32, 64>;
var<workgroup> tile: array<f32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) l: u32) {
  tile[l] = x[gid.x] * 2.0 + x[0];
  workgroupBarrier();
  y[gid.x] = tile[l] + tile[(l + 1u) % 4u] + y[gid.x];
}
`, "parallel"},
		{`@group(0) @binding(0) var<storage, read_write> y: array<u32, 64>;
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let v = y[0];
  y[gid.x + 1u] = v;
  if (gid.x == 9u) { y[0] = 1u; }
}
`, "abandoned"},
		{`@group(0) @binding(0) var<storage, read_write> n: atomic<u32>;
@compute @workgroup_size(4)
fn main() {
  atomicAdd(&n, 1u);
}
`, "in order"},
	}
	for i, c := range cases {
		m, err := wgsl.Parse("p.wgsl", []byte(c.src))
		require.NoError(t, err)
		d, err := CompileEntry(m, "main")
		require.NoError(t, err)
		done, abandoned := parallelDone.Load(), parallelAbandoned.Load()
		par, err := d.Run(nil, [3]uint32{16, 1, 1}, Options{Workers: 2})
		require.NoError(t, err)
		path := "in order"
		switch {
		case parallelDone.Load() == done+1 && parallelAbandoned.Load() == abandoned:
			path = "parallel"
		case parallelDone.Load() == done && parallelAbandoned.Load() == abandoned+1:
			path = "abandoned"
		case parallelDone.Load() != done || parallelAbandoned.Load() != abandoned:
			path = "several passes"
		}
		require.Equal(t, c.path, path, "case %d", i)
		seq, err := d.Run(nil, [3]uint32{16, 1, 1}, Options{Workers: 1})
		require.NoError(t, err)
		require.Equal(t, seq, par)
	}
}
