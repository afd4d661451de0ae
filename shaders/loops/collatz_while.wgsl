// loops: unrolled 0, kept uniform 0, masked 1
// Collatz step counts with a data-dependent while (no counter, no bound
// flatten can prove): steps[i] is the number of steps n -> n/2 (n even),
// n -> 3n+1 (n odd) that take n = values[i] to 1. The twin keeps the while
// as one masked loop: each invocation iterates until its own mask clears.
// Expectation (hand-derived): 1 -> 0; 2 -> 1 (2,1); 3 -> 7
// (3,10,5,16,8,4,2,1); 6 -> 8 (6, then 3's 7); 7 -> 16
// (7,22,11,34,17,52,26,13,40,20,10,5,16,8,4,2,1); 9 -> 19
// (9,28,14,7: 3 steps, then 7's 16); 12 -> 9 (12,6, then 3's 7); 27 -> 111
// (the well-known count; shaders/compute/collatz.expected.json).
@group(0) @binding(0) var<storage, read> values: array<u32, 8>;
@group(0) @binding(1) var<storage, read_write> steps: array<u32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) li: u32) {
  var n = values[li];
  var count = 0u;
  while (n != 1u) {
    if ((n & 1u) == 0u) {
      n = n / 2u;
    } else {
      n = 3u * n + 1u;
    }
    count++;
  }
  steps[li] = count;
}
