// want: 9:10: flatten: fwidth in non-uniform control flow
// options: whitelist=fwidth
// After a conditional early return, control is no longer uniform: the
// fwidth at 9:10 runs only in the invocations that did not return.
fn ramp(x: f32) -> f32 {
  if (x < 0.0) {
    return 0.0;
  }
  return fwidth(x);
}
