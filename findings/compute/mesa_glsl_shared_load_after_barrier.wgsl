// Mesa's GLSL compiler (22.3.6) moves a load of a shared variable past the
// barrier() that follows it: opt_tree_grafting pastes the single-use load
// `int b = tile[...]` into its use after barrier(), which it does not treat
// as a boundary. Tint's GLSL (Dawn's GL and GLES backends) keeps the load
// before barrier() as WGSL and GLSL require; on llvmpipe invocations 43..63
// then read the -1 that invocations 0..20 store after the second barrier
// and write 0. naga's GLSL (wgpu-gl) emits memoryBarrierShared() beside
// barrier(), which stops the graft, and is right; so is every Vulkan run.
// See findings/README.md.
// One workgroup of 64: each invocation stores tile[li] = li, barrier, loads
// b = tile[(li + 21) % 64], barrier, then stores tile[li] = -1 and, after a
// third barrier, writes b + 1. Every load of phase two happens before any
// store of phase three (WGSL #sync-builtin-functions), so b = (li + 21) % 64
// and out[li] = (li + 21) % 64 + 1: [22, 23, ..., 64, 1, 2, ..., 21].
@group(0) @binding(0) var<storage, read_write> out: array<i32, 64>;
var<workgroup> tile: array<i32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  tile[li] = i32(li);
  workgroupBarrier();
  let b = tile[(li + 21u) % 64u];
  workgroupBarrier();
  let next = b + 1i;
  tile[li] = -1i;
  workgroupBarrier();
  out[li] = next;
}
