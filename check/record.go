package check

import (
	"encoding/json"
	"runtime"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// CaseOptions returns base with c's Stages, Mode, Flat, SPIRV and Fill
// (what a case file or the case flags say its runs are made with).
func CaseOptions(c *testcase.Case, base Options) Options {
	base.Stages, base.Mode, base.Flat, base.SPIRV, base.Fill = c.Stages, c.Mode, c.Flat, c.SPIRV, c.Fill
	return base
}

// Record is the case file's record of res's run (NewCaseRecord of its
// case and options).
func (res *Result) Record(toolVersion string) *testcase.CaseRecord {
	return NewCaseRecord(res.Case, res, res.Options, toolVersion)
}

// NewCaseRecord is the case file's record of case c judged res with opts
// (NewRecord, NewEntryRecord, NewFragmentRecord, by c's kind); toolVersion
// is the record's tool version.
func NewCaseRecord(c *testcase.Case, res *Result, opts Options, toolVersion string) *testcase.CaseRecord {
	switch c.Kind {
	case testcase.KindCompute:
		return NewEntryRecord(c.Entry(), res, opts, toolVersion)
	case testcase.KindFragment:
		return NewFragmentRecord(c.Fragment(), res, opts, toolVersion)
	case testcase.KindDraw:
		return NewDrawRecord(c, res, opts, toolVersion)
	}
	return NewRecord(c.Kernel(), res, opts, toolVersion)
}

// NewDrawRecord is the case record of draw case c run as res: the draw's
// fields (CaseRecord.SetDraw: both entry points, the vertex module when
// it is a file of its own, the target, every input), the verdict and
// findings, the reference and each run per pixel with the leaves that
// disagree (as a fragment case's).
func NewDrawRecord(c *testcase.Case, res *Result, opts Options, toolVersion string) *testcase.CaseRecord {
	rec := &testcase.CaseRecord{Format: testcase.CaseFormat, Verdict: string(res.Verdict), Findings: findingRecords(Attribute(res)),
		Hash: ir.Hash(ir.ProgramText(c.Module, c.Func.Name)), Mode: string(opts.Mode), Flat: opts.Flat, SPIRV: opts.SPIRV,
		Tool: testcase.ToolInfo{Version: toolVersion, Go: runtime.Version()}}
	rec.SetDraw(c)
	if opts.Fill != "" {
		rec.Fill = string(opts.Fill)
	}
	if rec.Mode == "" {
		rec.Mode = string(wgsl.Portable)
	}
	addResult(rec, res, true)
	return rec
}

// Replay judges res's run against the case file's record rec
// (JudgeReplay); a compute entry point's out-of-domain loop is judged as
// the reference's error.
func (res *Result) Replay(rec *testcase.CaseRecord) ReplayOutcome {
	r := res
	if res.Domain != "" {
		cp := *res
		cp.ReferenceErr = []string{res.Domain} // the loop, for the out-of-domain finding
		r = &cp
	}
	return JudgeReplay(rec, ReplayFindings(r, rec))
}

// NewRecord builds the record of a case and its result.
func NewRecord(c *testcase.KernelCase, res *Result, opts Options, toolVersion string) *testcase.CaseRecord {
	f := c.Module.Func(c.Kernel)
	rec := &testcase.CaseRecord{
		Format: testcase.CaseFormat, Kernel: c.Kernel, Invocations: len(c.Args),
		Inputs: testcase.InputsJSON(f, c.Args), Verdict: string(res.Verdict), Findings: findingRecords(Attribute(res)),
		Hash: ir.Hash(ir.ProgramText(c.Module, c.Kernel)), Mode: string(opts.Mode), Flat: opts.Flat, SPIRV: opts.SPIRV,
		Fill: string(opts.Fill), Tool: testcase.ToolInfo{Version: toolVersion, Go: runtime.Version()},
	}
	if rec.Mode == "" {
		rec.Mode = string(wgsl.Portable)
	}
	if len(opts.Stages) > 1 || len(opts.Stages) == 1 && opts.Stages[0] != oracle.StageCompute {
		rec.Stages = opts.Stages // compute alone is recorded as before stages: absent
	}
	addResult(rec, res, false)
	return rec
}

// addResult records res's reference and runs per invocation in rec (with
// each run's disagreeing leaves and their counts when leaves:
// RunRecord.Leaves), and the drivers of the runs' adapters.
func addResult(rec *testcase.CaseRecord, res *Result, leaves bool) {
	for _, r := range res.Reference {
		rec.Reference = append(rec.Reference, oracle.InvocationJSON(r, res.Names))
	}
	for _, r := range res.Runs {
		rr := testcase.RunRecord{Adapter: r.Adapter, Function: r.Function, Format: r.Format, Stage: r.Stage, Mode: r.Mode,
			Outputs: []json.RawMessage{}, Mismatches: append([]int{}, r.Mismatches...), Verdict: string(r.Verdict), Error: r.Message}
		for _, o := range r.Outputs {
			rr.Outputs = append(rr.Outputs, oracle.InvocationJSON(o, res.Names))
		}
		if leaves {
			rr.Leaves = leafCounts(r)
		}
		rec.Runs = append(rec.Runs, rr)
	}
	rec.Drivers = runDrivers(rec.Runs)
}

// runDrivers is the driver identity of the GPU adapters of runs, or nil
// when none ran on a GPU adapter (no lookup then: --no-gpu lists nothing).
func runDrivers(runs []testcase.RunRecord) []harness.DriverRecord {
	var names []string
	for _, r := range runs {
		if r.Adapter != "interp" {
			names = append(names, r.Adapter)
		}
	}
	if len(names) == 0 {
		return nil
	}
	if d := harness.DriverRecords(names); len(d) > 0 {
		return d
	}
	return nil
}

// NewEntryRecord builds the record of a compute entry point's case and
// its result: the dispatch is one invocation whose outputs are the
// read_write bindings.
func NewEntryRecord(c *testcase.ComputeCase, res *Result, opts Options, toolVersion string) *testcase.CaseRecord {
	r := res
	rec := &testcase.CaseRecord{
		Format: testcase.CaseFormat, Kernel: c.Entry, Invocations: 1, Workgroups: c.Workgroups[:],
		Inputs: testcase.EntryInputsJSON(c), Verdict: string(res.Verdict), Findings: findingRecords(Attribute(r)),
		Hash: ir.Hash(ir.ProgramText(c.Module, c.Entry)), Mode: string(opts.Mode), Flat: opts.Flat, SPIRV: opts.SPIRV,
		Fill: string(opts.Fill), Tool: testcase.ToolInfo{Version: toolVersion, Go: runtime.Version()},
	}
	if rec.Mode == "" {
		rec.Mode = string(wgsl.Portable)
	}
	rec.Reference = append(rec.Reference, oracle.InvocationJSON(res.Reference[0], res.Names))
	for _, run := range res.Runs {
		rr := testcase.RunRecord{Adapter: run.Adapter, Function: run.Function, Format: run.Format, Mode: run.Mode,
			Outputs: []json.RawMessage{}, Mismatches: append([]int{}, run.Mismatches...), Verdict: string(run.Verdict), Error: run.Message}
		for _, o := range run.Outputs {
			rr.Outputs = append(rr.Outputs, oracle.InvocationJSON(o, res.Names))
		}
		rec.Runs = append(rec.Runs, rr)
	}
	rec.Drivers = runDrivers(rec.Runs)
	return rec
}

// NewFragmentRecord builds the record of fragment case c and its result
// res (ExecuteFragment) run with opts: size, textures and samplers, the
// reference and every run's outputs per pixel, and per run the leaves
// (channels) that disagree with how many pixels each (RunRecord.Leaves).
func NewFragmentRecord(c *testcase.FragmentCase, res *Result, opts Options, toolVersion string) *testcase.CaseRecord {
	rec := &testcase.CaseRecord{
		Format: testcase.CaseFormat, Kernel: c.Entry, Invocations: int(c.Size[0] * c.Size[1]), Size: []uint32{c.Size[0], c.Size[1]},
		Inputs: testcase.FragmentInputsJSON(c), Verdict: string(res.Verdict), Findings: findingRecords(Attribute(res)),
		Hash: ir.Hash(ir.ProgramText(c.Module, c.Entry)), Mode: string(opts.Mode), Flat: opts.Flat, SPIRV: opts.SPIRV,
		Fill: string(opts.Fill), Tool: testcase.ToolInfo{Version: toolVersion, Go: runtime.Version()},
	}
	if rec.Mode == "" {
		rec.Mode = string(wgsl.Portable)
	}
	addResult(rec, res, true)
	return rec
}

// leafCounts is how many invocations disagree in each output leaf of r
// (by path, e.g. "ret.lin[3]"); nil when none does.
func leafCounts(r oracle.Judged) map[string]int {
	var out map[string]int
	for _, ds := range r.Diffs {
		seen := map[string]bool{}
		for _, d := range ds {
			if seen[d.Path] {
				continue
			}
			seen[d.Path] = true
			if out == nil {
				out = map[string]int{}
			}
			out[d.Path]++
		}
	}
	return out
}

// findingRecords are fs as a case file records them (testcase.FindingRecord).
func findingRecords(fs []Finding) []testcase.FindingRecord {
	if fs == nil {
		return nil
	}
	out := make([]testcase.FindingRecord, len(fs))
	for i, f := range fs {
		out[i] = testcase.FindingRecord{Class: string(f.Class), Adapter: f.Adapter, Runs: f.Runs, Implicates: f.Implicates, Invocations: f.Invocations}
	}
	return out
}
