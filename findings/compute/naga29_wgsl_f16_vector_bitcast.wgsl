// naga 29's WGSL front end (Deno 2.9.6, naga 29.0.3) refuses
// bitcast<u32>(vec2<f16>), which WGSL allows (#bitcast-builtin: the same
// number of bits, component 0 in the low half): "automatic conversions
// cannot convert elements of `vec2<{non-WGSL Naga scalar Scalar { kind:
// Uint, width: 2 }}>` to `u32`" — it types the result as a vector of
// 16-bit integers. Deno's lavapipe adapters list shader-f16 and Dawn
// takes the module and agrees with the reference: a broken promise.
// Found while lowering Tint's f16 bitcasts (issue 40).
// By hand, for invocation i: v = (i + 1.5, -2.0) has the binary16 bits
// (0x3E00, 0x4100, 0x4300, 0x4480 for i = 0..3; 0xC000), so o[i] =
// 0xC000 << 16 | bits(i + 1.5) = 3221241344, 3221242112, 3221242624,
// 3221243008; flipping both sign bits gives (-(i + 1.5), 2.0); modf(i +
// 0.25) gives fract + whole = i + 0.25; frexp(i + 3) = f·2^e (3 =
// 0.75·2^2, 4 = 0.5·2^3, 5 = 0.625·2^3, 6 = 0.75·2^3), so h[i] = (-1.25,
// 2 + f·e) = (-1.25, 3.5), (-1.25, 3.5), (-1.25, 3.875), (-1.25, 4.25).
enable f16;

@group(0) @binding(0) var<storage, read_write> o: array<u32, 4>;
@group(0) @binding(1) var<storage, read_write> h: array<vec2<f16>, 4>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  let v = vec2<f16>(f16(i) + 1.5h, -2.0h);
  o[i] = bitcast<u32>(v);
  h[i] = bitcast<vec2<f16>>(o[i] ^ 0x80008000u);
  let m = modf(f16(i) + 0.25h);
  let f = frexp(vec2<f16>(f16(i) + 3.0h, 0.75h));
  h[i] = h[i] + vec2<f16>(m.fract + m.whole, f.fract.x * f16(f.exp.x));
}
