package drivers

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/baseline"
	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/harness/devices"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/oracle"
)

// TestMain lets this test binary serve as its own harness worker process
// (harness/worker re-executes the running binary with MarkerEnv set): raw
// kernels run in worker processes, as `gpudiff drivers` runs them.
func TestMain(m *testing.M) {
	if os.Getenv(worker.MarkerEnv) == "1" {
		if err := worker.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "drivers test worker:", err)
			os.Exit(worker.ExitServeError)
		}
		os.Exit(0)
	}
	xdg := ""
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		// wgpu's Wayland probe complains without one (headless CI).
		if dir, err := os.MkdirTemp("", "drivers-xdg"); err == nil {
			xdg = dir
			os.Setenv("XDG_RUNTIME_DIR", dir)
		}
	}
	code := m.Run()
	if xdg != "" {
		os.RemoveAll(xdg)
	}
	os.Exit(code)
}

const conformanceDir = "../shaders/conformance"

var (
	confOnce sync.Once
	confRep  *Report
)

// conformanceReport runs the raw-mode matrix of shaders/conformance once
// for the tests that read it.
func conformanceReport(t *testing.T) *Report {
	t.Helper()
	if testing.Short() {
		t.Skip("the conformance matrix runs every kernel on every adapter (skipped with -short)")
	}
	confOnce.Do(func() {
		cases, err := LoadCorpus(conformanceDir)
		require.NoError(t, err)
		set, err := devices.Open([]string{"all"}, devices.Options{})
		require.NoError(t, err)
		defer set.Close()
		devs := make([]check.Device, len(set))
		for i, d := range set {
			devs[i] = d
		}
		confRep = Run(context.Background(), cases, devs, Options{Tool: "test"})
	})
	require.NotNil(t, confRep, "an earlier test failed to build the report")
	return confRep
}

// expectedJSON reads the hand-derived NAME.expected.json (never written
// from a run; see shaders/conformance/README.md).
func expectedJSON(t *testing.T, name string) []any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(conformanceDir, name+".expected.json"))
	require.NoError(t, err)
	var e struct{ Reference []any }
	require.NoError(t, json.Unmarshal(data, &e))
	return e.Reference
}

func decode(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(raw, &v))
	return v
}

// TestConformanceMatrix is issue 6's acceptance on this machine's stacks:
// at least four adapters, wgpu on lavapipe, SwiftShader and GL and Dawn;
// every run checked against the hand-derived expected values (independent
// of the interpreter); the divergences the colleague's raw-mode matrix
// found are all reported, each with its rule and spec citation; Dawn
// diverges nowhere.
func TestConformanceMatrix(t *testing.T) {
	rep := conformanceReport(t)
	adapters := map[string]Adapter{}
	for _, a := range rep.Adapters {
		adapters[a.Name] = a
	}
	for _, want := range []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader", "wgpu-gl:llvmpipe", "dawn-vulkan:swiftshader"} {
		require.Contains(t, adapters, want, "install with make deps")
	}
	require.Len(t, rep.Cases, 53)

	// Independent path: every GPU run that agrees returns the hand-derived
	// values, and every run that differs has a differing invocation whose
	// output is not the hand-derived value.
	for _, cr := range rep.Cases {
		exp := expectedJSON(t, cr.Name)
		require.Len(t, exp, cr.Invocations, cr.Name)
		for i, ref := range cr.Reference {
			assert.Equal(t, exp[i], decode(t, ref), "%s: the interpreter's reference, invocation %d", cr.Name, i)
		}
		for _, c := range cr.Cells {
			for _, run := range c.Runs {
				switch run.Outcome {
				case Agrees:
					for i, o := range run.Outputs {
						assert.Equal(t, exp[i], decode(t, o), "%s on %s %s %s, invocation %d", cr.Name, c.Adapter, run.Function, run.Format, i)
					}
				case Differs:
					i := run.Mismatches[0]
					assert.NotEqual(t, exp[i], decode(t, run.Outputs[i]), "%s on %s %s %s, invocation %d", cr.Name, c.Adapter, run.Function, run.Format, i)
				default:
					t.Errorf("%s on %s %s %s: %s (%s)", cr.Name, c.Adapter, run.Function, run.Format, run.Outcome, run.Error)
				}
			}
		}
	}

	// Dawn and Deno take no SPIR-V: their cells hold WGSL runs only;
	// wgpu's all four.
	for _, cr := range rep.Cases {
		for _, c := range cr.Cells {
			n := 4
			if impl := adapters[c.Adapter].Implementation; impl == "dawn" || impl == "deno" {
				n = 2
			}
			assert.Len(t, c.Runs, n, "%s on %s", cr.Name, c.Adapter)
		}
	}

	byKey := map[string]*Divergence{}
	for _, d := range rep.Divergences {
		require.NotContains(t, byKey, d.Key, "keys are unique")
		byKey[d.Key] = d
		assert.NotEmpty(t, d.Rule, d.Key)
		assert.True(t, strings.HasPrefix(d.Spec, "WGSL #"), "%s: spec citation %q", d.Key, d.Spec)
		assert.NotEqual(t, "dawn", adapters[d.Adapter].Implementation, "Dawn passes every conformance kernel here: %s", d.Line())
		if d.Outcome == Differs {
			require.NotNil(t, d.Example, d.Key)
		}
	}
	// The colleague's findings (raw mode, this machine).
	for _, key := range []string{
		"div_by_zero_i32/wgpu-vulkan:llvmpipe/original/wgsl",
		"div_by_zero_i32/wgpu-vulkan:swiftshader/original/wgsl",
		"div_by_zero_i32/wgpu-gl:llvmpipe/original/wgsl",
		"rem_by_zero_u32/wgpu-vulkan:llvmpipe/original/wgsl",
		"div_int_min_by_minus_one/wgpu-vulkan:swiftshader/original/wgsl",
		"rem_sign_of_dividend/wgpu-gl:llvmpipe/original/wgsl",
		"extract_bits_i32/wgpu-vulkan:llvmpipe/original/wgsl",
		"insert_bits_u32/wgpu-gl:llvmpipe/twin/wgsl",
		"f32_to_i32_saturates/wgpu-vulkan:swiftshader/original/spirv",
		"f32_to_u32_saturates/wgpu-gl:llvmpipe/original/wgsl",
	} {
		assert.Contains(t, byKey, key)
	}
	assert.NotContains(t, byKey, "div_int_min_by_minus_one/wgpu-vulkan:llvmpipe/original/wgsl", "lavapipe gives INT_MIN here")

	// Attribution on the real matrix. On SwiftShader and GL, Dawn runs on
	// the same driver and agrees, so every wgpu WGSL divergence there
	// implicates naga; i32 % on GL is not an undefined operation, and
	// gpudiff's SPIR-V (through naga, to GLSL) gives the same values, so
	// naga's GLSL backend is implicated; raw x/0 in gpudiff's SPIR-V is
	// undefined, which no driver is to blame for.
	for _, d := range rep.Divergences {
		if d.Format == "wgsl" && (d.Adapter == "wgpu-vulkan:swiftshader" || d.Adapter == "wgpu-gl:llvmpipe") {
			assert.Equal(t, check.ClassCompiler, d.Class, d.Line())
			assert.Equal(t, "naga", d.Culprit, d.Line())
			assert.Contains(t, d.Why, "dawn-", d.Line())
		}
	}
	d := byKey["rem_sign_of_dividend/wgpu-gl:llvmpipe/original/spirv"]
	require.NotNil(t, d)
	assert.Equal(t, check.ClassCompiler, d.Class, d.Line())
	assert.Equal(t, "naga's GLSL backend", d.Culprit)
	for _, k := range []string{"div_by_zero_i32/wgpu-vulkan:llvmpipe/original/spirv", "div_by_zero_u32/wgpu-gl:llvmpipe/twin/spirv"} {
		d := byKey[k]
		require.NotNil(t, d, k)
		assert.Equal(t, check.ClassUndefinedSPIRV, d.Class, d.Line())
	}
	d = byKey["div_by_zero_i32/wgpu-vulkan:llvmpipe/original/wgsl"]
	assert.Equal(t, check.ClassCompiler, d.Class, d.Line())
	assert.Contains(t, d.Why, "OpSDiv with a zero divisor")
	assert.Equal(t, Example{Invocation: 0, Args: "a = 7, b = 0", Reference: "7", Got: d.Example.Got, Leaves: d.Example.Leaves}, *d.Example)

	// Per-rule summary: the i32 x/0 rule names every wgpu adapter (naga
	// 0.19 polyfills nothing, on Mesa 22 and Mesa 25 alike) and Deno's GL
	// ones (naga 29's GLSL writer does not either; its SPIR-V writer does,
	// so Deno's Vulkan adapters are not named): findings/compute/
	// naga_glsl_signed_div_rem.wgsl.
	found := false
	for _, s := range rep.Rules {
		if s.Rule == "i32 division by zero yields the dividend" {
			found = true
			var names []string
			for a := range s.Adapters {
				names = append(names, a)
			}
			assert.ElementsMatch(t, []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader", "wgpu-gl:llvmpipe",
				"wgpu-vulkan:llvmpipe-mesa25", "wgpu-gl:llvmpipe-mesa25", "deno-gl:llvmpipe", "deno-gl:llvmpipe-mesa25"}, names)
			assert.Equal(t, []oracle.Format{oracle.FormatWGSL, oracle.FormatSPIRV}, s.Adapters["wgpu-gl:llvmpipe"])
			assert.Equal(t, []oracle.Format{oracle.FormatWGSL}, s.Adapters["deno-gl:llvmpipe"])
		}
	}
	assert.True(t, found, "the i32 x/0 rule is broken somewhere")

	// The implementation dimension: on llvmpipe GL Dawn runs the same
	// WGSL right, so Deno's divergence there is its compiler's (naga 29),
	// not the driver's.
	d = byKey["div_by_zero_i32/deno-gl:llvmpipe/original/wgsl"]
	require.NotNil(t, d)
	assert.Equal(t, check.ClassCompiler, d.Class, d.Line())
	assert.Equal(t, "Deno's naga", d.Culprit, d.Line())
	assert.Contains(t, d.Why, "dawn-gl", d.Line())
}

// TestConformanceReportIsABaseline: the real matrix's --json report is a
// baseline of every divergence. (report/'s renderers are checked on the
// same matrix in render_test.go.)
func TestConformanceReportIsABaseline(t *testing.T) {
	rep := conformanceReport(t)

	data, err := json.Marshal(rep)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "known.json")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	known, err := baseline.ReadKeys(path)
	require.NoError(t, err)
	assert.Equal(t, len(rep.Divergences), known.Len(), "a --json report is a baseline of every divergence")
	for _, d := range rep.Divergences {
		assert.True(t, known.Known(d.Key), d.Key)
	}
}

func TestApplyBaseline(t *testing.T) {
	rep := row(t, "raw", nil, nil, map[string]r{
		"wgpu-vulkan:llvmpipe original wgsl": bad0,
		"wgpu-gl:llvmpipe original wgsl":     bad0,
	})
	known := &baseline.Set{}
	for _, k := range []string{"k/wgpu-gl:llvmpipe/original/wgsl", "gone/wgpu-gl:llvmpipe/original/wgsl", "*/dawn-gl:llvmpipe/*/*"} {
		require.NoError(t, known.Add(k))
	}
	rep.ApplyBaseline("known.txt", known)
	require.Len(t, rep.New(), 1)
	assert.Equal(t, "k/wgpu-vulkan:llvmpipe/original/wgsl", rep.New()[0].Key)
	assert.Equal(t, []string{"*/dawn-gl:llvmpipe/*/*", "gone/wgpu-gl:llvmpipe/original/wgsl"}, rep.Fixed, "a key or a pattern no divergence matches")

	all := &baseline.Set{}
	require.NoError(t, all.Add("k/*/original/wgsl"))
	rep.ApplyBaseline("all.txt", all)
	assert.Empty(t, rep.New(), "one pattern knows both divergences")
	assert.Empty(t, rep.Fixed)
}

func TestLoadCorpusPositionedErrors(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "k.wgsl"), []byte("fn k(a: i32) -> i32 { return a; }\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "k.inputs.json"), []byte(`{"a": [1, 2,]}`), 0o644))
	_, err := LoadCorpus(dir)
	assert.ErrorContains(t, err, "k.inputs.json")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "k.inputs.json"), []byte(`{"a": [1, 2]}`), 0o644))
	cs, err := LoadCorpus(dir)
	require.NoError(t, err)
	require.Len(t, cs, 1)
	assert.Len(t, cs[0].Case.Args, 2)
	assert.Equal(t, "", cs[0].Rule)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "z.wgsl"), []byte("fn z(a: i32) -> i32 {\n  return a +;\n}\n"), 0o644))
	_, err = LoadCorpus(dir)
	assert.Regexp(t, `z\.wgsl:2:\d+: `, err.Error())

	_, err = LoadCorpus(t.TempDir())
	assert.ErrorContains(t, err, "no .wgsl files")
}

func TestHeaderLines(t *testing.T) {
	rule, spec := HeaderLines([]byte("// rule: x / 0 is x\n// spec: WGSL #a (A)\n//\n// rule: not this\nfn k() {}\n// spec: nor this\n"))
	assert.Equal(t, "x / 0 is x", rule)
	assert.Equal(t, "WGSL #a (A)", spec)
	rule, _ = HeaderLines([]byte("fn k() {}\n// rule: after code\n"))
	assert.Equal(t, "", rule)
}

// A case whose reference cannot finish within the step limit is not a
// matrix of agreement: it fails as a whole, attributed to gpudiff (class
// harness), naming the invocation. The loop runs n iterations, at least
// one step each: n = 5000 cannot finish in 2,000 steps, n = 3 can.
func TestReferenceStepLimitFailsTheCase(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "count.wgsl"), []byte("fn count(n: u32) -> u32 {\n  var i: u32 = 0u;\n  loop {\n    if (i == n) { break; }\n    i = i + 1u;\n  }\n  return i;\n}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "count.inputs.json"), []byte(`{"n": [3, 5000]}`), 0o644))
	cases, err := LoadCorpus(dir)
	require.NoError(t, err)
	d, err := worker.Start("wgpu-vulkan:llvmpipe", worker.Options{})
	require.NoError(t, err, "lavapipe is needed: install mesa-vulkan-drivers (make deps)")
	defer d.Close()

	rep := Run(context.Background(), cases, []check.Device{d}, Options{Tool: "test", Interp: interp.Options{MaxSteps: 2000}})
	require.Len(t, rep.Cases, 1)
	assert.Contains(t, rep.Cases[0].Error, "could not finish invocation 1")
	assert.Contains(t, rep.Cases[0].Error, "step limit of 2000")
	require.NotEmpty(t, rep.Divergences)
	assert.Equal(t, check.ClassHarness, rep.Divergences[0].Class)

	rep = Run(context.Background(), cases, []check.Device{d}, Options{Tool: "test", Interp: interp.Options{MaxSteps: 1_000_000}})
	assert.Empty(t, rep.Cases[0].Error)
	assert.Empty(t, rep.Divergences)
}
