// want: 8:3: flatten: unbounded loop: no counter
// options: loops=unroll
// The loop's only exit depends on x, which the body halves: there is no
// counter stepped by a constant, so nothing bounds it. loop is 7:3.
fn halvings(v: u32) -> u32 {
  var x = v;
  var n = 0u;
  loop {
    if (x == 0u) {
      break;
    }
    x = x >> 1u;
    n = n | (n << 1u) | 1u;
  }
  return n;
}
