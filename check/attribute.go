package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/oracle"
)

// Finding is one attributed disagreement (ARCHITECTURE.md "The oracle and its
// verdicts"): which comparison failed, on which runs, and what it
// implicates.
type Finding struct {
	// Class is a stable identifier of the comparison that failed:
	// ClassFlatten (interp(twin) vs reference), ClassStack (GPU(original)
	// vs reference), ClassPredication (GPU(twin) vs GPU(original) on one
	// stack), ClassSPIRV (our SPIR-V vs the stack's WGSL path, same
	// function), ClassStage (the fragment stage vs the compute stage, same
	// function and format), ClassVendor (one adapter disagrees where
	// others agree),
	// or the failure verdicts' classes (ClassCompileError, ClassCrash,
	// ClassTimeout, ClassError; FailureClass).
	Class Class `json:"class"`
	// Adapter is the adapter involved ("interp" for the flatten class).
	Adapter string `json:"adapter"`
	// Runs names the runs that disagree ("adapter function format").
	Runs []string `json:"runs"`
	// Implicates says, in words, what the disagreement points at and why.
	Implicates string `json:"implicates"`
	// Invocations are the disagreeing invocations (first run).
	Invocations []int `json:"invocations"`
	// Message and Format are the stack's own words for a failure class
	// (the compile error, the crash) and the format of the failed run
	// (oracle.FormatWGSL, oracle.FormatSPIRV), else "". Case files keep
	// them in their runs.
	Message string        `json:"-"`
	Format  oracle.Format `json:"-"`
	// Stage is the stage of the failed run (oracle.StageFragment), else
	// "" (compute, or not a failure class).
	Stage oracle.Stage `json:"-"`
}

// RunName is how a finding names a run (Finding.Runs): "adapter function
// format", and " fragment" after it for a run in the fragment stage (a
// compute run's name is what every run's name was before stages).
func RunName(r oracle.Run) string {
	if r.Stage == oracle.StageFragment {
		return fmt.Sprintf("%s %s %s %s", r.Adapter, r.Function, r.Format, r.Stage)
	}
	return fmt.Sprintf("%s %s %s", r.Adapter, r.Function, r.Format)
}

// StageOf is r's stage, a GPU run recorded without one being a compute
// run (as every run was before stages); "" for the interpreter's.
func StageOf(r oracle.Run) oracle.Stage {
	if r.Format == oracle.FormatIR {
		return ""
	}
	if r.Stage == "" {
		return oracle.StageCompute
	}
	return r.Stage
}

// Attribute turns a result's judged runs into findings, most specific
// first. An empty list means nothing disagreed.
//
// The comparisons between GPU runs (GPU vs reference, vendor, predication,
// SPIR-V) are made among the runs of one stage: the compute stage's when
// there are compute runs, else the fragment stage's. A fragment run that
// disagrees where the compute run of the same function and format on the
// same adapter agrees is a stage disagreement (ClassStage); one whose
// compute run disagrees too is the compute run's finding.
func Attribute(res *Result) []Finding {
	var out []Finding
	type fullKey struct {
		adapter, function string
		format            oracle.Format
		stage             oracle.Stage
	}
	all := map[fullKey]oracle.Judged{}
	primary := oracle.StageFragment
	var adapters []string
	seen := map[string]bool{}
	for _, r := range res.Runs {
		st := StageOf(r.Run)
		all[fullKey{r.Adapter, r.Function, r.Format, st}] = r
		if st == oracle.StageCompute {
			primary = oracle.StageCompute
		}
		if r.Adapter != "interp" && !seen[r.Adapter] {
			seen[r.Adapter] = true
			adapters = append(adapters, r.Adapter)
		}
	}
	// byKey: the interpreter's runs and the primary stage's GPU runs.
	type key struct {
		adapter, function string
		format            oracle.Format
	}
	byKey := map[key]oracle.Judged{}
	for k, r := range all {
		if k.stage == "" || k.stage == primary {
			byKey[key{k.adapter, k.function, k.format}] = r
		}
	}
	orig, twin := res.ABI.Kernel, res.Twin
	bad := func(r oracle.Judged) bool { return r.Verdict == oracle.Mismatch }

	// 0. The reference itself did not finish some invocation: nothing can
	// be judged against it, so this is the only finding — unless made-up
	// inputs drove it past the step limit (check/domain.go): that is the
	// shader's domain, no finding, and a disagreement of a finished
	// invocation (verdict mismatch) is attributed as usual.
	if res.Verdict == oracle.OutOfDomain {
		return nil
	}
	if inv := res.Unfinished(); len(inv) > 0 && res.Verdict != oracle.Mismatch {
		return []Finding{{Class: ClassError, Adapter: "interp", Runs: []string{fmt.Sprintf("interp %s ir", res.ABI.Kernel)}, Invocations: inv,
			Implicates: fmt.Sprintf("the reference interpreter could not finish invocation %d: %s (raise --max-steps if the kernel terminates)", inv[0], res.ReferenceErr[inv[0]])}}
	}
	// 1. The twin in the interpreter: a flatten bug, no GPU involved.
	if r, ok := byKey[key{"interp", twin, oracle.FormatIR}]; twin != "" && ok && bad(r) {
		out = append(out, Finding{Class: ClassFlatten, Adapter: "interp", Runs: []string{RunName(r.Run)}, Invocations: r.Mismatches,
			Implicates: "flatten: the twin disagrees with the original in the reference interpreter (no GPU involved)"})
	}
	// Failures (compile errors, crashes, timeouts) per run; an
	// unsupported run (its adapter declared it cannot take the module)
	// tested nothing and is never a finding, nor is a slow compile (the
	// stack did not finish compiling within the compile limit: a
	// performance note, SlowCompiles).
	for _, r := range res.Runs {
		if r.Failed != "" && r.Failed != oracle.Unsupported && r.Failed != oracle.SlowCompile {
			fd := Finding{Class: FailureClass(r.Failed), Adapter: r.Adapter, Runs: []string{RunName(r.Run)},
				Implicates: failureImplicates(r), Message: r.Message, Format: r.Format}
			if r.Stage == oracle.StageFragment {
				fd.Stage = oracle.StageFragment
			}
			out = append(out, fd)
		}
	}
	// 2. GPU(original) vs reference, per adapter; 5. vendor divergence.
	var stackBad []string
	for _, a := range adapters {
		if r, ok := byKey[key{a, orig, oracle.FormatWGSL}]; ok && bad(r) {
			stackBad = append(stackBad, a)
		}
	}
	driver, oneDriver := sharedDriver(stackBad)
	for _, a := range stackBad {
		r := byKey[key{a, orig, oracle.FormatWGSL}]
		why := "the stack disagrees with WGSL's semantics (its WGSL compiler or driver), or gpudiff's WGSL emitter or interpreter is wrong"
		sp, hasSP := byKey[key{a, orig, oracle.FormatSPIRV}]
		peerOK := agreeingPeers(a, adapters, func(b string) bool {
			r, ok := byKey[key{b, orig, oracle.FormatWGSL}]
			return ok && r.Failed == "" && !bad(r)
		})
		switch {
		case len(peerOK) > 0:
			impl := implOf(a)
			verb := "runs"
			if len(peerOK) > 1 {
				verb = "run"
			}
			why = fmt.Sprintf("vendor divergence, compiler: %s's WGSL compiler (%s) is implicated — %s %s their own translation of the same WGSL correctly on the same driver (%s)",
				impl, harness.CompilerOf(impl), strings.Join(peerOK, ", "), verb, harness.DriverOf(a))
		case oneDriver && len(stackBad) > 1 && len(stackBad) < len(adapters) && allOnDriverBad(driver, adapters, stackBad):
			why = fmt.Sprintf("vendor divergence, driver: every implementation on driver %s (%s) disagrees with the reference while the other drivers agree, so the driver is implicated, not a WGSL compiler",
				driver, strings.Join(stackBad, ", "))
		case len(adapters) > 1 && len(stackBad) == 1:
			why = fmt.Sprintf("vendor divergence: only %s disagrees with the reference; the other adapters agree, so its driver (or the WGSL compiler's output for it) is implicated", a)
		case len(adapters) > 1 && len(stackBad) == len(adapters):
			why = "every adapter disagrees with the reference in the same program: gpudiff's interpreter or WGSL emitter is the first suspect, then " + sharedCompiler(adapters)
		}
		if hasSP && sp.Failed == "" {
			if !bad(sp) {
				why += "; gpudiff's own SPIR-V of the same function agrees, which points at the stack's WGSL compiler"
			} else if implOf(a) == "wgpu" {
				why += "; gpudiff's own SPIR-V disagrees too — which points at the driver or the interpreter, though wgpu translates SPIR-V through naga as well"
			} else {
				why += "; gpudiff's own SPIR-V disagrees too, which points at the driver or the interpreter"
			}
		}
		class := ClassStack
		if strings.HasPrefix(why, "vendor") {
			class = ClassVendor
		}
		out = append(out, Finding{Class: class, Adapter: a, Runs: []string{RunName(r.Run)}, Invocations: r.Mismatches, Implicates: why})
	}
	// 3. GPU(twin) vs GPU(original) on the same stack.
	if twin != "" {
		for _, a := range adapters {
			o, okO := byKey[key{a, orig, oracle.FormatWGSL}]
			t, okT := byKey[key{a, twin, oracle.FormatWGSL}]
			if okO && okT && !bad(o) && o.Failed == "" && bad(t) {
				it, okI := byKey[key{"interp", twin, oracle.FormatIR}]
				why := "predication changed the result on this stack: the original agrees, the flattened twin does not"
				if okI && !bad(it) {
					why += ", while the twin agrees in the interpreter — the stack miscompiles the branchless form"
				}
				out = append(out, Finding{Class: ClassPredication, Adapter: a, Runs: []string{RunName(t.Run)}, Invocations: t.Mismatches, Implicates: why})
			}
		}
	}
	// 4. Our SPIR-V vs the stack's WGSL path, same function and adapter.
	for _, a := range adapters {
		for _, fn := range []string{orig, twin} {
			if fn == "" {
				continue
			}
			w, okW := byKey[key{a, fn, oracle.FormatWGSL}]
			s, okS := byKey[key{a, fn, oracle.FormatSPIRV}]
			if okW && okS && w.Failed == "" && s.Failed == "" && !bad(w) && bad(s) {
				out = append(out, Finding{Class: ClassSPIRV, Adapter: a, Runs: []string{RunName(s.Run)}, Invocations: s.Mismatches,
					Implicates: "gpudiff's SPIR-V emitter (or the stack's SPIR-V path): the WGSL of the same function agrees on this adapter"})
			}
		}
	}
	// 6. The fragment stage vs the compute stage, same adapter, function
	// and format.
	if primary == oracle.StageCompute {
		for _, a := range adapters {
			for _, fn := range []string{orig, twin} {
				for _, format := range []oracle.Format{oracle.FormatWGSL, oracle.FormatSPIRV} {
					c, okC := all[fullKey{a, fn, format, oracle.StageCompute}]
					f, okF := all[fullKey{a, fn, format, oracle.StageFragment}]
					if fn != "" && okC && okF && c.Failed == "" && f.Failed == "" && !bad(c) && bad(f) {
						out = append(out, Finding{Class: ClassStage, Adapter: a, Runs: []string{RunName(f.Run)}, Invocations: f.Mismatches,
							Implicates: fmt.Sprintf("the stack's fragment-stage path: the same %s module's compute entry point agrees on this adapter, its fragment entry point does not (the driver compiles fragment shaders by another path)", format)})
					}
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return classRank(out[i].Class) < classRank(out[j].Class) })
	return out
}

func failureImplicates(r oracle.Judged) string {
	switch r.Failed {
	case oracle.CompileError:
		if r.Promise != "" {
			return r.Promise + ": " + errorLine(r.Message)
		}
		what := string(r.Format)
		if r.Stage == oracle.StageFragment {
			what += " fragment entry point"
		}
		return fmt.Sprintf("the stack rejected gpudiff's %s for %s (gpudiff's emitter if the module is invalid, else the stack's compiler): %s", what, r.Function, errorLine(r.Message))
	case oracle.Unsupported:
		return "the adapter cannot run this kernel at all, so nothing was tested on it: " + firstLine(r.Message)
	case oracle.Crash:
		return "the stack crashed or lost the device running this kernel: " + firstLine(r.Message)
	case oracle.Timeout:
		return "the dispatch compiled but did not finish running within --timeout (a driver hang or a miscompiled loop): " + firstLine(r.Message)
	case oracle.SlowCompile:
		return "the stack did not finish compiling the module (shader module and pipeline creation) within --compile-timeout: a performance note, nothing was tested: " + firstLine(r.Message)
	}
	return firstLine(r.Message)
}

// errorLine picks the line of a stack's error message that says what is
// wrong, past wgpu's wrapper lines ("Validation Error", "Caused by:",
// "In wgpuDeviceCreate…", "note: label = …"): e.g. "Internal error:
// 0:31(18): error: LHS of `||' must be scalar boolean" from wgpu's GL
// backend. naga's validator heads every error with "Shader validation
// error:" and a source diagram, then its chain of causes from the outer
// one ("Function [1] 'main' is invalid") to the root ("Index 2 is out of
// bounds for expression [8]"): there the root, the last line, says what is
// wrong — the header alone would give every validation error one key. It
// is the first line when no other qualifies.
func errorLine(msg string) string {
	first := ""
	lines := strings.Split(msg, "\n")
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if first == "" {
			first = l
		}
		low := strings.ToLower(l)
		if low == "validation error" || strings.HasPrefix(low, "caused by") || strings.HasPrefix(low, "in wgpu") ||
			strings.HasPrefix(low, "note: label") {
			continue
		}
		if strings.HasPrefix(low, "shader validation error") {
			for k := len(lines) - 1; k >= 0; k-- {
				if root := strings.TrimSpace(lines[k]); root != "" && !strings.ContainsAny(root, "│┌└") {
					return root
				}
			}
		}
		return l
	}
	return first
}

// MessageKey is what identifies a stack's error across programs: the line
// of msg that says what is wrong (past wgpu's wrapper lines) with every
// run of digits (source positions, generated names, vector sizes)
// replaced by "N". Failures of one bug on different programs share it
// (the campaign's compile-error signatures and its shrinking use it).
func MessageKey(msg string) string {
	var b strings.Builder
	inDigits := false
	for _, r := range errorLine(msg) {
		if r >= '0' && r <= '9' {
			if !inDigits {
				b.WriteByte('N')
			}
			inDigits = true
			continue
		}
		inDigits = false
		b.WriteRune(r)
	}
	return b.String()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// implOf is the implementation part of an adapter name ("" for another
// form of name).
// sharedCompiler names what the adapters' runs share besides gpudiff's
// emitter and interpreter: their WGSL compiler when they are all one
// implementation's (naga for wgpu, Tint for Dawn), else a rule every
// compiler among them gets wrong.
func sharedCompiler(adapters []string) string {
	impl := implOf(adapters[0])
	for _, a := range adapters[1:] {
		if implOf(a) != impl {
			return "a rule every WGSL compiler among them gets wrong"
		}
	}
	return "the shared WGSL compiler (" + harness.CompilerOf(impl) + ")"
}

func implOf(a string) string {
	impl, _, _, _ := harness.NameParts(a)
	return impl
}

// agreeingPeers lists the adapters of another implementation on a's
// driver whose run agrees.
func agreeingPeers(a string, adapters []string, agrees func(string) bool) []string {
	impl := implOf(a)
	var out []string
	for _, b := range adapters {
		if b != a && implOf(b) != impl && harness.DriverOf(b) == harness.DriverOf(a) && agrees(b) {
			out = append(out, b)
		}
	}
	return out
}

// sharedDriver reports the driver when every adapter in as runs on one.
func sharedDriver(as []string) (string, bool) {
	if len(as) == 0 {
		return "", false
	}
	d := harness.DriverOf(as[0])
	for _, a := range as[1:] {
		if harness.DriverOf(a) != d {
			return "", false
		}
	}
	return d, true
}

// allOnDriverBad reports whether every adapter on driver is among bad.
func allOnDriverBad(driver string, adapters, bad []string) bool {
	isBad := map[string]bool{}
	for _, b := range bad {
		isBad[b] = true
	}
	for _, a := range adapters {
		if harness.DriverOf(a) == driver && !isBad[a] {
			return false
		}
	}
	return true
}
