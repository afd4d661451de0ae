package drivers

import (
	"slices"
	"sort"
	"strings"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/oracle"
)

// Attribution classes (Divergence.Class) are check's matrix classes
// (check.ClassCompiler, check.ClassDriver, check.ClassDriverOrBackend,
// check.ClassSPIRVPath, check.ClassUndefinedSPIRV, check.ClassFlatten,
// check.ClassReference, check.ClassStack, check.ClassStage and
// check.ClassHarness), each documented there and decided by
// check.AttributeRow over a check.Row per case whose runs check built
// from each adapter's result (check.AdapterRowRuns); drivers adds the
// report's adapters and the hazards (newRow) and turns the findings into
// Divergences.

// attributeCase lists and attributes the divergences of one case.
func attributeCase(rep *Report, cr *CaseResult) []*Divergence {
	row, runs := newRow(rep, cr)
	var out []*Divergence
	for _, f := range check.AttributeRow(row) {
		if f.Run < 0 {
			out = append(out, &Divergence{Key: Key(cr.Name, f.Adapter, Original, oracle.FormatWGSL, ""), Case: cr.Name, Adapter: f.Adapter,
				Function: Original, FunctionName: cr.Kernel, Format: oracle.FormatWGSL, Outcome: Failed, Rule: cr.Rule, Spec: cr.Spec,
				Class: f.Class, Culprit: f.Culprit, Why: f.Why})
			continue
		}
		r := runs[f.Run]
		d := &Divergence{Key: Key(cr.Name, f.Adapter, r.Function, r.Format, r.Stage), Case: cr.Name, Adapter: f.Adapter,
			Function: r.Function, FunctionName: r.FunctionName, Format: r.Format, Stage: r.Stage, Outcome: r.Outcome,
			Rule: cr.Rule, Spec: cr.Spec, Invocations: r.Mismatches, Message: firstLine(r.Error),
			Class: f.Class, Culprit: f.Culprit, Why: f.Why, SameAs: f.SameAs}
		if len(r.Mismatches) > 0 {
			i := r.Mismatches[0]
			ex := &Example{Invocation: i, Args: cr.ArgsText(i), Reference: cr.RefHuman[i]}
			if i < len(r.Human) {
				ex.Got = r.Human[i]
			}
			ex.Leaves = r.Diffs[i]
			d.Example = ex
		}
		out = append(out, d)
	}
	return out
}

// newRow is the case's row for check.AttributeRow: the report's adapters,
// the runs check listed from each adapter's result (check.AdapterRowRuns,
// in the cells' order: runs[i] is the RunResult shown for the row's run
// i) and the case's hazards.
func newRow(rep *Report, cr *CaseResult) (row *check.Row, runs []*RunResult) {
	row = &check.Row{Mode: rep.Mode, EntryPoint: cr.Workgroups != nil, Hazards: cr.Hazards, Error: cr.Error}
	for _, a := range rep.Adapters {
		row.Adapters = append(row.Adapters, check.RowAdapter{Name: a.Name, Implementation: a.Implementation,
			Backend: a.Backend, Driver: a.Driver, Compiler: a.Compiler})
	}
	row.Runs, row.TwinInterp = cr.rowRuns, cr.twinRow
	for _, c := range cr.Cells {
		runs = append(runs, c.Runs...)
	}
	return row, runs
}

// ArgsText is invocation i's arguments as "name = value, …" ("" when
// the case has no invocation i).
func (cr *CaseResult) ArgsText(i int) string {
	if i >= len(cr.Args) {
		return ""
	}
	parts := make([]string, len(cr.Args[i]))
	for j, a := range cr.Args[i] {
		parts[j] = cr.Params[j] + " = " + a
	}
	return strings.Join(parts, ", ")
}

// firstLine is s's first line, s trimmed first.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// summarizeRules groups the divergences by rule: generated programs under
// GeneratedRule, cases without a rule line under "case <name>".
func summarizeRules(rep *Report) []RuleSummary {
	idx := map[string]int{}
	var out []RuleSummary
	ruleOf := func(cr *CaseResult) string {
		if cr.Rule == "" {
			return "case " + cr.Name
		}
		return cr.Rule
	}
	for _, cr := range rep.Cases {
		r := ruleOf(cr)
		if _, ok := idx[r]; !ok {
			idx[r] = len(out)
			out = append(out, RuleSummary{Rule: r, Spec: cr.Spec, Adapters: map[string][]oracle.Format{}})
		}
		s := &out[idx[r]]
		s.Cases = append(s.Cases, cr.Name)
	}
	caseRule := map[string]string{}
	for _, cr := range rep.Cases {
		caseRule[cr.Name] = ruleOf(cr)
	}
	for _, d := range rep.Divergences {
		s := &out[idx[caseRule[d.Case]]]
		if !slices.Contains(s.Adapters[d.Adapter], d.Format) {
			s.Adapters[d.Adapter] = append(s.Adapters[d.Adapter], d.Format)
			sort.Slice(s.Adapters[d.Adapter], func(i, j int) bool {
				return formatRank(s.Adapters[d.Adapter][i]) < formatRank(s.Adapters[d.Adapter][j])
			})
		}
		if c := string(d.Class) + ": " + d.Culprit; !slices.Contains(s.Culprits, c) {
			s.Culprits = append(s.Culprits, c)
		}
	}
	return out
}
