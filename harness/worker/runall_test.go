package worker

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// TestRunAllIsRunInOrder: RunAll gives every dispatch what Run gives it —
// outputs, a compile error, a crash that costs only its own dispatch (the
// ones after it run on a fresh worker), a timeout likewise.
func TestRunAllIsRunInOrder(t *testing.T) {
	d := startDevice(t, lavapipe, Options{Env: faultEnv("crash@crash/,hang@hang/"), Timeout: 5 * time.Second})
	job := func(n int) harness.Dispatch {
		return harness.Dispatch{Input: le(iota32(n)...), OutputSize: 4 * n, Invocations: n}
	}
	bad := tripler(0, "bad")
	bad.WGSL = bad.WGSL[:len(bad.WGSL)-3] // cut the closing brace: a parse error
	ks := []harness.Kernel{tripler(1, "a"), bad, tripler(2, "b"), tripler(3, "crash/x"), tripler(4, "c"),
		tripler(5, "hang/x"), tripler(6, "d"), tripler(7, "e")}
	jobs := []harness.Dispatch{job(8), job(3), job(70), job(8), job(1), job(8), job(64), job(2)}
	adds := []uint32{1, 0, 2, 3, 4, 5, 6, 7}
	outs, errs := d.RunAll(context.Background(), ks, jobs)
	require.Len(t, outs, len(ks))
	for i, k := range ks {
		switch k.Label {
		case "bad":
			var ce *harness.CompileError
			assert.True(t, errors.As(errs[i], &ce), "%s: %v", k.Label, errs[i])
		case "crash/x":
			var ce *CrashError
			assert.True(t, errors.As(errs[i], &ce), "%s: %v", k.Label, errs[i])
		case "hang/x":
			var te *TimeoutError
			assert.True(t, errors.As(errs[i], &te), "%s: %v", k.Label, errs[i])
		default:
			require.NoError(t, errs[i], k.Label)
			want, err := d.Run(context.Background(), k, jobs[i])
			require.NoError(t, err)
			assert.Equal(t, want, outs[i], k.Label)
			for j, got := range words(outs[i]) {
				require.Equal(t, 3*uint32(j)+adds[i], got, "%s out[%d]", k.Label, j)
			}
		}
	}
	assert.Equal(t, 3, d.Starts(), "the first worker, one after the crash, one after the hang")
}

// TestRunAllStopsWithTheContext: a cancelled RunAll returns promptly, the
// unanswered dispatches get the context's error, and the Device still
// runs afterwards.
func TestRunAllStopsWithTheContext(t *testing.T) {
	d := startDevice(t, lavapipe, Options{Env: faultEnv("hang@hang/")})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	job := harness.Dispatch{Input: le(iota32(4)...), OutputSize: 16, Invocations: 4}
	ks := []harness.Kernel{tripler(1, "a"), tripler(2, "hang/x"), tripler(3, "b")}
	_, errs := d.RunAll(ctx, ks, []harness.Dispatch{job, job, job})
	require.NoError(t, errs[0])
	assert.ErrorIs(t, errs[1], context.DeadlineExceeded)
	assert.ErrorIs(t, errs[2], context.DeadlineExceeded)
	runTriple(t, d, 9, 4, "after")
}
