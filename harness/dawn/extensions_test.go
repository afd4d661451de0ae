package dawn

import (
	"encoding/binary"
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// Adapters of the mesa25 driver set (harness.Mesa25, `make deps`).
const (
	mesa25Lavapipe     = "dawn-vulkan:llvmpipe-mesa25"
	denoMesa25Lavapipe = "deno-vulkan:llvmpipe-mesa25"
)

// lavapipeSubgroupSize is lavapipe's subgroup size for its device name:
// "llvmpipe (LLVM 15.0.6, 256 bits)" runs lp_native_vector_width = 256
// bits of 32-bit lanes, and lavapipe reports subgroupSize =
// lp_native_vector_width / 32 (Mesa src/gallium/frontends/lavapipe
// lvp_device.c) — 8 on an AVX2 host.
func lavapipeSubgroupSize(t *testing.T, device string) uint32 {
	t.Helper()
	m := regexp.MustCompile(`(\d+) bits`).FindStringSubmatch(device)
	require.NotNil(t, m, "lavapipe's device name names its vector width: %q", device)
	bits, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	return uint32(bits / 32)
}

// allAdapters lists every implementation's adapters, Dawn and Deno
// required.
func allAdapters(t *testing.T) map[string]harness.AdapterInfo {
	t.Helper()
	requireDawn(t)
	requireDeno(t)
	all, err := harness.AllAdapters()
	require.NoError(t, err)
	byName := map[string]harness.AdapterInfo{}
	for _, a := range all {
		byName[a.Name] = a
	}
	return byName
}

// TestAdaptersReportFeatures: Dawn's and Deno's adapters carry
// GPUAdapter.features and, with subgroups, GPUAdapterInfo's subgroup size
// range. Dawn: SwiftShader has subgroups (size 4: SwiftShader's SIMD
// width, its VkPhysicalDeviceSubgroupProperties.subgroupSize) and no
// shader-f16 (no Vulkan shaderFloat16); Mesa 25's lavapipe has both, its
// size its vector width / 32; the GL backends (compatibility mode) have
// neither. Deno (wgpu-core 29) has shader-f16 on lavapipe and no
// subgroups anywhere (wgpu-core offers SUBGROUP on none of these
// adapters), so no size is reported either.
func TestAdaptersReportFeatures(t *testing.T) {
	byName := allAdapters(t)
	for _, n := range []string{swiftshader, glLLVMpipe, glesLLVMpipe, mesa25Lavapipe, denoLavapipe, denoSwiftShader, denoGL, denoMesa25Lavapipe} {
		require.Contains(t, byName, n, adapterHint)
		require.NotNil(t, byName[n].Features, "%s lists its features", n)
	}
	type want struct {
		f16, subgroups bool
		size           uint32
	}
	lvp := lavapipeSubgroupSize(t, byName[mesa25Lavapipe].Device)
	for n, w := range map[string]want{
		swiftshader:        {false, true, 4},
		mesa25Lavapipe:     {true, true, lvp},
		glLLVMpipe:         {false, false, 0},
		glesLLVMpipe:       {false, false, 0},
		denoLavapipe:       {true, false, 0},
		denoMesa25Lavapipe: {true, false, 0},
		denoSwiftShader:    {false, false, 0},
		denoGL:             {false, false, 0},
	} {
		a := byName[n]
		assert.Equal(t, w.f16, a.HasFeature(harness.FeatureShaderF16), "%s shader-f16: %v", n, a.Features)
		assert.Equal(t, w.subgroups, a.HasFeature(harness.FeatureSubgroups), "%s subgroups: %v", n, a.Features)
		assert.Equal(t, w.size, a.SubgroupMinSize, "%s min", n)
		assert.Equal(t, w.size, a.SubgroupMaxSize, "%s max", n)
	}
}

// subgroupAddWGSL writes subgroupAdd(1u) — the number of active
// invocations of the invocation's subgroup — for every invocation; the
// bounds check comes after the reduction, so in a full workgroup every
// subgroup is whole and each result is the subgroup size (WGSL
// #subgroupAdd-builtin).
const subgroupAddWGSL = `enable subgroups;
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u, @builtin(subgroup_size) size: u32) {
	let n = subgroupAdd(1u);
	if (id.x >= arrayLength(&outp)) { return; }
	outp[id.x] = n * 1000u + size;
}
`

// f16HalfWGSL computes out[i] = f32(f16(in[i]) * 0.5h) over f32 words
// (no f16 in storage: the arithmetic alone needs shader-f16).
const f16HalfWGSL = `enable f16;
@group(0) @binding(0) var<storage, read> inp: array<f32>;
@group(0) @binding(1) var<storage, read_write> outp: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
	if (id.x >= arrayLength(&outp)) { return; }
	outp[id.x] = f32(f16(inp[id.x]) * 0.5h);
}
`

// TestDevicesRequestExtensionFeatures: a device is created with
// shader-f16 and subgroups where the adapter has them, so `enable f16;`
// and `enable subgroups;` modules run. The f16 inputs i + 0.25 (i < 64)
// need 8 significant bits and their halves are exact in binary16 (10
// fraction bits), so the results are exact; subgroupAdd(1u) over whole
// subgroups is the size, as is subgroup_size.
func TestDevicesRequestExtensionFeatures(t *testing.T) {
	byName := allAdapters(t)
	const n = 64
	in := make([]byte, 4*n)
	want := make([]float32, n)
	for i := range n {
		binary.LittleEndian.PutUint32(in[4*i:], math.Float32bits(float32(i)+0.25))
		want[i] = (float32(i) + 0.25) / 2
	}
	for _, name := range []string{mesa25Lavapipe, denoLavapipe, denoMesa25Lavapipe} {
		t.Run("f16/"+name, func(t *testing.T) {
			d := openDevice(t, name)
			out, err := d.Run(t.Context(), harness.Kernel{WGSL: f16HalfWGSL, EntryPoint: "main"}, harness.Dispatch{Input: in, OutputSize: 4 * n, Invocations: n})
			require.NoError(t, err)
			got := make([]float32, n)
			for i := range got {
				got[i] = math.Float32frombits(binary.LittleEndian.Uint32(out[4*i:]))
			}
			assert.Equal(t, want, got)
		})
	}
	for _, name := range []string{swiftshader, mesa25Lavapipe} {
		t.Run("subgroups/"+name, func(t *testing.T) {
			size := byName[name].SubgroupMinSize
			require.NotZero(t, size)
			d := openDevice(t, name)
			out, err := d.Run(t.Context(), harness.Kernel{WGSL: subgroupAddWGSL, EntryPoint: "main"}, harness.Dispatch{Input: make([]byte, 4*n), OutputSize: 4 * n, Invocations: n})
			require.NoError(t, err)
			for i, w := range words(out) {
				assert.Equal(t, size*1000+size, w, "invocation %d", i)
			}
		})
	}
}

// Modules that need one extension each, with and without its directive.
const (
	subgroupBody = "@group(0) @binding(1) var<storage, read_write> o: array<u32>;\n" +
		"@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) l: u32) { o[l] = subgroupAdd(1u); }\n"
	f16Body = "@group(0) @binding(1) var<storage, read_write> o: array<f32>;\n" +
		"@compute @workgroup_size(1) fn main() { let h: f16 = 1.5h; o[0] = f32(h * 2.0h); }\n"
)

// compileMessages compiles srcs on the named adapter and returns each
// one's stack message ("" when it compiled).
func compileMessages(t *testing.T, name string, srcs ...string) []string {
	t.Helper()
	d := openDevice(t, name)
	errs, err := d.CompileWGSL(t.Context(), srcs...)
	require.NoError(t, err)
	out := make([]string, len(errs))
	for i, e := range errs {
		if e != nil {
			var ce *harness.CompileError
			require.ErrorAs(t, e, &ce)
			out[i] = ce.Message
		}
	}
	return out
}

// TestDeclaredExtensionLimitationsAreTrue: on every Dawn and Deno adapter,
// a module that needs f16 or subgroups (written as the adapter's compiler
// wants it: with the directive for Tint and for naga's f16, without it
// for naga's subgroups) compiles exactly where harness.Lacks declares
// nothing, judged by the adapter's name alone as check judges a run.
func TestDeclaredExtensionLimitationsAreTrue(t *testing.T) {
	byName := allAdapters(t)
	for name, a := range byName {
		if a.Implementation != Implementation && a.Implementation != DenoImplementation {
			continue
		}
		t.Run(name, func(t *testing.T) {
			sub := "enable subgroups;\n" + subgroupBody
			if a.Implementation == DenoImplementation {
				sub = subgroupBody // naga refuses the directive (TestWhichStacksNeedTheDirectives)
			}
			msgs := compileMessages(t, name, "enable f16;\n"+f16Body, sub)
			for i, k := range []harness.NeedKind{harness.NeedF16, harness.NeedSubgroups} {
				why := harness.Lacks(harness.AdapterInfo{Name: name}, harness.Need{Kind: k})
				if why == "" {
					assert.Empty(t, msgs[i], "%s promises %s, yet refuses it", name, k)
				} else {
					assert.NotEmpty(t, msgs[i], "%s declares it lacks %s (%s), yet compiles it", name, k, why)
					assert.Contains(t, why, name+": ")
				}
			}
		})
	}
}

// TestWhichStacksNeedTheDirectives: what each WGSL compiler here makes of
// `enable f16;` and `enable subgroups;` (issue 40, item 4), on the
// adapters that have the feature. Tint (Dawn) requires both directives:
// without them it refuses the f16 type and the subgroup builtins. naga 29
// (Deno) requires `enable f16;` and refuses `enable subgroups;` as not
// implemented; its subgroup builtins need no directive, only the SUBGROUP
// capability, which Deno's WebGPU never grants. (naga 0.19, wgpu-native's,
// parses no enable directive at all: harness TestNaga019DeclaresNoF16NorSubgroups.)
// And Tint wants `diagnostic(off, subgroup_uniformity);` for subgroup
// operations in divergent control flow, which naga takes.
func TestWhichStacksNeedTheDirectives(t *testing.T) {
	allAdapters(t)
	tint := compileMessages(t, mesa25Lavapipe, "enable f16;\n"+f16Body, f16Body, "enable subgroups;\n"+subgroupBody, subgroupBody)
	assert.Empty(t, tint[0])
	assert.Contains(t, tint[1], "'f16' type used without 'f16' extension enabled")
	assert.Empty(t, tint[2])
	assert.Contains(t, tint[3], "cannot call built-in function 'subgroupAdd' without extension 'subgroups'")

	naga := compileMessages(t, denoMesa25Lavapipe, "enable f16;\n"+f16Body, f16Body, "enable subgroups;\n"+subgroupBody, subgroupBody,
		"diagnostic(off, subgroup_uniformity);\n"+divergentBody)
	assert.Empty(t, naga[0])
	assert.Contains(t, naga[1], "the `f16` enable extension is not enabled")
	assert.Contains(t, naga[2], "the `subgroups` enable-extension is not yet supported")
	assert.Contains(t, naga[3], "Shader requires capability Capabilities(SUBGROUP)")
	assert.Contains(t, naga[4], "Shader requires capability Capabilities(SUBGROUP)",
		"naga parses the diagnostic directive (it warns of an unknown rule) and fails only for the capability")

	// A subgroup operation under a branch on the invocation index — the
	// shapes of the field bugs — is outside subgroup uniform control
	// flow: Tint refuses it (WGSL's subgroup_uniformity triggering rule,
	// an error in Tint by default; Tint also holds subgroupShuffleUp/Down/
	// Xor's delta to it) unless the module says `diagnostic(off,
	// subgroup_uniformity);`. naga does no subgroup uniformity analysis.
	div := compileMessages(t, swiftshader, "enable subgroups;\n"+divergentBody, "diagnostic(off, subgroup_uniformity);\nenable subgroups;\n"+divergentBody)
	assert.Contains(t, div[0], "'subgroupAdd' must only be called from subgroup uniform control flow")
	assert.Empty(t, div[1])
}

// divergentBody calls subgroupAdd on the even invocations only.
const divergentBody = "@group(0) @binding(1) var<storage, read_write> o: array<u32>;\n" +
	"@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) l: u32) { if (l % 2u == 0u) { o[l] = subgroupAdd(1u); } }\n"
