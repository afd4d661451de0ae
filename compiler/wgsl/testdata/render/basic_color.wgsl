// The shape of webgpu-samples' basic.vert + vertexPositionColor.frag: a
// uniform matrix, position and uv attributes, two varyings.
struct Uniforms {
  mvp: mat4x4<f32>,
}
@binding(0) @group(0) var<uniform> uniforms: Uniforms;

struct VOut {
  @builtin(position) Position: vec4<f32>,
  @location(0) fragUV: vec2<f32>,
  @location(1) fragPosition: vec4<f32>,
}

@vertex
fn main_vs(@location(0) position: vec4<f32>, @location(1) uv: vec2<f32>) -> VOut {
  var output: VOut;
  output.Position = uniforms.mvp * position;
  output.fragUV = uv;
  output.fragPosition = 0.5 * (position + vec4(1.0, 1.0, 1.0, 1.0));
  return output;
}

@fragment
fn main_fs(@location(0) fragUV: vec2<f32>, @location(1) fragPosition: vec4<f32>) -> @location(0) vec4<f32> {
  return fragPosition;
}
