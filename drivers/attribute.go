package drivers

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/oracle"
)

// Attribution classes (Divergence.Class) are check's Class constants for
// the matrix: check.ClassCompiler, check.ClassDriver, check.ClassDriverOrBackend,
// check.ClassSPIRVPath, check.ClassUndefinedSPIRV, check.ClassFlatten, check.ClassReference,
// check.ClassStack, check.ClassStage and check.ClassHarness, each documented there.
// Each names what a divergence implicates and is decided by comparing the
// run with its neighbours in the matrix: the same function, format and
// stage on the other adapters, the other format on the same adapter, the
// compute stage of the same run (a fragment run), and the hazards of
// gpudiff's raw SPIR-V.

// attributor answers questions about one case's row of the matrix.
type attributor struct {
	rep *Report
	cr  *CaseResult
}

// run returns the run of fn in format and stage on the named adapter, or
// nil.
func (at *attributor) run(adapter, fn string, format oracle.Format, stage oracle.Stage) *RunResult {
	for _, c := range at.cr.Cells {
		if c.Adapter != adapter {
			continue
		}
		for _, r := range c.Runs {
			if r.Function == fn && r.Format == format && r.Stage == stage {
				return r
			}
		}
	}
	return nil
}

func agrees(r *RunResult) bool  { return r != nil && r.Outcome == Agrees }
func differs(r *RunResult) bool { return r != nil && r.Outcome == Differs }

// sameOutputs reports whether two runs produced identical outputs.
func sameOutputs(a, b *RunResult) bool {
	if a == nil || b == nil || len(a.Outputs) != len(b.Outputs) || len(a.Outputs) == 0 {
		return false
	}
	for i := range a.Outputs {
		if !bytes.Equal(a.Outputs[i], b.Outputs[i]) {
			return false
		}
	}
	return true
}

// adapters returns the adapters (other than self) satisfying keep.
func (at *attributor) adapters(self Adapter, keep func(Adapter) bool) []Adapter {
	var out []Adapter
	for _, a := range at.rep.Adapters {
		if a.Name != self.Name && keep(a) {
			out = append(out, a)
		}
	}
	return out
}

// withRun filters adapters whose run of r's function in format and in r's
// stage satisfies pred (a run's neighbours are in its own stage).
func (at *attributor) withRun(as []Adapter, r *RunResult, format oracle.Format, pred func(*RunResult) bool) []Adapter {
	var out []Adapter
	for _, a := range as {
		if pred(at.run(a.Name, r.Function, format, r.Stage)) {
			out = append(out, a)
		}
	}
	return out
}

// verb picks the singular or plural form for n subjects.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func names(as []Adapter) string {
	ns := make([]string, len(as))
	for i, a := range as {
		ns[i] = a.Name
	}
	return strings.Join(ns, ", ")
}

func compilerNames(as []Adapter) string {
	seen := map[string]bool{}
	var ns []string
	for _, a := range as {
		if !seen[a.Compiler] {
			seen[a.Compiler] = true
			ns = append(ns, a.Compiler)
		}
	}
	return strings.Join(ns, " and ")
}

// attributeCase lists and attributes the divergences of one case.
func attributeCase(rep *Report, cr *CaseResult) []*Divergence {
	at := &attributor{rep: rep, cr: cr}
	var out []*Divergence
	for _, c := range cr.Cells {
		a := rep.Adapters[rep.adapterIndex(c.Adapter)]
		for _, r := range c.Runs {
			if r.Outcome == Agrees || r.Outcome == Skipped {
				continue
			}
			d := &Divergence{Key: Key(cr.Name, a.Name, r.Function, r.Format, r.Stage), Case: cr.Name, Adapter: a.Name,
				Function: r.Function, FunctionName: r.FunctionName, Format: r.Format, Stage: r.Stage, Outcome: r.Outcome,
				Rule: cr.Rule, Spec: cr.Spec, Invocations: r.Mismatches, Message: firstLine(r.Error)}
			if len(r.Mismatches) > 0 {
				i := r.Mismatches[0]
				ex := &Example{Invocation: i, Args: cr.ArgsText(i), Reference: cr.RefHuman[i]}
				if i < len(r.Human) {
					ex.Got = r.Human[i]
				}
				ex.Leaves = r.Diffs[i]
				d.Example = ex
			}
			for _, b := range rep.Adapters {
				if b.Name != a.Name && sameOutputs(r, at.run(b.Name, r.Function, r.Format, r.Stage)) {
					d.SameAs = append(d.SameAs, b.Name)
				}
			}
			d.Class, d.Culprit, d.Why = at.attribute(a, r)
			out = append(out, d)
		}
	}
	if cr.Error != "" {
		for _, a := range rep.Adapters {
			out = append(out, &Divergence{Key: Key(cr.Name, a.Name, Original, oracle.FormatWGSL, ""), Case: cr.Name, Adapter: a.Name,
				Function: Original, FunctionName: cr.Kernel, Format: oracle.FormatWGSL, Outcome: Failed, Rule: cr.Rule, Spec: cr.Spec,
				Class: check.ClassHarness, Culprit: "gpudiff", Why: "the case could not be run: " + firstLine(cr.Error)})
		}
	}
	return out
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

// attribute decides what a run that does not agree implicates; see the
// Class constants for the rules, applied in the order written here.
func (at *attributor) attribute(a Adapter, r *RunResult) (class check.Class, culprit, why string) {
	if class, culprit, why, ok := at.stageDiffers(a, r); ok {
		return class, culprit, why
	}
	switch r.Outcome {
	case Differs:
		if r.Function == Twin && differs(at.cr.TwinInterp) && subset(r.Mismatches, at.cr.TwinInterp.Mismatches) {
			return check.ClassFlatten, "flatten", "the twin already differs from the original in the reference interpreter (no GPU involved)"
		}
		if r.Format == oracle.FormatSPIRV {
			return at.spirvDiffers(a, r)
		}
		class, culprit, why = at.wgslDiffers(a, r)
	case CompileError:
		class, culprit, why = at.compileError(a, r)
	case Crash, Timeout:
		class, culprit, why = at.crashed(a, r)
	default:
		return check.ClassHarness, "gpudiff", "gpudiff could not run or decode this run: " + firstLine(r.Error)
	}
	if r.Function == Twin {
		if o := at.run(a.Name, Original, r.Format, r.Stage); agrees(o) {
			why += "; only the flattened twin is affected (the original agrees here): the branchless form triggers it"
		}
	}
	return class, culprit, why
}

// stageDiffers attributes a fragment-stage run that does not agree where
// the compute-stage run of the same function and format on the adapter
// does (ClassStage): it differs, or fails to compile or finish, where the
// compute run agrees (a compile error or a crash: where the compute run at
// least compiled and finished). ok is false for any other run.
func (at *attributor) stageDiffers(a Adapter, r *RunResult) (class check.Class, culprit, why string, ok bool) {
	if r.Stage != oracle.StageFragment {
		return "", "", "", false
	}
	c := at.run(a.Name, r.Function, r.Format, oracle.StageCompute)
	ran := c != nil && (c.Outcome == Agrees || c.Outcome == Differs)
	switch {
	case r.Outcome == Differs && agrees(c):
		why = "the compute entry point of the same " + string(r.Format) + " agrees on this adapter, the fragment entry point differs"
	case (r.Outcome == CompileError || r.Outcome == Crash || r.Outcome == Timeout) && ran:
		why = fmt.Sprintf("the compute entry point of the same %s compiles and finishes on this adapter, the fragment entry point %s: %s",
			r.Format, map[string]string{CompileError: "does not compile", Crash: "crashes", Timeout: "does not finish"}[r.Outcome], condense(r.Error))
	default:
		return "", "", "", false
	}
	return check.ClassStage, fmt.Sprintf("the fragment-stage path of %s or driver %s", a.CompilerBackend(), a.Driver),
		why + " (the driver compiles and runs fragment shaders by other code than compute shaders; or gpudiff's fragment wrapper)", true
}

// hazardText describes the hazards reached by invs, e.g. "OpSDiv with a
// zero divisor (invocations 0, 1)".
func hazardText(hz []Hazard) string {
	var parts []string
	for _, h := range hz {
		parts = append(parts, fmt.Sprintf("%s with %s", h.Op, h.Domain))
	}
	return strings.Join(dedup(parts), ", ")
}

func dedup(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// covered reports whether the hazards of r's function explain every
// differing invocation of r.
func (at *attributor) covered(r *RunResult) (bool, []Hazard) {
	return HazardsCover(at.cr.Hazards[r.Function], r.Mismatches)
}

func (at *attributor) wgslDiffers(a Adapter, r *RunResult) (class check.Class, culprit, why string) {
	comp := a.Compiler
	cov, hz := at.covered(r)
	undefined := ""
	if cov {
		undefined = fmt.Sprintf("every differing invocation executes %s in gpudiff's raw SPIR-V, undefined in SPIR-V but defined by WGSL", hazardText(hz))
	}
	samePeers := at.adapters(a, func(b Adapter) bool { return b.Driver == a.Driver && b.Implementation != a.Implementation })
	if ok := at.withRun(samePeers, r, "wgsl", agrees); len(ok) > 0 {
		why = fmt.Sprintf("%s %s %s's translation of the same WGSL correctly on the same driver (%s)", names(ok), verb(len(ok), "runs", "run"), compilerNames(ok), a.Driver)
		if cov {
			why += "; " + undefined + ": " + a.Compiler + " leaves it unguarded"
		}
		return check.ClassCompiler, comp, why
	}
	sameImpl := at.adapters(a, func(b Adapter) bool { return b.Implementation == a.Implementation && b.Driver != a.Driver })
	implOK := at.withRun(sameImpl, r, "wgsl", agrees)
	if cov {
		why = undefined + ", so the WGSL compiler must guard it; the driver may return anything for the unguarded instruction"
		if len(implOK) > 0 {
			why += fmt.Sprintf(" (%s %s to give WGSL's result)", names(implOK), verb(len(implOK), "happens", "happen"))
		}
		return check.ClassCompiler, comp, why
	}
	if sp := at.run(a.Name, r.Function, "spirv", r.Stage); agrees(sp) {
		why = "gpudiff's own SPIR-V of the same function agrees on this adapter, so the driver runs a correct translation correctly"
		if a.Implementation == "wgpu" {
			why += " (wgpu takes gpudiff's SPIR-V through naga's SPIR-V front end, which points at naga's WGSL front end)"
		}
		return check.ClassCompiler, comp, why
	}
	noHazard := "no differing invocation reaches an operation SPIR-V leaves undefined (checked on gpudiff's raw SPIR-V)"
	switch {
	case at.rep.Mode != "raw":
		noHazard = "portable mode spells out WGSL's rules in the source"
	case at.cr.Workgroups != nil:
		// FindHazards probes a function kernel's invocations; an entry
		// point's dispatch is not probed.
		noHazard = "undefined SPIR-V operations are not probed in an entry point's dispatch (--mode portable rules them out)"
	}
	var sameAPI, otherAPI []Adapter
	for _, b := range implOK {
		if b.backendFamily() == a.backendFamily() {
			sameAPI = append(sameAPI, b)
		} else {
			otherAPI = append(otherAPI, b)
		}
	}
	if len(sameAPI) > 0 {
		return check.ClassDriver, "driver " + a.Driver,
			fmt.Sprintf("%s agrees on %s (same %s backend, same compiler output), and %s", a.Implementation, names(sameAPI), a.Backend, noHazard)
	}
	if len(otherAPI) > 0 {
		return check.ClassDriverOrBackend, fmt.Sprintf("driver %s or %s", a.Driver, a.CompilerBackend()),
			fmt.Sprintf("%s agrees only on %s, through another backend, and %s", a.Implementation, names(otherAPI), noHazard)
	}
	others := at.adapters(a, func(b Adapter) bool { return b.Implementation != a.Implementation })
	if ok := at.withRun(others, r, "wgsl", agrees); len(ok) > 0 {
		return check.ClassCompiler, comp, fmt.Sprintf("%s differs on every driver it runs on while %s agrees on %s", a.Implementation, compilerNames(ok), names(ok))
	}
	all := at.adapters(a, func(Adapter) bool { return true })
	if len(all) > 0 && len(at.withRun(all, r, "wgsl", differs)) == len(all) {
		return check.ClassReference, "gpudiff's interpreter or WGSL emitter",
			"every adapter differs from the reference: gpudiff's interpreter or WGSL emitter is the first suspect, then a rule every compiler gets wrong"
	}
	return check.ClassStack, fmt.Sprintf("%s or driver %s", a.Compiler, a.Driver),
		"no adapter with the same compiler or the same driver agrees, and " + noHazard
}

func (at *attributor) spirvDiffers(a Adapter, r *RunResult) (class check.Class, culprit, why string) {
	if cov, hz := at.covered(r); cov {
		return check.ClassUndefinedSPIRV, "gpudiff's raw SPIR-V, not the stack",
			fmt.Sprintf("every differing invocation executes %s, undefined in SPIR-V, so any result is allowed (raw SPIR-V carries no WGSL rule; --mode portable tests this path)", hazardText(hz))
	}
	front := a.Compiler + "'s SPIR-V front end"
	w := at.run(a.Name, r.Function, "wgsl", r.Stage)
	if agrees(w) {
		why = "the WGSL of the same function agrees on this adapter"
		if a.Implementation == "wgpu" {
			why += " (wgpu translates gpudiff's SPIR-V through naga's SPIR-V front end)"
		}
		if ok := at.withRun(at.adapters(a, func(b Adapter) bool { return b.Implementation == a.Implementation }), r, "spirv", agrees); len(ok) > 0 {
			why += fmt.Sprintf("; gpudiff's SPIR-V agrees on %s, which points past the emitter at the SPIR-V path for %s", names(ok), a.Driver)
		}
		return check.ClassSPIRVPath, "gpudiff's SPIR-V emitter or " + front, why
	}
	if differs(w) && sameOutputs(w, r) {
		wc, wcul, wwhy := at.wgslDiffers(a, w)
		if wc == check.ClassCompiler {
			return check.ClassCompiler, a.CompilerBackend(),
				"gpudiff's SPIR-V gives the same values as the WGSL path, so the part both front ends share is implicated: " + wwhy
		}
		return wc, wcul, "gpudiff's SPIR-V gives the same values as the WGSL path: " + wwhy
	}
	return check.ClassStack, "gpudiff's SPIR-V emitter, " + front + " or driver " + a.Driver,
		"gpudiff's SPIR-V differs, and the WGSL path of the same function does not give the same values"
}

func (at *attributor) compileError(a Adapter, r *RunResult) (class check.Class, culprit, why string) {
	msg := condense(r.Error)
	compiles := func(x *RunResult) bool { return x != nil && (x.Outcome == Agrees || x.Outcome == Differs) }
	sameImpl := at.withRun(at.adapters(a, func(b Adapter) bool { return b.Implementation == a.Implementation }), r, r.Format, compiles)
	if r.Format == oracle.FormatSPIRV && len(sameImpl) == 0 {
		return check.ClassSPIRVPath, a.Compiler + "'s SPIR-V front end or gpudiff's SPIR-V emitter",
			"the stack rejects gpudiff's SPIR-V everywhere (spirv-val decides whether the module is valid): " + msg
	}
	if len(sameImpl) > 0 {
		what := "WGSL"
		if r.Format == oracle.FormatSPIRV {
			what = "gpudiff's SPIR-V"
		}
		return check.ClassDriverOrBackend, fmt.Sprintf("%s or driver %s", a.CompilerBackend(), a.Driver),
			fmt.Sprintf("%s compiles the same %s on %s, so its front end accepts it; the module %s writes for %s, or the driver's compiler, fails: %s",
				a.Implementation, what, names(sameImpl), a.CompilerBackend(), a.Driver, msg)
	}
	others := at.withRun(at.adapters(a, func(b Adapter) bool { return b.Implementation != a.Implementation }), r, "wgsl", compiles)
	if len(others) > 0 {
		return check.ClassCompiler, a.Compiler,
			fmt.Sprintf("it rejects WGSL that %s compiles (on %s): %s", compilerNames(others), names(others), msg)
	}
	return check.ClassReference, "gpudiff's WGSL emitter", "every stack rejects the module: gpudiff's WGSL emitter is the first suspect: " + msg
}

func (at *attributor) crashed(a Adapter, r *RunResult) (class check.Class, culprit, why string) {
	msg := condense(r.Error)
	what := "crashes"
	if r.Outcome == Timeout {
		what = "does not finish"
	}
	fine := func(x *RunResult) bool { return x != nil && (x.Outcome == Agrees || x.Outcome == Differs) }
	sameAPI := at.withRun(at.adapters(a, func(b Adapter) bool {
		return b.Implementation == a.Implementation && b.backendFamily() == a.backendFamily()
	}), r, r.Format, fine)
	if len(sameAPI) > 0 {
		return check.ClassDriver, "driver " + a.Driver,
			fmt.Sprintf("it %s on code that %s runs to completion on %s: %s", what, a.Implementation, names(sameAPI), msg)
	}
	peers := at.withRun(at.adapters(a, func(b Adapter) bool { return b.Driver == a.Driver }), r, "wgsl", fine)
	if len(peers) > 0 {
		return check.ClassCompiler, a.Compiler,
			fmt.Sprintf("the same driver runs %s's translation to completion on %s, but %s's %s: %s", compilerNames(peers), names(peers), a.Compiler, what, msg)
	}
	return check.ClassStack, fmt.Sprintf("%s or driver %s", a.Compiler, a.Driver), fmt.Sprintf("it %s and no neighbour separates compiler from driver: %s", what, msg)
}

// subset reports whether every element of xs is in ys.
func subset(xs, ys []int) bool {
	set := map[int]bool{}
	for _, y := range ys {
		set[y] = true
	}
	for _, x := range xs {
		if !set[x] {
			return false
		}
	}
	return len(xs) > 0
}

// condense shortens a stack's multi-line message for one line: its
// non-empty lines joined with " | ", at most 300 bytes.
func condense(s string) string {
	var parts []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	out := strings.Join(parts, " | ")
	if len(out) > 300 {
		out = out[:300] + " …"
	}
	return out
}

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
