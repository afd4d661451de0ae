// loops: unrolled 0, kept uniform 0, masked 1
// A while with two continues: sums[i] is the sum of the numbers 1..n
// (n = limits[i]) that are odd and not multiples of 3. The while's bound
// is per invocation, so the twin keeps it as a masked loop whose continue
// masks turn off the rest of an iteration's body.
// Expectation (hand-derived): the numbers taken are 1, 5, 7, 11, 13, 17,
// 19, …; n = 0 -> 0; 1 -> 1; 5 -> 1+5 = 6; 7 -> 6+7 = 13; 10 -> 13 (8, 9
// and 10 are skipped); 12 -> 13+11 = 24; 13 -> 24+13 = 37;
// 20 -> 37+17+19 = 73.
@group(0) @binding(0) var<storage, read> limits: array<u32, 8>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) li: u32) {
  let n = limits[li];
  var i = 0u;
  var sum = 0u;
  while (i < n) {
    i++;
    if ((i & 1u) == 0u) {
      continue;
    }
    if (i % 3u == 0u) {
      continue;
    }
    sum += i;
  }
  sums[li] = sum;
}
