package raster

import (
	"errors"
	"math"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fb makes a vertex whose framebuffer position is (x, y) on a W×H target,
// with depth z (z/w) and clip w: clip = ((2x/W − 1)·w, (1 − 2y/H)·w, z·w, w)
// (the inverse of WebGPU's viewport transform).
func fb(W, H int, x, y, z, w float64, vals ...ir.Value) Vertex {
	return Vertex{
		Position: [4]float32{float32((2*x/float64(W) - 1) * w), float32((1 - 2*y/float64(H)) * w), float32(z * w), float32(w)},
		Values:   vals,
	}
}

// coverageMap returns the coverage of every target pixel by primitive p
// (pixels in no quad are out).
func coverageMap(p *Primitive, W, H int) [][]Coverage {
	m := make([][]Coverage, H)
	for y := range m {
		m[y] = make([]Coverage, W)
	}
	for _, q := range p.Quads {
		for _, l := range q.Lanes {
			if l.InTarget {
				m[l.Y][l.X] = l.Coverage
			}
		}
	}
	return m
}

// The square [0,4]² split along its diagonal x + y = 4 into two triangles:
// centres (x+½, y+½) with x + y = 3 lie on the shared edge (ambiguous in
// both: WebGPU leaves them open); x + y ≤ 2 lie ≥ 1/√2 px inside the
// upper-left triangle and ≥ ½ px from its other edges (in); x + y ≥ 4
// likewise inside the lower-right one.
func TestSharedEdgeCoverage(t *testing.T) {
	const W, H = 4, 4
	d := Draw{Width: W, Height: H}
	verts := []Vertex{
		fb(W, H, 0, 0, 0.5, 1), fb(W, H, 4, 0, 0.5, 1), fb(W, H, 0, 4, 0.5, 1),
		fb(W, H, 4, 0, 0.5, 1), fb(W, H, 4, 4, 0.5, 1), fb(W, H, 0, 4, 0.5, 1),
	}
	prims, err := Rasterize(d, verts)
	require.NoError(t, err)
	require.Len(t, prims, 2)
	a, b := coverageMap(&prims[0], W, H), coverageMap(&prims[1], W, H)
	for y := 0; y < H; y++ {
		for x := 0; x < W; x++ {
			switch {
			case x+y == 3:
				assert.Equal(t, Ambiguous, a[y][x], "(%d,%d) upper", x, y)
				assert.Equal(t, Ambiguous, b[y][x], "(%d,%d) lower", x, y)
			case x+y < 3:
				assert.Equal(t, In, a[y][x], "(%d,%d) upper", x, y)
				assert.Equal(t, Out, b[y][x], "(%d,%d) lower", x, y)
			default:
				assert.Equal(t, Out, a[y][x], "(%d,%d) upper", x, y)
				assert.Equal(t, In, b[y][x], "(%d,%d) lower", x, y)
			}
		}
	}
	// (0,0),(4,0),(0,4) in framebuffer space (y down) turns clockwise on
	// the target: back-facing under the default ccw front face.
	assert.Equal(t, BackFacing, prims[0].Facing)
	assert.Equal(t, BackFacing, prims[1].Facing)
	assert.True(t, prims[0].Area.Contains(-8), "%v", prims[0].Area)
	assert.Less(t, prims[0].Area.Hi, 0.0)
}

// A vertical edge at x = 2.52 passes 0.02 px (< δ = 1/32) from the centre
// 2.5: ambiguous; at x = 2.56, 0.06 px away, whatever 1/32 px moves its two
// vertices by in x leaves it right of 2.5: in. With δ = 1/64 the first is
// in as well (0.02 > 1/64).
func TestEdgeWithinDelta(t *testing.T) {
	const W, H = 4, 4
	for _, c := range []struct {
		edge, delta float64
		want        Coverage
	}{
		{2.52, 0, Ambiguous},
		{2.56, 0, In},
		{2.48, 0, Ambiguous},
		{2.44, 0, Out},
		{2.52, 1.0 / 64, In},
	} {
		// Triangle (0,-4), (edge,-4)... a tall one whose right edge is the
		// vertical line x = edge over the whole target.
		d := Draw{Width: W, Height: H, Delta: c.delta}
		verts := []Vertex{fb(W, H, 0, -8, 0, 1), fb(W, H, c.edge, -8, 0, 1), fb(W, H, c.edge, 12, 0, 1)}
		// Clip x/y outside [−w, w] is fine: the target scissors it.
		prims, err := Rasterize(d, verts)
		require.NoError(t, err)
		m := coverageMap(&prims[0], W, H)
		assert.Equal(t, c.want, m[1][2], "edge %v δ %v", c.edge, c.delta)
		assert.Equal(t, Out, m[1][3], "edge %v: pixel 3 lies ≥ 0.94 px right", c.edge)
	}
}

// A strip's odd triangles keep the first one's winding (Vulkan
// "Triangle Strips": (i, i+2, i+1)); the same four vertices as a list's
// (0,1,2),(1,2,3) do not: hand-derived areas (Vulkan's −½Σ formula,
// framebuffer coordinates) +8 and +8 for the strip, +8 and −8 for the
// list's triangles 0,1,2 and 1,2,3 of (0,0),(0,4),(4,0),(4,4).
func TestStripWindingAndCulling(t *testing.T) {
	const W, H = 4, 4
	vs := []Vertex{fb(W, H, 0, 0, 0, 1), fb(W, H, 0, 4, 0, 1), fb(W, H, 4, 0, 0, 1), fb(W, H, 4, 4, 0, 1)}
	strip, err := Rasterize(Draw{Width: W, Height: H, Topology: TriangleStrip}, vs)
	require.NoError(t, err)
	require.Len(t, strip, 2)
	assert.Equal(t, [3]int{0, 1, 2}, strip[0].Vertices)
	assert.Equal(t, [3]int{1, 3, 2}, strip[1].Vertices)
	assert.Equal(t, 2, strip[0].Last)
	assert.Equal(t, 3, strip[1].Last)
	for _, p := range strip {
		assert.Equal(t, FrontFacing, p.Facing, "strip primitive %d", p.Index)
		assert.True(t, p.Area.Contains(8), "%v", p.Area)
	}
	list, err := Rasterize(Draw{Width: W, Height: H}, []Vertex{vs[0], vs[1], vs[2], vs[1], vs[2], vs[3]})
	require.NoError(t, err)
	assert.Equal(t, FrontFacing, list[0].Facing)
	assert.Equal(t, BackFacing, list[1].Facing)

	// Culling: back culls the list's second triangle, front its first;
	// a culled primitive keeps its place and has no quads.
	back, err := Rasterize(Draw{Width: W, Height: H, CullMode: CullBack}, []Vertex{vs[0], vs[1], vs[2], vs[1], vs[2], vs[3]})
	require.NoError(t, err)
	assert.Equal(t, NotCulled, back[0].Culled)
	assert.NotEmpty(t, back[0].Quads)
	assert.Equal(t, IsCulled, back[1].Culled)
	assert.Empty(t, back[1].Quads)
	front, err := Rasterize(Draw{Width: W, Height: H, CullMode: CullFront}, []Vertex{vs[0], vs[1], vs[2], vs[1], vs[2], vs[3]})
	require.NoError(t, err)
	assert.Equal(t, IsCulled, front[0].Culled)
	assert.Equal(t, NotCulled, front[1].Culled)
	// cw front face flips facing.
	cw, err := Rasterize(Draw{Width: W, Height: H, FrontFace: FrontCW, CullMode: CullBack}, vs[:3])
	require.NoError(t, err)
	assert.Equal(t, BackFacing, cw[0].Facing)
	assert.Equal(t, IsCulled, cw[0].Culled)
	assert.Equal(t, ir.ValueSet{Values: []uint32{0}}, cw[0].FrontFacing())
}

// A sliver of area 0.02 px² (apex 0.01 px above its base) can change sign
// when each vertex moves by 1/32 px: its facing is ambiguous, under
// culling it is maybe culled, and none of its pixels is in.
func TestAmbiguousFacing(t *testing.T) {
	const W, H = 4, 4
	vs := []Vertex{fb(W, H, 0, 1.5, 0, 1), fb(W, H, 4, 1.5, 0, 1), fb(W, H, 2, 1.51, 0, 1)}
	for _, cull := range []CullMode{CullNone, CullBack} {
		prims, err := Rasterize(Draw{Width: W, Height: H, CullMode: cull}, vs)
		require.NoError(t, err)
		p := prims[0]
		assert.Equal(t, FacingAmbiguous, p.Facing)
		assert.Equal(t, ir.ValueSet{Values: []uint32{0, 1}}, p.FrontFacing())
		if cull == CullNone {
			assert.Equal(t, NotCulled, p.Culled)
		} else {
			assert.Equal(t, MaybeCulled, p.Culled)
		}
		m := coverageMap(&p, W, H)
		for y := range m {
			for x, c := range m[y] {
				assert.NotEqual(t, In, c, "(%d,%d)", x, y)
				if y == 1 { // centres at y = 1.5, on the sliver
					assert.Equal(t, Ambiguous, c, "(%d,%d)", x, y)
				}
				if y == 3 { // 1.5 px below it
					assert.Equal(t, Out, c, "(%d,%d)", x, y)
				}
			}
		}
	}
}

// Flat interpolation: first is the primitive's first vertex, either the
// first or the last (strip primitive 1: vertices 1, 3, 2 — first 1, last
// 3); integer varyings must be flat.
func TestFlatFirstAndEither(t *testing.T) {
	const W, H = 4, 4
	u := ir.U32Val
	vy := []Varying{{Type: ir.U32, Interp: FlatFirst}, {Type: ir.U32, Interp: FlatEither}, {Type: ir.F32, Interp: FlatEither}}
	f := ir.F32Val
	vs := []Vertex{
		fb(W, H, 0, 0, 0, 1, u(10), u(10), f(1.5)),
		fb(W, H, 0, 4, 0, 1, u(20), u(20), f(2.5)),
		fb(W, H, 4, 0, 0, 1, u(30), u(30), f(3.5)),
		fb(W, H, 4, 4, 0, 1, u(40), u(40), f(4.5)),
	}
	prims, err := Rasterize(Draw{Width: W, Height: H, Topology: TriangleStrip, Varyings: vy}, vs)
	require.NoError(t, err)
	want := [][3]ir.ValueSet{
		{{Values: []uint32{10}}, {Values: []uint32{10, 30}}, {Values: []uint32{math.Float32bits(1.5), math.Float32bits(3.5)}}},
		{{Values: []uint32{20}}, {Values: []uint32{20, 40}}, {Values: []uint32{math.Float32bits(2.5), math.Float32bits(4.5)}}},
	}
	for i, p := range prims {
		fs := p.Fragments()
		require.NotEmpty(t, fs)
		for _, fr := range fs {
			for k := range vy {
				assert.Equal(t, want[i][k], fr.Varyings[k], "primitive %d varying %d at (%d,%d)", i, k, fr.X, fr.Y)
			}
		}
	}
	_, err = Rasterize(Draw{Width: W, Height: H, Varyings: []Varying{{Type: ir.I32, Interp: Perspective}}}, nil)
	assert.ErrorContains(t, err, "integer varying 0")
}

// Perspective-correct interpolation, by hand: on an 8×8 target the
// triangle A(0,0) w=1, B(8,0) w=2, C(0,8) w=4 at pixel (1,1), centre
// (1.5,1.5), has screen weights λ = (1 − 3/16 − 3/16, 3/16, 3/16) =
// (5/8, 3/16, 3/16); with q = 1/w = (1, ½, ¼), D = Σλq = 49/64 and the
// perspective weights μ = λq/D = (40/49, 6/49, 3/49). A varying (0, 1, 0)
// is 6/49 perspective, 3/16 linear; @builtin(position).w is D = 49/64 and,
// for z/w = (0.2, 0.4, 0.8), z = 5/8·0.2 + 3/16·0.4 + 3/16·0.8 = 0.35.
func TestPerspectiveInterpolationByHand(t *testing.T) {
	const W, H = 8, 8
	f := ir.F32Val
	vy := []Varying{{Type: ir.F32, Interp: Perspective}, {Type: ir.F32, Interp: Linear}}
	vs := []Vertex{
		fb(W, H, 0, 0, 0.2, 1, f(0), f(0)),
		fb(W, H, 8, 0, 0.4, 2, f(1), f(1)),
		fb(W, H, 0, 8, 0.8, 4, f(0), f(0)),
	}
	prims, err := Rasterize(Draw{Width: W, Height: H, Varyings: vy}, vs)
	require.NoError(t, err)
	var fr *Fragment
	for _, x := range prims[0].Fragments() {
		if x.X == 1 && x.Y == 1 {
			fr = x
		}
	}
	require.NotNil(t, fr)
	assert.Equal(t, In, fr.Coverage)
	check := func(name string, s ir.ValueSet, want, maxTol float64) {
		t.Helper()
		require.Len(t, s.Values, 1, name)
		require.Len(t, s.Tol, 1, name)
		mid := float64(math.Float32frombits(s.Values[0]))
		assert.LessOrEqual(t, math.Abs(mid-want), s.Tol[0], "%s: %v ± %v must hold %v", name, mid, s.Tol[0], want)
		assert.Less(t, s.Tol[0], maxTol, name)
		assert.Greater(t, math.Abs(mid+maxTol-want), s.Tol[0], "%s: the set is not wider than %v", name, maxTol)
	}
	// ‖∇f‖₁·δ is about 0.2·(1/32) for these planes.
	check("perspective", fr.Varyings[0], 6.0/49, 0.02)
	check("linear", fr.Varyings[1], 3.0/16, 0.02)
	check("position.w", fr.Position[3], 49.0/64, 0.02)
	check("position.z", fr.Position[2], 0.35, 0.02)
	assert.Equal(t, ir.ValueSet{Values: []uint32{math.Float32bits(1.5)}}, fr.Position[0])
	assert.Equal(t, ir.ValueSet{Values: []uint32{math.Float32bits(1.5)}}, fr.Position[1])
	for i, w := range []float64{40.0 / 49, 6.0 / 49, 3.0 / 49} {
		assert.True(t, fr.Perspective[i].Contains(w), "μ%d %v in %v", i, w, fr.Perspective[i])
	}
	for i, w := range []float64{5.0 / 8, 3.0 / 16, 3.0 / 16} {
		assert.True(t, fr.Linear[i].Contains(w), "λ%d %v in %v", i, w, fr.Linear[i])
	}
	// The perspective value is not the linear one: the sets are apart.
	p, l := fr.Varyings[0], fr.Varyings[1]
	assert.Greater(t, float64(math.Float32frombits(l.Values[0])-math.Float32frombits(p.Values[0])), p.Tol[0]+l.Tol[0])
}

// A triangle covering only pixel (1,1)'s centre — (1.2,1.2), (1.9,1.2),
// (1.2,1.9): the centre (1.5,1.5) is 0.3 px from the legs and 0.1/√2 px
// from the hypotenuse — is one quad, lanes 0–2 helpers whose varyings are
// extrapolated from the plane: λ_B(P) = (P.x − 1.2)/0.7, −1 at lane 0
// and 2 (x + ½ = 0.5) and 3/7 at lanes 1 and 3 (x + ½ = 1.5). A triangle at the right edge of a 5-wide
// target has lanes past it, helpers outside the target.
func TestQuadsWithHelpers(t *testing.T) {
	const W, H = 4, 4
	f := ir.F32Val
	vy := []Varying{{Type: ir.F32, Interp: Linear}}
	vs := []Vertex{fb(W, H, 1.2, 1.2, 0, 1, f(0)), fb(W, H, 1.9, 1.2, 0, 1, f(1)), fb(W, H, 1.2, 1.9, 0, 1, f(0))}
	prims, err := Rasterize(Draw{Width: W, Height: H, Varyings: vy}, vs)
	require.NoError(t, err)
	require.Len(t, prims[0].Quads, 1)
	q := prims[0].Quads[0]
	assert.Equal(t, 0, q.X)
	assert.Equal(t, 0, q.Y)
	for l, want := range []Coverage{Out, Out, Out, In} {
		assert.Equal(t, want, q.Lanes[l].Coverage, "lane %d", l)
		assert.True(t, q.Lanes[l].InTarget)
		assert.Equal(t, l&1, q.Lanes[l].X)
		assert.Equal(t, l>>1, q.Lanes[l].Y)
	}
	in := func(s ir.ValueSet, want float64) bool {
		return math.Abs(float64(math.Float32frombits(s.Values[0]))-want) <= s.Tol[0]
	}
	assert.True(t, in(q.Lanes[0].Varyings[0], -1), "%v", q.Lanes[0].Varyings[0])
	assert.True(t, in(q.Lanes[1].Varyings[0], 3.0/7), "%v", q.Lanes[1].Varyings[0])
	assert.True(t, in(q.Lanes[2].Varyings[0], -1), "%v", q.Lanes[2].Varyings[0])
	assert.True(t, in(q.Lanes[3].Varyings[0], 3.0/7), "%v", q.Lanes[3].Varyings[0])
	assert.False(t, in(q.Lanes[3].Varyings[0], 0.5), "%v", q.Lanes[3].Varyings[0])
	require.Len(t, prims[0].Fragments(), 1)

	// At the right edge of a 5×2 target: quad (4,0)'s lanes 1 and 3 lie
	// at x = 5, outside.
	const W2, H2 = 5, 2
	vs2 := []Vertex{fb(W2, H2, 4, 0, 0, 1, f(0)), fb(W2, H2, 5, 0, 0, 1, f(1)), fb(W2, H2, 4, 2, 0, 1, f(0))}
	p2, err := Rasterize(Draw{Width: W2, Height: H2, Varyings: vy}, vs2)
	require.NoError(t, err)
	require.Len(t, p2[0].Quads, 1)
	q2 := p2[0].Quads[0]
	assert.Equal(t, 4, q2.X)
	// Centre (4.5, 0.5): 0.5 px from the legs x = 4 and y = 0, and
	// (10 − 2·4.5 − 0.5)/√5 ≈ 0.22 px inside the hypotenuse 2x + y = 10.
	assert.Equal(t, In, q2.Lanes[0].Coverage)
	assert.False(t, q2.Lanes[1].InTarget)
	assert.Equal(t, Out, q2.Lanes[1].Coverage)
	assert.False(t, q2.Lanes[3].InTarget)
	assert.True(t, q2.Lanes[2].InTarget)
}

// Vertices v1 cannot rasterize are refused: w ≤ 0 (also within its
// tolerance), z outside [0, w]; a vertex no primitive uses is not.
func TestRefusals(t *testing.T) {
	const W, H = 4, 4
	ok := fb(W, H, 0, 0, 0.5, 1)
	for _, c := range []struct {
		name string
		v    Vertex
		want string
	}{
		{"w zero", Vertex{Position: [4]float32{0, 0, 0, 0}}, "w ≤ 0"},
		{"w negative", Vertex{Position: [4]float32{0, 0, 0, -1}}, "w ≤ 0"},
		{"w within tolerance of 0", Vertex{Position: [4]float32{0, 0, 0, 1e-3}, PosTol: [4]float64{0, 0, 0, 2e-3}}, "w ≤ 0"},
		{"z negative", Vertex{Position: [4]float32{0, 0, -0.1, 1}}, "z outside"},
		{"z past w", Vertex{Position: [4]float32{0, 0, 2, 1}}, "z outside"},
		{"z tolerance past w", Vertex{Position: [4]float32{0, 0, 1, 1}, PosTol: [4]float64{0, 0, 1e-6, 0}}, "z outside"},
		{"NaN", Vertex{Position: [4]float32{float32(math.NaN()), 0, 0, 1}}, "not a finite"},
	} {
		_, err := Rasterize(Draw{Width: W, Height: H}, []Vertex{ok, c.v, ok})
		var ve *VertexError
		require.True(t, errors.As(err, &ve), "%s: %v", c.name, err)
		assert.Equal(t, 1, ve.Vertex, c.name)
		assert.Equal(t, 0, ve.Primitive, c.name)
		assert.Contains(t, ve.Error(), c.want, c.name)
	}
	// z = 0 and z = w are inside the clip volume.
	_, err := Rasterize(Draw{Width: W, Height: H}, []Vertex{ok, {Position: [4]float32{0, 0, 0, 1}}, {Position: [4]float32{1, 0, 1, 1}}})
	assert.NoError(t, err)
	// The fourth vertex of a list belongs to no primitive.
	_, err = Rasterize(Draw{Width: W, Height: H}, []Vertex{ok, ok, ok, {Position: [4]float32{0, 0, 0, -1}}})
	assert.NoError(t, err)
}

// WGSL #interpolation's defaults: a float varying without @interpolate is
// perspective at the centre, an integer one flat first; flat alone is
// flat first.
func TestInterpOfDefaults(t *testing.T) {
	for _, c := range []struct {
		in   ir.Interpolation
		t    *ir.Type
		want Interp
	}{
		{ir.Interpolation{}, ir.F32, Perspective},
		{ir.Interpolation{}, ir.U32, FlatFirst},
		{ir.Interpolation{Type: ir.InterpLinear}, ir.F32, Linear},
		{ir.Interpolation{Type: ir.InterpFlat}, ir.F32, FlatFirst},
		{ir.Interpolation{Type: ir.InterpFlat, Sampling: ir.SamplingEither}, ir.I32, FlatEither},
		{ir.Interpolation{Type: ir.InterpPerspective, Sampling: ir.SamplingCenter}, ir.F32, Perspective},
	} {
		got, err := InterpOf(c.in, c.t)
		require.NoError(t, err, c.in.Attr())
		assert.Equal(t, c.want, got, "%s %v", c.in.Attr(), c.t)
	}
}
