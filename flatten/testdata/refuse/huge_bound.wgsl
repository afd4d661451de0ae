// want: 9:3: flatten: loop bound too large to unroll: counter i bounds the loop at 4000000001 body entries, more than MaxUnroll 4096
// options: loops=unroll
// The counter runs from 0 to 4000000000 by 1: the body is entered 4e9
// times and once more to test the condition, 4000000001 entries, beyond
// any unroll cap (ir.BoundLoop gives up past 2^30), so the message names
// the cap instead of calling the loop unbounded. The for is 9:3.
fn spin(x: u32) -> u32 {
  var s = 0u;
  for (var i = 0u; i < 4000000000u; i++) { s += x; }
  return s;
}
