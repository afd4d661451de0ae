package check

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/oracle"
)

// nagaGapsWGSL has one compute entry point per case of
// TestWgpuSPIRVGaps.
const nagaGapsWGSL = `
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var ta: texture_2d_array<f32>;
@group(0) @binding(2) var tc: texture_cube<f32>;
@group(0) @binding(3) var s: sampler;
@group(0) @binding(4) var<storage, read_write> o: array<vec4f, 4>;
@group(0) @binding(5) var<storage, read_write> n: atomic<u32>;

@compute @workgroup_size(1) fn gather() { o[0] = textureGather(1, t, s, vec2f(0.5)); }
@compute @workgroup_size(1) fn arrayDims() { o[0] = vec4f(vec2f(textureDimensions(ta)), 0.0, 0.0); }
@compute @workgroup_size(1) fn arrayLayers() { o[0] = vec4f(f32(textureNumLayers(ta))); }
@compute @workgroup_size(1) fn arrayLoad() { o[0] = textureLoad(ta, vec2i(0), 0, 0); }
@compute @workgroup_size(1) fn atomics() { atomicAdd(&n, 1u); }
@compute @workgroup_size(1) fn plainDims() { o[0] = vec4f(vec2f(textureDimensions(t)), 0.0, 0.0); }
@compute @workgroup_size(1) fn plainLoad() { o[0] = textureLoad(t, vec2i(0), 0); }
@compute @workgroup_size(1) fn cubeDims() { o[0] = vec4f(vec2f(textureDimensions(tc)), 0.0, 0.0); }
`

// TestWgpuSPIRVGaps: gpudiff's SPIR-V of an entry point is skipped on wgpu
// exactly where naga's SPIR-V front end cannot read it (spirv.NagaGap's
// list, from naga's source), and wgpu still refuses each of those modules
// on lavapipe, so this fails when an upgrade closes a gap (and the skip
// should go). The others wgpu reads: a plain or cube texture's size query
// (naga's size has the right components) and an array texture's width and
// height (textureDimensions: components 0 and 1, which naga has).
func TestWgpuSPIRVGaps(t *testing.T) {
	m, err := wgsl.Parse("gaps.wgsl", []byte(nagaGapsWGSL))
	require.NoError(t, err)
	d, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	t.Cleanup(d.Close)
	for _, tc := range []struct{ entry, gap, refusal string }{
		{"gather", "reads no OpImageGather", "unsupported instruction ImageGather"},
		{"arrayDims", "", ""},
		{"arrayLayers", "size of an array texture", "Index 2 is out of bounds"},
		{"arrayLoad", "size of an array texture", "Operation Subtract"},
		{"atomics", "reads no atomic instructions", "unsupported instruction Atomic"},
		{"plainDims", "", ""},
		{"plainLoad", "", ""},
		{"cubeDims", "", ""},
	} {
		t.Run(tc.entry, func(t *testing.T) {
			k, err := EmitEntryKernel(m, tc.entry, oracle.FormatSPIRV, wgsl.Portable, tc.entry)
			require.NoError(t, err)
			gap := spirv.NagaGap(k.SPIRV)
			// No bindings: a module wgpu reads fails later, at the
			// pipeline's layout.
			_, err = d.Run(context.Background(), k, harness.Dispatch{Workgroups: [3]uint32{1, 1, 1}})
			require.Error(t, err)
			const refused = "In wgpuDeviceCreateShaderModule"
			if tc.gap == "" {
				assert.Empty(t, gap)
				assert.NotContains(t, err.Error(), refused)
				return
			}
			assert.Contains(t, gap, tc.gap)
			require.Contains(t, err.Error(), refused, "wgpu now reads this SPIR-V: drop the gap from spirv.NagaGap")
			assert.Contains(t, err.Error(), tc.refusal)
		})
	}
}

// TestSPIRVBackendGapIsUnsupported: an entry point gpudiff's SPIR-V
// backend cannot express (a bgra8unorm storage texture has no SPIR-V
// Image Format) is an Unsupported SPIR-V run, skipped while its WGSL runs,
// not an error verdict; another emitter error stays an error.
func TestSPIRVBackendGapIsUnsupported(t *testing.T) {
	m, err := wgsl.Parse("bgra.wgsl", []byte(`
@group(0) @binding(0) var dst: texture_storage_2d<bgra8unorm, write>;
@compute @workgroup_size(1) fn main() { textureStore(dst, vec2i(0), vec4f(0.5)); }
`))
	require.NoError(t, err)
	_, err = EmitEntryKernel(m, "main", oracle.FormatSPIRV, wgsl.Portable, "main")
	require.Error(t, err)
	assert.Equal(t, oracle.Unsupported, FailureVerdict(err), "%v", err)
	assert.Contains(t, err.Error(), "bgra8unorm has no SPIR-V Image Format")
	_, err = EmitEntryKernel(m, "nope", oracle.FormatSPIRV, wgsl.Portable, "nope")
	require.Error(t, err)
	assert.Equal(t, oracle.Error, FailureVerdict(err), "%v", err)
	// The WGSL emits.
	_, err = EmitEntryKernel(m, "main", oracle.FormatWGSL, wgsl.Portable, "main")
	require.NoError(t, err)
}

// kernelRecorder is a device of implementation "wgpu" that records the
// kernels it is given and renders nothing (a failed run): the test asks
// only which kernels arrive.
type kernelRecorder struct{ got *[]harness.Kernel }

func (d kernelRecorder) Info() harness.AdapterInfo {
	return harness.AdapterInfo{Name: "wgpu-fake:recorder", Implementation: "wgpu"}
}
func (d kernelRecorder) Run(_ context.Context, k harness.Kernel, _ harness.Dispatch) ([]byte, error) {
	*d.got = append(*d.got, k)
	return nil, errors.New("recorder renders nothing")
}

// TestFragmentSPIRVGapIsNotRun: the fragment path, like the compute one,
// does not hand wgpu gpudiff's SPIR-V of a fragment entry point naga
// cannot read (here textureGather), and does hand it the WGSL.
func TestFragmentSPIRVGapIsNotRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gather.wgsl")
	require.NoError(t, os.WriteFile(path, []byte(`
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f {
  return textureGather(1, t, s, p.xy / 4.0);
}
`), 0o644))
	c, err := testcase.Load(path, testcase.LoadOptions{SPIRV: new(true)})
	require.NoError(t, err)
	require.Equal(t, testcase.KindFragment, c.Kind)
	var got []harness.Kernel
	_, err = Execute(context.Background(), c, CaseOptions(c, Options{Devices: []Device{kernelRecorder{&got}}, SPIRV: true}))
	require.NoError(t, err)
	require.NotEmpty(t, got)
	for _, k := range got {
		assert.Empty(t, k.SPIRV, "SPIR-V of %s reached wgpu", k.EntryPoint)
		assert.NotEmpty(t, k.WGSL)
	}
}
