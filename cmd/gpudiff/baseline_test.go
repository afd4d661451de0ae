package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/baseline"
	"github.com/gpudiff/gpudiff/flatten"
)

// TestRunBaseline: with one flatten rule broken on purpose, `run --no-gpu`
// finds flatten failures (exit 1); the same run with its own report as
// --baseline, or with a text baseline whose pattern covers them, exits 0
// and counts them known (a pattern that knows every flatten failure also
// spares their shrinking and case files); a pattern for another class
// leaves them new; a malformed pattern is a usage error naming the file
// and line.
func TestRunBaseline(t *testing.T) {
	t.Setenv(flatten.FaultEnv, "retest-else")
	dir := t.TempDir()
	report := filepath.Join(dir, "r.json")
	args := []string{"run", "--seed", "1", "--count", "30", "--no-gpu", "--corpus", filepath.Join(dir, "cases")}

	code, out, errOut := gpudiff(t, append(args, "--report", report)...)
	require.Equal(t, 1, code, "the broken rule is found:\n%s\n%s", out, errOut)
	var rep struct {
		Failures []struct {
			Signature string `json:"signature"`
			Known     bool   `json:"known"`
		} `json:"failures"`
		NewBugs int `json:"new_bugs"`
		Bugs    []struct {
			Signature string `json:"signature"`
			Programs  []int  `json:"programs"`
		} `json:"bugs"`
	}
	data, err := os.ReadFile(report)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &rep))
	require.NotEmpty(t, rep.Failures)
	for _, f := range rep.Failures {
		require.Regexp(t, `^flatten/interp/if\+else(\+[a-z]+)*$`, f.Signature) // the construct, not the program
		assert.False(t, f.Known)
	}
	// One line per bug: the report, the summary and the exit message
	// count bugs and the programs that met them.
	require.Len(t, rep.Bugs, rep.NewBugs)
	programs := 0
	for _, b := range rep.Bugs {
		programs += len(b.Programs)
		assert.Equal(t, 1, strings.Count(out, "NEW   "+b.Signature+":"), "each bug once:\n%s", out)
	}
	assert.Equal(t, len(rep.Failures), programs)
	assert.Less(t, rep.NewBugs, len(rep.Failures), "%d failures are fewer bugs", len(rep.Failures))
	phrase := fmt.Sprintf("%d new bug%s in %d programs", rep.NewBugs, map[bool]string{true: "", false: "s"}[rep.NewBugs == 1], programs)
	assert.Contains(t, errOut, "gpudiff run: "+phrase)
	assert.Regexp(t, `new bugs +│ `+fmt.Sprintf("%d in %d programs", rep.NewBugs, programs), out)

	text := func(name, lines string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(lines), 0o644))
		return p
	}
	for _, c := range []struct {
		name, baseline string
		code           int
		saved          bool // failures are shrunk and saved
	}{
		{"its own report", report, 0, true},
		// flatten/interp/* knows every flatten failure whatever the
		// program: they are not shrunk or saved.
		{"a pattern", text("pattern.txt", "# known.txt\nflatten/interp/*   # every flatten failure\n"), 0, false},
		{"another class's pattern", text("other.txt", "vendor/*/*\n"), 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			corpus := t.TempDir()
			code, out, errOut := gpudiff(t, "run", "--seed", "1", "--count", "30", "--no-gpu", "--corpus", corpus, "--baseline", c.baseline)
			assert.Equal(t, c.code, code, "%s\n%s", out, errOut)
			if c.code == 0 {
				assert.Regexp(t, `known bugs +│ `+"[1-9]", out)
			}
			cases, err := os.ReadDir(corpus)
			require.NoError(t, err)
			assert.Equal(t, c.saved, len(cases) > 0, "%d case files", len(cases))
		})
	}

	// '#' inside an entry is not a comment: adapters may be named
	// "wgpu-vulkan:llvmpipe#2".
	b, err := baseline.ReadSignatures(text("hash.txt", "vendor/wgpu-vulkan:llvmpipe#2/*\t# the second lavapipe\n  # indented comment\n"))
	require.NoError(t, err)
	assert.Equal(t, 1, b.Len())
	assert.True(t, b.Known("vendor/wgpu-vulkan:llvmpipe#2/890a87ab8a1f73d7"))

	bad := text("bad.txt", "flatten/interp/*\n\nvendor/[gl\n")
	code, _, errOut = gpudiff(t, append(args, "--baseline", bad)...)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, bad+`:3: malformed pattern "vendor/[gl"`)
}
