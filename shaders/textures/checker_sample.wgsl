// issue 24's fragment acceptance: a mipmapped checker texture sampled
// with implicit derivatives (textureSample: the level of detail from the
// 2×2 quad), through a nearest and a linear sampler, once magnified or
// barely minified (0.9 texels a pixel at level 0) and once minified about
// 3.6 times (λ ≈ 1.85, between levels 1 and 2). The texture and samplers
// are in checker_sample.inputs.json: 16×16 rgba8unorm, 4 mip levels, each
// level's red its own value (0.2, 0.4, 0.6, 0.8) so that the level
// selection shows, its green a checker of 2×2-texel cells. Each sampler
// has its own copy of the texture: wgpu's GL backend (GLSL's combined
// image samplers) refuses a texture used with two samplers ("A image was
// used with multiple samplers").
//   gpudiff exec shaders/textures/checker_sample.wgsl --adapter all --spirv --flat
@group(0) @binding(0) var checker: texture_2d<f32>;
@group(0) @binding(1) var near_s: sampler;
@group(0) @binding(2) var checker_l: texture_2d<f32>;
@group(0) @binding(3) var lin_s: sampler;

struct Out {
  @location(0) near: vec4f,
  @location(1) lin: vec4f,
}

@fragment
fn main(@builtin(position) p: vec4f) -> Out {
  let uv = p.xy * vec2f(0.056, 0.05) + vec2f(0.013, 0.021);
  let a = textureSample(checker, near_s, uv);
  let b = textureSample(checker, near_s, uv * 4.0);
  let c = textureSample(checker_l, lin_s, uv);
  let d = textureSample(checker_l, lin_s, uv * 4.0);
  return Out(vec4f(a.x, a.y, b.x, b.y), vec4f(c.x, c.y, d.x, d.y));
}
