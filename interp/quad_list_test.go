package interp

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/interp/raster"
	"github.com/gpudiff/gpudiff/ir"
)

const quadListSrc = `
@fragment fn main(@builtin(position) p: vec4f, @location(0) v: f32) -> @location(0) vec4f {
  return vec4f(v * 2.0, dpdxFine(v), dpdyFine(v), p.x);
}
`

func quadListProgram(t *testing.T) *Program {
	t.Helper()
	m, err := wgsl.Parse("q.wgsl", []byte(quadListSrc))
	require.NoError(t, err)
	p, err := Compile(m, "main")
	require.NoError(t, err)
	return p
}

// lanesOf turns a raster quad into RunQuadList's lanes: position and the
// varying v from the fragment's allowed sets (midpoint, bound).
func lanesOf(q *raster.Quad) Quad {
	var out Quad
	for l := range q.Lanes {
		fr := &q.Lanes[l].Fragment
		var pos [4]ir.Value
		var ptol []float64
		for c := 0; c < 4; c++ {
			s := fr.Position[c]
			pos[c] = ir.ScalarVal(ir.F32, s.Values[0])
			tol := 0.0
			if s.Tol != nil {
				tol = s.Tol[0]
			}
			ptol = append(ptol, tol)
		}
		v := fr.Varyings[0]
		out[l] = QuadLane{
			Args:   []ir.Value{ir.CompositeVal(ir.Vec(4, ir.F32), pos[:]...), ir.ScalarVal(ir.F32, v.Values[0])},
			Tol:    [][]float64{ptol, {v.Tol[0]}},
			Helper: q.Lanes[l].Coverage == raster.Out,
		}
	}
	return out
}

// A small triangle's quad through RunQuadList, hand-derived: on a 4×4
// target, A(1.2,1.2), B(1.9,1.2), C(1.2,1.9) cover pixel (1,1) only; the
// linear varying v = (0, 7, 0) is the plane 10·(x − 1.2), so at (1.5,1.5)
// v = 3 and 2v = 6, and dpdxFine(v) = 10, dpdyFine(v) = 0 exactly in the
// plane — computed from the three helpers' extrapolated values. Each
// output holds its hand value within its bound, and the bound is the
// interpolation's (≤ ‖∇v‖₁·(δ + e) + …, well under 1), not any value.
func TestRunQuadListWithHelpers(t *testing.T) {
	p := quadListProgram(t)
	const W, H = 4, 4
	clip := func(x, y float64, v float32) raster.Vertex {
		return raster.Vertex{Position: [4]float32{float32(2*x/W - 1), float32(1 - 2*y/H), 0.5, 1}, Values: []ir.Value{ir.F32Val(v)}}
	}
	prims, err := raster.Rasterize(raster.Draw{Width: W, Height: H, Varyings: []raster.Varying{{Type: ir.F32, Interp: raster.Linear}}},
		[]raster.Vertex{clip(1.2, 1.2, 0), clip(1.9, 1.2, 7), clip(1.2, 1.9, 0)})
	require.NoError(t, err)
	require.Len(t, prims[0].Quads, 1)
	q := lanesOf(&prims[0].Quads[0])
	for l := 0; l < 3; l++ {
		require.True(t, q[l].Helper, "lane %d", l)
	}
	require.False(t, q[3].Helper)
	res, err := p.RunQuadList([]Quad{q}, Options{})
	require.NoError(t, err)
	require.Len(t, res, 1)
	for l, r := range res[0] {
		assert.True(t, r.Ran, "lane %d", l)
		assert.Equal(t, l < 3, r.Helper, "lane %d", l)
		require.NoError(t, r.Err, "lane %d", l)
	}
	o := res[0][3].Outputs[0]
	leaf := func(j int) (float64, float64) {
		return float64(math.Float32frombits(o.Value.Elems[j].Bits)), o.Tolerance[j]
	}
	for j, want := range []float64{6, 10, 0, 1.5} {
		require.False(t, o.Indeterminate[j], "leaf %d: %s", j, o.Why)
		v, tol := leaf(j)
		assert.LessOrEqual(t, math.Abs(v-want), tol+1e-6, "leaf %d: %v ± %v holds %v", j, v, tol, want)
		// A derivative adds 4× its operands' bound (quad.go): 4·‖∇v‖₁·δ ≈ 1.25.
		assert.Less(t, tol, 1.5, "leaf %d", j)
	}
	v, tol := leaf(0)
	assert.Greater(t, math.Abs(v-7), tol, "2v excludes 7")
	assert.Contains(t, o.Why, "interpolated")
}

// An unpopulated lane runs nothing: a derivative that needs it is any
// value, the lane's own values are not; an argument bound of +Inf makes
// what depends on it any value.
func TestRunQuadListUnpopulatedAndAnyValue(t *testing.T) {
	p := quadListProgram(t)
	lane := func(x, y int, v float32, tol float64) QuadLane {
		pos := ir.CompositeVal(ir.Vec(4, ir.F32), ir.F32Val(float32(x)+0.5), ir.F32Val(float32(y)+0.5), ir.F32Val(0), ir.F32Val(1))
		return QuadLane{Args: []ir.Value{pos, ir.F32Val(v)}, Tol: [][]float64{nil, {tol}}}
	}
	q := Quad{lane(0, 0, 1, 0), {}, lane(0, 1, 4, 0), lane(1, 1, 5, math.Inf(1))}
	res, err := p.RunQuadList([]Quad{q}, Options{})
	require.NoError(t, err)
	assert.False(t, res[0][1].Ran)
	assert.Nil(t, res[0][1].Outputs)
	o0 := res[0][0].Outputs[0]
	assert.Equal(t, float32(2), math.Float32frombits(o0.Value.Elems[0].Bits))
	assert.False(t, o0.Indeterminate != nil && o0.Indeterminate[0], "2v is known: %s", o0.Why)
	require.NotNil(t, o0.Indeterminate)
	assert.True(t, o0.Indeterminate[1], "dpdxFine needs lane 1")
	assert.False(t, o0.Indeterminate[2], "dpdyFine(v) = 4 − 1 needs lanes 0 and 2 only: %s", o0.Why)
	assert.Equal(t, float32(3), math.Float32frombits(o0.Value.Elems[2].Bits))
	o3 := res[0][3].Outputs[0]
	assert.True(t, o3.Indeterminate[0], "2v of an any-value v")
	assert.False(t, o3.Indeterminate[3], "p.x does not depend on v")
	// Malformed lanes are refused.
	_, err = p.RunQuadList([]Quad{{{Args: []ir.Value{ir.F32Val(1)}}}}, Options{})
	assert.ErrorContains(t, err, "1 arguments for 2 parameters")
	bad := lane(0, 0, 1, 0)
	bad.Tol = [][]float64{{0}, {0}}
	_, err = p.RunQuadList([]Quad{{bad}}, Options{})
	assert.True(t, err != nil && strings.Contains(err.Error(), "leaf tolerances"), "%v", err)
}

// discard demotes a lane: it runs on (its derivative operand still feeds
// the quad: dpdxFine(v) = 1 in every lane of v = 1, 2 / 3, 4) and reports
// Discarded; the others do not.
func TestRunQuadListDiscard(t *testing.T) {
	src := `
@fragment fn main(@location(0) v: f32) -> @location(0) vec4f {
  let d = dpdxFine(v);
  if (v > 2.5) { discard; }
  return vec4f(v, d, 0.0, 0.0);
}
`
	m, err := wgsl.Parse("d.wgsl", []byte(src))
	require.NoError(t, err)
	p, err := Compile(m, "main")
	require.NoError(t, err)
	var q Quad
	for l := range q {
		q[l] = QuadLane{Args: []ir.Value{ir.F32Val(float32(l + 1))}}
	}
	res, err := p.RunQuadList([]Quad{q}, Options{})
	require.NoError(t, err)
	for l, r := range res[0] {
		require.NoError(t, r.Err)
		assert.Equal(t, l >= 2, r.Discarded, "lane %d", l)
		assert.Equal(t, float32(1), math.Float32frombits(r.Outputs[0].Value.Elems[1].Bits), "lane %d dpdxFine", l)
	}
}
