package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gpudiffMine runs the CLI like gpudiff(t, …) for the drivers and
// export-amber commands (root.go wires them in).
func gpudiffMine(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return gpudiff(t, args...)
}

type driversJSON struct {
	Adapters []struct {
		Name, Implementation, Driver string
	} `json:"adapters"`
	Cases []struct {
		Name  string `json:"name"`
		Cells []struct {
			Adapter, Outcome, Text string
		} `json:"cells"`
	} `json:"cases"`
	Divergences []struct {
		Key, Case, Adapter, Function, Format, Outcome, Rule, Spec, Class, Culprit, Why string
	} `json:"divergences"`
}

// TestDriversAcceptance is issue 6's acceptance, exactly as written: the
// conformance corpus on every adapter, at least four (wgpu on lavapipe,
// SwiftShader and GL, and Dawn); every divergence with its spec citation
// and minimal repro, the same matrix in the HTML report; a second run with
// the first run's --json as --baseline exits 0; with one key deleted from
// a text baseline it exits 1 naming it.
func TestDriversAcceptance(t *testing.T) {
	if testing.Short() {
		t.Skip("three runs of the conformance matrix on every adapter")
	}
	dir := t.TempDir()
	js, html, junit := filepath.Join(dir, "known.json"), filepath.Join(dir, "matrix.html"), filepath.Join(dir, "drivers.xml")
	code, out, errOut := gpudiffMine(t, "drivers", "--corpus", repo("shaders/conformance"), "--json", js, "--html", html, "--junit", junit)
	require.Equal(t, 1, code, "divergences without a baseline are new: %s", errOut)
	for _, a := range []string{"wgpu-vulkan", "llvmpipe", "swiftshader", "wgpu-gl", "dawn-vulkan"} {
		assert.Contains(t, out, a)
	}
	assert.Contains(t, out, "divergences per rule")
	assert.Contains(t, out, "no baseline: every divergence counts as new")

	var rep driversJSON
	data, err := os.ReadFile(js)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &rep))
	impls := map[string]bool{}
	for _, a := range rep.Adapters {
		impls[a.Implementation] = true
	}
	assert.GreaterOrEqual(t, len(rep.Adapters), 4)
	assert.True(t, impls["wgpu"] && impls["dawn"], "%v", impls)
	require.NotEmpty(t, rep.Divergences)
	for _, d := range rep.Divergences {
		assert.True(t, strings.HasPrefix(d.Spec, "WGSL #"), "%s: spec citation", d.Key)
		assert.NotEmpty(t, d.Class, d.Key)
		assert.Contains(t, out, d.Spec, "the terminal report cites the rule's spec")
	}
	// Every divergent case shows a minimal repro: a kernel and one invocation.
	assert.Contains(t, out, "minimal repro: invocation 0 (a = 7, b = 0), reference 7")

	page, err := os.ReadFile(html)
	require.NoError(t, err)
	for _, c := range rep.Cases {
		for _, cell := range c.Cells {
			// The same matrix: each cell's text, colored by its outcome.
			assert.Contains(t, string(page), fmt.Sprintf(`<td class="cell %s"><a href="#cell-%s-`, driversOutcomeCSS(cell.Outcome), c.Name))
		}
	}
	var suites struct {
		Suites []struct {
			Tests int `xml:"tests,attr"`
		} `xml:"testsuite"`
	}
	x, err := os.ReadFile(junit)
	require.NoError(t, err)
	require.NoError(t, xml.Unmarshal(x, &suites))
	assert.Len(t, suites.Suites, len(rep.Adapters), "one suite per adapter, one test case per case")

	code, out, errOut = gpudiffMine(t, "drivers", "--corpus", repo("shaders/conformance"), "--baseline", js)
	assert.Equal(t, 0, code, "every divergence is in the baseline: %s\n%s", errOut, driversTail(out))
	assert.Contains(t, out, fmt.Sprintf("(0 new, %d in baseline", len(rep.Divergences)))

	// A text baseline without one key.
	dropped := rep.Divergences[0]
	var b strings.Builder
	b.WriteString("# known divergences, case/adapter/function/format\n")
	for _, d := range rep.Divergences[1:] {
		b.WriteString(d.Key + "\n")
	}
	txt := filepath.Join(dir, "known.txt")
	require.NoError(t, os.WriteFile(txt, []byte(b.String()), 0o644))
	code, out, _ = gpudiffMine(t, "drivers", "--corpus", repo("shaders/conformance"), "--baseline", txt)
	assert.Equal(t, 1, code)
	label := fmt.Sprintf("%s on %s (%s", dropped.Case, dropped.Adapter, dropped.Format)
	assert.Contains(t, out, "new divergence: "+label)
	assert.Equal(t, 1, strings.Count(out, "new divergence: "), driversTail(out))
}

func driversOutcomeCSS(o string) string {
	switch o {
	case "agrees":
		return "ok"
	case "differs":
		return "bad"
	case "compile error":
		return "cerr"
	case "crash", "timeout":
		return "crash"
	}
	return "fail"
}

func driversTail(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) > 12 {
		lines = lines[len(lines)-12:]
	}
	return strings.Join(lines, "\n")
}

// TestDriversGeneratedAndMode: generated programs join the matrix under
// the rule "generated", keyed gen-<i>-<hash>; portable mode on one
// adapter. Exit 0 or 1 only (the stack decides), never an error.
func TestDriversGeneratedAndMode(t *testing.T) {
	js := filepath.Join(t.TempDir(), "g.json")
	code, out, errOut := gpudiffMine(t, "drivers", "--generated", "3", "--seed", "5", "--adapter", "vulkan:llvmpipe", "--mode", "portable", "--json", js)
	require.Contains(t, []int{0, 1}, code, errOut)
	assert.Contains(t, out, "mode portable")
	var rep driversJSON
	data, err := os.ReadFile(js)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &rep))
	require.Len(t, rep.Adapters, 1)
	require.Len(t, rep.Cases, 3)
	for i, c := range rep.Cases {
		assert.Regexp(t, fmt.Sprintf(`^gen-%d-[0-9a-f]{8}$`, i), c.Name)
	}
	// The same seed names the same programs.
	js2 := filepath.Join(t.TempDir(), "g.json")
	gpudiffMine(t, "drivers", "--generated", "3", "--seed", "5", "--adapter", "vulkan:llvmpipe", "--mode", "portable", "--json", js2, "--no-spirv", "--no-twin")
	var rep2 driversJSON
	data, err = os.ReadFile(js2)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &rep2))
	for i := range rep.Cases {
		assert.Equal(t, rep.Cases[i].Name, rep2.Cases[i].Name)
	}
}

func TestDriversUsageErrors(t *testing.T) {
	dir := t.TempDir()
	badBase := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(badBase, []byte("not a key\n"), 0o644))
	badCorpus := filepath.Join(dir, "corpus")
	require.NoError(t, os.MkdirAll(badCorpus, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(badCorpus, "k.wgsl"), []byte("fn k(a: i32) -> i32 {\n  return a +;\n}\n"), 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"drivers"}, "nothing to run"},
		{[]string{"drivers", "--corpus", repo("shaders/conformance"), "--mode", "fast"}, "--mode"},
		{[]string{"drivers", "--corpus", filepath.Join(dir, "missing")}, "missing"},
		{[]string{"drivers", "--corpus", badCorpus}, "k.wgsl:2:"},
		{[]string{"drivers", "--corpus", repo("shaders/conformance"), "--baseline", badBase}, "bad.txt:1: want a key"},
		{[]string{"drivers", "--corpus", repo("shaders/conformance"), "--adapter", "no-such-adapter"}, "no-such-adapter"},
		{[]string{"drivers", "--corpus", repo("shaders/conformance"), "--corpus", repo("shaders/conformance")}, "same case name"},
		{[]string{"drivers", "--generated", "-1"}, "--generated"},
	} {
		code, _, errOut := gpudiffMine(t, c.args...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.want, "%v", c.args)
		assert.NotContains(t, errOut, "goroutine")
	}
}
