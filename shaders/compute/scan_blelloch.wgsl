// Work-efficient (Blelloch) exclusive prefix sum of 16 u32 in one
// workgroup of 8, two elements per invocation: the up-sweep builds partial
// sums in a tree (d = 8, 4, 2, 1 active invocations, offset doubling), the
// last element is cleared, the down-sweep swaps and adds back down the
// tree (d = 1, 2, 4, 8, offset halving); a barrier separates every level.
// Expectation: compute_expect_test.go (exclusiveScan: a running sum).
@group(0) @binding(0) var<storage, read_write> data: array<u32, 16>;
var<workgroup> t: array<u32, 16>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) li: u32) {
  t[2u * li] = data[2u * li];
  t[2u * li + 1u] = data[2u * li + 1u];
  var offset = 1u;
  for (var d = 8u; d > 0u; d = d / 2u) {
    workgroupBarrier();
    if (li < d) {
      let ai = offset * (2u * li + 1u) - 1u;
      let bi = offset * (2u * li + 2u) - 1u;
      t[bi] += t[ai];
    }
    offset *= 2u;
  }
  if (li == 0u) {
    t[15] = 0u;
  }
  for (var d = 1u; d < 16u; d = d * 2u) {
    offset /= 2u;
    workgroupBarrier();
    if (li < d) {
      let ai = offset * (2u * li + 1u) - 1u;
      let bi = offset * (2u * li + 2u) - 1u;
      let x = t[ai];
      t[ai] = t[bi];
      t[bi] += x;
    }
  }
  workgroupBarrier();
  data[2u * li] = t[2u * li];
  data[2u * li + 1u] = t[2u * li + 1u];
}
