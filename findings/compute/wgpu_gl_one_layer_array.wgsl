// wgpu's GL backend guesses a texture's GL target from its layer count
// (gfx-rs/wgpu#1614, #2161, #7428): a 2d texture of one layer becomes a
// GL_TEXTURE_2D, so a texture_2d_array binding of it (a '2d-array' view,
// valid WebGPU) reads zeros, silently. tin is 4×1 texels of one layer,
// r32uint 10, 11, 12, 13: out[i] = texel (i, 0) of layer 0 = 10 + i
// (WGSL #textureload), so out = [10, 11, 12, 13].
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@group(0) @binding(1) var tin: texture_2d_array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  out[i] = textureLoad(tin, vec2<u32>(i, 0u), 0i, 0i).x;
}
