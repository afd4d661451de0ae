package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

type execFlags struct {
	changed     map[string]bool // flags set on the command line
	kernel      string
	invocations int
	inputs      string
	seed        uint64
	adapters    []string
	mode        string
	asJSON      bool
	noGPU       bool
	flat        bool
	spirv       bool
	timeout     time.Duration
	saveCase    string
	allRows     bool
}

func newExecCmd() *cobra.Command {
	var fl execFlags
	cmd := &cobra.Command{
		Use:   "exec FILE.wgsl",
		Short: "Run one kernel in the reference interpreter and on GPU adapters, and compare per invocation",
		Long: `exec runs a kernel of a WGSL file (or of a saved case file) for N invocations
in the reference interpreter and on the selected WebGPU adapters, and compares
every invocation's outputs with the reference.

The kernel defaults to the only non-entry-point function no other function
calls. Arguments come from --inputs (a JSON object mapping each parameter to an
array with one value per invocation); without it, from NAME.inputs.json beside
NAME.wgsl when there is one (the inputs drivers uses; not with --seed or
--invocations, nor when --kernel names a function other than NAME); otherwise
deterministically from --seed, starting with edge values (0, ±1, INT_MIN,
INT_MAX, integer-valued floats). A case file replays its own inputs. --flat
also flattens the kernel and runs the twin <kernel>_flat in the interpreter and
on every adapter; --spirv also runs gpudiff's own SPIR-V.

Exit codes: 0 every run agrees; 1 some run disagrees; 2 usage, input or compile
error (including a flatten refusal with --flat).`,
		Example: `  gpudiff exec shaders/examples/shade.wgsl
  gpudiff exec shaders/examples/pcg_hash.wgsl --invocations 256 --seed 7 --json
  gpudiff exec shaders/examples/tonemap.wgsl --kernel tonemap --inputs shaders/examples/tonemap.inputs.json --adapter all --flat --spirv
  gpudiff exec shaders/examples/tonemap.wgsl --no-gpu --flat
  gpudiff exec shaders/regress/swizzle_value_before_call.wgsl
  gpudiff exec shaders/examples/divmod.wgsl --flat --save-case divmod.case.wgsl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl.changed = map[string]bool{}
			cmd.Flags().Visit(func(f *pflag.Flag) { fl.changed[f.Name] = true })
			return runExec(cmd.Context(), args[0], fl, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.kernel, "kernel", "", "kernel function to run (default: the only function no other function calls)")
	f.IntVar(&fl.invocations, "invocations", 0, "number of invocations (default: the inputs' length, else 64)")
	f.StringVar(&fl.inputs, "inputs", "", "JSON file mapping each kernel parameter to an array of per-invocation values (default: NAME.inputs.json beside NAME.wgsl, if any)")
	f.Uint64Var(&fl.seed, "seed", 1, "seed of the generated arguments when --inputs is not given (setting it also skips NAME.inputs.json)")
	f.StringArrayVar(&fl.adapters, "adapter", nil, "adapter to run on: a short name from 'gpudiff adapters', a prefix (vulkan), or all; repeatable (default: the first Vulkan adapter)")
	f.StringVar(&fl.mode, "mode", "portable", "emission mode: portable (WGSL's rules spelled out with guards) or raw (operators as written)")
	f.BoolVar(&fl.asJSON, "json", false, "print one JSON object instead of a table")
	f.BoolVar(&fl.noGPU, "no-gpu", false, "run only the interpreter paths")
	f.BoolVar(&fl.flat, "flat", false, "also flatten the kernel and run its branchless twin <kernel>_flat")
	f.DurationVar(&fl.timeout, "timeout", 30*time.Second, "per-dispatch time limit (a dispatch that exceeds it is a timeout)")
	f.BoolVar(&fl.allRows, "all-rows", false, "show every invocation in the table (by default, past 16 invocations only the first 4 and the disagreeing ones)")
	f.StringVar(&fl.saveCase, "save-case", "", "also write the run as a case file (module, inputs, reference, observed runs, verdict) for 'gpudiff repro' and shaders/regress")
	f.BoolVar(&fl.spirv, "spirv", false, "also run gpudiff's SPIR-V of each function on each adapter (format \"spirv\")")
	return cmd
}

func runExec(ctx context.Context, path string, fl execFlags, stdout, stderr io.Writer) error {
	mode, err := wgsl.ParseMode(fl.mode)
	if err != nil {
		return usagef("gpudiff exec: --mode: %v", err)
	}
	if err := checkFlags("exec", fl.changed, intAtLeast("invocations", int64(fl.invocations), 1), positiveDuration("timeout", fl.timeout)); err != nil {
		return err
	}
	m, src, err := loadModule(path)
	if err != nil {
		return err
	}
	saved, rec, err := loadCase(path, src)
	if err != nil {
		return err
	}
	kernel := fl.kernel
	if saved != nil && kernel == "" {
		kernel = saved.Kernel
	}
	f, err := pickKernel(m, kernel)
	if err != nil {
		return err
	}
	// seeded generates n arguments (0: the default count) once the limits
	// allow n invocations: nothing is allocated for an impossible count.
	seeded := func(n int) ([][]ir.Value, error) {
		if n == 0 {
			n = defaultInvocations
		}
		if err := checkKernelLimits(m, f, n); err != nil {
			return nil, err
		}
		return seededInputs(fl.seed, f, n), nil
	}
	inputs := fl.inputs
	if inputs == "" && saved == nil && !cmdFlagSet(fl, "seed") && !cmdFlagSet(fl, "invocations") {
		// NAME.inputs.json beside NAME.wgsl, as drivers reads it.
		inputs = besideInputs(path, fl.kernel)
	}
	var args [][]ir.Value
	if saved != nil && fl.inputs == "" && f.Name == saved.Kernel {
		// A case file carries its own inputs (and its recorded mode).
		args = saved.Args
		if !cmdFlagSet(fl, "mode") && rec.Mode != "" {
			if mode, err = wgsl.ParseMode(rec.Mode); err != nil {
				return usagef("%s: case record: %v", path, err)
			}
		}
	} else if inputs != "" {
		if args, err = readInputs(inputs, f); err != nil {
			return err
		}
		if len(f.Params) == 0 {
			// No parameter gives the count: --invocations (or 64) does.
			if args, err = seeded(fl.invocations); err != nil {
				return err
			}
		}
		if fl.invocations != 0 && fl.invocations != len(args) {
			return usagef("gpudiff exec: --invocations %d disagrees with the %d values per parameter in %s", fl.invocations, len(args), inputs)
		}
	} else if args, err = seeded(fl.invocations); err != nil {
		return err
	}
	if err := checkKernelLimits(m, f, len(args)); err != nil {
		return err
	}
	var devices []check.Device
	if !fl.noGPU {
		devs, closeAll, err := openDevices(fl.adapters, fl.timeout, stderr)
		if err != nil {
			return usagef("gpudiff exec: --adapter: %v", err)
		}
		defer closeAll()
		devices = devs
	}
	c := newCase(m, f, args)
	opts := check.Options{Devices: devices, Flat: fl.flat, SPIRV: fl.spirv, Mode: mode, Interp: interpOptions(), Flatten: flattenOptions()}
	res, err := check.Execute(ctx, c, opts)
	if err != nil {
		return inputErr(err)
	}
	if fl.saveCase != "" {
		rec := check.NewRecord(c, res, opts, version())
		if err := check.WriteCase(fl.saveCase, c.Module, rec); err != nil {
			return usagef("gpudiff exec: --save-case: %v", err)
		}
	}
	if fl.asJSON {
		if err := writeExecJSON(stdout, f, args, res, nil); err != nil {
			return err
		}
	} else {
		writeExecTable(stdout, f, args, res, fl.allRows)
	}
	if res.FlattenErr != nil {
		return inputErr(res.FlattenErr)
	}
	switch res.Verdict {
	case oracle.Pass:
		return nil
	case oracle.Mismatch:
		return errFound
	}
	return &exitError{code: exitUsage}
}

func cmdFlagSet(fl execFlags, name string) bool { return fl.changed[name] }

// execVerdict maps the oracle's verdict onto exec's three (README).
func execVerdict(v oracle.Verdict) string {
	switch v {
	case oracle.Pass:
		return "pass"
	case oracle.Mismatch:
		return "mismatch"
	}
	return "error"
}

type runJSON struct {
	Adapter       string            `json:"adapter"`
	Function      string            `json:"function"`
	Format        string            `json:"format"`
	Mode          string            `json:"mode"`
	Outputs       []json.RawMessage `json:"outputs"`
	Mismatches    []int             `json:"mismatches"`
	Indeterminate []int             `json:"indeterminate"`
	Error         string            `json:"error"`
}

// writeExecJSON prints exec's JSON object (README "exec --json"): one
// document on w. repro, when non-nil, is repro's outcome, carried in the
// same document so that `repro --json` prints nothing else.
func writeExecJSON(w io.Writer, f *ir.Func, args [][]ir.Value, res *check.Result, repro *reproJSON) error {
	ref := make([]json.RawMessage, len(res.Reference))
	for i, r := range res.Reference {
		ref[i] = oracle.InvocationJSON(r, res.Names)
	}
	runs := make([]runJSON, 0, len(res.Runs))
	for _, r := range res.Runs {
		rj := runJSON{Adapter: r.Adapter, Function: r.Function, Format: string(r.Format), Mode: r.Mode,
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
		// could not finish (step limit); their reference outputs are
		// indeterminate and the verdict is "error".
		ReferenceErrors []refErr  `json:"reference_errors,omitempty"`
		Runs            []runJSON `json:"runs"`
		Verdict         string    `json:"verdict"`
		// Findings attribute every disagreement (check.Attribute: what
		// it implicates and why); empty when the verdict is pass.
		Findings []findingJSON `json:"findings"`
		// Repro is repro's judgement of the replay (repro --json only).
		Repro *reproJSON `json:"repro,omitempty"`
	}{f.Name, len(args), check.InputsJSON(f, args), ref, refErrs, runs, execVerdict(res.Verdict), execFindings(res), repro}
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

func execFindings(res *check.Result) []findingJSON {
	out := []findingJSON{}
	for _, fd := range check.Attribute(res) {
		out = append(out, findingJSON{string(fd.Class), fd.Adapter, fd.Runs, fd.Implicates, append([]int{}, fd.Invocations...)})
	}
	return out
}

// runLabel names a run in table headers.
func runLabel(r oracle.Judged) string {
	l := r.Adapter
	if r.Format != oracle.FormatIR {
		l += " " + string(r.Format)
	}
	if strings.HasSuffix(r.Function, "_flat") || r.Adapter == "interp" {
		l += "\n" + r.Function
	}
	return l
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

func writeExecTable(w io.Writer, f *ir.Func, args [][]ir.Value, res *check.Result, allRows bool) {
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
	color := colorOut(w)
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
	for _, fd := range check.Attribute(res) {
		fmt.Fprintf(w, "  %s (%s): %s\n", fd.Class, fd.Adapter, fd.Implicates)
	}
	fmt.Fprintf(w, "verdict: %s\n", execVerdict(res.Verdict))
}

func paramNames(f *ir.Func) string {
	ns := make([]string, len(f.Params))
	for i, p := range f.Params {
		ns[i] = p.Name
	}
	return strings.Join(ns, ", ")
}

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

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
