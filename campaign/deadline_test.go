package campaign

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness/worker"
)

// TestShrinkingStopsAtTheDeadline (issue 25: "--duration 150s ran
// 4m30s"): once a campaign's time is up, a failure is saved as far as it
// had shrunk. The same flatten-fault campaign (no GPU) runs twice: with
// no deadline its failures shrink (some case ends smaller than its
// program); with a deadline already passed (what a --duration campaign
// meets for the programs still in flight when its time is up) no
// candidate is accepted, every failure is marked ShrinkStopped and kept
// at its program's size, and the time spent shrinking is reported.
func TestShrinkingStopsAtTheDeadline(t *testing.T) {
	prof, err := gen.LookupProfile("default")
	require.NoError(t, err)
	t.Setenv(flatten.FaultEnv, "retest-else")
	cfg := Config{Seed: 1, Count: 40, Gen: gen.Config{Profile: prof}, Corpus: t.TempDir(), ToolVersion: "test"}

	full, err := RunCampaign(t.Context(), cfg)
	require.NoError(t, err)
	require.NotEmpty(t, full.Failures, "the broken rule is caught")
	shrunk := false
	for _, f := range full.Failures {
		assert.False(t, f.ShrinkStopped, "program %d: no deadline", f.Index)
		shrunk = shrunk || f.ShrunkStmts < f.Stmts
	}
	assert.True(t, shrunk, "without a deadline some failure shrinks")
	assert.Positive(t, full.Shrinking)

	cfg.Corpus = t.TempDir()
	cfg.deadline = time.Now()
	cut, err := RunCampaign(t.Context(), cfg)
	require.NoError(t, err)
	require.Equal(t, len(full.Failures), len(cut.Failures), "the deadline changes shrinking, not which programs fail")
	saved := map[string]bool{}
	for _, f := range cut.Failures {
		assert.True(t, f.ShrinkStopped, "program %d: shrinking began after the deadline", f.Index)
		assert.Equal(t, f.Stmts, f.ShrunkStmts, "program %d: saved unshrunk", f.Index)
		if f.Case != "" {
			saved[f.Signature] = true
		} else {
			assert.True(t, saved[f.Signature], "program %d: saved, or its signature was saved before", f.Index)
		}
	}
	assert.NotEmpty(t, saved, "failures are still saved")
}

// TestDurationHoldsWhenADeviceHangs (issue 41: "--duration 150s ran
// 11 min 26 s"): a Duration campaign whose device hangs on program 3 (the
// worker fault hang, under a dispatch limit far past the budget) ends
// within its Duration plus 10%: the hung dispatch is abandoned at the
// deadline (its worker killed), program 3 is not recorded — nor anything
// after it, so the records stay a gapless prefix a resume would continue
// — and the campaign is not reported interrupted.
func TestDurationHoldsWhenADeviceHangs(t *testing.T) {
	w, err := worker.Start("wgpu-vulkan:llvmpipe", worker.Options{Env: []string{worker.FaultEnv + "=hang@p3/"}, Timeout: 10 * time.Minute})
	require.NoError(t, err)
	defer w.Close()
	prof, err := gen.LookupProfile("default")
	require.NoError(t, err)
	const budget = 20 * time.Second
	cfg := Config{Seed: 1, Duration: budget, Gen: gen.Config{Profile: prof}, Devices: []check.Device{w},
		ShrinkAttempts: -1, Confirm: true, ToolVersion: "test"}
	t0 := time.Now()
	sum, err := RunCampaign(t.Context(), cfg)
	took := time.Since(t0)
	require.NoError(t, err)
	t.Logf("%d programs in %v (budget %v)", sum.Programs, took, budget)
	assert.Less(t, took, budget+budget/10, "the campaign holds its duration")
	assert.GreaterOrEqual(t, took, budget, "program 3 hangs until the deadline")
	assert.False(t, sum.Interrupted)
	assert.Equal(t, []int{0, 1, 2}, sum.Indices, "the programs before the hang, and none after it")
}

// TestDeadlineLeavesAFailureUnconfirmed: a GPU failure whose confirmation
// the deadline cut off is recorded as unconfirmed — saved unshrunk, not
// new, a bug in state unconfirmed — not dropped and not claimed: the campaign's pipeline
// ctx has ended with errDeadline before finishFailure confirms it.
func TestDeadlineLeavesAFailureUnconfirmed(t *testing.T) {
	w, err := worker.Start("wgpu-vulkan:llvmpipe", worker.Options{Env: []string{worker.FaultEnv + "=crash@p1/"}})
	require.NoError(t, err)
	defer w.Close()
	prof, err := gen.LookupProfile("default")
	require.NoError(t, err)
	cfg := Config{Seed: 1, Count: 2, Invocations: 16, Gen: gen.Config{Profile: prof}, Devices: []check.Device{w},
		Confirm: true, Corpus: t.TempDir(), ToolVersion: "test"}
	pr := startProgram(cfg, 1)
	require.NotNil(t, pr.x)
	res, err := check.Execute(t.Context(), pr.c, pr.opts)
	require.NoError(t, err)
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(errDeadline)
	rec := finishProgram(ctx, cfg, pr, res, nil, map[string]bool{})
	assert.True(t, rec.Unconfirmed, "%+v", rec)
	assert.True(t, rec.Flaky, "counted with the unconfirmed (flaky) ones")
	assert.Contains(t, rec.Signature, "unconfirmed/crash/")
	assert.Contains(t, rec.Implicates, "--duration ran out before a second run")
	assert.Equal(t, rec.Stmts, rec.ShrunkStmts, "not shrunk")
	assert.NotEmpty(t, rec.Case, "saved (%s)", rec.CaseError)
	sum := &Summary{RunsPer: map[string]int{}, Verdicts: map[string]int{}}
	sum.add(rec)
	assert.Equal(t, 1, sum.Flaky)
	assert.Zero(t, sum.New)
	bugs := Bugs(sum.Failures)
	require.Len(t, bugs, 1)
	assert.Equal(t, "unconfirmed", bugs[0].State)
}
