// f16 in every kind of binding: a uniform struct with an f16 matrix
// (split into columns in the Uniform block), a read-only runtime array
// of vec3<f16> (stride 8), a read_write struct with f16, vec3<f16> and
// vec2<f16> members (offsets 0, 8, 14, 16), conversions to and from f32
// and i32. wgpu 0.19.4 refuses the SPIR-V (NagaGap): the test checks the
// refusal, and compares once a stack reads f16.
enable f16;
struct U {
  m: mat2x3<f16>,
  k: f16,
}
struct O {
  a: f16,
  b: vec3<f16>,
  c: f16,
  d: vec2<f16>,
  n: i32,
}
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> v: array<vec3<f16>>;
@group(0) @binding(2) var<storage, read_write> out: array<O>;

@compute @workgroup_size(2)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  let x = v[i];
  let y = u.m * vec2<f16>(x.x, u.k);
  out[i].a = x.y * u.k;
  out[i].b = y;
  out[i].c = f16(f32(x.z) * 0.5);
  out[i].d = u.m[1].yz + vec2<f16>(1.0h);
  out[i].n = i32(x.x * 4.0h);
}
