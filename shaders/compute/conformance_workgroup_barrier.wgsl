// rule: workgroupBarrier makes workgroup-memory writes before it visible to every invocation of the workgroup after it
// spec: WGSL #sync-builtin-functions (Synchronization Built-in Functions), "the affected memory and atomic operations program-ordered before the synchronization function must be visible to all other threads in the workgroup before any affected memory or atomic operation program-ordered after the synchronization function is executed by a member of the workgroup"
// One workgroup of 8: each writes tile[li] = li*li + 1, barrier, each reads
// two other invocations' slots, its right neighbour (li + 1) % 8 and its
// mirror 7 - li: out[li] = ((li+1)%8)^2 + 1 + (7-li)^2 + 1 =
// [2+50, 5+37, 10+26, 17+17, 26+10, 37+5, 50+2, 1+1]
// = [52, 42, 36, 34, 36, 42, 52, 2].
// The other direction (reads before a barrier, writes after it) is
// findings/compute/naga_spv_in_load_after_barrier.wgsl: wgpu 0.19.4's
// SPIR-V reader moves the load past the barrier (gfx-rs/wgpu#8151).
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
var<workgroup> tile: array<u32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) li: u32) {
  tile[li] = li * li + 1u;
  workgroupBarrier();
  out[li] = tile[(li + 1u) % 8u] + tile[7u - li];
}
