// A texture read texel by texel (textureLoad) and a nearest, repeating
// sample of it (textureSampleLevel), stored converted to an rgba8unorm
// storage texture. Hand-derived expected texels: store_load.expected.json.
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;
@group(0) @binding(2) var dst: texture_storage_2d<rgba8unorm, write>;

@compute @workgroup_size(2, 2)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let t = textureLoad(src, id.xy, 0);
  // One texel to the right, wrapping (repeat): the centre of texel x+1.
  let s = textureSampleLevel(src, samp, (vec2f(id.xy) + vec2f(1.5, 0.5)) / 2.0, 0.0);
  textureStore(dst, id.xy, vec4f(t.x, s.x, t.y * 0.5, 1.0));
}
