// 1-D blur stencil dst[i] = src[i-1] + 2*src[i] + src[i+1] on i32 with
// clamp-to-edge borders, through a workgroup tile with a one-element halo
// on each side: 2 workgroups of 8 over 16 elements; invocation 0 loads the
// left halo, invocation 7 the right one (indices clamped to
// [0, arrayLength(&src) - 1]), barrier, then every invocation reads three
// neighbours from the tile.
// Expectation: compute_expect_test.go (stencil1D: the formula on the
// clamped input, no tile).
@group(0) @binding(0) var<storage, read> src: array<i32>;
@group(0) @binding(1) var<storage, read_write> dst: array<i32>;
var<workgroup> tile: array<i32, 10>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let n = arrayLength(&src);
  let i = gid.x;
  tile[li + 1u] = src[i];
  if (li == 0u) {
    tile[0] = src[max(i, 1u) - 1u];
  }
  if (li == 7u) {
    tile[9] = src[min(i + 1u, n - 1u)];
  }
  workgroupBarrier();
  dst[i] = tile[li] + 2 * tile[li + 1u] + tile[li + 2u];
}
