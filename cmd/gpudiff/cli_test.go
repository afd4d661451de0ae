package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness/worker"
)

// TestMain lets this test binary serve as the gpudiff worker process that
// harness/worker re-executes (os.Executable() __worker), and as the
// gpudiff command of testdata/script (testscript.Main copies the binary
// onto the scripts' PATH as gpudiff and runs main when invoked by that
// name; its workers re-execute that copy, which takes the first branch).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == worker.Subcommand {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	quietWayland()
	testscript.Main(removingBuiltGpudiff{m}, map[string]func(){"gpudiff": main})
}

// gpudiff runs the CLI in-process and returns its exit code and output.
func gpudiff(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// repo returns a path relative to the repository root.
func repo(rel string) string { return filepath.Join("..", "..", rel) }

type execOut struct {
	Kernel      string            `json:"kernel"`
	Invocations int               `json:"invocations"`
	Inputs      map[string][]any  `json:"inputs"`
	Reference   []json.RawMessage `json:"reference"`
	Runs        []struct {
		Adapter    string            `json:"adapter"`
		Function   string            `json:"function"`
		Format     string            `json:"format"`
		Mode       string            `json:"mode"`
		Outputs    []json.RawMessage `json:"outputs"`
		Mismatches []int             `json:"mismatches"`
		Error      string            `json:"error"`
	} `json:"runs"`
	Verdict string `json:"verdict"`
}

func TestExecShadeJSON(t *testing.T) {
	code, out, errOut := gpudiff(t, "exec", repo("shaders/examples/shade.wgsl"), "--json")
	require.Equal(t, 0, code, errOut)
	var res execOut
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	assert.Equal(t, "pass", res.Verdict)
	assert.Equal(t, "shade", res.Kernel)
	// The arguments are shade.inputs.json's, beside shade.wgsl.
	var beside map[string][]any
	data, err := os.ReadFile(repo("shaders/examples/shade.inputs.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &beside))
	assert.Equal(t, len(beside["x"]), res.Invocations)
	assert.Equal(t, beside["x"], res.Inputs["x"])
	require.Len(t, res.Runs, 1)
	r := res.Runs[0]
	assert.Equal(t, "wgpu-vulkan:llvmpipe", r.Adapter)
	assert.Equal(t, "wgsl", r.Format)
	assert.Equal(t, "portable", r.Mode)
	assert.Empty(t, r.Mismatches)
	// shade(x) = x > 0.5 ? 2x : x, checked on the echoed inputs by hand.
	for i, x := range res.Inputs["x"] {
		f := x.(float64)
		want := f
		if f > 0.5 {
			want = 2 * f
		}
		var got float64
		require.NoError(t, json.Unmarshal(r.Outputs[i], &got))
		assert.Equal(t, float32(want), float32(got), "invocation %d, x = %v", i, f)
	}
}

// TestExecEveryShaderFlatSPIRV is issue 3 and 4's acceptance: every kernel
// under shaders/ passes with its twin and gpudiff's SPIR-V on lavapipe —
// and issue 14's: so does every compute entry point under shaders/compute.
func TestExecEveryShaderFlatSPIRV(t *testing.T) {
	// examples, conformance, regress (case files carry their inputs).
	files, _ := filepath.Glob(repo("shaders/*/*.wgsl"))
	tiers, _ := filepath.Glob(repo("shaders/tiers/*/*.wgsl"))
	files = append(files, tiers...)
	require.NotEmpty(t, files)
	for _, f := range files {
		rel, _ := filepath.Rel(repo("shaders"), f)
		t.Run(rel, func(t *testing.T) {
			args := []string{"exec", f, "--flat", "--spirv", "--json"}
			if in := strings.TrimSuffix(f, ".wgsl") + ".inputs.json"; fileExists(in) {
				args = append(args, "--inputs", in)
			}
			code, out, errOut := gpudiff(t, args...)
			var res struct {
				Kernel  string `json:"kernel"`
				Entry   string `json:"entry"` // an entry point as written
				Runs    []struct{ Adapter, Function, Format string }
				Skipped []struct{ Adapter, Function, Format, Reason string }
				Verdict string `json:"verdict"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &res), "stdout: %s\nstderr: %s", out, errOut)
			// A shader whose hand-derived expectations count data races
			// gets the shader's own verdict, race (exit 4): every run
			// stayed within the values WGSL allows.
			wantVerdict, wantCode := "pass", 0
			var exp struct{ Races int }
			if b, err := os.ReadFile(strings.TrimSuffix(f, ".wgsl") + ".expected.json"); err == nil && json.Unmarshal(b, &exp) == nil && exp.Races > 0 {
				wantVerdict, wantCode = "race", 4
			}
			assert.Equal(t, wantVerdict, res.Verdict, errOut)
			assert.Equal(t, wantCode, code)
			formats := map[string]bool{}
			for _, r := range res.Runs {
				formats[r.Adapter+"/"+r.Function+"/"+r.Format] = true
			}
			// wgpu cannot read the SPIR-V of an entry point with atomics
			// (spirv.NagaGap): those runs are skipped, saying so.
			for _, r := range res.Skipped {
				if assert.Contains(t, r.Reason, "gfx-rs/wgpu#4489", "run %s/%s/%s skipped", r.Adapter, r.Function, r.Format) {
					formats[r.Adapter+"/"+r.Function+"/"+r.Format] = true
				}
			}
			k := res.Kernel
			if k == "" {
				k = res.Entry
			}
			for _, want := range []string{"interp/" + k + "_flat/ir", "wgpu-vulkan:llvmpipe/" + k + "/wgsl", "wgpu-vulkan:llvmpipe/" + k + "/spirv",
				"wgpu-vulkan:llvmpipe/" + k + "_flat/wgsl", "wgpu-vulkan:llvmpipe/" + k + "_flat/spirv"} {
				assert.True(t, formats[want], "missing run %s", want)
			}
		})
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func TestExecSyntaxErrorIsPositioned(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.wgsl")
	// Line 2, column 18 is where the ';' is missing: `return x * 2.0` ends
	// at column 17 and the '}' on line 3 follows.
	require.NoError(t, os.WriteFile(bad, []byte("fn k(x: f32) -> f32 {\n  return x * 2.0\n}\n"), 0o644))
	code, out, errOut := gpudiff(t, "exec", bad)
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Regexp(t, "^"+regexp.QuoteMeta(bad)+`:(2:17|2:18|3:1): `, errOut)
	assert.NotContains(t, errOut, "goroutine", "no panic trace")
}

func TestExecBadInputs(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, json, want string
	}{
		{"syntax", `{"x": [1, 2,]}`, ":1:13: "},
		{"unknown parameter", `{"y": [1]}`, `has no parameter "y"`},
		{"not a number", `{"x": ["a"]}`, "x[0]"},
		{"ragged", `{"x": 1}`, "want an array"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".json")
			require.NoError(t, os.WriteFile(in, []byte(c.json), 0o644))
			code, _, errOut := gpudiff(t, "exec", repo("shaders/examples/shade.wgsl"), "--inputs", in, "--no-gpu")
			assert.Equal(t, 2, code)
			assert.Contains(t, errOut, c.want)
			assert.NotContains(t, errOut, "goroutine")
		})
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"exec"},
		{"exec", repo("shaders/examples/shade.wgsl"), "--mode", "fast"},
		{"exec", repo("shaders/examples/shade.wgsl"), "--no-such-flag"},
		{"exec", "does-not-exist.wgsl"},
		{"exec", repo("shaders/examples/shade.wgsl"), "--kernel", "nope", "--no-gpu"},
		{"run", "--shard", "3/2"},
		{"frobnicate"},
	} {
		code, _, errOut := gpudiff(t, args...)
		assert.Equal(t, 2, code, "%v: %s", args, errOut)
		assert.NotEmpty(t, errOut, "%v", args)
	}
}

func TestAdaptersListsTheSoftwareStacks(t *testing.T) {
	code, out, errOut := gpudiff(t, "adapters", "--json")
	require.Equal(t, 0, code, errOut)
	var infos []struct{ Name, Implementation, Backend string }
	require.NoError(t, json.Unmarshal([]byte(out), &infos))
	names := map[string]bool{}
	for _, a := range infos {
		names[a.Name] = true
	}
	for _, want := range []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader", "wgpu-gl:llvmpipe"} {
		assert.True(t, names[want], "%s missing (install with make deps); have %v", want, names)
	}
}

func TestFlattenShadeIsOneSelect(t *testing.T) {
	code, out, errOut := gpudiff(t, "flatten", repo("shaders/examples/shade.wgsl"))
	require.Equal(t, 0, code, errOut)
	// The reference text's §8.1 twin, with WGSL's typed literals.
	assert.Contains(t, out, "fn shade_flat(x: f32) -> f32 {\n  return select(x, x * 2.0f, x > 0.5f);\n}\n")
	assert.Contains(t, out, "fn shade(x: f32) -> f32 {", "the original stays")
}

func TestEmitSPIRVPassesSpirvVal(t *testing.T) {
	val, err := exec.LookPath("spirv-val")
	require.NoError(t, err, "spirv-val not found: install spirv-tools (make deps)")
	for _, flat := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "s.spv")
		args := []string{"emit", repo("shaders/examples/shade.wgsl"), "--format", "spirv", "-o", out}
		if flat {
			args = append(args, "--flat")
		}
		code, _, errOut := gpudiff(t, args...)
		require.Equal(t, 0, code, errOut)
		msg, err := exec.Command(val, "--target-env", "vulkan1.1", out).CombinedOutput()
		assert.NoError(t, err, "flat=%v: %s", flat, msg)
	}
}

func TestRunIsDeterministic(t *testing.T) {
	digest := regexp.MustCompile(`digest ([0-9a-f]{16}) over 12 programs`)
	var seen []string
	for i := 0; i < 2; i++ {
		code, out, errOut := gpudiff(t, "run", "--seed", "3", "--count", "12", "--no-gpu", "--corpus", t.TempDir())
		require.Equal(t, 0, code, "%s\n%s", out, errOut)
		m := digest.FindStringSubmatch(out)
		require.NotNil(t, m, out)
		seen = append(seen, m[1])
	}
	assert.Equal(t, seen[0], seen[1])
	// A different seed generates different programs.
	_, out, _ := gpudiff(t, "run", "--seed", "4", "--count", "12", "--no-gpu", "--corpus", t.TempDir())
	m := digest.FindStringSubmatch(out)
	require.NotNil(t, m, out)
	assert.NotEqual(t, seen[0], m[1])
}

// TestLimitsGiveClearErrors: every limit stops an input that exceeds it
// with exit 2 and names the flag that raises it.
func TestLimitsGiveClearErrors(t *testing.T) {
	shade := repo("shaders/examples/shade.wgsl")
	cases := []struct {
		args []string
		flag string
	}{
		{[]string{"exec", shade, "--no-gpu", "--max-source-bytes", "100"}, "--max-source-bytes"},
		{[]string{"exec", shade, "--no-gpu", "--invocations", "10", "--max-invocations", "9"}, "--max-invocations"},
		{[]string{"exec", repo("shaders/examples/collatz.wgsl"), "--no-gpu", "--max-statements", "5"}, "--max-statements"},
		{[]string{"exec", shade, "--no-gpu", "--invocations", "10", "--max-buffer-bytes", "39"}, "--max-buffer-bytes"},
		{[]string{"run", "--no-gpu", "--count", "1", "--invocations", "10", "--max-invocations", "9"}, "--max-invocations"},
		{[]string{"drivers", "--corpus", repo("shaders/conformance"), "--max-statements", "3"}, "--max-statements"},
		{[]string{"drivers", "--corpus", repo("shaders/conformance"), "--max-source-bytes", "100"}, "--max-source-bytes"},
	}
	for _, c := range cases {
		code, _, errOut := gpudiff(t, c.args...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.flag, "%v", c.args)
	}
	// Raising a limit lets the same input through.
	code, _, errOut := gpudiff(t, "exec", shade, "--no-gpu", "--invocations", "10", "--max-buffer-bytes", "40")
	assert.Equal(t, 0, code, errOut)
}

// An invocation the reference cannot finish within --max-steps is not
// silently "indeterminate": exec names it and says error (exit 2). The
// loop runs n iterations, at least one step each, so n = 5000 exceeds a
// 2,000-step limit and n = 3 does not.
func TestExecReferenceStepLimitIsAnError(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "count.wgsl")
	require.NoError(t, os.WriteFile(src, []byte("fn k(n: u32) -> u32 {\n  var i: u32 = 0u;\n  loop {\n    if (i == n) { break; }\n    i = i + 1u;\n  }\n  return i;\n}\n"), 0o644))
	in := filepath.Join(dir, "in.json")
	require.NoError(t, os.WriteFile(in, []byte(`{"n": [3, 5000]}`), 0o644))

	code, out, errOut := gpudiff(t, "exec", src, "--no-gpu", "--inputs", in, "--max-steps", "2000", "--json")
	require.Equal(t, 2, code, errOut)
	var got struct {
		Reference       []json.RawMessage `json:"reference"`
		ReferenceErrors []struct {
			Invocation int    `json:"invocation"`
			Error      string `json:"error"`
		} `json:"reference_errors"`
		Verdict string `json:"verdict"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	assert.Equal(t, "error", got.Verdict)
	require.Len(t, got.ReferenceErrors, 1)
	assert.Equal(t, 1, got.ReferenceErrors[0].Invocation)
	assert.Contains(t, got.ReferenceErrors[0].Error, "step limit of 2000")
	assert.Contains(t, got.ReferenceErrors[0].Error, "count.wgsl:3:3")
	assert.JSONEq(t, "3", string(got.Reference[0]))

	// The table says the same in words.
	code, out, _ = gpudiff(t, "exec", src, "--no-gpu", "--inputs", in, "--max-steps", "2000")
	assert.Equal(t, 2, code)
	assert.Contains(t, out, "invocation 1 did not finish")

	// With room for 5000 iterations the reference finishes and exec passes.
	code, out, errOut = gpudiff(t, "exec", src, "--no-gpu", "--inputs", in, "--max-steps", "1000000", "--json")
	assert.Equal(t, 0, code, errOut)
	assert.NotContains(t, out, "reference_errors")
}

// --max-steps reaches the campaign's reference interpreter: with 5 steps
// no generated program (dozens of statements) can finish, and each is an
// error naming the limit, not a pass and not a flatten failure.
func TestRunHonoursMaxSteps(t *testing.T) {
	code, out, errOut := gpudiff(t, "run", "--no-gpu", "--count", "2", "--max-steps", "5", "--corpus", t.TempDir())
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, out, "step limit of 5")
	assert.NotContains(t, out, "flatten/interp")
}
