package wgsl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// TestFragmentEntryParses: a @fragment entry point with @builtin(position)
// and a struct of @location outputs is in the subset: its stage, its
// outputs in location order, and its printed form keep the attributes
// (the emitted WGSL is the entry point as written).
func TestFragmentEntryParses(t *testing.T) {
	src := `struct Out {
  @location(1) id: u32,
  @location(0) c: vec4<f32>,
}

@fragment
fn fs(@builtin(position) p: vec4<f32>) -> Out {
  return Out(u32(p.x), vec4<f32>(p.x, p.y, 0.0, 1.0));
}

@fragment
fn one(@builtin(position) p: vec4<f32>) -> @location(0) i32 {
  return i32(p.y);
}
`
	m, err := Parse("f.wgsl", []byte(src))
	require.NoError(t, err)
	require.NoError(t, ir.Verify(m))
	f := m.Func("fs")
	require.NotNil(t, f)
	assert.Equal(t, ir.StageFragment, f.Stage)
	assert.Equal(t, "6:1", f.StagePos.String())
	outs := FragmentOutputs(f)
	require.Len(t, outs, 2)
	assert.Equal(t, FragmentOutput{Location: 0, T: ir.Vec(4, ir.F32), Member: 1, Name: "c"}, outs[0])
	assert.Equal(t, 1, outs[1].Location)
	assert.Equal(t, 0, m.Func("one").ResultLocation)
	assert.True(t, IsFragmentMode(m, "one"))
	assert.False(t, IsEntryMode(m, "fs"))
	_, err = FragmentEntry(m, "")
	assert.ErrorContains(t, err, "f.wgsl:6:1: check: ambiguous entry point: the module has 2 fragment entry points: fs (6:1), one (11:1)")
	_, err = Kernel(m, "fs")
	assert.ErrorContains(t, err, "kernel fs is a fragment entry point: it runs as written (gpudiff exec --size WxH)")

	text, err := EmitFragment(m, "fs", EmitOptions{})
	require.NoError(t, err)
	for _, want := range []string{"  @location(1) id: u32,\n  @location(0) c: vec4<f32>,", "@fragment\nfn fs(@builtin(position) p: vec4<f32>) -> Out {"} {
		assert.Contains(t, text, want)
	}
	text, err = EmitFragment(m, "one", EmitOptions{})
	require.NoError(t, err)
	assert.Contains(t, text, "@fragment\nfn one(@builtin(position) p: vec4<f32>) -> @location(0) i32 {")
	m2, err := Parse("again.wgsl", []byte(text))
	require.NoError(t, err, "the emitted entry point parses back:\n%s", text)
	assert.Equal(t, ir.StageFragment, m2.Func("one").Stage)
}

// TestFragmentEntryRefusals: what gpudiff does not run of a fragment
// entry point is refused where it is written (file:line:col), by the
// front end (outside the subset, or an error) or by FragmentEntry.
func TestFragmentEntryRefusals(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"discard", "@fragment\nfn f(@builtin(position) p: vec4<f32>) -> @location(0) f32 {\n  if (p.x > 2.0) {\n    discard;\n  }\n  return p.x;\n}\n",
			"t.wgsl:4:5: check: fragment entry point f is outside the gpudiff subset: discard statement"},
		{"writable storage texture", "@group(0) @binding(0) var o: texture_storage_2d<rgba8unorm, write>;\n@fragment\nfn f(@builtin(position) p: vec4<f32>) -> @location(0) f32 {\n  textureStore(o, vec2<u32>(p.xy), vec4<f32>(1.0));\n  return p.x;\n}\n",
			"t.wgsl:4:16: check: fragment entry point f uses storage texture o with write access: gpudiff's fragment entry points take sampled and read-only textures and samplers, no writable bindings yet"},
		{"vec3 output", "@fragment\nfn f(@builtin(position) p: vec4<f32>) -> @location(0) vec3<f32> {\n  return p.xyz;\n}\n",
			"t.wgsl:2:1: check: fragment output ret is vec3<f32>: no 32-bit colour format has three components (use vec4)"},
		{"location gap", "struct O {\n  @location(0) a: f32,\n  @location(2) b: f32,\n}\n@fragment\nfn f(@builtin(position) p: vec4<f32>) -> O {\n  return O(p.x, p.y);\n}\n",
			"t.wgsl:6:1: check: fragment output b is at @location(2): gpudiff takes outputs at locations 0 to 1"},
		{"too many bytes", "struct O {\n  @location(0) a: vec4<f32>,\n  @location(1) b: vec4<u32>,\n  @location(2) c: u32,\n}\n@fragment\nfn f(@builtin(position) p: vec4<f32>) -> O {\n  return O(p, vec4<u32>(1u), 2u);\n}\n",
			"t.wgsl:7:1: check: the outputs of fragment entry point f take 36 bytes per pixel, more than the 32"},
		{"binding", "@group(0) @binding(0) var<uniform> k: f32;\n@fragment\nfn f(@builtin(position) p: vec4<f32>) -> @location(0) f32 {\n  return p.x * k;\n}\n",
			"t.wgsl:4:16: check: fragment entry point f uses var<uniform> k: gpudiff's fragment entry points take no bindings yet"},
		{"no output", "@fragment\nfn f(@builtin(position) p: vec4<f32>) {\n}\n",
			"t.wgsl:1:1: check: fragment entry point f has no @location output"},
		{"location input", "@fragment\nfn f(@location(0) c: vec4<f32>) -> @location(0) vec4<f32> {\n  return c;\n}\n",
			"t.wgsl:2:6: check: fragment entry point f is outside the gpudiff subset: fragment input @location (gpudiff's vertex stage passes no values"},
		{"bool output", "@fragment\nfn f(@builtin(position) p: vec4<f32>) -> @location(0) bool {\n  return p.x > 1.0;\n}\n",
			"t.wgsl:2:55: check: a fragment entry point's output must be a numeric scalar or vector, not bool"},
		{"missing location", "@fragment\nfn f(@builtin(position) p: vec4<f32>) -> vec4<f32> {\n  return p;\n}\n",
			"t.wgsl:2:42: check: the result of fragment entry point 'f' needs a @location attribute"},
		{"compute builtin", "@fragment\nfn f(@builtin(global_invocation_id) g: vec3<u32>) -> @location(0) u32 {\n  return g.x;\n}\n",
			"t.wgsl:2:15: check: @builtin(global_invocation_id) is not an input of a fragment entry point"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Parse("t.wgsl", []byte(c.src))
			if err == nil {
				assert.True(t, IsFragmentMode(m, ""), "exec takes the module as a fragment entry point and reports why not")
				_, err = FragmentEntry(m, "")
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestFragmentEntryTexturesAndDerivatives: a fragment entry point that
// samples a texture (implicit derivatives), loads a read-only storage
// texture and takes derivatives is inside the subset (issue 24): the
// reference runs it in 2×2 quads; EmitFragment declares the bindings it
// uses.
func TestFragmentEntryTexturesAndDerivatives(t *testing.T) {
	src := "@group(0) @binding(0) var t: texture_2d<f32>;\n@group(0) @binding(1) var s: sampler;\n@group(0) @binding(2) var r: texture_storage_2d<r32float, read>;\n@group(1) @binding(0) var unused: texture_2d<f32>;\n" +
		"@fragment\nfn f(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {\n  let c = textureSample(t, s, p.xy * 0.1);\n  return c + vec4<f32>(dpdx(p.x), dpdyFine(p.y), fwidth(p.x), textureLoad(r, vec2<u32>(0u)).x);\n}\n"
	m, err := Parse("t.wgsl", []byte(src))
	require.NoError(t, err)
	f, err := FragmentEntry(m, "")
	require.NoError(t, err)
	assert.Equal(t, "f", f.Name)
	text, err := EmitFragment(m, "f", EmitOptions{})
	require.NoError(t, err)
	assert.Contains(t, text, "var t: texture_2d<f32>;")
	assert.Contains(t, text, "var s: sampler;")
	assert.NotContains(t, text, "unused")
	_, err = Parse("again.wgsl", []byte(text))
	require.NoError(t, err, text)
}
