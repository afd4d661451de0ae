// The kernel of the fragment-wrapper tests (compiler/wgsl and
// compiler/spirv): a bool parameter and result leaf, a vector result and a
// private global output, so the kernel ABI's fragment wrapper crosses
// every kind of ABI record member. For a = i, flip = (i % 3 == 0):
// v = (3i + 1, i >> 1), odd = (i odd) != flip, seen = i ^ 0xff.
var<private> seen: u32;

struct R {
  v: vec2<u32>,
  odd: bool,
}

fn k(a: u32, flip: bool) -> R {
  seen = a ^ 0xffu;
  var r: R;
  r.v = vec2<u32>(a * 3u + 1u, a >> 1u);
  r.odd = ((a & 1u) == 1u) != flip;
  return r;
}
