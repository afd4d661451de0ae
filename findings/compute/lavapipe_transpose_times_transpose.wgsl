// Mesa's SPIR-V front end (spirv_to_nir, vtn_matrix_multiply) rewrites
// transpose(A) * transpose(B) as transpose(B * A) but keeps the loop
// bounds and the destination type of the product as written, so when that
// product is not square it builds B * A with the wrong number of columns
// of the wrong width: lavapipe loses the device creating the pipeline
// ("Parent device is lost"; a mat3x2 * mat3x3 result crashes the worker,
// SIGSEGV), WGSL and gpudiff's SPIR-V alike (naga emits two OpTranspose
// feeding OpMatrixTimesMatrix, which spirv-val accepts). SwiftShader and
// wgpu's GL backend on llvmpipe run it. Found by the compute profile's
// matrices (gpudiff run --profile compute --seed 7, program 101: the
// flattened twin multiplied two transposed lets that the original
// multiplied through a var). See findings/README.md.
// One invocation; a = [1, 2, 3, 4, 5, 6], b = [1, 2, 3, 4]:
// m = mat3x2(a) has columns (1,2), (3,4), (5,6), so transpose(m) has
// columns (1,3,5), (2,4,6); n = mat2x2(b) has columns (1,2), (3,4), so
// transpose(n) has columns (1,3), (2,4). Column c of the product is
// transpose(m)[0] * transpose(n)[c].x + transpose(m)[1] * transpose(n)[c].y:
// column 0 = (1,3,5) + 3·(2,4,6) = (7, 15, 23), column 1 = 2·(1,3,5) +
// 4·(2,4,6) = (10, 22, 34) — the transpose of n * m, whose columns are
// (7,10), (15,22), (23,34). out = [7, 15, 23, 10, 22, 34].
@group(0) @binding(0) var<storage, read> a: array<f32, 6>;
@group(0) @binding(1) var<storage, read> b: array<f32, 4>;
@group(0) @binding(2) var<storage, read_write> out: array<f32, 6>;

@compute @workgroup_size(1)
fn main() {
  let m = mat3x2<f32>(a[0], a[1], a[2], a[3], a[4], a[5]);
  let n = mat2x2<f32>(b[0], b[1], b[2], b[3]);
  let p = transpose(m) * transpose(n);
  for (var c = 0u; c < 2u; c++) {
    for (var r = 0u; r < 3u; r++) {
      out[c * 3u + r] = p[c][r];
    }
  }
}
