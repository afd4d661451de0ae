// The shape of webgpu-samples' wireframe and generateMipmap shaders:
// vertex data pulled from a read-only storage buffer by vertex_index, a
// bare position, and a full-screen quad from a constant array.
struct Pos {
  xy: array<vec2<f32>, 6>,
}
@group(0) @binding(0) var<storage, read> verts: Pos;
@group(0) @binding(1) var<uniform> tint: vec4<f32>;

struct VOut {
  @builtin(position) position: vec4<f32>,
  @location(0) @interpolate(flat) tri: u32,
}

@vertex
fn vs(@builtin(vertex_index) vi: u32) -> VOut {
  var o: VOut;
  o.position = vec4(verts.xy[vi % 6u], 0.0, 1.0);
  o.tri = vi / 3u;
  return o;
}

@fragment
fn fs(@location(0) @interpolate(flat) tri: u32) -> @location(0) vec4<f32> {
  var c = tint;
  for (var i = 0u; i < tri; i++) {
    c = c * 0.5;
  }
  return c;
}
