package shaders

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/oracle"
)

// TestTextureCasesOnGPUs runs every shaders/textures case through the case
// model (check.Load, AnyCase.Execute: the inputs file's textures and
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
			c, err := check.Load(f, check.LoadOptions{Command: "test", Flat: true, SPIRV: true})
			require.NoError(t, err)
			require.NotEmpty(t, c.Textures)
			out, err := c.Execute(context.Background(), c.Options(check.Options{Devices: devs}))
			require.NoError(t, err)
			require.NotEmpty(t, out.Entry.TextureOutputs)
			assert.Equal(t, oracle.Pass, out.Verdict())
			assert.Len(t, out.Entry.Runs, 1+2*4, "interp twin + 2 adapters × {WGSL, SPIR-V} × {original, twin}")
			for _, r := range out.Entry.Runs {
				assert.Empty(t, r.Message, "%s %s %s", r.Adapter, r.Function, r.Format)
			}
		})
	}
}
