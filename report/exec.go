package report

import (
	"bufio"
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
// "race", "out-of-domain" or "reconvergence" (a result that depends on
// which invocations ran a subgroup operation together in divergent
// control flow, which WGSL leaves to the implementation), or "error" for
// every other verdict.
func ExecVerdict(v oracle.Verdict) string {
	switch v {
	case oracle.Pass:
		return "pass"
	case oracle.Mismatch:
		return "mismatch"
	case oracle.Race, oracle.OutOfDomain, oracle.Reconvergence:
		return string(v) // the shader's own defect or domain (exit 4)
	case oracle.Crash, oracle.Timeout:
		return string(v) // a stack died on the case: a finding (exit 1)
	case oracle.CompileError, oracle.Unsupported:
		// a stack rejected the module: a finding where it broke its
		// promise to take it (exit 1), else exit 2; unsupported: every
		// adapter declared it cannot take it, nothing was tested (exit 2)
		return string(v)
	}
	return "error"
}

// WriteExecJSON writes exec's JSON object (README "exec --json") for the
// result res of running kernel f on args[invocation][param]: one indented
// document and a newline on w. replay, when non-nil, is repro's judgement
// of the run (its "repro" member), carried in the same document so that
// `repro --json` prints nothing else. Its members, in order: kernel,
// invocations, inputs {param: [value per invocation]}, reference [per
// invocation: oracle.InvocationJSON's value], reference_errors
// [{invocation, error}] (when some invocation did not finish), runs
// [{adapter, function, format, stage (GPU runs), mode, outputs [per
// invocation], mismatches [invocation], indeterminate [invocation],
// error}], verdict, findings [{class, adapter, runs, implicates,
// invocations}], repro. It is written onto w as it goes (a bufio.Writer),
// laid out as encoding/json's Encoder with SetIndent("", "  ") prints
// it. Errors are w's.
func WriteExecJSON(w io.Writer, f *ir.Func, args [][]ir.Value, res *check.Result, replay *check.ReplayOutcome) error {
	return writeExecJSON(w, f, args, res, replay, nil)
}

// writeExecJSON is WriteExecJSON with more keys after "kernel" (head:
// a draw's vertex entry point and target; nil none).
func writeExecJSON(w io.Writer, f *ir.Func, args [][]ir.Value, res *check.Result, replay *check.ReplayOutcome, head func(j *ir.JSONWriter)) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	j := ir.NewJSONWriter(bw, true)
	j.Open('{')
	j.Key("kernel")
	j.String(f.Name)
	if head != nil {
		head(j)
	}
	j.Key("invocations")
	j.Int(int64(len(args)))
	j.Key("inputs") // testcase.InputsJSON's object
	j.Open('{')
	for k, p := range f.Params {
		j.Key(p.Name)
		j.Open('[')
		for i := range args {
			j.Elem()
			j.Value(args[i][k], nil)
		}
		j.Close(']')
	}
	j.Close('}')
	j.Key("reference")
	j.Open('[')
	for _, r := range res.Reference {
		j.Elem()
		oracle.WriteInvocationJSON(j, r, res.Names)
	}
	j.Close(']')
	// ReferenceErrors are the invocations the reference interpreter could
	// not finish (step limit, positioned at the loop); their reference
	// outputs are indeterminate and the verdict is "error", or
	// "out-of-domain" when the inputs were made up (--fill).
	if un := res.Unfinished(); len(un) > 0 {
		j.Key("reference_errors")
		j.Open('[')
		for _, i := range un {
			j.Elem()
			j.Open('{')
			j.Key("invocation")
			j.Int(int64(i))
			j.Key("error")
			j.String(res.ReferenceErr[i])
			j.Close('}')
		}
		j.Close(']')
	}
	j.Key("runs")
	j.Open('[')
	for _, r := range res.Runs {
		j.Elem()
		j.Open('{')
		writeRunID(j, r.Run)
		if r.Stage != "" { // GPU runs: "compute" or "fragment"
			j.Key("stage")
			j.String(string(r.Stage))
		}
		j.Key("mode")
		j.String(r.Mode)
		j.Key("outputs")
		j.Open('[')
		for _, o := range r.Outputs {
			j.Elem()
			oracle.WriteInvocationJSON(j, o, res.Names)
		}
		j.Close(']')
		j.Key("mismatches")
		writeInts(j, r.Mismatches)
		j.Key("indeterminate")
		writeInts(j, r.Indeterminate)
		if len(r.Reconverged) > 0 {
			// Invocations whose only differences depend on which
			// invocations ran a subgroup operation together (verdict
			// "reconvergence").
			j.Key("reconverged")
			writeInts(j, r.Reconverged)
		}
		if r.Subgroups != "" {
			// The subgroup partition the run observed (a key of its
			// probe): the run was judged against its reference.
			j.Key("subgroups")
			j.String(r.Subgroups)
		}
		j.Key("error")
		j.String(r.Message)
		j.Close('}')
	}
	j.Close(']')
	j.Key("verdict")
	j.String(ExecVerdict(res.Verdict))
	// Findings attribute every disagreement (check.Attribute: what it
	// implicates and why); empty when the verdict is pass.
	j.Key("findings")
	j.Open('[')
	for _, fd := range check.Attribute(res) {
		j.Elem()
		j.Open('{')
		j.Key("class")
		j.String(string(fd.Class))
		j.Key("adapter")
		j.String(fd.Adapter)
		j.Key("runs")
		if fd.Runs == nil {
			bw.WriteString("null")
		} else {
			j.Open('[')
			for _, r := range fd.Runs {
				j.Elem()
				j.String(r)
			}
			j.Close(']')
		}
		j.Key("implicates")
		j.String(fd.Implicates)
		j.Key("invocations")
		writeInts(j, fd.Invocations)
		j.Close('}')
	}
	j.Close(']')
	if replay != nil { // repro's judgement of the replay (repro --json only)
		j.Key("repro")
		js, err := json.Marshal(replay)
		if err != nil {
			return err
		}
		if err := j.Raw(js); err != nil {
			return err
		}
	}
	j.Close('}')
	bw.WriteByte('\n')
	return bw.Flush()
}

// writeInts writes xs as a JSON array ([] when empty).
func writeInts(j *ir.JSONWriter, xs []int) {
	j.Open('[')
	for _, x := range xs {
		j.Elem()
		j.Int(int64(x))
	}
	j.Close(']')
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
		row := table.Row{i, strings.Join(argStr, ", "), oracle.HumanOutputs(res.Reference[i], res.Names)}
		for _, k := range shown {
			r := res.Runs[k]
			switch {
			case r.Failed != "":
				row = append(row, string(r.Failed))
			case i >= len(r.Outputs):
				row = append(row, "-")
			case bad[k][i]:
				cell := "≠ " + oracle.HumanOutputs(r.Outputs[i], res.Names)
				if color {
					cell = text.FgRed.Sprint(cell)
				}
				row = append(row, cell)
			case ind[k][i]:
				row = append(row, "~ "+oracle.HumanOutputs(r.Outputs[i], res.Names))
			default:
				row = append(row, oracle.HumanOutputs(r.Outputs[i], res.Names))
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
