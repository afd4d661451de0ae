package gen_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// Two small render programs checked by hand: their stages' values
// derived from the printed program and its draw (the derivations in the
// comments), then run in the reference. They pin the generator's stream
// for these seeds as well: a change to what gen draws changes them, and
// they are re-derived by hand, never copied from a run.

// fragmentArgs returns fs's arguments from its inputs' values by name
// (wgsl.StageInputs' names: "p" or "p.member"), structs assembled.
func fragmentArgs(t *testing.T, fs *ir.Func, vals map[string]ir.Value) []ir.Value {
	t.Helper()
	args := make([]ir.Value, len(fs.Params))
	members := map[int][]ir.Value{}
	for _, io := range wgsl.StageInputs(fs) {
		v, ok := vals[io.Name]
		require.True(t, ok, "no value for %s", io.Name)
		require.True(t, ir.Identical(io.T, v.Type), "%s is %v, the value %v", io.Name, io.T, v.Type)
		if len(io.Path) == 1 {
			args[io.Path[0]] = v
			continue
		}
		members[io.Path[0]] = append(members[io.Path[0]], v)
	}
	for p, ms := range members {
		args[p] = ir.CompositeVal(fs.Params[p].T, ms...)
	}
	return args
}

func vec(t *ir.Type, xs ...float32) ir.Value {
	es := make([]ir.Value, len(xs))
	for i, x := range xs {
		es[i] = ir.F32Val(x)
	}
	return ir.CompositeVal(t, es...)
}

func runVertices(t *testing.T, p *gen.Program) []ir.Value {
	t.Helper()
	d := p.Draw
	vs := p.Module.Func(p.Vertex)
	prog, err := interp.CompileBindings(p.Module, p.Vertex, d.Bindings)
	require.NoError(t, err)
	var args [][]ir.Value
	for v := 0; v < d.VertexCount; v++ {
		args = append(args, vertexArgs(t, vs, d, v, 0))
	}
	invs, err := prog.Run(args, interp.Options{Textures: d.Textures, Samplers: d.Samplers})
	require.NoError(t, err)
	var out []ir.Value
	for _, inv := range invs {
		require.NoError(t, inv.Err)
		out = append(out, inv.Outputs[0].Value)
	}
	return out
}

// TestRenderHandCheckedStrip is seed 7 at Size 2: a strip of 5
// vertices, back culling, cw front face, one instance, a uniform u =
// Uniforms(f0 (2147483647, 2), f1 -2, f2 (4294967295, 2147483648), f3
// 2). By hand from its print:
//
//	vs: acc = 401u, so pxy = clamp(pos + clamp(-401, -2, 2)·0.0625) =
//	    pos − 0.125 (every pos here keeps it within ±0.9375); pz = 0.5 +
//	    clamp(f32(ii) = 0)·0.0625 = 0.5; pw = 1 + clamp(f32(min(u.f2.y,
//	    2^23)) = 2^23, 0, 4)·0.25 = 2: position (2(x − 0.125), 2(y −
//	    0.125), 1, 2); v0 = (vi + 10, vi − 4, vi − 14) + 401 = (411 + vi,
//	    397 + vi, 387 + vi) (perspective).
//	fs: the discard's condition u.f1 != u.f1 is false; acc = f32(u.f0.y
//	    = 2) + (13, -1294, 15, 12) = (15, -1292, 17, 14); g1 is 0, so the
//	    result is (clamp(acc[0], -7, 11) = 11, array(-3321, -3)[min(
//	    clamp(u.f2[0], 7, 15), 1) = 1] + acc.x = 12, floor(14 / 8) = 1,
//	    acc[2] = 17) at every pixel, whatever its varyings.
func TestRenderHandCheckedStrip(t *testing.T) {
	cfg := renderConfig(t)
	cfg.Size = 2
	p := gen.Generate(7, cfg)
	d := p.Draw
	require.Equal(t, "triangle-strip", d.Topology)
	require.Equal(t, 5, d.VertexCount)
	require.Equal(t, 1, d.InstanceCount)
	assert.Equal(t, "back", d.CullMode)
	assert.Equal(t, "cw", d.FrontFace)
	v4 := ir.Vec(4, ir.F32)
	v3 := ir.Vec(3, ir.F32)

	var pos gen.RenderAttribute
	for _, a := range d.Attributes {
		if a.Name == "pos" {
			pos = a
		}
	}
	require.Len(t, pos.Values, 5)
	vs := p.Module.Func(p.Vertex)
	for v, ret := range runVertices(t, p) {
		x, y := pos.Values[v].Elems[0].F32(), pos.Values[v].Elems[1].F32()
		want := vec(v4, 2*(x-0.125), 2*(y-0.125), 1, 2)
		assert.True(t, ir.Equal(want, vertexPosition(vs, ret)), "vertex %d: %v, want %v", v, vertexPosition(vs, ret), want)
		found := 0
		for _, o := range wgsl.StageOutputs(vs) {
			if o.Location == 0 {
				f := float32(v)
				assert.True(t, ir.Equal(vec(v3, 411+f, 397+f, 387+f), ret.Elems[o.Path[0]]), "vertex %d's v0", v)
				found++
			}
		}
		require.Equal(t, 1, found, "vs has one varying, v0")
	}

	fs := p.Module.Func(p.Kernel)
	prog, err := interp.CompileBindings(p.Module, p.Kernel, d.Bindings)
	require.NoError(t, err)
	invs, err := prog.RunQuads(func(x, y int) []ir.Value {
		return fragmentArgs(t, fs, map[string]ir.Value{
			"vin.pos": vec(v4, float32(x)+0.5, float32(y)+0.5, 0.5, 0.5),
			"vin.v0":  vec(v3, float32(x), float32(y), 3),
		})
	}, d.Width, d.Height, interp.Options{})
	require.NoError(t, err)
	require.Len(t, invs, 256)
	want := vec(v4, 11, 12, 1, 17)
	for i, inv := range invs {
		require.NoError(t, inv.Err, "pixel %d", i)
		assert.False(t, inv.Discarded || inv.MayDiscard, "pixel %d", i)
		assert.True(t, ir.Equal(want, inv.Outputs[0].Value), "pixel %d: %v", i, inv.Outputs[0].Value)
	}
}

// TestRenderHandCheckedSampledTriangle is seed 1 at Size 3: one
// triangle, no culling, a texture sampled at the uv varying, a discard
// before the derivatives. By hand from its print:
//
//	vs: acc = (15, -13, 2817, -6); g1 %= ~ii leaves g1 = 0; pxy = pos +
//	    clamp((2817, 15), -2, 2)·0.0625 = pos + 0.125; pz = 0.5 +
//	    clamp(trunc(-13 / 2) = -6)·0.0625 = 0.125; pw = 1: position (x +
//	    0.125, y + 0.125, 0.125, 1); v0 = clamp((-6, 15)·(-13, 15) =
//	    (78, 225), -8, 8)·0.125 = (1, 1).
//	fs: h0(false, …) returns max(g1, g0) = 0, so the discard's 0 > px.y
//	    never holds; d1 = dpdxFine(1/w) = 0 (w is 1 at every pixel); acc =
//	    -f32(y) in every component; the result is (ts0.z + clamp(-y, -16,
//	    16), -2y, y², d1 = 0) at pixel (x, y), ts0 the texture's sample at
//	    (1, 1).
func TestRenderHandCheckedSampledTriangle(t *testing.T) {
	cfg := renderConfig(t)
	cfg.Size = 3
	p := gen.Generate(1, cfg)
	d := p.Draw
	require.Equal(t, "triangle-list", d.Topology)
	require.Equal(t, 3, d.VertexCount)
	assert.Equal(t, "none", d.CullMode)
	require.NotNil(t, d.Textures["tex"])
	require.NotNil(t, d.Samplers["smp"])
	v4 := ir.Vec(4, ir.F32)
	v2 := ir.Vec(2, ir.F32)

	vs := p.Module.Func(p.Vertex)
	var pos gen.RenderAttribute
	for _, a := range d.Attributes {
		if a.Name == "pos" {
			pos = a
		}
	}
	for v, ret := range runVertices(t, p) {
		x, y := pos.Values[v].Elems[0].F32(), pos.Values[v].Elems[1].F32()
		want := vec(v4, x+0.125, y+0.125, 0.125, 1)
		assert.True(t, ir.Equal(want, vertexPosition(vs, ret)), "vertex %d: %v, want %v", v, vertexPosition(vs, ret), want)
		found := 0
		for _, o := range wgsl.StageOutputs(vs) {
			if o.Location == 0 {
				assert.True(t, ir.Equal(vec(v2, 1, 1), ret.Elems[o.Path[0]]), "vertex %d's v0", v)
				found++
			}
		}
		require.Equal(t, 1, found, "vs has one varying, v0")
	}

	fs := p.Module.Func(p.Kernel)
	prog, err := interp.CompileBindings(p.Module, p.Kernel, d.Bindings)
	require.NoError(t, err)
	invs, err := prog.RunQuads(func(x, y int) []ir.Value {
		return fragmentArgs(t, fs, map[string]ir.Value{
			"v0":   vec(v2, 1, 1),
			"fpos": vec(v4, float32(x)+0.5, float32(y)+0.5, 0.125, 1),
		})
	}, d.Width, d.Height, interp.Options{Textures: d.Textures, Samplers: d.Samplers})
	require.NoError(t, err)
	require.Len(t, invs, 256)
	for i, inv := range invs {
		require.NoError(t, inv.Err, "pixel %d", i)
		assert.False(t, inv.Discarded || inv.MayDiscard, "pixel %d", i)
		y := float32(i / d.Width)
		out := inv.Outputs[0].Value.Elems[0] // FOut's c0
		assert.Equal(t, -2*y, out.Elems[1].F32(), "pixel %d", i)
		assert.Equal(t, y*y, out.Elems[2].F32(), "pixel %d", i)
		assert.Equal(t, float32(0), out.Elems[3].F32(), "pixel %d", i)
	}
}
