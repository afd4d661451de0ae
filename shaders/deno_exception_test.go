package shaders

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/drivers"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/oracle"
)

// TestWorkerExceptionDoesNotReachTheNextCase: Deno's WebGPU on lavapipe
// throws in the worker on lavapipe_transpose_times_transpose's dispatch
// ("Buffer with 'group 0 binding 0' label is invalid") and its device is
// lost a moment later. The worker exits after such an exception
// (worker.mjs), so the next case on the same device runs on a fresh one;
// before, histogram's run right after it failed with "device lost" — a
// crash of a case that does not crash.
func TestWorkerExceptionDoesNotReachTheNextCase(t *testing.T) {
	d, err := harness.OpenAny("deno-vulkan:llvmpipe")
	require.NoError(t, err, "deno-vulkan:llvmpipe is needed: make deps (npm deno, mesa-vulkan-drivers)")
	t.Cleanup(d.Close)
	run := func(path string) *check.Result {
		c, err := drivers.LoadFile(path)
		require.NoError(t, err)
		res, err := check.Execute(t.Context(), c.Case, check.Options{Devices: []check.Device{d}})
		require.NoError(t, err)
		return res
	}
	first := run("../findings/compute/lavapipe_transpose_times_transpose.wgsl")
	if first.Verdict != oracle.Crash {
		t.Logf("the first case no longer throws on %s (%s): this test then checks nothing", d.Info().Name, first.Verdict)
	}
	next := run("compute/histogram.wgsl")
	for _, r := range next.Runs {
		assert.NotEqual(t, oracle.Crash, r.Verdict, "%s %s: %s", r.Adapter, r.Function, r.Message)
	}
	assert.Equal(t, oracle.Pass, next.Verdict)
}
