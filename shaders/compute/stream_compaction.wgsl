// Stream compaction with determinate output positions: keep the values
// divisible by 3. Each workgroup of 8 flags its values, takes an inclusive
// Hillis-Steele scan of the flags in workgroup memory (read, barrier,
// write, barrier), and a kept value goes to out[8*w + (scan - 1)], its rank
// among the kept values of its workgroup, in input order; counts[w] is the
// workgroup's total. Slots past the count keep their input (999). An
// atomic counter would make the count determinate but the positions not;
// per-workgroup slots by prefix sum make both determinate.
// Expectation: compute_expect_test.go (compact: a sequential filter per
// block of 8).
@group(0) @binding(0) var<storage, read> values: array<u32, 24>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 24>;
@group(0) @binding(2) var<storage, read_write> counts: array<u32, 3>;
var<workgroup> scan: array<u32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let v = values[gid.x];
  let keep = v % 3u == 0u;
  scan[li] = select(0u, 1u, keep);
  workgroupBarrier();
  for (var off = 1u; off < 8u; off = off * 2u) {
    var s = scan[li];
    if (li >= off) {
      s += scan[li - off];
    }
    workgroupBarrier();
    scan[li] = s;
    workgroupBarrier();
  }
  if (keep) {
    out[wid.x * 8u + scan[li] - 1u] = v;
  }
  if (li == 7u) {
    counts[wid.x] = scan[7];
  }
}
