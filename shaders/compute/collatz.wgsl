// Collatz step counts: steps[i] is the number of steps n -> n/2 (n even),
// n -> 3n+1 (n odd) that take n = values[i] to 1 (0 for n = 1), capped at
// 128 steps (every input here reaches 1 in fewer: 27 takes 111). 2
// workgroups of 8.
// Expectation: compute_expect_test.go (collatz: the same loop in Go, and
// the well-known counts 7 -> 16, 27 -> 111, 97 -> 118).
@group(0) @binding(0) var<storage, read> values: array<u32, 16>;
@group(0) @binding(1) var<storage, read_write> steps: array<u32, 16>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  var n = values[gid.x];
  var count = 0u;
  for (var s = 0u; s < 128u; s++) {
    if (n == 1u) {
      break;
    }
    if ((n & 1u) == 0u) {
      n = n / 2u;
    } else {
      n = 3u * n + 1u;
    }
    count++;
  }
  steps[gid.x] = count;
}
