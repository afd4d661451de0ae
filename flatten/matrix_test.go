package flatten_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// mcol builds a matCxR<f32> value from its columns.
func mcol(cols ...[]float32) ir.Value {
	t := ir.Mat(len(cols), len(cols[0]))
	cs := make([]ir.Value, len(cols))
	for i, c := range cols {
		es := make([]ir.Value, len(c))
		for j, x := range c {
			es[j] = ir.F32Val(x)
		}
		cs[i] = ir.CompositeVal(t.Elem, es...)
	}
	return ir.CompositeVal(t, cs...)
}

func fvec(xs ...float32) ir.Value {
	es := make([]ir.Value, len(xs))
	for i, x := range xs {
		es[i] = ir.F32Val(x)
	}
	return ir.CompositeVal(ir.Vec(len(xs), ir.F32), es...)
}

// matrixCases are kernels on matrices (WGSL #matrix-types,
// #matrix-arithmetic, #transpose-builtin, #determinant-builtin) with
// inputs and hand-derived results: column-major values (m[c] is column
// c); A * B's column c is A * B[c]; v * M's component c is dot(v, M[c]);
// determinants by cofactor expansion.
var matrixCases = []struct {
	name, src string
	args      [][]ir.Value
	want      []ir.Value
}{
	{"product and sum", `fn k(x: f32) -> f32 {
  let a = mat2x2<f32>(1.0, 2.0, 3.0, 4.0);
  let b = mat2x2f(vec2f(x, 0.0), vec2f(0.0, 1.0));
  let c = a * b + a - b;
  let v = a * vec2f(1.0, 1.0);
  let w = vec2f(1.0, 2.0) * a;
  var m = mat3x3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0);
  m[1][2] = x;
  m[0] = vec3f(2.0);
  m *= 2.0;
  return determinant(a) + c[1][0] + v.x + w.y + determinant(m) + (2.0 * a)[0].y;
}`,
		// a = [(1,2),(3,4)], b = diag(x,1): a*b = [(x,2x),(3,4)];
		// c = [(1,2x+2),(6,7)], c[1][0] = 6; v = (4,6); w = (5,11);
		// m = 2*[(2,2,2),(4,5,x),(7,8,10)]: det = 8 * 2(7-x) = 16(7-x);
		// det(a) = 1*4 - 3*2 = -2; (2a)[0].y = 4.
		// Sum: -2 + 6 + 4 + 11 + 16(7-x) + 4 = 135 - 16x.
		[][]ir.Value{{ir.F32Val(1)}, {ir.F32Val(2)}, {ir.F32Val(0.5)}},
		[]ir.Value{ir.F32Val(119), ir.F32Val(103), ir.F32Val(127)}},
	{"gram matrix, runtime column, vector times matrix", `fn k(m: mat3x3<f32>, v: vec3<f32>, i: u32) -> mat3x2<f32> {
  let p = transpose(m) * m;
  var col = m[i];
  col = col + v * m;
  return mat3x2<f32>(p[0].xy + col.xy, p[1].yz, vec2f(determinant(m), col.z));
}`,
		// m = [(1,2,3),(4,5,6),(7,8,10)], v = (1,0,-1), i = 2:
		// p[c][r] = dot(m[r], m[c]): p[0] = (14,32,53), p[1] = (32,77,128);
		// col = m[2] + v*m = (7,8,10) + (-2,-2,-3) = (5,6,7);
		// det = m[0] . (m[1] x m[2]) = (1,2,3) . (2,2,-3) = -3.
		// m = diag(1,2,3), v = (1,1,1), i = 1: p = diag(1,4,9);
		// col = (0,2,0) + (1,2,3) = (1,4,3); det = 6.
		[][]ir.Value{
			{mcol([]float32{1, 2, 3}, []float32{4, 5, 6}, []float32{7, 8, 10}), fvec(1, 0, -1), ir.U32Val(2)},
			{mcol([]float32{1, 0, 0}, []float32{0, 2, 0}, []float32{0, 0, 3}), fvec(1, 1, 1), ir.U32Val(1)},
		},
		[]ir.Value{
			mcol([]float32{19, 38}, []float32{77, 128}, []float32{-3, 7}),
			mcol([]float32{2, 4}, []float32{4, 0}, []float32{6, 3}),
		}},
	{"predicated matrix store and 4x4 determinant", `fn k(x: f32) -> f32 {
  var m = mat4x4<f32>();
  m[0][0] = 2.0;
  m[1][1] = 3.0;
  m[2][2] = 1.0;
  m[3][3] = 1.0;
  m[3][0] = 5.0;
  if (x > 0.0) {
    m = m * mat4x4<f32>(vec4f(x, 0.0, 0.0, 0.0), vec4f(0.0, 1.0, 0.0, 0.0), vec4f(0.0, 0.0, 1.0, 0.0), vec4f(0.0, 0.0, 0.0, 1.0));
  } else {
    m[2] = -m[2];
  }
  return determinant(m) + m[3][0];
}`,
		// m is upper triangular with diagonal (2,3,1,1): det 6, m[3][0] = 5.
		// x > 0: m * diag(x,1,1,1) scales column 0: det 6x, m[3][0] = 5.
		// x <= 0: column 2 negated: det -6, m[3][0] = 5.
		[][]ir.Value{{ir.F32Val(2)}, {ir.F32Val(-1)}, {ir.F32Val(0.5)}},
		[]ir.Value{ir.F32Val(17), ir.F32Val(-1), ir.F32Val(8)}},
	{"splat vector times matrix and matrix times splat vector", `fn k(s: f32) -> vec4<f32> {
  let m = mat2x3<f32>(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
  let a = vec3<f32>(s) * m;
  let b = m * vec2<f32>(s);
  return vec4<f32>(a, b.x, b.z);
}`,
		// m = [(1,2,3),(4,5,6)]: vec3(s) * m = (s(1+2+3), s(4+5+6)) =
		// (6s, 15s); m * vec2(s) = s(m[0] + m[1]) = (5s, 7s, 9s).
		// (The reference once read a splat operand of a matrix product
		// as one slot: an index out of range.)
		[][]ir.Value{{ir.F32Val(2)}, {ir.F32Val(-1)}},
		[]ir.Value{fvec(12, 30, 10, 18), fvec(-6, -15, -5, -9)}},
	{"constant matrices through constant propagation and folding", `fn k(x: f32) -> f32 {
  let a = mat2x2<f32>(1.0, 2.0, 3.0, 4.0);
  let b = a + a - mat2x2<f32>(vec2f(1.0, 0.0), vec2f(0.0, 1.0));
  let c = -1.0 * b;
  let d = transpose(a) * 2.0;
  let e = a * vec2f(1.0, 1.0);
  var m = b;
  if (x > 0.0) {
    m = c;
  }
  return m[1][0] + d[0][1] + e.y + determinant(a) + x * c[0][0];
}`,
		// a = [(1,2),(3,4)]; b = 2a - I = [(1,4),(6,7)]; c = -b;
		// d = 2·transpose(a) = [(2,6),(4,8)], d[0][1] = 6; e = a[0] + a[1]
		// = (4,6); det(a) = 4 - 6 = -2; c[0][0] = -1. m[1][0] is -6 for
		// x > 0, else 6: x = 2 gives -6+6+6-2-2 = 2, x = -1 gives
		// 6+6+6-2+1 = 17, x = 0 gives 16. (flatten's constant evaluation
		// once took a matrix constructor for its first column and a
		// matrix operand for a vector, and rewrote -1 * m to -m, which
		// WGSL does not define.)
		[][]ir.Value{{ir.F32Val(2)}, {ir.F32Val(-1)}, {ir.F32Val(0)}},
		[]ir.Value{ir.F32Val(2), ir.F32Val(17), ir.F32Val(16)}},
}

// TestMatrixKernelsHandDerived runs each matrix kernel through every
// stage a function kernel takes: the reference against the hand-derived
// results, the flattened twin against the reference (interp(twin) ==
// interp(original)), the canonical text and the emitted WGSL (portable and
// raw) parsing back, and the printed IR round-tripping byte-identically.
func TestMatrixKernelsHandDerived(t *testing.T) {
	for _, tc := range matrixCases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := wgsl.Parse("m.wgsl", []byte(tc.src))
			require.NoError(t, err)
			require.NoError(t, ir.Verify(m))
			invs, err := interp.Run(m, "k", tc.args, interp.Options{})
			require.NoError(t, err)
			for i, inv := range invs {
				require.NoError(t, inv.Err)
				assert.Nil(t, inv.Outputs[0].Indeterminate, "invocation %d", i)
				assert.True(t, ir.Equal(tc.want[i], inv.Outputs[0].Value), "invocation %d: got %v, want %v", i, inv.Outputs[0].Value, tc.want[i])
			}
			text := ir.Print(m)
			m2, err := wgsl.Parse("m2.wgsl", []byte(text))
			require.NoError(t, err, "%s", text)
			assert.Equal(t, text, ir.Print(m2), "canonical text round trip")
			for _, mode := range []wgsl.Mode{"portable", "raw"} {
				src, _, err := wgsl.Emit(m, "k", wgsl.EmitOptions{Mode: mode})
				require.NoError(t, err)
				_, err = wgsl.Parse("emitted.wgsl", []byte(src))
				require.NoError(t, err, "%s WGSL:\n%s", mode, src)
			}
			twin, err := flatten.Function(m, "k", flatten.Options{Strict: true})
			require.NoError(t, err)
			require.NoError(t, ir.Verify(m))
			tinvs, err := interp.Run(m, twin.Name, tc.args, interp.Options{})
			require.NoError(t, err)
			for i := range invs {
				assert.True(t, ir.Equal(invs[i].Outputs[0].Value, tinvs[i].Outputs[0].Value), "twin invocation %d:\n%s", i, ir.PrintFunc(twin))
			}
			_, err = wgsl.Parse("twin.wgsl", []byte(ir.Print(m)))
			require.NoError(t, err)
			if tc.name == "predicated matrix store and 4x4 determinant" {
				// The twin selects the matrix column by column: WGSL's select
				// takes no matrices (#select-builtin).
				assert.NotContains(t, ir.PrintFunc(twin), "select(m,", "twin:\n%s", ir.PrintFunc(twin))
				assert.Contains(t, ir.PrintFunc(twin), "m[3i] = select(m[3i], val[3i], cond);", "twin:\n%s", ir.PrintFunc(twin))
			}
		})
	}
}

// TestMatrixErrorsPositioned checks the errors WGSL defines for matrices
// (#matrix-types, #matrix-arithmetic, #matrix-builtin): positioned, naming
// the types.
func TestMatrixErrorsPositioned(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"fn k(m: mat2x2<i32>) -> f32 { return 1.0; }", "m.wgsl:1:16: check: matrix components must be floating point"},
		{"fn k(m: mat2x3f, n: mat2x3f) -> f32 { let p = m * n; return 1.0; }", "m.wgsl:1:49: check: operator * is not defined for mat2x3<f32> and mat2x3<f32>"},
		{"fn k(m: mat2x2f, v: vec3f) -> f32 { let p = m * v; return 1.0; }", "m.wgsl:1:47: check: operator * is not defined for mat2x2<f32> and vec3<f32>"},
		{"fn k(x: f32) -> f32 { let m = mat2x2f(x, x, x); return 1.0; }", "m.wgsl:1:31: check: mat2x2<f32> constructor expects 2 columns or 4 scalars, got 3 arguments"},
		{"fn k(m: mat2x3f) -> f32 { return determinant(m); }", "m.wgsl:1:34: check: no overload of determinant(mat2x3<f32>)"},
	} {
		_, err := wgsl.Parse("m.wgsl", []byte(tc.src))
		require.Error(t, err, tc.src)
		assert.True(t, strings.HasPrefix(err.Error(), tc.want), "got %q, want prefix %q", err.Error(), tc.want)
	}
}
