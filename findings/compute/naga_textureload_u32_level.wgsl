// wgpu-native's naga (0.19.2, of wgpu 0.19.4) rejects textureLoad with a u32 level, which
// WGSL allows (#textureload: L is i32 or u32): "Image sample or
// level-of-detail index's type of [5] is not an integer scalar"
// (gfx-rs/wgpu#5433, fixed by gfx-rs/wgpu#7058 in naga 25). Met by
// `gpudiff run --profile textures --seed 1`. tin's texel (1, 0) is
// (5, 6, 7, 8): out = [5, 6, 7, 8].
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@group(0) @binding(1) var tin: texture_2d<u32>;

@compute @workgroup_size(1)
fn main() {
  let t = textureLoad(tin, vec2<u32>(1u, 0u), 0u);
  out[0] = t.x;
  out[1] = t.y;
  out[2] = t.z;
  out[3] = t.w;
}
