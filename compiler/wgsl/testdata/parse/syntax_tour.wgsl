/* A tour of WGSL syntax: every literal form, /* nested */ block comments,
   template lists next to comparisons and shifts, every statement form. */
enable f16; // f16 for the h suffix below
diagnostic(warning, derivative_uniformity);

alias Vec3 = vec3<f32>;
alias IntArray4 = array<i32, 4>;
alias Mat = mat3x3f;

struct Pair { a: i32, b: u32, }

const ints = array(0, 123, 0x7f, 0X1F);
const typed_ints = array(0X1Fi, 0i, 2147483647i);
const uints = array(42u, 0u, 0xffffffffu);
const floats = array(0.e+4f, 01., .01, 12.34, .0f, 1e-3, 1E5, 0x1P+4f, 0X.3, 0xa.fp+2, 0X1.fp-4, 2.5e-2f, 1f);
const halves = array(0h, 1.5h, 1e-3h, 65504.0h);
const t = true;
const f = false;
const big = 0x7fffffffffffffff;
const neg_min = -2147483648;
const count = 4;
const nested = array<array<i32, 2>, 2>(array(1, 2), array(3, 4));
const_assert count == 4;
const_assert select(1, 2, t) == 2;

var<private> state: array<u32, count> = array(1u, 2u, 3u, 4u);
var<private> accum: Vec3;

fn templates(a: i32, b: i32, c: i32, d: i32) -> bool {
  let lt = a < b || c > d;           // two comparisons, no template
  let shifted = (a << 2u) >> 1u;     // shifts
  let arr = array<vec4<f32>, 4>();   // nested template lists
  let arr2 = array<IntArray4, 2>();
  let sel = array<i32, select(2, 3, 1 > 0)>(); // '>' inside parentheses
  let le = a <= b;
  let ge = (c >= d) != le;
  return lt && ge && arr[0].x == 0.0 && arr2[1][3] == 0 && sel[2] == shifted * 0;
}

fn literals() -> f32 {
  var sum = 0.0;
  sum += f32(ints[1]) + floats[3];
  sum += f32(big % 3) + f32(neg_min / 2147483648);
  return sum + f32(nested[1][0]);
}

fn statements(n: i32) -> i32 {
  var x = 0;
  var y: i32;
  var<function> z: u32 = 7u;
  let w: u32 = z;
  const k = 3;
  _ = w;
  x++;
  x--;
  x += 2; x -= 1; x *= 3; x /= 2; x %= 5;
  x &= 0xff; x |= 1; x ^= 2;
  x <<= 1u; x >>= 1u;
  {
    let inner = x * k;
    y = inner;
  }
  if (x > 0) {
    y += 1;
  } else if x < -10 {
    y -= 1;
  } else {
    y = 0;
  }
  switch (n) {
    case 0, 1, { y += 1; }
    case 2: { y += 2; }
    case 3, default: { y += 3; }
  }
  switch n + 1 {
    default { y -= 1; }
    case 5 { break; }
  }
  loop {
    if (x >= 10) { break; }
    x++;
    continuing {
      y += 1;
      break if y > 100;
    }
  }
  for (var i = 0; i < 4 && y < 1000; i++) {
    if (i == 2) { continue; }
    y += i;
  }
  for (;;) {
    break;
  }
  while x > 0 {
    x -= 3;
  }
  while (x < 0) { x += 1; }
  return x + y;
}

fn swizzles(v: vec4<f32>) -> vec4<f32> {
  var c = v.rgba;
  c.r = v.w;
  c.g = v.zyx.x;
  let xy = v.xy + v.wz;
  return vec4(xy, c.ba) + c.abgr;
}

fn pairs(p: Pair) -> Pair {
  var q = p;
  q.a = -q.a;
  q.b = bitcast<u32>(q.a) ^ p.b;
  return Pair(q.a, q.b);
}

fn matrices(m: Mat, v: Vec3) -> Vec3 {
  return m * v + transpose(m)[0];
}

fn half_sum(x: f16) -> f16 {
  return x + halves[1];
}

@must_use
fn must(x: i32) -> i32 {
  return x;
}

@compute @workgroup_size(1)
fn main() {
  let r = statements(2) + must(1);
  accum = swizzles(vec4(1.0, 2.0, 3.0, 4.0)).xyz * f32(r) + vec3(literals());
  _ = templates(1, 2, 3, 4);
  _ = pairs(Pair(1, 2u));
  _ = matrices(Mat(), accum);
  _ = half_sum(1h);
}
