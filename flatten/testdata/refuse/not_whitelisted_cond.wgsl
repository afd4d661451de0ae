// want: 6:7: flatten: builtin countOneBits is not in the whitelist
// options: whitelist=min,max
// The builtin sits in an if condition, 6:7.
fn sparse(x: u32) -> u32 {
  var r = x;
  if (countOneBits(x) < 4u) {
    r = 0u;
  }
  return r;
}
