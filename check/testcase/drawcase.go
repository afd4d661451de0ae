package testcase

import (
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// A draw case (KindDraw, issue 39): a @vertex and a @fragment entry point
// drawn together in one render pipeline as written — from one module, or
// from two (gpudiff exec VERT.wgsl FRAG.wgsl; WebGPU takes a module per
// stage). On Case: Module and Func are the fragment stage's module and
// entry point, VertexModule and Vertex the vertex stage's (VertexModule is
// Module when one file has both); Draw is the draw call as the GPU gets it
// (vertex buffers' bytes, layouts and step modes, the index buffer, the
// counts, topology, cull mode, front face, one clear value per
// attachment); VertexInputs what the vertex stage reads from those
// buffers, decoded for the reference; Attachments one colour format per
// fragment @location output; Size the target; Bindings, Textures and
// Samplers every binding either stage uses, by variable name
// (check/testcase/drawload.go reads them, drawfill.go makes them up,
// drawinputs.go is their inputs file's form).

// VertexInput is one @location input of the vertex entry point as a draw
// feeds it (WebGPU #vertex-processing): the input's name and Path
// (wgsl.StageIO's: [parameter] or [parameter, member]), its @location,
// the GPUVertexFormat its buffer holds (WebGPU #vertex-formats), its step
// mode ("vertex" or "instance") and Values, the value the shader reads for
// each buffer element: with step mode "vertex" Values[vertexIndex] (the
// vertex index the draw fetches, after the index buffer and baseVertex),
// with "instance" Values[instanceIndex]. Each value has the shader
// input's type and is decode(encode(value)) through Format
// (DecodeVertex): a unorm8x4 value is k/255, a float16 one a binary16
// value, and the components a format lacks read (0, 0, 0, 1).
type VertexInput struct {
	Name     string
	Path     []int
	Location int
	Format   string
	StepMode string
	Values   []ir.Value
}

// VertexModuleOrModule is the module of c's vertex entry point:
// VertexModule, or Module when the case has one module.
func (c *Case) VertexModuleOrModule() *ir.Module {
	if c.VertexModule != nil {
		return c.VertexModule
	}
	return c.Module
}

// TwoModules reports whether c is a draw of two modules (a vertex and a
// fragment file), each with its own bindings.
func (c *Case) TwoModules() bool {
	return c.VertexModule != nil && c.VertexModule != c.Module
}

// DefaultClear is the clear value of a draw's attachment that the inputs
// do not give: transparent black (WebGPU GPUColor's zero).
var DefaultClear = [4]float64{0, 0, 0, 0}

// drawState is harness.Draw's topology, cull mode and front face named
// as their defaults resolve (harness.Dispatch.EffectiveDraw).
func drawState(d *harness.Draw) (topology, cull, front string) {
	topology, cull, front = d.Topology, d.CullMode, d.FrontFace
	if topology == "" {
		topology = "triangle-list"
	}
	if cull == "" {
		cull = "none"
	}
	if front == "" {
		front = "ccw"
	}
	return
}
