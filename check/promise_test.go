package check

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// needsWGSL queries a texture's levels, samples one texture with two
// samplers and writes an rg32float storage texture: three needs wgpu's GL
// backend declares it lacks, none that an adapter at WebGPU's core
// feature level may refuse.
const needsWGSL = `
@group(0) @binding(0) var<storage, read_write> out: array<f32, 2>;
@group(0) @binding(1) var t: texture_2d<f32>;
@group(0) @binding(2) var s1: sampler;
@group(0) @binding(3) var s2: sampler;
@group(0) @binding(4) var st: texture_storage_2d<rg32float, write>;

@compute @workgroup_size(1)
fn main() {
  out[0] = f32(textureNumLevels(t));
  out[1] = textureSampleLevel(t, s1, vec2f(0.5), 0.0).x + textureSampleLevel(t, s2, vec2f(0.5), 0.0).x;
  textureStore(st, vec2i(0), vec4f(1.0));
}
`

func TestModuleNeeds(t *testing.T) {
	m, err := wgsl.Parse("needs.wgsl", []byte(needsWGSL))
	require.NoError(t, err)
	var kinds []harness.NeedKind
	for _, n := range moduleNeeds(m, "main", oracle.FormatWGSL, "portable") {
		kinds = append(kinds, n.Kind)
		if n.Kind == harness.NeedStorageFormat {
			assert.Equal(t, "rg32float", n.Arg)
		}
		if n.Kind == harness.NeedTextureLevels {
			assert.Equal(t, "textureNumLevels(t) at 10:16", n.Where)
		}
	}
	assert.ElementsMatch(t, []harness.NeedKind{harness.NeedTextureLevels, harness.NeedStorageFormat, harness.NeedSamplersPerTexture}, kinds)

	gl := harness.AdapterInfo{Name: "wgpu-gl:llvmpipe", Implementation: "wgpu", Backend: "gl"}
	vk := harness.AdapterInfo{Name: "wgpu-vulkan:llvmpipe", Implementation: "wgpu", Backend: "vulkan"}
	compat := harness.AdapterInfo{Name: "dawn-gl:llvmpipe", Implementation: "dawn", Backend: "gl"}
	for _, n := range moduleNeeds(m, "main", oracle.FormatWGSL, "portable") {
		assert.NotEmpty(t, harness.Lacks(gl, n), "wgpu-gl declares it lacks %s", n.Kind)
		assert.Empty(t, harness.Lacks(vk, n), "a core adapter declares no limitation: %s", n.Kind)
	}
	assert.Equal(t, "core", harness.FeatureLevel(vk))
	assert.Equal(t, "downlevel", harness.FeatureLevel(gl))
	assert.Equal(t, "compatibility", harness.FeatureLevel(compat))
	assert.Contains(t, harness.Lacks(compat, harness.Need{Kind: harness.NeedStorageFormat, Arg: "rg32float"}), "compatibility mode")

	// gpudiff's portable SPIR-V clamps a textureLoad level by the level
	// count (OpImageQueryLevels): on wgpu's GL backend that SPIR-V needs
	// TEXTURE_LEVELS where the WGSL does not (textures profile, seed
	// 2028, programs #1 and #22).
	load, err := wgsl.Parse("load.wgsl", []byte(`
@group(0) @binding(0) var<storage, read_write> out: array<f32, 1>;
@group(0) @binding(1) var t: texture_2d<f32>;
@compute @workgroup_size(1)
fn main() { out[0] = textureLoad(t, vec2i(0), 0).x; }
`))
	require.NoError(t, err)
	assert.Empty(t, moduleNeeds(load, "main", oracle.FormatWGSL, "portable"))
	assert.Empty(t, moduleNeeds(load, "main", oracle.FormatSPIRV, "raw"))
	sp := moduleNeeds(load, "main", oracle.FormatSPIRV, "portable")
	require.Len(t, sp, 1)
	assert.Equal(t, harness.NeedTextureLevels, sp[0].Kind)
	assert.Contains(t, harness.Lacks(gl, sp[0]), "textureLoad(t) at 5:22 (gpudiff's portable SPIR-V clamps its level by the level count)")
	assert.Empty(t, harness.Lacks(compat, harness.Need{Kind: harness.NeedTextureLevels}), "Dawn's GL backend takes textureNumLevels")

	// The packed 4x8 builtins need a WGSL language extension, in WGSL
	// only (gpudiff's SPIR-V spells them in bit operations); naga 0.19
	// (every wgpu adapter) lacks it.
	packed, err := wgsl.Parse("packed.wgsl", []byte(`
@group(0) @binding(0) var<storage, read_write> out: array<u32, 1>;
fn h(x: u32) -> u32 { return pack4xI8Clamp(unpack4xI8(x)); }
@compute @workgroup_size(1)
fn main() { out[0] = h(out[0]) + 1u; }
`))
	require.NoError(t, err)
	pn := moduleNeeds(packed, "main", oracle.FormatWGSL, "portable")
	require.Len(t, pn, 1)
	assert.Equal(t, harness.Need{Kind: harness.NeedLanguageFeature, Arg: harness.LanguageFeaturePacked4x8, Where: "pack4xI8Clamp at 3:30"}, pn[0])
	assert.Contains(t, harness.Lacks(vk, pn[0]), "naga 0.19")
	assert.Empty(t, harness.Lacks(compat, pn[0]))
	assert.Empty(t, moduleNeeds(packed, "main", oracle.FormatSPIRV, "portable"))
	assert.Empty(t, moduleNeeds(load, "main", oracle.FormatWGSL, "portable"), "no packed builtin, no need")
}

// TestJudgeRejections: each compile error is decided once every adapter
// has run the module — unsupported where the adapter declares it lacks
// what the module needs, a broken promise where it declares nothing the
// module meets and another adapter accepted the same function and format,
// else left a compile error (nothing shows the module valid; SPIR-V is
// never promised).
func TestJudgeRejections(t *testing.T) {
	m, err := wgsl.Parse("needs.wgsl", []byte(needsWGSL))
	require.NoError(t, err)
	needs := func(r oracle.Run) []harness.Need { return moduleNeeds(m, r.Function, r.Format, r.Mode) }
	ce := func(adapter string, f oracle.Format) oracle.Run {
		return oracle.Run{Adapter: adapter, Function: "main", Format: f, Stage: oracle.StageCompute, Failed: oracle.CompileError, Message: "Validation Error\n\nCaused by:\n    naga said no"}
	}
	ok := oracle.Run{Adapter: "dawn-vulkan:swiftshader", Function: "main", Format: oracle.FormatWGSL, Stage: oracle.StageCompute}

	runs := []oracle.Run{ce("wgpu-gl:llvmpipe", oracle.FormatWGSL), ce("wgpu-vulkan:llvmpipe", oracle.FormatWGSL), ce("wgpu-vulkan:llvmpipe", oracle.FormatSPIRV), ok}
	judgeRejections(runs, needs)
	assert.Equal(t, oracle.Unsupported, runs[0].Failed, "a declared limit")
	assert.Regexp(t, `^wgpu-gl:llvmpipe: TEXTURE_LEVELS .*: textureNumLevels\(t\) at 10:16\n\(the stack's own message: naga said no\)$`, runs[0].Message)
	assert.Equal(t, oracle.CompileError, runs[1].Failed)
	assert.Equal(t, "wgpu-vulkan:llvmpipe rejected a module that its features and limits require it to accept (WebGPU's core feature level; it declares no limitation the module meets); Tint (dawn-vulkan:swiftshader) and gpudiff's reference accept it", runs[1].Promise)
	assert.Empty(t, runs[2].Promise, "SPIR-V is not promised")

	judged, v := oracle.Judge(nil, nil, runs)
	assert.Equal(t, oracle.CompileError, v)
	assert.Equal(t, ExitFound, ExitOfRuns(v, nil, judged), "a broken promise is a stack finding")
	fs := Attribute(&Result{ABI: &ir.KernelABI{Kernel: "main"}, Runs: judged})
	require.Len(t, fs, 2, "the two compile errors; the unsupported run is no finding")
	assert.Equal(t, ClassCompileError, fs[0].Class)
	assert.Equal(t, "wgpu-vulkan:llvmpipe", fs[0].Adapter)
	assert.Contains(t, fs[0].Implicates, "rejected a module that its features and limits require it to accept")

	alone := []oracle.Run{ce("wgpu-vulkan:llvmpipe", oracle.FormatWGSL)}
	judgeRejections(alone, needs)
	assert.Empty(t, alone[0].Promise, "no other adapter accepts it")
	judged, v = oracle.Judge(nil, nil, alone)
	assert.Equal(t, ExitNoOutputs, ExitOfRuns(v, nil, judged))

	skipped := []oracle.Run{ce("wgpu-gl:llvmpipe", oracle.FormatWGSL), {Adapter: "wgpu-vulkan:llvmpipe", Function: "main", Format: oracle.FormatWGSL, Outputs: [][]oracle.Expected{{}}}}
	judgeRejections(skipped, needs)
	judged, v = oracle.Judge([][]oracle.Expected{{}}, nil, skipped)
	assert.Equal(t, oracle.Pass, v, "an unsupported run is skipped; the rest pass")
	assert.Equal(t, ExitPass, ExitOfRuns(v, nil, judged))
	_, v = oracle.Judge([][]oracle.Expected{{}}, nil, skipped[:1])
	assert.Equal(t, oracle.Unsupported, v, "nothing was tested")
}
