package campaign

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/devices"
)

// corruptMember is a member of a pool whose dispatches of one program's
// flattened WGSL twin — its campaign runs ("p5/…") and its shrinking
// candidates' ("s5/…"), alone or inside a batch module's label — come back
// with every output byte flipped: a GPU finding that survives shrinking,
// on whichever member runs it.
type corruptMember struct {
	harness.Runner
	part string // "5/kernel_flat/wgsl"
}

func (c *corruptMember) Run(ctx context.Context, k harness.Kernel, job harness.Dispatch) ([]byte, error) {
	out, err := c.Runner.Run(ctx, k, job)
	for _, p := range strings.Split(k.Label, "|") {
		if err == nil && (p == "p"+c.part || p == "s"+c.part) {
			for i := range out {
				out[i] ^= 0xa5
			}
		}
	}
	return out, err
}

// jobsRun is what a campaign writes that must not depend on --jobs: its
// journal's records, its summary (timing aside) and its case files.
type jobsRun struct {
	records []ProgramRecord
	sum     Summary
	cases   map[string]string
}

// TestCampaignIsTheSameForAnyJobs is issue 15's determinism property: a
// campaign on lavapipe run with 1, 2 and 3 devices (worker processes) per
// adapter writes the same journal records, the same summary (timing
// aside) and byte-identical case files — with a flatten fault
// (GPUDIFF_FLATTEN_FAULT=retest-else, shrunk on the interpreter with
// candidates checked in parallel) and a GPU finding (program 5's twin
// corrupted on every member, shrunk with candidates spread over the
// pool's members) among the failures.
func TestCampaignIsTheSameForAnyJobs(t *testing.T) {
	t.Setenv(flatten.FaultEnv, "retest-else")
	prof, err := gen.LookupProfile("default")
	require.NoError(t, err)
	run := func(jobs int) jobsRun {
		set, err := devices.Open([]string{"wgpu-vulkan:llvmpipe"}, devices.Options{Jobs: jobs})
		require.NoError(t, err)
		defer set.Close()
		var dev check.Device = set[0]
		if jobs > 1 {
			p := set[0].(*devices.Pool)
			var ms []harness.Runner
			for _, m := range p.Members() {
				ms = append(ms, &corruptMember{Runner: m, part: "5/kernel_flat/wgsl"})
			}
			dev = devices.NewPool(ms)
		} else {
			dev = &corruptMember{Runner: set[0], part: "5/kernel_flat/wgsl"}
		}
		assert.Equal(t, jobs, jobsOf(dev))
		dir := t.TempDir()
		j, err := CreateJournal(filepath.Join(dir, "journal.jsonl"), Spec{Tool: "test", Seed: 3})
		require.NoError(t, err)
		cfg := Config{Seed: 3, Count: 24, Gen: gen.Config{Profile: prof}, Devices: []check.Device{dev}, SPIRV: true,
			ShrinkAttempts: 40, Corpus: filepath.Join(dir, "corpus"), ToolVersion: "test",
			OnProgram: func(r ProgramRecord) { require.NoError(t, j.Append(r)) }}
		sum, err := RunCampaign(context.Background(), cfg)
		require.NoError(t, err)
		require.NoError(t, j.Close())
		_, recs, _, _, err := ReadJournal(filepath.Join(dir, "journal.jsonl"))
		require.NoError(t, err)
		out := jobsRun{records: recs, sum: *sum, cases: map[string]string{}}
		out.sum.Elapsed, out.sum.Shrinking = 0, 0 // wall times
		for i := range out.sum.Failures {
			out.sum.Failures[i].Millis = 0
		}
		files, err := os.ReadDir(cfg.Corpus)
		require.NoError(t, err)
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(cfg.Corpus, f.Name()))
			require.NoError(t, err)
			out.cases[f.Name()] = string(b)
		}
		return out
	}
	one := run(1)
	require.Len(t, one.records, 24)
	classes := map[check.Class]bool{}
	for _, r := range one.records {
		if len(r.Classes) > 0 {
			classes[r.Classes[0]] = true
		}
		if r.Index == 5 {
			assert.NotEmpty(t, r.Signature, "program 5's corrupted twin is found")
			assert.Less(t, r.ShrunkStmts, r.Stmts, "and shrunk")
		}
	}
	assert.True(t, classes[check.ClassFlatten], "the flatten fault is found: %v", classes)
	assert.Greater(t, len(classes), 1, "a GPU finding besides the flatten fault: %v", classes)
	assert.GreaterOrEqual(t, len(one.cases), 2, "case files saved")
	for _, jobs := range []int{2, 3} {
		got := run(jobs)
		assert.Equal(t, one.records, got.records, "--jobs %d: journal records", jobs)
		assert.Equal(t, one.sum, got.sum, "--jobs %d: summary", jobs)
		assert.Equal(t, one.cases, got.cases, "--jobs %d: case files", jobs)
	}
}
