// Barriers inside helper functions the entry point calls (issue 24 item
// 6): the reference inlines the calls that reach a barrier
// (ir.InlineBarriers). exchange writes each invocation's value to
// workgroup memory, waits, reads its neighbour's ((li + 1) % 4) and waits
// again; rounds runs it in a loop and returns from inside the loop at the
// uniform round stop = 2 + workgroup id, and writes through a function
// pointer. calls (private) is read before rounds runs (WGSL evaluates
// left to right), so n = 0 + stop. 2 workgroups of 4.
// Expectation, by hand: after r rounds x = 10 * ((li + r) % 4) + r.
// Workgroup 0 (r = 2, n = 2, calls = 2): x = 22, 32, 2, 12, out = 100x + 22:
// 2222, 3222, 222, 1222. Workgroup 1 (r = 3, n = 3, calls = 3): x = 33, 3,
// 13, 23, out = 100x + 33: 3333, 333, 1333, 2333.
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
var<workgroup> buf: array<u32, 4>;
var<private> calls: u32;

fn exchange(li: u32, v: u32) -> u32 {
  calls += 1u;
  buf[li] = v;
  workgroupBarrier();
  let r = buf[(li + 1u) % 4u];
  workgroupBarrier();
  return r;
}

fn rounds(li: u32, p: ptr<function, u32>, stop: u32) -> u32 {
  for (var k = 0u; k < 4u; k++) {
    if (k == stop) {
      return k;
    }
    *p = exchange(li, *p) + 1u;
  }
  return 99u;
}

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  var x = li * 10u;
  let n = calls + rounds(li, &x, 2u + wid.x);
  out[wid.x * 4u + li] = x * 100u + n * 10u + calls;
}
