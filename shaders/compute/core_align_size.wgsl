// Struct member @align and @size (WGSL #structure-member-layout): the
// members' offsets in a buffer follow the attributes, so the harness's
// encoding, the WGSL a stack compiles and gpudiff's SPIR-V Offset
// decorations must agree or the copies below read the wrong words.
// Layout of S (hand-derived): a at 0; @align(16) b at 16; @size(12) c at
// 20, the next member at 32; d at 32; @align(32) e (vec2<u32>) at 64,
// 8 bytes; AlignOf(S) = 32, SizeOf(S) = roundUp(32, 72) = 96. In R,
// @size(20) h takes bytes 0..19, so data starts at 20 and a 32-byte
// buffer holds arrayLength(&r.data) = 3 elements.
// Expectation: out = [s.a, s.b, s.c, s.d, s.e.x, s.e.y, arrayLength,
// data[0] + data[1] + data[2]] = [1, 2, 3, 4, 5, 6, 3, 60]; t is s with
// every member plus 10 (t.e = (15, 16)).
struct S {
  a: u32,
  @align(16) b: u32,
  @size(12) c: u32,
  d: u32,
  @align(32) e: vec2<u32>,
}

struct R {
  @size(20) h: u32,
  data: array<u32>,
}

@group(0) @binding(0) var<storage, read> s: S;
@group(0) @binding(1) var<storage, read> r: R;
@group(0) @binding(2) var<storage, read_write> out: array<u32, 8>;
@group(0) @binding(3) var<storage, read_write> t: S;

@compute @workgroup_size(1)
fn main() {
  out[0] = s.a;
  out[1] = s.b;
  out[2] = s.c;
  out[3] = s.d;
  out[4] = s.e.x;
  out[5] = s.e.y;
  out[6] = arrayLength(&r.data);
  out[7] = r.data[0] + r.data[1] + r.data[2];
  t = S(s.a + 10u, s.b + 10u, s.c + 10u, s.d + 10u, s.e + vec2(10u));
}
