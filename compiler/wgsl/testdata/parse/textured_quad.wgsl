// A render pipeline: vertex and fragment entry points with I/O structs,
// a uniform matrix, a texture and sampler, derivatives, discard, and a
// helper taking a pointer.
struct Uniforms {
  modelViewProjectionMatrix: mat4x4<f32>,
  tint: vec4<f32>,
}

struct VertexOutput {
  @builtin(position) Position: vec4<f32>,
  @location(0) fragUV: vec2<f32>,
  @location(1) @interpolate(perspective, centroid) fragPosition: vec4<f32>,
  @location(2) @interpolate(flat) instance: u32,
}

alias Color = vec4<f32>;

@group(0) @binding(0) var<uniform> uniforms: Uniforms;
@group(0) @binding(1) var mySampler: sampler;
@group(0) @binding(2) var myTexture: texture_2d<f32>;
@group(0) @binding(3) var shadowMap: texture_depth_2d;
@group(0) @binding(4) var shadowSampler: sampler_comparison;

fn srgb_to_linear(c: f32) -> f32 {
  if (c <= 0.04045) {
    return c / 12.92;
  }
  return pow((c + 0.055) / 1.055, 2.4);
}

fn luminance(c: vec3<f32>) -> f32 {
  return dot(c, vec3(0.2126, 0.7152, 0.0722));
}

fn accumulate(total: ptr<function, vec4<f32>>, c: vec4<f32>) {
  *total += c;
}

@vertex
fn vertex_main(
  @builtin(vertex_index) vertexIndex: u32,
  @builtin(instance_index) instanceIdx: u32,
  @location(0) position: vec4<f32>,
  @location(1) uv: vec2<f32>
) -> VertexOutput {
  var output: VertexOutput;
  output.Position = uniforms.modelViewProjectionMatrix * position;
  output.fragUV = uv;
  output.fragPosition = 0.5 * (position + vec4(1.0, 1.0, 1.0, 1.0));
  output.instance = instanceIdx + vertexIndex * 0u;
  return output;
}

@fragment
fn fragment_main(
  @location(0) fragUV: vec2<f32>,
  @location(1) @interpolate(perspective, centroid) fragPosition: vec4<f32>,
  @location(2) @interpolate(flat) instance: u32
) -> @location(0) Color {
  let texel = textureSample(myTexture, mySampler, fragUV);
  if (texel.a < 0.01) {
    discard;
  }
  let visibility = textureSampleCompare(shadowMap, shadowSampler, fragUV, fragPosition.z);
  let edge = fwidth(fragUV.x) + dpdy(fragUV.y);
  var total = vec4<f32>();
  accumulate(&total, texel * fragPosition);
  let p = &total;
  (*p).a = 1.0;
  let lin = vec3(srgb_to_linear(total.r), srgb_to_linear(total.g), srgb_to_linear(total.b));
  return Color(lin * visibility * luminance(lin) + edge, total.a) * uniforms.tint;
}
