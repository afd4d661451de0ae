// want: 6:18: flatten: builtin sqrt is not in the whitelist
// options: whitelist=abs,min,max
// sqrt is a pure builtin, but this whitelist leaves it out; it is found
// inside the argument of max (6:18), though max itself is allowed.
fn len2(x: f32, y: f32) -> f32 {
  return max(abs(sqrt(x * x + y * y)), 0.0);
}
