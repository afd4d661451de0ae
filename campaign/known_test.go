package campaign

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/baseline"
	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/findings"
)

// TestProjectFindingsKnowTheFindings: the embedded known set (findings/
// known.txt) knows the signature of every finding recorded in a case file
// under findings/ — computed here from the case file's module and recorded
// class and adapter, the way a campaign signs a failure — and every entry
// sits under a comment naming a finding file that exists, so the list
// neither misses a finding nor keeps one that was moved away (to
// shaders/regress when its stack is fixed).
func TestProjectFindingsKnowTheFindings(t *testing.T) {
	known := &baseline.Set{}
	require.NoError(t, known.AddText(findings.KnownFile, findings.Known, nil))
	files, err := filepath.Glob("../findings/*.wgsl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	signed := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		if !testcase.IsCase(src) {
			continue
		}
		c, rec, err := testcase.ParseCase(f, src)
		require.NoError(t, err, f)
		for _, fd := range rec.Findings {
			sig := Signature(check.Finding{Class: check.Class(fd.Class), Adapter: fd.Adapter, Runs: fd.Runs, Implicates: fd.Implicates, Invocations: fd.Invocations}, c.Module, c.Kernel)
			assert.True(t, known.Known(sig), "%s: its finding %s is not in %s", filepath.Base(f), sig, findings.KnownFile)
			signed++
		}
	}
	assert.Greater(t, signed, 10, "the case files under findings/ record their findings")

	sc := bufio.NewScanner(bytes.NewReader(findings.Known))
	var named string
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "# findings/"):
			named = strings.Fields(strings.TrimPrefix(line, "# "))[0]
			_, err := os.Stat(filepath.Join("..", named))
			assert.NoError(t, err, "%s names a finding that is gone", findings.KnownFile)
		case line == "":
			named = ""
		case strings.HasPrefix(line, "#"):
		default:
			assert.NotEmpty(t, named, "%s: %q is not under a comment naming its finding", findings.KnownFile, line)
		}
	}
}

// TestProjectFindingsAreTheDefaultKnownSet: a campaign opened with
// ProjectFindings knows a finding's signature although no --baseline is
// given; without it, the same signature is new.
func TestProjectFindingsAreTheDefaultKnownSet(t *testing.T) {
	sig := "vendor/wgpu-vulkan:swiftshader/all.bool+not.bool+select" // findings/swiftshader_zero_init_bool_vector_not.wgsl
	for _, on := range []bool{true, false} {
		spec := Spec{Seed: 1, Count: 1, Profile: "default", Stage: "compute", Mode: "portable", NoGPU: true, ProjectFindings: on}
		require.NoError(t, spec.Validate(map[string]bool{}, 1<<20))
		r, err := Open(spec, map[string]bool{}, "", "", os.Stderr)
		require.NoError(t, err)
		assert.Equal(t, on, r.Baseline.Known(sig), "ProjectFindings=%v", on)
		r.Close()
	}
}
