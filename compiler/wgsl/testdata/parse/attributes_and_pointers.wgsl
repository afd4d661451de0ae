// Attributes in every position, pointers in the function and private
// address spaces, layout attributes, frexp/modf result structures,
// atomics with compare-exchange, workgroupUniformLoad and diagnostic
// filters on functions and statements.
enable dual_source_blending;
diagnostic(warning, chromium.unreachable_code);

struct Light {
  @align(16) position: vec3<f32>,
  @size(16) intensity: f32,
  color: vec3<f32>,
}

struct Lights {
  count: u32,
  lights: array<Light, 8>,
}

struct FragOut {
  @location(0) @blend_src(0) color: vec4<f32>,
  @location(0) @blend_src(1) blend: vec4<f32>,
}

@id(1000) override gain: f32 = 1.0;
@id(1001) override enable_fog: bool;

@group(1) @binding(0) var<uniform> lights: Lights;
@group(1) @binding(1) var<storage, read_write> counter: atomic<u32>;
@group(1) @binding(2) var<storage, read_write> flags: array<atomic<i32>>;
var<workgroup> shared_max: u32;
var<private> scratch: array<f32, 4>;

fn attenuate(d: f32) -> f32 {
  return 1.0 / (1.0 + d * d);
}

fn scale_in_place(p: ptr<function, vec3<f32>>, s: f32) {
  *p = *p * s;
}

fn bump_private(p: ptr<private, array<f32, 4>>, i: u32) {
  (*p)[i] += 1.0;
}

@diagnostic(off, derivative_uniformity)
fn shade(n: vec3<f32>, uv: vec2<f32>) -> vec4<f32> {
  var sum = vec3(0.0);
  for (var i = 0u; i < min(lights.count, 8u); i++) {
    let l = lights.lights[i];
    var c = l.color * l.intensity * attenuate(distance(l.position, n));
    scale_in_place(&c, gain);
    sum += c * max(dot(n, normalize(l.position)), 0.0);
  }
  let parts = modf(uv.x * 4.0);
  let fe = frexp(sum.x + 1.0);
  let fog = select(1.0, 0.5, enable_fog);
  return vec4(sum * fog + parts.fract * 0.0 + f32(fe.exp) * 0.0, dpdx(uv.y));
}

@fragment
fn fs_main(@location(0) n: vec3<f32>, @location(1) uv: vec2<f32>) -> FragOut {
  var out: FragOut;
  out.color = shade(n, uv);
  out.blend = vec4(1.0) - out.color;
  return out;
}

@compute @workgroup_size(64)
fn cs_main(@builtin(local_invocation_index) lid: u32) {
  if (lid == 0u) {
    shared_max = 0u;
  }
  workgroupBarrier();
  let seen = atomicAdd(&counter, 1u);
  let r = atomicCompareExchangeWeak(&flags[lid], 0, 1);
  if (r.exchanged) {
    bump_private(&scratch, lid % 4u);
  }
  let m = workgroupUniformLoad(&shared_max);
  @diagnostic(off, derivative_uniformity) {
    scratch[0] = f32(m + seen);
  }
  @diagnostic(info, derivative_uniformity) if (m > 0u) {
    scratch[1] = 1.0;
  }
  loop @diagnostic(off, derivative_uniformity) {
    break;
  }
}
