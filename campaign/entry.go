package campaign

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/fuzz/shrink"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Compute entry points in a campaign (the "compute" profile: gen.Program.
// IsEntry). Such a program is a dispatch, checked with check.ExecuteEntry
// (its bindings from gen.Bindings(seed), the generator's workgroups, the
// twin with Flat, SPIR-V with Config.SPIRV, on every device), in the prep
// stage: entry programs are never batched (check/batch.go merges function
// kernels), and the device stages pass them by (program.done). The
// collector judges them like kernels (check.AttributeEntry: the same
// classes, signatures and bugs), shrinks a new failure with fuzz/shrink —
// a candidate counts only when its reference dispatch still runs (no
// non-uniform barrier) and reports no data race, so the shrunk case is as
// race-free as the generated one — and saves it as an entry case file
// (check.NewEntryRecord) that `gpudiff repro` replays.

// entryProgram is an entry point between prep and the collector.
type entryProgram struct {
	c    *check.ComputeCase
	opts check.Options
	res  *check.EntryResult
	err  error // ExecuteEntry's setup failure: a gpudiff-side failure
}

// startEntry prepares program i, a compute entry point: its case, and a
// record whose runs the prep stage makes (runEntry).
func startEntry(cfg Config, i int, t0 time.Time, p *gen.Program) *program {
	c := &check.ComputeCase{Module: p.Module, Entry: p.Kernel, Workgroups: p.Workgroups, Buffers: check.MustBindingBuffers(p.Module, gen.Bindings(p.Seed, p.Module)),
		Textures: p.Textures, Samplers: p.Samplers}
	f := p.Module.Func(p.Kernel)
	inv := int(f.WorkgroupSize[0] * f.WorkgroupSize[1] * f.WorkgroupSize[2] * p.Workgroups[0] * p.Workgroups[1] * p.Workgroups[2])
	rec := ProgramRecord{Index: i, Seed: p.Seed, Hash: ir.Hash(ir.ProgramText(p.Module, p.Kernel)),
		Stmts: shrink.Stmts(p.Module, p.Kernel), Invocations: inv}
	opts := check.Options{Devices: cfg.Devices, Flat: true, SPIRV: cfg.SPIRV, Mode: cfg.Mode, Flatten: cfg.Flatten, Interp: cfg.Interp,
		Label: fmt.Sprintf("p%d/", i)}
	return &program{i: i, t0: t0, p: p, opts: opts, rec: rec, done: true, entry: &entryProgram{c: c, opts: opts}}
}

// runEntry dispatches the entry point on the reference and every device.
func (e *entryProgram) run(ctx context.Context) {
	e.res, e.err = check.ExecuteEntry(ctx, e.c, e.opts)
}

// classifyEntry attributes an entry point's result, adding the
// campaign's expectations of generated entry points: they are inside
// flatten's subset, and race-free (a race the reference reports is a
// generator bug, a gpudiff-side failure).
func classifyEntry(c *check.ComputeCase, res *check.EntryResult) []check.Finding {
	fs := check.AttributeEntry(c, res)
	if res.FlattenErr != nil {
		fs = append([]check.Finding{{Class: check.ClassFlattenRefused, Adapter: "flatten",
			Implicates: "flatten refused (or failed on) a generated entry point, which is inside its subset: " + firstLine(res.FlattenErr.Error())}}, fs...)
	}
	if len(res.Races) > 0 {
		fs = slices.DeleteFunc(fs, func(f check.Finding) bool { return f.Class == check.ClassRace })
		fs = append([]check.Finding{{Class: check.ClassError, Adapter: "interp", Runs: []string{"interp " + c.Entry + " ir"},
			Implicates: "the reference reports a data race in a generated entry point, which the compute profile makes race-free by construction (a generator bug): " + res.Races[0].String()}}, fs...)
	}
	return fs
}

// finishEntry is finishProgram for an entry point: judge, confirm, shrink
// and save.
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
	findings := classifyEntry(e.c, res)
	countRuns(&rec, res.AsResult(e.c.Entry))
	rec.Verdict = string(res.Verdict)
	if len(findings) == 0 {
		return rec
	}
	rec.addFindings(findings)
	return finishFailure(ctx, cfg, pr.i, rec, findings[0], &entryFailure{c: e.c, res: res}, e.opts, saved)
}

// entryFailure is a failing entry point's case and its result (the
// kind-specific part of finishFailure).
type entryFailure struct {
	c   *check.ComputeCase
	res *check.EntryResult
}

func (e *entryFailure) fn() (*ir.Module, string) { return e.c.Module, e.c.Entry }

func (e *entryFailure) again(ctx context.Context, opts check.Options) ([]check.Finding, error) {
	r, err := check.ExecuteEntry(ctx, e.c, opts)
	if err != nil {
		return nil, err
	}
	return classifyEntry(e.c, r), nil
}

func (e *entryFailure) shrink(ctx context.Context, first check.Finding, budget int, expired func() bool, sopts, opts check.Options) failingCase {
	out := shrink.MinimizeParallel(shrink.Case{Module: e.c.Module, Kernel: e.c.Entry},
		func(sc shrink.Case) bool { return !expired() && entryStillFails(ctx, e.c, sc, sopts, first) }, budget, shrinkWorkers(sopts.Devices))
	small := &entryFailure{c: shrunkEntry(e.c, out), res: e.res}
	if r, err := check.ExecuteEntry(ctx, small.c, opts); err == nil {
		small.res = r
	}
	return small
}

func (e *entryFailure) save(cfg Config, rec *ProgramRecord, first check.Finding, opts check.Options, prefix string, saved map[string]bool) {
	saveEntryCase(cfg, rec, first, e.c, e.res, opts, prefix, saved)
}

// shrunkEntry is the entry case of a shrinking candidate: the original's
// workgroups, and the original's bindings that the candidate still
// declares, fitted to the candidate's type (bindingValue: a struct the
// shrinker dropped members of keeps the values of the members it still
// has). A binding the shrinker dropped, or whose value does not fit, is
// left out: ExecuteEntry then fills it with zeros. Textures and samplers
// the candidate still declares keep their contents (the shrinker never
// changes a texture's type).
func shrunkEntry(orig *check.ComputeCase, sc shrink.Case) *check.ComputeCase {
	bufs := map[string]ir.Buffer{}
	for name, v := range check.BindingValues(orig.Buffers) {
		if g := sc.Module.SharedVar(name); g != nil && g.Space != ir.SpaceWorkgroup {
			if fv, ok := bindingValue(v, g.T); ok {
				if b, err := ir.NewBuffer(g.T, fv); err == nil {
					bufs[name] = b
				}
			}
		}
	}
	c := &check.ComputeCase{Module: sc.Module, Entry: sc.Kernel, Workgroups: orig.Workgroups, Buffers: bufs}
	for _, v := range sc.Module.Textures {
		if t, ok := orig.Textures[v.Name]; ok {
			if c.Textures == nil {
				c.Textures = map[string]*interp.Texture{}
			}
			c.Textures[v.Name] = t
		}
		if s, ok := orig.Samplers[v.Name]; ok {
			if c.Samplers == nil {
				c.Samplers = map[string]*interp.Sampler{}
			}
			c.Samplers[v.Name] = s
		}
	}
	return c
}

// bindingValue fits v, a binding's value in the shape check.ComputeCase
// takes (an atomic as its scalar), to the binding type t of a shrinking
// candidate. ir.Identical is not enough: structs are nominal, and the
// shrinker drops unused members of a struct (fuzz/shrink edit 8) without
// renaming it, so the value of the original Params would no longer match
// the candidate's Params (its bytes misplaced, its case file unreadable:
// "struct Params has no member f0"). A struct takes the members t still
// has, by name; arrays, vectors and matrices element by element (same
// length); scalars as they are. It reports false when v cannot fit t.
func bindingValue(v ir.Value, t *ir.Type) (ir.Value, bool) {
	if t.Kind == ir.KindAtomic {
		t = t.Elem
	}
	switch t.Kind {
	case ir.KindStruct:
		if v.Type.Kind != ir.KindStruct || v.Type.Struct.Name != t.Struct.Name {
			return ir.Value{}, false
		}
		out := ir.Value{Type: t, Elems: make([]ir.Value, len(t.Struct.Fields))}
		for i, f := range t.Struct.Fields {
			j := -1
			for k, g := range v.Type.Struct.Fields {
				if g.Name == f.Name {
					j = k
				}
			}
			if j < 0 {
				return ir.Value{}, false
			}
			e, ok := bindingValue(v.Elems[j], f.Type)
			if !ok {
				return ir.Value{}, false
			}
			out.Elems[i] = e
		}
		return out, true
	case ir.KindArray, ir.KindRuntimeArray, ir.KindVec, ir.KindMat:
		if v.Type.Kind != t.Kind || (t.Kind != ir.KindRuntimeArray && len(v.Elems) != t.Len) {
			return ir.Value{}, false
		}
		out := ir.Value{Type: t, Elems: make([]ir.Value, len(v.Elems))}
		for i, e := range v.Elems {
			fe, ok := bindingValue(e, t.Elem)
			if !ok {
				return ir.Value{}, false
			}
			out.Elems[i] = fe
		}
		return out, true
	}
	return v, ir.Identical(v.Type, t)
}

// entryStillFails is the shrinking predicate of an entry point: the
// candidate keeps every barrier statement of the case, its reference
// dispatch must run (a shrinking edit that leaves a barrier non-uniform
// makes it fail) and report no data race (an edit that lets an
// invocation write a slot another reads in the same phase makes one),
// and the first finding must persist. Barriers are kept because the race
// detector cannot see every hazard their removal makes: an atomicLoad in
// the same phase as atomic read-modify-writes of the same counter is no
// race (both atomic) but its value depends on the order of the
// invocations, which the reference does not model (a shrunk case of
// `atomicSub(&c, 1u); atomicAdd(&h, atomicLoad(&c));` that every stack
// "disagrees" with is what dropping them gave).
func entryStillFails(ctx context.Context, orig *check.ComputeCase, sc shrink.Case, opts check.Options, first check.Finding) bool {
	if barriers(sc.Module, sc.Kernel) < barriers(orig.Module, orig.Entry) {
		return false
	}
	c := shrunkEntry(orig, sc)
	r, err := check.ExecuteEntry(ctx, c, opts)
	if err != nil || len(r.Races) > 0 {
		return false
	}
	return hasFinding(classifyEntry(c, r), first)
}

// saveEntryCase is saveCase for an entry point's case.
func saveEntryCase(cfg Config, rec *ProgramRecord, first check.Finding, c *check.ComputeCase, res *check.EntryResult, opts check.Options, prefix string, saved map[string]bool) {
	rec.Case, rec.CaseError = saveRecord(cfg, *rec, first, c.Module, c.Entry, prefix, saved, func() *check.CaseRecord {
		return check.NewEntryRecord(c, res, opts, cfg.ToolVersion)
	})
	if rec.Case != "" && res != nil {
		rec.Saved = &SavedResult{Entry: res, EntryName: c.Entry}
	}
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
