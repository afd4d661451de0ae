package raster

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// DefaultDelta is the coverage latitude δ in pixels when Draw.Delta is 0:
// half of 1/16 px, what snapping a vertex to 4 sub-pixel bits (Vulkan's
// minimum subPixelPrecisionBits) moves it by in x and in y.
const DefaultDelta = 1.0 / 32

// DefaultInterpULP is the number of f32 ULPs of the largest vertex value
// added to a float varying's interpolation bound when Draw.InterpULP is 0
// (package doc, assumption 2).
const DefaultInterpULP = 4

// Topology is a draw's GPUPrimitiveTopology (triangles only).
type Topology uint8

// The topologies (WebGPU #primitive-assembly).
const (
	TriangleList Topology = iota
	TriangleStrip
)

// CullMode is a draw's GPUCullMode.
type CullMode uint8

// The cull modes: none, cull front-facing or back-facing primitives.
const (
	CullNone CullMode = iota
	CullFront
	CullBack
)

// FrontFace is a draw's GPUFrontFace: which winding is front-facing.
type FrontFace uint8

// The windings, as seen on the target (y down) — the same as in clip space
// with y up.
const (
	FrontCCW FrontFace = iota
	FrontCW
)

// ParseTopology reads a GPUPrimitiveTopology name: "triangle-list" or
// "triangle-strip" ("" is triangle-list, WebGPU's default).
func ParseTopology(s string) (Topology, error) {
	switch s {
	case "", "triangle-list":
		return TriangleList, nil
	case "triangle-strip":
		return TriangleStrip, nil
	}
	return 0, fmt.Errorf("raster: topology %q (want triangle-list or triangle-strip)", s)
}

// ParseCullMode reads a GPUCullMode name: "none" (or ""), "front", "back".
func ParseCullMode(s string) (CullMode, error) {
	switch s {
	case "", "none":
		return CullNone, nil
	case "front":
		return CullFront, nil
	case "back":
		return CullBack, nil
	}
	return 0, fmt.Errorf("raster: cull mode %q (want none, front or back)", s)
}

// ParseFrontFace reads a GPUFrontFace name: "ccw" (or "") or "cw".
func ParseFrontFace(s string) (FrontFace, error) {
	switch s {
	case "", "ccw":
		return FrontCCW, nil
	case "cw":
		return FrontCW, nil
	}
	return 0, fmt.Errorf("raster: front face %q (want ccw or cw)", s)
}

// Interp is how a varying is interpolated (WGSL #interpolation): the
// interpolation type with its sampling where it matters.
type Interp uint8

// The interpolations. Perspective and Linear sample at the pixel centre
// (center sampling, WGSL's default; centroid and sample are outside v1);
// FlatFirst takes the primitive's first vertex's value (WGSL flat, and
// flat first); FlatEither the first or the last vertex's (flat, either).
const (
	Perspective Interp = iota
	Linear
	FlatFirst
	FlatEither
)

func (m Interp) String() string {
	switch m {
	case Perspective:
		return "perspective"
	case Linear:
		return "linear"
	case FlatFirst:
		return "flat, first"
	case FlatEither:
		return "flat, either"
	}
	return fmt.Sprintf("Interp(%d)", uint8(m))
}

// Varying describes one scalar leaf a vertex passes to the fragment stage
// (a @location output flattened to its scalars).
type Varying struct {
	// Type is ir.F32, ir.I32 or ir.U32; an integer leaf must be flat (WGSL
	// #interpolation: integer user-defined IO is flat).
	Type   *ir.Type
	Interp Interp
}

// Vertex is one vertex after the vertex stage, in the draw's vertex order
// (after index fetch).
type Vertex struct {
	// Position is @builtin(position), clip space (x, y, z, w).
	Position [4]float32
	// PosTol is each component's absolute tolerance (0: exact); +Inf or
	// NaN refuses the vertex.
	PosTol [4]float64
	// Values has one scalar per Draw.Varyings leaf, of its Type.
	Values []ir.Value
	// Tol is nil or one absolute tolerance per leaf (f32 leaves; +Inf:
	// any value, which every interpolation of it inherits).
	Tol []float64
}

// Draw is what the rasterizer needs of a draw call and its pipeline.
type Draw struct {
	Topology  Topology
	CullMode  CullMode
	FrontFace FrontFace
	// Width and Height are the target's size in pixels (> 0).
	Width, Height int
	// Varyings describes Vertex.Values, leaf by leaf.
	Varyings []Varying
	// Delta is the coverage latitude δ in pixels (package doc, assumption
	// 1); 0 means DefaultDelta. A calibration may lower it to measure an
	// adapter's margin.
	Delta float64
	// InterpULP is K of assumption 2, in f32 ULPs; 0 means
	// DefaultInterpULP.
	InterpULP float64
}

func (d *Draw) delta() float64 {
	if d.Delta > 0 {
		return d.Delta
	}
	return DefaultDelta
}

func (d *Draw) interpULP() float64 {
	if d.InterpULP > 0 {
		return d.InterpULP
	}
	return DefaultInterpULP
}

// VertexError refuses a draw: a vertex this version cannot rasterize
// soundly (w may be ≤ 0, z may lie outside [0, w]: it would be clipped,
// which v1 does not do; a position that is not a finite number), or a
// malformed vertex. The caller positions it at the vertex entry point.
type VertexError struct {
	// Vertex is the vertex's index in the list given to Rasterize;
	// Primitive the first primitive that uses it (-1: none).
	Vertex, Primitive int
	Msg               string
}

func (e *VertexError) Error() string {
	if e.Primitive >= 0 {
		return fmt.Sprintf("vertex %d (primitive %d): %s", e.Vertex, e.Primitive, e.Msg)
	}
	return fmt.Sprintf("vertex %d: %s", e.Vertex, e.Msg)
}

// Assemble returns the vertex indices of each primitive of n vertices in
// draw order (WebGPU #primitive-assembly): first, second and third
// vertex, the first being the provoking vertex, with a strip's odd
// triangles reordered (i, i+2, i+1) to keep the first triangle's
// winding; last is each primitive's last vertex in the strip's order
// (3i+2, or i+2), the other vertex flat either may take.
func Assemble(t Topology, n int) (tris [][3]int, last []int) {
	switch t {
	case TriangleStrip:
		for i := 0; i+2 < n; i++ {
			if i%2 == 0 {
				tris = append(tris, [3]int{i, i + 1, i + 2})
			} else {
				tris = append(tris, [3]int{i, i + 2, i + 1})
			}
			last = append(last, i+2)
		}
	default:
		for i := 0; i+2 < n; i += 3 {
			tris = append(tris, [3]int{i, i + 1, i + 2})
			last = append(last, i+2)
		}
	}
	return tris, last
}

// InterpOf maps a varying's @interpolate (as the front end gives it) for
// a leaf of scalar type t to the rasterizer's interpolation, WGSL's
// defaults filled in (ir.Interpolation.Resolved). centroid and sample
// sampling are refused: v1 samples at the pixel centre.
func InterpOf(in ir.Interpolation, t *ir.Type) (Interp, error) {
	r := in.Resolved(t)
	switch {
	case r.Type == ir.InterpFlat && r.Sampling == ir.SamplingFirst:
		return FlatFirst, nil
	case r.Type == ir.InterpFlat && r.Sampling == ir.SamplingEither:
		return FlatEither, nil
	case r.Type == ir.InterpPerspective && r.Sampling == ir.SamplingCenter:
		return Perspective, nil
	case r.Type == ir.InterpLinear && r.Sampling == ir.SamplingCenter:
		return Linear, nil
	}
	return 0, fmt.Errorf("raster: %s is not supported (v1 samples at the pixel centre)", in.Attr())
}
