package check

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

func TestHazardsCover(t *testing.T) {
	hz := []Hazard{{Op: "OpSDiv", Invocations: []int{0, 3}}, {Op: "OpSRem", Invocations: []int{5}}}
	ok, used := HazardsCover(hz, []int{0, 5})
	assert.True(t, ok)
	assert.Len(t, used, 2)
	ok, used = HazardsCover(hz, []int{0, 1})
	assert.False(t, ok, "invocation 1 reaches no hazard")
	assert.Len(t, used, 1)
	ok, _ = HazardsCover(hz, nil)
	assert.False(t, ok, "no differing invocation: nothing to explain")
}

// TestAttributeRow: a row decided from its neighbours alone (the rules'
// scenarios are in drivers' TestAttribute, on rows drivers fills).
func TestAttributeRow(t *testing.T) {
	outs := func(s string) []json.RawMessage {
		var o []json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(s), &o))
		return o
	}
	run := func(adapter, outcome, out string, mism ...int) RowRun {
		return RowRun{Adapter: adapter, Function: RowOriginal, Format: oracle.FormatWGSL, Stage: oracle.StageCompute,
			Outcome: outcome, Mismatches: mism, Outputs: outs(out)}
	}
	row := &Row{Mode: "raw", Adapters: []RowAdapter{
		{Name: "wgpu-vulkan:swiftshader", Implementation: "wgpu", Backend: "vulkan", Driver: "vulkan:swiftshader", Compiler: "naga"},
		{Name: "dawn-vulkan:swiftshader", Implementation: "dawn", Backend: "vulkan", Driver: "vulkan:swiftshader", Compiler: "Tint"},
		{Name: "wgpu-gl:llvmpipe", Implementation: "wgpu", Backend: "gl", Driver: "gl:llvmpipe", Compiler: "naga"},
	}, Runs: []RowRun{
		run("wgpu-vulkan:swiftshader", RowDiffers, "[9, 0]", 0),
		run("dawn-vulkan:swiftshader", RowAgrees, "[1, 0]"),
		run("wgpu-gl:llvmpipe", RowDiffers, "[9, 0]", 0),
	}}
	fs := AttributeRow(row)
	require.Len(t, fs, 2)
	assert.Equal(t, 0, fs[0].Run)
	assert.Equal(t, ClassCompiler, fs[0].Class)
	assert.Equal(t, "naga", fs[0].Culprit)
	assert.Equal(t, []string{"wgpu-gl:llvmpipe"}, fs[0].SameAs)
	assert.Equal(t, 2, fs[1].Run)

	// A crash of the WGSL run whose SPIR-V run completes on the same
	// adapter is the WGSL compiler's, not the driver's (issue 25: naga's
	// SPIR-V backend aborting on a member pointer argument).
	crash := &Row{Mode: "raw", Adapters: row.Adapters[:1], Runs: []RowRun{
		{Adapter: "wgpu-vulkan:swiftshader", Function: RowOriginal, Format: oracle.FormatWGSL, Stage: oracle.StageCompute, Outcome: RowCrash, Error: "SIGABRT"},
		run("wgpu-vulkan:swiftshader", RowAgrees, "[1, 0]"),
	}}
	crash.Runs[1].Format = oracle.FormatSPIRV
	fs = AttributeRow(crash)
	require.Len(t, fs, 1)
	assert.Equal(t, ClassCompiler, fs[0].Class)
	assert.Equal(t, "naga", fs[0].Culprit)
	crash.Runs[1].Outcome = RowCrash
	fs = AttributeRow(crash)
	require.Len(t, fs, 2)
	assert.Equal(t, ClassStack, fs[0].Class, "both formats crash: compiler and driver stay unseparated")

	row.Error = "  setup failed\nmore"
	row.Runs = nil
	fs = AttributeRow(row)
	require.Len(t, fs, 3)
	for _, f := range fs {
		assert.Equal(t, -1, f.Run)
		assert.Equal(t, ClassHarness, f.Class)
		assert.Equal(t, "the case could not be run: setup failed", f.Why)
	}
}

// A judged run's outcome in the matrix's words (RowOutcome): a run whose
// only differences are indeterminate leaves agrees; an adapter's refusal
// (oracle.Unsupported) is skipped, never judged; an error the oracle has
// no word for is a failure.
func TestRowOutcome(t *testing.T) {
	for v, want := range map[oracle.Verdict]string{
		oracle.Pass: RowAgrees, oracle.VIndeterminate: RowAgrees, oracle.Mismatch: RowDiffers,
		oracle.CompileError: RowCompileError, oracle.Crash: RowCrash, oracle.Timeout: RowTimeout,
		oracle.Unsupported: RowSkipped, oracle.Error: RowFailed,
	} {
		assert.Equal(t, want, RowOutcome(oracle.Judged{Verdict: v}), "%s", v)
	}
	// AdapterRowRuns: the GPU runs in order, the twin's interpreter run
	// apart, a skipped run last with its reason.
	res := &Result{ABI: &ir.KernelABI{Kernel: "k"}}
	res.Runs = []oracle.Judged{
		{Run: oracle.Run{Adapter: "interp", Function: "k_flat", Format: oracle.FormatIR}, Verdict: oracle.Pass},
		{Run: oracle.Run{Adapter: "a", Function: "k_flat", Format: oracle.FormatWGSL}, Verdict: oracle.Mismatch, Mismatches: []int{3}},
	}
	runs, twin := AdapterRowRuns("a", res, []oracle.Run{{Adapter: "a", Function: "k", Format: oracle.FormatSPIRV, Message: "no SPIR-V"}})
	require.NotNil(t, twin)
	assert.Equal(t, RowTwin, twin.Function)
	require.Len(t, runs, 2)
	assert.Equal(t, RowRun{Adapter: "a", Function: RowTwin, Format: oracle.FormatWGSL, Stage: oracle.StageCompute, Outcome: RowDiffers, Mismatches: []int{3}, FunctionName: "k_flat"}, runs[0])
	assert.Equal(t, RowRun{Adapter: "a", Function: RowOriginal, Format: oracle.FormatSPIRV, Stage: oracle.StageCompute, Outcome: RowSkipped, Mismatches: []int{}, Error: "no SPIR-V", FunctionName: "k"}, runs[1])
}
