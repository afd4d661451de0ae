package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// ExecVerdict maps the oracle's verdict onto exec's (README "exec"):
// "pass", "mismatch", a stack's "crash" or "timeout", the shader's own
// "race" or "out-of-domain", or "error" for every other verdict.
func ExecVerdict(v oracle.Verdict) string {
	switch v {
	case oracle.Pass:
		return "pass"
	case oracle.Mismatch:
		return "mismatch"
	case oracle.Race, oracle.OutOfDomain:
		return string(v) // the shader's own defect or domain (exit 4)
	case oracle.Crash, oracle.Timeout:
		return string(v) // a stack died on the case: a finding (exit 1)
	}
	return "error"
}

type runJSON struct {
	Adapter       string            `json:"adapter"`
	Function      string            `json:"function"`
	Format        string            `json:"format"`
	Stage         string            `json:"stage,omitempty"` // GPU runs: "compute" or "fragment"
	Mode          string            `json:"mode"`
	Outputs       []json.RawMessage `json:"outputs"`
	Mismatches    []int             `json:"mismatches"`
	Indeterminate []int             `json:"indeterminate"`
	Error         string            `json:"error"`
}

// WriteExecJSON writes exec's JSON object (README "exec --json") for the
// result res of running kernel f on args[invocation][param]: one indented
// document and a newline on w. replay, when non-nil, is repro's judgement
// of the run (its "repro" member), carried in the same document so that
// `repro --json` prints nothing else. Errors are w's.
func WriteExecJSON(w io.Writer, f *ir.Func, args [][]ir.Value, res *check.Result, replay *check.ReplayOutcome) error {
	ref := make([]json.RawMessage, len(res.Reference))
	for i, r := range res.Reference {
		ref[i] = oracle.InvocationJSON(r, res.Names)
	}
	runs := make([]runJSON, 0, len(res.Runs))
	for _, r := range res.Runs {
		rj := runJSON{Adapter: r.Adapter, Function: r.Function, Format: string(r.Format), Stage: string(r.Stage), Mode: r.Mode,
			Outputs: []json.RawMessage{}, Mismatches: append([]int{}, r.Mismatches...),
			Indeterminate: append([]int{}, r.Indeterminate...), Error: r.Message}
		for _, o := range r.Outputs {
			rj.Outputs = append(rj.Outputs, oracle.InvocationJSON(o, res.Names))
		}
		runs = append(runs, rj)
	}
	type refErr struct {
		Invocation int    `json:"invocation"`
		Error      string `json:"error"`
	}
	var refErrs []refErr
	for _, i := range res.Unfinished() {
		refErrs = append(refErrs, refErr{i, res.ReferenceErr[i]})
	}
	obj := struct {
		Kernel      string            `json:"kernel"`
		Invocations int               `json:"invocations"`
		Inputs      json.RawMessage   `json:"inputs"`
		Reference   []json.RawMessage `json:"reference"`
		// ReferenceErrors are the invocations the reference interpreter
		// could not finish (step limit, positioned at the loop); their
		// reference outputs are indeterminate and the verdict is "error",
		// or "out-of-domain" when the inputs were made up (--fill).
		ReferenceErrors []refErr  `json:"reference_errors,omitempty"`
		Runs            []runJSON `json:"runs"`
		Verdict         string    `json:"verdict"`
		// Findings attribute every disagreement (check.Attribute: what
		// it implicates and why); empty when the verdict is pass.
		Findings []findingJSON `json:"findings"`
		// Repro is repro's judgement of the replay (repro --json only).
		Repro *check.ReplayOutcome `json:"repro,omitempty"`
	}{f.Name, len(args), check.InputsJSON(f, args), ref, refErrs, runs, ExecVerdict(res.Verdict), execFindings(res), replay}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(obj)
}

// findingJSON is one attributed disagreement in exec's JSON.
type findingJSON struct {
	Class       string   `json:"class"`
	Adapter     string   `json:"adapter"`
	Runs        []string `json:"runs"`
	Implicates  string   `json:"implicates"`
	Invocations []int    `json:"invocations"`
}

// execFindings is check.Attribute(res) in exec's JSON form ([] when none).
func execFindings(res *check.Result) []findingJSON {
	out := []findingJSON{}
	for _, fd := range check.Attribute(res) {
		out = append(out, findingJSON{string(fd.Class), fd.Adapter, fd.Runs, fd.Implicates, append([]int{}, fd.Invocations...)})
	}
	return out
}

// runLabel names a run in table headers: the adapter, the format unless
// it is the interpreter's, "fragment" for a run in the fragment stage, and
// on a second line the function when it is a twin or the interpreter's.
func runLabel(r oracle.Judged) string {
	l := r.Adapter
	if r.Format != oracle.FormatIR {
		l += " " + string(r.Format)
	}
	if r.Stage == oracle.StageFragment {
		l += " " + string(r.Stage)
	}
	if strings.HasSuffix(r.Function, "_flat") || r.Adapter == "interp" {
		l += "\n" + r.Function
	}
	return l
}

// humanOutputs is one invocation's outputs as the table shows them,
// "name=value …" unless the only output is the return value.
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

// ExecOptions configures WriteExecTable.
type ExecOptions struct {
	// AllRows shows every invocation; by default, past 16 invocations only
	// the first 4 and the disagreeing ones get a row.
	AllRows bool
	// Color marks disagreeing cells red (ANSI; for terminals).
	Color bool
}

// WriteExecTable writes exec's table (README "exec") for the result res
// of running kernel f on args[invocation][param]: one row per invocation
// (arguments, the reference, each run's outputs; ≠ marks a disagreement,
// ~ an output the reference leaves indeterminate), then one line per run,
// flatten's refusal, the reference's unfinished invocations, every
// finding (check.Attribute) and the verdict (ExecVerdict).
func WriteExecTable(w io.Writer, f *ir.Func, args [][]ir.Value, res *check.Result, opts ExecOptions) {
	allRows := opts.AllRows
	t := table.NewWriter()
	t.SetOutputMirror(w)
	t.SetStyle(table.StyleLight)
	// With many runs, only those that disagree or failed get a column; the
	// agreeing ones are listed below the table.
	var shown []int
	for k, r := range res.Runs {
		if len(res.Runs) <= 4 || r.Failed != "" || len(r.Mismatches) > 0 {
			shown = append(shown, k)
		}
	}
	header := table.Row{"#", "arguments (" + paramNames(f) + ")", "reference"}
	for _, k := range shown {
		header = append(header, runLabel(res.Runs[k]))
	}
	if len(shown) < len(res.Runs) {
		header = append(header, fmt.Sprintf("%d other runs", len(res.Runs)-len(shown)))
	}
	t.AppendHeader(header)
	bad := make([]map[int]bool, len(res.Runs))
	ind := make([]map[int]bool, len(res.Runs))
	for k, r := range res.Runs {
		bad[k], ind[k] = map[int]bool{}, map[int]bool{}
		for _, i := range r.Mismatches {
			bad[k][i] = true
		}
		for _, i := range r.Indeterminate {
			ind[k][i] = true
		}
	}
	interesting := func(i int) bool {
		for k := range res.Runs {
			if bad[k][i] || ind[k][i] || res.Runs[k].Failed != "" {
				return true
			}
		}
		return false
	}
	hidden := 0
	color := opts.Color
	for i := range args {
		if !allRows && len(args) > 16 && i >= 4 && !interesting(i) {
			hidden++
			continue
		}
		argStr := make([]string, len(args[i]))
		for j, a := range args[i] {
			argStr[j] = oracle.Human(oracle.Expected{Value: a})
		}
		row := table.Row{i, strings.Join(argStr, ", "), humanOutputs(res.Reference[i], res.Names)}
		for _, k := range shown {
			r := res.Runs[k]
			switch {
			case r.Failed != "":
				row = append(row, string(r.Failed))
			case i >= len(r.Outputs):
				row = append(row, "-")
			case bad[k][i]:
				cell := "≠ " + humanOutputs(r.Outputs[i], res.Names)
				if color {
					cell = text.FgRed.Sprint(cell)
				}
				row = append(row, cell)
			case ind[k][i]:
				row = append(row, "~ "+humanOutputs(r.Outputs[i], res.Names))
			default:
				row = append(row, humanOutputs(r.Outputs[i], res.Names))
			}
		}
		if len(shown) < len(res.Runs) {
			row = append(row, "agree")
		}
		t.AppendRow(row)
	}
	t.Render()
	if hidden > 0 {
		fmt.Fprintf(w, "(%d agreeing invocations not shown; --all-rows shows them)\n", hidden)
	}
	fmt.Fprintf(w, "kernel %s, %d invocations", f.Name, len(args))
	if res.Twin != "" {
		fmt.Fprintf(w, ", twin %s", res.Twin)
	}
	fmt.Fprintln(w)
	for _, r := range res.Runs {
		label := strings.ReplaceAll(runLabel(r), "\n", " ")
		switch {
		case r.Failed != "":
			fmt.Fprintf(w, "  %s: %s: %s\n", label, r.Failed, firstLine(r.Message))
		case len(r.Mismatches) > 0:
			fmt.Fprintf(w, "  %s: %d of %d invocations disagree (%s)\n", label, len(r.Mismatches), len(args), intList(r.Mismatches, 10))
			for _, i := range oracle.Sorted(r.Diffs) {
				for _, d := range r.Diffs[i] {
					fmt.Fprintf(w, "      invocation %d %s: reference %s, got %s\n", i, d.Path, d.Want, d.Got)
				}
				break
			}
		default:
			fmt.Fprintf(w, "  %s: agrees", label)
			if n := len(r.Indeterminate); n > 0 {
				fmt.Fprintf(w, " (%d invocations indeterminate in the reference, not compared)", n)
			}
			fmt.Fprintln(w)
		}
	}
	if res.FlattenErr != nil {
		fmt.Fprintf(w, "  flatten refused: %v\n", firstLine(res.FlattenErr.Error()))
	}
	for _, i := range res.Unfinished() {
		fmt.Fprintf(w, "  reference (interp): invocation %d did not finish: %s\n", i, firstLine(res.ReferenceErr[i]))
	}
	if res.Verdict == oracle.OutOfDomain {
		fmt.Fprintf(w, "  out-of-domain: the made-up inputs drive %d invocations past the step limit (%s); not a stack's fault: try other inputs (--fill small, --inputs) or raise --max-steps\n",
			len(res.Unfinished()), firstLine(res.ReferenceErr[res.Unfinished()[0]]))
	}
	for _, fd := range check.Attribute(res) {
		fmt.Fprintf(w, "  %s (%s): %s\n", fd.Class, fd.Adapter, fd.Implicates)
	}
	fmt.Fprintf(w, "verdict: %s\n", ExecVerdict(res.Verdict))
}

// paramNames is "a, b, c".
func paramNames(f *ir.Func) string {
	ns := make([]string, len(f.Params))
	for i, p := range f.Params {
		ns[i] = p.Name
	}
	return strings.Join(ns, ", ")
}

// intList is xs as "1, 2, 3", cut after max with "…".
func intList(xs []int, max int) string {
	var parts []string
	for i, x := range xs {
		if i == max {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprint(x))
	}
	return strings.Join(parts, ", ")
}

// firstLine is s up to its first newline, marked " …" when cut.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
