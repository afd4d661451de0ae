// The shape of the vk-gl-cts fragment shaders Tint translates from SPIR-V
// (test/tint/vk-gl-cts): an output struct whose members carry
// @interpolate, which WGSL allows on a fragment output and ignores
// (#interpolate-attr), beside shading with saturate, reflect,
// faceForward, ldexp and the hyperbolic functions.
struct VOut {
  @builtin(position) pos: vec4<f32>,
  @location(0) normal: vec3<f32>,
  @location(1) @interpolate(flat) level: i32,
}

@vertex
fn vs(@location(0) p: vec4<f32>, @location(1) n: vec3<f32>) -> VOut {
  return VOut(p, n, 2);
}

struct FOut {
  @location(0) @interpolate(flat) lit: vec4<f32>,
  @location(1) @interpolate(flat) level: i32,
}

@fragment
fn fs(@location(0) normal: vec3<f32>, @location(1) @interpolate(flat) level: i32) -> FOut {
  let light = vec3(0.0, 0.0, -1.0);
  let n = faceForward(normal, light, normal);
  let r = reflect(light, n);
  let d = saturate(dot(n, -light));
  let glow = tanh(sinh(d) / cosh(d));
  return FOut(vec4(r * d, ldexp(glow, level - 3)), level);
}
