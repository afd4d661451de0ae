// SwiftShader on Tint's SPIR-V: `vec2<bool>(b) == vec2<bool>(false, false)`,
// with b = false read from an array, is not (true, true): Dawn on
// SwiftShader (dawn-vulkan:swiftshader) gets out[0], out[1] and out[3]
// wrong. Tint's SPIR-V of the same module is right on Mesa 25's lavapipe
// (dawn-vulkan:llvmpipe-mesa25), and naga's (0.19 and 29) is right on the
// same SwiftShader, so it takes Tint's form of the splat and SwiftShader
// together: kin to swiftshader_zero_init_bool_vector_not (a splat of a
// bool, compared). The flattened twin passes. Found by `gpudiff run --seed
// 2028 --profile textures --adapter all` (program 40), shrunk by gpudiff
// (129 → 14 statements) and reduced by hand; see findings/README.md.
// By hand (WGSL #bool-builtin, #comparison-expr): v5[0] = false, so
// vec2<bool>(v5[0]) = (false, false) and c = (true, true); d = (false,
// false) == (false, false) = (true, true); select(1u, 0u, true) = 0u and
// all(c) = true, so out = [0, 0, 0, 0].
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;

@compute @workgroup_size(1)
fn main() {
  let v5 = array<bool, 1>(false);
  let c = vec2<bool>(v5[0i]) == vec2<bool>(false, false);
  out[0] = select(1u, 0u, c.y);
  out[1] = select(1u, 0u, c.x);
  let d = vec2<bool>(false) == vec2<bool>(v5[0i], false);
  out[2] = select(1u, 0u, d.y);
  out[3] = select(1u, 0u, all(c));
}
