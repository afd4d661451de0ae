package drivers

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/baseline"
)

// ConformanceReport is the raw-mode matrix of shaders/conformance on
// every adapter, run once per test binary (for render_test.go).
var ConformanceReport = conformanceReport

// BaselinedRow is a one-case matrix (case k on lavapipe and GL, both
// differing) compared with a baseline known.txt that knows the GL
// divergence and two entries nothing matches any more.
func BaselinedRow(t *testing.T) *Report {
	rep := row(t, "raw", nil, nil, map[string]r{
		"wgpu-vulkan:llvmpipe original wgsl": bad0,
		"wgpu-gl:llvmpipe original wgsl":     bad0,
	})
	known := &baseline.Set{}
	for _, k := range []string{"k/wgpu-gl:llvmpipe/original/wgsl", "gone/wgpu-gl:llvmpipe/original/wgsl", "*/dawn-gl:llvmpipe/*/*"} {
		require.NoError(t, known.Add(k))
	}
	rep.ApplyBaseline("known.txt", known)
	return rep
}
