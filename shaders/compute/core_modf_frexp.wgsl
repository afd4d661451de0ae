// modf and frexp (WGSL #modf-builtin, #frexp-builtin) and their
// predeclared result structs (__modf_result_f32, __modf_result_vec2_f32,
// __frexp_result_f32, __frexp_result_vec2_f32): runtime and constant
// arguments, scalar and vector, members read, a var of the result type.
// Expectation (hand-derived from the definitions: modf splits e into
// fract + whole with e's sign, whole = trunc(e); frexp gives e = fract *
// 2^exp with |fract| in [0.5, 1), frexp(0) = (0, 0)), x = [-2.75, 3.5,
// 12, -0.375]:
//   modf(-2.75) = (-0.75, -2); modf(vec2(3.5, 12)).x = (0.5, 3);
//   frexp(12) = (0.75, 4); frexp(-0.375) = (-0.75, -1) (-0.375 = -0.75 * 2^-1);
//   frexp(1.25) = (0.625, 1); modf(7.5).whole = 7; frexp(0).exp = 0.
// f = [-0.75, -2, 0.5, 3, 0.75, -0.75, 0.625, 7], e = [4, -1, 1, 0].
@group(0) @binding(0) var<storage, read> x: array<f32, 4>;
@group(0) @binding(1) var<storage, read_write> f: array<f32, 8>;
@group(0) @binding(2) var<storage, read_write> e: array<i32, 4>;

@compute @workgroup_size(1)
fn main() {
  let m = modf(x[0]);
  f[0] = m.fract;
  f[1] = m.whole;
  let v = modf(vec2(x[1], x[2]));
  f[2] = v.fract.x;
  f[3] = v.whole.x;
  let fr = frexp(vec2(x[2], x[3]));
  f[4] = fr.fract.x;
  f[5] = fr.fract.y;
  e[0] = fr.exp.x;
  e[1] = fr.exp.y;
  var c = frexp(1.25);
  f[6] = c.fract;
  e[2] = c.exp;
  f[7] = modf(7.5).whole;
  e[3] = frexp(x[2] * 0.0).exp;
}
