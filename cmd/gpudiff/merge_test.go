package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergeOfFourShardsEqualsOneRun is issue 15's acceptance for many
// machines: a campaign run as 4 shards in 4 real gpudiff processes and put
// together by `gpudiff merge` writes what one unsharded run of the same
// seed and count writes — the JSON report and the JUnit XML (timing
// fields aside), the journal (header and every record) and the case files.
// A flatten fault makes failures of one signature in programs of every
// shard, each shard saving its own case for it: the merge must keep the
// one a single machine saves (the first program's) and drop the others.
func TestMergeOfFourShardsEqualsOneRun(t *testing.T) {
	bin := buildGpudiff(t)
	t.Setenv("GPUDIFF_FLATTEN_FAULT", "retest-else")
	args := []string{"run", "--seed", "1", "--count", "200", "--no-gpu", "--size", "20"}
	outs := []string{"--log", "run.jsonl", "--corpus", "cases", "--report", "report.json", "--junit", "junit.xml"}
	root := t.TempDir()
	single, sharded := filepath.Join(root, "single"), filepath.Join(root, "sharded")
	require.NoError(t, os.Mkdir(single, 0o755))
	require.NoError(t, os.Mkdir(sharded, 0o755))

	one := startGpudiff(t, bin, single, append(append([]string{}, args...), outs...)...)
	var shards []*proc
	var journals []string
	for i := range 4 {
		j := fmt.Sprintf("shard-%d.jsonl", i)
		journals = append(journals, j)
		shards = append(shards, startGpudiff(t, bin, sharded, append(append([]string{}, args...),
			"--shard", fmt.Sprintf("%d/4", i), "--log", j, "--corpus", fmt.Sprintf("shard-%d/cases", i))...))
	}
	require.Equal(t, 1, one.wait(), "the fault makes new bugs\nstdout: %s\nstderr: %s", &one.out, &one.err)
	for i, p := range shards {
		require.Equal(t, 1, p.wait(), "shard %d: every shard meets the bug\nstdout: %s\nstderr: %s", i, &p.out, &p.err)
	}
	// The premise: the bug was met, and saved, in every shard.
	saved := 0
	for i := range 4 {
		files, _ := filepath.Glob(filepath.Join(sharded, fmt.Sprintf("shard-%d", i), "cases", "*.wgsl"))
		saved += len(files)
	}
	var rep struct {
		Bugs []struct {
			Signature string `json:"signature"`
			Programs  []int  `json:"programs"`
		} `json:"bugs"`
	}
	require.NoError(t, json.Unmarshal(readFile(t, filepath.Join(single, "report.json")), &rep))
	require.NotEmpty(t, rep.Bugs)
	in := map[int]bool{}
	for _, i := range rep.Bugs[0].Programs {
		in[i%4] = true
	}
	require.Len(t, in, 4, "bug %s is met in every shard's programs: %v", rep.Bugs[0].Signature, rep.Bugs[0].Programs)
	require.Greater(t, saved, len(rep.Bugs), "the shards saved more case files than there are signatures")

	m := startGpudiff(t, bin, sharded, append([]string{"merge"}, append(outs, journals...)...)...)
	require.Equal(t, 1, m.wait(), "merge exits as run does: 1 with new bugs\nstdout: %s\nstderr: %s", &m.out, &m.err)
	assert.Contains(t, m.out.String(), "merged 4 shards")

	// Reports and JUnit: equal once timing is stripped.
	timing := regexp.MustCompile(`(?m)^  "(elapsed_ms|shrinking_ms|programs_per_second)": [0-9.e+-]+,\n| (time|timestamp)="[^"]*"`)
	for _, f := range []string{"report.json", "junit.xml"} {
		want, got := readFile(t, filepath.Join(single, f)), readFile(t, filepath.Join(sharded, f))
		assert.Equal(t, timing.ReplaceAllString(string(want), ""), timing.ReplaceAllString(string(got), ""), "%s", f)
	}
	// Journals: the same header (shard 0/1, the same outputs) and records.
	wh, wrecs, wprog := readJournal(t, filepath.Join(single, "run.jsonl"))
	gh, grecs, gprog := readJournal(t, filepath.Join(sharded, "run.jsonl"))
	assert.Equal(t, wh, gh)
	require.Len(t, grecs, 200)
	assert.Equal(t, wrecs, grecs)
	assert.True(t, wprog.Finished && gprog.Finished)
	// Case files: the same names and bytes.
	assert.Equal(t, dirFiles(t, filepath.Join(single, "cases")), dirFiles(t, filepath.Join(sharded, "cases")))
}

// TestMergeRefusesAnIncompleteOrMismatchedCampaign: a shard missing, given
// twice, unfinished or of another campaign is exit 2 naming the file, and
// nothing is written.
func TestMergeRefusesAnIncompleteOrMismatchedCampaign(t *testing.T) {
	bin := buildGpudiff(t)
	dir := t.TempDir()
	for i, seed := range []string{"3", "3", "4"} {
		p := startGpudiff(t, bin, dir, "run", "--seed", seed, "--count", "8", "--no-gpu", "--size", "6",
			"--shard", fmt.Sprintf("%d/2", i%2), "--log", fmt.Sprintf("s%d.jsonl", i))
		require.Equal(t, 0, p.wait(), "stderr: %s", &p.err)
	}
	// s3: shard 1/2 cut after its first record, as a killed run leaves it.
	data := readFile(t, filepath.Join(dir, "s1.jsonl"))
	lines := regexp.MustCompile(`(?m)^.*\n`).FindAllString(string(data), 2)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "s3.jsonl"), []byte(lines[0]+lines[1]), 0o644))

	cases := []struct {
		inputs []string
		want   string
	}{
		{[]string{"s0.jsonl"}, "the campaign has 2 shards and no journal given is shard 1/2"},
		{[]string{"s0.jsonl", "s1.jsonl", "s0.jsonl"}, "s0.jsonl: shard 0/2 is given twice"},
		{[]string{"s0.jsonl", "s2.jsonl"}, "s2.jsonl: not a shard of the campaign of s0.jsonl: its seed is 4, not 3"},
		{[]string{"s0.jsonl", "s3.jsonl"}, "s3.jsonl: shard 1/2 holds 1 of its 4 programs (#3 on are missing): the shard did not finish; continue it with gpudiff run --resume s3.jsonl"},
		{[]string{"s0.jsonl", "nope.jsonl"}, "nope.jsonl: no such file"},
	}
	for _, c := range cases {
		p := startGpudiff(t, bin, dir, append([]string{"merge", "--report", "out.json"}, c.inputs...)...)
		assert.Equal(t, 2, p.wait(), "%v", c.inputs)
		assert.Contains(t, p.err.String(), c.want, "%v", c.inputs)
		assert.NoFileExists(t, filepath.Join(dir, "out.json"))
	}
	p := startGpudiff(t, bin, dir, "merge", "--report", "out.json", "s1.jsonl", "s0.jsonl")
	require.Equal(t, 0, p.wait(), "stderr: %s", &p.err)
	assert.Regexp(t, `"programs": 8,`, string(readFile(t, filepath.Join(dir, "out.json"))))
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

// dirFiles maps the names of the files in dir to their contents.
func dirFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	out := map[string]string{}
	for _, e := range ents {
		out[e.Name()] = string(readFile(t, filepath.Join(dir, e.Name())))
	}
	return out
}
