package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/check"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// buildGpudiff returns the real gpudiff binary (with its VCS stamp, as
// `make build` does): interruption and `kill -9` are properties of a
// process, not of run(). It is built once per test binary, by the first
// test that asks, into builtGpudiff.dir, which TestMain removes at the end.
func buildGpudiff(t *testing.T) string {
	t.Helper()
	b := &builtGpudiff
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "gpudiff-bin-"); b.err != nil {
			return
		}
		b.bin = filepath.Join(b.dir, "gpudiff")
		b.out, b.err = exec.Command("go", "build", "-buildvcs=auto", "-o", b.bin, ".").CombinedOutput()
	})
	require.NoError(t, b.err, "go build: %s", b.out)
	return b.bin
}

// builtGpudiff is buildGpudiff's one build.
var builtGpudiff struct {
	once     sync.Once
	dir, bin string
	out      []byte
	err      error
}

// removingBuiltGpudiff runs the tests, then removes buildGpudiff's
// directory (testscript.Main exits with Run's code, so TestMain cannot
// defer it).
type removingBuiltGpudiff struct{ m *testing.M }

func (r removingBuiltGpudiff) Run() int {
	code := r.m.Run()
	if builtGpudiff.dir != "" {
		os.RemoveAll(builtGpudiff.dir)
	}
	return code
}

// proc is a gpudiff process started by a test.
type proc struct {
	cmd      *exec.Cmd
	out, err bytes.Buffer // read only once done is closed
	done     chan struct{}
	code     int
}

// startGpudiff starts bin with args in dir.
func startGpudiff(t *testing.T, bin, dir string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(bin, args...), done: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.err
	require.NoError(t, p.cmd.Start())
	go func() {
		err := p.cmd.Wait()
		if ee, ok := err.(*exec.ExitError); ok {
			p.code = ee.ExitCode()
		} else if err != nil {
			p.code = -1
		}
		close(p.done)
	}()
	return p
}

// wait waits for the process and returns its exit status.
func (p *proc) wait() int {
	<-p.done
	return p.code
}

// journalRecords counts the complete record lines of a journal being
// written (the header and progress lines are not records).
func journalRecords(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
		data = data[:i+1]
	}
	return bytes.Count(data, []byte(`"hash":`))
}

// waitRecords waits until the journal at path holds at least n records;
// the process ending first fails the test (it was to be stopped
// mid-campaign).
func waitRecords(t *testing.T, p *proc, path string, n int) {
	t.Helper()
	for journalRecords(path) < n {
		select {
		case <-p.done:
			t.Fatalf("gpudiff ended (status %d) before its journal held %d records:\n%s\n%s", p.code, n, &p.out, &p.err)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func readJournal(t *testing.T, path string) (campaign.Spec, []campaign.ProgramRecord, campaign.JournalProgress) {
	t.Helper()
	h, recs, prog, _, err := campaign.ReadJournal(path)
	require.NoError(t, err)
	return h, recs, prog
}

// TestResumeAfterKill9EndsWithTheUninterruptedRecords is issue 12 item 3's
// acceptance for each kind of campaign: a real gpudiff process is killed
// with SIGKILL mid-campaign, `gpudiff run --resume LOG` (no other flag)
// finishes it, and the journal's records are exactly those of an
// uninterrupted run. A --duration campaign stays one (its resumed run
// checks new programs for the rest of its budget, not "200 programs");
// which programs it reaches depends on time, so its records are compared
// with an uninterrupted run of exactly those program indices.
func TestResumeAfterKill9EndsWithTheUninterruptedRecords(t *testing.T) {
	bin := buildGpudiff(t)
	cases := []struct {
		name   string
		args   []string
		killAt int // records in the journal when the campaign is killed
	}{
		{"count no-gpu", []string{"--seed", "5", "--count", "400", "--no-gpu"}, 40},
		{"duration no-gpu", []string{"--seed", "6", "--duration", "3s", "--no-gpu"}, 10},
		// swiftshader is not the default adapter: a resume that lost the
		// adapter list would run lavapipe and record other runs.
		{"adapter", []string{"--seed", "7", "--count", "90", "--adapter", "vulkan:swiftshader", "--size", "8", "--invocations", "4"}, 8},
		{"no-spirv", []string{"--seed", "8", "--count", "90", "--no-spirv", "--size", "8", "--invocations", "4", "--timeout", "1m"}, 8},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // processes of their own, in directories of their own
			dir := t.TempDir()
			log := filepath.Join(dir, "killed.jsonl")
			p := startGpudiff(t, bin, dir, append([]string{"run", "--log", log, "--corpus", filepath.Join(dir, "cases")}, c.args...)...)
			waitRecords(t, p, log, c.killAt)
			require.NoError(t, p.cmd.Process.Kill()) // SIGKILL: no chance to clean up
			p.wait()
			_, before, prog := readJournal(t, log)
			require.False(t, prog.Finished, "the campaign finished before it was killed")

			p = startGpudiff(t, bin, dir, "run", "--resume", log)
			require.Equal(t, 0, p.wait(), "stdout: %s\nstderr: %s", &p.out, &p.err)
			h, after, prog := readJournal(t, log)
			assert.True(t, prog.Finished)
			require.Greater(t, len(after), len(before), "the resumed run checked nothing new")
			assert.Equal(t, before, after[:len(before)], "a resume keeps the records it found")
			for k, r := range after {
				require.Equal(t, k, r.Index, "records are program indices 0, 1, 2, … with none lost or repeated")
			}

			// The uninterrupted run of the same campaign (for a duration
			// campaign: of the program indices the resumed one reached).
			ref := filepath.Join(dir, "uninterrupted.jsonl")
			refArgs := append([]string{"run", "--log", ref, "--corpus", filepath.Join(dir, "ref-cases")}, c.args...)
			if h.Duration > 0 {
				assert.Equal(t, "3s", h.Duration.String())
				assert.Zero(t, h.Count, "a resumed duration campaign is not a count campaign")
				assert.GreaterOrEqual(t, prog.Elapsed(), 3*time.Second, "the journal says the budget was spent")
				refArgs = durationToCount(refArgs, len(after))
			} else {
				assert.Len(t, after, h.Count)
			}
			p = startGpudiff(t, bin, dir, refArgs...)
			require.Equal(t, 0, p.wait(), "stdout: %s\nstderr: %s", &p.out, &p.err)
			_, want, _ := readJournal(t, ref)
			assert.Equal(t, want, after)
		})
	}
}

// durationToCount turns "--duration D" in args into "--count n".
func durationToCount(args []string, n int) []string {
	out := append([]string{}, args...)
	for k := range out[:len(out)-1] {
		if out[k] == "--duration" {
			out[k], out[k+1] = "--count", strconv.Itoa(n)
		}
	}
	return out
}

// TestResumeContradictionsExit2: a flag given on resume that contradicts
// the journal is exit 2 naming it; one that agrees, or an output flag,
// is accepted; a resume needs none.
func TestResumeContradictionsExit2(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "j.jsonl")
	code, out, errOut := gpudiff(t, "run", "--seed", "3", "--count", "6", "--no-gpu", "--size", "10", "--log", log, "--corpus", filepath.Join(dir, "cases"))
	require.Equal(t, 0, code, "%s\n%s", out, errOut)
	h, recs, prog := readJournal(t, log)
	require.Len(t, recs, 6)
	assert.True(t, prog.Finished)
	assert.True(t, h.NoGPU)
	assert.Equal(t, []string{}, h.Adapters)
	assert.Equal(t, 10, h.Size)
	assert.Equal(t, "0/1", h.Shard)
	assert.Equal(t, 30*time.Second, time.Duration(h.Timeout))
	assert.Equal(t, check.DefaultLimits.Steps, h.MaxSteps)

	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--seed", "4"}, "--seed=4"},
		{[]string{"--count", "7"}, "--count=7"},
		{[]string{"--duration", "1m"}, "--duration=1m0s"},
		{[]string{"--size", "11"}, "--size=11"},
		{[]string{"--no-gpu=false"}, "--no-gpu=false"},
		{[]string{"--adapter", "vulkan:llvmpipe"}, "--adapter=[wgpu-vulkan:llvmpipe]"},
		{[]string{"--no-spirv"}, "--no-spirv=true"},
		{[]string{"--timeout", "5s"}, "--timeout=5s"},
		{[]string{"--max-steps", "99"}, "--max-steps=99"},
		{[]string{"--shrink-attempts", "-1"}, "--shrink-attempts=-1"},
		{[]string{"--mode", "raw"}, "--mode=raw"},
		{[]string{"--whitelist", "abs"}, "--whitelist=[abs]"},
	} {
		code, _, errOut := gpudiff(t, append([]string{"run", "--resume", log}, c.args...)...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.flag+" contradicts the resumed journal", "%v", c.args)
	}
	t.Setenv("GPUDIFF_FLATTEN_FAULT", "retest-else")
	code, _, errOut = gpudiff(t, "run", "--resume", log)
	assert.Equal(t, 2, code, errOut)
	assert.Contains(t, errOut, "GPUDIFF_FLATTEN_FAULT=retest-else contradicts the resumed journal")
	t.Setenv("GPUDIFF_FLATTEN_FAULT", "")

	// Agreeing flags and outputs are fine; nothing new is run.
	report := filepath.Join(dir, "r.json")
	code, out, errOut = gpudiff(t, "run", "--resume", log, "--seed", "3", "--no-gpu", "--report", report)
	require.Equal(t, 0, code, "%s\n%s", out, errOut)
	assert.Contains(t, out, "6 programs")
	var rep struct {
		Programs    int  `json:"programs"`
		Interrupted bool `json:"interrupted"`
	}
	data, err := os.ReadFile(report)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &rep))
	assert.Equal(t, 6, rep.Programs)
	assert.False(t, rep.Interrupted)

	// The baseline is part of the campaign: a resume reads the same file
	// and refuses it once it changed.
	known := filepath.Join(dir, "known.txt")
	require.NoError(t, os.WriteFile(known, []byte("flatten/interp/*\n"), 0o644))
	withBaseline := filepath.Join(dir, "b.jsonl")
	code, out, errOut = gpudiff(t, "run", "--seed", "3", "--count", "2", "--no-gpu", "--baseline", known, "--log", withBaseline, "--corpus", filepath.Join(dir, "cases"))
	require.Equal(t, 0, code, "%s\n%s", out, errOut)
	code, _, errOut = gpudiff(t, "run", "--resume", withBaseline)
	assert.Equal(t, 0, code, errOut)
	require.NoError(t, os.WriteFile(known, []byte("flatten/interp/*\nvendor/*\n"), 0o644))
	code, _, errOut = gpudiff(t, "run", "--resume", withBaseline)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "the baseline "+known+" is not the one the campaign began with")

	// A journal of the first format recorded too little to resume.
	old := filepath.Join(dir, "old.jsonl")
	require.NoError(t, os.WriteFile(old, []byte(`{"journal":"gpudiff-campaign/1","seed":1,"count":5}`+"\n"), 0o644))
	code, _, errOut = gpudiff(t, "run", "--resume", old)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "gpudiff-campaign/1 is from an older gpudiff")
}

// TestSignalStopsACampaignLoudly is issue 12 item 8: SIGTERM or SIGINT
// during a campaign gives a summary, report and JUnit marked interrupted
// and exit 143 or 130, never 0; the journal is left resumable, and the
// resumed campaign ends with the uninterrupted run's records.
func TestSignalStopsACampaignLoudly(t *testing.T) {
	bin := buildGpudiff(t)
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			t.Parallel() // processes of their own, in directories of their own
			dir := t.TempDir()
			log, report, junit := filepath.Join(dir, "j.jsonl"), filepath.Join(dir, "r.json"), filepath.Join(dir, "j.xml")
			campaign := []string{"--seed", "9", "--count", "500", "--no-gpu"}
			p := startGpudiff(t, bin, dir, append([]string{"run", "--log", log, "--report", report, "--junit", junit}, campaign...)...)
			waitRecords(t, p, log, 20)
			require.NoError(t, p.cmd.Process.Signal(c.sig))
			require.Equal(t, c.code, p.wait(), "stdout: %s\nstderr: %s", &p.out, &p.err)
			assert.Contains(t, p.out.String(), "INTERRUPTED")
			assert.Contains(t, p.err.String(), "gpudiff run: interrupted by SIG")
			assert.Contains(t, p.err.String(), "gpudiff run --resume "+log)
			var rep struct {
				Programs    int  `json:"programs"`
				Interrupted bool `json:"interrupted"`
			}
			data, err := os.ReadFile(report)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(data, &rep))
			assert.True(t, rep.Interrupted)
			assert.Less(t, rep.Programs, 500)
			x, err := os.ReadFile(junit)
			require.NoError(t, err)
			assert.Contains(t, string(x), `name="campaign-interrupted"`)
			assert.Contains(t, string(x), "<error")
			_, recs, prog := readJournal(t, log)
			assert.True(t, prog.Interrupted)
			assert.Equal(t, rep.Programs, len(recs), "the journal holds every program the report counts")
			if c.sig != syscall.SIGTERM {
				return
			}
			p = startGpudiff(t, bin, dir, "run", "--resume", log)
			require.Equal(t, 0, p.wait(), "stdout: %s\nstderr: %s", &p.out, &p.err)
			ref := filepath.Join(dir, "ref.jsonl")
			p = startGpudiff(t, bin, dir, append([]string{"run", "--log", ref, "--corpus", filepath.Join(dir, "ref-cases")}, campaign...)...)
			require.Equal(t, 0, p.wait(), "stdout: %s\nstderr: %s", &p.out, &p.err)
			_, got, _ := readJournal(t, log)
			_, want, _ := readJournal(t, ref)
			assert.Equal(t, want, got)
		})
	}
}

// TestVersionNamesTheCommit: a gpudiff built from this checkout names its
// commit (issue 12 item 9), and every record of a version uses it.
func TestVersionNamesTheCommit(t *testing.T) {
	rev, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not a git checkout: the build carries no commit to check")
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	require.NoError(t, err)
	if st, err := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git")); err == nil && !st.IsDir() {
		// go build stamps VCS information only where .git is a directory,
		// not in a linked worktree or submodule, whose .git is a file.
		t.Skip("a linked git worktree: go build does not stamp its commit")
	}
	bin := buildGpudiff(t)
	out, err := exec.Command(bin, "--version").Output()
	require.NoError(t, err)
	assert.Regexp(t, `^gpudiff version \S+\+`+string(rev[:12])+` \d{4}-\d\d-\d\dT`, string(out))
	assert.NotContains(t, string(out), "+dirty", "the pseudo-version's own dirty mark is not repeated")
}
