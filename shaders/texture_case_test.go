package shaders

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/oracle"
)

// TestTextureCasesOnGPUs runs every shaders/textures case through the case
// model (testcase.Load, Case.Execute: the inputs file's textures and
// samplers, original and twin, WGSL and gpudiff's SPIR-V) on lavapipe and
// SwiftShader: every stored texel within the reference's codes.
func TestTextureCasesOnGPUs(t *testing.T) {
	files, err := filepath.Glob("textures/*.wgsl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var devs []check.Device
	for _, a := range []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader"} {
		d, err := harness.Open(a)
		require.NoError(t, err)
		defer d.Close()
		devs = append(devs, d)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			c, err := testcase.Load(f, testcase.LoadOptions{Flat: new(true), SPIRV: new(true)})
			require.NoError(t, err)
			require.NotEmpty(t, c.Textures)
			if c.Kind == testcase.KindFragment {
				t.Skip("a fragment entry point: TestFragmentTextureCasesOnGPUs")
			}
			out, err := check.Execute(context.Background(), c, check.CaseOptions(c, check.Options{Devices: devs}))
			require.NoError(t, err)
			require.NotEmpty(t, out.TextureOutputs)
			assert.Equal(t, oracle.Pass, out.Verdict)
			assert.Len(t, out.Runs, 1+2*4, "interp twin + 2 adapters × {WGSL, SPIR-V} × {original, twin}")
			for _, r := range out.Runs {
				assert.Empty(t, r.Message, "%s %s %s", r.Adapter, r.Function, r.Format)
			}
		})
	}
}

// TestFragmentTextureCasesOnGPUs is issue 24's fragment acceptance: every
// fragment entry point of shaders/textures (checker_sample.wgsl: a
// mipmapped checker through a nearest and a linear sampler, implicit
// derivatives) passes through the case model on lavapipe, SwiftShader and
// llvmpipe GL, original and twin, WGSL and gpudiff's SPIR-V.
func TestFragmentTextureCasesOnGPUs(t *testing.T) {
	files, err := filepath.Glob("textures/*.wgsl")
	require.NoError(t, err)
	var devs []check.Device
	adapters := []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader", "wgpu-gl:llvmpipe"}
	for _, a := range adapters {
		d, err := harness.Open(a)
		require.NoError(t, err)
		defer d.Close()
		devs = append(devs, d)
	}
	n := 0
	for _, f := range files {
		c, err := testcase.Load(f, testcase.LoadOptions{Flat: new(true), SPIRV: new(true)})
		require.NoError(t, err)
		if c.Kind != testcase.KindFragment {
			continue
		}
		n++
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, err := check.Execute(context.Background(), c, check.CaseOptions(c, check.Options{Devices: devs}))
			require.NoError(t, err)
			assert.Equal(t, oracle.Pass, out.Verdict)
			assert.Len(t, out.Runs, 1+len(adapters)*4, "interp twin + adapters × {WGSL, SPIR-V} × {original, twin}")
			for _, r := range out.Runs {
				assert.Empty(t, r.Message, "%s %s %s", r.Adapter, r.Function, r.Format)
				assert.Empty(t, r.Mismatches, "%s %s %s", r.Adapter, r.Function, r.Format)
			}
		})
	}
	assert.NotZero(t, n, "shaders/textures has a fragment entry point")
}
