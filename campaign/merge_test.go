package campaign

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
)

// TestMergeJournalsKeepsOneMachinesCaseRule: a signature met in two
// shards has a shrunk, saved case in each; merged, only its first program
// (in index order) keeps the case, and a later compile error with the
// same message signature is recorded as one machine records it — not
// shrunk (finishProgram skips a compile error already saved) — while a
// later failure of a form signature keeps its own shrinking.
func TestMergeJournalsKeepsOneMachinesCaseRule(t *testing.T) {
	dir := t.TempDir()
	const msg = "compile-error/wgpu-vulkan:llvmpipe/wgsl/m0123456789abcdef"
	const form = "flatten/interp/if+else"
	fail := func(i int, sig, c string, class check.Class) ProgramRecord {
		return ProgramRecord{Index: i, Hash: "h", Verdict: "error", Classes: []check.Class{class}, Adapters: []string{"a"},
			Signature: sig, Case: c, Stmts: 30, ShrunkStmts: 5, Invocations: 16}
	}
	pass := func(i int) ProgramRecord {
		return ProgramRecord{Index: i, Hash: "h", Verdict: "pass", Stmts: 9, Invocations: 16}
	}
	shards := [][]ProgramRecord{
		{pass(0), fail(2, msg, "m-0.wgsl", check.ClassCompileError), fail(4, form, "f-4.wgsl", check.ClassFlatten)},
		{fail(1, form, "f-1.wgsl", check.ClassFlatten), fail(3, msg, "m-3.wgsl", check.ClassCompileError), pass(5)},
	}
	var paths []string
	for i, recs := range shards {
		h := Spec{Tool: "t", Seed: 9, Count: 6, Size: 30, Profile: "default", Shard: []string{"0/2", "1/2"}[i], Mode: "portable", Corpus: "cases"}
		data, err := EncodeJournal(h, recs, time.Duration(i+1)*time.Second, false)
		require.NoError(t, err)
		p := filepath.Join(dir, []string{"a", "b"}[i], "j.jsonl")
		require.NoError(t, os.MkdirAll(filepath.Join(filepath.Dir(p), "cases"), 0o755))
		require.NoError(t, os.WriteFile(p, data, 0o644))
		for _, r := range recs {
			if r.Case != "" {
				require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(p), "cases", r.Case), []byte(r.Case), 0o644))
			}
		}
		paths = append(paths, p)
	}
	m, err := MergeJournals(paths)
	require.NoError(t, err)
	require.Len(t, m.Records, 6)
	for i, r := range m.Records {
		require.Equal(t, i, r.Index)
	}
	assert.Equal(t, "f-1.wgsl", m.Records[1].Case)
	assert.Equal(t, "m-0.wgsl", m.Records[2].Case)
	assert.Equal(t, "", m.Records[3].Case, "message signature met again: no case")
	assert.Equal(t, 30, m.Records[3].ShrunkStmts, "and not shrunk")
	assert.Equal(t, "", m.Records[4].Case, "form signature met again: no case")
	assert.Equal(t, 5, m.Records[4].ShrunkStmts, "but shrunk")
	assert.Equal(t, 2*time.Second, m.Summary.Elapsed, "the longest shard's")
	assert.Equal(t, 4, m.Summary.New)
	assert.Len(t, Bugs(m.Summary.Failures), 2)
	assert.Equal(t, "0/1", m.Header.Shard)

	out := filepath.Join(dir, "merged")
	require.NoError(t, m.CheckCases())
	require.NoError(t, m.CopyCases(out))
	files, err := os.ReadDir(out)
	require.NoError(t, err)
	var names []string
	for _, f := range files {
		names = append(names, f.Name())
	}
	assert.Equal(t, []string{"f-1.wgsl", "m-0.wgsl"}, names)
	data, err := os.ReadFile(filepath.Join(out, "m-0.wgsl"))
	require.NoError(t, err)
	assert.Equal(t, "m-0.wgsl", string(data), "copied from the shard that saved it")
}
