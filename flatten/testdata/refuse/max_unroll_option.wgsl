// want: 9:3: flatten: unrolling needs 9 loop-body copies, more than MaxUnroll 8
// options: max-unroll=8 loops=unroll
// With MaxUnroll 8, a loop of 8 iterations is one copy too many: its body
// is entered 8 times and a 9th time to test the condition, so it needs 9
// copies. The for is 9:3.
fn sum8(x: i32) -> i32 {
  var s = 0;

  for (var i = 0; i < 8; i++) {
    s += x;
  }
  return s;
}
