// Tiled matrix multiply C = A × B of 8×8 u32 matrices stored row-major in
// arrays (no mat types): 2×2 workgroups of 4×4 invocations, one per element
// of C; for each of the two k-tiles every invocation loads one element of
// A's and one of B's 4×4 tile into workgroup memory, barrier, accumulates
// its row × column over the tile, barrier (so the next tile's loads do not
// race with this tile's reads).
// Expectation: compute_expect_test.go (matmulTiled: the naive triple loop).
@group(0) @binding(0) var<storage, read> a: array<u32, 64>;
@group(0) @binding(1) var<storage, read> b: array<u32, 64>;
@group(0) @binding(2) var<storage, read_write> c: array<u32, 64>;
var<workgroup> ta: array<u32, 16>;
var<workgroup> tb: array<u32, 16>;

@compute @workgroup_size(4, 4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
  let row = gid.y;
  let col = gid.x;
  var acc = 0u;
  for (var t = 0u; t < 2u; t++) {
    ta[lid.y * 4u + lid.x] = a[row * 8u + t * 4u + lid.x];
    tb[lid.y * 4u + lid.x] = b[(t * 4u + lid.y) * 8u + col];
    workgroupBarrier();
    for (var k = 0u; k < 4u; k++) {
      acc += ta[lid.y * 4u + k] * tb[k * 4u + lid.x];
    }
    workgroupBarrier();
  }
  c[row * 8u + col] = acc;
}
