// A one-layer texture_2d_array read with textureLoad (WGSL #textureload):
// WebGPU's compatibility mode (Dawn's GL and GLES backends) binds a texture
// only as the view dimension it was created for, and a one-layer 2d
// texture defaults to '2d' there, so the harness must create it for a
// '2d-array' view (textureBindingViewDimension). Hand-derived: out[i] is
// texel (i, 0) of layer 0, i.e. 10 + i, and the layer count is 1.
@group(0) @binding(0) var<storage, read_write> out: array<u32, 5>;
@group(0) @binding(1) var tin: texture_2d_array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  out[i] = textureLoad(tin, vec2<u32>(i, 0u), 0i, 0i).x;
  if (i == 0u) {
    out[4] = textureNumLayers(tin);
  }
}
