// The shape of webgpu-samples' instanced.vert (a uniform array indexed by
// instance_index) and sampleTextureMixColor.frag (implicit-LOD sampling of
// an interpolated coordinate), with a flat, either varying and a discard.
struct Uniforms {
  mats: array<mat4x4<f32>, 4>,
}
@group(0) @binding(0) var<uniform> uniforms: Uniforms;
@group(0) @binding(1) var s: sampler;
@group(0) @binding(2) var tex: texture_2d<f32>;

struct VOut {
  @builtin(position) Position: vec4<f32>,
  @location(0) uv: vec2<f32>,
  @location(1) @interpolate(flat, either) inst: u32,
  @location(2) @interpolate(linear) shade: f32,
}

@vertex
fn vs(@builtin(instance_index) ii: u32, @location(0) position: vec4<f32>, @location(1) uv: vec2<f32>) -> VOut {
  var o: VOut;
  o.Position = uniforms.mats[ii] * position;
  o.uv = uv;
  o.inst = ii;
  o.shade = position.z;
  return o;
}

@fragment
fn fs(in: VOut, @builtin(front_facing) ff: bool) -> @location(0) vec4<f32> {
  let c = textureSample(tex, s, in.uv);
  if (c.a < 0.5 || !ff) {
    discard;
  }
  let d = dpdx(in.uv.x) + fwidth(in.shade);
  return vec4(c.rgb * in.shade + vec3(d), f32(in.inst));
}
