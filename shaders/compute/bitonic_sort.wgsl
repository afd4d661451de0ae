// Bitonic sort of each block of 16 u32 in workgroup memory: one invocation
// per element, stages k = 2, 4, 8, 16 and steps j = k/2 .. 1; in each step
// the invocation whose partner p = li ^ j is above it compare-exchanges
// s[li] and s[p] (ascending where li & k == 0, else descending), so the
// pairs of a step are disjoint and a barrier separates the steps. Two
// workgroups sort data[0..15] and data[16..31] ascending, independently.
// Expectation: compute_expect_test.go (bitonicSort: each block sorted with
// sort.Slice). The step loop runs j = 8, 4, 2, 1 in every stage and skips
// the steps with j >= k (a uniform condition): flatten bounds loops whose
// counter sequence is constant, and j = k / 2u would depend on the outer
// counter.
@group(0) @binding(0) var<storage, read_write> data: array<u32, 32>;
var<workgroup> s: array<u32, 16>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let base = wid.x * 16u;
  s[li] = data[base + li];
  workgroupBarrier();
  for (var k = 2u; k <= 16u; k = k * 2u) {
    for (var j = 8u; j > 0u; j = j / 2u) {
      let p = li ^ j;
      if (j < k && p > li) {
        let x = s[li];
        let y = s[p];
        let up = (li & k) == 0u;
        if ((up && x > y) || (!up && x < y)) {
          s[li] = y;
          s[p] = x;
        }
      }
      workgroupBarrier();
    }
  }
  data[base + li] = s[li];
}
