package campaign

import (
	"context"
	"fmt"
	"time"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/fuzz/shrink"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Compute entry points in a campaign (the "compute" profile: gen.Program.
// IsEntry). Such a program is a dispatch, checked with check.Execute
// (its bindings from gen.Bindings(seed), the generator's workgroups, the
// twin with Flat, SPIR-V with Config.SPIRV, on every device), in the prep
// stage: entry programs are never batched (check/batch.go merges function
// kernels), and the device stages pass them by (program.done). The
// collector judges them as kernels (classify, finishFailure: the same
// classes, signatures and bugs, one failing-case path), shrinks a new
// failure with fuzz/shrink — a candidate counts only when its reference
// dispatch still runs (no non-uniform barrier) and reports no data race,
// so the shrunk case is as race-free as the generated one (stillFails) —
// and saves it as an entry case file that `gpudiff repro` replays.

// entryProgram is an entry point between prep and the collector.
type entryProgram struct {
	c    *testcase.Case
	opts check.Options
	res  *check.Result
	err  error // Execute's setup failure: a gpudiff-side failure
}

// startEntry prepares program i, a compute entry point: its case, and a
// record whose runs the prep stage makes (entryProgram.run).
func startEntry(cfg Config, i int, t0 time.Time, p *gen.Program) *program {
	c := testcase.NewComputeCase(p.Module, p.Kernel, p.Workgroups, testcase.MustBindingBuffers(p.Module, gen.Bindings(p.Seed, p.Module)))
	c.Textures, c.Samplers = p.Textures, p.Samplers
	f := p.Module.Func(p.Kernel)
	inv := int(f.WorkgroupSize[0] * f.WorkgroupSize[1] * f.WorkgroupSize[2] * p.Workgroups[0] * p.Workgroups[1] * p.Workgroups[2])
	rec := ProgramRecord{Index: i, Seed: p.Seed, Hash: ir.Hash(ir.ProgramText(p.Module, p.Kernel)),
		Stmts: shrink.Stmts(p.Module, p.Kernel), Invocations: inv}
	opts := check.Options{Devices: cfg.Devices, Flat: true, SPIRV: cfg.SPIRV, Mode: cfg.Mode, Flatten: cfg.Flatten, Interp: cfg.Interp,
		Label: fmt.Sprintf("p%d/", i)}
	return &program{i: i, t0: t0, p: p, opts: opts, rec: rec, done: true, entry: &entryProgram{c: c, opts: opts}}
}

// run dispatches the entry point on the reference and every device.
func (e *entryProgram) run(ctx context.Context) {
	if e.err != nil {
		return // the case could not be made (startDraw)
	}
	e.res, e.err = check.Execute(ctx, e.c, e.opts)
}

// finishEntry is finishProgram for an entry point: judge, confirm, shrink
// and save (finishFailure, the one path of every kind).
func finishEntry(ctx context.Context, cfg Config, pr *program, saved map[string]bool) ProgramRecord {
	e, rec, t0 := pr.entry, pr.rec, pr.t0
	defer func() { rec.Millis = time.Since(t0).Milliseconds() }()
	if e.err != nil {
		rec.Verdict = string(oracle.Error)
		rec.Classes = []check.Class{check.ClassError}
		rec.Implicates = "gpudiff could not execute the generated entry point: " + firstLine(e.err.Error())
		rec.Signature = errorSignature(e.err)
		return rec
	}
	res := e.res
	findings := classify(pr.p, res)
	countRuns(&rec, res)
	rec.Verdict = string(res.Verdict)
	if len(findings) == 0 {
		return rec
	}
	rec.addFindings(findings)
	return finishFailure(ctx, cfg, pr.i, rec, findings[0], &failure{p: pr.p, c: e.c, res: res}, e.opts, saved)
}

// barriers counts the barrier calls (workgroupBarrier, storageBarrier)
// in entry and the functions it calls.
func barriers(m *ir.Module, entry string) int {
	n := 0
	for _, f := range m.CallGraph(entry) {
		ir.Inspect(f.Body, func(x ir.Node) bool {
			if bc, ok := x.(*ir.BuiltinCall); ok && bc.Fn.Info().Class == ir.ClassBarrier {
				n++
			}
			return true
		})
	}
	return n
}
