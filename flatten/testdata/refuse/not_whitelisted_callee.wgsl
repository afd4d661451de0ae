// want: 5:10: flatten: builtin floor is not in the whitelist
// options: whitelist=abs
// The builtin is in a helper the kernel inlines, 5:10.
fn snap(x: f32) -> f32 {
  return floor(x);
}

fn kernel(x: f32) -> f32 {
  return abs(snap(x));
}
