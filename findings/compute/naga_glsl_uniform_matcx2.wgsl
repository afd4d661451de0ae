// naga's GLSL backend writes a uniform buffer's mat4x2<f32> as GLSL's
// mat4x2, whose std140 column stride is 16 bytes, where WGSL's is 8
// (WGSL #alignment-and-size: vec2<f32> aligns to 8, so mat4x2's columns
// are 8 apart and SizeOf is 32): on llvmpipe GL every read is offset,
// through naga 0.19.2 (wgpu-gl) and naga 29.0.3 (deno-gl), Mesa 22 and
// Mesa 25 alike, original and twin (gpudiff's SPIR-V through naga's SPIR-V
// reader passes). Tint's GLSL (dawn-gl) and every Vulkan path are right. Upstream: gfx-rs/wgpu#4371 (open; #8240 fixed
// naga's SPIR-V writer in 2025, not its GLSL one). Met on Tint's
// test/tint/buffer/uniform/std140/array/mat4x2_f32/to_fn.wgsl under
// `gpudiff exec --adapter deno`; reduced by hand, see findings/README.md.
// By hand: u's 64 bytes hold the floats 1..16 in order, u[i][c] being
// floats 8i + 2c + 1 and 8i + 2c + 2; so out = [u[0][1].x, u[1][0].x,
// u[1][0].y] = [3, 9, 10]. (A 16-byte column stride reads u[0][1] at
// byte 16, float 5, and u[1] past the buffer's 64 bytes.)
@group(0) @binding(0) var<uniform> u: array<mat4x2<f32>, 2>;
@group(0) @binding(1) var<storage, read_write> out: array<f32, 3>;

@compute @workgroup_size(1)
fn main() {
  out[0] = u[0][1].x;
  out[1] = u[1][0].x;
  out[2] = u[1][0].y;
}
