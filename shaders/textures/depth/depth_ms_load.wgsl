// Depth and multisampled textures as inputs (issue 24): textureLoad of a
// depth32float texture (two levels; uploaded by a render pass writing
// frag_depth), of a depth16unorm 2d-array (copied), of every sample of two
// multisampled textures (r32float and rgba8uint, 4 samples, uploaded by a
// per-sample render pass), and textureNumSamples. Hand-derived expected
// values: check's TestDepthMultisampledHandDerived.
@group(0) @binding(0) var d: texture_depth_2d;
@group(0) @binding(1) var da: texture_depth_2d_array;
@group(0) @binding(2) var ms: texture_multisampled_2d<f32>;
@group(0) @binding(3) var msu: texture_multisampled_2d<u32>;
@group(0) @binding(4) var<storage, read_write> o: array<f32, 21>;
@group(0) @binding(5) var<storage, read_write> u: array<vec4u, 4>;
@group(0) @binding(6) var<storage, read_write> n: vec2u;

@compute @workgroup_size(1)
fn main() {
  for (var i = 0u; i < 4u; i++) {
    let p = vec2u(i % 2u, i / 2u);
    o[i] = textureLoad(d, p, 0);
    o[5u + i] = textureLoad(da, p, 0, 0);
    o[9u + i] = textureLoad(da, p, 1u, 0);
    o[13u + i] = textureLoad(ms, vec2u(0u, 0u), i32(i)).x;
    o[17u + i] = textureLoad(ms, vec2u(1u, 0u), i32(i)).x;
    u[i] = textureLoad(msu, vec2i(0, 0), i32(i));
  }
  o[4] = textureLoad(d, vec2i(0, 0), 1);
  n = vec2u(textureNumSamples(ms), textureNumSamples(msu));
}
