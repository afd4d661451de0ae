// rings: a fragment entry point with two outputs, an integer ring index
// and a signed offset from the target's centre, through a helper with a
// loop and a break (gpudiff exec --size WxH).
//
// Hand-derived per pixel (x, y), position p = (x + 0.5, y + 0.5, 0, 1),
// with d = (i32(x) - 8, i32(y) - 8) (i32(p.x) truncates x + 0.5 to x):
//   ring = the smallest r in 0..3 with max(|d.x|, |d.y|) < 2r + 2,
//          else 4 (ring counts square rings two pixels wide);
//   id   = ring * 1000 + y * 16 + x as u32.
// Outputs: @location(0) id: u32 (r32uint), @location(1) d: vec2<i32>
// (rg32sint).

struct Out {
  @location(0) id: u32,
  @location(1) d: vec2<i32>,
}

fn ring(d: vec2<i32>) -> u32 {
  let m = max(abs(d.x), abs(d.y));
  var r = 0u;
  loop {
    if (r == 4u) {
      break;
    }
    if (m < i32(2u * r + 2u)) {
      break;
    }
    r += 1u;
  }
  return r;
}

@fragment
fn rings(@builtin(position) p: vec4<f32>) -> Out {
  var o: Out;
  o.d = vec2<i32>(i32(p.x) - 8, i32(p.y) - 8);
  o.id = ring(o.d) * 1000u + u32(p.y) * 16u + u32(p.x);
  return o;
}
