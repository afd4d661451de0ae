// want: 5:10: flatten: builtin dpdx is not in the whitelist
// Control flow is uniform here, but the default whitelist (the pure
// builtins) has no derivative: dpdx at 5:10 is refused.
fn slope(x: f32) -> f32 {
  return dpdx(x * 2.0);
}
