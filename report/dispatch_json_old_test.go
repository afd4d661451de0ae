package report

// A copy of exec's code paths for an entry point as they were before
// issue 26 streamed them (report/dispatch.go's WriteDispatchJSON and
// WriteDispatchTable, report/exec.go's WriteExecJSON, report/case.go's WriteEntriesJSON,
// oracle.MarshalExpected and ir.MarshalValue at commit 82500c9), kept as
// the oracle of TestDispatchJSONIsByteIdentical and
// TestDispatchTableIsUnchanged, TestExecJSONIsByteIdentical: the streamed writers must print the same
// bytes. The values rendered come from the same check.Result (a
// Buffer output decoded with Val()).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

func oldMarshalValue(v ir.Value) []byte {
	var b bytes.Buffer
	oldWriteJSON(&b, v)
	return b.Bytes()
}

func oldWriteJSON(b *bytes.Buffer, v ir.Value) {
	switch v.Type.Kind {
	case ir.KindBool:
		if v.Bool() {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case ir.KindI32:
		b.WriteString(strconv.FormatInt(int64(v.I32()), 10))
	case ir.KindU32:
		b.WriteString(strconv.FormatUint(uint64(v.U32()), 10))
	case ir.KindF32:
		f := v.F32()
		switch {
		case math.IsNaN(float64(f)):
			b.WriteString(`"NaN"`)
		case math.IsInf(float64(f), 1):
			b.WriteString(`"+Inf"`)
		case math.IsInf(float64(f), -1):
			b.WriteString(`"-Inf"`)
		default:
			b.WriteString(ir.FormatF32JSON(f))
		}
	case ir.KindVec, ir.KindArray, ir.KindRuntimeArray, ir.KindMat:
		b.WriteByte('[')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			oldWriteJSON(b, e)
		}
		b.WriteByte(']')
	case ir.KindStruct:
		b.WriteByte('{')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			name, _ := json.Marshal(v.Type.Struct.Fields[i].Name)
			b.Write(name)
			b.WriteString(": ")
			oldWriteJSON(b, e)
		}
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

func oldMarshalExpected(e oracle.Expected) []byte {
	var b bytes.Buffer
	i := 0
	oldWriteLeafJSON(&b, e.Val(), func(v ir.Value) string {
		defer func() { i++ }()
		if !(e.Indeterminate != nil && i < len(e.Indeterminate) && e.Indeterminate[i]) {
			return ""
		}
		set := e.Set(i)
		if set.IsAny() {
			return `"indeterminate"`
		}
		var parts []string
		if len(set.Values) > 0 {
			var vs []string
			for _, x := range set.Values {
				vs = append(vs, string(oldMarshalValue(ir.Value{Type: v.Type, Bits: x})))
			}
			parts = append(parts, `"oneOf": [`+strings.Join(vs, ", ")+`]`)
		}
		if set.HasRange {
			parts = append(parts, `"range": [`+string(oldMarshalValue(ir.Value{Type: v.Type, Bits: set.Lo}))+`, `+string(oldMarshalValue(ir.Value{Type: v.Type, Bits: set.Hi}))+`]`)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	})
	return b.Bytes()
}

func oldWriteLeafJSON(b *bytes.Buffer, v ir.Value, indet func(ir.Value) string) {
	switch v.Type.Kind {
	case ir.KindVec, ir.KindArray, ir.KindRuntimeArray:
		b.WriteByte('[')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			oldWriteLeafJSON(b, e, indet)
		}
		b.WriteByte(']')
	case ir.KindStruct:
		b.WriteByte('{')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			name, _ := json.Marshal(v.Type.Struct.Fields[i].Name)
			b.Write(name)
			b.WriteString(": ")
			oldWriteLeafJSON(b, e, indet)
		}
		b.WriteByte('}')
	default:
		if r := indet(v); r != "" {
			b.WriteString(r)
			return
		}
		b.Write(oldMarshalValue(v))
	}
}

type oldDispatchRunJSON struct {
	Adapter    string                     `json:"adapter"`
	Function   string                     `json:"function"`
	Format     string                     `json:"format"`
	Mode       string                     `json:"mode"`
	Outputs    map[string]json.RawMessage `json:"outputs"`
	Mismatches []oldDispatchDiffJSON      `json:"mismatches"`
	Verdict    string                     `json:"verdict"`
	Error      string                     `json:"error"`
}

type oldDispatchDiffJSON struct {
	Leaf      string `json:"leaf"`
	Reference string `json:"reference"`
	Got       string `json:"got"`
}

// oldInputValue is binding i's initial value as a tree, whichever form
// check.Result carries it in.
func oldInputValue(res *check.Result, i int) ir.Value {
	return oracle.Expected{Buffer: res.Inputs[i]}.Val()
}

func oldWriteDispatchJSON(w io.Writer, c *testcase.ComputeCase, res *check.Result) error {
	inputs := map[string]json.RawMessage{}
	for i, v := range res.Bindings {
		inputs[v.Name] = oldMarshalValue(oldInputValue(res, i))
	}
	if len(c.Module.Textures) > 0 {
		for k, v := range testcase.TextureInputs(c.Case()) {
			inputs[k] = v
		}
	}
	ref := map[string]json.RawMessage{}
	for i, name := range res.Names {
		if i < len(res.Reference[0]) {
			ref[name] = oldMarshalExpected(res.Reference[0][i])
		}
	}
	races := []string{}
	for _, r := range res.Races {
		races = append(races, r.String())
	}
	runs := []oldDispatchRunJSON{}
	for _, r := range res.Runs {
		rj := oldDispatchRunJSON{Adapter: r.Adapter, Function: r.Function, Format: string(r.Format), Mode: r.Mode,
			Outputs: map[string]json.RawMessage{}, Mismatches: []oldDispatchDiffJSON{}, Verdict: string(r.Verdict), Error: r.Message}
		if len(r.Outputs) == 1 {
			for i, o := range r.Outputs[0] {
				rj.Outputs[res.Names[i]] = oldMarshalExpected(o)
			}
		}
		for _, d := range r.Diffs[0] {
			rj.Mismatches = append(rj.Mismatches, oldDispatchDiffJSON{d.Path, d.Want, d.Got})
		}
		runs = append(runs, rj)
	}
	type skipped struct {
		Adapter  string `json:"adapter"`
		Function string `json:"function"`
		Format   string `json:"format"`
		Reason   string `json:"reason"`
	}
	skips := []skipped{}
	for _, r := range res.Skipped {
		skips = append(skips, skipped{r.Adapter, r.Function, string(r.Format), r.Message})
	}
	obj := struct {
		Entry       string                     `json:"entry"`
		Twin        string                     `json:"twin,omitempty"`
		Workgroups  [3]uint32                  `json:"workgroups"`
		Bindings    map[string]json.RawMessage `json:"bindings"`
		Reference   map[string]json.RawMessage `json:"reference"`
		Races       []string                   `json:"races"`
		Runs        []oldDispatchRunJSON       `json:"runs"`
		Skipped     []skipped                  `json:"skipped"`
		OutOfDomain string                     `json:"out_of_domain,omitempty"`
		Verdict     string                     `json:"verdict"`
	}{c.Entry, res.Twin, c.Workgroups, inputs, ref, races, runs, skips, res.Domain, ExecVerdict(res.Verdict)}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(obj)
}

// oldWriteEntriesJSON is WriteEntriesJSON as it was, over entry points
// only (oldWriteDispatchJSON).
func oldWriteEntriesJSON(w io.Writer, runs []EntryRun) error {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, r := range runs {
		if i > 0 {
			b.WriteString(",\n")
		}
		var one bytes.Buffer
		if r.Outcome == nil {
			js, _ := json.MarshalIndent(struct {
				Entry   string `json:"entry"`
				Verdict string `json:"verdict"`
				Error   string `json:"error"`
				Exit    int    `json:"exit"`
			}{r.Name, "refused", r.Err, r.Exit}, "", "  ")
			one.Write(js)
		} else {
			if err := oldWriteDispatchJSON(&one, r.Outcome.Case.Entry(), r.Outcome); err != nil {
				return err
			}
			obj := bytes.TrimRight(one.Bytes(), "\n")
			obj = bytes.TrimRight(bytes.TrimSuffix(obj, []byte("}")), " \n")
			obj = append(obj, fmt.Sprintf(",\n  \"exit\": %d\n}", r.Exit)...)
			one.Reset()
			one.Write(obj)
		}
		b.Write(one.Bytes())
	}
	b.WriteString("\n]\n")
	_, err := w.Write(b.Bytes())
	return err
}

// oldLeafRow is one leaf of a read_write binding in the table.
type oldLeafRow struct {
	path string
	ref  string
	got  []string // per run
	bad  []bool
	ind  bool
}

// oldWriteDispatchTable is WriteDispatchTable as it was; it writes one table per read_write binding: a row per
// leaf (its path, the reference, one column per run; "≠" marks a leaf that
// differs, "~" one the reference leaves indeterminate), then a line per
// run, the races and the skipped runs.
func oldWriteDispatchTable(w io.Writer, c *testcase.ComputeCase, res *check.Result, opts ExecOptions) {
	color, allRows := opts.Color, opts.AllRows
	if res.Domain != "" {
		fmt.Fprintf(w, "entry point %s: out-of-domain: the made-up bindings drive it past the step limit: %s\n", c.Entry, firstLine(res.Domain))
		fmt.Fprintln(w, "  nothing compared: not a stack's fault; try other inputs (--fill small, --inputs) or raise --max-steps")
		fmt.Fprintf(w, "verdict: %s\n", ExecVerdict(res.Verdict))
		return
	}
	for b, name := range res.Names {
		refLeaves := oldLeafStrings(res.Reference[0][b], name)
		rows := make([]oldLeafRow, len(refLeaves))
		for i, l := range refLeaves {
			rows[i] = oldLeafRow{path: l.path, ref: l.s, ind: l.ind, got: make([]string, len(res.Runs)), bad: make([]bool, len(res.Runs))}
		}
		for k, r := range res.Runs {
			var got []oldLeafText
			if r.Failed == "" && len(r.Outputs) == 1 {
				got = oldLeafStrings(r.Outputs[0][b], name)
			}
			diffs := map[string]bool{}
			for _, d := range r.Diffs[0] {
				diffs[d.Path] = true
			}
			for i := range rows {
				switch {
				case r.Failed != "":
					rows[i].got[k] = string(r.Failed)
				case i < len(got):
					rows[i].got[k] = got[i].s
				default:
					rows[i].got[k] = "-"
				}
				rows[i].bad[k] = diffs[rows[i].path]
			}
		}
		t := table.NewWriter()
		t.SetOutputMirror(w)
		t.SetStyle(table.StyleLight)
		header := table.Row{name, "reference"}
		for _, r := range res.Runs {
			header = append(header, dispatchRunLabel(c.Case(), r.Run))
		}
		t.AppendHeader(header)
		hidden, indShown := 0, 0
		for i, row := range rows {
			interesting := false
			for _, bad := range row.bad {
				interesting = interesting || bad
			}
			// Indeterminate leaves are shown too, up to 64 of them (a
			// racing store at an unknown index can make a whole large
			// binding indeterminate).
			if row.ind && !interesting && indShown < 64 {
				interesting = true
				indShown++
			}
			if !allRows && len(rows) > 16 && i >= 8 && !interesting {
				hidden++
				continue
			}
			ref := row.ref
			if row.ind && !strings.HasPrefix(ref, "∈ ") {
				ref = "~ " + ref
			}
			tr := table.Row{row.path, ref}
			for k, g := range row.got {
				if row.bad[k] {
					g = "≠ " + g
					if color {
						g = text.FgRed.Sprint(g)
					}
				}
				tr = append(tr, g)
			}
			t.AppendRow(tr)
		}
		t.Render()
		if hidden > 0 {
			fmt.Fprintf(w, "(%d agreeing leaves of %s not shown; --all-rows shows them)\n", hidden, name)
		}
	}
	if len(res.Names) == 0 {
		fmt.Fprintln(w, "the entry point has no read_write storage binding: nothing to compare")
	}
	fmt.Fprintf(w, "entry point %s, %d×%d×%d workgroups of %d×%d×%d\n", c.Entry, c.Workgroups[0], c.Workgroups[1], c.Workgroups[2],
		c.Module.Func(c.Entry).WorkgroupSize[0], c.Module.Func(c.Entry).WorkgroupSize[1], c.Module.Func(c.Entry).WorkgroupSize[2])
	for _, r := range res.Runs {
		label := dispatchRunLabel(c.Case(), r.Run)
		switch {
		case r.Failed != "":
			fmt.Fprintf(w, "  %s: %s: %s\n", label, r.Failed, firstLine(r.Message))
		case len(r.Mismatches) > 0:
			fmt.Fprintf(w, "  %s: %d leaves disagree\n", label, len(r.Diffs[0]))
		default:
			fmt.Fprintf(w, "  %s: agrees", label)
			if len(r.Indeterminate) > 0 {
				fmt.Fprintf(w, " (leaves indeterminate in the reference: ~ any value, not compared; ∈ a set WGSL allows, checked)")
			}
			fmt.Fprintln(w)
		}
	}
	for _, r := range res.Races {
		fmt.Fprintf(w, "  race: %s\n", r)
	}
	if len(res.Races) > 0 {
		fmt.Fprintf(w, "  the shader has a data race (WGSL #memory-model): a defect of the shader, not of any stack; its racing loads and the locations they reach are compared against the values WGSL allows\n")
	}
	for _, r := range res.Skipped {
		fmt.Fprintf(w, "  %s: skipped: %s\n", dispatchRunLabel(c.Case(), r), firstLine(r.Message))
	}
	fmt.Fprintf(w, "verdict: %s\n", ExecVerdict(res.Verdict))
}

type oldLeafText struct {
	path, s string
	ind     bool
}

// oldLeafStrings lists e's leaves with the oracle's paths, rendered for
// the table, and whether the reference leaves them indeterminate.
func oldLeafStrings(e oracle.Expected, name string) []oldLeafText {
	var out []oldLeafText
	var rec func(v ir.Value, path string)
	rec = func(v ir.Value, path string) {
		switch v.Type.Kind {
		case ir.KindVec, ir.KindArray, ir.KindRuntimeArray:
			for i, c := range v.Elems {
				rec(c, fmt.Sprintf("%s[%d]", path, i))
			}
		case ir.KindStruct:
			for i, c := range v.Elems {
				rec(c, path+"."+v.Type.Struct.Fields[i].Name)
			}
		default:
			i := len(out)
			ind := e.Indeterminate != nil && i < len(e.Indeterminate) && e.Indeterminate[i]
			s := oracle.Human(oracle.Expected{Value: v})
			if set := e.Set(i); ind && !set.IsAny() {
				// The values WGSL allows there: the runs are checked
				// against them.
				s = "∈ " + set.Format(v.Type)
			}
			out = append(out, oldLeafText{path: path, s: s, ind: ind})
		}
	}
	rec(e.Val(), name)
	return out
}

type oldRunJSON struct {
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

// oldWriteExecJSON is WriteExecJSON as it was: it writes exec's JSON object (README "exec --json") for the
// result res of running kernel f on args[invocation][param]: one indented
// document and a newline on w. replay, when non-nil, is repro's judgement
// of the run (its "repro" member), carried in the same document so that
// `repro --json` prints nothing else. Errors are w's.
func oldWriteExecJSON(w io.Writer, f *ir.Func, args [][]ir.Value, res *check.Result, replay *check.ReplayOutcome) error {
	ref := make([]json.RawMessage, len(res.Reference))
	for i, r := range res.Reference {
		ref[i] = oldInvocationJSON(r, res.Names)
	}
	runs := make([]oldRunJSON, 0, len(res.Runs))
	for _, r := range res.Runs {
		rj := oldRunJSON{Adapter: r.Adapter, Function: r.Function, Format: string(r.Format), Stage: string(r.Stage), Mode: r.Mode,
			Outputs: []json.RawMessage{}, Mismatches: append([]int{}, r.Mismatches...),
			Indeterminate: append([]int{}, r.Indeterminate...), Error: r.Message}
		for _, o := range r.Outputs {
			rj.Outputs = append(rj.Outputs, oldInvocationJSON(o, res.Names))
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
		ReferenceErrors []refErr     `json:"reference_errors,omitempty"`
		Runs            []oldRunJSON `json:"runs"`
		Verdict         string       `json:"verdict"`
		// Findings attribute every disagreement (check.Attribute: what
		// it implicates and why); empty when the verdict is pass.
		Findings []oldFindingJSON `json:"findings"`
		// Repro is repro's judgement of the replay (repro --json only).
		Repro *check.ReplayOutcome `json:"repro,omitempty"`
	}{f.Name, len(args), testcase.InputsJSON(f, args), ref, refErrs, runs, ExecVerdict(res.Verdict), oldExecFindings(res), replay}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(obj)
}

func oldInvocationJSON(outs []oracle.Expected, names []string) json.RawMessage {
	if len(names) == 1 && names[0] == "ret" && len(outs) == 1 {
		return oldMarshalExpected(outs[0])
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, o := range outs {
		if i > 0 {
			b.WriteString(", ")
		}
		n, _ := json.Marshal(names[i])
		b.Write(n)
		b.WriteString(": ")
		b.Write(oldMarshalExpected(o))
	}
	b.WriteByte('}')
	return b.Bytes()
}

// oldFindingJSON is one attributed disagreement in exec's JSON.
type oldFindingJSON struct {
	Class       string   `json:"class"`
	Adapter     string   `json:"adapter"`
	Runs        []string `json:"runs"`
	Implicates  string   `json:"implicates"`
	Invocations []int    `json:"invocations"`
}

// oldExecFindings is check.Attribute(res) in exec's JSON form ([] when none).
func oldExecFindings(res *check.Result) []oldFindingJSON {
	out := []oldFindingJSON{}
	for _, fd := range check.Attribute(res) {
		out = append(out, oldFindingJSON{string(fd.Class), fd.Adapter, fd.Runs, fd.Implicates, append([]int{}, fd.Invocations...)})
	}
	return out
}
