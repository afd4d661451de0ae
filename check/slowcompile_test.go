package check

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// TestMain lets this test binary serve as its own harness worker process
// (harness/worker re-executes the running binary with MarkerEnv set), so
// cases run on worker devices as `gpudiff exec` and `run` run them.
func TestMain(m *testing.M) {
	if os.Getenv(worker.MarkerEnv) == "1" {
		if err := worker.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "check test worker:", err)
			os.Exit(worker.ExitServeError)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestSlowCompileIsNoFinding (issue 41: "a finding is a bug"): on a
// lavapipe worker whose compile phase never ends (the injected fault
// slow-compile blocks before the pipeline is created), every run is a
// slow compile — verdict slow-compile, no finding, exit 0, listed by
// SlowCompiles — while on one whose dispatch hangs after compiling
// (fault hang) every run is a timeout, a finding of class timeout, exit 1.
// The same 1 s limits on both: only the phase differs.
func TestSlowCompileIsNoFinding(t *testing.T) {
	m, err := wgsl.Parse("loop.wgsl", []byte(loopKernel))
	require.NoError(t, err)
	c := &testcase.KernelCase{Module: m, Kernel: "k", Args: [][]ir.Value{{ir.U32Val(3)}, {ir.U32Val(5)}}}
	open := func(fault string) Device {
		d, err := worker.Start("wgpu-vulkan:llvmpipe", worker.Options{Timeout: time.Second, CompileTimeout: time.Second,
			Env: []string{worker.FaultEnv + "=" + fault}})
		require.NoError(t, err, "lavapipe comes with `make deps`")
		t.Cleanup(d.Close)
		return d
	}

	res, err := Execute(t.Context(), c.Case(), Options{Devices: []Device{open("slow-compile@")}})
	require.NoError(t, err)
	assert.Equal(t, oracle.SlowCompile, res.Verdict)
	assert.Empty(t, Attribute(res), "a slow compile is not a finding")
	assert.Equal(t, ExitPass, res.Exit())
	slow := res.SlowCompiles()
	require.NotEmpty(t, slow)
	for _, r := range slow {
		assert.Equal(t, "wgpu-vulkan:llvmpipe", r.Adapter)
		assert.Contains(t, r.Message, "compiling")
	}

	res, err = Execute(t.Context(), c.Case(), Options{Devices: []Device{open("hang@")}})
	require.NoError(t, err)
	assert.Equal(t, oracle.Timeout, res.Verdict)
	fs := Attribute(res)
	require.NotEmpty(t, fs)
	assert.Equal(t, ClassTimeout, fs[0].Class)
	assert.Equal(t, ExitFound, res.Exit())
	assert.Empty(t, res.SlowCompiles())
}

// TestSettleLooksPastASlowCompile: a slow compile judged first does not
// hide a later run's failure from the verdict; alone it is the verdict.
func TestSettleLooksPastASlowCompile(t *testing.T) {
	runs := []oracle.Judged{{Run: oracle.Run{Failed: oracle.SlowCompile}}, {Run: oracle.Run{}}, {Run: oracle.Run{Failed: oracle.Crash}}}
	assert.Equal(t, oracle.Crash, settle(runs, oracle.SlowCompile))
	assert.Equal(t, oracle.SlowCompile, settle(runs[:2], oracle.SlowCompile))
	assert.Equal(t, oracle.Mismatch, settle(runs, oracle.Mismatch))
	assert.Equal(t, ExitPass, ExitOf(oracle.SlowCompile, nil))
}
