package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAdaptersReportFeatures: wgpu-native's adapters list their WebGPU
// features under WebGPU's names (GPUFeatureName, WebGPU §24): lavapipe has
// Vulkan's shaderFloat16 and 16-bit storage, so wgpu lists shader-f16;
// SwiftShader has no shaderFloat16 and wgpu's GL backend never offers
// SHADER_F16 (wgpu 0.19's downlevel GL), so neither lists it; wgpu 0.19
// has no subgroups feature at all (webgpu.h of its time numbers none), so
// no wgpu adapter lists subgroups or a subgroup size.
func TestAdaptersReportFeatures(t *testing.T) {
	all, err := Adapters()
	require.NoError(t, err)
	byName := map[string]AdapterInfo{}
	for _, a := range all {
		byName[a.Name] = a
		require.NotNil(t, a.Features, "%s: features listed", a.Name)
		for _, f := range a.Features {
			assert.Regexp(t, `^[a-z0-9]+(-[a-z0-9]+)*$`, f, "%s: a GPUFeatureName", a.Name)
		}
		assert.False(t, a.HasFeature(FeatureSubgroups), "%s: wgpu 0.19 has no subgroups", a.Name)
		assert.Zero(t, a.SubgroupMinSize, a.Name)
		assert.Zero(t, a.SubgroupMaxSize, a.Name)
	}
	for _, n := range cpuAdapters {
		require.Contains(t, byName, n, installHint)
	}
	assert.True(t, byName[lavapipe].HasFeature(FeatureShaderF16), "%v", byName[lavapipe].Features)
	assert.True(t, byName[lavapipe].HasFeature("float32-filterable"), "WebGPU's spelling: %v", byName[lavapipe].Features)
	assert.False(t, byName[swiftshader].HasFeature(FeatureShaderF16), "SwiftShader has no shaderFloat16: %v", byName[swiftshader].Features)
	assert.False(t, byName[glLLVMpipe].HasFeature(FeatureShaderF16), "%v", byName[glLLVMpipe].Features)

	k, ok := Known(lavapipe)
	require.True(t, ok, "Adapters remembers what it listed")
	assert.Equal(t, byName[lavapipe].Features, k.Features)
	d := openDevice(t, lavapipe)
	assert.Equal(t, byName[lavapipe].Features, d.Info().Features, "a device's Info carries the features")
}

func TestSortFeatures(t *testing.T) {
	assert.Equal(t, []string{"shader-f16", "subgroups"}, SortFeatures([]string{"subgroups", " shader-f16", "subgroups", ""}))
	assert.NotNil(t, SortFeatures(nil), "listed, none")
}
