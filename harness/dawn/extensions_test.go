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
// subgroups anywhere: wgpu's SUBGROUP is a native feature its WebGPU does
// not expose, so no size is reported either.
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
