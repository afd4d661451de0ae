// naga's GLSL backend writes pack4xU8 and pack4xU8Clamp as an OR of the
// four shifted bytes without parentheses around it, so an operator of
// higher GLSL precedence beside the call (*, +, <<, &, ^, ==, …) binds to
// the first or last byte instead of the packed value. Found by gpudiff run
// --seed 2028 --profile data --adapter deno-gl:llvmpipe (program 24, shrunk
// to g0 = pack4xU8(unpack4xU8(g0)) << 1u: 1 where WGSL says 2) on naga
// 29.0.3's GLSL (deno-gl), Mesa 22 and Mesa 25 alike; Tint's GLSL (dawn-gl,
// dawn-gles) and every Vulkan adapter agree, and the signed forms, which
// naga wraps in uint(…), are right. naga 0.19 (wgpu-native) has no packed
// 4x8 builtins (its WGSL runs are skipped: harness.NeedLanguageFeature).
// Reduced by hand; see findings/README.md.
// By hand (WGSL #pack4xU8-builtin, #pack4xU8Clamp-builtin, #pack4xI8-builtin,
// #pack4xI8Clamp-builtin: component i's low 8 bits go to bits 8i…8i+7):
// v = (1, 2, 3, 4), each in range, so every pack of v is 0x04030201 =
// 67305985; out = [2 × 67305985, 3 × 67305985, 2 × 67305985, 2 × 67305985]
// = [134611970, 201917955, 134611970, 134611970]. (Read as naga writes it,
// out[0] = 1 | 2 << 8 | 3 << 16 | (4 << 24) * 2 = 134414849 and out[1] =
// 3 * 1 | 2 << 8 | 3 << 16 | 4 << 24 = 67305987.)
@group(0) @binding(0) var<storage, read> a: array<u32, 4>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 4>;

@compute @workgroup_size(1)
fn main() {
  let v = vec4<u32>(a[0], a[1], a[2], a[3]);
  out[0] = pack4xU8(v) * 2u;
  out[1] = 3u * pack4xU8Clamp(v);
  out[2] = pack4xI8(vec4<i32>(v)) * 2u;
  out[3] = pack4xI8Clamp(vec4<i32>(v)) * 2u;
}
