// wgpu 0.19.4's GLSL backend (naga 0.19.2) cannot write the result type
// of atomicCompareExchangeWeak: wgpu-gl:llvmpipe fails to compile this
// module (WGSL, original and twin) with "Shader translation error ...
// Unable to write type Struct { old_value, exchanged }" (gfx-rs/wgpu#7578,
// fixed by gfx-rs/wgpu#7658); wgpu's Vulkan adapters run it. The bare call
// `atomicCompareExchangeWeak(&a[0], 3u, 100u);` with no use of its result
// fails alike. See findings/README.md.
// One invocation; a = [7]. The comparison (7 == 3) cannot succeed, so
// nothing is stored and a[0] stays 7 (WGSL #atomic-compare-exchange-weak:
// store v only if the comparison was true; a weak exchange may fail
// spuriously, never succeed spuriously): out[2] = atomicLoad = 7. In one
// invocation no other atomic can come between, so r is exactly
// (old_value 7, exchanged false): a = [7], out = [7, 0, 7].
@group(0) @binding(0) var<storage, read_write> a: array<atomic<u32>, 1>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 3>;

@compute @workgroup_size(1)
fn main() {
  let r = atomicCompareExchangeWeak(&a[0], 3u, 100u);
  out[0] = r.old_value;
  out[1] = select(0u, 1u, r.exchanged);
  out[2] = atomicLoad(&a[0]);
}
