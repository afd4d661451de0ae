package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWhitelistOnEveryFlatteningCommand: --whitelist reaches flatten from
// exec, drivers and flatten alike. sdf.wgsl calls abs, max, min and length
// (its source, line 12: `let d = abs(p) - half_size;`), so a whitelist
// without abs must refuse it at abs's position, and one holding exactly
// its four builtins must not.
func TestWhitelistOnEveryFlatteningCommand(t *testing.T) {
	sdf := repo("shaders/examples/sdf.wgsl")
	for _, args := range [][]string{
		{"exec", sdf, "--flat", "--no-gpu"},
		{"flatten", sdf},
	} {
		t.Run(args[0], func(t *testing.T) {
			code, _, errOut := gpudiff(t, append(args, "--whitelist", "max,min,length")...)
			assert.Equal(t, 2, code, errOut)
			assert.Regexp(t, `sdf\.wgsl:12:\d+: flatten: builtin abs is not in the whitelist`, errOut)

			code, _, errOut = gpudiff(t, append(args, "--whitelist", "abs,max,min,length")...)
			assert.Equal(t, 0, code, errOut)
		})
	}
	t.Run("drivers", func(t *testing.T) {
		dir := t.TempDir()
		for _, f := range []string{"sdf.wgsl", "sdf.inputs.json"} {
			data, err := os.ReadFile(repo("shaders/examples/" + f))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, f), data, 0o644))
		}
		report := filepath.Join(dir, "report.json")
		code, out, errOut := gpudiff(t, "drivers", "--corpus", dir, "--whitelist", "max,min,length", "--json", report)
		t.Log(code, out, errOut)
		data, err := os.ReadFile(report)
		require.NoError(t, err, errOut)
		assert.Regexp(t, `sdf\.wgsl:12:\d+: flatten: builtin abs is not in the whitelist`, string(data))
	})
}

// TestWhitelistRejectsUnknownBuiltins: a misspelt name is a usage error
// naming it, not an entry silently ignored.
func TestWhitelistRejectsUnknownBuiltins(t *testing.T) {
	code, _, errOut := gpudiff(t, "exec", repo("shaders/examples/sdf.wgsl"), "--flat", "--no-gpu", "--whitelist", "abs,lenght")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `"lenght" is not a WGSL builtin`)
}

// TestReproJSONIsOneDocument: `repro --json` prints exactly one JSON
// document, carrying repro's judgement in its "repro" member (it used to
// print a plain line after the object).
func TestReproJSONIsOneDocument(t *testing.T) {
	code, out, errOut := gpudiff(t, "repro", repo("findings/lavapipe_loop_exit_wrap.wgsl"), "--json")
	require.Contains(t, []int{0, 1}, code, errOut)
	dec := json.NewDecoder(strings.NewReader(out))
	var doc struct {
		Verdict string `json:"verdict"`
		Repro   struct {
			Outcome  string   `json:"outcome"`
			Recorded []string `json:"recorded"`
			Now      []string `json:"now"`
		} `json:"repro"`
	}
	require.NoError(t, dec.Decode(&doc), out)
	assert.False(t, dec.More(), "repro --json printed more than one document:\n%s", out)
	assert.NotEmpty(t, doc.Repro.Recorded, "the case records lavapipe's mismatch")
	// The exit code and the document tell the same story: 1 when the
	// recorded mismatch reproduces, 0 once lavapipe is fixed.
	if code == 1 {
		assert.Equal(t, "reproduces", doc.Repro.Outcome)
		assert.Equal(t, "mismatch", doc.Verdict)
		assert.NotEmpty(t, doc.Repro.Now)
	} else {
		assert.Equal(t, "fixed", doc.Repro.Outcome)
		assert.Equal(t, "pass", doc.Verdict)
		assert.Empty(t, doc.Repro.Now)
	}
}
