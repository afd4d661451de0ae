package campaign

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
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
