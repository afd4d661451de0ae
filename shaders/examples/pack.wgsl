// pack: the data packing and unpacking builtins (WGSL
// #pack-builtin-functions, #unpack-builtin-functions) on one vec4<f32> and
// one u32 word: the normalized packs ⌊0.5 + M × clamp(e)⌋ (snorm clamps to
// [-1, 1], unorm to [0, 1]; M = 127/255 for 8 bits, 32767/65535 for 16)
// and the unpacks back to f32 (v ÷ M, snorm at least -1). The inputs avoid the values where WGSL's
// ⌊0.5 + M × c⌋ and the GLSL.std.450 round(M × c) the stacks compile it to
// differ (pack4x8snorm(-0.5), pack4x8unorm(0.3)): the reference reports
// those indeterminate. The 4xI8/4xU8 forms are left out: the wgpu under
// test does not know them yet (interp and SPIR-V tests cover them).
//
// Exercises: every 4x8/2x16 norm builtin, swizzled arguments, vector
// private outputs.

var<private> p8s: u32;
var<private> p8u: u32;
var<private> p16s: u32;
var<private> p16u: u32;
var<private> u8s: vec4<f32>;
var<private> u8u: vec4<f32>;
var<private> u16s: vec2<f32>;
var<private> u16u: vec2<f32>;

fn pack(a: vec4<f32>, w: u32) {
  p8s = pack4x8snorm(a);
  p8u = pack4x8unorm(a);
  p16s = pack2x16snorm(a.xy);
  p16u = pack2x16unorm(a.zw);
  u8s = unpack4x8snorm(w);
  u8u = unpack4x8unorm(w);
  u16s = unpack2x16snorm(w);
  u16u = unpack2x16unorm(w);
}
