package drivers

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gpudiff/gpudiff/check"
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
	rep := &Report{Tool: opts.Tool, Mode: string(opts.Mode), Flat: !opts.NoTwin, SPIRV: !opts.NoSPIRV,
		Adapters: []Adapter{}, Cases: []*CaseResult{}, Divergences: []*Divergence{}, Rules: []RuleSummary{}}
	for _, d := range devs {
		rep.Adapters = append(rep.Adapters, NewAdapter(d.Info()))
	}
	type slot struct {
		res *check.Result
		err error
	}
	results := make([][]slot, len(cases)) // [case][adapter]
	for i := range results {
		results[i] = make([]slot, len(devs))
	}
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
				res, err := check.Execute(ctx, c.Case, check.Options{Devices: []check.Device{dev}, Flat: !opts.NoTwin,
					SPIRV: !opts.NoSPIRV, Mode: opts.Mode, Label: c.Name + "/", Interp: opts.Interp, Flatten: opts.Flatten})
				results[i][a] = slot{res, err}
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
			}
			cell := &Cell{Adapter: rep.Adapters[a].Name}
			for _, r := range s.res.Runs {
				if r.Adapter == "interp" {
					continue
				}
				cell.Runs = append(cell.Runs, newRunResult(r, s.res))
				rep.Runs++
			}
			cell.aggregate()
			cr.Cells = append(cr.Cells, cell)
		}
		if cr.Error != "" || res == nil {
			cr.Cells = nil
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
		if cr.Error == "" && opts.Mode == wgsl.Raw && cr.Diverges() {
			cr.Hazards = caseHazards(cases[i], opts.Flatten)
		}
		rep.Divergences = append(rep.Divergences, attributeCase(rep, cr)...)
	}
	rep.Rules = summarizeRules(rep)
	rep.Elapsed = time.Since(start)
	rep.ElapsedMS = rep.Elapsed.Milliseconds()
	return rep
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
	cr := &CaseResult{Name: c.Name, Path: c.Path, Kernel: c.Case.Kernel, Rule: c.Rule, Spec: c.Spec, Source: c.Source,
		Invocations: len(c.Case.Args)}
	if c.Seed != nil {
		cr.Seed = c.Seed
	}
	f := c.Case.Module.Func(c.Case.Kernel)
	for _, p := range f.Params {
		cr.Params = append(cr.Params, p.Name)
	}
	cr.Inputs = check.InputsJSON(f, c.Case.Args)
	for _, args := range c.Case.Args {
		row := make([]string, len(args))
		for j, a := range args {
			row[j] = oracle.Human(oracle.Expected{Value: a})
		}
		cr.Args = append(cr.Args, row)
	}
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
	for _, r := range res.Reference {
		cr.Reference = append(cr.Reference, oracle.InvocationJSON(r, res.Names))
		cr.RefHuman = append(cr.RefHuman, humanOutputs(r, res.Names))
	}
	for _, r := range res.Runs {
		if r.Adapter == "interp" {
			cr.TwinInterp = newRunResult(r, res)
		}
	}
}

func humanOutputs(outs []oracle.Expected, names []string) string {
	parts := make([]string, len(outs))
	for i, o := range outs {
		parts[i] = oracle.Human(o)
		if len(names) > 1 || names[0] != "ret" {
			parts[i] = names[i] + "=" + parts[i]
		}
	}
	return strings.Join(parts, " ")
}

func newRunResult(r oracle.Judged, res *check.Result) *RunResult {
	rr := &RunResult{Function: Original, FunctionName: r.Function, Format: r.Format, Outcome: outcomeOf(r),
		Mismatches: append([]int{}, r.Mismatches...), Indeterminate: r.Indeterminate, Error: r.Message}
	if r.Function != res.ABI.Kernel {
		rr.Function = Twin
	}
	for _, o := range r.Outputs {
		rr.Outputs = append(rr.Outputs, oracle.InvocationJSON(o, res.Names))
		rr.Human = append(rr.Human, humanOutputs(o, res.Names))
	}
	if len(r.Diffs) > 0 {
		rr.Diffs = map[int][]string{}
		for _, i := range oracle.Sorted(r.Diffs) {
			for _, d := range r.Diffs[i] {
				rr.Diffs[i] = append(rr.Diffs[i], fmt.Sprintf("%s: reference %s, got %s", d.Path, d.Want, d.Got))
			}
		}
	}
	return rr
}

// outcomeOf maps a judged run onto the matrix's outcomes.
func outcomeOf(r oracle.Judged) string {
	switch r.Verdict {
	case oracle.Pass, oracle.VIndeterminate:
		return Agrees
	case oracle.Mismatch:
		return Differs
	case oracle.CompileError:
		return CompileError
	case oracle.Crash:
		return Crash
	case oracle.Timeout:
		return Timeout
	}
	return Failed
}

// aggregate sets the cell's outcome (worst first) and text.
func (c *Cell) aggregate() {
	c.Outcome = Agrees
	byOutcome := map[string][]*RunResult{}
	for _, r := range c.Runs {
		byOutcome[r.Outcome] = append(byOutcome[r.Outcome], r)
		if severity[r.Outcome] > severity[c.Outcome] {
			c.Outcome = r.Outcome
		}
	}
	if len(c.Runs) == 0 {
		c.Outcome, c.Text = Failed, "no runs"
		return
	}
	var outs []string
	for o := range byOutcome {
		if o != Agrees {
			outs = append(outs, o)
		}
	}
	sort.Slice(outs, func(i, j int) bool { return severity[outs[i]] > severity[outs[j]] })
	if len(outs) == 0 {
		c.Text = Agrees
		return
	}
	var parts []string
	for _, o := range outs {
		parts = append(parts, fmt.Sprintf("%s (%s)", o, runMarkers(byOutcome[o], c.Runs)))
	}
	c.Text = strings.Join(parts, "; ")
}

// runMarkers names runs compactly: per format, the format alone when both
// the original and the twin are among rs (or the cell has no twin), else
// "wgsl orig" / "wgsl twin".
func runMarkers(rs, all []*RunResult) string {
	has := map[oracle.Format]map[string]bool{} // format → function kinds in rs
	twins := map[oracle.Format]bool{}          // formats with a twin run in the cell
	for _, r := range all {
		if r.Function == Twin {
			twins[r.Format] = true
		}
	}
	var formats []oracle.Format
	for _, r := range rs {
		if has[r.Format] == nil {
			has[r.Format] = map[string]bool{}
			formats = append(formats, r.Format)
		}
		has[r.Format][r.Function] = true
	}
	sort.Slice(formats, func(i, j int) bool { return formatRank(formats[i]) < formatRank(formats[j]) })
	var parts []string
	for _, f := range formats {
		switch {
		case has[f][Original] && (has[f][Twin] || !twins[f]):
			parts = append(parts, string(f))
		case has[f][Original]:
			parts = append(parts, string(f)+" orig")
		default:
			parts = append(parts, string(f)+" twin")
		}
	}
	return strings.Join(parts, ", ")
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
// than Agrees.
func (cr *CaseResult) Diverges() bool {
	for _, c := range cr.Cells {
		if c.Outcome != Agrees {
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
	if hz, err := FindHazards(c.Case.Module, c.Case.Kernel, c.Case.Args); err == nil {
		out[Original] = hz
	}
	m := ir.CloneModule(c.Case.Module)
	if tw, err := flatten.Function(m, c.Case.Kernel, fo); err == nil {
		if hz, err := FindHazards(m, tw.Name, c.Case.Args); err == nil {
			out[Twin] = hz
		}
	}
	return out
}
