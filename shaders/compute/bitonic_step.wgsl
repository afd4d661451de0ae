// One global bitonic merge step (the host-driven form of a bitonic sort:
// one dispatch per (k, j) pair) over 16 u32 with the pair in a uniform
// struct: 2 workgroups of 8, one invocation per element; the invocation
// whose partner i ^ j is above it compare-exchanges the two elements,
// ascending where i & k == 0. k = 16, j = 4 here (the elements i and i ^ 4
// of each half are compared and sorted ascending).
// Expectation: compute_expect_test.go (bitonicStep: the same pairs in a
// sequential loop).
struct Step {
  k: u32,
  j: u32,
}
@group(0) @binding(0) var<uniform> step: Step;
@group(0) @binding(1) var<storage, read_write> data: array<u32, 16>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  let p = i ^ step.j;
  if (p > i) {
    let x = data[i];
    let y = data[p];
    let up = (i & step.k) == 0u;
    if ((up && x > y) || (!up && x < y)) {
      data[i] = y;
      data[p] = x;
    }
  }
}
