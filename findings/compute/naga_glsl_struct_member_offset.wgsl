// naga's GLSL backend ignores WGSL's struct member @align and @size: the
// GLSL block it writes lays the members out by std430's own rules, so a
// storage buffer laid out as WGSL says is read at the wrong offsets
// (gfx-rs/wgpu#4374, "[glsl-out] IR struct member offset ignored", open).
// Found by gpudiff exec of shaders/compute/core_align_size.wgsl on
// deno-gl:llvmpipe (naga 29.0.3) and wgpu-gl:llvmpipe (naga 0.19.2), on
// Mesa 22 and Mesa 25 alike; Tint's GLSL (dawn-gl) and every Vulkan
// adapter read it right. Reduced by hand; see findings/README.md.
// Layout of S (WGSL #structure-member-layout, by hand): a at 0; b has
// @align(16), so offset roundUp(16, 4) = 16; c at 20 with @size(8), so d
// at 28; AlignOf(S) = 16, SizeOf(S) = roundUp(16, 32) = 32. The buffer's
// words are [1, 0, 0, 0, 2, 3, 0, 4], and out = [s.b, s.c, s.d] = [2, 3, 4].
// (std430 without the attributes puts b, c, d at 4, 8, 12: words 0, 0, 0.)
struct S {
  a: u32,
  @align(16) b: u32,
  @size(8) c: u32,
  d: u32,
}

@group(0) @binding(0) var<storage, read> s: S;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 3>;

@compute @workgroup_size(1)
fn main() {
  out[0] = s.b;
  out[1] = s.c;
  out[2] = s.d;
}
