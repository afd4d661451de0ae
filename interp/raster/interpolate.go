package raster

import (
	"math"

	"github.com/gpudiff/gpudiff/ir"
)

// planes is a primitive's interpolation state: its vertices at their
// centres and each screen-space weight's plane λᵢ(P) = (cᵢ + gᵢ·P)/area2.
type planes struct {
	d     *Draw
	pr    *Primitive
	v     [3]*vtx
	in    [3]*Vertex
	last  *Vertex
	cross float64       // (B−A)×(C−A) at the centres
	g     [3][2]float64 // ∇λᵢ
	e     float64       // the vertices' own position bound (L∞)
}

func newPlanes(d *Draw, pr *Primitive, verts []Vertex, vs []vtx) *planes {
	pl := &planes{d: d, pr: pr, last: &verts[pr.Last]}
	for i, t := range pr.Vertices {
		pl.v[i], pl.in[i] = &vs[t], &verts[t]
		pl.e = math.Max(pl.e, math.Max(vs[t].ex, vs[t].ey))
	}
	A, B, C := pl.v[0], pl.v[1], pl.v[2]
	pl.cross = (B.x-A.x)*(C.y-A.y) - (B.y-A.y)*(C.x-A.x)
	// λ_A = (B−P)×(C−P)/cross: ∇ = (B.y − C.y, C.x − B.x)/cross, and
	// cyclically.
	for i := 0; i < 3; i++ {
		b, c := pl.v[(i+1)%3], pl.v[(i+2)%3]
		pl.g[i] = [2]float64{(b.y - c.y) / pl.cross, (c.x - b.x) / pl.cross}
	}
	return pl
}

// weights returns the screen-space weights at (px, py).
func (pl *planes) weights(px, py float64) [3]float64 {
	var l [3]float64
	for i := 0; i < 3; i++ {
		b, c := pl.v[(i+1)%3], pl.v[(i+2)%3]
		l[i] = ((b.x-px)*(c.y-py) - (b.y-py)*(c.x-px)) / pl.cross
	}
	return l
}

// fragment computes the fragment at pixel (x, y) (its Coverage is set by
// the caller).
func (pl *planes) fragment(x, y int) Fragment {
	f := Fragment{X: x, Y: y}
	px, py := float64(x)+0.5, float64(y)+0.5
	f.Position[0] = ir.ValueSet{Values: []uint32{math.Float32bits(float32(px))}}
	f.Position[1] = ir.ValueSet{Values: []uint32{math.Float32bits(float32(py))}}
	f.Varyings = make([]ir.ValueSet, len(pl.d.Varyings))
	degenerate := pl.cross == 0 || math.IsInf(pl.g[0][0], 0) || math.IsNaN(pl.g[0][0])
	r := pl.d.delta() + pl.e
	K := pl.d.interpULP()
	var lam, mu [3]float64
	var D float64
	if !degenerate {
		lam = pl.weights(px, py)
		for i := 0; i < 3; i++ {
			D += lam[i] * pl.v[i].q
		}
		// D is positive inside the triangle; a helper far outside a
		// primitive whose w vary wildly may reach D ≤ 0, where
		// perspective interpolation has no value.
		if !(D > 0) {
			degenerate = true
		}
	}
	if degenerate {
		for i := range f.Linear {
			f.Linear[i] = Interval{math.Inf(-1), math.Inf(1)}
			f.Perspective[i] = f.Linear[i]
		}
	} else {
		for i := 0; i < 3; i++ {
			mu[i] = lam[i] * pl.v[i].q / D
			n := math.Abs(pl.g[i][0]) + math.Abs(pl.g[i][1])
			f.Linear[i] = around(lam[i], n*r)
			// ∇μᵢ = qᵢ(∇λᵢ − μᵢ Σⱼ qⱼ∇λⱼ)/D.
			var gx, gy float64
			for j := 0; j < 3; j++ {
				gx += pl.v[j].q * pl.g[j][0]
				gy += pl.v[j].q * pl.g[j][1]
			}
			mx := pl.v[i].q * (pl.g[i][0] - mu[i]*gx) / D
			my := pl.v[i].q * (pl.g[i][1] - mu[i]*gy) / D
			f.Perspective[i] = around(mu[i], (math.Abs(mx)+math.Abs(my))*r)
		}
	}
	// linear interpolates values vals (within tols) in screen space.
	linear := func(vals, tols [3]float64) ir.ValueSet {
		if degenerate {
			return ir.ValueSet{}
		}
		var v, gx, gy, t, m float64
		for i := 0; i < 3; i++ {
			v += lam[i] * vals[i]
			gx += pl.g[i][0] * vals[i]
			gy += pl.g[i][1] * vals[i]
			t += math.Abs(lam[i]) * tols[i]
			m = math.Max(m, math.Abs(vals[i]))
		}
		return f32Set(v, (math.Abs(gx)+math.Abs(gy))*r+t+K*ulp32(m))
	}
	f.Position[2] = linear([3]float64{pl.v[0].z, pl.v[1].z, pl.v[2].z}, [3]float64{pl.v[0].zt, pl.v[1].zt, pl.v[2].zt})
	f.Position[3] = linear([3]float64{pl.v[0].q, pl.v[1].q, pl.v[2].q}, [3]float64{pl.v[0].qt, pl.v[1].qt, pl.v[2].qt})
	for k, vy := range pl.d.Varyings {
		switch vy.Interp {
		case FlatFirst, FlatEither:
			s := flatSet(pl.in[0], k)
			if vy.Interp == FlatEither && !s.IsAny() {
				o := flatSet(pl.last, k)
				if o.IsAny() {
					s = o
				} else if u, ok := s.Add(o.Values[0], tolAt(o, 0)); ok {
					s = u
				}
			}
			f.Varyings[k] = s
			continue
		}
		var vals, tols [3]float64
		anyIn := false
		for i := 0; i < 3; i++ {
			vals[i] = float64(pl.in[i].Values[k].F32())
			if pl.in[i].Tol != nil {
				tols[i] = pl.in[i].Tol[k]
			}
			if math.IsNaN(vals[i]) || math.IsInf(vals[i], 0) || math.IsInf(tols[i], 0) || math.IsNaN(tols[i]) {
				anyIn = true
			}
		}
		if anyIn || degenerate {
			continue // any value
		}
		if vy.Interp == Linear {
			f.Varyings[k] = linear(vals, tols)
			continue
		}
		// Perspective: f = Σ μᵢ fᵢ; ∇f = Σ qᵢ∇λᵢ (fᵢ − f)/D; ∂f/∂qᵢ =
		// λᵢ (fᵢ − f)/D.
		var v, gx, gy, t, m float64
		for i := 0; i < 3; i++ {
			v += mu[i] * vals[i]
			m = math.Max(m, math.Abs(vals[i]))
		}
		for i := 0; i < 3; i++ {
			w := pl.v[i].q * (vals[i] - v) / D
			gx += pl.g[i][0] * w
			gy += pl.g[i][1] * w
			t += math.Abs(mu[i])*tols[i] + math.Abs(lam[i]*(vals[i]-v)/D)*pl.v[i].qt
		}
		f.Varyings[k] = f32Set(v, (math.Abs(gx)+math.Abs(gy))*r+t+K*ulp32(m))
	}
	return f
}

// f32Set is the set of f32 values within tol of v: the nearest f32 m with
// tol widened by |m − v|. A non-finite value or bound is any value.
func f32Set(v, tol float64) ir.ValueSet {
	m := float32(v)
	t := tol + math.Abs(float64(m)-v)
	if math.IsInf(float64(m), 0) || math.IsNaN(v) || math.IsInf(t, 0) || math.IsNaN(t) {
		return ir.ValueSet{}
	}
	s := ir.ValueSet{Values: []uint32{math.Float32bits(m)}}
	if t > 0 {
		s.Tol = []float64{t}
	}
	return s
}

// flatSet is vertex v's value of varying k as a one-member set (within its
// tolerance), or any value.
func flatSet(v *Vertex, k int) ir.ValueSet {
	x := v.Values[k]
	t := 0.0
	if v.Tol != nil {
		t = v.Tol[k]
	}
	if x.Type.Kind == ir.KindF32 {
		if math.IsInf(t, 0) || math.IsNaN(t) {
			return ir.ValueSet{}
		}
		f := float64(x.F32())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return ir.ValueSet{}
		}
	} else {
		t = 0
	}
	s := ir.ValueSet{Values: []uint32{x.Bits}}
	if t > 0 {
		s.Tol = []float64{t}
	}
	return s
}

func tolAt(s ir.ValueSet, i int) float64 {
	if s.Tol == nil {
		return 0
	}
	return s.Tol[i]
}
