package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScripts runs the end-to-end CLI scenarios of testdata/script/*.txtar
// (one per subcommand and scenario; github.com/rogpeppe/go-internal/testscript,
// the public form of cmd/go's script tests). Each script runs the real
// gpudiff binary (this test binary, registered in TestMain) on the real
// adapters, in a fresh work directory holding copies of the repository's
// shaders/{examples,conformance,regress} and findings/: README's examples
// name those repository-relative paths, so a script runs them as written,
// and whatever they write (case files, reports, --save-case) stays in the
// work directory ($REPO is the repository itself, to read, never to
// write). Besides testscript's own commands a script has
//
//	exits CODE PROGRAM [ARGS...]
//
// which runs PROGRAM like exec and fails unless it exits with CODE
// (gpudiff's exit codes are part of its interface: README "Exit codes").
func TestScripts(t *testing.T) {
	root, err := filepath.Abs(repo(""))
	require.NoError(t, err)
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("REPO", root)
			for _, dir := range scriptCopies {
				if err := os.CopyFS(filepath.Join(env.WorkDir, dir), os.DirFS(filepath.Join(root, dir))); err != nil {
					return err
				}
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": cmdExits,
		},
		Condition: scriptCondition,
	})
}

// scriptCondition evaluates a script's own conditions: [glfw] holds in a
// gpudiff built with the viewer (build tag glfw: view_glfw.go).
func scriptCondition(cond string) (bool, error) {
	if cond == "glfw" {
		return viewerBuilt, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// scriptCopies are the repository directories every script's work
// directory starts with (README's examples name files in them).
var scriptCopies = []string{"shaders/examples", "shaders/conformance", "shaders/regress", "shaders/compute", "shaders/dispatch", "shaders/fragment", "shaders/textures", "findings"}

// cmdExits is the script command `exits CODE PROGRAM [ARGS...]`.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// TestScriptsCoverREADMEExamples: every example command of README.md (each
// line of a ```sh block that starts with "gpudiff ") and of each
// subcommand's --help (its cobra Example) is run by some script in
// testdata/script, as written. A script line matches when it is
// `exec gpudiff ARGS`, `! exec gpudiff ARGS` or `exits CODE gpudiff ARGS`
// with the example's words (a trailing `# comment` dropped; of `a && b`
// or `a | b` the gpudiff part, the script running the rest itself). An
// example too slow or too machine-specific to run as written (a two-hour
// campaign, --adapter all for a whole corpus) is covered by a script
// comment line `# README: gpudiff ARGS` directly above the cheaper
// variant the script runs instead (several such lines may share one
// variant); every such marker must name a current example, so a marker
// cannot outlive its example.
func TestScriptsCoverREADMEExamples(t *testing.T) {
	examples := readmeExamples(t, repo("README.md"))
	require.NotEmpty(t, examples, "no gpudiff lines in README.md's sh blocks")
	for _, c := range newRoot(context.Background(), io.Discard, io.Discard).Commands() {
		for _, l := range strings.Split(c.Example, "\n") {
			if cmd := exampleCommand(l); cmd != "" {
				examples = append(examples, cmd)
			}
		}
	}

	run, marked := scriptCommands(t)
	known := map[string]bool{}
	asWritten := 0
	for _, e := range examples {
		if !known[e] && run[e] {
			asWritten++
		}
		known[e] = true
		assert.True(t, run[e] || marked[e], "example %q is run by no script in testdata/script (as `exec %s`, or under `# README: %s`)", e, e, e)
	}
	t.Logf("%d example commands: %d run as written, the others as a marked variant", len(known), asWritten)
	for m := range marked {
		assert.True(t, known[m], "`# README: %s` names no example of README.md or of a subcommand's --help", m)
	}
}

// readmeExamples returns the gpudiff commands of path's ```sh blocks.
func readmeExamples(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []string
	inSh := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(l, "```"):
			inSh = !inSh && l == "```sh"
		case inSh:
			if cmd := exampleCommand(l); cmd != "" {
				out = append(out, cmd)
			}
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// exampleCommand returns the gpudiff command of an example line, its words
// joined by single spaces, or "" when the line runs no gpudiff.
func exampleCommand(line string) string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "gpudiff ") {
		return ""
	}
	if i := strings.Index(line, " #"); i >= 0 {
		line = line[:i]
	}
	for _, sep := range []string{"&&", "|", ";"} {
		line, _, _ = strings.Cut(line, sep)
	}
	return strings.Join(strings.Fields(line), " ")
}

// scriptCommands returns the gpudiff commands the scripts run and those
// they mark as covered by a cheaper variant (`# README: gpudiff …`).
func scriptCommands(t *testing.T) (run, marked map[string]bool) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	run, marked = map[string]bool{}, map[string]bool{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		marker := "" // a `# README:` line still waiting for its variant
		for i, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "-- ") {
				break // the script ends where the archive's files begin
			}
			l = strings.TrimSpace(l)
			if m, ok := strings.CutPrefix(l, "# README:"); ok {
				cmd := exampleCommand(m)
				require.NotEmpty(t, cmd, "%s:%d: %q marks no gpudiff command", file, i+1, l)
				marked[cmd] = true
				marker = l
				continue
			}
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			cmd := scriptGpudiff(l)
			if cmd != "" {
				run[cmd] = true
			}
			assert.True(t, marker == "" || cmd != "", "%s:%d: %q is not followed by the gpudiff command it stands for", file, i+1, marker)
			marker = ""
		}
	}
	return run, marked
}

// scriptGpudiff returns the gpudiff command a script line runs, or "".
// A line under conditions ([glfw] exec gpudiff …) runs it where they hold.
func scriptGpudiff(line string) string {
	for strings.HasPrefix(line, "[") {
		_, rest, ok := strings.Cut(line, "] ")
		if !ok {
			break
		}
		line = strings.TrimSpace(rest)
	}
	line = strings.TrimPrefix(line, "! ")
	if rest, ok := strings.CutPrefix(line, "exits "); ok {
		_, line, _ = strings.Cut(rest, " ")
	} else if rest, ok := strings.CutPrefix(line, "exec "); ok {
		line = rest
	} else {
		return ""
	}
	return exampleCommand(line)
}
