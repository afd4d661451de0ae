package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// TestPrefixWriter: complete lines come out prefixed, whatever the write
// boundaries; a line without its newline waits for it.
func TestPrefixWriter(t *testing.T) {
	var out bytes.Buffer
	var mu sync.Mutex
	a := &prefixWriter{mu: &mu, w: &out, prefix: "[a] "}
	b := &prefixWriter{mu: &mu, w: &out, prefix: "[b] "}
	for _, s := range []string{"one\ntw", "o\n", "thr"} {
		n, err := a.Write([]byte(s))
		require.NoError(t, err)
		assert.Equal(t, len(s), n)
	}
	_, err := b.Write([]byte("x\n\ny\n"))
	require.NoError(t, err)
	_, err = a.Write([]byte("ee\n"))
	require.NoError(t, err)
	assert.Equal(t, "[a] one\n[a] two\n[b] x\n[b] \n[b] y\n[a] three\n", out.String())
}

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
