package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// A Row is one case's runs on several adapters side by side — the
// original and its flattened twin, as WGSL and as gpudiff's SPIR-V, per
// stage — with what attributing them needs: each run's outcome and
// outputs, the twin's run in the interpreter and the hazards of
// gpudiff's raw SPIR-V. AttributeRow decides what each run that does not
// agree implicates by comparing it with its neighbours in the row: the
// same function, format and stage on the other adapters, the other
// format on the same adapter, the compute stage of the same run (a
// fragment run), and the hazards (ARCHITECTURE.md "The oracle and its
// verdicts"). A caller that runs a corpus on every adapter (the driver
// matrix) fills one Row per case.
type Row struct {
	// Mode is the emission mode of the runs' modules ("raw", "portable").
	Mode string
	// EntryPoint reports that the case is an entry point's dispatch (its
	// undefined SPIR-V operations are not probed).
	EntryPoint bool
	// Adapters are every adapter the case ran on (or should have), in
	// order.
	Adapters []RowAdapter
	// Runs are the GPU runs, adapter by adapter in Adapters' order.
	Runs []RowRun
	// TwinInterp is the twin's run in the interpreter (nil without twin).
	TwinInterp *RowRun
	// Hazards are, per function kind (RowOriginal, RowTwin), the
	// operations of gpudiff's raw SPIR-V reached in their undefined
	// domain.
	Hazards map[string][]Hazard
	// Error is a setup failure of the whole case (no run was made).
	Error string
}

// Outcomes of one run in a Row, in the words the driver matrix prints.
const (
	RowAgrees       = "agrees"        // every compared invocation agrees with the reference
	RowDiffers      = "differs"       // some determinate output differs from the reference
	RowCompileError = "compile error" // the stack rejected the module
	RowCrash        = "crash"         // the worker or device died
	RowTimeout      = "timeout"       // the dispatch did not finish in time
	RowFailed       = "error"         // gpudiff could not run it (setup, decoding)
	// RowSlowCompile is a run whose stack did not finish compiling the
	// module (shader module and pipeline creation) within the compile
	// limit: nothing was tested on it, and it is a performance note,
	// never attributed (like RowSkipped).
	RowSlowCompile = "slow-compile"
	// RowSkipped is a run not taken on this adapter (its Error says
	// why): never judged, never attributed.
	RowSkipped = "skipped"
)

// Function kinds of a Row's runs: the kernel as written, or its
// flattened twin.
const (
	RowOriginal = "original"
	RowTwin     = "twin"
)

// RowAdapter is one adapter of a Row: what attribution compares runs by.
type RowAdapter struct {
	Name           string // e.g. "wgpu-vulkan:llvmpipe"
	Implementation string // "wgpu", "dawn", …
	Backend        string // "vulkan", "gl", "gles", …
	// Driver is the backend's API family and the device's short name
	// (harness.DriverOf), e.g. "vulkan:swiftshader".
	Driver string
	// Compiler is the implementation's WGSL compiler (harness.CompilerOf).
	Compiler string
}

// backendFamily is the API family of a backend ("gles" is "gl").
func (a RowAdapter) backendFamily() string { return harness.BackendFamily(a.Backend) }

// CompilerBackend names the part of the implementation's compiler that
// writes code for this adapter's API, e.g. "naga's SPIR-V backend".
func (a RowAdapter) CompilerBackend() string {
	switch a.backendFamily() {
	case "vulkan":
		return a.Compiler + "'s SPIR-V backend"
	case "gl":
		return a.Compiler + "'s GLSL backend"
	case "metal":
		return a.Compiler + "'s MSL backend"
	case "dx12", "dx11":
		return a.Compiler + "'s HLSL backend"
	}
	return a.Compiler + "'s " + a.Backend + " backend"
}

// RowRun is one run of a Row: a function kind in a format and a stage on
// an adapter, its outcome and outputs.
type RowRun struct {
	Adapter    string
	Function   string        // RowOriginal or RowTwin
	Format     oracle.Format // oracle.FormatWGSL, FormatSPIRV (FormatIR for the interpreter)
	Stage      oracle.Stage  // oracle.StageCompute, StageFragment ("" for the interpreter)
	Outcome    string        // RowAgrees, RowDiffers, …
	Mismatches []int         // the differing invocations
	// Outputs are the run's outputs, one JSON value per invocation; runs
	// with equal Outputs computed the same values.
	Outputs []json.RawMessage
	Error   string // the stack's (or gpudiff's) message of a failed run
	// What the matrix shows beside it (NewRowRun fills them; attribution
	// reads none): the function's name, the invocations the reference
	// leaves open where the run differs, each invocation's outputs in
	// words, and per differing invocation its differing leaves as "path:
	// reference X, got Y".
	FunctionName  string
	Indeterminate []int
	Human         []string
	Diffs         map[int][]string
}

// RowFinding is the attribution of one run of a Row that does not agree
// (or, for a Row whose case could not be run, of the case on one
// adapter).
type RowFinding struct {
	// Run is the index of the run in Row.Runs; -1 for a Row.Error
	// finding.
	Run     int
	Adapter string
	Class   Class
	// Culprit names the implicated component, e.g. "naga", "naga's GLSL
	// backend", "driver vulkan:swiftshader"; Why says why, in one
	// sentence.
	Culprit string
	Why     string
	// SameAs lists the other adapters whose run of the same function,
	// format and stage has exactly the same outputs.
	SameAs []string
}

// Hazard is one operation of a kernel whose raw-mode SPIR-V instruction
// SPIR-V leaves undefined for the operands some invocations give it, while
// WGSL defines the result (ARCHITECTURE.md "Emission modes": raw mode emits the
// plain instruction and leaves WGSL's rule to the stack). A driver that
// returns "wrong" values for such an instruction is not at fault: the
// compiler that emitted it unguarded is. (The driver matrix finds them:
// drivers.FindHazards.)
type Hazard struct {
	// Op is the instruction gpudiff's raw SPIR-V uses for the operation,
	// e.g. "OpSDiv" or "SClamp" (a GLSL.std.450 extended instruction).
	Op string `json:"op"`
	// Domain says which undefined domain was reached, e.g. "a zero
	// divisor" (SPIR-V 1.3 §3.32.13 for the arithmetic instructions,
	// GLSL.std.450 for the clamps).
	Domain string `json:"domain"`
	// Pos is the position of the WGSL operation.
	Pos ir.Pos `json:"pos"`
	// Invocations are the invocations that reach Domain, ascending.
	Invocations []int `json:"invocations"`
}

func (h Hazard) String() string {
	return fmt.Sprintf("%s with %s (%d:%d, invocations %s)", h.Op, h.Domain, h.Pos.Line, h.Pos.Col, hazardInvocations(h.Invocations, 8))
}

func hazardInvocations(xs []int, max int) string {
	var parts []string
	for i, x := range xs {
		if i == max {
			parts = append(parts, fmt.Sprintf("… %d in all", len(xs)))
			break
		}
		parts = append(parts, fmt.Sprint(x))
	}
	return strings.Join(parts, ", ")
}

// HazardsCover reports whether every invocation in invs reaches some
// hazard, and returns the hazards involved (those reached by at least one
// of invs).
func HazardsCover(hz []Hazard, invs []int) (bool, []Hazard) {
	if len(invs) == 0 {
		return false, nil
	}
	hit := map[int]bool{}
	var used []Hazard
	want := map[int]bool{}
	for _, i := range invs {
		want[i] = true
	}
	for _, h := range hz {
		u := false
		for _, i := range h.Invocations {
			if want[i] {
				hit[i], u = true, true
			}
		}
		if u {
			used = append(used, h)
		}
	}
	return len(hit) == len(want), used
}

// AttributeRow lists and attributes the runs of row that do not agree
// (neither RowAgrees, RowSkipped nor RowSlowCompile), in the order of row.Runs; a row
// whose case could not be run (Row.Error) has, after them, a
// ClassHarness finding per adapter. The rules are the matrix's classes
// (ClassCompiler, ClassDriver, ClassDriverOrBackend, ClassSPIRVPath,
// ClassUndefinedSPIRV, ClassFlatten, ClassReference, ClassStack,
// ClassStage, ClassHarness), applied in the order written in
// rowAttributor.attribute.
func AttributeRow(row *Row) []RowFinding {
	at := &rowAttributor{row: row}
	var out []RowFinding
	for i := range row.Runs {
		r := &row.Runs[i]
		if r.Outcome == RowAgrees || r.Outcome == RowSkipped || r.Outcome == RowSlowCompile {
			continue
		}
		a := at.adapter(r.Adapter)
		f := RowFinding{Run: i, Adapter: a.Name}
		for _, b := range row.Adapters {
			if b.Name != a.Name && sameOutputs(r, at.run(b.Name, r.Function, r.Format, r.Stage)) {
				f.SameAs = append(f.SameAs, b.Name)
			}
		}
		f.Class, f.Culprit, f.Why = at.attribute(a, r)
		out = append(out, f)
	}
	if row.Error != "" {
		for _, a := range row.Adapters {
			out = append(out, RowFinding{Run: -1, Adapter: a.Name, Class: ClassHarness, Culprit: "gpudiff",
				Why: "the case could not be run: " + trimmedFirstLine(row.Error)})
		}
	}
	return out
}

// rowAttributor answers questions about one Row.
type rowAttributor struct {
	row *Row
}

// adapter returns the named adapter of the row.
func (at *rowAttributor) adapter(name string) RowAdapter {
	for _, a := range at.row.Adapters {
		if a.Name == name {
			return a
		}
	}
	panic("check: a row's run names an adapter not in the row: " + name)
}

// run returns the run of fn in format and stage on the named adapter, or
// nil.
func (at *rowAttributor) run(adapter, fn string, format oracle.Format, stage oracle.Stage) *RowRun {
	for i := range at.row.Runs {
		r := &at.row.Runs[i]
		if r.Adapter == adapter && r.Function == fn && r.Format == format && r.Stage == stage {
			return r
		}
	}
	return nil
}

func agrees(r *RowRun) bool  { return r != nil && r.Outcome == RowAgrees }
func differs(r *RowRun) bool { return r != nil && r.Outcome == RowDiffers }

// sameOutputs reports whether two runs produced identical outputs.
func sameOutputs(a, b *RowRun) bool {
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
func (at *rowAttributor) adapters(self RowAdapter, keep func(RowAdapter) bool) []RowAdapter {
	var out []RowAdapter
	for _, a := range at.row.Adapters {
		if a.Name != self.Name && keep(a) {
			out = append(out, a)
		}
	}
	return out
}

// withRun filters adapters whose run of r's function in format and in r's
// stage satisfies pred (a run's neighbours are in its own stage).
func (at *rowAttributor) withRun(as []RowAdapter, r *RowRun, format oracle.Format, pred func(*RowRun) bool) []RowAdapter {
	var out []RowAdapter
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

func adapterNames(as []RowAdapter) string {
	ns := make([]string, len(as))
	for i, a := range as {
		ns[i] = a.Name
	}
	return strings.Join(ns, ", ")
}

func compilerNames(as []RowAdapter) string {
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

// attribute decides what a run that does not agree implicates; see the
// matrix's Class constants (class.go) for the rules, applied in the order
// written here.
func (at *rowAttributor) attribute(a RowAdapter, r *RowRun) (class Class, culprit, why string) {
	if class, culprit, why, ok := at.stageDiffers(a, r); ok {
		return class, culprit, why
	}
	switch r.Outcome {
	case RowDiffers:
		if r.Function == RowTwin && differs(at.row.TwinInterp) && subset(r.Mismatches, at.row.TwinInterp.Mismatches) {
			return ClassFlatten, "flatten", "the twin already differs from the original in the reference interpreter (no GPU involved)"
		}
		if r.Format == oracle.FormatSPIRV {
			return at.spirvDiffers(a, r)
		}
		class, culprit, why = at.wgslDiffers(a, r)
	case RowCompileError:
		class, culprit, why = at.compileError(a, r)
	case RowCrash, RowTimeout:
		class, culprit, why = at.crashed(a, r)
	default:
		return ClassHarness, "gpudiff", "gpudiff could not run or decode this run: " + trimmedFirstLine(r.Error)
	}
	if r.Function == RowTwin {
		if o := at.run(a.Name, RowOriginal, r.Format, r.Stage); agrees(o) {
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
func (at *rowAttributor) stageDiffers(a RowAdapter, r *RowRun) (class Class, culprit, why string, ok bool) {
	if r.Stage != oracle.StageFragment {
		return "", "", "", false
	}
	c := at.run(a.Name, r.Function, r.Format, oracle.StageCompute)
	ran := c != nil && (c.Outcome == RowAgrees || c.Outcome == RowDiffers)
	switch {
	case r.Outcome == RowDiffers && agrees(c):
		why = "the compute entry point of the same " + string(r.Format) + " agrees on this adapter, the fragment entry point differs"
	case (r.Outcome == RowCompileError || r.Outcome == RowCrash || r.Outcome == RowTimeout) && ran:
		why = fmt.Sprintf("the compute entry point of the same %s compiles and finishes on this adapter, the fragment entry point %s: %s",
			r.Format, map[string]string{RowCompileError: "does not compile", RowCrash: "crashes", RowTimeout: "does not finish"}[r.Outcome], condense(r.Error))
	default:
		return "", "", "", false
	}
	return ClassStage, fmt.Sprintf("the fragment-stage path of %s or driver %s", a.CompilerBackend(), a.Driver),
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
func (at *rowAttributor) covered(r *RowRun) (bool, []Hazard) {
	return HazardsCover(at.row.Hazards[r.Function], r.Mismatches)
}

func (at *rowAttributor) wgslDiffers(a RowAdapter, r *RowRun) (class Class, culprit, why string) {
	comp := a.Compiler
	cov, hz := at.covered(r)
	undefined := ""
	if cov {
		undefined = fmt.Sprintf("every differing invocation executes %s in gpudiff's raw SPIR-V, undefined in SPIR-V but defined by WGSL", hazardText(hz))
	}
	samePeers := at.adapters(a, func(b RowAdapter) bool { return b.Driver == a.Driver && b.Implementation != a.Implementation })
	if ok := at.withRun(samePeers, r, "wgsl", agrees); len(ok) > 0 {
		why = fmt.Sprintf("%s %s %s's translation of the same WGSL correctly on the same driver (%s)", adapterNames(ok), verb(len(ok), "runs", "run"), compilerNames(ok), a.Driver)
		if cov {
			why += "; " + undefined + ": " + a.Compiler + " leaves it unguarded"
		}
		return ClassCompiler, comp, why
	}
	sameImpl := at.adapters(a, func(b RowAdapter) bool { return b.Implementation == a.Implementation && b.Driver != a.Driver })
	implOK := at.withRun(sameImpl, r, "wgsl", agrees)
	if cov {
		why = undefined + ", so the WGSL compiler must guard it; the driver may return anything for the unguarded instruction"
		if len(implOK) > 0 {
			why += fmt.Sprintf(" (%s %s to give WGSL's result)", adapterNames(implOK), verb(len(implOK), "happens", "happen"))
		}
		return ClassCompiler, comp, why
	}
	if sp := at.run(a.Name, r.Function, "spirv", r.Stage); agrees(sp) {
		why = "gpudiff's own SPIR-V of the same function agrees on this adapter, so the driver runs a correct translation correctly"
		if a.Implementation == "wgpu" {
			why += " (wgpu takes gpudiff's SPIR-V through naga's SPIR-V front end, which points at naga's WGSL front end)"
		}
		return ClassCompiler, comp, why
	}
	noHazard := "no differing invocation reaches an operation SPIR-V leaves undefined (checked on gpudiff's raw SPIR-V)"
	switch {
	case at.row.Mode != "raw":
		noHazard = "portable mode spells out WGSL's rules in the source"
	case at.row.EntryPoint:
		// FindHazards probes a function kernel's invocations; an entry
		// point's dispatch is not probed.
		noHazard = "undefined SPIR-V operations are not probed in an entry point's dispatch (--mode portable rules them out)"
	}
	var sameAPI, otherAPI []RowAdapter
	for _, b := range implOK {
		if b.backendFamily() == a.backendFamily() {
			sameAPI = append(sameAPI, b)
		} else {
			otherAPI = append(otherAPI, b)
		}
	}
	if len(sameAPI) > 0 {
		return ClassDriver, "driver " + a.Driver,
			fmt.Sprintf("%s agrees on %s (same %s backend, same compiler output), and %s", a.Implementation, adapterNames(sameAPI), a.Backend, noHazard)
	}
	if len(otherAPI) > 0 {
		return ClassDriverOrBackend, fmt.Sprintf("driver %s or %s", a.Driver, a.CompilerBackend()),
			fmt.Sprintf("%s agrees only on %s, through another backend, and %s", a.Implementation, adapterNames(otherAPI), noHazard)
	}
	others := at.adapters(a, func(b RowAdapter) bool { return b.Implementation != a.Implementation })
	if ok := at.withRun(others, r, "wgsl", agrees); len(ok) > 0 {
		return ClassCompiler, comp, fmt.Sprintf("%s differs on every driver it runs on while %s agrees on %s", a.Implementation, compilerNames(ok), adapterNames(ok))
	}
	all := at.adapters(a, func(RowAdapter) bool { return true })
	if len(all) > 0 && len(at.withRun(all, r, "wgsl", differs)) == len(all) {
		return ClassReference, "gpudiff's interpreter or WGSL emitter",
			"every adapter differs from the reference: gpudiff's interpreter or WGSL emitter is the first suspect, then a rule every compiler gets wrong"
	}
	return ClassStack, fmt.Sprintf("%s or driver %s", a.Compiler, a.Driver),
		"no adapter with the same compiler or the same driver agrees, and " + noHazard
}

func (at *rowAttributor) spirvDiffers(a RowAdapter, r *RowRun) (class Class, culprit, why string) {
	if cov, hz := at.covered(r); cov {
		return ClassUndefinedSPIRV, "gpudiff's raw SPIR-V, not the stack",
			fmt.Sprintf("every differing invocation executes %s, undefined in SPIR-V, so any result is allowed (raw SPIR-V carries no WGSL rule; --mode portable tests this path)", hazardText(hz))
	}
	front := a.Compiler + "'s SPIR-V front end"
	w := at.run(a.Name, r.Function, "wgsl", r.Stage)
	if agrees(w) {
		why = "the WGSL of the same function agrees on this adapter"
		if a.Implementation == "wgpu" {
			why += " (wgpu translates gpudiff's SPIR-V through naga's SPIR-V front end)"
		}
		if ok := at.withRun(at.adapters(a, func(b RowAdapter) bool { return b.Implementation == a.Implementation }), r, "spirv", agrees); len(ok) > 0 {
			why += fmt.Sprintf("; gpudiff's SPIR-V agrees on %s, which points past the emitter at the SPIR-V path for %s", adapterNames(ok), a.Driver)
		}
		return ClassSPIRVPath, "gpudiff's SPIR-V emitter or " + front, why
	}
	if differs(w) && sameOutputs(w, r) {
		wc, wcul, wwhy := at.wgslDiffers(a, w)
		if wc == ClassCompiler {
			return ClassCompiler, a.CompilerBackend(),
				"gpudiff's SPIR-V gives the same values as the WGSL path, so the part both front ends share is implicated: " + wwhy
		}
		return wc, wcul, "gpudiff's SPIR-V gives the same values as the WGSL path: " + wwhy
	}
	return ClassStack, "gpudiff's SPIR-V emitter, " + front + " or driver " + a.Driver,
		"gpudiff's SPIR-V differs, and the WGSL path of the same function does not give the same values"
}

func (at *rowAttributor) compileError(a RowAdapter, r *RowRun) (class Class, culprit, why string) {
	msg := condense(r.Error)
	compiles := func(x *RowRun) bool { return x != nil && (x.Outcome == RowAgrees || x.Outcome == RowDiffers) }
	sameImpl := at.withRun(at.adapters(a, func(b RowAdapter) bool { return b.Implementation == a.Implementation }), r, r.Format, compiles)
	if r.Format == oracle.FormatSPIRV && len(sameImpl) == 0 {
		return ClassSPIRVPath, a.Compiler + "'s SPIR-V front end or gpudiff's SPIR-V emitter",
			"the stack rejects gpudiff's SPIR-V everywhere (spirv-val decides whether the module is valid): " + msg
	}
	if len(sameImpl) > 0 {
		what := "WGSL"
		if r.Format == oracle.FormatSPIRV {
			what = "gpudiff's SPIR-V"
		}
		return ClassDriverOrBackend, fmt.Sprintf("%s or driver %s", a.CompilerBackend(), a.Driver),
			fmt.Sprintf("%s compiles the same %s on %s, so its front end accepts it; the module %s writes for %s, or the driver's compiler, fails: %s",
				a.Implementation, what, adapterNames(sameImpl), a.CompilerBackend(), a.Driver, msg)
	}
	others := at.withRun(at.adapters(a, func(b RowAdapter) bool { return b.Implementation != a.Implementation }), r, "wgsl", compiles)
	if len(others) > 0 {
		return ClassCompiler, a.Compiler,
			fmt.Sprintf("it rejects WGSL that %s compiles (on %s): %s", compilerNames(others), adapterNames(others), msg)
	}
	return ClassReference, "gpudiff's WGSL emitter", "every stack rejects the module: gpudiff's WGSL emitter is the first suspect: " + msg
}

func (at *rowAttributor) crashed(a RowAdapter, r *RowRun) (class Class, culprit, why string) {
	msg := condense(r.Error)
	what := "crashes"
	if r.Outcome == RowTimeout {
		what = "does not finish"
	}
	fine := func(x *RowRun) bool { return x != nil && (x.Outcome == RowAgrees || x.Outcome == RowDiffers) }
	sameAPI := at.withRun(at.adapters(a, func(b RowAdapter) bool {
		return b.Implementation == a.Implementation && b.backendFamily() == a.backendFamily()
	}), r, r.Format, fine)
	if len(sameAPI) > 0 {
		return ClassDriver, "driver " + a.Driver,
			fmt.Sprintf("it %s on code that %s runs to completion on %s: %s", what, a.Implementation, adapterNames(sameAPI), msg)
	}
	peers := at.withRun(at.adapters(a, func(b RowAdapter) bool { return b.Driver == a.Driver }), r, "wgsl", fine)
	if len(peers) > 0 {
		return ClassCompiler, a.Compiler,
			fmt.Sprintf("the same driver runs %s's translation to completion on %s, but %s's %s: %s", compilerNames(peers), adapterNames(peers), a.Compiler, what, msg)
	}
	if r.Format == oracle.FormatWGSL {
		// The same driver runs gpudiff's SPIR-V of the same function to
		// completion: what differs is the WGSL path, the compiler's.
		if own := at.run(a.Name, r.Function, oracle.FormatSPIRV, r.Stage); fine(own) {
			return ClassCompiler, a.Compiler,
				fmt.Sprintf("it %s on the WGSL while gpudiff's SPIR-V of the same function runs to completion on the same adapter (the same driver): %s", what, msg)
		}
	}
	return ClassStack, fmt.Sprintf("%s or driver %s", a.Compiler, a.Driver), fmt.Sprintf("it %s and no neighbour separates compiler from driver: %s", what, msg)
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

// trimmedFirstLine is the first line of s with its surrounding space
// trimmed first (a row's messages; firstLine, Attribute's, does not trim).
func trimmedFirstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// RowOutcome is judged run r's outcome in the matrix's words: RowAgrees
// for a pass (or a run whose differences are all indeterminate leaves),
// RowDiffers for a mismatch, RowCompileError, RowCrash, RowTimeout,
// RowSlowCompile for those verdicts, RowSkipped for a run the adapter cannot take
// (oracle.Unsupported: never judged, the reason in its message) and
// RowFailed for any other failure.
func RowOutcome(r oracle.Judged) string {
	switch r.Verdict {
	case oracle.Pass, oracle.VIndeterminate:
		return RowAgrees
	case oracle.Mismatch:
		return RowDiffers
	case oracle.CompileError:
		return RowCompileError
	case oracle.Crash:
		return RowCrash
	case oracle.Timeout:
		return RowTimeout
	case oracle.SlowCompile:
		return RowSlowCompile
	case oracle.Unsupported:
		return RowSkipped
	}
	return RowFailed
}

// rowFunction is RowOriginal for a run of res's kernel, RowTwin for its
// twin's.
func rowFunction(function string, res *Result) string {
	if function != res.ABI.Kernel {
		return RowTwin
	}
	return RowOriginal
}

// NewRowRun is judged run r of res, made on adapter, as a Row's run: its
// function (original or twin), format, stage (StageOf), outcome
// (RowOutcome), differing invocations, outputs as JSON (one value per
// invocation, named by res.Names) and message.
func NewRowRun(adapter string, r oracle.Judged, res *Result) RowRun {
	rr := RowRun{Adapter: adapter, Function: rowFunction(r.Function, res), Format: r.Format, Stage: StageOf(r.Run),
		Outcome: RowOutcome(r), Mismatches: append([]int{}, r.Mismatches...), Error: r.Message,
		FunctionName: r.Function, Indeterminate: r.Indeterminate}
	for _, o := range r.Outputs {
		rr.Outputs = append(rr.Outputs, oracle.InvocationJSON(o, res.Names))
		rr.Human = append(rr.Human, oracle.HumanOutputs(o, res.Names))
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

// ReferenceRows are res's reference as the matrix shows it: each
// invocation's outputs as JSON and in words.
func ReferenceRows(res *Result) (outputs []json.RawMessage, human []string) {
	for _, r := range res.Reference {
		outputs = append(outputs, oracle.InvocationJSON(r, res.Names))
		human = append(human, oracle.HumanOutputs(r, res.Names))
	}
	return outputs, human
}

// SkippedRowRun is run r of res on adapter that check did not take (a
// compute entry point's ComputeResult.Skipped: the adapter cannot run it,
// r.Message says why) as a Row's run: RowSkipped, no outputs.
func SkippedRowRun(adapter string, r oracle.Run, res *Result) RowRun {
	return RowRun{Adapter: adapter, Function: rowFunction(r.Function, res), Format: r.Format, Stage: StageOf(r),
		Outcome: RowSkipped, Mismatches: []int{}, Error: r.Message, FunctionName: r.Function}
}

// AdapterRowRuns are res's runs on adapter as a Row lists them, in the
// matrix's order: every judged GPU run (res.Runs without the
// interpreter's, NewRowRun), then the runs not taken (skipped,
// SkippedRowRun). Twin is the twin's interpreter run (nil without a twin).
func AdapterRowRuns(adapter string, res *Result, skipped []oracle.Run) (runs []RowRun, twin *RowRun) {
	for _, r := range res.Runs {
		if r.Adapter == "interp" {
			t := NewRowRun("interp", r, res)
			twin = &t
			continue
		}
		runs = append(runs, NewRowRun(adapter, r, res))
	}
	for _, r := range skipped {
		runs = append(runs, SkippedRowRun(adapter, r, res))
	}
	return runs, twin
}
