// want: 7:3: flatten: unbounded loop: no exit test bounds counter i
// options: loops=unroll
// The loop runs n times: n is a parameter, so no constant bounds it and
// ir.BoundLoop finds no limit for the counter i. The while keyword is 6:3.
fn count_to(n: u32) -> u32 {
  var i = 0u;
  while (i < n) {
    i += 1u;
  }
  return i;
}
