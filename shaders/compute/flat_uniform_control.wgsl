// Barriers under uniform control flow, shared-memory accesses and an
// atomic under predicates: the shapes flatten keeps as guards (flatten/doc.go
// "Entry points"). One workgroup of 4, params = [rounds, rotate].
//   tile = [1, 2, 3, 4]; rotate (params[1] = 1 > 0): each reads its right
//   neighbour, tile = [2, 3, 4, 1]; rounds = 2: twice tile[0] += tile[2] and
//   tile[1] += tile[3]: [6, 4, 4, 1], then [10, 5, 4, 1]; the third round
//   breaks (2 >= 2). Invocation 3 returns; 0..2 set their bit in bits[0]
//   (0b111 = 7; old never holds the caller's own bit) and write out[li] =
//   tile[li]: out = [10, 5, 4, 103, 104, ...] (out[3..7] keep their inputs).
@group(0) @binding(0) var<storage, read> params: array<u32, 2>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 8>;
@group(0) @binding(2) var<storage, read_write> bits: array<atomic<u32>, 1>;
var<workgroup> tile: array<u32, 4>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32) {
  tile[li] = li + 1u;
  if (params[1] > 0u) {
    workgroupBarrier();
    let n = tile[(li + 1u) % 4u];
    workgroupBarrier();
    tile[li] = n;
  }
  workgroupBarrier();
  for (var r = 0u; r < 3u; r++) {
    if (r >= params[0]) {
      break;
    }
    if (li < 2u) {
      tile[li] += tile[li + 2u];
    }
    workgroupBarrier();
  }
  if (li == 3u) {
    return;
  }
  let old = atomicOr(&bits[0], 1u << li);
  out[li] = tile[li] + (old & (1u << li));
}
