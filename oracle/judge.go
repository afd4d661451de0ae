package oracle

import "sort"

// Verdict classifies a program or a run (ARCHITECTURE.md "The oracle and its
// verdicts").
type Verdict string

const (
	Pass            Verdict = "pass"             // every compared invocation agrees
	Mismatch        Verdict = "mismatch"         // some determinate output differs
	VIndeterminate  Verdict = "indeterminate"    // nothing differs, but the reference is indeterminate somewhere
	CompileError    Verdict = "compile-error"    // the stack rejected the module (its message kept)
	Crash           Verdict = "crash"            // the worker died (signal, abort, lost device)
	Timeout         Verdict = "timeout"          // a dispatch exceeded its time limit
	SlowCompile     Verdict = "slow-compile"     // the stack did not finish compiling (shader module and pipeline) within its limit: a performance note, never a finding
	FlattenRejected Verdict = "flatten-rejected" // flatten refused a construct outside its subset (loud and expected)
	Error           Verdict = "error"            // any other failure to produce outputs
	// Race: the shader under test has a data race (WGSL #memory-model):
	// two invocations access one location unordered, at least one
	// writing, not both atomically. It is the shader's defect, never a
	// stack's: the racing leaves are compared against their allowed sets
	// and a run is a Mismatch only where a leaf falls outside its set.
	Race Verdict = "race"
	// OutOfDomain: the inputs drove the shader outside what it handles
	// (seeded inputs ran a loop past the step limit, or indexed out of
	// bounds): the shader's domain, not a stack's fault; try other inputs
	// (exec --fill, --inputs).
	OutOfDomain Verdict = "out-of-domain"
	// Unsupported marks a run the implementation cannot take at all (a
	// format it does not accept); such runs are dropped, never judged.
	Unsupported Verdict = "unsupported"
	// Reconvergence: nothing determinate differs, but some leaf whose
	// value depends on which invocations executed a subgroup operation
	// together in divergent control flow does (Expected.Reconvergence):
	// the device did not reconverge maximally, which WGSL allows (WGSL
	// #subgroup-builtin-functions). Never a mismatch, never a finding;
	// reported so that a user sees the shader relies on an assumption
	// WGSL does not make.
	Reconvergence Verdict = "reconvergence"
)

// Run is one execution of a function on one path: the interpreter
// ("interp") or a GPU adapter, in a format and mode.
type Run struct {
	Adapter  string // "interp" or an adapter name
	Function string // the kernel or its _flat twin
	Format   Format // FormatIR (interpreter), FormatWGSL or FormatSPIRV
	// Stage is the pipeline stage of a GPU run (StageCompute,
	// StageFragment); "" for the interpreter.
	Stage Stage
	Mode  string // "portable" or "raw" ("" for the interpreter)
	// Outputs[i] are invocation i's outputs in ABI order. Interpreter runs
	// fill Indeterminate/Tolerance/Why; GPU runs only Value.
	Outputs [][]Expected
	// Failed, when not "", is the verdict of a run that produced no
	// outputs (CompileError, Crash, Timeout, Error), with Message the
	// stack's own words.
	Failed  Verdict
	Message string
	// Promise, for a CompileError run, is the promise the stack broke:
	// its adapter declares it takes what the module needs and another
	// adapter accepted the same module (check's judgeRejections), so the
	// rejection is a stack finding, not an input error. "" otherwise.
	Promise string
	// InvocationErr[i], when non-empty, is an interpreter error for
	// invocation i (step limit), which counts as a difference.
	InvocationErr []string
	// Subgroups, for a GPU run of a module that uses subgroup operations,
	// identifies the subgroup partition the run observed (check's probe;
	// a key of the probe's bytes): the run is judged against the reference
	// computed for that partition. "" otherwise.
	Subgroups string `json:",omitempty"`
}

// Judged is a Run with its comparison against the reference.
type Judged struct {
	Run
	Verdict       Verdict
	Mismatches    []int // invocations that differ
	Indeterminate []int // invocations whose differences are all indeterminate in the reference
	// Reconverged are the invocations whose only differences are leaves
	// that depend on a subgroup operation's active set in divergent
	// control flow (Expected.Reconvergence).
	Reconverged []int
	Diffs       map[int][]LeafDiff
}

// Judge compares every run against the reference (ref[i] = invocation i's
// expected outputs; names are the output names) and returns each run's
// judgement and the overall verdict: Mismatch when any run differs, else
// the first failure verdict of a run, else Pass. Indeterminate invocations
// never change the verdict. An Unsupported run (the adapter declared it
// cannot take the module) is skipped: it makes the verdict Unsupported
// only when no GPU run was tested at all.
func Judge(ref [][]Expected, names []string, runs []Run) ([]Judged, Verdict) {
	return JudgeEach(func(Run) [][]Expected { return ref }, names, runs)
}

// JudgeEach is Judge with each run's own reference, refOf(run): the runs
// of a module with subgroup operations are each judged against the
// reference of the subgroup partition they observed (Run.Subgroups).
func JudgeEach(refOf func(Run) [][]Expected, names []string, runs []Run) ([]Judged, Verdict) {
	out := make([]Judged, len(runs))
	overall := Pass
	tested := false // some GPU run was not Unsupported
	for k, r := range runs {
		j := Judged{Run: r, Verdict: Pass, Diffs: map[int][]LeafDiff{}}
		if r.Failed == Unsupported {
			// Skipped: nothing was tested on it (see below).
			j.Verdict = r.Failed
			out[k] = j
			continue
		}
		if r.Adapter != "interp" {
			tested = true
		}
		if r.Failed != "" {
			j.Verdict = r.Failed
			if overall == Pass {
				overall = r.Failed
			}
			out[k] = j
			continue
		}
		ref := refOf(r)
		for i := range ref {
			if i < len(r.InvocationErr) && r.InvocationErr[i] != "" {
				j.Mismatches = append(j.Mismatches, i)
				j.Diffs[i] = []LeafDiff{{Path: "invocation", Want: "outputs", Got: r.InvocationErr[i]}}
				continue
			}
			if i >= len(r.Outputs) {
				j.Mismatches = append(j.Mismatches, i)
				continue
			}
			// The interpreter's run (a twin's reference) is held to the
			// maximal reconvergence answer: flatten's guards compute it.
			o, d := compareInvocation(ref[i], r.Outputs[i], names, r.Adapter == "interp")
			switch o {
			case Differ:
				j.Mismatches = append(j.Mismatches, i)
				j.Diffs[i] = d
			case Indeterminate:
				j.Indeterminate = append(j.Indeterminate, i)
			case Reconverged:
				j.Reconverged = append(j.Reconverged, i)
			}
		}
		if len(j.Mismatches) > 0 {
			j.Verdict = Mismatch
			overall = Mismatch
		} else if len(j.Reconverged) > 0 {
			j.Verdict = Reconvergence
		}
		out[k] = j
	}
	if overall == Pass {
		for _, j := range out {
			if j.Verdict == Reconvergence {
				overall = Reconvergence
				break
			}
		}
	}
	if overall == Pass && !tested {
		for _, r := range runs {
			if r.Failed == Unsupported {
				return out, Unsupported // no GPU run was tested at all
			}
		}
	}
	return out, overall
}

// Sorted returns the keys of a diff map in order.
func Sorted(m map[int][]LeafDiff) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}
