package campaign

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/fuzz/shrink"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// failingCase is what finishing a failing program needs of its kind: a
// function kernel (kernelFailure, campaign.go) or a compute entry point
// (entryFailure, entry.go), with the judged result its case file is
// written with.
type failingCase interface {
	// fn is the case's module and function (the kernel or entry point).
	fn() (*ir.Module, string)
	// again executes the case again with opts and attributes the result.
	again(ctx context.Context, opts check.Options) ([]check.Finding, error)
	// shrink minimizes the case within budget candidate executions
	// (made with sopts) while first persists and expired reports false (a
	// candidate tried after that counts as not failing, so the smallest
	// case found so far is kept), and returns the shrunk case with its
	// result executed with opts (the unshrunk result when that execution
	// fails).
	shrink(ctx context.Context, first check.Finding, budget int, expired func() bool, sopts, opts check.Options) failingCase
	// save writes the case file (saveRecord) and records it in rec.
	save(cfg Config, rec *ProgramRecord, first check.Finding, opts check.Options, prefix string, saved map[string]bool)
}

// finishFailure finishes the record of program i (opts: its check
// options), whose findings are recorded in rec and whose first finding is
// first: one path for every kind of case.
//
// A GPU finding must show up again before it is shrunk: a stack that
// answers differently for the same module is itself worth reporting, but
// as an unconfirmed (flaky) failure with what it first returned, not as a
// minimal case of something that does not reproduce. The exception is a
// GL first dispatch that ran out of time (slowFirstDispatch: on GL the
// compile ends there, under the compile and dispatch limits together)
// when the second run agrees everywhere: a slow compile, recorded as a
// performance note (noteSlowFirstDispatch).
//
// A known bug met again is recorded, not shrunk or saved: a compile error
// whose stack error is in the baseline or was already found (and shrunk,
// and saved) in this campaign; any other failure that a baseline pattern
// knows whatever the program ("vendor/wgpu-gl:llvmpipe/*"), signed with
// the unshrunk program's form.
//
// Otherwise the case is shrunk while the first finding (same class, same
// adapter) persists (shrinkBudget) and a Duration campaign's time is not
// up (a failure met at the deadline is saved as far as it was shrunk,
// ProgramRecord.ShrinkStopped), signed and saved. An interrupted
// campaign (ctx ended) saves nothing half-judged.
//
// A Duration campaign's pipeline ctx ends deadlineGrace after its deadline
// (errDeadline, pastDeadline): the confirmation, the shrinking candidates
// and the shrunk case's last execution then in flight are abandoned
// (check.Execute returns an error for runs cut short, so the shrunk case
// keeps the result it was found failing with).
// A failure whose confirmation did not happen by then is recorded as it
// is — unconfirmed (ProgramRecord.Flaky and Unconfirmed), saved unshrunk
// with the first run's outputs, not counted as new — unless the baseline
// knows it;
// one whose shrinking was cut is saved as far as it had shrunk.
func finishFailure(ctx context.Context, cfg Config, i int, rec ProgramRecord, first check.Finding, fc failingCase, opts check.Options, saved map[string]bool) ProgramRecord {
	m, fn := fc.fn()
	if cfg.Confirm && gpuClass(first.Class) {
		var fs []check.Finding
		var err error
		if ctx.Err() == nil {
			fs, err = fc.again(ctx, opts)
		}
		if ctx.Err() != nil {
			if !pastDeadline(ctx) {
				return rec
			}
			return unconfirmed(cfg, rec, first, fc, opts, saved)
		}
		if err == nil && len(fs) == 0 && slowFirstDispatch(rec, first) {
			return noteSlowFirstDispatch(rec, first)
		}
		if err == nil && !hasFinding(fs, first) {
			rec.Flaky = true
			rec.Implicates = "unconfirmed: " + first.Implicates + " — but a second run of the same modules agreed (a flaky stack or harness); saved unshrunk with the first run's outputs"
			rec.Signature = "unconfirmed/" + Signature(first, m, fn)
			fc.save(cfg, &rec, first, opts, "unconfirmed-", saved)
			return rec
		}
	}

	sig, byMessage := messageSignature(first)
	known := byMessage && knows(cfg.Baseline, sig)
	if !byMessage && cfg.Baseline.KnowsEvery(signaturePrefix(first)) {
		sig, known = Signature(first, m, fn), true
	}
	if known || (byMessage && saved[sig]) {
		rec.Signature, rec.Known, rec.ShrunkStmts = sig, known, rec.Stmts
		return rec
	}

	small := fc
	rec.ShrunkStmts = rec.Stmts
	if shrinks(cfg, first) {
		sopts := opts
		sopts.Label = fmt.Sprintf("s%d/", i) // shrinking runs are not program i's runs (fault injection)
		if check.BlamesFlatten(first.Class) {
			sopts.Devices = nil // the interpreter alone shows a flatten bug
		}
		t0 := time.Now()
		var stopped atomic.Bool // candidates are tried shrinkWorkers at a time
		expired := func() bool {
			if !cfg.deadline.IsZero() && !time.Now().Before(cfg.deadline) {
				stopped.Store(true)
				return true
			}
			return false
		}
		small = fc.shrink(ctx, first, shrinkBudget(cfg, first), expired, sopts, opts)
		rec.ShrinkStopped = stopped.Load()
		if cfg.shrinking != nil {
			cfg.shrinking.Add(int64(time.Since(t0)))
		}
		sm, sfn := small.fn()
		rec.ShrunkStmts = shrink.Stmts(sm, sfn)
	}
	if ctx.Err() != nil && !pastDeadline(ctx) {
		return rec // interrupted: nothing half-judged is saved
	}
	sm, sfn := small.fn()
	rec.Signature = Signature(first, sm, sfn)
	rec.ShrunkBugClasses = caseClasses(small)
	rec.Known = knows(cfg.Baseline, rec.Signature)
	small.save(cfg, &rec, first, opts, "", saved)
	return rec
}

// unconfirmed records a GPU failure whose confirmation a Duration
// campaign's deadline cut off: known to the baseline, it is known (as
// finishFailure records it); otherwise it is unconfirmed — not new, and
// counted with the flaky ones (Flaky), with Unconfirmed saying no second
// run was made — and saved unshrunk with the first run's outputs.
func unconfirmed(cfg Config, rec ProgramRecord, first check.Finding, fc failingCase, opts check.Options, saved map[string]bool) ProgramRecord {
	m, fn := fc.fn()
	sig, byMessage := messageSignature(first)
	if !byMessage {
		sig = Signature(first, m, fn)
	}
	if knows(cfg.Baseline, sig) || !byMessage && cfg.Baseline.KnowsEvery(signaturePrefix(first)) {
		rec.Signature, rec.Known, rec.ShrunkStmts = sig, true, rec.Stmts
		return rec
	}
	rec.Flaky, rec.Unconfirmed = true, true
	rec.Implicates = "unconfirmed: " + first.Implicates + " — the campaign's --duration ran out before a second run could confirm it; saved unshrunk with the first run's outputs"
	rec.Signature = "unconfirmed/" + Signature(first, m, fn)
	rec.ShrunkStmts = rec.Stmts
	fc.save(cfg, &rec, first, opts, "unconfirmed-", saved)
	return rec
}

// shrinkBudget is how many candidate executions shrinking a failure
// whose first finding is first may make: Config.ShrinkAttempts (0: 400),
// at most 30 for a crash (each attempt restarts a worker). Timeouts are
// not shrunk at all (shrinks: each attempt would cost a full timeout).
func shrinkBudget(cfg Config, first check.Finding) int {
	budget := cfg.ShrinkAttempts
	if budget == 0 {
		budget = 400
	}
	if first.Class == check.ClassCrash && budget > 30 {
		budget = 30
	}
	return budget
}

// slowFirstDispatch reports whether the failures of rec, whose first is
// first, are timeouts only, all of them on backends that compile at the
// first dispatch (a Vulkan hang beside them is not swallowed), the first
// a timeout of that phase (harness.FirstDispatchTimeout: GL, where Mesa's
// llvmpipe runs LLVM at a pipeline's first dispatch and no zero-workgroup
// dispatch can force it sooner). When a second run of the same modules
// then agrees everywhere, the likely story is a compile slower than the
// limits the first time, served from the driver's shader cache the
// second: a performance note, like a slow compile elsewhere, not a flaky
// stack.
func slowFirstDispatch(rec ProgramRecord, first check.Finding) bool {
	if first.Class != check.ClassTimeout || !strings.Contains(first.Message, harness.FirstDispatchTimeout) {
		return false
	}
	for _, c := range rec.Classes {
		if c != check.ClassTimeout {
			return false
		}
	}
	for _, a := range rec.Adapters {
		if _, backend, _, ok := harness.NameParts(a); !ok || !harness.CompilesAtFirstDispatch(backend) {
			return false
		}
	}
	return true
}

// noteSlowFirstDispatch records program rec, whose only failures were
// timeouts of a first dispatch on GL (slowFirstDispatch) that a second run
// did not repeat, as a slow compile of first's adapter: verdict
// slow-compile, a performance note (SlowCompiles), no finding.
func noteSlowFirstDispatch(rec ProgramRecord, first check.Finding) ProgramRecord {
	rec.Verdict = string(oracle.SlowCompile)
	rec.Classes, rec.Adapters, rec.Implicates = nil, nil, ""
	if !slices.Contains(rec.SlowCompiles, first.Adapter) {
		rec.SlowCompiles = append(rec.SlowCompiles, first.Adapter)
	}
	return rec
}
