// Kernels entirely inside the gpudiff subset: structs, private globals,
// consts, every loop form, switch, builtins, conversions and bitcasts.
struct Ray {
  origin: vec3<f32>,
  dir: vec3<f32>,
  tmax: f32,
}

struct Hit {
  t: f32,
  id: i32,
  normal: vec3<f32>,
}

const EPS = 1e-4;
const MAX_STEPS = 32;
const SPHERES = array(vec4(0.0, 0.0, -5.0, 1.0), vec4(2.0, 0.0, -6.0, 1.5), vec4(-2.0, 1.0, -4.0, 0.5));

var<private> hits: u32 = 0u;
var<private> last_hit: Hit;

fn sphere_t(r: Ray, s: vec4<f32>) -> f32 {
  let oc = r.origin - s.xyz;
  let b = dot(oc, r.dir);
  let c = dot(oc, oc) - s.w * s.w;
  let disc = b * b - c;
  if (disc < 0.0) {
    return -1.0;
  }
  return -b - sqrt(disc);
}

fn trace(r: Ray) -> Hit {
  var best = Hit(r.tmax, -1, vec3(0.0));
  for (var i = 0; i < 3; i++) {
    let t = sphere_t(r, SPHERES[i]);
    if (t > EPS && t < best.t) {
      best.t = t;
      best.id = i;
      best.normal = normalize(r.origin + r.dir * t - SPHERES[i].xyz);
    }
  }
  if (best.id >= 0) {
    hits++;
    last_hit = best;
  }
  return best;
}

fn march(p0: vec3<f32>) -> i32 {
  var p = p0;
  var steps = 0;
  loop {
    let d = length(p) - 1.0;
    if (d < EPS) {
      break;
    }
    p = p * 0.5;
    continuing {
      steps += 1;
      break if steps >= MAX_STEPS;
    }
  }
  return steps;
}

fn classify(x: i32) -> u32 {
  var r = 0u;
  switch (x & 7) {
    case 0: {
      r = 10u;
    }
    case 1, 2: {
      r = 20u;
      if (x > 100) {
        break;
      }
      r += 1u;
    }
    case 3, 4, default: {
      r = u32(x) * 3u;
    }
  }
  return r;
}

fn bits(x: u32) -> vec4<u32> {
  let lead = firstLeadingBit(x);
  let trail = firstTrailingBit(x);
  let ones = countOneBits(x);
  let mid = extractBits(x, 4u, 8u);
  return vec4(lead, trail, ones, insertBits(x, mid, 16u, 8u));
}

fn conversions(f: f32, i: i32) -> vec4<f32> {
  let u = u32(f);
  let back = f32(i) + f32(u);
  let b = bool(i);
  let v = vec3<f32>(vec3<i32>(i, -i, 2 * i));
  let raw = bitcast<f32>(bitcast<u32>(f) ^ 0x80000000u);
  return vec4(v, select(back, raw, b));
}

fn collatz(n0: u32) -> u32 {
  var n = n0;
  var steps = 0u;
  while (n != 1u && steps < 1000u) {
    if ((n & 1u) == 0u) {
      n >>= 1u;
    } else {
      n = 3u * n + 1u;
    }
    steps++;
  }
  return steps;
}

fn shade(x: f32) -> f32 {
  if (x > 0.5) {
    return x * 2.0;
  }
  return x;
}

fn main_kernel(ox: f32, oy: f32) -> vec4<f32> {
  let r = Ray(vec3(ox, oy, 0.0), normalize(vec3(ox, oy, -1.0)), 1e9);
  let h = trace(r);
  let m = f32(march(vec3(ox, oy, 1.0)));
  let c = f32(classify(h.id)) + f32(collatz(u32(abs(ox) * 10.0) + 1u));
  let b = vec4<f32>(bits(u32(oy * 100.0)));
  return vec4(h.normal * 0.5 + 0.5, shade(h.t)) + conversions(ox, h.id) * (m + c) + b * 0.0;
}
