package shaders

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/oracle"
)

// TestRegressions replays every case under shaders/regress (case files
// saved from bugs gpudiff found in itself or worked around in a stack)
// forever: the reference interpreter must still produce the recorded
// reference, the twin must agree with it, and on lavapipe every recorded
// path (WGSL and gpudiff's SPIR-V, original and twin, the recorded mode)
// must agree — each case stays fixed.
func TestRegressions(t *testing.T) {
	files, err := filepath.Glob("regress/*.wgsl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	dev, err := worker.Start("wgpu-vulkan:llvmpipe", worker.Options{})
	require.NoError(t, err, "lavapipe is needed: install mesa-vulkan-drivers (make deps)")
	defer dev.Close()
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			c, rec, mode := readCase(t, path)

			// Interpreter parts, no GPU: the recorded reference still holds.
			res, err := check.Execute(t.Context(), c.Case(), check.Options{Flat: rec.Flat})
			require.NoError(t, err)
			require.Len(t, res.Reference, len(rec.Reference))
			for i, want := range rec.Reference {
				got := oracle.InvocationJSON(res.Reference[i], res.Names)
				assert.JSONEq(t, string(want), string(bytes.TrimSpace(got)), "reference of invocation %d drifted", i)
			}
			assert.Equal(t, oracle.Pass, res.Verdict, "interp(twin): %v", check.Attribute(res))

			// GPU parts on lavapipe.
			res, err = check.Execute(t.Context(), c.Case(), check.Options{Devices: []check.Device{dev}, Flat: rec.Flat, SPIRV: rec.SPIRV, Mode: mode})
			require.NoError(t, err)
			assert.Equal(t, oracle.Pass, res.Verdict, "%v", check.Attribute(res))
			assert.Len(t, res.Runs, boolInt(rec.Flat)+(1+boolInt(rec.Flat))*(1+boolInt(rec.SPIRV)), "every recorded path ran")
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// readCase reads a case file and its recorded emission mode.
func readCase(t *testing.T, path string) (*testcase.KernelCase, *testcase.CaseRecord, wgsl.Mode) {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	c, rec, err := testcase.ParseCase(path, src)
	require.NoError(t, err)
	mode, err := wgsl.ParseMode(rec.Mode)
	require.NoError(t, err)
	return c, rec, mode
}
