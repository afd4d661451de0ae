package shaders

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// update is the project's one golden flag: -update rewrites the stage
// goldens (testdata/golden/*.txtar, TestStageGoldens) and
// shaders/examples/*.expected.json from the native Go implementations.
var update = flag.Bool("update", false,
	"rewrite testdata/golden/*.txtar from the current stages and shaders/examples/*.expected.json from the native Go implementations")

const examplesDir = "examples"

// Invocation counts every example must stay within.
const (
	minInvocations = 8
	maxInvocations = 32
)

// example is one shaders/examples/NAME triple as stored on disk.
type example struct {
	name     string
	src      []byte                     // NAME.wgsl
	inputs   map[string]json.RawMessage // NAME.inputs.json: parameter -> values
	expected expectedFile               // NAME.expected.json
}

// expectedFile is the content of NAME.expected.json.
type expectedFile struct {
	Kernel    string            `json:"kernel"`
	Reference []json.RawMessage `json:"reference"`
}

func examplePath(name, suffix string) string { return filepath.Join(examplesDir, name+suffix) }

// exampleNames lists the stems of shaders/examples/*.wgsl, sorted.
func exampleNames(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(examplesDir, "*.wgsl"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no examples in %s", examplesDir)
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".wgsl"))
	}
	sort.Strings(names)
	return names
}

// loadExample reads NAME's three files. With needExpected false a missing
// expected file is not an error (the -update run creates it).
func loadExample(t testing.TB, name string, needExpected bool) example {
	t.Helper()
	ex := example{name: name}
	var err error
	ex.src, err = os.ReadFile(examplePath(name, ".wgsl"))
	require.NoError(t, err)
	raw, err := os.ReadFile(examplePath(name, ".inputs.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &ex.inputs), "%s.inputs.json", name)
	raw, err = os.ReadFile(examplePath(name, ".expected.json"))
	if err != nil && !needExpected && os.IsNotExist(err) {
		return ex
	}
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&ex.expected), "%s.expected.json", name)
	return ex
}

// invocations returns the per-invocation arguments of ex, decoded as the
// given parameter types: args[i][j] is parameter j of invocation i. Every
// parameter must have the same number of values and no extra keys may be
// present.
func (ex example) invocations(t testing.TB, params []field) [][]ir.Value {
	t.Helper()
	var names []string
	for _, p := range params {
		names = append(names, p.name)
	}
	var keys []string
	for k := range ex.inputs {
		keys = append(keys, k)
	}
	require.ElementsMatch(t, names, keys, "%s.inputs.json: keys must be exactly the kernel's parameters", ex.name)
	n := -1
	var args [][]ir.Value
	for j, p := range params {
		var vals []json.RawMessage
		require.NoError(t, json.Unmarshal(ex.inputs[p.name], &vals), "%s.inputs.json: %s", ex.name, p.name)
		if n < 0 {
			n = len(vals)
			args = make([][]ir.Value, n)
			for i := range args {
				args[i] = make([]ir.Value, len(params))
			}
		}
		require.Len(t, vals, n, "%s.inputs.json: %s has %d values, %s has %d", ex.name, p.name, len(vals), params[0].name, n)
		for i, raw := range vals {
			v, err := ir.UnmarshalValue(p.t, raw)
			require.NoError(t, err, "%s.inputs.json: %s[%d]", ex.name, p.name, i)
			args[i][j] = v
		}
	}
	require.GreaterOrEqual(t, n, minInvocations, "%s: too few invocations", ex.name)
	require.LessOrEqual(t, n, maxInvocations, "%s: too many invocations", ex.name)
	return args
}

// decodeReference decodes invocation i of the expected file with the given
// output types: the bare value when the only output is "ret", otherwise an
// object keyed by output name with exactly those keys.
func (ex example) decodeReference(t testing.TB, i int, outputs []field) []ir.Value {
	t.Helper()
	raw := ex.expected.Reference[i]
	if len(outputs) == 1 && outputs[0].name == "ret" {
		v, err := ir.UnmarshalValue(outputs[0].t, raw)
		require.NoError(t, err, "%s.expected.json: reference[%d]", ex.name, i)
		return []ir.Value{v}
	}
	var obj map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &obj), "%s.expected.json: reference[%d] must be an object", ex.name, i)
	require.Len(t, obj, len(outputs), "%s.expected.json: reference[%d] has keys %v", ex.name, i, slices.Sorted(maps.Keys(obj)))
	out := make([]ir.Value, len(outputs))
	for j, o := range outputs {
		r, ok := obj[o.name]
		require.True(t, ok, "%s.expected.json: reference[%d] lacks output %q", ex.name, i, o.name)
		v, err := ir.UnmarshalValue(o.t, r)
		require.NoError(t, err, "%s.expected.json: reference[%d].%s", ex.name, i, o.name)
		out[j] = v
	}
	return out
}

// formatExpected renders an expected file: one invocation per line, each in
// the JSON form of ir.MarshalValue (bare for a return-only kernel, else an
// object of the outputs in ABI order).
func formatExpected(kernel string, outputs []field, results [][]ir.Value) []byte {
	var b bytes.Buffer
	k, _ := json.Marshal(kernel)
	fmt.Fprintf(&b, "{\n  \"kernel\": %s,\n  \"reference\": [\n", k)
	for i, res := range results {
		b.WriteString("    ")
		if len(outputs) == 1 && outputs[0].name == "ret" {
			b.Write(ir.MarshalValue(res[0]))
		} else {
			b.WriteByte('{')
			for j, o := range outputs {
				if j > 0 {
					b.WriteString(", ")
				}
				name, _ := json.Marshal(o.name)
				b.Write(name)
				b.WriteString(": ")
				b.Write(ir.MarshalValue(res[j]))
			}
			b.WriteByte('}')
		}
		if i < len(results)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ]\n}\n")
	return b.Bytes()
}

func nativeFor(name string) *native {
	for i := range natives {
		if natives[i].name == name {
			return &natives[i]
		}
	}
	return nil
}

// TestExamplesNativeGoldens checks every NAME.expected.json against the
// native Go implementation of its kernel, value by value and bit-exact
// (f32 included; +0 and -0 differ), and checks that the file is in its
// canonical form. With -update it rewrites the files instead.
func TestExamplesNativeGoldens(t *testing.T) {
	names := exampleNames(t)
	require.GreaterOrEqual(t, len(names), 12, "the corpus promises at least 12 examples")
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			nat := nativeFor(name)
			require.NotNil(t, nat, "example %s has no native implementation in native_test.go", name)
			ex := loadExample(t, name, !*update)
			args := ex.invocations(t, nat.params)
			results := make([][]ir.Value, len(args))
			for i, a := range args {
				results[i] = nat.run(t, a)
				require.Len(t, results[i], len(nat.outputs))
				for j, o := range nat.outputs {
					require.True(t, ir.Identical(o.t, results[i][j].Type), "native %s output %s has type %v, want %v", name, o.name, results[i][j].Type, o.t)
				}
			}
			want := formatExpected(nat.kernel, nat.outputs, results)
			if *update {
				require.NoError(t, os.WriteFile(examplePath(name, ".expected.json"), want, 0o644))
				return
			}
			assert.Equal(t, nat.kernel, ex.expected.Kernel, "kernel name")
			require.Len(t, ex.expected.Reference, len(args), "one reference per invocation")
			for i := range args {
				got := ex.decodeReference(t, i, nat.outputs)
				for j, o := range nat.outputs {
					assert.True(t, ir.Equal(got[j], results[i][j]),
						"invocation %d (%s), output %s: file has %s, native computes %s",
						i, argString(args[i]), o.name, ir.MarshalValue(got[j]), ir.MarshalValue(results[i][j]))
				}
			}
			raw, err := os.ReadFile(examplePath(name, ".expected.json"))
			require.NoError(t, err)
			assert.Equal(t, string(want), string(raw),
				"%s.expected.json is not canonical: go test ./shaders -run TestExamplesNativeGoldens -update", name)
		})
	}
}

func argString(args []ir.Value) string {
	var parts []string
	for _, a := range args {
		parts = append(parts, string(ir.MarshalValue(a)))
	}
	return strings.Join(parts, ", ")
}

// TestExamplesFilesAreComplete checks the corpus shape: every example has
// its three files, every file belongs to an example, and each .wgsl starts
// with a header comment.
func TestExamplesFilesAreComplete(t *testing.T) {
	names := exampleNames(t)
	entries, err := os.ReadDir(examplesDir)
	require.NoError(t, err)
	for _, e := range entries {
		stem, suffix, _ := strings.Cut(e.Name(), ".")
		assert.Contains(t, names, stem, "%s belongs to no example", e.Name())
		assert.Contains(t, []string{"wgsl", "inputs.json", "expected.json"}, suffix, "unexpected file %s", e.Name())
	}
	for _, name := range names {
		for _, suffix := range []string{".inputs.json", ".expected.json"} {
			_, err := os.Stat(examplePath(name, suffix))
			assert.NoError(t, err, "example %s", name)
		}
		src, err := os.ReadFile(examplePath(name, ".wgsl"))
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(src), "// "+name+": "),
			"%s.wgsl must open with a header comment `// %s: what it is`", name, name)
	}
}
