package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/gpudiff/gpudiff/campaign"
)

// TestDeployManifests checks deploy/ (README "Running on many machines"):
// every manifest parses as YAML, every gpudiff command line in it (in a
// shell script of a Kubernetes container or a workflow step) parses with
// gpudiff's own command tree — so a manifest cannot name a flag or a
// subcommand gpudiff does not have, or a --shard that is not I/N — and the
// scheduler's own settings agree with the shards: the Indexed Job has
// completions N for --shard I/N and a GPU through the device plugin, the
// workflow's matrix has an entry per shard, and both merge every shard's
// journal.
func TestDeployManifests(t *testing.T) {
	files, err := filepath.Glob(repo("deploy/*/*.y*ml"))
	require.NoError(t, err)
	require.Len(t, files, 3, "deploy/kubernetes: the shards and the merge Job; deploy/github-actions: the workflow")
	cmds := map[string][][]string{} // file → its gpudiff command lines (argv after "gpudiff")
	docs := map[string][]map[string]any{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			var doc map[string]any
			err := dec.Decode(&doc)
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err, "%s", f)
			docs[filepath.Base(f)] = append(docs[filepath.Base(f)], doc)
			walkScripts(doc, "", func(s string) {
				for _, argv := range gpudiffLines(s) {
					cmds[filepath.Base(f)] = append(cmds[filepath.Base(f)], argv)
				}
			})
		}
		// Variables take the values the manifest gives them (env), or a
		// value the scheduler could give them.
		vars := []string{"$JOB_COMPLETION_INDEX", "0", "${{ matrix.shard }}", "0", "${{ github.run_number }}", "1"}
		for _, doc := range docs[filepath.Base(f)] {
			walkEnv(doc, "", func(name, value string) { vars = append(vars, "$"+name, value) })
		}
		for _, argv := range cmds[filepath.Base(f)] {
			rep := strings.NewReplacer(vars...)
			argv = slices.Clone(argv)
			for k := range argv {
				argv[k] = rep.Replace(argv[k])
			}
			root := newRoot(context.Background(), io.Discard, io.Discard)
			c, rest, err := root.Find(argv)
			require.NoError(t, err, "%s: gpudiff %s", f, strings.Join(argv, " "))
			require.NotEqual(t, root, c, "%s: gpudiff %s names no subcommand", f, strings.Join(argv, " "))
			assert.NoError(t, c.ParseFlags(rest), "%s: gpudiff %s", f, strings.Join(argv, " "))
		}
	}

	// Kubernetes: an Indexed Job of N completions runs shard
	// JOB_COMPLETION_INDEX/N on a GPU, resumes its journal when retried, and
	// the merge Job merges every shard directory's journal.
	k8s := cmds["gpudiff-nightly.yaml"]
	require.Len(t, k8s, 2, "a fresh shard and a resumed one")
	job := docs["gpudiff-nightly.yaml"][1]
	assert.Equal(t, "Job", job["kind"])
	spec := job["spec"].(map[string]any)
	assert.Equal(t, "Indexed", spec["completionMode"])
	ctr := spec["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
	env := map[string]any{}
	for _, e := range ctr["env"].([]any) {
		env[e.(map[string]any)["name"].(string)] = e.(map[string]any)["value"]
	}
	assert.Equal(t, spec["completions"], atoi(t, env["SHARDS"].(string)), "completions = SHARDS")
	assert.Contains(t, spec, "parallelism")
	assert.Equal(t, 1, ctr["resources"].(map[string]any)["limits"].(map[string]any)["nvidia.com/gpu"])
	assert.Equal(t, []string{"run", "--resume", "shard.jsonl"}, k8s[0])
	assert.Contains(t, strings.Join(k8s[1], " "), "--log shard.jsonl --corpus cases")
	checkShards(t, k8s[1], "$JOB_COMPLETION_INDEX", "$SHARDS", spec["completions"].(int))
	merge := cmds["gpudiff-nightly-merge.yaml"]
	require.Len(t, merge, 1)
	assert.Equal(t, "merge", merge[0][0])
	assert.Equal(t, "shard-*/shard.jsonl", merge[0][len(merge[0])-1])

	// GitHub Actions: a matrix entry per shard, and a merge job.
	gha := cmds["gpudiff-nightly.yml"]
	require.Len(t, gha, 2)
	wf := docs["gpudiff-nightly.yml"][0]
	shards := atoi(t, wf["env"].(map[string]any)["SHARDS"])
	matrix := wf["jobs"].(map[string]any)["shard"].(map[string]any)["strategy"].(map[string]any)["matrix"].(map[string]any)["shard"].([]any)
	require.Len(t, matrix, shards, "one matrix entry per shard")
	for i, v := range matrix {
		assert.Equal(t, i, v)
	}
	slices.SortFunc(gha, func(a, b []string) int { return strings.Compare(b[0], a[0]) }) // run, then merge
	checkShards(t, gha[0], "${{ matrix.shard }}", "$SHARDS", shards)
	assert.Equal(t, "merge", gha[1][0])
	assert.Equal(t, "shards/gpudiff-shard-*/shard.jsonl", gha[1][len(gha[1])-1])
}

// checkShards checks that the run command line argv, whose --shard is
// index/shards with those two variables, names shard I/n, a valid --shard,
// when index is each of 0..n-1 and shards is n.
func checkShards(t *testing.T, argv []string, index, shards string, n int) {
	t.Helper()
	require.Equal(t, "run", argv[0])
	k := slices.Index(argv, "--shard")
	require.Greater(t, k, 0, "no --shard in gpudiff %s", strings.Join(argv, " "))
	s := argv[k+1]
	require.Equal(t, index+"/"+shards, s, "--shard is the scheduler's index over the shard count")
	for i := range n {
		v := strings.NewReplacer(index, strconv.Itoa(i), shards, strconv.Itoa(n)).Replace(s)
		gi, gn, err := campaign.ParseShard(v)
		require.NoError(t, err)
		assert.Equal(t, [2]int{i, n}, [2]int{gi, gn})
	}
}

// walkScripts calls f with every shell script of a decoded YAML value: the
// string scalars under a key run (a workflow step), command or args (a
// Kubernetes container).
func walkScripts(v any, key string, f func(string)) {
	switch v := v.(type) {
	case string:
		if key == "run" || key == "command" || key == "args" {
			f(v)
		}
	case map[string]any:
		for k, x := range v {
			walkScripts(x, k, f)
		}
	case []any:
		for _, x := range v {
			walkScripts(x, key, f)
		}
	}
}

// walkEnv calls f with every environment variable a decoded YAML value
// sets: a workflow's env maps and a container's env lists.
func walkEnv(v any, key string, f func(name, value string)) {
	switch v := v.(type) {
	case map[string]any:
		if key == "env" {
			for k, x := range v {
				f(k, fmt.Sprint(x))
			}
			return
		}
		for k, x := range v {
			walkEnv(x, k, f)
		}
	case []any:
		for _, x := range v {
			if e, ok := x.(map[string]any); ok && key == "env" {
				f(fmt.Sprint(e["name"]), fmt.Sprint(e["value"]))
				continue
			}
			walkEnv(x, key, f)
		}
	}
}

// gpudiffLines returns the argv (after the program name) of each gpudiff
// command line in a shell script s: a line whose command is gpudiff (or a
// path ending in /gpudiff), up to the first ||, &&, |, ; or comment, with
// continuation lines joined. Shell variables and workflow expressions
// (${{ … }}) are kept as one word each; flag parsing does not look into
// values.
func gpudiffLines(s string) [][]string {
	s = strings.ReplaceAll(s, "\\\n", " ")
	expr := regexp.MustCompile(`\$\{\{[^}]*\}\}`)
	var out [][]string
	for _, l := range strings.Split(s, "\n") {
		l = expr.ReplaceAllStringFunc(l, func(e string) string { return strings.ReplaceAll(e, " ", "") })
		words := strings.Fields(l)
		if len(words) == 0 || (words[0] != "gpudiff" && !strings.HasSuffix(words[0], "/gpudiff")) {
			continue
		}
		cmd := exampleCommand("gpudiff " + strings.Join(words[1:], " "))
		argv := strings.Fields(cmd)[1:]
		for k, w := range argv {
			argv[k] = strings.Trim(strings.ReplaceAll(strings.ReplaceAll(w, "${{", "${{ "), "}}", " }}"), `"'`)
		}
		out = append(out, argv)
	}
	return out
}

func atoi(t *testing.T, v any) int {
	t.Helper()
	switch v := v.(type) {
	case int:
		return v
	case string:
		var n int
		for _, c := range v {
			require.True(t, c >= '0' && c <= '9', "%q is not a number", v)
			n = n*10 + int(c-'0')
		}
		return n
	}
	t.Fatalf("%v is not a number", v)
	return 0
}
