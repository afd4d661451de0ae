// workgroupUniformLoad (WGSL #workgroupUniformLoad-builtin): invocation 0
// of each workgroup writes a seed and a table entry into workgroup memory;
// every invocation reads both back with workgroupUniformLoad (a barrier,
// the load, a barrier), one through a uniform index. The result is
// uniform, so it may decide a branch holding a barrier. 2 workgroups of 4.
// Expectation, by hand: workgroup w has s = values[w], t = 2s and
// r = s + t + li; workgroup 0 (s = 3): 9, 10, 11, 12; workgroup 1
// (s = 20 > 10) adds table[3 - li] = (3 - li) * 100: 60 + 300, 61 + 200,
// 62 + 100, 63 + 0.
@group(0) @binding(0) var<storage, read> values: array<u32, 2>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 8>;
var<workgroup> seed: u32;
var<workgroup> table: array<u32, 4>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  if (li == 0u) {
    seed = values[wid.x];
    table[wid.x + 1u] = seed * 2u;
  }
  let s = workgroupUniformLoad(&seed);
  let t = workgroupUniformLoad(&table[wid.x + 1u]);
  var r = s + t + li;
  if (s > 10u) {
    table[li] = li * 100u;
    workgroupBarrier();
    r += table[3u - li];
  }
  out[wid.x * 4u + li] = r;
}
