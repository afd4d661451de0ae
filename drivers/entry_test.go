package drivers

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness/devices"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

const computeDir = "../shaders/compute"

// entryCorpus copies a small entry-point corpus into a temporary
// directory: histogram (atomics: gpudiff's SPIR-V is skipped on wgpu),
// conformance_workgroup_barrier (no atomics: SPIR-V runs), each with its
// NAME.inputs.json, and stencil_case.wgsl, an entry case file recorded
// from stencil_1d (check.NewEntryRecord, read back by testcase.ParseCaseFile).
// It returns the directory and, per case, the hand-derived expectation
// (shaders/compute/NAME.expected.json without its "races" count).
func entryCorpus(t *testing.T) (string, map[string]any) {
	t.Helper()
	dir := t.TempDir()
	want := map[string]any{}
	for _, name := range []string{"histogram", "conformance_workgroup_barrier"} {
		for _, ext := range []string{".wgsl", ".inputs.json"} {
			data, err := os.ReadFile(filepath.Join(computeDir, name+ext))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, name+ext), data, 0o644))
		}
		want[name] = expectedBindings(t, name)
	}
	c, err := LoadFile(filepath.Join(computeDir, "stencil_1d.wgsl"))
	require.NoError(t, err)
	require.Equal(t, testcase.KindCompute, c.Case.Kind)
	res, err := check.Execute(context.Background(), c.Case, check.Options{Mode: wgsl.Raw})
	require.NoError(t, err)
	rec := res.Record("test")
	require.NoError(t, testcase.WriteCase(filepath.Join(dir, "stencil_case.wgsl"), c.Case.Module, rec))
	want["stencil_case"] = expectedBindings(t, "stencil_1d")
	return dir, want
}

func expectedBindings(t *testing.T, name string) any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(computeDir, name+".expected.json"))
	require.NoError(t, err)
	var e map[string]any
	require.NoError(t, json.Unmarshal(data, &e))
	require.EqualValues(t, 0, e["races"], name)
	delete(e, "races")
	return e
}

// TestLoadCorpusReadsEntryPoints: a .wgsl whose kernel is a compute entry
// point becomes an entry case with NAME.inputs.json's bindings and
// workgroups, an entry case file keeps its recorded dispatch, and a
// function kernel's file stays a kernel case.
func TestLoadCorpusReadsEntryPoints(t *testing.T) {
	dir, _ := entryCorpus(t)
	cases, err := LoadCorpus(dir)
	require.NoError(t, err)
	require.Len(t, cases, 3)
	byName := map[string]*Case{}
	for _, c := range cases {
		require.Equal(t, testcase.KindCompute, c.Case.Kind, c.Name)
		byName[c.Name] = c
	}
	h := byName["histogram"].Case
	assert.Equal(t, "main", h.Func.Name)
	assert.Equal(t, [3]uint32{2, 1, 1}, h.Workgroups)
	hv := testcase.BindingValues(h.Bindings)
	assert.Len(t, hv["values"].Elems, 16)
	assert.Equal(t, uint32(100), hv["bins"].Elems[0].Bits)
	s := byName["stencil_case"].Case
	assert.Equal(t, [3]uint32{2, 1, 1}, s.Workgroups)
	sv := testcase.BindingValues(s.Bindings)
	assert.Len(t, sv["src"].Elems, 16)
	assert.Equal(t, int32(-3), int32(sv["src"].Elems[1].Bits))

	k, err := LoadFile("../shaders/examples/shade.wgsl")
	require.NoError(t, err)
	assert.Equal(t, testcase.KindKernel, k.Case.Kind)

	// A bad workgroups entry is refused, naming the file.
	bad := filepath.Join(t.TempDir(), "histogram.wgsl")
	src, err := os.ReadFile(filepath.Join(dir, "histogram.wgsl"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(bad, src, 0o644))
	require.NoError(t, os.WriteFile(strings.TrimSuffix(bad, ".wgsl")+".inputs.json", []byte(`{"workgroups": [0], "values": [1]}`), 0o644))
	_, err = LoadFile(bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "histogram.inputs.json: workgroups")
}

// TestEntryBindingsFillRuntimeArrays: without an inputs file, a runtime-
// sized array gets one element per invocation of the dispatch, edge
// values first, a fixed array its length, and the bindings are
// deterministic in the seed.
func TestEntryBindingsFillRuntimeArrays(t *testing.T) {
	src := "@group(0) @binding(0) var<storage, read> a: array<i32>;\n" +
		"@group(0) @binding(1) var<storage, read_write> b: array<atomic<u32>, 3>;\n" +
		"@compute @workgroup_size(4, 2)\nfn main(@builtin(global_invocation_id) g: vec3<u32>) {\n" +
		"  atomicAdd(&b[g.x % 3u], u32(a[g.y * 8u + g.x]));\n}\n"
	m, err := wgsl.Parse("seed.wgsl", []byte(src))
	require.NoError(t, err)
	f, err := wgsl.Entry(m, "")
	require.NoError(t, err)
	bufs := gen.EntryBindings(1, m, f, [3]uint32{2, 1, 1})
	a := bufs["a"]
	assert.Equal(t, ir.KindRuntimeArray, a.Type.Kind)
	require.Len(t, a.Elems, 16)
	var edges []int32
	for _, e := range a.Elems[:4] {
		edges = append(edges, int32(e.Bits))
	}
	assert.Subset(t, []int32{0, 1, -1, -2147483648, 2147483647, 2, -2}, edges)
	assert.Len(t, bufs["b"].Elems, 3)
	js := func(v map[string]ir.Value) string {
		return string(testcase.BindingsJSON(m, testcase.MustBindingBuffers(m, v)))
	}
	assert.Equal(t, js(bufs), js(gen.EntryBindings(1, m, f, [3]uint32{2, 1, 1})))
	assert.NotEqual(t, js(bufs), js(gen.EntryBindings(2, m, f, [3]uint32{2, 1, 1})))
	// Execute takes them as they are.
	_, err = check.Execute(context.Background(), testcase.NewComputeCase(m, f.Name, [3]uint32{2, 1, 1}, testcase.MustBindingBuffers(m, bufs)), check.Options{})
	require.NoError(t, err)
}

// TestEntryPointsMatrix runs the small entry corpus on this machine's wgpu
// Vulkan adapters (lavapipe and SwiftShader) in raw mode: every case is one
// dispatch; its reference and every agreeing run hold the hand-derived
// values; gpudiff's SPIR-V of the atomic histogram is a visible skipped
// run with the documented reason (never a divergence), while the other
// cases' SPIR-V runs are judged; nothing diverges.
func TestEntryPointsMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("dispatches on the Vulkan adapters (skipped with -short)")
	}
	dir, want := entryCorpus(t)
	cases, err := LoadCorpus(dir)
	require.NoError(t, err)
	set, err := devices.Open([]string{"wgpu-vulkan"}, devices.Options{})
	require.NoError(t, err, "lavapipe and SwiftShader are needed (make deps)")
	defer set.Close()
	devs := make([]check.Device, len(set))
	for i, d := range set {
		devs[i] = d
	}
	require.GreaterOrEqual(t, len(devs), 2, "lavapipe and SwiftShader")
	rep := Run(context.Background(), cases, devs, Options{Tool: "test"})
	assert.Equal(t, "raw", rep.Mode)
	require.Len(t, rep.Cases, 3)
	for _, cr := range rep.Cases {
		require.Empty(t, cr.Error, cr.Name)
		assert.NotEmpty(t, cr.Workgroups, cr.Name)
		assert.Equal(t, 1, cr.Invocations, cr.Name)
		assert.Equal(t, "main_flat", cr.Twin, cr.Name)
		require.Len(t, cr.Reference, 1)
		assert.Equal(t, want[cr.Name], decode(t, cr.Reference[0]), "%s: reference", cr.Name)
		require.NotNil(t, cr.TwinInterp, cr.Name)
		assert.Equal(t, Agrees, cr.TwinInterp.Outcome, cr.Name)
		atomics := cr.Name == "histogram"
		for _, c := range cr.Cells {
			assert.Equal(t, Agrees, c.Outcome, "%s on %s: %s", cr.Name, c.Adapter, c.Text)
			kinds := map[string]string{}
			for _, r := range c.Runs {
				label := cr.Name + " on " + c.Adapter + " " + r.Function + " " + string(r.Format)
				kinds[r.Function+" "+string(r.Format)] = r.Outcome
				switch {
				case r.Format == oracle.FormatSPIRV && atomics:
					assert.Equal(t, Skipped, r.Outcome, label)
					assert.Contains(t, r.Error, "gfx-rs/wgpu#4489", label)
					assert.Empty(t, r.Outputs, label)
				default:
					require.Equal(t, Agrees, r.Outcome, "%s: %s", label, r.Error)
					require.Len(t, r.Outputs, 1, label)
					assert.Equal(t, want[cr.Name], decode(t, r.Outputs[0]), label)
				}
			}
			assert.Len(t, kinds, 4, "%s on %s: original and twin, WGSL and SPIR-V", cr.Name, c.Adapter)
			if atomics {
				assert.Equal(t, "agrees; skipped (spirv)", c.Text)
			} else {
				assert.Equal(t, Agrees, c.Text)
			}
		}
		assert.False(t, cr.Diverges(), cr.Name)
	}
	assert.Empty(t, rep.Divergences)
	assert.Equal(t, 3*len(devs)*4-2*len(devs), rep.Runs, "the skipped runs are not counted as run")
}

// TestGeneratedComputePrograms: --generated with the compute profile
// yields entry cases dispatched as a campaign dispatches them (the
// generator's workgroups, gen.Bindings of the program seed).
func TestGeneratedComputePrograms(t *testing.T) {
	prof, err := gen.LookupProfile("compute")
	require.NoError(t, err)
	cs := Generated(3, 4, 16, gen.Config{Profile: prof})
	require.Len(t, cs, 4)
	for i, c := range cs {
		require.Equal(t, testcase.KindCompute, c.Case.Kind)
		p := gen.Generate(gen.ProgramSeed(3, i), gen.Config{Profile: prof, OutsideSubset: -1})
		assert.Equal(t, p.Workgroups, c.Case.Workgroups)
		assert.Equal(t, testcase.BindingsJSON(p.Module, testcase.MustBindingBuffers(p.Module, gen.Bindings(p.Seed, p.Module))), testcase.BindingsJSON(c.Case.Module, c.Case.Bindings))
		assert.Equal(t, "compute", c.Seed.Profile)
	}
}

// TestEntryPointsMatrixOnDawn runs entry points as written on Dawn's three
// adapters (Tint on SwiftShader, llvmpipe GL and GLES), raw mode: the
// small entry corpus plus pointer parameters into every address space,
// a two-barrier prefix sum, signed atomic read-modify-writes, workgroup
// atomics votes and a min/max reduction. Every Dawn cell agrees with
// values derived by hand (NAME.expected.json); a Dawn cell holds the
// original and the twin as WGSL only (dawn.node takes no SPIR-V, which a
// cell leaves out, as for function kernels); nothing diverges.
func TestEntryPointsMatrixOnDawn(t *testing.T) {
	if testing.Short() {
		t.Skip("dispatches on Dawn's adapters (skipped with -short)")
	}
	dir, want := entryCorpus(t)
	extra := []string{"pointer_params", "prefix_sum", "conformance_atomic_rmw_i32", "workgroup_vote", "minmax_reduction"}
	for _, name := range extra {
		for _, ext := range []string{".wgsl", ".inputs.json"} {
			data, err := os.ReadFile(filepath.Join(computeDir, name+ext))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, name+ext), data, 0o644))
		}
		want[name] = expectedBindings(t, name)
	}
	cases, err := LoadCorpus(dir)
	require.NoError(t, err)
	require.Len(t, cases, 3+len(extra))
	set, err := devices.Open([]string{"dawn"}, devices.Options{})
	require.NoError(t, err, "Dawn's adapters are needed (make deps: npm ci, chromium for SwiftShader, Mesa EGL for llvmpipe GL)")
	defer set.Close()
	devs := make([]check.Device, len(set))
	for i, d := range set {
		devs[i] = d
		assert.Equal(t, "dawn", d.Info().Implementation)
	}
	require.Len(t, devs, 6, "dawn-vulkan:swiftshader, dawn-gl:llvmpipe, dawn-gles:llvmpipe and the three on Mesa 25")
	rep := Run(context.Background(), cases, devs, Options{Tool: "test"})
	require.Len(t, rep.Cases, len(cases))
	for _, cr := range rep.Cases {
		require.Empty(t, cr.Error, cr.Name)
		assert.Equal(t, want[cr.Name], decode(t, cr.Reference[0]), "%s: reference", cr.Name)
		require.Len(t, cr.Cells, len(devs), cr.Name)
		for _, c := range cr.Cells {
			assert.Equal(t, Agrees, c.Text, "%s on %s", cr.Name, c.Adapter)
			require.Len(t, c.Runs, 2, "%s on %s: original and twin, WGSL", cr.Name, c.Adapter)
			for _, r := range c.Runs {
				label := cr.Name + " on " + c.Adapter + " " + r.Function + " " + string(r.Format)
				assert.Equal(t, oracle.FormatWGSL, r.Format, label)
				require.Equal(t, Agrees, r.Outcome, "%s: %s", label, r.Error)
				require.Len(t, r.Outputs, 1, label)
				assert.Equal(t, want[cr.Name], decode(t, r.Outputs[0]), label)
			}
		}
	}
	assert.Empty(t, rep.Divergences)
	assert.Equal(t, len(cases)*len(devs)*2, rep.Runs)
}
