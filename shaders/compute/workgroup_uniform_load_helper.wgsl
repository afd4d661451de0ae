// workgroupUniformLoad inside helper functions the entry point calls, and
// in an expression of the entry point (issue 24 item 6): in an if
// condition, in a return, beside a void helper holding a barrier; the
// reference inlines the calls (ir.InlineBarriers) and runs each as a
// barrier, the load, a barrier. 2 workgroups of 4.
// Expectation, by hand: workgroup w has seed s = values[w] and table[i] =
// 10i + w. Workgroup 0 (s = 3): level(3) = 30, level(0) = 0, out = 30 + li
// + 3: 33, 34, 35, 36. Workgroup 1 (s = 20 > 10): level(3) = 31 + 1000,
// level(1) = 11 + 1000, out = 2042 + li + 20: 2062, 2063, 2064, 2065.
@group(0) @binding(0) var<storage, read> values: array<u32, 2>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 8>;
var<workgroup> seed: u32;
var<workgroup> table: array<u32, 4>;

fn level(i: u32) -> u32 {
  if (workgroupUniformLoad(&seed) > 10u) {
    return workgroupUniformLoad(&table[i]) + 1000u;
  }
  return workgroupUniformLoad(&table[i]);
}

fn publish(li: u32, v: u32) {
  table[li] = v;
  workgroupBarrier();
}

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  if (li == 0u) {
    seed = values[wid.x];
  }
  publish(li, li * 10u + wid.x);
  let a = level(3u) + level(wid.x);
  out[wid.x * 4u + li] = a + li + workgroupUniformLoad(&seed);
}
