package drivers

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gpudiff/gpudiff/baseline"
	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/oracle"
)

// Outcomes of one run and of one matrix cell, in the words the matrix
// prints.
const (
	Agrees       = check.RowAgrees       // every compared invocation agrees with the reference
	Differs      = check.RowDiffers      // some determinate output differs from the reference
	CompileError = check.RowCompileError // the stack rejected the module
	Crash        = check.RowCrash        // the worker or device died
	Timeout      = check.RowTimeout      // the dispatch did not finish in time
	Failed       = check.RowFailed       // gpudiff could not run it (setup, decoding)
	// Skipped is a run gpudiff does not take on this adapter, with the
	// documented reason (RunResult.Error), e.g. gpudiff's SPIR-V of an
	// entry point with atomics on wgpu, whose SPIR-V reader has no atomics:
	// shown in its cell, never judged, never a divergence.
	Skipped = check.RowSkipped
)

// severity orders outcomes, worst first in a cell: a crash or a hang
// hurts most, then a silently wrong result, then a refused module, then
// gpudiff's own failure to run the case.
var severity = map[string]int{Crash: 5, Timeout: 4, Differs: 3, CompileError: 2, Failed: 1, Agrees: 0, Skipped: -1}

// Function kinds in keys: the kernel as written, or its flattened twin.
const (
	Original = check.RowOriginal
	Twin     = check.RowTwin
)

// Adapter is one column of the matrix.
type Adapter struct {
	Name           string `json:"name"`           // harness.AdapterInfo.Name, e.g. "wgpu-vulkan:llvmpipe"
	Implementation string `json:"implementation"` // "wgpu", "dawn", …
	// ImplementationVersion is the implementation's version, naming its
	// shader compiler (harness.AdapterInfo.ImplementationVersion: "wgpu
	// 0.19.4 (naga 0.19.2)"); empty in reports written before it was
	// recorded.
	ImplementationVersion string `json:"implementation_version,omitempty"`
	Backend               string `json:"backend"` // "vulkan", "gl", "gles", …
	Device                string `json:"device"`  // as reported
	// Driver identifies the driver the adapter runs on: the backend's
	// API family ("gles" counts as "gl") and the device's short name, e.g.
	// "vulkan:swiftshader". Two implementations on one Driver run their
	// own compilers' output on the same driver.
	Driver string `json:"driver"`
	// Compiler is the implementation's WGSL compiler: "naga" (wgpu),
	// "Tint" (dawn), else "<implementation>'s compiler".
	Compiler string `json:"compiler"`
	// DriverName, DriverVersion and DriverInfo are the driver's own name,
	// version and description (harness.AdapterInfo's Driver,
	// DriverVersion, DriverInfo: "llvmpipe", "22.3.6", "Mesa 22.3.6 (LLVM
	// 15.0.6)"); empty in reports written before they were recorded.
	DriverName    string `json:"driver_name,omitempty"`
	DriverVersion string `json:"driver_version,omitempty"`
	DriverInfo    string `json:"driver_info,omitempty"`
}

// NewAdapter describes an adapter for the matrix.
// The driver's name and version, and the implementation's version, come
// from info, or, when a device's info lacks them (a worker's), from
// harness.DriverRecords.
func NewAdapter(info harness.AdapterInfo) Adapter {
	a := Adapter{Name: info.Name, Implementation: info.Implementation, ImplementationVersion: info.ImplementationVersion,
		Backend: info.Backend, Device: info.Device,
		Driver: harness.DriverOf(info.Name), Compiler: harness.CompilerOf(info.Implementation),
		DriverName: info.Driver, DriverVersion: info.DriverVersion, DriverInfo: info.DriverInfo}
	if a.DriverVersion == "" || a.ImplementationVersion == "" {
		for _, d := range harness.DriverRecords([]string{info.Name}) {
			if a.DriverVersion == "" {
				a.DriverName, a.DriverVersion, a.DriverInfo = d.Driver, d.Version, d.Info
			}
			if a.ImplementationVersion == "" {
				a.ImplementationVersion = d.ImplementationVersion
			}
		}
	}
	return a
}

// Report is a driver matrix: every case on every adapter, each cell's
// runs, the divergences and their attribution.
type Report struct {
	Tool  string `json:"tool"`
	Mode  string `json:"mode"` // emission mode: "raw" or "portable"
	Flat  bool   `json:"flat"`
	SPIRV bool   `json:"spirv"`
	// Stages are the pipeline stages of the function kernels' runs
	// (Options.Stages), in order; absent: compute alone.
	Stages   []oracle.Stage `json:"stages,omitempty"`
	Adapters []Adapter      `json:"adapters"`
	Cases    []*CaseResult  `json:"cases"`
	// Divergences lists every run that does not agree with the reference,
	// by case, then adapter, then function and format.
	Divergences []*Divergence `json:"divergences"`
	// Rules summarizes, per rule, the adapters that diverge.
	Rules     []RuleSummary `json:"rules"`
	Runs      int           `json:"runs"` // GPU runs judged
	ElapsedMS int64         `json:"elapsed_ms"`
	// Baseline is the baseline file the report was compared with ("" if
	// none); Fixed lists its keys that no longer diverge.
	Baseline string        `json:"baseline,omitempty"`
	Fixed    []string      `json:"fixed,omitempty"`
	Elapsed  time.Duration `json:"-"`
}

// CaseResult is one row: the case and its cells.
type CaseResult struct {
	Name        string            `json:"name"`
	Path        string            `json:"path,omitempty"`
	Kernel      string            `json:"kernel"`
	Twin        string            `json:"twin,omitempty"`
	Rule        string            `json:"rule,omitempty"`
	Spec        string            `json:"spec,omitempty"`
	Source      string            `json:"source"`
	Seed        any               `json:"seed,omitempty"`
	Invocations int               `json:"invocations"`
	Params      []string          `json:"params"`
	Inputs      json.RawMessage   `json:"inputs"`
	Args        [][]string        `json:"-"` // [invocation][param], human form
	Reference   []json.RawMessage `json:"reference"`
	RefHuman    []string          `json:"-"`
	// FlattenError is flatten's refusal, when the twin could not be made.
	FlattenError string `json:"flatten_error,omitempty"`
	// TwinInterp is the twin's run in the interpreter (nil without twin).
	TwinInterp *RunResult `json:"twin_interp,omitempty"`
	// rowRuns are the GPU runs as check lists them for attribution
	// (check.AdapterRowRuns), adapter by adapter: rowRuns[i] is the i-th
	// RunResult of Cells in order; twinRow the twin's interpreter run.
	rowRuns []check.RowRun
	twinRow *check.RowRun
	// Error is a setup failure of the whole case (no cells ran).
	Error string  `json:"error,omitempty"`
	Cells []*Cell `json:"cells"` // one per adapter, in Report.Adapters order
	// Hazards are, per function kind, the operations of gpudiff's raw
	// SPIR-V reached in their undefined domain (raw mode only).
	Hazards map[string][]Hazard `json:"hazards,omitempty"`
	// Workgroups is the dispatch size of a compute entry point as written
	// (then Kernel is the entry point, the one invocation is the dispatch,
	// Params are its storage and uniform bindings and Inputs their initial
	// values keyed by name); absent for a function kernel.
	Workgroups []uint32 `json:"workgroups,omitempty"`
	// Races counts the data races the reference dispatch reported (their
	// locations are indeterminate, not compared).
	Races int `json:"races,omitempty"`
}

// Cell is one case on one adapter: its runs aggregated.
type Cell struct {
	Adapter string `json:"adapter"`
	// Outcome is the worst outcome of the cell's runs (Skipped when
	// every run is).
	Outcome string `json:"outcome"`
	// Text is the cell as printed: each outcome other than agrees, worst
	// first, with the runs that have it, e.g. "differs (wgsl, spirv)";
	// then the skipped runs, e.g. "agrees; skipped (spirv)".
	Text string       `json:"text"`
	Runs []*RunResult `json:"runs"`
	// Result is the check.Result this adapter's runs were judged in (the
	// reference, the twin's interpreter run and the adapter's runs). It is
	// not in the JSON report: it is for pictures (report.ResultPictures,
	// report.EntryPictures). Nil when the case did not run on the adapter.
	Result *check.Result `json:"-"`
}

// RunResult is one judged run: a function kind in a format and a stage on
// an adapter.
type RunResult struct {
	Function      string            `json:"function"` // Original or Twin
	FunctionName  string            `json:"function_name"`
	Format        oracle.Format     `json:"format"`          // oracle.FormatWGSL, FormatSPIRV (FormatIR for the interpreter)
	Stage         oracle.Stage      `json:"stage,omitempty"` // oracle.StageCompute, StageFragment ("" for the interpreter)
	Outcome       string            `json:"outcome"`         // Agrees, Differs, …; Skipped: not judged, Error says why
	Mismatches    []int             `json:"mismatches"`
	Indeterminate []int             `json:"indeterminate,omitempty"`
	Outputs       []json.RawMessage `json:"outputs,omitempty"`
	Human         []string          `json:"-"`
	// Diffs holds, per differing invocation, its differing leaves as
	// "path: reference X, got Y".
	Diffs map[int][]string `json:"diffs,omitempty"`
	Error string           `json:"error,omitempty"`
}

// Divergence is one run that does not agree with the reference, with its
// attribution.
type Divergence struct {
	// Key identifies the divergence in baselines:
	// case/adapter/function/format, e.g.
	// "div_by_zero_i32/wgpu-vulkan:llvmpipe/original/wgsl", with
	// "/fragment" after it for a run in the fragment stage (Key).
	Key          string        `json:"key"`
	Case         string        `json:"case"`
	Adapter      string        `json:"adapter"`
	Function     string        `json:"function"` // Original or Twin
	FunctionName string        `json:"function_name"`
	Format       oracle.Format `json:"format"`
	Stage        oracle.Stage  `json:"stage,omitempty"` // of the run ("" for a case that could not run)
	Outcome      string        `json:"outcome"`
	Rule         string        `json:"rule,omitempty"`
	Spec         string        `json:"spec,omitempty"`
	// Class is the attribution's stable identifier (see Attribute).
	Class check.Class `json:"class"`
	// Culprit names the implicated component, e.g. "naga", "naga's GLSL
	// backend", "driver vulkan:swiftshader"; Why says why, in one sentence.
	Culprit string `json:"culprit"`
	Why     string `json:"why"`
	// Invocations are the differing invocations; Example shows the first.
	Invocations []int    `json:"invocations,omitempty"`
	Example     *Example `json:"example,omitempty"`
	// SameAs lists the other adapters whose run of the same function and
	// format has exactly the same outputs.
	SameAs []string `json:"same_as,omitempty"`
	// Message is the stack's own message for a run without outputs.
	Message string `json:"message,omitempty"`
	// Known reports that Key is in the baseline.
	Known bool `json:"known,omitempty"`
}

// Example is one differing invocation, the minimal repro of a divergence
// on its kernel: the arguments, the reference and what the run returned.
type Example struct {
	Invocation int      `json:"invocation"`
	Args       string   `json:"args"`
	Reference  string   `json:"reference"`
	Got        string   `json:"got"`
	Leaves     []string `json:"leaves,omitempty"`
}

// Line is the divergence's one-line attribution: "class: culprit — why".
func (d *Divergence) Line() string { return string(d.Class) + ": " + d.Culprit + " — " + d.Why }

// Label is "case on adapter (format[ fragment][, twin])", the form "new
// divergence" messages use.
func (d *Divergence) Label() string {
	f := string(d.Format)
	if d.Stage == oracle.StageFragment {
		f += " " + string(d.Stage)
	}
	if d.Function == Twin {
		f += ", twin"
	}
	return fmt.Sprintf("%s on %s (%s)", d.Case, d.Adapter, f)
}

// Key builds a divergence key (see Divergence.Key): a run in the
// fragment stage gets "/fragment" after the format, a compute run's key is
// what every key was before stages (baselines keep matching).
func Key(caseName, adapter, function string, format oracle.Format, stage oracle.Stage) string {
	k := caseName + "/" + adapter + "/" + function + "/" + string(format)
	if stage == oracle.StageFragment {
		k += "/" + string(stage)
	}
	return k
}

// RuleSummary is one line of the per-rule summary.
type RuleSummary struct {
	Rule  string   `json:"rule"`
	Spec  string   `json:"spec,omitempty"`
	Cases []string `json:"cases"`
	// Adapters maps each diverging adapter to its formats, e.g.
	// "wgpu-vulkan:llvmpipe" → ["wgsl", "spirv"].
	Adapters map[string][]oracle.Format `json:"adapters"`
	// Culprits lists the distinct attributions, "class: culprit".
	Culprits []string `json:"culprits,omitempty"`
}

// New returns the divergences not in the baseline.
func (r *Report) New() []*Divergence {
	var out []*Divergence
	for _, d := range r.Divergences {
		if !d.Known {
			out = append(out, d)
		}
	}
	return out
}

// ApplyBaseline marks the divergences whose keys known knows, and records
// the entries (keys and patterns) that no divergence matches any more
// (Fixed). name is the baseline's file name for the report.
func (r *Report) ApplyBaseline(name string, known *baseline.Set) {
	r.Baseline = name
	keys := make([]string, 0, len(r.Divergences))
	for _, d := range r.Divergences {
		d.Known = known.Known(d.Key)
		keys = append(keys, d.Key)
	}
	r.Fixed = known.Unmatched(keys)
}
