package report

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/drivers"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/oracle"
	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"
)

// DriversTextOptions configures WriteDriversText.
type DriversTextOptions struct {
	// Color marks cells with ANSI colors (for terminals).
	Color bool
}

// WriteDriversText prints the report for a terminal: the matrix (case × adapter),
// the per-rule summary, every divergence with its attribution in one line,
// grouped by case under its rule, spec citation and minimal repro, and a
// closing summary with the new divergences and the baseline's fixed keys.
func WriteDriversText(w io.Writer, rep *drivers.Report, opts DriversTextOptions) {
	fmt.Fprintf(w, "gpudiff drivers: %d cases × %d adapters, mode %s, %s; %d runs in %s\n",
		len(rep.Cases), len(rep.Adapters), rep.Mode, runKinds(rep), rep.Runs, rep.Elapsed.Round(100*time.Millisecond))
	writeDriverLine(w, rep.Adapters)
	writeMatrix(w, rep, opts)
	writeRules(w, rep)
	writeDivergences(w, rep)
	writeSummary(w, rep)
}

// writeDriverLine prints "drivers: ADAPTER IMPLEMENTATION-VERSION on NAME
// VERSION, ..." (as run's summary: harness.DriverRecord.Stack) for the
// adapters whose driver is known; nothing when none is.
func writeDriverLine(w io.Writer, adapters []drivers.Adapter) {
	var parts []string
	for _, a := range adapters {
		if a.DriverName != "" {
			d := harness.DriverRecord{Driver: a.DriverName, Version: a.DriverVersion, ImplementationVersion: a.ImplementationVersion}
			parts = append(parts, strings.TrimSpace(a.Name+" "+d.Stack()))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "drivers: %s\n", strings.Join(parts, ", "))
	}
}

func runKinds(rep *drivers.Report) string {
	fns := "original"
	if rep.Flat {
		fns = "original + twin"
		if n, first := twinRefused(rep); n > 0 {
			fns += fmt.Sprintf(" (no twin for %d of %d cases: flatten refused it; %s: %s)", n, len(rep.Cases), first.Name, firstLine(first.FlattenError))
		}
	}
	formats := "WGSL"
	if rep.SPIRV {
		formats = "WGSL + gpudiff's SPIR-V where the implementation takes SPIR-V"
	}
	if len(rep.Stages) > 0 {
		stages := make([]string, len(rep.Stages))
		for i, st := range rep.Stages {
			stages[i] = string(st)
		}
		formats += ", stages " + strings.Join(stages, " + ")
	}
	return fns + ", " + formats
}

// adapterHeader splits "wgpu-vulkan:llvmpipe" over two lines.
func adapterHeader(name string) string {
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		return name[:i] + "\n" + name[i+1:]
	}
	return name
}

// cellLines is a cell's text for the terminal: one outcome per line,
// its runs on the next line when the line would be long.
func cellLines(c *drivers.Cell) string {
	var lines []string
	for _, part := range strings.Split(c.Text, "; ") {
		if len(part) > 16 {
			if o, m, ok := strings.Cut(part, " ("); ok {
				lines = append(lines, o, "("+m)
				continue
			}
		}
		lines = append(lines, part)
	}
	return strings.Join(lines, "\n")
}

func colorFor(outcome string) text.Colors {
	switch outcome {
	case drivers.Agrees:
		return text.Colors{text.FgGreen}
	case drivers.Differs:
		return text.Colors{text.FgRed, text.Bold}
	case drivers.CompileError:
		return text.Colors{text.FgYellow}
	case drivers.Crash, drivers.Timeout:
		return text.Colors{text.FgMagenta, text.Bold}
	}
	return text.Colors{text.FgHiBlack}
}

func writeMatrix(w io.Writer, rep *drivers.Report, opts DriversTextOptions) {
	t := table.NewWriter()
	t.SetOutputMirror(w)
	t.SetStyle(table.StyleLight)
	t.Style().Options.SeparateRows = false
	t.Style().Format.Header = text.FormatDefault // adapter names as they are
	// Several stages: a stage column, one row per case and stage, each
	// cell showing that stage's runs (drivers.Cell.ForStage).
	staged := len(rep.Stages) > 1
	header := table.Row{"case"}
	if staged {
		header = append(header, "stage")
	}
	for _, a := range rep.Adapters {
		header = append(header, adapterHeader(a.Name))
	}
	t.AppendHeader(header)
	cell := func(c *drivers.Cell) string {
		s := cellLines(c)
		if opts.Color {
			s = colorFor(c.Outcome).Sprint(s)
		}
		return s
	}
	for _, cr := range rep.Cases {
		if !staged {
			row := table.Row{cr.Name}
			for _, c := range cr.Cells {
				row = append(row, cell(c))
			}
			t.AppendRow(row)
		} else {
			stages := cr.RowStages()
			if len(stages) == 0 {
				stages = []oracle.Stage{""} // the case did not run: its failed cells
			}
			for i, st := range stages {
				name := cr.Name
				if i > 0 {
					name = ""
				}
				row := table.Row{name, string(st)}
				for _, c := range cr.Cells {
					if st != "" {
						c = c.ForStage(st)
					}
					row = append(row, cell(c))
				}
				t.AppendRow(row)
			}
		}
		if cr.Diverges() {
			t.AppendSeparator()
		}
	}
	t.Render()
}

func writeRules(w io.Writer, rep *drivers.Report) {
	t := table.NewWriter()
	t.SetOutputMirror(w)
	t.SetStyle(table.StyleLight)
	t.SetTitle("divergences per rule")
	t.AppendHeader(table.Row{"rule", "diverging adapters (formats)", "implicated"})
	t.SetColumnConfigs([]table.ColumnConfig{
		{Number: 1, WidthMax: 48, WidthMaxEnforcer: text.WrapSoft},
		{Number: 2, WidthMax: 44, WidthMaxEnforcer: text.WrapSoft},
	})
	quiet := 0
	for _, s := range rep.Rules {
		if len(s.Adapters) == 0 {
			quiet++
			continue
		}
		var parts []string
		for _, a := range rep.Adapters {
			if fs, ok := s.Adapters[a.Name]; ok {
				parts = append(parts, fmt.Sprintf("%s (%s)", a.Name, joinFormats(fs)))
			}
		}
		t.AppendRow(table.Row{s.Rule, strings.Join(parts, "\n"), strings.Join(s.Culprits, "\n")})
		t.AppendSeparator()
	}
	if len(rep.Rules) == quiet {
		fmt.Fprintf(w, "every adapter agrees on all %d rules%s\n", quiet, twinsMissing(rep))
		return
	}
	t.Render()
	if quiet > 0 {
		fmt.Fprintf(w, "every adapter agrees on the other %d rules%s\n", quiet, twinsMissing(rep))
	}
}

// twinRefused counts the cases whose twin flatten refused (with --flat)
// and returns the first.
func twinRefused(rep *drivers.Report) (int, *drivers.CaseResult) {
	n := 0
	var first *drivers.CaseResult
	for _, cr := range rep.Cases {
		if cr.FlattenError != "" {
			if n++; first == nil {
				first = cr
			}
		}
	}
	return n, first
}

// twinsMissing qualifies "every adapter agrees" when some twins were
// refused: for those cases only the original ran.
func twinsMissing(rep *drivers.Report) string {
	if n, _ := twinRefused(rep); rep.Flat && n > 0 {
		return fmt.Sprintf(" (originals only for the %d cases whose twin flatten refused)", n)
	}
	return ""
}

// divLine groups the divergences of one adapter and format whose
// attribution is the same for the original and the twin.
type divLine struct {
	ds []*drivers.Divergence
}

func groupLines(ds []*drivers.Divergence) []divLine {
	var out []divLine
	for _, d := range ds {
		merged := false
		for i := range out {
			f := out[i].ds[0]
			if f.Adapter == d.Adapter && f.Format == d.Format && f.Stage == d.Stage && f.Class == d.Class && f.Culprit == d.Culprit &&
				f.Why == d.Why && f.Outcome == d.Outcome && f.Known == d.Known && equalInts(f.Invocations, d.Invocations) {
				out[i].ds = append(out[i].ds, d)
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, divLine{ds: []*drivers.Divergence{d}})
		}
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func writeDivergences(w io.Writer, rep *drivers.Report) {
	byCase := map[string][]*drivers.Divergence{}
	for _, d := range rep.Divergences {
		byCase[d.Case] = append(byCase[d.Case], d)
	}
	if len(rep.Divergences) == 0 {
		return
	}
	fmt.Fprintln(w, "\ndivergences (adapter format [stage]: outcome → implicated component: why)")
	for _, cr := range rep.Cases {
		ds := byCase[cr.Name]
		if len(ds) == 0 {
			continue
		}
		title := cr.Name
		if cr.Rule != "" {
			title += " — " + cr.Rule
		}
		fmt.Fprintf(w, "\n%s\n", title)
		if cr.Spec != "" {
			fmt.Fprintf(w, "  spec: %s\n", cr.Spec)
		}
		where := cr.Path
		if si, ok := cr.Seed.(*testcase.SeedInfo); ok && where == "" {
			where = fmt.Sprintf("generated program %d of seed %d (program seed %#x, size %d, profile %s)", si.Index, si.Campaign, si.Program, si.Size, si.Profile)
		}
		if cr.Workgroups != nil {
			fmt.Fprintf(w, "  case: %s (entry point %s, workgroups %s; the dispatch is invocation 0)\n", where, cr.Kernel, workgroupsText(cr.Workgroups))
			if firstDiffering(ds) >= 0 {
				fmt.Fprintf(w, "  dispatch: bindings %s, reference %s\n", cr.ArgsText(0), cr.RefHuman[0])
			}
		} else {
			fmt.Fprintf(w, "  case: %s (kernel %s, %d invocations)\n", where, cr.Kernel, cr.Invocations)
			if i := firstDiffering(ds); i >= 0 {
				fmt.Fprintf(w, "  minimal repro: invocation %d (%s), reference %s\n", i, cr.ArgsText(i), cr.RefHuman[i])
			}
		}
		for _, l := range groupLines(ds) {
			d := l.ds[0]
			mark := ""
			if rep.Baseline != "" {
				mark = "NEW   "
				if d.Known {
					mark = "known "
				}
			}
			fns := d.Function
			if len(l.ds) > 1 {
				fns = "original + twin"
			}
			what := d.Outcome
			if d.Outcome == drivers.Differs && d.Example != nil {
				what = fmt.Sprintf("differs in %d of %d (invocation %d: got %s", len(d.Invocations), cr.Invocations, d.Example.Invocation, d.Example.Got)
				if len(d.SameAs) > 0 {
					what += ", as " + strings.Join(d.SameAs, ", ")
				}
				what += ")"
			}
			format := string(d.Format)
			if d.Stage == oracle.StageFragment {
				format += " " + string(d.Stage)
			}
			fmt.Fprintf(w, "  %s%s %s (%s): %s → %s\n", mark, d.Adapter, format, fns, what, d.Line())
		}
	}
}

// workgroupsText is a dispatch size, e.g. "2×1×1".
func workgroupsText(wg []uint32) string {
	parts := make([]string, len(wg))
	for i, n := range wg {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, "×")
}

// firstDiffering is the smallest invocation any of ds differs in, or -1.
func firstDiffering(ds []*drivers.Divergence) int {
	best := -1
	for _, d := range ds {
		if len(d.Invocations) > 0 && (best < 0 || d.Invocations[0] < best) {
			best = d.Invocations[0]
		}
	}
	return best
}

func writeSummary(w io.Writer, rep *drivers.Report) {
	diverging := 0
	for _, cr := range rep.Cases {
		if cr.Diverges() {
			diverging++
		}
	}
	newDs := rep.New()
	fmt.Fprintf(w, "\n%d of %d cases diverge somewhere; %d divergences", diverging, len(rep.Cases), len(rep.Divergences))
	if rep.Baseline != "" {
		fmt.Fprintf(w, " (%d new, %d in baseline %s)", len(newDs), len(rep.Divergences)-len(newDs), rep.Baseline)
	}
	fmt.Fprintln(w)
	classes := map[string]int{}
	for _, d := range rep.Divergences {
		classes[string(d.Class)]++
	}
	if len(classes) > 0 {
		var ks []string
		for k := range classes {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		var parts []string
		for _, k := range ks {
			parts = append(parts, fmt.Sprintf("%s %d", k, classes[k]))
		}
		fmt.Fprintf(w, "by attribution: %s\n", strings.Join(parts, ", "))
	}
	if rep.Baseline != "" {
		for _, d := range newDs {
			fmt.Fprintf(w, "new divergence: %s\n", d.Label())
		}
		for _, k := range rep.Fixed {
			fmt.Fprintf(w, "no longer diverges (in baseline): %s\n", k)
		}
	}
}

// joinFormats is "wgsl, spirv".
func joinFormats(fs []oracle.Format) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}
