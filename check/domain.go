package check

import (
	"errors"
	"strings"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Out-of-domain inputs (ARCHITECTURE.md "Verdicts that are never
// false"): inputs gpudiff made up (Options.Fill) may drive a real shader
// past what it handles — a loop bounded by a count read from a buffer
// runs to the step limit. That is neither a stack's fault nor the user's
// error: the verdict is oracle.OutOfDomain, naming the loop. Inputs the
// user gave (--inputs) keep the step limit an error (exit 2).

// stepLimitMsg starts interp's step-limit error message (interp/frame.go).
const stepLimitMsg = "step limit of "

// isStepLimit reports whether an interpreter error's text is the step
// limit ("file:line:col: interp: step limit of N exceeded …").
func isStepLimit(msg string) bool { return strings.Contains(msg, "interp: "+stepLimitMsg) }

// referenceVerdict is the verdict of a function kernel's judged runs v
// once the reference's unfinished invocations (refErr, Result.
// ReferenceErr) count: none leaves v; with made-up inputs (fill ≠ "")
// and only step limits, oracle.OutOfDomain — unless a finished invocation
// disagrees (oracle.Mismatch stands: that disagreement is real); anything
// else is oracle.Error.
func referenceVerdict(v oracle.Verdict, refErr []string, fill testcase.Fill) oracle.Verdict {
	if refErr == nil {
		return v
	}
	if fill == "" {
		return oracle.Error
	}
	for _, e := range refErr {
		if e != "" && !isStepLimit(e) {
			return oracle.Error
		}
	}
	if v == oracle.Mismatch {
		return v
	}
	return oracle.OutOfDomain
}

// entryOutOfDomain reports whether the reference dispatch's error err
// makes res out of domain: the inputs are made up (opts.Fill) and err is
// the step limit. It then sets res's Verdict and Domain; the dispatch is
// not run on any device (it would loop as long there).
func entryOutOfDomain(res *Result, err error, opts Options) bool {
	var ie *ir.Error
	if opts.Fill == "" || !errors.As(err, &ie) || ie.Pass != "interp" || !strings.HasPrefix(ie.Msg, stepLimitMsg) {
		return false
	}
	res.Verdict, res.Domain = oracle.OutOfDomain, err.Error()
	return true
}
