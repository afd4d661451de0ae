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

// exec's output for a compute entry point as written (check.ExecuteEntry):
// a table per read_write binding, or one JSON document.

type dispatchRunJSON struct {
	Adapter string `json:"adapter"`
	// Function is the entry point run: the original, or its flattened
	// twin <entry>_flat (exec --flat).
	Function string                     `json:"function"`
	Format   string                     `json:"format"`
	Mode     string                     `json:"mode"`
	Outputs  map[string]json.RawMessage `json:"outputs"`
	// Mismatches are the differing leaves ("out[3].pos[1]"); Verdict the
	// run's.
	Mismatches []dispatchDiffJSON `json:"mismatches"`
	Verdict    string             `json:"verdict"`
	Error      string             `json:"error"`
}

type dispatchDiffJSON struct {
	Leaf      string `json:"leaf"`
	Reference string `json:"reference"`
	Got       string `json:"got"`
}

// WriteDispatchJSON writes exec's JSON document for an entry point: the
// entry, the dispatch size, every binding's initial value, the reference
// (read_write bindings, indeterminate leaves as "indeterminate"), the
// races, every judged run, the skipped ones and the verdict.
func WriteDispatchJSON(w io.Writer, c *check.EntryCase, res *check.EntryResult) error {
	inputs := map[string]json.RawMessage{}
	for i, v := range res.Bindings {
		inputs[v.Name] = oracle.MarshalExpected(oracle.Expected{Buffer: res.Inputs[i]})
	}
	if len(c.Module.Textures) > 0 {
		for k, v := range check.TextureInputs(c) {
			inputs[k] = v
		}
	}
	ref := map[string]json.RawMessage{}
	for i, name := range res.Names {
		if i < len(res.Reference) { // none when out of domain
			ref[name] = oracle.MarshalExpected(res.Reference[i])
		}
	}
	races := []string{}
	for _, r := range res.Races {
		races = append(races, r.String())
	}
	runs := []dispatchRunJSON{}
	for _, r := range res.Runs {
		rj := dispatchRunJSON{Adapter: r.Adapter, Function: r.Function, Format: string(r.Format), Mode: r.Mode,
			Outputs: map[string]json.RawMessage{}, Mismatches: []dispatchDiffJSON{}, Verdict: string(r.Verdict), Error: r.Message}
		if len(r.Outputs) == 1 {
			for i, o := range r.Outputs[0] {
				rj.Outputs[res.Names[i]] = oracle.MarshalExpected(o)
			}
		}
		for _, d := range r.Diffs[0] {
			rj.Mismatches = append(rj.Mismatches, dispatchDiffJSON{d.Path, d.Want, d.Got})
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
		Entry string `json:"entry"`
		// Twin is the flattened twin's name with exec --flat.
		Twin       string                     `json:"twin,omitempty"`
		Workgroups [3]uint32                  `json:"workgroups"`
		Bindings   map[string]json.RawMessage `json:"bindings"`
		Reference  map[string]json.RawMessage `json:"reference"`
		Races      []string                   `json:"races"`
		Runs       []dispatchRunJSON          `json:"runs"`
		Skipped    []skipped                  `json:"skipped"`
		// OutOfDomain is why the made-up inputs are outside what the
		// shader handles (verdict "out-of-domain"): the reference's
		// step-limit error at the loop.
		OutOfDomain string `json:"out_of_domain,omitempty"`
		Verdict     string `json:"verdict"`
	}{c.Entry, res.Twin, c.Workgroups, inputs, ref, races, runs, skips, res.Domain, ExecVerdict(res.Verdict)}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(obj)
}

// leafRow is one leaf of a read_write binding in the table.
type leafRow struct {
	path string
	ref  string
	got  []string // per run
	bad  []bool
	ind  bool
}

// WriteDispatchTable writes one table per read_write binding: a row per
// leaf (its path, the reference, one column per run; "≠" marks a leaf that
// differs, "~" one the reference leaves indeterminate), then a line per
// run, the races and the skipped runs.
func WriteDispatchTable(w io.Writer, c *check.EntryCase, res *check.EntryResult, opts ExecOptions) {
	color, allRows := opts.Color, opts.AllRows
	if res.Domain != "" {
		fmt.Fprintf(w, "entry point %s: out-of-domain: the made-up bindings drive it past the step limit: %s\n", c.Entry, firstLine(res.Domain))
		fmt.Fprintln(w, "  nothing compared: not a stack's fault; try other inputs (--fill small, --inputs) or raise --max-steps")
		fmt.Fprintf(w, "verdict: %s\n", ExecVerdict(res.Verdict))
		return
	}
	for b, name := range res.Names {
		refLeaves := leafStrings(res.Reference[b], name)
		rows := make([]leafRow, len(refLeaves))
		for i, l := range refLeaves {
			rows[i] = leafRow{path: l.path, ref: l.s, ind: l.ind, got: make([]string, len(res.Runs)), bad: make([]bool, len(res.Runs))}
		}
		for k, r := range res.Runs {
			var got []leafText
			if r.Failed == "" && len(r.Outputs) == 1 {
				got = leafStrings(r.Outputs[0][b], name)
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
			header = append(header, dispatchRunLabel(c, r.Run))
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
		label := dispatchRunLabel(c, r.Run)
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
		fmt.Fprintf(w, "  %s: skipped: %s\n", dispatchRunLabel(c, r), firstLine(r.Message))
	}
	fmt.Fprintf(w, "verdict: %s\n", ExecVerdict(res.Verdict))
}

// dispatchRunLabel names a run: its adapter and format, then the
// function when it is the twin.
func dispatchRunLabel(c *check.EntryCase, r oracle.Run) string {
	label := r.Adapter + " " + string(r.Format)
	if r.Function != c.Entry {
		label += " " + r.Function
	}
	return label
}

type leafText struct {
	path, s string
	ind     bool
}

// leafStrings lists e's leaves with the oracle's paths, rendered for
// the table, and whether the reference leaves them indeterminate.
func leafStrings(e oracle.Expected, name string) []leafText {
	var out []leafText
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
			out = append(out, leafText{path: path, s: s, ind: ind})
		}
	}
	rec(e.Val(), name)
	return out
}
