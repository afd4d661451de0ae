package shaders

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/harness/dawn"
	"github.com/gpudiff/gpudiff/oracle"
)

// TestTextureViewsInCompatibilityMode: a one-layer texture_2d_array
// (textures/compat/one_layer_array.wgsl, hand-derived out = [10, 11, 12,
// 13, 1]) binds on Dawn's GL and GLES backends, which run WebGPU's
// compatibility mode: the harness creates each sampled texture for the
// view dimension its binding uses (textureBindingViewDimension). Before,
// bind-group creation failed there and the run was reported as the
// stack's crash.
func TestTextureViewsInCompatibilityMode(t *testing.T) {
	var devs []check.Device
	for _, a := range []string{"dawn-gl:llvmpipe", "dawn-gles:llvmpipe", "dawn-vulkan:swiftshader"} {
		d, err := dawn.Open(a)
		require.NoError(t, err, "%s is needed: run make deps (npm ci installs Dawn's node binding; Mesa EGL gives it llvmpipe GL)", a)
		defer d.Close()
		devs = append(devs, d)
	}
	c, err := testcase.Load("textures/compat/one_layer_array.wgsl", testcase.LoadOptions{Flat: new(true)})
	require.NoError(t, err)
	out, err := check.Execute(context.Background(), c, check.CaseOptions(c, check.Options{Devices: devs}))
	require.NoError(t, err)
	assert.Equal(t, oracle.Pass, out.Verdict)
	judged := map[string]bool{}
	for _, r := range out.Runs {
		assert.Empty(t, r.Message, "%s %s %s", r.Adapter, r.Function, r.Format)
		judged[r.Adapter] = true
	}
	for _, d := range devs {
		assert.True(t, judged[d.Info().Name], "%s ran", d.Info().Name)
	}
}
