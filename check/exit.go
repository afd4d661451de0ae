package check

import "github.com/gpudiff/gpudiff/oracle"

// Exit is the exit class of a judged case, as exec and view end (README
// "Exit codes"); the command maps each class to its code.
type Exit int

const (
	ExitPass      Exit = iota // every run agrees with the reference (exit 0)
	ExitFound                 // a run disagrees, or a stack crashed or hung on the case (a finding, issue 25; exit 1)
	ExitFlatten               // flatten refused the twin Options.Flat asked for: an input error (exit 2, FlattenErr's positioned message)
	ExitNoOutputs             // a run or the reference could not produce outputs (exit 2)
	ExitShader                // the shader's own defect: a data race, inputs outside its domain, a result that relies on subgroup reconvergence WGSL does not promise; no stack is blamed (exit 4)
)

// ExitOf is the exit class of a case judged verdict v whose twin flatten
// refused with flattenErr (nil: none).
func ExitOf(v oracle.Verdict, flattenErr error) Exit {
	if flattenErr != nil {
		return ExitFlatten
	}
	switch v {
	case oracle.Pass, oracle.SlowCompile:
		return ExitPass // a slow compile is a performance note (settle: only when no run failed otherwise)
	case oracle.Mismatch, oracle.Crash, oracle.Timeout:
		return ExitFound
	case oracle.Race, oracle.OutOfDomain, oracle.Reconvergence:
		return ExitShader
	}
	return ExitNoOutputs
}

// ExitOfRuns is ExitOf for a case whose judged runs are runs: a compile
// error that broke the stack's promise (oracle.Run.Promise, set by
// judgeRejections) is a stack finding (ExitFound), not an input error.
func ExitOfRuns(v oracle.Verdict, flattenErr error, runs []oracle.Judged) Exit {
	e := ExitOf(v, flattenErr)
	if e == ExitNoOutputs && v == oracle.CompileError {
		for _, r := range runs {
			if r.Failed == oracle.CompileError && r.Promise != "" {
				return ExitFound
			}
		}
	}
	return e
}

// Exit is res's exit class (ExitOfRuns).
func (res *Result) Exit() Exit {
	return ExitOfRuns(res.Verdict, res.FlattenErr, res.Runs)
}
