package campaign

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/fuzz/shrink"
)

// TestCampaignCatchesInjectedFlattenFault is issue 5's acceptance without
// a GPU: with one flatten rule broken on purpose (flatten.FaultEnv), a
// campaign catches it in the interpreter, shrinks it to at most 10
// statements, saves a case, and replaying the case reproduces the failure
// while the fault is on and passes once it is off.
func TestCampaignCatchesInjectedFlattenFault(t *testing.T) {
	prof, err := gen.LookupProfile("default")
	require.NoError(t, err)
	cfg := Config{Seed: 1, Count: 80, Gen: gen.Config{Profile: prof}, Corpus: t.TempDir(), ToolVersion: "test"}

	clean, err := RunCampaign(t.Context(), cfg)
	require.NoError(t, err)
	require.Zero(t, clean.New, "the unbroken flatten passes these programs: %+v", clean.Failures)

	t.Setenv(flatten.FaultEnv, "retest-else")
	broken, err := RunCampaign(t.Context(), cfg)
	require.NoError(t, err)
	assert.Equal(t, clean.Hashes, broken.Hashes, "same seed, same programs")
	require.NotEmpty(t, broken.Failures, "the broken rule must be caught")
	f := broken.Failures[0]
	assert.Equal(t, check.ClassFlatten, f.Classes[0])
	assert.LessOrEqual(t, f.ShrunkStmts, 10)
	require.NotEmpty(t, f.Case)

	path := filepath.Join(cfg.Corpus, f.Case)
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	c, rec, err := testcase.ParseCase(path, src)
	require.NoError(t, err)
	assert.Equal(t, f.Signature, rec.Signature)
	assert.LessOrEqual(t, shrink.Stmts(c.Module, c.Kernel), 10)
	replay := func() []check.Finding {
		res, err := check.Execute(t.Context(), c.Case(), check.Options{Flat: rec.Flat})
		require.NoError(t, err)
		return check.Attribute(res)
	}
	if fs := replay(); assert.NotEmpty(t, fs) {
		assert.Equal(t, check.ClassFlatten, fs[0].Class, "reproduces with the fault on")
	}
	t.Setenv(flatten.FaultEnv, "")
	assert.Empty(t, replay(), "passes once the rule is fixed")
}
