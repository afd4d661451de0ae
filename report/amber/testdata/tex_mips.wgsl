// A texture with 2 mip levels (tex_mips.inputs.json): Amber makes an
// IMAGE's levels past 0 itself (refused).
@group(0) @binding(0) var<storage, read_write> out: array<f32, 2>;
@group(0) @binding(1) var mips: texture_2d<f32>;

@compute @workgroup_size(1)
fn main() {
  out[0] = textureLoad(mips, vec2u(0u), 1).x;
  out[1] = textureLoad(mips, vec2u(1u), 0).x;
}
