// checker: a fragment entry point as written (gpudiff exec --size WxH).
// Cells of 4×4 pixels alternate between a red/green gradient and its
// inverse in red/blue; an early return picks the cell, so the flattened
// twin is one select.
//
// Hand-derived per pixel (x, y), position p = (x + 0.5, y + 0.5, 0, 1):
// cell = (x / 4 + y / 4) % 2 (u32(p.x) truncates x + 0.5 to x);
// cell 0: (p.x / 16, p.y / 16, 0, 1);
// cell 1: (1 - p.x / 16, 1, 1 - p.y / 16, 1).
// Every value is a multiple of 1/32 below 2, exact in f32, so the GPU's
// results compare bit-exactly (x / 16 is exact: 16 is a power of two).

@fragment
fn checker(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
  let cell = (u32(p.x) / 4u + u32(p.y) / 4u) % 2u;
  if (cell == 0u) {
    return vec4<f32>(p.x / 16.0, p.y / 16.0, p.z, p.w);
  }
  return vec4<f32>(1.0, 1.0, 1.0, 1.0) - vec4<f32>(p.x / 16.0, 0.0, p.y / 16.0, 0.0);
}
