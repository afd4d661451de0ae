package spirv

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
)

// texSPIRVSrc uses every texture type and every builtin the SPIR-V
// backend emits, in a compute entry point.
const texSPIRVSrc = `
@group(0) @binding(0) var samp: sampler;
@group(0) @binding(1) var cmp: sampler_comparison;
@group(0) @binding(2) var t1: texture_1d<f32>;
@group(0) @binding(3) var t2: texture_2d<f32>;
@group(0) @binding(4) var t2a: texture_2d_array<u32>;
@group(0) @binding(5) var t3: texture_3d<i32>;
@group(0) @binding(6) var tc: texture_cube<f32>;
@group(0) @binding(7) var tca: texture_cube_array<f32>;
@group(0) @binding(8) var td: texture_depth_2d;
@group(0) @binding(9) var tda: texture_depth_2d_array;
@group(0) @binding(10) var tms: texture_multisampled_2d<f32>;
@group(0) @binding(11) var s2: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(12) var s2a: texture_storage_2d_array<r32float, read_write>;
@group(0) @binding(13) var s1: texture_storage_1d<rgba32uint, read>;
@group(0) @binding(14) var s3: texture_storage_3d<rg32sint, write>;
@group(0) @binding(15) var<storage, read_write> out: array<vec4f, 64>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  var acc = vec4f(0);
  acc += textureLoad(t1, i32(i), 0);
  acc += textureLoad(t2, id.xy, 1u);
  acc += vec4f(textureLoad(t2a, vec2i(id.xy), i, 0));
  acc += vec4f(textureLoad(t3, id, 0));
  acc += vec4f(textureLoad(td, id.xy, 0), textureLoad(tda, id.xy, 1, 0), 0.0, 0.0);
  acc += textureLoad(tms, id.xy, 3);
  acc += textureLoad(s2a, id.xy, 2u);
  acc += vec4f(textureLoad(s1, i));
  acc += textureSampleLevel(t2, samp, vec2f(0.5), 1.5, vec2(1, -1));
  acc += textureSampleLevel(t1, samp, 0.25, 0.0);
  acc += textureSampleLevel(tc, samp, vec3f(1.0, 0.0, 0.0), 0.0);
  acc += textureSampleLevel(tca, samp, vec3f(1.0, 0.0, 0.0), 2, 0.0);
  acc += vec4f(textureSampleLevel(td, samp, vec2f(0.5), 0), textureSampleLevel(tda, samp, vec2f(0.5), 1u, 0), 0.0, 0.0);
  acc += textureSampleGrad(t2, samp, vec2f(0.5), vec2f(0.1), vec2f(0.0, 0.1));
  acc.x += textureSampleCompareLevel(td, cmp, vec2f(0.5), 0.5);
  acc += textureGather(1, t2, samp, vec2f(0.5));
  acc += textureGather(t2a, samp, vec2f(0.5), 1) .x * vec4f(0.0) + vec4f(textureGather(2u, t2a, samp, vec2f(0.5), 1));
  acc += textureGatherCompare(td, cmp, vec2f(0.5), 0.5, vec2(0, 1));
  let d = textureDimensions(t2, 1) + textureDimensions(t2a).xy + textureDimensions(t3).xy + textureDimensions(tc) + textureDimensions(tca, 0u) + textureDimensions(s2) + textureDimensions(tms);
  let n = textureNumLayers(t2a) + textureNumLayers(tca) + textureNumLayers(s2a) + textureNumLevels(t3) + textureNumSamples(tms) + textureDimensions(t1) + textureDimensions(s1);
  textureStore(s2, vec2i(id.xy), acc);
  textureStore(s2a, id.xy, 1, acc + 1.0);
  textureStore(s3, id, vec4i(1, 2, 3, 4));
  out[i] = acc + vec4f(vec2f(d), f32(n), 0.0);
}
`

func TestTexturesValidate(t *testing.T) {
	src := texSPIRVSrc
	// textureGather on a u32 texture with a component: fix the line
	// written above for the u32 overload (gather of a 2d_array<u32>
	// needs the component first).
	src = strings.Replace(src, "  acc += textureGather(t2a, samp, vec2f(0.5), 1) .x * vec4f(0.0) + vec4f(textureGather(2u, t2a, samp, vec2f(0.5), 1));\n", "  acc += vec4f(textureGather(2u, t2a, samp, vec2f(0.5), 1));\n", 1)
	m, err := wgsl.Parse("tex.wgsl", []byte(src))
	require.NoError(t, err)
	for _, opts := range bothModes {
		words := emitValid(t, m, "main", opts)
		dis, err := Disassemble(words)
		require.NoError(t, err)
		for _, op := range []string{"OpTypeImage", "OpTypeSampler", "OpTypeSampledImage", "OpImageFetch", "OpImageRead", "OpImageWrite",
			"OpImageSampleExplicitLod", "OpImageSampleDrefExplicitLod", "OpImageGather", "OpImageDrefGather",
			"OpImageQuerySizeLod", "OpImageQuerySize ", "OpImageQueryLevels", "OpImageQuerySamples"} {
			assert.Contains(t, dis, op, "mode %s", opts.Mode)
		}
		if opts.Mode == Portable {
			assert.Contains(t, dis, "UMin", "portable mode clamps loads and stores")
		}
	}
}

func TestTexturesRefusedInSPIRV(t *testing.T) {
	src := "@group(0) @binding(0) var t: texture_storage_2d<bgra8unorm, write>;\n@compute @workgroup_size(1) fn main() {\n  textureStore(t, vec2i(0), vec4f(1));\n}\n"
	m, err := wgsl.Parse("x.wgsl", []byte(src))
	require.NoError(t, err)
	_, err = Emit(m, "main", Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "x.wgsl:1:27: spirv: t: storage texel format bgra8unorm has no SPIR-V Image Format")
}

func TestFragmentDerivativesValidate(t *testing.T) {
	m, err := wgsl.Parse("d.wgsl", []byte(`
@fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f {
  return vec4f(dpdx(p.x), dpdyFine(p.y), fwidthCoarse(p.y), dpdxCoarse(p.x)) + vec4f(fwidth(p.xy), dpdy(p.y), dpdxFine(p.y)) + vec4f(dpdyCoarse(p.x), fwidthFine(p.x), 0.0, 0.0).xxyz;
}`))
	require.NoError(t, err)
	for _, opts := range bothModes {
		words := emitValid(t, m, "main", opts)
		dis, err := Disassemble(words)
		require.NoError(t, err)
		for _, op := range []string{"OpDPdx ", "OpDPdyFine", "OpFwidthCoarse", "OpDPdxCoarse", "OpFwidth ", "OpDPdy ", "OpDPdxFine", "OpDPdyCoarse", "OpFwidthFine", "DerivativeControl"} {
			assert.Contains(t, dis, op)
		}
	}
}
