package shaders

import (
	"strings"
	"testing"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// dispatchBenchSrc is 4096 invocations (64 workgroups of 64) of the same
// work, with two workgroup barriers or (BARRIER replaced by nothing)
// none; its workgroup accesses are own-slot only, so both are race-free.
const dispatchBenchSrc = `@group(0) @binding(0) var<storage, read_write> out: array<u32, 4096>;
var<workgroup> tile: array<u32, 64>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  var x = gid.x;
  for (var i = 0u; i < 32u; i++) { x = x * 1664525u + 1013904223u; }
  tile[li] = x;
  BARRIER
  for (var i = 0u; i < 32u; i++) { x = (x ^ (x >> 7u)) + tile[li]; }
  BARRIER
  out[gid.x] = x + tile[li];
}`

func benchDispatch(b *testing.B, barrier string) {
	m, err := wgsl.Parse("bench.wgsl", []byte(strings.ReplaceAll(dispatchBenchSrc, "BARRIER", barrier)))
	if err != nil {
		b.Fatal(err)
	}
	d, err := interp.CompileEntry(m, "main")
	if err != nil {
		b.Fatal(err)
	}
	bufs := map[string]ir.Value{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := d.Run(bufs, [3]uint32{64, 1, 1}, interp.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDispatchBarriers compares a 4096-invocation dispatch with two
// workgroupBarriers to the same work without them (issue 14: ≤ 2×).
func BenchmarkDispatchBarriers(b *testing.B) {
	b.Run("barriers", func(b *testing.B) { benchDispatch(b, "workgroupBarrier();") })
	b.Run("none", func(b *testing.B) { benchDispatch(b, "") })
}
