// loops: unrolled 5, kept uniform 0, masked 2
// Triangular nested loops, whose inner loop starts at a value of the outer
// counter. tri: for a per-invocation n = sizes[i], both loops are masked
// (their exits read n); half: the outer loop runs 4 times (a constant
// bound: unrolled), and in each of its 4 live copies the inner loop,
// starting at k / 2 (not a constant of the source, so ir.BoundLoop
// cannot bound it there), is unrolled too, k being a constant in the copy
// (flatten's doc, "Loops in twins"): 1 + 4 loops unrolled.
// Expectation (hand-derived): tri = sum over i < n of sum over j in [i, n)
// of (j - i + 1) = sum over m = 1..n of m(m+1)/2 = n(n+1)(n+2)/6: for
// n = 0..7: 0, 1, 4, 10, 20, 35, 56, 84. half = (i + 1) × the sum over
// k = 0..3 of the sum over j in [k/2, 3) of (j + 1): k = 0, 1: 1+2+3 = 6;
// k = 2, 3: 2+3 = 5; 22 in all: 22, 44, …, 176.
@group(0) @binding(0) var<storage, read> sizes: array<u32, 8>;
@group(0) @binding(1) var<storage, read_write> tri: array<u32, 8>;
@group(0) @binding(2) var<storage, read_write> half: array<u32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) li: u32) {
  let n = sizes[li];
  var acc = 0u;
  for (var i = 0u; i < n; i++) {
    for (var j = i; j < n; j++) {
      acc += j - i + 1u;
    }
  }
  tri[li] = acc;
  var t = 0u;
  for (var k = 0u; k < 4u; k++) {
    for (var j = k / 2u; j < 3u; j++) {
      t += (j + 1u) * (li + 1u);
    }
  }
  half[li] = t;
}
