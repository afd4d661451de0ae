// shapes: two dispatches over three area implementations that write a
// private global (the void-call form). The first's tag is the input
// kind: unbounded, every candidate kept. The second's tag comes from
// unit_kind, which returns 1u on every path: single-valued, so it becomes
// a direct call of area_tri, inlined plainly.
var<private> area: i32;

fn area_square(s: i32) { area = s * s; }
fn area_tri(s: i32) { area = s * s / 2; }
fn area_rect(s: i32) { area = s * 3 + 1; }

fn unit_kind(s: i32) -> u32 {
  if (s > 3) {
    return 1u;
  }
  return 1u;
}

fn shapes(kind: u32, s: i32) -> i32 {
  switch kind {
    case 0u: { area_square(s); }
    case 1u: { area_tri(s); }
    default: { area_rect(s); }
  }
  let first = area;
  switch unit_kind(s) {
    case 0u: { area_square(s); }
    case 1u: { area_tri(s); }
    default: { area_rect(s); }
  }
  return first + area;
}
