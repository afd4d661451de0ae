// want: 12:3: flatten: unrolling needs 10302 loop-body copies, more than MaxUnroll 4096
// options: loops=unroll
// Each loop runs its body 100 times and is entered a 101st time to test
// its condition, so ir.BoundLoop bounds each at 101 entries. The outer
// loop makes 101 copies; each holds a copy of the inner loop, 101 copies
// each: 101 + 101 × 101 = 10302 > 4096 (the default MaxUnroll). The count
// crosses the limit at the outer for, 11:3.
fn grid_sum(x: i32) -> i32 {
  var s = 0;
  // The outer loop.

  for (var i = 0; i < 100; i++) {
    for (var j = 0; j < 100; j++) {
      s += x;
    }
  }
  return s;
}
