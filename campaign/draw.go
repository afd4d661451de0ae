package campaign

import (
	"fmt"
	"math"
	"time"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/fuzz/shrink"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// Draws in a campaign (the "render" profile: gen.Program.IsDraw): a
// vertex and a fragment entry point of one generated module, drawn with
// the generator's draw (gen.RenderInputs) as a draw case (check/draw.go).
// Like a compute entry point it is checked unbatched with check.Execute
// in the prep stage (entryProgram), and judged, confirmed, shrunk and
// saved through the one failing-case path (finishEntry, finishFailure):
// a shrinking candidate keeps the draw (testcase.Case.WithFunction).

// drawCase is the draw case of program p: one vertex buffer per
// attribute, its values encoded in the attribute's format and read back
// as the shader reads them (testcase.EncodeVertex, DecodeVertex), the
// generator's counts, topology, cull mode, front face and target, its
// uniforms, textures and samplers, every attachment cleared to zero.
func drawCase(p *gen.Program) (*testcase.Case, error) {
	in := p.Draw
	m := p.Module
	vs, fs := m.Func(p.Vertex), m.Func(p.Kernel)
	if vs == nil || fs == nil || in == nil {
		return nil, fmt.Errorf("campaign: render program %d has no vertex entry point %q, fragment entry point %q or draw", p.Seed, p.Vertex, p.Kernel)
	}
	d := &harness.Draw{Count: uint32(in.VertexCount), InstanceCount: uint32(in.InstanceCount), Topology: in.Topology,
		CullMode: in.CullMode, FrontFace: in.FrontFace}
	var inputs []testcase.VertexInput
	for _, a := range in.Attributes {
		buf := harness.VertexBuffer{Stride: uint64(harness.VertexFormatSize(a.Format)), StepMode: a.StepMode,
			Attributes: []harness.VertexAttribute{{Format: a.Format, ShaderLocation: uint32(a.Location)}}}
		vi := testcase.VertexInput{Name: a.Name, Path: a.Path, Location: a.Location, Format: a.Format, StepMode: a.StepMode}
		for _, v := range a.Values {
			b, err := testcase.EncodeVertex(a.Format, components(v))
			if err != nil {
				return nil, fmt.Errorf("campaign: render program %d, attribute %s: %v", p.Seed, a.Name, err)
			}
			read, err := testcase.DecodeVertex(a.Format, b, a.Type)
			if err != nil {
				return nil, fmt.Errorf("campaign: render program %d, attribute %s: %v", p.Seed, a.Name, err)
			}
			buf.Data = append(buf.Data, b...)
			vi.Values = append(vi.Values, read)
		}
		d.VertexBuffers = append(d.VertexBuffers, buf)
		inputs = append(inputs, vi)
	}
	c := &testcase.Case{Kind: testcase.KindDraw, Module: m, Func: fs, VertexModule: m, Vertex: vs, Draw: d, VertexInputs: inputs,
		Size: [2]uint32{uint32(in.Width), uint32(in.Height)}, Textures: in.Textures, Samplers: in.Samplers}
	// The bindings either stage uses (WGSL #resource-interface): a draw
	// binds no other.
	used := map[string]ir.Value{}
	for _, e := range []string{p.Vertex, p.Kernel} {
		for _, v := range m.SharedUsed(e) {
			if x, ok := in.Bindings[v.Name]; ok {
				used[v.Name] = x
			}
		}
	}
	if len(used) > 0 {
		bufs, err := testcase.BindingBuffers(m, used)
		if err != nil {
			return nil, fmt.Errorf("campaign: render program %d: %v", p.Seed, err)
		}
		c.Bindings = bufs
	}
	return c, nil
}

// components are a scalar or vector value's components as numbers, as
// testcase.EncodeVertex takes them (an integer's value, a float's).
func components(v ir.Value) []float64 {
	one := func(x ir.Value) float64 {
		switch x.Type.Kind {
		case ir.KindF32:
			return float64(math.Float32frombits(x.Bits))
		case ir.KindI32:
			return float64(int32(x.Bits))
		}
		return float64(x.Bits)
	}
	if v.Type.Kind != ir.KindVec {
		return []float64{one(v)}
	}
	out := make([]float64, len(v.Elems))
	for i, e := range v.Elems {
		out[i] = one(e)
	}
	return out
}

// startDraw prepares program i, a draw: its case, and a record whose runs
// the prep stage makes (entryProgram.run, as for a compute entry point).
func startDraw(cfg Config, i int, t0 time.Time, p *gen.Program) *program {
	rec := ProgramRecord{Index: i, Seed: p.Seed, Hash: ir.Hash(ir.ProgramText(p.Module, p.Kernel)), Stmts: shrink.Stmts(p.Module, p.Kernel)}
	opts := check.Options{Devices: cfg.Devices, Flat: true, SPIRV: cfg.SPIRV, Mode: cfg.Mode, Flatten: cfg.Flatten, Interp: cfg.Interp,
		Label: fmt.Sprintf("p%d/", i)}
	c, err := drawCase(p)
	if c != nil {
		rec.Invocations = int(c.Size[0] * c.Size[1])
	}
	return &program{i: i, t0: t0, p: p, opts: opts, rec: rec, done: true, entry: &entryProgram{c: c, opts: opts, err: err}}
}
