package gen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// TestInputsOfMatrixParameters: a matCxR<f32> argument is C columns of
// vecR<f32> (WGSL #matrix-types), each component drawn like an f32 (edge
// values first); a matrix parameter once reached the scalar path with no
// edge list and divided by zero (naga's globals.wgsl, exec --seed).
func TestInputsOfMatrixParameters(t *testing.T) {
	m32 := ir.Mat(3, 2)
	rows := Inputs(1, []*ir.Param{{Name: "m", T: m32}}, 4)
	require.Len(t, rows, 4)
	for _, r := range rows {
		v := r[0]
		require.Len(t, v.Elems, 3, "3 columns")
		for _, col := range v.Elems {
			require.Len(t, col.Elems, 2, "of vec2")
			assert.Equal(t, ir.KindF32, col.Elems[0].Type.Kind)
		}
	}
}
