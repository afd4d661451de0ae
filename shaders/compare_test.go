package shaders

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/ir"
)

// How the interpreter's and the GPU's outputs are compared with a golden
// (ARCHITECTURE.md "Semantics"; WGSL "Differences from IEEE-754").

// leaves flattens v into its scalars in ir.Type.ComponentTypes order.
func leaves(v ir.Value) []ir.Value {
	if v.Type.IsScalar() {
		return []ir.Value{v}
	}
	var out []ir.Value
	for _, e := range v.Elems {
		out = append(out, leaves(e)...)
	}
	return out
}

// isZeroish reports a zero or subnormal f32 (WGSL may flush subnormals and
// ignore the sign of a zero).
func isZeroish(f float32) bool { return math.Abs(float64(f)) < 0x1p-126 }

// sameLeaves compares got with the golden want leaf by leaf: integers and
// bools exactly; f32 bit-exact, except that zeros and subnormals of either
// sign are equal and that a leaf with a non-zero tolerance (tol[i], the
// interpreter's bound; tol may be nil) may differ by up to it. It returns
// a description of each differing leaf.
func sameLeaves(want, got ir.Value, tol []float64) []string {
	ws, gs := leaves(want), leaves(got)
	if len(ws) != len(gs) {
		return []string{fmt.Sprintf("%d leaves, want %d", len(gs), len(ws))}
	}
	var diffs []string
	for i := range ws {
		w, g := ws[i], gs[i]
		if w.Type.Kind != ir.KindF32 {
			if w.Bits != g.Bits || w.Type.Kind != g.Type.Kind {
				diffs = append(diffs, fmt.Sprintf("leaf %d: %s, want %s", i, ir.MarshalValue(g), ir.MarshalValue(w)))
			}
			continue
		}
		wf, gf := w.F32(), g.F32()
		switch {
		case w.Bits == g.Bits, isZeroish(wf) && isZeroish(gf):
		case tol != nil && tol[i] > 0 && math.Abs(float64(wf)-float64(gf)) <= tol[i]:
		default:
			diffs = append(diffs, fmt.Sprintf("leaf %d: %s, want %s (tolerance %g)", i,
				ir.MarshalValue(g), ir.MarshalValue(w), tolAt(tol, i)))
		}
	}
	return diffs
}

func tolAt(tol []float64, i int) float64 {
	if tol == nil {
		return 0
	}
	return tol[i]
}

// TestSameLeaves pins the comparison rule the two tests above use.
func TestSameLeaves(t *testing.T) {
	v := func(x float32) ir.Value { return ir.F32Val(x) }
	assert.Empty(t, sameLeaves(v(1.5), v(1.5), nil))
	assert.Empty(t, sameLeaves(v(0), v(float32(math.Copysign(0, -1))), nil), "the sign of zero is ignored")
	assert.Empty(t, sameLeaves(v(0), v(0x1p-140), nil), "subnormals equal zero")
	assert.NotEmpty(t, sameLeaves(v(1), v(math.Nextafter32(1, 2)), nil), "one ULP off without tolerance")
	assert.Empty(t, sameLeaves(v(1), v(math.Nextafter32(1, 2)), []float64{1e-6}))
	assert.NotEmpty(t, sameLeaves(v(1), v(1.5), []float64{1e-6}))
	assert.NotEmpty(t, sameLeaves(ir.U32Val(1), ir.U32Val(2), nil))
	assert.NotEmpty(t, sameLeaves(ir.BoolVal(true), ir.BoolVal(false), nil))
}
