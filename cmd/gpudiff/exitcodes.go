package main

import (
	"github.com/gpudiff/gpudiff/check"
)

// The one table of gpudiff's exit codes (README "Exit codes"): every
// command's status, how several entry points' statuses combine (rank:
// the worst wins), and which code each of check's exit classes and each
// replay outcome is. TestExitCodesTableIsTheREADMEs holds the README's
// table to it.
const (
	exitOK       = 0 // every run agrees with the reference
	exitFound    = 1 // some run disagrees (or a new failure in a campaign)
	exitUsage    = 2 // usage, input or compile error (source errors as file:line:col: …)
	exitInternal = 3 // a bug in gpudiff itself
	exitShader   = 4 // the shader under test is at fault (a data race, or inputs outside its domain); no stack is blamed
	// exitInterrupted is the status of a command stopped by SIGINT
	// (Ctrl-C): 128 + the signal's number, the shell's convention; SIGTERM
	// gives 143 (interruptCode).
	exitInterrupted = 130
)

// exitCodes describes each exit code below 128 (a signal's status,
// 128 + its number, outranks them all). Rank orders them when several
// entry points run in turn (README "Several entry points"): a bug in
// gpudiff outweighs a disagreement, which outweighs the shader's own
// defect, which outweighs a refusal (an entry point that did not load, or
// whose twin or outputs could not be made), which outweighs a pass.
var exitCodes = []struct {
	code, rank int
	meaning    string
}{
	{exitOK, 0, "every run agrees with the reference"},
	{exitFound, 3, "a run disagrees, or a stack crashed or hung (a finding); in a campaign, a new failure"},
	{exitUsage, 1, "usage, input or compile error (source errors as file:line:col: …)"},
	{exitInternal, 4, "a bug in gpudiff itself"},
	{exitShader, 2, "the shader under test is at fault (a data race, inputs outside its domain); no stack is blamed"},
}

// exitOfClass is the exit code of each of check's exit classes (exec,
// view; check.Result.Exit). check.ExitFlatten, flatten's refusal, is an
// input error whose message the command prints (exitUsage).
var exitOfClass = map[check.Exit]int{
	check.ExitPass:      exitOK,
	check.ExitFound:     exitFound,
	check.ExitFlatten:   exitUsage,
	check.ExitNoOutputs: exitUsage,
	check.ExitShader:    exitShader,
}

// exitOfReplay is repro's exit code for each replay outcome (README
// "gpudiff repro"): the recorded failure again is a finding; something
// failing, but not as recorded, is reported as the shader's (exit 4:
// neither a pass nor the recorded finding).
var exitOfReplay = map[string]int{
	check.ReplayFixed:      exitOK,
	check.ReplayReproduces: exitFound,
	check.ReplayDifferent:  exitShader,
}

// worstExit is the exit code of several entry points' runs given two of
// their codes, by exitCodes' rank; an unknown code (a signal's) outweighs
// them all.
func worstExit(a, b int) int {
	rank := func(c int) int {
		for _, e := range exitCodes {
			if e.code == c {
				return e.rank
			}
		}
		return len(exitCodes)
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}
