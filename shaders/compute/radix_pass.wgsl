// One pass of an LSD radix sort (a stable counting sort by the 2-bit digit
// (key >> params.shift) & 3) of 16 u32 keys in one workgroup of 16. Keys go
// to workgroup memory and each invocation atomically counts its digit;
// after a barrier every invocation sums the counts of the smaller digits
// (its bucket's offset) and counts the keys before it with its digit (its
// rank), so each output position is determinate; hist gets the four
// counts. shift = 2 here.
// Expectation: compute_expect_test.go (radixPass: a stable sort by digit,
// sort.SliceStable, and the digit histogram).
struct Params {
  shift: u32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> keys: array<u32, 16>;
@group(0) @binding(2) var<storage, read_write> sorted: array<u32, 16>;
@group(0) @binding(3) var<storage, read_write> hist: array<u32, 4>;
var<workgroup> k: array<u32, 16>;
var<workgroup> count: array<atomic<u32>, 4>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) li: u32) {
  let key = keys[li];
  let d = (key >> params.shift) & 3u;
  k[li] = key;
  atomicAdd(&count[d], 1u);
  workgroupBarrier();
  var offset = 0u;
  for (var b = 0u; b < 4u; b++) {
    if (b < d) {
      offset += atomicLoad(&count[b]);
    }
  }
  var rank = 0u;
  for (var j = 0u; j < 16u; j++) {
    if (j < li && ((k[j] >> params.shift) & 3u) == d) {
      rank++;
    }
  }
  sorted[offset + rank] = key;
  if (li < 4u) {
    hist[li] = atomicLoad(&count[li]);
  }
}
