package wgsl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// TestRenderShadersLowerVerifyAndRoundTrip: every hand-written draw of
// testdata/render (the shapes of webgpu-samples' and wgpu's examples)
// parses with both stages lowered (no entry point kept Opaque), passes
// ir.Verify and CheckInterface, and round-trips through the emitter:
// each stage's raw emission (EmitStage) and the pair's (EmitDraw)
// re-parse to the same canonical print of each entry point, and Tint and
// naga accept the pair's emission.
func TestRenderShadersLowerVerifyAndRoundTrip(t *testing.T) {
	files, err := filepath.Glob("testdata/render/*.wgsl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	validators := ptValidators(t)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			m, err := Parse(filepath.Base(path), src)
			require.NoError(t, err)
			for _, o := range m.Opaque {
				assert.False(t, o.EntryPoint, "entry point %s kept opaque: %s", o.Name, o.Reason)
			}
			require.NoError(t, ir.Verify(m))
			require.True(t, IsDrawMode(m))
			vs, err := VertexEntry(m, "")
			require.NoError(t, err)
			fs, err := DrawFragmentEntry(m, "")
			require.NoError(t, err)
			require.NoError(t, CheckInterface(vs, fs))
			for _, e := range []*ir.Func{vs, fs} {
				text, err := EmitStage(m, e.Name, EmitOptions{Mode: Raw})
				require.NoError(t, err)
				m2, err := Parse("re.wgsl", []byte(text))
				require.NoError(t, err, "re-parsing:\n%s", text)
				assert.Equal(t, ir.PrintFunc(e), ir.PrintFunc(m2.Func(e.Name)), "EmitStage round trip of %s", e.Name)
			}
			text, err := EmitDraw(m, vs.Name, fs.Name, EmitOptions{Mode: Raw})
			require.NoError(t, err)
			m2, err := Parse("re.wgsl", []byte(text))
			require.NoError(t, err, "re-parsing:\n%s", text)
			assert.Equal(t, ir.PrintFunc(vs)+ir.PrintFunc(fs), ir.PrintFunc(m2.Func(vs.Name))+ir.PrintFunc(m2.Func(fs.Name)))
			portable, err := EmitDraw(m, vs.Name, fs.Name, EmitOptions{})
			require.NoError(t, err)
			var gaps ptGaps
			if strings.Contains(string(src), "either)") {
				// naga 0.19 (wgpu 0.19.4) predates the sampling either
				// (WGSL #interpolation).
				gaps = ptGaps{ptNaga: "unknown attribute: 'either'"}
			}
			for _, v := range validators {
				for i, err := range v.check(t, text, portable) {
					ptRequireAccepts(t, v, gaps, err, []string{text, portable}[i])
				}
			}
		})
	}
}

// TestStageIOAndInterface: StageInputs and StageOutputs flatten structs
// to leaves with their paths; CheckInterface refuses a fragment input
// with no vertex output at its location, of another type, or of another
// interpolation (WebGPU's inter-stage validation), positioned at the
// fragment input.
func TestStageIOAndInterface(t *testing.T) {
	src := `struct V {
  @builtin(position) p: vec4<f32>,
  @location(0) a: vec2<f32>,
  @location(3) @interpolate(flat, either) k: i32,
}
@vertex
fn vs(@builtin(vertex_index) vi: u32, @location(2) q: vec3<f32>) -> V {
  return V(vec4(q, 1.0), vec2(f32(vi)), 1);
}
@fragment
fn ok(v: V) -> @location(0) vec4<f32> {
  return vec4(v.a, f32(v.k), 1.0);
}
@fragment
fn missing(@location(1) b: f32) -> @location(0) f32 {
  return b;
}
@fragment
fn retyped(@location(0) a: vec3<f32>) -> @location(0) f32 {
  return a.x;
}
@fragment
fn reinterp(@location(0) @interpolate(linear) a: vec2<f32>) -> @location(0) f32 {
  return a.x;
}
@fragment
fn firstnot(@location(3) @interpolate(flat) k: i32) -> @location(0) i32 {
  return k;
}
`
	m, err := Parse("io.wgsl", []byte(src))
	require.NoError(t, err)
	vs := m.Func("vs")
	ins := StageInputs(vs)
	require.Len(t, ins, 2)
	assert.Equal(t, StageIO{Location: -1, Builtin: "vertex_index", T: ir.U32, Path: []int{0}, Name: "vi", Pos: ins[0].Pos}, ins[0])
	assert.Equal(t, 2, ins[1].Location)
	outs := StageOutputs(vs)
	require.Len(t, outs, 3)
	assert.Equal(t, "position", outs[0].Builtin)
	assert.Equal(t, []int{2}, outs[2].Path)
	assert.Equal(t, ir.Interpolation{Type: ir.InterpFlat, Sampling: ir.SamplingEither}, outs[2].Interp)
	okIns := StageInputs(m.Func("ok"))
	require.Len(t, okIns, 3, "V's three members")
	assert.Equal(t, []int{0, 1}, okIns[1].Path)
	assert.Equal(t, "v.a", okIns[1].Name)
	assert.Equal(t, "position", okIns[0].Builtin, "V's position member is the fragment's @builtin(position)")

	assert.NoError(t, CheckInterface(vs, m.Func("ok")))
	for name, want := range map[string]string{
		"missing":  "io.wgsl:15:12: check: fragment input b at @location(1) of missing has no vertex output of vs at that location",
		"retyped":  "io.wgsl:19:12: check: fragment input a at @location(0) of retyped is vec3<f32>, but vertex output a of vs there is vec2<f32>",
		"reinterp": "io.wgsl:23:13: check: fragment input a at @location(0) of reinterp is interpolated linear, center, but vertex output a of vs is perspective, center",
		"firstnot": "io.wgsl:27:13: check: fragment input k at @location(3) of firstnot is interpolated flat, first, but vertex output k of vs is flat, either",
	} {
		err := CheckInterfaceIn("io.wgsl", vs, m.Func(name))
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), want)
	}
}

// TestRenderRefusals: what v1 leaves out, and what WGSL refuses in a
// stage, is refused where it is written, naming the construct.
func TestRenderRefusals(t *testing.T) {
	const vsHead = "@vertex\nfn vs() -> @builtin(position) vec4<f32> { return vec4(0.0); }\n"
	for _, tc := range []struct{ name, src, want string }{
		{"sample_index", vsHead + "@fragment\nfn fs(@builtin(sample_index) s: u32) -> @location(0) u32 {\n  return s;\n}\n",
			"r.wgsl:4:16: check: fragment entry point fs is outside the gpudiff subset: builtin value sample_index"},
		{"frag_depth", vsHead + "struct O {\n  @location(0) c: f32,\n  @builtin(frag_depth) d: f32,\n}\n@fragment\nfn fs() -> O {\n  return O(1.0, 0.5);\n}\n",
			"builtin value frag_depth (gpudiff's v1 render pipelines have no depth attachment)"},
		{"centroid", vsHead + "@fragment\nfn fs(@location(0) @interpolate(perspective, centroid) c: f32) -> @location(0) f32 {\n  return c;\n}\n",
			"r.wgsl:4:46: check: fragment entry point fs is outside the gpudiff subset: @interpolate(perspective, centroid): centroid sampling"},
		{"clip_distances", "struct V {\n  @builtin(position) p: vec4<f32>,\n  @builtin(clip_distances) c: array<f32, 1>,\n}\n@vertex\nfn vs() -> V {\n  return V(vec4(0.0), array(0.0));\n}\n",
			"r.wgsl:6:12: check: vertex entry point vs is outside the gpudiff subset: uses struct V, which is outside the subset: builtin value clip_distances"},
		{"writable storage", vsHead + "@group(0) @binding(0) var<storage, read_write> b: array<u32, 4>;\n@fragment\nfn fs(@builtin(position) p: vec4<f32>) -> @location(0) u32 {\n  b[0] = 1u;\n  return b[1];\n}\n",
			"r.wgsl:6:3: check: fragment entry point fs uses var<storage, read_write> b: writable storage in the fragment stage is outside gpudiff's v1 render pipelines"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse("r.wgsl", []byte(tc.src))
			if err == nil {
				_, err = DrawFragmentEntry(m, "")
				if err == nil || strings.Contains(tc.want, "vertex entry point") {
					_, err = VertexEntry(m, "")
				}
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestStageRulesArePositioned: WGSL's per-stage rules (#discard-statement,
// #address-spaces, #derivative-builtin-functions) are errors at the use.
func TestStageRulesArePositioned(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"discard in the vertex stage", "fn h() {\n  discard;\n}\n@vertex\nfn vs() -> @builtin(position) vec4<f32> {\n  h();\n  return vec4(0.0);\n}\n",
			"s.wgsl:2:3: check: discard must only be used in the fragment stage, but vertex entry point vs reaches it"},
		{"read_write storage in the vertex stage", "@group(0) @binding(0) var<storage, read_write> b: array<f32, 4>;\n@vertex\nfn vs() -> @builtin(position) vec4<f32> {\n  return vec4(b[0]);\n}\n",
			"s.wgsl:4:15: check: var<storage, read_write> b must not be accessed in the vertex stage"},
		{"dpdx in the vertex stage", "@vertex\nfn vs(@location(0) x: f32) -> @builtin(position) vec4<f32> {\n  return vec4(dpdx(x));\n}\n",
			"s.wgsl:3:15: check: dpdx must only be used in the fragment stage, but vertex entry point vs calls it"},
		{"an integer varying not flat", "struct V {\n  @builtin(position) p: vec4<f32>,\n  @location(0) i: u32,\n}\n@vertex\nfn vs() -> V {\n  return V(vec4(0.0), 1u);\n}\n",
			"vertex output member i of integer type u32 needs @interpolate(flat)"},
		{"no position", "@vertex\nfn vs() -> @location(0) vec4<f32> {\n  return vec4(0.0);\n}\n",
			"vertex entry point 'vs' returns only @location(0): it must return @builtin(position)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("s.wgsl", []byte(tc.src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
