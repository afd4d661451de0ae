enable f16;
requires readonly_and_readwrite_storage_textures;

// f16 math next to f32 math: only the f32 helpers are in the subset.
struct HalfData {
  values: array<vec4<f16>, 16>,
  scale: f16,
}

@group(0) @binding(0) var<storage, read_write> data: HalfData;
@group(0) @binding(1) var outTex: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(2) var rwTex: texture_storage_2d<r32float, read_write>;

const half_pi = 1.5707963h;
const weights = array<f32, 3>(0.25, 0.5, 0.25);

fn blur3(a: f32, b: f32, c: f32) -> f32 {
  return weights[0] * a + weights[1] * b + weights[2] * c;
}

fn half_lerp(a: f16, b: f16, t: f16) -> f16 {
  return a + (b - a) * t;
}

fn to_half(v: vec3<f32>) -> vec3h {
  return vec3h(v);
}

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x % 16u;
  var v: vec4<f16> = data.values[i] * data.scale;
  v.x = half_lerp(v.x, 1.0h, 0.5h);
  let m = mat2x2h(v.x, v.y, v.z, v.w);
  let s = sin(half_pi) + f16(blur3(1.0, 2.0, 3.0));
  data.values[i] = vec4h(m[0], m[1]) * s + vec4h(to_half(vec3(0.0)), 0.0h);
  let prev = textureLoad(rwTex, vec2i(gid.xy));
  textureStore(rwTex, vec2i(gid.xy), prev + vec4f(1.0));
  textureStore(outTex, vec2<i32>(gid.xy), vec4<f32>(vec4<f16>(v)));
}
