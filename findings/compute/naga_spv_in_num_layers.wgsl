// naga's SPIR-V reader rejects textureNumLayers as gpudiff's SPIR-V (and
// naga's own SPIR-V) spell it: OpImageQuerySizeLod of an arrayed image
// returns (width, height, layers), and OpCompositeExtract 2 reads the
// layers; naga resolves the query as a vec2 and fails validation ("Index
// 2 is out of bounds"). Met by `gpudiff run --profile textures --seed 1`.
// tin has 3 layers of 2x1 texels: out = [3, 2].
@group(0) @binding(0) var<storage, read_write> out: array<u32, 2>;
@group(0) @binding(1) var tin: texture_2d_array<i32>;

@compute @workgroup_size(1)
fn main() {
  out[0] = textureNumLayers(tin);
  out[1] = textureDimensions(tin).x;
}
