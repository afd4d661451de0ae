package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// TestWGPULogReachesStderr: with GPUDIFF_WGPU_LOG=debug, wgpu-native's log
// in the worker process reaches gpudiff's stderr, each line prefixed with
// its adapter — naga's GLSL for wgpu's GL backend is how findings/README.md
// reads what that stack compiled; without it, none of it does.
func TestWGPULogReachesStderr(t *testing.T) {
	_, err := harness.AllAdapters() // this process's own WebGPU instance is created quiet
	require.NoError(t, err)
	args := []string{"exec", repo("shaders/examples/shade.wgsl"), "--adapter", "gl:llvmpipe", "--invocations", "2"}

	t.Setenv(harness.LogEnv, "debug")
	code, _, stderr := gpudiff(t, args...)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "[wgpu-gl:llvmpipe] [wgpu] [Debug] Naga generated shader:\n[wgpu-gl:llvmpipe] #version ")
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		assert.True(t, strings.HasPrefix(line, "[wgpu-gl:llvmpipe] "), "unprefixed line %q", line)
	}

	t.Setenv(harness.LogEnv, "")
	code, _, stderr = gpudiff(t, args...)
	assert.Equal(t, 0, code, stderr)
	assert.NotContains(t, stderr, "[wgpu-gl:llvmpipe]")
}
