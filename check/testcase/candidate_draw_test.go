package testcase

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// A draw's shrinking candidate whose stages no longer read a uniform
// drops it from its inputs (a case file names only what the stages use),
// and keeps the one they still read.
func TestDrawCandidateDropsUnusedBindings(t *testing.T) {
	parse := func(src string) *ir.Module {
		m, err := wgsl.Parse("c.wgsl", []byte(src))
		require.NoError(t, err)
		return m
	}
	const head = `@group(0) @binding(0) var<uniform> u: vec4f;
@group(0) @binding(1) var<uniform> k: vec4f;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f { return vec4f(f32(i) * 0.1, 0.0, 0.5, 1.0) + k * 0.0; }
`
	m := parse(head + "@fragment fn fs() -> @location(0) vec4f { return u; }\n")
	c := &Case{Kind: KindDraw, Module: m, Func: m.Func("fs"), VertexModule: m, Vertex: m.Func("vs"), Draw: &harness.Draw{Count: 3},
		Bindings: map[string]ir.Buffer{"u": ir.ZeroBuffer(ir.Vec(4, ir.F32)), "k": ir.ZeroBuffer(ir.Vec(4, ir.F32))}}
	cand := parse(head + "@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }\n")
	out := c.WithFunction(cand, "fs", nil)
	require.Equal(t, KindDraw, out.Kind)
	assert.Equal(t, "vs", out.Vertex.Name)
	assert.Contains(t, out.Bindings, "k", "the vertex stage still reads k")
	assert.NotContains(t, out.Bindings, "u", "no stage of the candidate reads u")
	assert.Contains(t, c.Bindings, "u", "the case itself keeps its inputs")
}
