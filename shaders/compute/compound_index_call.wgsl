// x op= y evaluates the reference x once (WGSL #compound-assignment-sec):
// in out[next()] += 10u the call runs once, so calls is 1, out[1] gets 10,
// and out[0] records 1 (hand-derived). The reference dispatch once
// re-evaluated the target's index to load it: next() ran twice, out[0]
// became 2 and the load came from out[2].
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
var<private> calls: u32;

fn next() -> u32 {
  calls = calls + 1u;
  return calls;
}

@compute @workgroup_size(1)
fn main() {
  out[next()] += 10u;
  out[0] = calls;
  out[3] = out[2] + 5u;
}
