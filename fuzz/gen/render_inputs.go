package gen

import (
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// RenderTargetSize is the width and height, in pixels, of the colour
// attachments a render program's draw targets (RenderInputs.Width and
// Height).
const RenderTargetSize = 16

// RenderInputs is a render program's draw (Program.Draw) as plain data,
// drawn with the program from its seed (deterministic in it): the vertex
// attributes, the draw call's counts, the primitive state, the target,
// and the contents of the bindings. A non-indexed draw(VertexCount,
// InstanceCount) at firstVertex and firstInstance 0 (WebGPU
// #render-pass-encoder-drawing), each attribute in a vertex buffer of its
// own, every attachment cleared to zero.
type RenderInputs struct {
	// Attributes are the vertex entry point's @location inputs, in
	// location order.
	Attributes []RenderAttribute
	// VertexCount is the number of vertices per instance: a multiple of
	// 3 for a triangle list, at least 3 for a strip. InstanceCount ≥ 1.
	VertexCount, InstanceCount int
	// Topology is "triangle-list" or "triangle-strip" (WebGPU
	// GPUPrimitiveTopology); CullMode "none", "front" or "back"
	// (GPUCullMode); FrontFace "ccw" or "cw" (GPUFrontFace).
	Topology, CullMode, FrontFace string
	// Width and Height are the target's size in pixels (RenderTargetSize
	// each); one colour attachment per fragment output, of the 32-bit
	// format of its type (r32/rg32/rgba32 float, uint or sint).
	Width, Height int
	// Bindings holds the value of every var<uniform> the stages read, by
	// variable name (the shape testcase.MustBindingBuffers takes); empty
	// without one.
	Bindings map[string]ir.Value
	// Textures and Samplers are the contents of the sampled texture and
	// the description of the sampler the fragment samples it with, by
	// variable name; nil without them.
	Textures map[string]*interp.Texture
	Samplers map[string]*interp.Sampler
}

// RenderAttribute is one vertex attribute: the @location input it feeds
// (Name is the parameter, or "vin.member" for a member of the struct of
// inputs, and Path [parameter] or [parameter, member], as
// wgsl.StageInputs names and places it), its WGSL type (f32, i32, u32 or
// a vector of one), the GPUVertexFormat that carries it unconverted
// ("float32x2", "uint32", "sint32x4", …: WebGPU #vertex-formats), its
// step mode ("vertex" or "instance", GPUVertexStepMode) and its values:
// one per vertex (VertexCount) or per instance (InstanceCount).
//
// The position attribute ("pos", float32x2–4) holds x and y in
// multiples of 1/64 within [-0.875, 0.875] (z 0 and w 1 when present),
// triangles of at least 1/4 of NDC area each, the first one facing so
// that the cull mode keeps it; "tri" (a triangle list's, uint32) holds
// vertex / 3; the others hold Inputs' values (edge values first, f32
// integers in the exact domain).
type RenderAttribute struct {
	Location int
	Name     string
	Path     []int
	Type     *ir.Type
	Format   string
	StepMode string
	Values   []ir.Value
}

// VertexFormat returns the GPUVertexFormat that carries a WGSL vertex
// input of type t unconverted (WebGPU #vertex-formats): float32, uint32
// or sint32, with "xN" for a vecN; "" for any other type.
func VertexFormat(t *ir.Type) string { return ir.VertexFormatOf(t) }

// positionStep is the grid of the position attribute's x and y (1/64);
// positionMax their magnitude bound (56/64 = 0.875), in steps.
const (
	positionStep = 1.0 / 64
	positionMax  = 56
)

// minTriangleArea is the least NDC area (a quarter: 16 px² of a 16×16
// target) of a triangle of the position attribute.
const minTriangleArea = 0.25

// makeInputs draws the program's draw.
func (rg *renderGen) makeInputs() {
	r := rg.r
	in := &RenderInputs{Topology: "triangle-list", CullMode: "none", FrontFace: "ccw",
		Width: RenderTargetSize, Height: RenderTargetSize, Bindings: map[string]ir.Value{}}
	if rg.strip {
		in.Topology = "triangle-strip"
		in.VertexCount = r.between(3, 6)
	} else {
		in.VertexCount = 3 * r.between(1, 3)
	}
	in.InstanceCount = []int{1, 2, 3}[r.weighted(60, 25, 15)]
	in.CullMode = []string{"none", "back", "front"}[r.weighted(50, 30, 20)]
	if r.chance(40) {
		in.FrontFace = "cw"
	}
	seed := func() uint64 { return uint64(r.u32())<<32 | uint64(r.u32()) }

	var perVertex, perInstance []*ir.Param
	for _, a := range rg.attrs {
		if a.pos || a.tri {
			continue
		}
		p := &ir.Param{Name: a.name, T: a.t}
		if a.instance {
			perInstance = append(perInstance, p)
		} else {
			perVertex = append(perVertex, p)
		}
	}
	vrows := Inputs(seed(), perVertex, in.VertexCount)
	irows := Inputs(seed(), perInstance, in.InstanceCount)
	positions := rg.positions(in)
	vi, ii := 0, 0
	for _, a := range rg.attrs {
		ra := RenderAttribute{Location: a.loc, Name: a.name, Path: []int{a.param}, Type: a.t, Format: VertexFormat(a.t), StepMode: "vertex"}
		if rg.vin != nil {
			ra.Name, ra.Path = "vin."+a.name, []int{a.param, a.field}
		}
		switch {
		case a.pos:
			for _, p := range positions {
				es := []ir.Value{ir.F32Val(float32(p[0]) * positionStep), ir.F32Val(float32(p[1]) * positionStep), ir.F32Val(0), ir.F32Val(1)}
				ra.Values = append(ra.Values, ir.CompositeVal(a.t, es[:a.t.Len]...))
			}
		case a.tri:
			for v := 0; v < in.VertexCount; v++ {
				ra.Values = append(ra.Values, ir.U32Val(uint32(v/3)))
			}
		case a.instance:
			ra.StepMode = "instance"
			for _, row := range irows {
				ra.Values = append(ra.Values, row[ii])
			}
			ii++
		default:
			for _, row := range vrows {
				ra.Values = append(ra.Values, row[vi])
			}
			vi++
		}
		in.Attributes = append(in.Attributes, ra)
	}
	// Location order.
	for i := 1; i < len(in.Attributes); i++ {
		for j := i; j > 0 && in.Attributes[j].Location < in.Attributes[j-1].Location; j-- {
			in.Attributes[j], in.Attributes[j-1] = in.Attributes[j-1], in.Attributes[j]
		}
	}

	if u := rg.uniform; u != nil {
		k := r.between(0, 10)
		in.Bindings[u.Name] = Inputs(seed(), []*ir.Param{{Name: u.Name, T: u.T}}, k+1)[k][0]
	}
	if rg.tex != nil {
		format := []string{"rgba8unorm", "rgba16float"}[r.weighted(70, 30)]
		w, h := 1<<r.between(1, 3), 1<<r.between(1, 3)
		levels := 1
		if r.chance(40) {
			levels = 2
		}
		tg := &texGen{r: r}
		in.Textures = map[string]*interp.Texture{rg.tex.Name: tg.contents(format, w, h, 1, levels, false)}
		filter := func() string { return []string{"nearest", "linear"}[r.intn(2)] }
		in.Samplers = map[string]*interp.Sampler{rg.smp.Name: {
			AddressModeU: texAddressModes[r.intn(3)], AddressModeV: texAddressModes[r.intn(3)], AddressModeW: "clamp-to-edge",
			MagFilter: filter(), MinFilter: filter(), MipmapFilter: filter(), LodMaxClamp: 32}}
	}
	rg.inputs = in
}

// positions draws the position attribute's x and y, in positionSteps,
// one per vertex: every triangle (a list's, or each of a strip's) has at
// least minTriangleArea, and the first one is not culled by the draw's
// cull mode before the vertex stage moves it (by at most 1/8 in x and y,
// which a triangle this large rarely survives turning over).
func (rg *renderGen) positions(in *RenderInputs) [][2]int {
	r := rg.r
	point := func() [2]int {
		return [2]int{r.between(-positionMax, positionMax), r.between(-positionMax, positionMax)}
	}
	// area2 is twice the signed NDC area (y up: positive is
	// counter-clockwise), in positionSteps².
	area2 := func(a, b, c [2]int) int {
		return (b[0]-a[0])*(c[1]-a[1]) - (c[0]-a[0])*(b[1]-a[1])
	}
	const need = int(2 * minTriangleArea / (positionStep * positionStep))
	big := func(a, b, c [2]int) bool { x := area2(a, b, c); return x >= need || -x >= need }
	// next draws a point making a large triangle with a and b (a
	// bounded number of tries; the fallback is the opposite corner of a
	// fixed large triangle).
	next := func(a, b [2]int) [2]int {
		for try := 0; try < 32; try++ {
			if p := point(); big(a, b, p) {
				return p
			}
		}
		for _, p := range [][2]int{{positionMax, -positionMax}, {-positionMax, positionMax}, {positionMax, positionMax}, {-positionMax, -positionMax}} {
			if big(a, b, p) {
				return p
			}
		}
		return [2]int{positionMax, -positionMax}
	}
	// pair draws two points far apart (a bounded number of tries, then
	// a diagonal: a byte source may make every draw the same).
	pair := func() ([2]int, [2]int) {
		for try := 0; try < 32; try++ {
			a, b := point(), point()
			d := [2]int{b[0] - a[0], b[1] - a[1]}
			if d[0]*d[0]+d[1]*d[1] >= positionMax*positionMax/2 {
				return a, b
			}
		}
		return [2]int{-positionMax, -positionMax}, [2]int{positionMax, positionMax}
	}
	var ps [][2]int
	if in.Topology == "triangle-strip" {
		a, b := pair()
		ps = append(ps, a, b)
		for len(ps) < in.VertexCount {
			ps = append(ps, next(ps[len(ps)-2], ps[len(ps)-1]))
		}
	} else {
		for len(ps) < in.VertexCount {
			a, b := pair()
			ps = append(ps, a, b, next(a, b))
		}
	}
	// The first triangle survives culling: front-facing is
	// counter-clockwise (positive area) under "ccw".
	front := (area2(ps[0], ps[1], ps[2]) > 0) == (in.FrontFace == "ccw")
	if (in.CullMode == "back" && !front) || (in.CullMode == "front" && front) {
		// Mirrored in x, every triangle turns over and keeps its area.
		for i := range ps {
			ps[i][0] = -ps[i][0]
		}
	}
	return ps
}
