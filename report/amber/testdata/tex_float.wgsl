// An rgba16float texture read texel by texel, its channels combined into an
// r32float storage texture (exact: f16 values times 2 plus an f16 value are
// exact in f32, and r32float stores the f32 itself) and, for row 0, its
// third channel into a buffer. Inputs: tex_float.inputs.json.
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var dst: texture_storage_2d<r32float, write>;
@group(0) @binding(2) var<storage, read_write> sum: array<f32, 4>;

@compute @workgroup_size(4, 2)
fn main(@builtin(local_invocation_id) id: vec3u) {
  let t = textureLoad(src, id.xy, 0);
  textureStore(dst, id.xy, vec4f(t.x * 2.0 + t.y, 0.0, 0.0, 1.0));
  if (id.y == 0u) {
    sum[id.x] = t.z;
  }
}
