package raster

import (
	"fmt"
	"math"
	"sort"

	"github.com/gpudiff/gpudiff/ir"
)

// Coverage is whether a primitive covers a pixel centre.
type Coverage uint8

// The coverages (package doc, assumption 1).
const (
	Out Coverage = iota
	In
	Ambiguous
)

func (c Coverage) String() string {
	switch c {
	case Out:
		return "out"
	case In:
		return "in"
	case Ambiguous:
		return "ambiguous"
	}
	return fmt.Sprintf("Coverage(%d)", uint8(c))
}

// Facing is a primitive's facing: certain, or ambiguous when the sign of
// its area can change within its vertices' bounds.
type Facing uint8

// The facings.
const (
	FrontFacing Facing = iota
	BackFacing
	FacingAmbiguous
)

func (f Facing) String() string {
	switch f {
	case FrontFacing:
		return "front"
	case BackFacing:
		return "back"
	case FacingAmbiguous:
		return "ambiguous"
	}
	return fmt.Sprintf("Facing(%d)", uint8(f))
}

// Culled says whether a primitive is culled: no, yes, or maybe (its facing
// is ambiguous and the draw culls one facing).
type Culled uint8

// The culled states.
const (
	NotCulled Culled = iota
	IsCulled
	MaybeCulled
)

// Interval is the closed interval [Lo, Hi] of reals.
type Interval struct{ Lo, Hi float64 }

// Contains reports whether x lies in i.
func (i Interval) Contains(x float64) bool { return i.Lo <= x && x <= i.Hi }

func around(v, t float64) Interval { return Interval{v - t, v + t} }

// Primitive is one triangle of the draw, in primitive order.
type Primitive struct {
	// Index is the primitive's number in the draw (0, 1, …).
	Index int
	// Vertices are the indices (into Rasterize's vertex list) of its
	// first, second and third vertex (Assemble); Last is the one flat
	// either may take besides Vertices[0].
	Vertices [3]int
	Last     int
	// Area is the interval of its signed area in px² over the vertices'
	// boxes (package doc: positive is counter-clockwise).
	Area   Interval
	Facing Facing
	Culled Culled
	// Quads are the 2×2 quads (top-left pixel even) holding at least one
	// pixel of the target the primitive may cover, in row-major order of
	// quads; empty when the primitive is culled.
	Quads []Quad
}

// FrontFacing is @builtin(front_facing) of the primitive's fragments: one
// member (true or false), or both when its facing is ambiguous.
func (p *Primitive) FrontFacing() ir.ValueSet {
	switch p.Facing {
	case FrontFacing:
		return ir.ValueSet{Values: []uint32{1}}
	case BackFacing:
		return ir.ValueSet{Values: []uint32{0}}
	}
	return ir.ValueSet{Values: []uint32{0, 1}}
}

// Fragments returns the primitive's fragments that may exist: every lane
// of its quads inside the target whose coverage is In or Ambiguous, in
// quad order.
func (p *Primitive) Fragments() []*Fragment {
	var fs []*Fragment
	for qi := range p.Quads {
		for l := range p.Quads[qi].Lanes {
			ln := &p.Quads[qi].Lanes[l]
			if ln.Coverage != Out {
				fs = append(fs, &ln.Fragment)
			}
		}
	}
	return fs
}

// Quad is a 2×2 quad of one primitive: lane l is pixel (X + l&1, Y + l>>1).
type Quad struct {
	X, Y  int
	Lanes [4]Lane
}

// Lane is one position of a quad. Coverage Out marks a helper invocation
// (the primitive does not cover the pixel, or the pixel lies outside the
// target); Ambiguous a lane that is covered or a helper (maybe); In a
// covered lane. A helper's Fragment holds the values extrapolated from
// the primitive's planes, which is what feeds its derivatives.
type Lane struct {
	Fragment
	// InTarget reports whether the pixel lies inside the target (a lane
	// outside it is always a helper).
	InTarget bool
}

// Fragment is the rasterizer's result at one pixel of one primitive.
type Fragment struct {
	X, Y     int
	Coverage Coverage
	// Position is @builtin(position) (WGSL #builtin-values): x + ½ and
	// y + ½ exact; z = the interpolated z/w and w = the interpolated 1/w,
	// each one f32 member within its tolerance (any value when the
	// primitive is degenerate).
	Position [4]ir.ValueSet
	// Linear and Perspective are the weights of Vertices[0..2] in screen
	// space and perspective-corrected, as intervals (outside [0, 1] at a
	// helper or an ambiguous pixel).
	Linear, Perspective [3]Interval
	// Varyings has one allowed set per Draw.Varyings leaf: an f32 member
	// within its tolerance (perspective, linear, flat), the value of the
	// first vertex (flat first), of the first and the last vertex (flat
	// either), or any value (an input that was any value, a degenerate
	// primitive).
	Varyings []ir.ValueSet
}

// Rasterize assembles verts (one instance's vertices in draw order) into
// primitives and rasterizes each (package doc): facing, culling, and the
// quads of the pixels each may cover with their fragments. It fails with
// a *VertexError for a vertex of a primitive that it refuses, and with an
// error for a malformed draw (target size, varyings).
func Rasterize(d Draw, verts []Vertex) ([]Primitive, error) {
	if d.Width <= 0 || d.Height <= 0 {
		return nil, fmt.Errorf("raster: target %dx%d", d.Width, d.Height)
	}
	for i, v := range d.Varyings {
		switch {
		case v.Type == nil || !(v.Type.Kind == ir.KindF32 || v.Type.Kind == ir.KindI32 || v.Type.Kind == ir.KindU32):
			return nil, fmt.Errorf("raster: varying %d has type %v (want f32, i32 or u32)", i, v.Type)
		case v.Type.Kind != ir.KindF32 && v.Interp != FlatFirst && v.Interp != FlatEither:
			return nil, fmt.Errorf("raster: integer varying %d is interpolated %v (WGSL #interpolation: integer IO is flat)", i, v.Interp)
		}
	}
	tris, last := Assemble(d.Topology, len(verts))
	used := make([]int, len(verts))
	for i := range used {
		used[i] = -1
	}
	for p := len(tris) - 1; p >= 0; p-- {
		for _, v := range tris[p] {
			used[v] = p
		}
	}
	vs := make([]vtx, len(verts))
	for i := range verts {
		if used[i] < 0 {
			continue
		}
		v, err := prepare(&d, &verts[i])
		if err != nil {
			return nil, &VertexError{Vertex: i, Primitive: used[i], Msg: err.Error()}
		}
		vs[i] = v
	}
	prims := make([]Primitive, len(tris))
	for p, t := range tris {
		prims[p] = rasterize(&d, p, t, last[p], verts, vs)
	}
	return prims, nil
}

// vtx is a vertex in framebuffer space: the position at the centre, the
// half-widths of its own bound (ex, ey: tolerance and the GPU's rounding)
// and of its coverage box (hx, hy: those plus δ), depth z/w and q = 1/w
// with their bounds.
type vtx struct {
	x, y, ex, ey, hx, hy float64
	z, zt, q, qt         float64
}

// prepare checks a vertex and maps it to framebuffer space.
func prepare(d *Draw, v *Vertex) (vtx, error) {
	var lo, hi [4]float64
	for c := 0; c < 4; c++ {
		p, t := float64(v.Position[c]), v.PosTol[c]
		if math.IsNaN(p) || math.IsInf(p, 0) || math.IsNaN(t) || math.IsInf(t, 0) || t < 0 {
			return vtx{}, fmt.Errorf("@builtin(position).%c is %v within %v: not a finite number", "xyzw"[c], v.Position[c], t)
		}
		lo[c], hi[c] = p-t, p+t
	}
	w := float64(v.Position[3])
	if lo[3] <= 0 {
		return vtx{}, fmt.Errorf("@builtin(position).w is %v (within %v): w ≤ 0 needs clipping (WebGPU #clipping), which the reference does not do", v.Position[3], v.PosTol[3])
	}
	if lo[2] < 0 || hi[2] > lo[3] {
		return vtx{}, fmt.Errorf("@builtin(position).z is %v (within %v) with w %v: z outside [0, w] is clipped (WebGPU #clipping), which the reference does not do", v.Position[2], v.PosTol[2], v.Position[3])
	}
	if len(v.Values) != len(d.Varyings) {
		return vtx{}, fmt.Errorf("%d varyings for %d", len(v.Values), len(d.Varyings))
	}
	for i, x := range v.Values {
		if x.Type == nil || x.Type.Kind != d.Varyings[i].Type.Kind {
			return vtx{}, fmt.Errorf("varying %d has type %v, want %v", i, x.Type, d.Varyings[i].Type)
		}
	}
	if v.Tol != nil && len(v.Tol) != len(v.Values) {
		return vtx{}, fmt.Errorf("%d varying tolerances for %d varyings", len(v.Tol), len(v.Values))
	}
	W, H := float64(d.Width), float64(d.Height)
	// ratio returns a/w at the centre and the half-width of its interval
	// over the boxes (w > 0 throughout).
	ratio := func(c int) (float64, float64) {
		m := float64(v.Position[c]) / w
		r := 0.0
		for _, a := range [2]float64{lo[c], hi[c]} {
			for _, b := range [2]float64{lo[3], hi[3]} {
				r = math.Max(r, math.Abs(a/b-m))
			}
		}
		return m, r
	}
	nx, rx := ratio(0)
	ny, ry := ratio(1)
	nz, rz := ratio(2)
	var out vtx
	out.x, out.y = (nx+1)/2*W, (1-ny)/2*H
	// The GPU's own f32 division and viewport transform: 4 ULPs of the
	// larger of the coordinate and the target's size.
	out.ex = rx/2*W + 4*ulp32(math.Max(math.Abs(out.x), W))
	out.ey = ry/2*H + 4*ulp32(math.Max(math.Abs(out.y), H))
	dl := d.delta()
	out.hx, out.hy = out.ex+dl, out.ey+dl
	out.z, out.zt = nz, rz+2*ulp32(nz)
	out.q = 1 / w
	out.qt = math.Max(1/lo[3]-out.q, out.q-1/hi[3]) + 2*ulp32(out.q)
	return out, nil
}

// rasterize computes primitive p with vertices t.
func rasterize(d *Draw, p int, t [3]int, last int, verts []Vertex, vs []vtx) Primitive {
	pr := Primitive{Index: p, Vertices: t, Last: last}
	A, B, C := &vs[t[0]], &vs[t[1]], &vs[t[2]]
	// The signed area is multilinear in the six coordinates: its extremes
	// over the boxes lie at their corners.
	lo, hi := math.Inf(1), math.Inf(-1)
	for m := 0; m < 64; m++ {
		c := func(bit int, x, h float64) float64 {
			if m>>bit&1 == 0 {
				return x - h
			}
			return x + h
		}
		ax, ay := c(0, A.x, A.hx), c(1, A.y, A.hy)
		bx, by := c(2, B.x, B.hx), c(3, B.y, B.hy)
		cx, cy := c(4, C.x, C.hx), c(5, C.y, C.hy)
		a := -((bx-ax)*(cy-ay) - (by-ay)*(cx-ax)) / 2
		lo, hi = math.Min(lo, a), math.Max(hi, a)
	}
	pr.Area = Interval{lo, hi}
	// Which sign of the area is front-facing.
	frontSign := 1.0
	if d.FrontFace == FrontCW {
		frontSign = -1
	}
	switch {
	case lo > 0:
		pr.Facing = facingOf(frontSign > 0)
	case hi < 0:
		pr.Facing = facingOf(frontSign < 0)
	default:
		pr.Facing = FacingAmbiguous
	}
	switch {
	case d.CullMode == CullNone:
	case pr.Facing == FacingAmbiguous:
		pr.Culled = MaybeCulled
	case (d.CullMode == CullFront) == (pr.Facing == FrontFacing):
		pr.Culled = IsCulled
	}
	if pr.Culled == IsCulled {
		return pr
	}
	// The pixels whose centres may lie inside: the boxes' bounding box.
	x0 := math.Min(A.x-A.hx, math.Min(B.x-B.hx, C.x-C.hx))
	x1 := math.Max(A.x+A.hx, math.Max(B.x+B.hx, C.x+C.hx))
	y0 := math.Min(A.y-A.hy, math.Min(B.y-B.hy, C.y-C.hy))
	y1 := math.Max(A.y+A.hy, math.Max(B.y+B.hy, C.y+C.hy))
	px0, px1 := clampInt(int(math.Floor(x0-0.5)), d.Width), clampInt(int(math.Ceil(x1-0.5)), d.Width)
	py0, py1 := clampInt(int(math.Floor(y0-0.5)), d.Height), clampInt(int(math.Ceil(y1-0.5)), d.Height)
	quads := map[[2]int]bool{}
	for y := py0; y <= py1 && y < d.Height; y++ {
		for x := px0; x <= px1 && x < d.Width; x++ {
			if coverage(&pr, A, B, C, x, y) != Out {
				quads[[2]int{x &^ 1, y &^ 1}] = true
			}
		}
	}
	keys := make([][2]int, 0, len(quads))
	for k := range quads {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][1] != keys[j][1] {
			return keys[i][1] < keys[j][1]
		}
		return keys[i][0] < keys[j][0]
	})
	pl := newPlanes(d, &pr, verts, vs)
	for _, k := range keys {
		q := Quad{X: k[0], Y: k[1]}
		for l := 0; l < 4; l++ {
			x, y := k[0]+l&1, k[1]+l>>1
			ln := &q.Lanes[l]
			ln.InTarget = x < d.Width && y < d.Height
			ln.Fragment = pl.fragment(x, y)
			if ln.InTarget {
				ln.Coverage = coverage(&pr, A, B, C, x, y)
			}
		}
		pr.Quads = append(pr.Quads, q)
	}
	return pr
}

func facingOf(front bool) Facing {
	if front {
		return FrontFacing
	}
	return BackFacing
}

func clampInt(v, n int) int { return max(0, min(v, n-1)) }

// coverage classifies pixel (x, y)'s centre against the triangle over its
// vertices' boxes (package doc, assumption 1).
func coverage(pr *Primitive, A, B, C *vtx, x, y int) Coverage {
	px, py := float64(x)+0.5, float64(y)+0.5
	var e [3]Interval
	for i, ed := range [3][2]*vtx{{A, B}, {B, C}, {C, A}} {
		e[i] = edge(ed[0], ed[1], px, py)
	}
	var c Coverage
	switch pr.Facing {
	case FacingAmbiguous:
		// No orientation is certain: inside one would need all three of
		// one sign over every box, which makes the area's sign certain.
		neg, pos := false, false
		for _, v := range e {
			neg = neg || v.Hi < 0
			pos = pos || v.Lo > 0
		}
		if neg && pos {
			return Out
		}
		return Ambiguous
	default:
		// E = (A−P)×(B−P) has the sign of (B−A)×(C−A) inside, which is
		// −2·area.
		s := -1.0
		if pr.Area.Lo < 0 {
			s = 1
		}
		c = In
		for _, v := range e {
			lo, hi := v.Lo, v.Hi
			if s < 0 {
				lo, hi = -hi, -lo
			}
			if hi < 0 {
				return Out
			}
			if lo <= 0 {
				c = Ambiguous
			}
		}
	}
	if c == In && pr.Culled == MaybeCulled {
		c = Ambiguous
	}
	return c
}

// edge returns the interval of the edge function (a − P) × (b − P) over
// the boxes of a and b: ax·by − ay·bx, each product of two independent
// intervals, so the interval is exact.
func edge(a, b *vtx, px, py float64) Interval {
	ax := Interval{a.x - a.hx - px, a.x + a.hx - px}
	ay := Interval{a.y - a.hy - py, a.y + a.hy - py}
	bx := Interval{b.x - b.hx - px, b.x + b.hx - px}
	by := Interval{b.y - b.hy - py, b.y + b.hy - py}
	p, q := mul(ax, by), mul(ay, bx)
	return Interval{p.Lo - q.Hi, p.Hi - q.Lo}
}

func mul(a, b Interval) Interval {
	x1, x2, x3, x4 := a.Lo*b.Lo, a.Lo*b.Hi, a.Hi*b.Lo, a.Hi*b.Hi
	return Interval{math.Min(math.Min(x1, x2), math.Min(x3, x4)), math.Max(math.Max(x1, x2), math.Max(x3, x4))}
}

// ulp32 is the f32 ULP at |x| (the spacing of f32 values just above it).
func ulp32(x float64) float64 {
	f := float32(math.Abs(x))
	if math.IsInf(float64(f), 0) {
		return math.Inf(1)
	}
	return float64(math.Nextafter32(f, float32(math.Inf(1))) - f)
}
