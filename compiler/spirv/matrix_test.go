package spirv

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
)

// TestMatricesValidate emits matrix kernels and a compute entry point with
// matrices in storage buffers and workgroup memory, both modes, and checks
// them with spirv-val (OpTypeMatrix; OpMatrixTimesScalar/Vector/Matrix,
// OpVectorTimesMatrix, OpTranspose, GLSL.std.450 Determinant; + and -
// column by column; ColMajor and MatrixStride on the members holding
// matrices, through arrays, as Vulkan's explicit layout requires).
func TestMatricesValidate(t *testing.T) {
	kernel := `fn k(m: mat3x3<f32>, n: mat2x4f, v: vec3<f32>, i: u32) -> mat3x2<f32> {
  let p = transpose(m) * m - m + 2.0 * m;
  var col = m[i] + v * m + (n * vec2f(1.0, 2.0)).xyz;
  var q = m;
  q[i][1] = determinant(p) + determinant(mat2x2f(1.0, 2.0, 3.0, 4.0)) + determinant(mat4x4<f32>());
  q *= p;
  return mat3x2<f32>(p[0].xy + col.xy, q[1].yz, vec2f(1.0, col.z));
}`
	entry := `struct Xf {
  m: mat3x3<f32>,
  s: f32,
  n: array<mat2x4f, 2>,
}
@group(0) @binding(0) var<storage, read> xf: Xf;
@group(0) @binding(1) var<storage, read_write> out: array<vec3<f32>>;
@group(0) @binding(2) var<storage, read_write> ms: array<mat2x3<f32>, 2>;
@group(0) @binding(3) var<uniform> u: mat4x4<f32>;
var<workgroup> tile: mat4x4<f32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32) {
  tile[li] = vec4f(f32(li), 1.0, 0.0, 2.0);
  workgroupBarrier();
  out[li] = xf.m * vec3f(f32(li), 1.0, 2.0) * xf.s + (xf.n[1] * vec2f(1.0, 1.0)).xyz + tile[3 - li].xyz + vec3f(u[li].xy, 0.0);
  if (li < 2u) {
    ms[li] = transpose(mat3x2<f32>(1.0, 2.0, 3.0, 4.0, 5.0, f32(li)));
  }
}`
	for _, mode := range []Mode{"portable", "raw"} {
		m, err := wgsl.Parse("k.wgsl", []byte(kernel))
		require.NoError(t, err)
		emitValid(t, m, "k", Options{Mode: mode})
		m, err = wgsl.Parse("e.wgsl", []byte(entry))
		require.NoError(t, err)
		words, err := Emit(m, "main", Options{Mode: mode})
		require.NoError(t, err)
		requireValid(t, words)
	}
	// A matCx2 in var<uniform> is split into columns (std140.go;
	// TestUniformMatCx2OnLavapipeAndSwiftShader runs it).
	m, err := wgsl.Parse("u.wgsl", []byte("@group(0) @binding(0) var<uniform> u: mat3x2f;\n@group(0) @binding(1) var<storage, read_write> o: vec2f;\n@compute @workgroup_size(1)\nfn main() { o = u[1]; }"))
	require.NoError(t, err)
	words, err := Emit(m, "main", Options{})
	require.NoError(t, err)
	requireValid(t, words)
}
