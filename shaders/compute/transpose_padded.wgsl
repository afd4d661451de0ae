// Matrix transpose through workgroup memory with bank-conflict padding:
// an 8×8 u32 matrix, 2×2 workgroups of 4×4; each workgroup reads its 4×4
// block row-wise into a tile with row stride 5 (the padding column keeps a
// column read from hitting one bank), barrier, then writes the block's
// transpose to the mirrored block position, reading the tile column-wise.
// Expectation: compute_expect_test.go (transpose: out[c*8 + r] = in[r*8 + c]).
@group(0) @binding(0) var<storage, read> src: array<u32, 64>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32, 64>;
var<workgroup> tile: array<u32, 20>;

@compute @workgroup_size(4, 4)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
  let x = wid.x * 4u + lid.x;
  let y = wid.y * 4u + lid.y;
  tile[lid.y * 5u + lid.x] = src[y * 8u + x];
  workgroupBarrier();
  let tx = wid.y * 4u + lid.x;
  let ty = wid.x * 4u + lid.y;
  dst[ty * 8u + tx] = tile[lid.x * 5u + lid.y];
}
