// Image-style 2×2 box downsample with an 8×8 workgroup (64 invocations):
// a 16×8 u32 image, 2×1 workgroups; each invocation loads its pixel at
// global_invocation_id.xy (width from num_workgroups.x × 8) into an 8×8
// tile, barrier, and the 4×4 invocations in the tile's top-left corner
// write the rounded-down mean of their 2×2 block to the 8×4 output.
// Expectation: compute_expect_test.go (downsample: the block means over
// the whole image, no tiles).
@group(0) @binding(0) var<storage, read> img: array<u32, 128>;
@group(0) @binding(1) var<storage, read_write> half_img: array<u32, 32>;
var<workgroup> tile: array<u32, 64>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let w = nwg.x * 8u;
  tile[lid.y * 8u + lid.x] = img[gid.y * w + gid.x];
  workgroupBarrier();
  if (lid.x < 4u && lid.y < 4u) {
    let t = 2u * lid.y * 8u + 2u * lid.x;
    let sum = tile[t] + tile[t + 1u] + tile[t + 8u] + tile[t + 9u];
    half_img[lid.y * (w / 2u) + wid.x * 4u + lid.x] = sum / 4u;
  }
}
