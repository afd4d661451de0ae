package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// exec's output for a compute entry point as written (check.ExecuteEntry):
// a table per read_write binding, or one JSON document.

// WriteDispatchJSON writes exec's JSON document for an entry point: the
// entry, the dispatch size, every binding's initial value, the reference
// (read_write bindings, indeterminate leaves as "indeterminate"), the
// races, every judged run, the skipped ones and the verdict. It is
// written onto w as it goes (a bufio.Writer; a binding of either form,
// ir.Value or ir.Buffer, leaf by leaf), laid out as encoding/json's
// Encoder with SetIndent("", "  ") prints it, then a newline. Errors
// are w's.
func WriteDispatchJSON(w io.Writer, c *testcase.Case, res *check.Result) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	writeDispatchJSON(ir.NewJSONWriter(bw, true), c, res, nil)
	bw.WriteByte('\n')
	return bw.Flush()
}

// writeDispatchJSON writes the document's object; exit, when not nil, is
// an "exit" member added last (WriteEntriesJSON). Its members, in order:
//
//	entry, twin (with exec --flat), workgroups [X, Y, Z],
//	bindings {name: initial value} (textures' too), reference {name:
//	value}, races [string], runs [{adapter, function, format, mode,
//	outputs {name: value}, mismatches [{leaf, reference, got}], verdict,
//	error}], skipped [{adapter, function, format, reason}],
//	out_of_domain (when the made-up inputs are outside the shader's
//	domain: the reference's step-limit error), verdict
//
// with the keys of each {name: ...} object sorted, as encoding/json
// sorts a map's.
func writeDispatchJSON(j *ir.JSONWriter, c *testcase.Case, res *check.Result, exit *int) {
	j.Open('{')
	j.Key("entry")
	j.String(c.Func.Name)
	if res.Twin != "" {
		j.Key("twin")
		j.String(res.Twin)
	}
	j.Key("workgroups")
	j.Open('[')
	for _, n := range c.Workgroups {
		j.Elem()
		j.Int(int64(n))
	}
	j.Close(']')

	j.Key("bindings")
	var tex map[string]json.RawMessage
	if len(c.Module.Textures) > 0 {
		tex = testcase.TextureInputs(c)
	}
	inputs := map[string]int{}
	var keys []string
	for i, v := range res.Bindings {
		if _, dup := inputs[v.Name]; !dup {
			keys = append(keys, v.Name)
		}
		inputs[v.Name] = i
	}
	for k := range tex {
		if _, dup := inputs[k]; !dup {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	j.Open('{')
	for _, k := range keys {
		j.Key(k)
		if raw, ok := tex[k]; ok {
			if err := j.Raw(raw); err != nil {
				j.String("")
			}
			continue
		}
		writeInputJSON(j, res, inputs[k])
	}
	j.Close('}')

	j.Key("reference")
	j.Open('{')
	for _, i := range sortedNames(res.Names, len(res.Reference[0])) { // none when out of domain
		j.Key(res.Names[i])
		oracle.WriteExpectedJSON(j, res.Reference[0][i])
	}
	j.Close('}')

	j.Key("races")
	j.Open('[')
	for _, r := range res.Races {
		j.Elem()
		j.String(r.String())
	}
	j.Close(']')

	j.Key("runs")
	j.Open('[')
	for _, r := range res.Runs {
		j.Elem()
		j.Open('{')
		writeRunID(j, r.Run)
		j.Key("mode")
		j.String(r.Mode)
		j.Key("outputs")
		j.Open('{')
		if len(r.Outputs) == 1 {
			for _, i := range sortedNames(res.Names, len(r.Outputs[0])) {
				j.Key(res.Names[i])
				oracle.WriteExpectedJSON(j, r.Outputs[0][i])
			}
		}
		j.Close('}')
		j.Key("mismatches")
		j.Open('[')
		for _, d := range r.Diffs[0] {
			j.Elem()
			j.Open('{')
			j.Key("leaf")
			j.String(d.Path)
			j.Key("reference")
			j.String(d.Want)
			j.Key("got")
			j.String(d.Got)
			j.Close('}')
		}
		j.Close(']')
		j.Key("verdict")
		j.String(string(r.Verdict))
		j.Key("error")
		j.String(r.Message)
		j.Close('}')
	}
	j.Close(']')

	j.Key("skipped")
	j.Open('[')
	for _, r := range res.Skipped {
		j.Elem()
		j.Open('{')
		writeRunID(j, r)
		j.Key("reason")
		j.String(r.Message)
		j.Close('}')
	}
	j.Close(']')
	if res.Domain != "" {
		j.Key("out_of_domain")
		j.String(res.Domain)
	}
	j.Key("verdict")
	j.String(ExecVerdict(res.Verdict))
	if exit != nil {
		j.Key("exit")
		j.Int(int64(*exit))
	}
	j.Close('}')
}

// writeInputJSON writes binding i's initial value (check.EntryResult's
// Inputs, an ir.Buffer) leaf by leaf.
func writeInputJSON(j *ir.JSONWriter, res *check.Result, i int) {
	j.Buffer(res.Inputs[i], nil)
}

// sortedNames returns the indices of names[:n] in the order of their
// names, each name once (the last index of a repeated name, as a map
// keeps the last value stored).
func sortedNames(names []string, n int) []int {
	n = min(n, len(names))
	last := make(map[string]int, n)
	for i := range n {
		last[names[i]] = i
	}
	idx := make([]int, 0, len(last))
	for _, i := range last {
		idx = append(idx, i)
	}
	sort.Slice(idx, func(a, b int) bool { return names[idx[a]] < names[idx[b]] })
	return idx
}

// WriteDispatchTable writes one table per read_write binding: a row per
// leaf (its path, the reference, one column per run; "≠" marks a leaf that
// differs, "~" one the reference leaves indeterminate), then a line per
// run, the races and the skipped runs. Past 16 leaves only the first 8,
// those that differ and up to 64 indeterminate ones get a row (all with
// opts.AllRows); the leaves are read one by one from either form of the
// outputs (oracle.Expected.Cursor), text made only for the rows shown.
func WriteDispatchTable(w io.Writer, c *testcase.Case, res *check.Result, opts ExecOptions) {
	color, allRows := opts.Color, opts.AllRows
	if res.Domain != "" {
		fmt.Fprintf(w, "entry point %s: out-of-domain: the made-up bindings drive it past the step limit: %s\n", c.Func.Name, firstLine(res.Domain))
		fmt.Fprintln(w, "  nothing compared: not a stack's fault; try other inputs (--fill small, --inputs) or raise --max-steps")
		fmt.Fprintf(w, "verdict: %s\n", ExecVerdict(res.Verdict))
		return
	}
	for b, name := range res.Names {
		writeBindingTable(w, c, res, b, name, color, allRows)
	}
	if len(res.Names) == 0 {
		fmt.Fprintln(w, "the entry point has no read_write storage binding: nothing to compare")
	}
	fmt.Fprintf(w, "entry point %s, %d×%d×%d workgroups of %d×%d×%d\n", c.Func.Name, c.Workgroups[0], c.Workgroups[1], c.Workgroups[2],
		c.Func.WorkgroupSize[0], c.Func.WorkgroupSize[1], c.Func.WorkgroupSize[2])
	if res.Subgroups != "" {
		fmt.Fprintf(w, "reference: subgroups %s (--subgroup-size)\n", res.Subgroups)
	}
	for _, r := range res.Runs {
		label := dispatchRunLabel(c, r.Run)
		switch {
		case r.Failed != "":
			fmt.Fprintf(w, "  %s: %s: %s\n", label, r.Failed, firstLine(r.Message))
		case len(r.Mismatches) > 0:
			fmt.Fprintf(w, "  %s: %d leaves disagree%s\n", label, len(r.Diffs[0]), subgroupsNote(r.Run))
		case len(r.Reconverged) > 0:
			fmt.Fprintf(w, "  %s: reconvergence: differs only where a subgroup operation ran in divergent control flow, which WGSL lets an implementation run with another active set than maximal reconvergence (\"if reconverged\" leaves)%s\n", label, subgroupsNote(r.Run))
		default:
			fmt.Fprintf(w, "  %s: agrees", label)
			if len(r.Indeterminate) > 0 {
				fmt.Fprintf(w, " (leaves indeterminate in the reference: ~ any value, not compared; ∈ a set WGSL allows, checked)")
			}
			fmt.Fprintln(w, subgroupsNote(r.Run))
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

// subgroupsNote is what a run of a subgroup module was judged against:
// the reference of the partition it observed (Run.Subgroups), which the
// REFERENCE column (the interpreter's default partition) may not show.
func subgroupsNote(r oracle.Run) string {
	if r.Subgroups == "" {
		return ""
	}
	return " (subgroups " + r.Subgroups + ": judged against the reference of that partition)"
}

// dispatchRunLabel names a run: its adapter and format, then the
// function when it is the twin.
func dispatchRunLabel(c *testcase.Case, r oracle.Run) string {
	label := r.Adapter + " " + string(r.Format)
	if r.Function != c.Func.Name {
		label += " " + r.Function
	}
	return label
}

// writeBindingTable writes read_write binding b's table (WriteDispatchTable).
func writeBindingTable(w io.Writer, c *testcase.Case, res *check.Result, b int, name string, color, allRows bool) {
	ref := res.Reference[0][b]
	n := ref.Count()
	rc := ref.Cursor()
	runs := len(res.Runs)
	gcs := make([]oracle.Leaves, runs)
	got := make([]*oracle.Expected, runs)
	// bad[k]: the leaves run k differs at (a diff's leaf index, confirmed
	// by its path when the row is made).
	bad := make([]map[int][]string, runs)
	for k, r := range res.Runs {
		if r.Failed == "" && len(r.Outputs) == 1 && b < len(r.Outputs[0]) {
			got[k] = &r.Outputs[0][b]
			gcs[k] = got[k].Cursor()
		}
		for _, d := range r.Diffs[0] {
			if d.Output == b {
				if bad[k] == nil {
					bad[k] = map[int][]string{}
				}
				bad[k][d.Leaf] = append(bad[k][d.Leaf], d.Path)
			}
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
	gv := make([]ir.Value, runs)
	gok := make([]bool, runs)
	isBad := make([]bool, runs)
	path := ""
	for i := 0; i < n; i++ {
		rv, _ := rc.Next()
		for k := range runs {
			if got[k] != nil {
				gv[k], gok[k] = gcs[k].Next()
			}
		}
		path = ""
		interesting := false
		for k := range runs {
			isBad[k] = false
			if ps, ok := bad[k][i]; ok {
				if path == "" {
					path = rc.Path(name)
				}
				for _, p := range ps {
					isBad[k] = isBad[k] || p == path
				}
			}
			interesting = interesting || isBad[k]
		}
		ind := i < len(ref.Indeterminate) && ref.Indeterminate[i]
		// Indeterminate leaves are shown too, up to 64 of them (a
		// racing store at an unknown index can make a whole large
		// binding indeterminate).
		if ind && !interesting && indShown < 64 {
			interesting = true
			indShown++
		}
		if !allRows && n > 16 && i >= 8 && !interesting {
			hidden++
			continue
		}
		if path == "" {
			path = rc.Path(name)
		}
		refText := leafText(ref, i, rv)
		if ind && !strings.HasPrefix(refText, "∈ ") {
			refText = "~ " + refText
		}
		tr := table.Row{path, refText}
		for k, r := range res.Runs {
			var g string
			switch {
			case r.Failed != "":
				g = string(r.Failed)
			case got[k] != nil && gok[k]:
				g = leafText(*got[k], i, gv[k])
			default:
				g = "-"
			}
			if isBad[k] {
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

// leafText is leaf i (value v) of e for the table: the scalar, or "∈ "
// and the values WGSL allows there when e leaves it indeterminate within
// a known set (the runs are checked against them); a leaf whose value
// depends on a subgroup operation's active set in divergent control flow
// (Expected.Reconvergence) reads "v if reconverged": v is the maximal
// reconvergence answer, which WGSL does not promise.
func leafText(e oracle.Expected, i int, v ir.Value) string {
	if i < len(e.Indeterminate) && e.Indeterminate[i] {
		if set := e.Set(i); !set.IsAny() {
			return "∈ " + set.Format(v.Type)
		}
	}
	if i < len(e.Reconvergence) && e.Reconvergence[i] {
		return oracle.HumanScalar(v) + " if reconverged"
	}
	return oracle.HumanScalar(v)
}

type leafTextRow struct {
	path, s string
	ind     bool
}

// leafStrings lists e's leaves (either form) with the oracle's paths,
// rendered as the table renders them (leafText), and whether e leaves
// them indeterminate: a string per leaf, for the viewer's description of
// one leaf (the table itself makes text only for the rows it shows).
func leafStrings(e oracle.Expected, name string) []leafTextRow {
	var out []leafTextRow
	c := e.Cursor()
	for {
		v, ok := c.Next()
		if !ok {
			return out
		}
		i := c.Index()
		out = append(out, leafTextRow{path: c.Path(name), s: leafText(e, i, v), ind: i < len(e.Indeterminate) && e.Indeterminate[i]})
	}
}

// writeRunID writes the keys that name a run in exec's JSON: its adapter,
// function and format.
func writeRunID(j *ir.JSONWriter, r oracle.Run) {
	j.Key("adapter")
	j.String(r.Adapter)
	j.Key("function")
	j.String(r.Function)
	j.Key("format")
	j.String(string(r.Format))
}
