package raster

import (
	"math"
	"math/rand"
	"testing"
)

// fbOf maps a vertex to framebuffer space in float64, independently of the
// package's code: WebGPU #coordinate-systems.
func fbOf(v Vertex, W, H int) (x, y float64) {
	w := float64(v.Position[3])
	return (float64(v.Position[0])/w + 1) / 2 * float64(W), (1 - float64(v.Position[1])/w) / 2 * float64(H)
}

// sideDist is the signed distance of p from the line through a and b,
// positive on the left of a→b in (x right, y down) coordinates.
func sideDist(ax, ay, bx, by, px, py float64) float64 {
	return ((bx-ax)*(py-ay) - (by-ay)*(px-ax)) / math.Hypot(bx-ax, by-ay)
}

// segDist is the distance of p from the segment a–b.
func segDist(ax, ay, bx, by, px, py float64) float64 {
	dx, dy := bx-ax, by-ay
	t := ((px-ax)*dx + (py-ay)*dy) / (dx*dx + dy*dy)
	t = math.Max(0, math.Min(1, t))
	return math.Hypot(px-ax-t*dx, py-ay-t*dy)
}

// TestInAndOutCentresAreFartherThanDeltaFromEveryEdge: for random
// triangles (and random pairs sharing an edge), every centre marked in
// lies inside the exact triangle farther than δ from each edge line, and
// every centre marked out lies outside it farther than δ from it (an
// independent float64 point-to-line computation); so no centre inside a
// pair's union is out in both.
func TestInAndOutCentresAreFartherThanDeltaFromEveryEdge(t *testing.T) {
	const W, H = 16, 16
	rng := rand.New(rand.NewSource(39))
	vert := func() Vertex {
		w := 0.5 + 2.5*rng.Float64()
		return Vertex{Position: [4]float32{
			float32((rng.Float64()*2.4 - 1.2) * w), float32((rng.Float64()*2.4 - 1.2) * w), float32(rng.Float64() * w), float32(w)}}
	}
	checked := [3]int{}
	for iter := 0; iter < 600; iter++ {
		delta := []float64{DefaultDelta, 1.0 / 64, 0.1}[iter%3]
		var vs []Vertex
		if iter%2 == 0 {
			vs = []Vertex{vert(), vert(), vert()}
		} else { // two triangles sharing the edge v1–v2
			a, b, c, e := vert(), vert(), vert(), vert()
			vs = []Vertex{a, b, c, e, c, b}
		}
		if iter%5 == 0 { // small triangles, edges near many centres
			for i := range vs {
				for c := 0; c < 2; c++ {
					vs[i].Position[c] *= 0.2
				}
			}
		}
		prims, err := Rasterize(Draw{Width: W, Height: H, Delta: delta}, vs)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range prims {
			var X, Y [3]float64
			for i, v := range p.Vertices {
				X[i], Y[i] = fbOf(vs[v], W, H)
			}
			cross := (X[1]-X[0])*(Y[2]-Y[0]) - (Y[1]-Y[0])*(X[2]-X[0])
			s := 1.0
			if cross < 0 {
				s = -1
			}
			cov := coverageMap(&p, W, H)
			for py := 0; py < H; py++ {
				for px := 0; px < W; px++ {
					cx, cy := float64(px)+0.5, float64(py)+0.5
					var d [3]float64
					inside := true
					dist := math.Inf(1)
					for i := 0; i < 3; i++ {
						j := (i + 1) % 3
						d[i] = s * sideDist(X[i], Y[i], X[j], Y[j], cx, cy)
						inside = inside && d[i] > 0
						dist = math.Min(dist, segDist(X[i], Y[i], X[j], Y[j], cx, cy))
					}
					switch cov[py][px] {
					case In:
						checked[0]++
						if !inside || math.Min(d[0], math.Min(d[1], d[2])) <= delta {
							t.Fatalf("iter %d prim %d: (%d,%d) in but edge distances %v (δ %v)", iter, p.Index, px, py, d, delta)
						}
					case Out:
						checked[1]++
						if inside || dist <= delta {
							t.Fatalf("iter %d prim %d: (%d,%d) out but inside %v at %v from the triangle (δ %v)", iter, p.Index, px, py, inside, dist, delta)
						}
					default:
						checked[2]++
					}
				}
			}
		}
	}
	// The property is not vacuous: many centres of each kind.
	for k, n := range checked {
		if n < 1000 {
			t.Errorf("only %d centres of kind %d", n, k)
		}
	}
}
