// Depth comparison on a depth32float texture (issue 24; uploaded by a
// render pass writing frag_depth): textureSampleCompareLevel with a
// nearest and a linear comparison sampler ("less": depth_ref < texel
// passes), and textureGatherCompare. The 2×2 texture holds 0.2, 0.4
// (row 0), 0.6, 0.8 (row 1). Hand-derived (check's
// TestDepthCompareHandDerived): nearest at each texel centre with
// depth_ref 0.5 gives 0, 0, 1, 1; linear gives 1 with depth_ref 0.1 and
// 0 with 0.9 wherever it samples (every texel passes, or none), and at
// the texture's centre with 0.5 any value in [0, 1] (two texels pass,
// two fail; the weights are the implementation's); the gather at the
// centre gives the footprint (0,1), (1,1), (1,0), (0,0): 1, 1, 0, 0.
@group(0) @binding(0) var d: texture_depth_2d;
@group(0) @binding(1) var cmpN: sampler_comparison;
@group(0) @binding(2) var cmpL: sampler_comparison;
@group(0) @binding(3) var<storage, read_write> o: array<f32, 13>;
@group(0) @binding(4) var<storage, read_write> g: vec4f;

@compute @workgroup_size(1)
fn main() {
  for (var i = 0u; i < 4u; i++) {
    let uv = (vec2f(f32(i % 2u), f32(i / 2u)) + 0.5) / 2.0;
    o[i] = textureSampleCompareLevel(d, cmpN, uv, 0.5);
    o[4u + i] = textureSampleCompareLevel(d, cmpL, uv, 0.1);
    o[8u + i] = textureSampleCompareLevel(d, cmpL, uv, 0.9);
  }
  o[12] = textureSampleCompareLevel(d, cmpL, vec2f(0.5, 0.5), 0.5);
  g = textureGatherCompare(d, cmpN, vec2f(0.5, 0.5), 0.5);
}
