package drivers

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// The attribution rules are decided on the matrix alone, so they are
// tested on hand-built rows: each scenario is a pattern of outcomes the
// rules must read one way. (The real adapters' rows are checked in
// TestConformanceMatrix.)

var testAdapters = []harness.AdapterInfo{
	{Name: "wgpu-vulkan:llvmpipe", Implementation: "wgpu", Backend: "vulkan", Device: "llvmpipe"},
	{Name: "wgpu-vulkan:swiftshader", Implementation: "wgpu", Backend: "vulkan", Device: "SwiftShader"},
	{Name: "wgpu-gl:llvmpipe", Implementation: "wgpu", Backend: "gl", Device: "llvmpipe"},
	{Name: "dawn-vulkan:swiftshader", Implementation: "dawn", Backend: "vulkan", Device: "SwiftShader"},
	{Name: "dawn-gles:llvmpipe", Implementation: "dawn", Backend: "gles", Device: "llvmpipe"},
}

// r is one run in a scenario: its outcome and, for differs, its outputs
// (a JSON value per invocation) and differing invocations.
type r struct {
	outcome string
	out     string // outputs of both invocations, e.g. "[0, 5]"
	mism    []int
	err     string
}

var (
	ok   = r{outcome: Agrees, out: "[1, 0]"}
	bad0 = r{outcome: Differs, out: "[9, 0]", mism: []int{0}}
)

// row builds a report with one case (2 invocations) whose runs are given
// as "adapter function format" → run (a compute-stage run; "adapter
// function format fragment": a fragment-stage run); the twin's
// interpreter run is twin.
func row(t *testing.T, mode string, hz map[string][]Hazard, twin *r, runs map[string]r) *Report {
	t.Helper()
	rep := &Report{Mode: mode}
	for _, a := range testAdapters {
		rep.Adapters = append(rep.Adapters, NewAdapter(a))
	}
	cr := &CaseResult{Name: "k", Kernel: "k", Invocations: 2, Params: []string{"a"},
		Args: [][]string{{"1"}, {"0"}}, RefHuman: []string{"1", "0"}, Hazards: hz}
	mk := func(fn, format string, stage oracle.Stage, x r) *RunResult {
		rr := &RunResult{Function: fn, FunctionName: "k", Format: oracle.Format(format), Stage: stage, Outcome: x.outcome, Mismatches: x.mism, Error: x.err}
		if x.out != "" {
			var outs []json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(x.out), &outs))
			rr.Outputs = outs
			for _, o := range outs {
				rr.Human = append(rr.Human, string(o))
			}
		}
		return rr
	}
	// The row check attributes: the same runs as check.RowRuns.
	rowRun := func(adapter string, rr *RunResult) check.RowRun {
		return check.RowRun{Adapter: adapter, Function: rr.Function, Format: rr.Format, Stage: rr.Stage, Outcome: rr.Outcome,
			Mismatches: rr.Mismatches, Outputs: rr.Outputs, Error: rr.Error}
	}
	if twin != nil {
		cr.TwinInterp = mk(Twin, "ir", "", *twin)
		t := rowRun("interp", cr.TwinInterp)
		cr.twinRow = &t
	}
	used := map[string]bool{}
	for _, a := range rep.Adapters {
		c := &Cell{Adapter: a.Name}
		for _, st := range []oracle.Stage{oracle.StageCompute, oracle.StageFragment} {
			for _, fn := range []string{Original, Twin} {
				for _, f := range []string{"wgsl", "spirv"} {
					name := a.Name + " " + fn + " " + f
					if st == oracle.StageFragment {
						name += " fragment"
					}
					if x, ok := runs[name]; ok {
						c.Runs = append(c.Runs, mk(fn, f, st, x))
						cr.rowRuns = append(cr.rowRuns, rowRun(a.Name, c.Runs[len(c.Runs)-1]))
						used[name] = true
					}
				}
			}
		}
		c.aggregate()
		cr.Cells = append(cr.Cells, c)
	}
	require.Len(t, used, len(runs), "a run names an unknown adapter, function or format")
	rep.Cases = []*CaseResult{cr}
	rep.Divergences = attributeCase(rep, cr)
	return rep
}

// find returns the divergence with the given key suffix
// (adapter/function/format).
func find(t *testing.T, rep *Report, key string) *Divergence {
	t.Helper()
	for _, d := range rep.Divergences {
		if d.Key == "k/"+key {
			return d
		}
	}
	require.Failf(t, "no divergence", "k/%s among %d", key, len(rep.Divergences))
	return nil
}

func TestAttribute(t *testing.T) {
	sdiv1 := map[string][]Hazard{Original: {{Op: "OpSDiv", Domain: "a zero divisor", Invocations: []int{0}}}}
	cases := []struct {
		name    string
		mode    string
		hz      map[string][]Hazard
		twin    *r
		runs    map[string]r
		key     string
		class   check.Class
		culprit string
		why     []string
	}{
		{name: "another implementation agrees on the same driver", mode: "raw",
			runs: map[string]r{"wgpu-vulkan:swiftshader original wgsl": bad0, "dawn-vulkan:swiftshader original wgsl": ok},
			key:  "wgpu-vulkan:swiftshader/original/wgsl", class: check.ClassCompiler, culprit: "naga",
			why: []string{"dawn-vulkan:swiftshader runs Tint's translation of the same WGSL correctly on the same driver (vulkan:swiftshader)"}},
		{name: "gles and gl are one driver family", mode: "raw",
			runs: map[string]r{"wgpu-gl:llvmpipe original wgsl": bad0, "dawn-gles:llvmpipe original wgsl": ok},
			key:  "wgpu-gl:llvmpipe/original/wgsl", class: check.ClassCompiler, culprit: "naga",
			why: []string{"dawn-gles:llvmpipe runs Tint's translation", "(gl:llvmpipe)"}},
		{name: "undefined SPIR-V explains the WGSL path", mode: "raw", hz: sdiv1,
			runs: map[string]r{"wgpu-vulkan:llvmpipe original wgsl": bad0, "wgpu-vulkan:swiftshader original wgsl": ok},
			key:  "wgpu-vulkan:llvmpipe/original/wgsl", class: check.ClassCompiler, culprit: "naga",
			why: []string{"OpSDiv with a zero divisor", "the WGSL compiler must guard it", "wgpu-vulkan:swiftshader happens to give WGSL's result"}},
		{name: "a hazard that misses a differing invocation explains nothing", mode: "raw", hz: sdiv1,
			runs: map[string]r{"wgpu-vulkan:llvmpipe original wgsl": {outcome: Differs, out: "[9, 9]", mism: []int{0, 1}},
				"wgpu-vulkan:swiftshader original wgsl": ok},
			key: "wgpu-vulkan:llvmpipe/original/wgsl", class: check.ClassDriver, culprit: "driver vulkan:llvmpipe",
			why: []string{"wgpu agrees on wgpu-vulkan:swiftshader (same vulkan backend", "no differing invocation reaches"}},
		{name: "our SPIR-V agrees on the adapter", mode: "raw",
			runs: map[string]r{"wgpu-vulkan:llvmpipe original wgsl": bad0, "wgpu-vulkan:llvmpipe original spirv": ok},
			key:  "wgpu-vulkan:llvmpipe/original/wgsl", class: check.ClassCompiler, culprit: "naga",
			why: []string{"gpudiff's own SPIR-V of the same function agrees on this adapter", "naga's WGSL front end"}},
		{name: "agrees only through another API", mode: "portable",
			runs: map[string]r{"wgpu-gl:llvmpipe original wgsl": bad0, "wgpu-vulkan:llvmpipe original wgsl": ok, "dawn-gles:llvmpipe original wgsl": bad0},
			key:  "wgpu-gl:llvmpipe/original/wgsl", class: check.ClassDriverOrBackend, culprit: "driver gl:llvmpipe or naga's GLSL backend",
			why: []string{"wgpu agrees only on wgpu-vulkan:llvmpipe", "portable mode"}},
		{name: "one implementation differs everywhere", mode: "raw",
			runs: map[string]r{"wgpu-vulkan:llvmpipe original wgsl": bad0, "wgpu-vulkan:swiftshader original wgsl": bad0,
				"wgpu-gl:llvmpipe original wgsl": bad0, "dawn-gles:llvmpipe original wgsl": ok},
			key: "wgpu-vulkan:llvmpipe/original/wgsl", class: check.ClassCompiler, culprit: "naga",
			why: []string{"wgpu differs on every driver it runs on while Tint agrees on dawn-gles:llvmpipe"}},
		{name: "everyone differs", mode: "raw",
			runs: map[string]r{"wgpu-vulkan:llvmpipe original wgsl": bad0, "wgpu-vulkan:swiftshader original wgsl": bad0,
				"wgpu-gl:llvmpipe original wgsl": bad0, "dawn-vulkan:swiftshader original wgsl": bad0, "dawn-gles:llvmpipe original wgsl": bad0},
			key: "dawn-gles:llvmpipe/original/wgsl", class: check.ClassReference, culprit: "gpudiff's interpreter or WGSL emitter"},
		{name: "nothing separates compiler from driver", mode: "raw",
			runs: map[string]r{"wgpu-vulkan:llvmpipe original wgsl": bad0, "wgpu-vulkan:swiftshader original wgsl": {outcome: Crash, err: "signal"}},
			key:  "wgpu-vulkan:llvmpipe/original/wgsl", class: check.ClassStack, culprit: "naga or driver vulkan:llvmpipe"},
		{name: "raw SPIR-V in its undefined domain", mode: "raw", hz: sdiv1,
			runs: map[string]r{"wgpu-vulkan:llvmpipe original spirv": bad0, "wgpu-vulkan:llvmpipe original wgsl": ok},
			key:  "wgpu-vulkan:llvmpipe/original/spirv", class: check.ClassUndefinedSPIRV, culprit: "gpudiff's raw SPIR-V, not the stack",
			why: []string{"OpSDiv with a zero divisor, undefined in SPIR-V"}},
		{name: "our SPIR-V differs where the WGSL agrees", mode: "portable",
			runs: map[string]r{"wgpu-vulkan:llvmpipe original spirv": bad0, "wgpu-vulkan:llvmpipe original wgsl": ok,
				"wgpu-vulkan:swiftshader original spirv": ok},
			key: "wgpu-vulkan:llvmpipe/original/spirv", class: check.ClassSPIRVPath, culprit: "gpudiff's SPIR-V emitter or naga's SPIR-V front end",
			why: []string{"the WGSL of the same function agrees on this adapter", "gpudiff's SPIR-V agrees on wgpu-vulkan:swiftshader"}},
		{name: "our SPIR-V gives the WGSL path's values", mode: "raw",
			runs: map[string]r{"wgpu-gl:llvmpipe original spirv": bad0, "wgpu-gl:llvmpipe original wgsl": bad0, "dawn-gles:llvmpipe original wgsl": ok},
			key:  "wgpu-gl:llvmpipe/original/spirv", class: check.ClassCompiler, culprit: "naga's GLSL backend",
			why: []string{"same values as the WGSL path", "dawn-gles:llvmpipe runs Tint's translation"}},
		{name: "the twin differs in the interpreter", mode: "raw", twin: &bad0,
			runs: map[string]r{"wgpu-vulkan:llvmpipe twin wgsl": bad0, "wgpu-vulkan:llvmpipe original wgsl": ok},
			key:  "wgpu-vulkan:llvmpipe/twin/wgsl", class: check.ClassFlatten, culprit: "flatten"},
		{name: "only the twin differs on the stack", mode: "raw", twin: &ok,
			runs: map[string]r{"wgpu-vulkan:swiftshader twin wgsl": bad0, "wgpu-vulkan:swiftshader original wgsl": ok, "dawn-vulkan:swiftshader twin wgsl": ok},
			key:  "wgpu-vulkan:swiftshader/twin/wgsl", class: check.ClassCompiler, culprit: "naga",
			why: []string{"only the flattened twin is affected"}},
		{name: "one implementation rejects what another compiles", mode: "raw",
			runs: map[string]r{"wgpu-vulkan:swiftshader original wgsl": {outcome: CompileError, err: "naga: bad\nmore"},
				"wgpu-vulkan:llvmpipe original wgsl": {outcome: CompileError, err: "naga: bad"}, "dawn-vulkan:swiftshader original wgsl": ok},
			key: "wgpu-vulkan:swiftshader/original/wgsl", class: check.ClassCompiler, culprit: "naga",
			why: []string{"it rejects WGSL that Tint compiles (on dawn-vulkan:swiftshader): naga: bad | more"}},
		{name: "our SPIR-V is rejected on one backend only", mode: "raw",
			runs: map[string]r{"wgpu-gl:llvmpipe original spirv": {outcome: CompileError, err: "GLSL: all(bool)"}, "wgpu-vulkan:llvmpipe original spirv": ok},
			key:  "wgpu-gl:llvmpipe/original/spirv", class: check.ClassDriverOrBackend, culprit: "naga's GLSL backend or driver gl:llvmpipe",
			why: []string{"wgpu compiles the same gpudiff's SPIR-V on wgpu-vulkan:llvmpipe"}},
		{name: "a crash on one driver", mode: "raw",
			runs: map[string]r{"wgpu-vulkan:swiftshader original wgsl": {outcome: Crash, err: "SIGSEGV"}, "wgpu-vulkan:llvmpipe original wgsl": bad0},
			key:  "wgpu-vulkan:swiftshader/original/wgsl", class: check.ClassDriver, culprit: "driver vulkan:swiftshader",
			why: []string{"it crashes on code that wgpu runs to completion on wgpu-vulkan:llvmpipe: SIGSEGV"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := row(t, c.mode, c.hz, c.twin, c.runs)
			d := find(t, rep, c.key)
			assert.Equal(t, c.class, d.Class, d.Line())
			assert.Equal(t, c.culprit, d.Culprit, d.Line())
			for _, w := range c.why {
				assert.Contains(t, d.Why, w)
			}
			assert.NotContains(t, d.Why, "\n", "one line")
		})
	}
}

func TestDivergenceDetails(t *testing.T) {
	rep := row(t, "raw", nil, nil, map[string]r{
		"wgpu-vulkan:llvmpipe original wgsl":    bad0,
		"wgpu-vulkan:swiftshader original wgsl": bad0,
		"wgpu-gl:llvmpipe original wgsl":        {outcome: Differs, out: "[8, 0]", mism: []int{0}},
		"dawn-vulkan:swiftshader original wgsl": ok,
	})
	require.Len(t, rep.Divergences, 3)
	d := find(t, rep, "wgpu-vulkan:llvmpipe/original/wgsl")
	assert.Equal(t, "k/wgpu-vulkan:llvmpipe/original/wgsl", d.Key)
	assert.Equal(t, []string{"wgpu-vulkan:swiftshader"}, d.SameAs, "identical outputs, not merely both differing")
	require.NotNil(t, d.Example)
	assert.Equal(t, Example{Invocation: 0, Args: "a = 1", Reference: "1", Got: "9"}, *d.Example)
	assert.Equal(t, "k on wgpu-vulkan:llvmpipe (wgsl)", d.Label())
}

func TestCellText(t *testing.T) {
	rep := row(t, "raw", nil, nil, map[string]r{
		"wgpu-vulkan:llvmpipe original wgsl":  bad0,
		"wgpu-vulkan:llvmpipe twin wgsl":      bad0,
		"wgpu-vulkan:llvmpipe original spirv": {outcome: Crash, err: "x"},
		"wgpu-vulkan:llvmpipe twin spirv":     ok,
		"wgpu-gl:llvmpipe original wgsl":      ok,
		"wgpu-gl:llvmpipe twin wgsl":          bad0,
		"dawn-gles:llvmpipe original wgsl":    ok,
	})
	cells := map[string]*Cell{}
	for _, c := range rep.Cases[0].Cells {
		cells[c.Adapter] = c
	}
	assert.Equal(t, Crash, cells["wgpu-vulkan:llvmpipe"].Outcome, "worst first")
	assert.Equal(t, "crash (spirv orig); differs (wgsl)", cells["wgpu-vulkan:llvmpipe"].Text)
	assert.Equal(t, "differs (wgsl twin)", cells["wgpu-gl:llvmpipe"].Text)
	assert.Equal(t, "agrees", cells["dawn-gles:llvmpipe"].Text)
	assert.Equal(t, "no runs", cells["wgpu-vulkan:swiftshader"].Text)
}

// TestAttributeStage: a fragment-stage run is compared with its compute
// run on the same adapter (ClassStage when that one agrees, or compiles
// and finishes where the fragment run does not) and otherwise with the
// fragment runs of its neighbours, never with their compute runs; its key
// and label name the stage, its cell text too.
func TestAttributeStage(t *testing.T) {
	rep := row(t, "raw", nil, nil, map[string]r{
		"wgpu-vulkan:llvmpipe original wgsl":             ok,
		"wgpu-vulkan:llvmpipe original wgsl fragment":    bad0,
		"wgpu-vulkan:llvmpipe original spirv":            ok,
		"wgpu-vulkan:llvmpipe original spirv fragment":   {outcome: CompileError, err: "Validation Error\nentry point fs: bad"},
		"wgpu-vulkan:swiftshader original wgsl":          bad0,
		"wgpu-vulkan:swiftshader original wgsl fragment": bad0,
		"dawn-vulkan:swiftshader original wgsl":          ok,
		"dawn-vulkan:swiftshader original wgsl fragment": bad0,
	})
	d := find(t, rep, "wgpu-vulkan:llvmpipe/original/wgsl/fragment")
	assert.Equal(t, check.ClassStage, d.Class)
	assert.Equal(t, oracle.StageFragment, d.Stage)
	assert.Equal(t, "the fragment-stage path of naga's SPIR-V backend or driver vulkan:llvmpipe", d.Culprit)
	assert.Contains(t, d.Why, "the compute entry point of the same wgsl agrees on this adapter")
	assert.Equal(t, "k on wgpu-vulkan:llvmpipe (wgsl fragment)", d.Label())
	d = find(t, rep, "wgpu-vulkan:llvmpipe/original/spirv/fragment")
	assert.Equal(t, check.ClassStage, d.Class)
	assert.Contains(t, d.Why, "does not compile")

	// Both stages differ on wgpu-vulkan:swiftshader, Dawn on the same
	// driver agrees in compute but not in the fragment stage: the compute
	// run is the compiler's (Dawn's compute agrees), the fragment run is
	// not (Dawn's fragment run differs too) and is not a stage finding.
	assert.Equal(t, check.ClassCompiler, find(t, rep, "wgpu-vulkan:swiftshader/original/wgsl").Class)
	d = find(t, rep, "wgpu-vulkan:swiftshader/original/wgsl/fragment")
	assert.NotEqual(t, check.ClassStage, d.Class)
	assert.NotEqual(t, check.ClassCompiler, d.Class, "Dawn's compute run is not a neighbour of a fragment run")
	assert.Equal(t, check.ClassStage, find(t, rep, "dawn-vulkan:swiftshader/original/wgsl/fragment").Class)

	cells := map[string]*Cell{}
	for _, c := range rep.Cases[0].Cells {
		cells[c.Adapter] = c
	}
	assert.Equal(t, "differs (wgsl fragment); compile error (spirv fragment)", cells["wgpu-vulkan:llvmpipe"].Text)
	assert.Equal(t, "agrees", cells["wgpu-vulkan:llvmpipe"].ForStage(oracle.StageCompute).Text)
	assert.Equal(t, "differs (wgsl)", cells["wgpu-vulkan:swiftshader"].ForStage(oracle.StageCompute).Text)
	assert.Equal(t, []oracle.Stage{oracle.StageCompute, oracle.StageFragment}, rep.Cases[0].RowStages())
}

// A run the adapter cannot take at all (oracle.Unsupported: a fragment
// kernel without writable storage in the fragment stage) is skipped in its
// cell with the reason, never a divergence.
func TestUnsupportedRunIsSkipped(t *testing.T) {
	res := &check.Result{ABI: &ir.KernelABI{Kernel: "k"}}
	j := oracle.Judged{Run: oracle.Run{Adapter: "dawn-gles:llvmpipe", Function: "k", Format: oracle.FormatWGSL,
		Stage: oracle.StageFragment, Failed: oracle.Unsupported, Message: "no writable storage buffers in the fragment stage"},
		Verdict: oracle.Unsupported}
	rr := runResultOf(check.NewRowRun("dawn-gles:llvmpipe", j, res))
	assert.Equal(t, Skipped, rr.Outcome)
	assert.Equal(t, oracle.StageFragment, rr.Stage)
	assert.Contains(t, rr.Error, "fragment stage")
}
