// naga 29's SPIR-V backend (Deno 2.9.6, naga 29.0.3) panics — "no entry
// found for key" at naga-29.0.3/src/back/spv/writer.rs:837:61, the
// worker process exits — translating a function call whose argument is
// an array of structs holding a mat2x2<f16>, loaded whole from a uniform
// buffer. Reduced by hand from Tint's
// test/tint/buffer/uniform/std140/struct/mat2x2_f16/to_fn.wgsl (also
// mat3x2_f16/to_workgroup and mat4x2_f16/to_fn: 3 of the 150 Tint f16
// files of issue 40's acceptance run on deno-vulkan:llvmpipe and
// deno-vulkan:llvmpipe-mesa25). Passing the struct alone, or the matrix
// alone, compiles. Dawn (Tint) on Mesa 25 lavapipe runs it and agrees.
// By hand (WGSL #alignment-and-size: mat2x2<f16> is two vec2<f16>
// columns of 4 bytes, S = {m at 0, pad at 16}, 32 bytes): with
// u[0].m = ((1, 2), (3, 4)) and u[1].m = ((5, 6), (7, 8)),
// a(u) = u[1].m[0].x + u[0].m[1].y = 5 + 4 = 9, so out = [9, 0].
enable f16;

struct S {
  m: mat2x2<f16>,
  @align(16) pad: i32,
}

@group(0) @binding(0) var<uniform> u: array<S, 2>;
@group(0) @binding(1) var<storage, read_write> out: array<f32, 2>;

fn a(x: array<S, 2>) -> f16 {
  return x[1].m[0].x + x[0].m[1].y;
}

@compute @workgroup_size(1)
fn main() {
  out[0] = f32(a(u));
}
