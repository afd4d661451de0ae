// wgpu 0.19.4's SPIR-V reader (naga 0.19.2) moves a workgroup load past
// the barrier that follows it (gfx-rs/wgpu#8151, fixed in later naga):
// gpudiff's SPIR-V (portable and raw, original and twin) on SwiftShader
// gives out = [37, 26, 17, 17, 26, 37, 50, 50]; naga's SPIR-V from the WGSL
// and lavapipe (one SIMD group of 8) are right. gpudiff's emitter now
// avoids it (compiler/spirv workarounds.barrierBlock; TestBarrierLoadQuirk
// shows it with the workaround off). See findings/README.md.
// One workgroup of 8, three phases: each writes tile[li] = li*li + 1,
// barrier, each reads the slot of invocation 7 - li and writes it to
// tile[li] after a second barrier (the reads of phase two all happen
// before any write of phase three), barrier, each reads its right
// neighbour tile[(li + 1) % 8]. After phase three tile[li] = (7-li)^2 + 1
// = [50, 37, 26, 17, 10, 5, 2, 1], so out[li] = tile[(li+1) % 8] =
// [37, 26, 17, 10, 5, 2, 1, 50].
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
var<workgroup> tile: array<u32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) li: u32) {
  tile[li] = li * li + 1u;
  workgroupBarrier();
  let mirrored = tile[7u - li];
  workgroupBarrier();
  tile[li] = mirrored;
  workgroupBarrier();
  out[li] = tile[(li + 1u) % 8u];
}
