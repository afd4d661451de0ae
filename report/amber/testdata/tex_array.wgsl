// A texture_2d_array: Amber's IMAGE has no array layers (refused).
@group(0) @binding(0) var<storage, read_write> out: array<f32, 4>;
@group(0) @binding(1) var layers: texture_2d_array<f32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_id) id: vec3u) {
  out[id.x] = textureLoad(layers, vec2u(id.x, 0u), 1, 0).x;
}
