package worker

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// TestSlowCompileIsToldFromAHang (issue 41: lavapipe compiles a large
// twin for longer than --timeout, which is not a hang): on lavapipe, a
// dispatch whose compile phase takes 2 s (the injected slow-compile
// sleeps before the pipeline is created) succeeds under a 1 s dispatch
// limit, because compiling has a limit of its own (3 s); one that never
// finishes compiling is a TimeoutError of the compile phase after the
// compile limit; one that compiles and then hangs is a TimeoutError of the
// dispatch phase after the dispatch limit. RunAll times each kernel's
// phases the same way.
func TestSlowCompileIsToldFromAHang(t *testing.T) {
	d := startDevice(t, lavapipe, Options{Timeout: time.Second, CompileTimeout: 3 * time.Second,
		Env: faultEnv("slow-compile:2s@slow/,slow-compile@stuck/,hang@hang/")})

	t0 := time.Now()
	runTriple(t, d, 5, 70, "slow/p1")
	assert.GreaterOrEqual(t, time.Since(t0), 2*time.Second, "the compile phase slept")
	assert.Equal(t, 1, d.Starts(), "a compile slower than the dispatch limit kills nothing")

	te, took := runTimeout(t, d, "stuck/p2", PhaseCompile, 3*time.Second)
	assert.GreaterOrEqual(t, took, 3*time.Second)
	assert.Contains(t, te.Error(), "compiling")

	te, took = runTimeout(t, d, "hang/p3", PhaseDispatch, time.Second)
	assert.Less(t, took, 3*time.Second, "a hang is cut at the dispatch limit, not the compile limit")
	assert.Contains(t, te.StderrTail, `injecting fault hang@hang/ into dispatch "hang/p3"`)

	job := harness.Dispatch{Input: le(iota32(4)...), OutputSize: 16, Invocations: 4}
	ks := []harness.Kernel{tripler(1, "slow/a"), tripler(2, "stuck/b"), tripler(3, "c"), tripler(4, "hang/d"), tripler(5, "e")}
	outs, errs := d.RunAll(context.Background(), ks, []harness.Dispatch{job, job, job, job, job})
	for _, i := range []int{0, 2, 4} {
		require.NoError(t, errs[i], ks[i].Label)
		assert.Equal(t, []uint32{uint32(i + 1), uint32(i + 4), uint32(i + 7), uint32(i + 10)}, words(outs[i]), ks[i].Label)
	}
	require.ErrorAs(t, errs[1], &te)
	assert.Equal(t, PhaseCompile, te.Phase, "stuck/b")
	require.ErrorAs(t, errs[3], &te)
	assert.Equal(t, PhaseDispatch, te.Phase, "hang/d")
	assert.Equal(t, 5, d.Starts(), "killed: stuck/p2, hang/p3, stuck/b, hang/d")
}

// TestSlowCompileFaultSyntax: only slow-compile takes a duration, and it
// must parse and be positive.
func TestSlowCompileFaultSyntax(t *testing.T) {
	fs, err := parseFaults("slow-compile:1500ms@p1/,slow-compile@p2/,hang@p3/")
	require.NoError(t, err)
	require.Len(t, fs, 3)
	assert.Equal(t, 1500*time.Millisecond, fs[0].sleep)
	assert.True(t, fs[0].compilePhase())
	assert.Equal(t, time.Duration(0), fs[1].sleep)
	assert.False(t, fs[2].compilePhase())
	for _, bad := range []string{"hang:1s@p/", "slow-compile:x@p/", "slow-compile:-1s@p/"} {
		_, err := parseFaults(bad)
		assert.Error(t, err, bad)
	}
}

// TestGLFirstDispatchHasBothLimits: on wgpu-gl (Mesa's llvmpipe compiles a
// GL pipeline at its first dispatch, and GL skips a zero-workgroup
// dispatch, so the compile cannot be finished before it), the phase after
// the compile phase has the compile and dispatch limits together (1 s +
// 2 s): a dispatch that hangs after compiling is cut after 3 s, not 1 s,
// as a timeout of the first-dispatch phase that does not claim to be a
// hang or a slow compile; a plain dispatch still runs.
func TestGLFirstDispatchHasBothLimits(t *testing.T) {
	d := startDevice(t, "wgpu-gl:llvmpipe", Options{Timeout: time.Second, CompileTimeout: 2 * time.Second,
		Env: faultEnv("hang@hang/")})
	runTriple(t, d, 5, 70, "ok/p1")

	te, took := runTimeout(t, d, "hang/p2", PhaseFirstDispatch, 3*time.Second)
	assert.GreaterOrEqual(t, took, 3*time.Second, "cut at both limits together")
	assert.Contains(t, te.Error(), harness.FirstDispatchTimeout)
}

// runTimeout runs tripler(1, label) on d, which must end in a
// *TimeoutError of phase after limit (a slow compile exactly when phase
// is PhaseCompile) wrapping context.DeadlineExceeded; it returns the error
// and how long Run took.
func runTimeout(t *testing.T, d *Device, label, phase string, limit time.Duration) (*TimeoutError, time.Duration) {
	t.Helper()
	t0 := time.Now()
	_, err := d.Run(context.Background(), tripler(1, label), oneJob)
	took := time.Since(t0)
	var te *TimeoutError
	require.ErrorAs(t, err, &te, label)
	assert.Equal(t, phase, te.Phase, label)
	assert.Equal(t, phase == PhaseCompile, te.SlowCompile(), label)
	assert.Equal(t, limit, te.After, label)
	assert.ErrorIs(t, err, context.DeadlineExceeded, label)
	return te, took
}
