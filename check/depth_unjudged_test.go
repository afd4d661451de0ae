package check

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/oracle"
)

// depthWGSL reads a depth texture with a comparison sampler: on wgpu's
// GL backend, where no copy writes a depth texture and gpudiff's
// render-pass upload reads back as zeros, a run that compiled and ran is
// still not judged (harness.Limitation.Unjudged); on every other stack
// it is.
const depthWGSL = `
@group(0) @binding(0) var<storage, read_write> out: array<f32, 1>;
@group(0) @binding(1) var d: texture_depth_2d;
@group(0) @binding(2) var c: sampler_comparison;

@compute @workgroup_size(1)
fn main() {
  out[0] = textureSampleCompareLevel(d, c, vec2f(0.5), 0.25);
}
`

func TestDepthTextureUnjudgedOnWgpuGL(t *testing.T) {
	m, err := wgsl.Parse("depth.wgsl", []byte(depthWGSL))
	require.NoError(t, err)
	needs := func(r oracle.Run) []harness.Need { return moduleNeeds(m, r.Function, r.Format, r.Mode) }
	ran := func(adapter string) oracle.Run {
		return oracle.Run{Adapter: adapter, Function: "main", Format: oracle.FormatWGSL, Stage: oracle.StageCompute, Outputs: [][]oracle.Expected{{}}}
	}
	runs := []oracle.Run{ran("wgpu-gl:llvmpipe"), ran("wgpu-vulkan:llvmpipe"), ran("dawn-gl:llvmpipe")}
	judgeRejections(runs, needs)
	assert.Equal(t, oracle.Unsupported, runs[0].Failed, "wgpu-gl's run is not judged although it ran")
	assert.Regexp(t, `^wgpu-gl:llvmpipe: wgpu's GL backend lacks DownlevelFlags::DEPTH_TEXTURE_AND_BUFFER_COPIES .*: d: texture_depth_2d at 3:27$`, runs[0].Message)
	assert.Equal(t, oracle.Verdict(""), runs[1].Failed, "a core adapter's run is judged")
	assert.Equal(t, oracle.Verdict(""), runs[2].Failed, "Dawn's GL uploads depth textures its own way: judged")

	// A depth texture is not a reason to skip a compile error elsewhere:
	// the limitation is wgpu-gl's alone.
	ce := oracle.Run{Adapter: "wgpu-vulkan:llvmpipe", Function: "main", Format: oracle.FormatWGSL, Stage: oracle.StageCompute, Failed: oracle.CompileError, Message: "naga said no"}
	rs := []oracle.Run{ce}
	judgeRejections(rs, needs)
	assert.Equal(t, oracle.CompileError, rs[0].Failed)
}
