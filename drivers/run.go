package drivers

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/dawn"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Options configures Run.
type Options struct {
	// Mode is the emission mode (default wgsl.Raw: the stack under test
	// must implement WGSL's rules itself).
	Mode wgsl.Mode
	// NoTwin skips the flattened twins; NoSPIRV skips gpudiff's SPIR-V.
	NoTwin, NoSPIRV bool
	// Stages are the pipeline stages a function kernel runs in
	// (check.Options.Stages; none: compute). Compute entry points run in
	// the compute stage only.
	Stages []oracle.Stage
	// Timeout bounds each dispatch on adapters whose devices do not bound
	// dispatches themselves (Dawn's node worker); 0 means 60 s. wgpu's
	// worker processes apply their own limit.
	Timeout time.Duration
	// Tool is recorded in the report ("gpudiff <version>").
	Tool string
	// Progress, when set, is called after each case finishes on an
	// adapter (from the adapter's goroutine, serialized).
	Progress func(done, total int)
	// Interp and Flatten are the reference interpreter's and flatten's
	// options (limits: steps per invocation, unroll copies).
	Interp  interp.Options
	Flatten flatten.Options
}

// Run executes every case on every device — original and twin, as WGSL and
// as gpudiff's SPIR-V where the implementation accepts SPIR-V — judges each
// run against the reference interpreter (check.Execute) and attributes each
// divergence. Each device runs in its own goroutine, one case after the
// other (wgpu's adapters are worker processes, Dawn's node processes, so
// the adapters run in parallel). Devices must be distinct adapters.
func Run(ctx context.Context, cases []*Case, devs []check.Device, opts Options) *Report {
	start := time.Now()
	if opts.Mode == "" {
		opts.Mode = wgsl.Raw
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 60 * time.Second
	}
	rep := &Report{Tool: opts.Tool, Mode: string(opts.Mode), Flat: !opts.NoTwin, SPIRV: !opts.NoSPIRV, Stages: stagesOf(opts.Stages),
		Adapters: []Adapter{}, Cases: []*CaseResult{}, Divergences: []*Divergence{}, Rules: []RuleSummary{}}
	for _, d := range devs {
		rep.Adapters = append(rep.Adapters, NewAdapter(d.Info()))
	}
	results := make([][]slot, len(cases)) // [case][adapter]
	for i := range results {
		results[i] = make([]slot, len(devs))
	}
	// Each case is prepared once (check.Prepare: the reference, flatten,
	// the twin's interpreter run), by the first adapter to reach it, and
	// every adapter makes its own runs of it and judges them.
	preps := make([]prepared, len(cases))
	var mu sync.Mutex
	done, total := 0, len(cases)*len(devs)
	var wg sync.WaitGroup
	for a, d := range devs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dev := &boundedDevice{Device: d, timeout: opts.Timeout}
			for i, c := range cases {
				if ctx.Err() != nil {
					results[i][a] = slot{err: ctx.Err()}
					continue
				}
				p := &preps[i]
				p.once.Do(func() {
					// Stages apply to a function kernel; an entry point
					// runs in its own stage.
					copts := check.Options{Flat: !opts.NoTwin, Stages: opts.Stages,
						SPIRV: !opts.NoSPIRV, Mode: opts.Mode, Label: c.Name + "/", Interp: opts.Interp, Flatten: opts.Flatten}
					copts.Interp.Context = ctx // the reference stops when ctx ends
					p.x, p.err = check.Prepare(c.Case, copts)
				})
				results[i][a] = runCase(ctx, p, dev)
				if opts.Progress != nil {
					mu.Lock()
					done++
					opts.Progress(done, total)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()

	for i, c := range cases {
		cr := newCaseResult(c)
		var res *check.Result
		for a := range devs {
			s := results[i][a]
			if s.err != nil {
				cr.Error = s.err.Error()
				continue
			}
			if res == nil {
				res = s.res
				cr.setReference(c, res)
				cr.Races = s.races
			}
			cell := &Cell{Adapter: rep.Adapters[a].Name, Result: s.res}
			// The row's runs are check's (AdapterRowRuns); the cell shows
			// each with its judged outputs in words.
			rowRuns, _ := check.AdapterRowRuns(cell.Adapter, s.res, s.skipped)
			cr.rowRuns = append(cr.rowRuns, rowRuns...)
			for _, rr := range rowRuns {
				cell.Runs = append(cell.Runs, runResultOf(rr))
			}
			rep.Runs += len(rowRuns) - len(s.skipped) // the judged runs: the skipped were not made
			cell.aggregate()
			cr.Cells = append(cr.Cells, cell)
		}
		if cr.Error != "" || res == nil {
			cr.Cells, cr.rowRuns = nil, nil
			for _, a := range rep.Adapters {
				cr.Cells = append(cr.Cells, &Cell{Adapter: a.Name, Outcome: Failed, Text: Failed})
			}
			if cr.Error == "" {
				cr.Error = "no adapter ran the case"
			}
		}
		rep.Cases = append(rep.Cases, cr)
	}
	for i, cr := range rep.Cases {
		if cr.Error == "" && opts.Mode == wgsl.Raw && cr.Diverges() && cases[i].Case.Kind == testcase.KindKernel { // FindHazards reads a function kernel's SPIR-V
			cr.Hazards = caseHazards(cases[i], opts.Flatten)
		}
		rep.Divergences = append(rep.Divergences, attributeCase(rep, cr)...)
	}
	rep.Rules = summarizeRules(rep)
	rep.Elapsed = time.Since(start)
	rep.ElapsedMS = rep.Elapsed.Milliseconds()
	return rep
}

// slot is one case's outcome on one adapter.
type slot struct {
	res     *check.Result
	skipped []oracle.Run // a compute entry point's runs not taken (check.ComputeResult.Skipped)
	races   int          // a compute entry point's data races in the reference
	err     error
}

// prepared is one case between check's stages, shared by the adapters.
type prepared struct {
	once sync.Once
	x    *check.Execution
	err  error
}

// runCase runs a prepared case on one adapter (check's DeviceRuns and
// Judge, as check.Execute does: original and twin, WGSL and gpudiff's
// SPIR-V, in the run's mode; raw emits the module's operators as
// written). Every kind's result has a function kernel's shape (a compute
// entry point's one invocation is the dispatch, whose outputs are the
// read_write bindings), so cells, divergences and attribution are one.
// The runs check skips for a compute entry point (oracle.Unsupported) are
// kept to be shown as skipped, except SPIR-V on an implementation that
// takes no SPIR-V at all (Dawn), which a function kernel's row leaves out
// too.
func runCase(ctx context.Context, p *prepared, dev check.Device) slot {
	if p.err != nil {
		return slot{err: p.err}
	}
	res := p.x.Judge([][]oracle.Run{p.x.DeviceRuns(ctx, dev)})
	s := slot{res: res, races: len(res.Races)}
	for _, r := range res.Skipped {
		if !strings.Contains(r.Message, dawn.ErrNoSPIRV.Error()) {
			s.skipped = append(s.skipped, r)
		}
	}
	return s
}

// runResultOf is a row's run (check's: check.AdapterRowRuns) as the matrix
// reports it.
func runResultOf(rr check.RowRun) *RunResult {
	return &RunResult{Function: rr.Function, FunctionName: rr.FunctionName, Format: rr.Format, Stage: rr.Stage, Outcome: rr.Outcome,
		Mismatches: rr.Mismatches, Indeterminate: rr.Indeterminate, Outputs: rr.Outputs, Human: rr.Human, Diffs: rr.Diffs, Error: rr.Error}
}

// boundedDevice adapts a device for the matrix: a dispatch on an
// implementation without its own time limit gets one, and a SPIR-V kernel
// Dawn refuses (dawn.ErrNoSPIRV) is reported as harness.ErrUnsupported, so
// check.Execute drops the run instead of judging it.
type boundedDevice struct {
	check.Device
	timeout time.Duration
}

func (d *boundedDevice) Run(ctx context.Context, k harness.Kernel, job harness.Dispatch) ([]byte, error) {
	if d.Info().Implementation != "wgpu" {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d.timeout)
		defer cancel()
	}
	out, err := d.Device.Run(ctx, k, job)
	if err != nil && !errors.Is(err, harness.ErrUnsupported) && errors.Is(err, dawn.ErrNoSPIRV) {
		err = fmt.Errorf("%w: %w", harness.ErrUnsupported, err)
	}
	return out, err
}

func newCaseResult(c *Case) *CaseResult {
	cs := c.Case
	cr := &CaseResult{Name: c.Name, Path: c.Path, Kernel: cs.Func.Name, Rule: c.Rule, Spec: c.Spec, Source: c.Source,
		Invocations: cs.Invocations()}
	if cs.Kind == testcase.KindCompute {
		cr.Workgroups = append([]uint32{}, cs.Workgroups[:]...)
	}
	if c.Seed != nil {
		cr.Seed = c.Seed
	}
	cr.Params, cr.Args, cr.Inputs = cs.InputTable()
	return cr
}

// setReference records the reference and the twin's interpreter run.
func (cr *CaseResult) setReference(c *Case, res *check.Result) {
	cr.Twin = res.Twin
	if res.FlattenErr != nil {
		cr.FlattenError = res.FlattenErr.Error()
	}
	if inv := res.Unfinished(); len(inv) > 0 && cr.Error == "" {
		// Nothing can be judged against an unfinished reference: the case
		// fails as a whole (class harness), it does not pass.
		cr.Error = fmt.Sprintf("the reference interpreter could not finish invocation %d: %s; --max-steps raises the limit", inv[0], res.ReferenceErr[inv[0]])
	}
	cr.Reference, cr.RefHuman = check.ReferenceRows(res)
	if _, twin := check.AdapterRowRuns("", res, nil); twin != nil {
		cr.twinRow, cr.TwinInterp = twin, runResultOf(*twin)
	}
}

// aggregate sets the cell's outcome (worst first) and text. Skipped runs
// do not count towards the outcome; the text names them last.
func (c *Cell) aggregate() {
	c.Outcome = Agrees
	byOutcome := map[string][]*RunResult{}
	ran := 0
	for _, r := range c.Runs {
		byOutcome[r.Outcome] = append(byOutcome[r.Outcome], r)
		if r.Outcome == Skipped {
			continue
		}
		ran++
		if severity[r.Outcome] > severity[c.Outcome] {
			c.Outcome = r.Outcome
		}
	}
	if ran == 0 {
		c.Outcome, c.Text = Failed, "no runs"
		if sk := byOutcome[Skipped]; len(sk) > 0 {
			// Nothing this adapter could take (every run Unsupported):
			// skipped, not failed.
			c.Outcome, c.Text = Skipped, fmt.Sprintf("%s (%s)", Skipped, runMarkers(sk, c.Runs))
		}
		return
	}
	var outs []string
	for o := range byOutcome {
		if o != Agrees && o != Skipped {
			outs = append(outs, o)
		}
	}
	sort.Slice(outs, func(i, j int) bool { return severity[outs[i]] > severity[outs[j]] })
	var parts []string
	for _, o := range outs {
		parts = append(parts, fmt.Sprintf("%s (%s)", o, runMarkers(byOutcome[o], c.Runs)))
	}
	if sk := byOutcome[Skipped]; len(sk) > 0 {
		if len(parts) == 0 {
			parts = append(parts, Agrees)
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", Skipped, runMarkers(sk, c.Runs)))
	}
	if len(parts) == 0 {
		c.Text = Agrees
		return
	}
	c.Text = strings.Join(parts, "; ")
}

// ForStage is the cell as it would be with only its runs of stage st:
// those runs, their outcome and text (aggregate). The matrix shows one row
// per case and stage when a report has several stages.
func (c *Cell) ForStage(st oracle.Stage) *Cell {
	sc := &Cell{Adapter: c.Adapter, Result: c.Result}
	for _, r := range c.Runs {
		if r.Stage == st {
			sc.Runs = append(sc.Runs, r)
		}
	}
	sc.aggregate()
	return sc
}

// RowStages are the stages the row's runs were made in, in the report's
// order (compute first); a row whose case could not run has none.
func (cr *CaseResult) RowStages() []oracle.Stage {
	var out []oracle.Stage
	for _, st := range []oracle.Stage{oracle.StageCompute, oracle.StageFragment} {
		for _, c := range cr.Cells {
			if slices.ContainsFunc(c.Runs, func(r *RunResult) bool { return r.Stage == st }) {
				out = append(out, st)
				break
			}
		}
	}
	return out
}

// runMarkers names runs compactly: per format (and stage: "wgsl fragment"
// for the fragment stage's, a compute run's marker naming no stage), the
// format alone when both the original and the twin are among rs (or the
// cell has no twin), else "wgsl orig" / "wgsl twin".
func runMarkers(rs, all []*RunResult) string {
	type path struct {
		format oracle.Format
		stage  oracle.Stage
	}
	has := map[path]map[string]bool{} // path → function kinds in rs
	twins := map[path]bool{}          // paths with a twin run in the cell
	for _, r := range all {
		if r.Function == Twin {
			twins[path{r.Format, r.Stage}] = true
		}
	}
	var paths []path
	for _, r := range rs {
		p := path{r.Format, r.Stage}
		if has[p] == nil {
			has[p] = map[string]bool{}
			paths = append(paths, p)
		}
		has[p][r.Function] = true
	}
	sort.Slice(paths, func(i, j int) bool {
		if (paths[i].stage == oracle.StageFragment) != (paths[j].stage == oracle.StageFragment) {
			return paths[j].stage == oracle.StageFragment
		}
		return formatRank(paths[i].format) < formatRank(paths[j].format)
	})
	var parts []string
	for _, p := range paths {
		name := string(p.format)
		if p.stage == oracle.StageFragment {
			name += " " + string(p.stage)
		}
		switch {
		case has[p][Original] && (has[p][Twin] || !twins[p]):
			parts = append(parts, name)
		case has[p][Original]:
			parts = append(parts, name+" orig")
		default:
			parts = append(parts, name+" twin")
		}
	}
	return strings.Join(parts, ", ")
}

// stagesOf is the Report's Stages for the options' stages: absent for
// compute alone.
func stagesOf(stages []oracle.Stage) []oracle.Stage {
	if len(stages) == 0 || len(stages) == 1 && stages[0] == oracle.StageCompute {
		return nil
	}
	return stages
}

func formatRank(f oracle.Format) int {
	switch f {
	case oracle.FormatWGSL:
		return 0
	case oracle.FormatSPIRV:
		return 1
	}
	return 2
}

// Diverges reports whether some cell of the row has an outcome other
// than Agrees (a cell whose every run is Skipped does not diverge).
func (cr *CaseResult) Diverges() bool {
	for _, c := range cr.Cells {
		if c.Outcome != Agrees && c.Outcome != Skipped {
			return true
		}
	}
	return false
}

// caseHazards finds the raw-SPIR-V hazards of the kernel and of its twin
// (flattened with the run's options, so the twin analysed is the twin
// run). A failure of the analysis leaves the kind out (the attribution
// then does without).
func caseHazards(c *Case, fo flatten.Options) map[string][]Hazard {
	out := map[string][]Hazard{}
	if hz, err := FindHazards(c.Case.Module, c.Case.Func.Name, c.Case.Args); err == nil {
		out[Original] = hz
	}
	m := ir.CloneModule(c.Case.Module)
	if tw, err := flatten.Function(m, c.Case.Func.Name, fo); err == nil {
		if hz, err := FindHazards(m, tw.Name, c.Case.Args); err == nil {
			out[Twin] = hz
		}
	}
	return out
}
