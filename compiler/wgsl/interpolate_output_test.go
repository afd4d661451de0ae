package wgsl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// TestInterpolateOnFragmentOutputIsKept: @interpolate on a fragment
// entry point's output — a struct member or a bare @location result — is
// valid WGSL, "only significant on user-defined vertex outputs and
// fragment inputs" (#interpolate-attr), as in Tint's vk-gl-cts output
// structs: the front end accepts it, the IR keeps it and the emitter
// prints it back; on a vertex attribute it stays outside the subset, a
// positioned refusal.
func TestInterpolateOnFragmentOutputIsKept(t *testing.T) {
	const vs = "@vertex\nfn vs() -> @builtin(position) vec4<f32> { return vec4(0.0); }\n"
	for _, tc := range []struct {
		name, src string
		interp    func(fs *ir.Func) ir.Interpolation
	}{
		{"struct member", vs + "struct O {\n  @location(0) @interpolate(flat) x: i32,\n}\n@fragment\nfn fs() -> O {\n  return O(7);\n}\n",
			func(fs *ir.Func) ir.Interpolation { return fs.Result.Struct.Fields[0].Interp }},
		{"bare result", vs + "@fragment\nfn fs() -> @location(0) @interpolate(linear, center) vec4<f32> {\n  return vec4(1.0);\n}\n",
			func(fs *ir.Func) ir.Interpolation { return fs.ResultInterp }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse("o.wgsl", []byte(tc.src))
			require.NoError(t, err)
			require.NoError(t, ir.Verify(m))
			fs, err := DrawFragmentEntry(m, "")
			require.NoError(t, err)
			in := tc.interp(fs)
			assert.False(t, in.IsZero(), "the IR keeps the attribute")
			text, err := EmitStage(m, "fs", EmitOptions{Mode: Raw})
			require.NoError(t, err)
			assert.Contains(t, text, in.Attr())
			m2, err := Parse("re.wgsl", []byte(text))
			require.NoError(t, err, "re-parsing:\n%s", text)
			assert.Equal(t, ir.PrintFunc(fs), ir.PrintFunc(m2.Func("fs")))
		})
	}
	// On a vertex attribute it is valid too (Tint's vk-gl-cts has one) and
	// kept: it interpolates nothing there.
	src := "@vertex\nfn vs(@location(0) @interpolate(flat) a: vec4<f32>) -> @builtin(position) vec4<f32> { return a; }\n"
	m, err := Parse("a.wgsl", []byte(src))
	require.NoError(t, err)
	vf, err := VertexEntry(m, "")
	require.NoError(t, err)
	assert.Equal(t, ir.InterpFlat, vf.Params[0].Interp.Type)
	text, err := EmitStage(m, "vs", EmitOptions{})
	require.NoError(t, err)
	assert.Contains(t, text, "@interpolate(flat)")
}
