package interp

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// BenchmarkDispatchShapes runs dispatches whose reference cost was once
// quadratic in their size, each at 16,384 invocations (256 workgroups
// of 64): an append buffer (a store through an atomicAdd result, an
// invalid reference: segment.go, storeAnywhere), invocations that all
// stop with their rest indeterminate (poisonRest), and a twin-like loop
// of masked stores through an indeterminate index into a binding above
// maxStoreAnywhereLeaves. ns/op is one dispatch; each should grow
// linearly with the workgroups (compare -benchtime runs of 64 and 256
// workgroups by editing wgs).
func BenchmarkDispatchShapes(b *testing.B) {
	const wgs = 256
	shapes := []struct{ name, src string }{
		{"append", `@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 16384>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (gid.x % 2u == 0u) {
    out[atomicAdd(&counter, 1u)] = gid.x;
  }
}`},
		{"stopped", `@group(0) @binding(0) var<storage, read_write> c: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> y: array<u32, 16384>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let v = atomicAdd(&c, 1u);
  var s = 0u;
  for (var k = 0u; k < min(v, 100u); k++) { s += k; }
  y[gid.x] = s;
}`},
		{"masked-stores-big", `@group(0) @binding(0) var<storage, read_write> c: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> big: array<u32, 262144>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let o = atomicAdd(&c, 0u);
  for (var k = 0u; k < 32u; k++) {
    big[o + k] = select(big[o + k], k, gid.x > 1000000u);
  }
}`},
	}
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) {
			m, err := wgsl.Parse(sh.name+".wgsl", []byte(sh.src))
			require.NoError(b, err)
			d, err := CompileEntry(m, "main")
			require.NoError(b, err)
			for b.Loop() {
				if _, err := d.Run(map[string]ir.Value{}, [3]uint32{wgs, 1, 1}, Options{Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
