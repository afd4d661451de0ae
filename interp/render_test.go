package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

const renderSrc = `struct U {
  scale: vec2<f32>,
  offset: vec2<f32>,
}
@group(0) @binding(0) var<uniform> u: U;

struct VOut {
  @builtin(position) pos: vec4<f32>,
  @location(0) @interpolate(flat) id: u32,
}

@vertex
fn vs(@builtin(vertex_index) vi: u32, @location(0) p: vec2<f32>) -> VOut {
  var xy = array<vec2<f32>, 3>(vec2(0.0, 0.5), vec2(-0.5, -0.5), vec2(0.5, -0.5));
  var o: VOut;
  o.pos = vec4(xy[vi] * u.scale + u.offset + p, 0.0, 1.0);
  o.id = vi * 10u;
  return o;
}

@fragment
fn fs(@builtin(position) pos: vec4<f32>, @location(0) @interpolate(flat) id: u32) -> @location(0) vec4<f32> {
  if (pos.x < 2.0) {
    discard;
  }
  return vec4(pos.x, f32(id), 0.0, 1.0);
}
`

func parseRender(t *testing.T) *ir.Module {
	t.Helper()
	m, err := wgsl.Parse("r.wgsl", []byte(renderSrc))
	require.NoError(t, err)
	return m
}

func vec(t *ir.Type, xs ...float32) ir.Value {
	var es []ir.Value
	for _, x := range xs {
		es = append(es, ir.F32Val(x))
	}
	return ir.CompositeVal(t, es...)
}

// TestVertexStageRunsPerVertex: a vertex entry point runs as a function
// once per vertex, reading a uniform binding baked in by
// CompileBindings. By hand: vertex 1 is xy[1] = (-0.5, -0.5); with scale
// (2, 4), offset (0.25, 0) and the attribute (0.125, 0.5) its position is
// (-0.5·2 + 0.25 + 0.125, -0.5·4 + 0 + 0.5, 0, 1) = (-0.625, -1.5, 0, 1),
// its id 10.
func TestVertexStageRunsPerVertex(t *testing.T) {
	m := parseRender(t)
	vs, err := wgsl.VertexEntry(m, "")
	require.NoError(t, err)
	v2, v4 := ir.Vec(2, ir.F32), ir.Vec(4, ir.F32)
	ut := m.SharedVar("u").T
	p, err := CompileBindings(m, vs.Name, map[string]ir.Value{"u": ir.CompositeVal(ut, vec(v2, 2, 4), vec(v2, 0.25, 0))})
	require.NoError(t, err)
	invs, err := p.Run([][]ir.Value{
		{ir.U32Val(1), vec(v2, 0.125, 0.5)},
		{ir.U32Val(0), vec(v2, 0, 0)},
	}, Options{})
	require.NoError(t, err)
	require.NoError(t, invs[0].Err)
	ret := invs[0].Outputs[0].Value
	assert.True(t, ir.Equal(vec(v4, -0.625, -1.5, 0, 1), ret.Elems[0]), "position %v", ret.Elems[0])
	assert.Equal(t, uint32(10), ret.Elems[1].U32())
	// Vertex 0: (0·2 + 0.25, 0.5·4) = (0.25, 2).
	assert.True(t, ir.Equal(vec(v4, 0.25, 2, 0, 1), invs[1].Outputs[0].Value.Elems[0]))
	assert.False(t, invs[0].Discarded)

	_, err = Compile(m, vs.Name)
	require.Error(t, err, "a binding the vertex stage reads needs a value")
	assert.Contains(t, err.Error(), "reads binding u, whose value is not given")
}

// TestDiscardDemotes: a fragment left of x = 2 discards (WGSL
// #discard-statement): it keeps running — its output is still computed,
// (1.5, 20, 0, 1) for pos.x = 1.5 and id 20 — and Discarded says so; one
// right of it is not demoted.
func TestDiscardDemotes(t *testing.T) {
	m := parseRender(t)
	fs, err := wgsl.DrawFragmentEntry(m, "")
	require.NoError(t, err)
	p, err := Compile(m, fs.Name)
	require.NoError(t, err)
	v4 := ir.Vec(4, ir.F32)
	invs, err := p.Run([][]ir.Value{
		{vec(v4, 1.5, 0.5, 0, 1), ir.U32Val(20)},
		{vec(v4, 2.5, 0.5, 0, 1), ir.U32Val(20)},
	}, Options{})
	require.NoError(t, err)
	assert.True(t, invs[0].Discarded)
	assert.True(t, invs[0].MayDiscard)
	assert.True(t, ir.Equal(vec(v4, 1.5, 20, 0, 1), invs[0].Outputs[0].Value), "a helper keeps computing: %v", invs[0].Outputs[0].Value)
	assert.False(t, invs[1].Discarded)
	assert.False(t, invs[1].MayDiscard)
	assert.True(t, ir.Equal(vec(v4, 2.5, 20, 0, 1), invs[1].Outputs[0].Value))
}

// TestDiscardOnAnIndeterminateBranch: with pos.x NaN the comparison is
// indeterminate, both paths run (fork.go): one discards, one does not,
// so the fragment may or may not be demoted.
func TestDiscardOnAnIndeterminateBranch(t *testing.T) {
	m := parseRender(t)
	p, err := Compile(m, "fs")
	require.NoError(t, err)
	v4 := ir.Vec(4, ir.F32)
	nan := ir.CompositeVal(v4, ir.ScalarVal(ir.F32, 0x7fc00000), ir.F32Val(0), ir.F32Val(0), ir.F32Val(1))
	invs, err := p.Run([][]ir.Value{{nan, ir.U32Val(1)}}, Options{})
	require.NoError(t, err)
	assert.False(t, invs[0].Discarded)
	assert.True(t, invs[0].MayDiscard)
}
