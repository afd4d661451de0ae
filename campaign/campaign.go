package campaign

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gpudiff/gpudiff/baseline"
	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/fuzz/shrink"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Config configures a campaign: which programs (seed, count or
// duration, shard), how each is checked (devices, mode, SPIR-V) and what
// happens to failures (shrinking, corpus, baseline).
type Config struct {
	Seed     uint64        // campaign seed: program i is gen.Generate(gen.ProgramSeed(Seed, i), Gen)
	Count    int           // number of programs across all shards (0: until Duration ends)
	Duration time.Duration // wall-clock budget of the whole campaign, Spent included (0: Count decides)
	Gen      gen.Config
	// Spent is the wall-clock time earlier runs of a resumed campaign
	// already took (JournalProgress): it counts against Duration and is
	// included in Summary.Elapsed.
	Spent time.Duration
	// Invocations per program (default 16).
	Invocations int
	// Devices are the devices checked on, one per adapter. A device with
	// a Jobs() int method (harness/devices.Pool: N worker processes of
	// one adapter) runs that many programs at once, one per member, and
	// shrinking evaluates that many candidates at once; records, case
	// files and the summary do not depend on it.
	Devices []check.Device
	Mode    wgsl.Mode
	SPIRV   bool
	// Stages are the pipeline stages the GPU runs of a generated function
	// kernel are made in (check.Options.Stages; none: compute). Compute
	// entry points run in the compute stage only.
	Stages  []oracle.Stage
	Flatten flatten.Options
	Interp  interp.Options // the reference interpreter's limits (steps per invocation)
	// Shard and Shards split the program indices: this run checks the
	// indices i with i % Shards == Shard (Shards 0 or 1: all).
	Shard, Shards int
	// Corpus is the directory failures are saved to ("" = not saved).
	Corpus string
	// Baseline holds the known failures (signatures and patterns): they
	// are reported but do not make the campaign fail. nil: none.
	Baseline *baseline.Set
	// Confirm re-executes a program whose first finding rests on GPU runs
	// before shrinking it; a finding that does not come back is recorded
	// as unconfirmed (flaky), saved unshrunk and not counted as new.
	Confirm bool
	// ShrinkAttempts bounds the candidate executions per failure (0:
	// default 400; negative: do not shrink).
	ShrinkAttempts int
	ToolVersion    string
	// OnProgram, when set, receives each program's record as soon as it is
	// judged (progress bars, JSONL logs).
	OnProgram func(ProgramRecord)

	// deadline is when a Duration campaign's time is up (RunCampaign; zero:
	// none): shrinking stops there too. shrinking sums the wall time spent
	// shrinking failures (Summary.Shrinking).
	deadline  time.Time
	shrinking *atomic.Int64
	// Prior holds records of programs already checked (from a journal
	// being resumed): they are counted in the summary and not re-run.
	Prior []ProgramRecord
	// BatchPrograms is how many consecutive programs may share one shader
	// module per format on a device (check.RunUnit, check/batch.go): 0 means
	// DefaultBatchPrograms, 1 one module per function always. Each device
	// batches only while batching is measured to be faster on it.
	BatchPrograms int
}

// ProgramRecord is one checked program.
type ProgramRecord struct {
	Index       int           `json:"index"`
	Seed        uint64        `json:"seed"`
	Hash        string        `json:"hash"`
	Verdict     string        `json:"verdict"`
	Classes     []check.Class `json:"classes,omitempty"`    // finding classes, most specific first
	Adapters    []string      `json:"adapters,omitempty"`   // adapters of the findings
	Signature   string        `json:"signature,omitempty"`  // de-duplication key of the first finding
	Known       bool          `json:"known,omitempty"`      // in the baseline
	Flaky       bool          `json:"flaky,omitempty"`      // a GPU finding a second run did not confirm
	Case        string        `json:"case,omitempty"`       // saved case file (relative to the corpus)
	CaseError   string        `json:"case_error,omitempty"` // why the case file could not be written
	Implicates  string        `json:"implicates,omitempty"` // the first finding's explanation
	Outside     string        `json:"outside_subset,omitempty"`
	Stmts       int           `json:"stmts"`
	ShrunkStmts int           `json:"shrunk_stmts,omitempty"`
	// KnownBy is the baseline entry that knows Signature: the signature
	// itself, or a pattern (a family: "vendor/dawn-gl:*/*workgroupBarrier*");
	// KnownAs the project finding that entry is listed under in
	// findings/known.txt ("findings/compute/mesa_glsl_shared_load_after_barrier.wgsl";
	// "" for an entry of a --baseline file alone).
	KnownBy string `json:"known_by,omitempty"`
	KnownAs string `json:"known_as,omitempty"`
	// BugClasses are the bug classes (BugClassTable IDs, in its order) the
	// program exercises (BugClasses of its kernel or entry points); never
	// nil in a record this gpudiff made (nil: a journal of an older one).
	BugClasses []string `json:"bug_classes"`
	// ShrunkBugClasses are, for a failure, the classes of the program its
	// signature was taken from — the shrunk case, or the program itself
	// when it was not shrunk: the classes its bug falls in; nil for a
	// program without a failure.
	ShrunkBugClasses []string `json:"shrunk_bug_classes"`
	// ShrinkStopped: shrinking stopped when a Duration campaign's time was
	// up, so the saved case is as small as it got by then, not minimal.
	ShrinkStopped bool       `json:"shrink_stopped,omitempty"`
	Invocations   int        `json:"invocations"`
	Runs          []RunCount `json:"runs,omitempty"`
	// Unconfirmed: a GPU finding whose confirmation a Duration campaign's
	// deadline cut off (finishFailure): Flaky too — saved unshrunk with
	// the first run's outputs, not counted as new — but because no second
	// run was made, not because one disagreed.
	Unconfirmed bool `json:"unconfirmed,omitempty"`
	// SlowCompiles are the adapters (in device order) whose stack did not
	// finish compiling one of the program's modules within the compile
	// limit (oracle.SlowCompile): performance notes, never findings.
	SlowCompiles []string `json:"slow_compiles,omitempty"`
	// Millis is the wall-clock time the program took; it is not journaled,
	// so a resumed journal equals an uninterrupted one.
	Millis int64 `json:"-"`
	// Saved is the judged result the program's case file was written with
	// (nil when this run saved none, and in records read from a journal),
	// for reports that draw it; not journaled.
	Saved *SavedResult `json:"-"`
}

// SavedResult is the judged result of a saved case (of any kind: its
// Result's Case).
type SavedResult struct {
	Result *check.Result
}

// RunCount counts one program's runs on one adapter.
type RunCount struct {
	Adapter string `json:"adapter"`
	Runs    int    `json:"runs"`
}

// Summary totals a campaign.
type Summary struct {
	Seed        uint64
	Programs    int
	Invocations int
	RunsPer     map[string]int // runs per adapter ("interp" included)
	Verdicts    map[string]int
	New, Known  int // failures not in / in the baseline
	Flaky       int // GPU findings a second run did not confirm (saved, not counted as new)
	Elapsed     time.Duration
	// Shrinking is the wall time this run spent shrinking failures, summed
	// over them (part of Elapsed; a resumed campaign's earlier runs are
	// not counted).
	Shrinking time.Duration
	Failures  []ProgramRecord
	Hashes    []string // program hashes in check order (determinism checks)
	Indices   []int    // program indices, same order
	// ClassPrograms counts, per bug class ID, the programs that exercised
	// it (ProgramRecord.BugClasses); Unclassified the records that carry
	// no classes (journaled by a gpudiff from before bug classes).
	// ClassCounts puts them beside the bugs of each class.
	ClassPrograms map[string]int
	Unclassified  int
	// SlowCompiles lists, per adapter, the indices of the programs whose
	// module it did not finish compiling within the compile limit
	// (ProgramRecord.SlowCompiles), in campaign order: performance notes.
	SlowCompiles map[string][]int
	// Interrupted reports that ctx ended (Ctrl-C, SIGTERM) before the
	// campaign did: the summary covers the programs checked until then,
	// each recorded in full; a program interrupted mid-check has no record.
	Interrupted bool
}

// add counts one program's record, the next in campaign order (RunCampaign,
// MergeJournals: one rule for both).
func (s *Summary) add(rec ProgramRecord) {
	s.Programs++
	s.Invocations += rec.Invocations
	s.Verdicts[rec.Verdict]++
	for _, rc := range rec.Runs {
		s.RunsPer[rc.Adapter] += rc.Runs
	}
	s.Hashes = append(s.Hashes, rec.Hash)
	s.Indices = append(s.Indices, rec.Index)
	for _, a := range rec.SlowCompiles {
		if s.SlowCompiles == nil {
			s.SlowCompiles = map[string][]int{}
		}
		s.SlowCompiles[a] = append(s.SlowCompiles[a], rec.Index)
	}
	if rec.BugClasses == nil {
		s.Unclassified++
	}
	if s.ClassPrograms == nil {
		s.ClassPrograms = map[string]int{}
	}
	for _, c := range rec.BugClasses {
		s.ClassPrograms[c]++
	}
	if rec.Signature != "" {
		switch {
		case rec.Known:
			s.Known++
		case rec.Flaky:
			s.Flaky++
		default:
			s.New++
		}
		s.Failures = append(s.Failures, rec)
	}
}

// ProgramsPerSecond is the campaign's end-to-end throughput.
func (s *Summary) ProgramsPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Programs) / s.Elapsed.Seconds()
}

// RunCampaign generates and checks programs until Count or Duration is
// reached (or ctx ends: Summary.Interrupted), shrinking and saving each new
// failure. It returns the summary; an error only for setup problems
// (corpus not writable). Prior records are always part of the summary; a
// resumed Duration campaign checks new programs only while Spent plus this
// run's time is under Duration.
//
// Programs are checked in a pipeline (pipeline.go): the interpreter stages
// of later programs run while the devices compile earlier ones, every
// device runs in its own goroutine (devices of different adapters, worker
// processes, run in parallel), and a device runs several programs per
// shader module where it measures that this pays (check/batch.go). Records,
// OnProgram calls and the summary are those of checking the programs one
// after another, in index order. A Duration is checked before each
// program is started, so programs already in the pipeline (at most about
// a dozen) finish after it. The pipeline and the shrinking of failures
// take turns on a device, so it need not be safe for concurrent use.
func RunCampaign(ctx context.Context, cfg Config) (*Summary, error) {
	if cfg.Invocations <= 0 {
		cfg.Invocations = 16
	}
	if cfg.Shards <= 0 {
		cfg.Shards = 1
	}
	if cfg.Corpus != "" {
		if err := os.MkdirAll(cfg.Corpus, 0o755); err != nil {
			return nil, err
		}
	}
	sum := &Summary{Seed: cfg.Seed, RunsPer: map[string]int{}, Verdicts: map[string]int{}}
	start := time.Now().Add(-cfg.Spent) // the campaign's start, earlier runs included
	if cfg.Duration > 0 && cfg.deadline.IsZero() {
		cfg.deadline = start.Add(cfg.Duration)
	}
	cfg.shrinking = &atomic.Int64{}
	saved := map[string]bool{}
	prior := map[int]ProgramRecord{}
	for _, r := range cfg.Prior {
		prior[r.Index] = r
		if r.Signature != "" {
			saved[r.Signature] = true
		}
	}
	// Each device serves its pipeline stage and the shrinking of failures;
	// a pool's members serve one caller each already.
	devs := make([]check.Device, len(cfg.Devices))
	for k, d := range cfg.Devices {
		devs[k] = d
		if _, ok := d.(jobber); !ok {
			devs[k] = check.Locked(d)
		}
	}
	cfg.Devices = devs
	runPipeline(ctx, cfg, start, prior, saved, func(rec ProgramRecord, fresh bool) bool {
		if fresh {
			rec = annotateRecord(cfg, rec)
		}
		sum.add(rec)
		if cfg.OnProgram != nil && fresh {
			cfg.OnProgram(rec)
		}
		return true
	})
	sum.Elapsed = time.Since(start)
	sum.Shrinking = time.Duration(cfg.shrinking.Load())
	sum.Interrupted = ctx.Err() != nil
	return sum, nil
}

// program is one program of a campaign between the stages of checking
// it: generated and prepared (startProgram), run on the GPUs (the
// pipeline's device stages, or Execute's), judged (finishProgram).
type program struct {
	i    int
	t0   time.Time
	p    *gen.Program
	c    *testcase.Case
	opts check.Options
	rec  ProgramRecord
	// done reports that rec is complete without GPU runs: recursion (only
	// flatten's refusal is checked) or a program Execute cannot run.
	done bool
	x    *check.Execution
	// entry is set for a compute entry point (entry.go): checked with
	// check.ExecuteEntry in the prep stage, never batched.
	entry *entryProgram
}

// startProgram generates program i and runs its interpreter stages; its
// record has the program's bug classes.
func startProgram(cfg Config, i int) (pr *program) {
	defer func() {
		if pr != nil {
			pr.rec.BugClasses = programClasses(pr.p)
		}
	}()
	t0 := time.Now()
	// Program i is the public gopter generator's draw from the campaign's
	// parameters for i, gen.Generate(gen.ProgramSeed(Seed, i), …), kept
	// within the unroll cap flatten will check.
	gcfg := cfg.Gen
	if gcfg.MaxUnroll == 0 {
		gcfg.MaxUnroll = cfg.Flatten.MaxUnroll
	}
	p := gen.Programs(gcfg)(gen.CampaignParameters(cfg.Seed, i)).Result.(*gen.Program)
	if p.IsDraw() {
		return startDraw(cfg, i, t0, p)
	}
	if p.IsEntry() {
		return startEntry(cfg, i, t0, p)
	}
	ps := p.Seed
	f := p.Module.Func(p.Kernel)
	c := testcase.NewKernelCase(p.Module, p.Kernel, gen.Inputs(ps, f.Params, cfg.Invocations))
	rec := ProgramRecord{Index: i, Seed: ps, Hash: ir.Hash(ir.ProgramText(p.Module, p.Kernel)),
		Outside: p.OutsideSubset, Stmts: shrink.Stmts(p.Module, p.Kernel), Invocations: len(c.Args)}
	opts := check.Options{Devices: cfg.Devices, Flat: true, SPIRV: cfg.SPIRV, Stages: cfg.Stages, Mode: cfg.Mode, Flatten: cfg.Flatten, Interp: cfg.Interp,
		Label: fmt.Sprintf("p%d/", i)}
	pr = &program{i: i, t0: t0, p: p, c: c, opts: opts}
	if p.OutsideSubset == "recursion" {
		// Recursion is invalid WGSL (the interpreter and every stack refuse
		// it): only flatten's refusal path is exercised.
		_, ferr := flatten.Function(ir.CloneModule(p.Module), p.Kernel, cfg.Flatten)
		rec.Millis = time.Since(t0).Milliseconds()
		pr.done = true
		if flatten.IsRefusal(ferr) {
			rec.Verdict = string(oracle.FlattenRejected)
			pr.rec = rec
			return pr
		}
		rec.Verdict = string(oracle.Error)
		rec.Classes, rec.Adapters = []check.Class{check.ClassFlattenRefused}, []string{"flatten"}
		rec.Implicates = "flatten did not refuse a recursive program loudly"
		if ferr != nil {
			rec.Implicates += ": " + firstLine(ferr.Error())
		}
		rec.Signature = Signature(check.Finding{Class: check.ClassFlattenRefused, Adapter: "flatten"}, p.Module, p.Kernel)
		rec.Known = knows(cfg.Baseline, rec.Signature)
		pr.rec = rec
		return pr
	}
	x, err := check.Prepare(c, opts)
	if err != nil {
		rec.Verdict = string(oracle.Error)
		rec.Classes = []check.Class{check.ClassError}
		rec.Implicates = "gpudiff could not execute the generated program: " + err.Error()
		rec.Signature = errorSignature(err)
		rec.Millis = time.Since(t0).Milliseconds()
		pr.done = true
		pr.rec = rec
		return pr
	}
	pr.x = x
	pr.rec = rec
	return pr
}

// finishProgram judges a program's result and, on failure, shrinks and
// saves it. batched names the GPU runs of res that come from batch modules
// (check/batch.go, by check.RunName): when a finding rests on one of them, or a failure
// would be saved from res without shrinking, the program is executed again
// unbatched first, so that its record is the unbatched one.
func finishProgram(ctx context.Context, cfg Config, pr *program, res *check.Result, batched map[string]bool, saved map[string]bool) ProgramRecord {
	p, c, opts, rec, i, t0 := pr.p, pr.c, pr.opts, pr.rec, pr.i, pr.t0
	findings := classify(p, res)
	if len(batched) > 0 && len(findings) > 0 {
		again := !shrinks(cfg, findings[0])
		for _, fd := range findings {
			for _, r := range fd.Runs {
				again = again || batched[r]
			}
		}
		if again {
			if r, err := check.Execute(ctx, c, opts); err == nil {
				res, findings = r, classify(p, r)
			}
		}
	}
	countRuns(&rec, res)
	rec.Verdict = string(res.Verdict)
	if res.FlattenErr != nil && p.OutsideSubset != "" && flatten.IsRefusal(res.FlattenErr) && res.Verdict != oracle.Mismatch {
		rec.Verdict = string(oracle.FlattenRejected)
	}
	if len(findings) == 0 {
		rec.Millis = time.Since(t0).Milliseconds()
		return rec
	}
	rec.addFindings(findings)
	rec = finishFailure(ctx, cfg, i, rec, findings[0], &failure{p: p, c: c, res: res}, opts, saved)
	rec.Millis = time.Since(t0).Milliseconds()
	return rec
}

// failure is a failing program's case (of any kind) and its result: what
// finishFailure confirms, shrinks and saves.
type failure struct {
	p   *gen.Program
	c   *testcase.Case
	res *check.Result
}

func (f *failure) fn() (*ir.Module, string) { return f.c.Module, f.c.Func.Name }

func (f *failure) again(ctx context.Context, opts check.Options) ([]check.Finding, error) {
	r, err := check.Execute(ctx, f.c, opts)
	if err != nil {
		return nil, err
	}
	return classify(f.p, r), nil
}

// shrink minimizes the case with fuzz/shrink; each candidate carries the
// case's inputs over (testcase.Case.WithFunction: a kernel's arguments as the
// shrinker leaves them, an entry point's bindings fitted to the
// candidate) and counts while stillFails. Candidates are checked
// shrinkWorkers at a time; the first that still fails, in candidate
// order, wins: the result is the sequential one's
// (shrink.MinimizeParallel).
func (f *failure) shrink(ctx context.Context, first check.Finding, budget int, expired func() bool, sopts, opts check.Options) failingCase {
	still := func(sc shrink.Case) bool {
		return !expired() && stillFails(ctx, f.p, f.c, sc, sopts, first)
	}
	out := shrink.MinimizeParallel(shrink.Case{Module: f.c.Module, Kernel: f.c.Func.Name, Args: f.c.Args}, still, budget, shrinkWorkers(sopts.Devices))
	small := &failure{p: f.p, c: f.c.WithFunction(out.Module, out.Kernel, out.Args), res: f.res}
	if r, err := check.Execute(ctx, small.c, opts); err == nil {
		small.res = r
	}
	return small
}

// stillFails is the shrinking predicate: the candidate sc of orig keeps
// every barrier statement of the case, its reference must run (a
// shrinking edit that leaves a barrier non-uniform makes it fail) and
// report no data race (an edit that lets an invocation write a slot
// another reads in the same phase makes one), and the first finding must
// persist. Barriers are kept because the race detector cannot see every
// hazard their removal makes: an atomicLoad in the same phase as atomic
// read-modify-writes of the same counter is no race (both atomic) but its
// value depends on the order of the invocations, which the reference does
// not model (a shrunk case of `atomicSub(&c, 1u); atomicAdd(&h,
// atomicLoad(&c));` that every stack "disagrees" with is what dropping
// them gave). Function kernels have neither barriers nor races.
func stillFails(ctx context.Context, p *gen.Program, orig *testcase.Case, sc shrink.Case, opts check.Options, first check.Finding) bool {
	if barriers(sc.Module, sc.Kernel) < barriers(orig.Module, orig.Func.Name) {
		return false
	}
	r, err := check.Execute(ctx, orig.WithFunction(sc.Module, sc.Kernel, sc.Args), opts)
	if err != nil || len(r.Races) > 0 {
		return false
	}
	return hasFinding(classify(p, r), first)
}

func (f *failure) save(cfg Config, rec *ProgramRecord, first check.Finding, opts check.Options, prefix string, saved map[string]bool) {
	saveCase(cfg, rec, first, f.c, f.res, opts, prefix, saved)
}

// shrinkWorkers is how many shrinking candidates are checked at once: as
// many as the smallest pool among devs has members (each candidate runs
// on every device, one dispatch at a time), or, with no device (a flatten
// finding: the interpreter alone), one per CPU.
func shrinkWorkers(devs []check.Device) int {
	if len(devs) == 0 {
		return runtime.GOMAXPROCS(0)
	}
	n := jobsOf(devs[0])
	for _, d := range devs[1:] {
		n = min(n, jobsOf(d))
	}
	return n
}

// saveCase writes the failure's case file into the corpus once per
// signature (atomically) and records it in rec: Case its name ("" when
// nothing is saved), CaseError why a case that should have been written
// was not, and Saved the result it was written with.
func saveCase(cfg Config, rec *ProgramRecord, first check.Finding, c *testcase.Case, res *check.Result, opts check.Options, prefix string, saved map[string]bool) {
	rec.Case, rec.CaseError = saveRecord(cfg, *rec, first, c.Module, c.Func.Name, prefix, saved, func() *testcase.CaseRecord {
		return check.NewCaseRecord(c, res, opts, cfg.ToolVersion)
	})
	if rec.Case != "" && res != nil {
		rec.Saved = &SavedResult{Result: res}
	}
}

// saveRecord is saveCase for the case of function fn of m, whose record
// newRecord builds (only when the file is written).
func saveRecord(cfg Config, rec ProgramRecord, first check.Finding, m *ir.Module, fn, prefix string, saved map[string]bool, newRecord func() *testcase.CaseRecord) (name, failed string) {
	// saved also marks what was handled without a corpus: the same
	// compile error is not shrunk twice either way.
	if saved[rec.Signature] {
		return "", ""
	}
	saved[rec.Signature] = true
	if cfg.Corpus == "" {
		return "", ""
	}
	name = prefix + CaseFileName(first, ir.CanonicalHash(m, fn))
	path := filepath.Join(cfg.Corpus, name)
	if _, err := os.Stat(path); err == nil {
		return name, ""
	}
	r := newRecord()
	r.Signature = rec.Signature
	r.Seed = &testcase.SeedInfo{Campaign: cfg.Seed, Index: rec.Index, Program: rec.Seed, Size: cfg.Gen.Size, Profile: cfg.Gen.Profile.Name}
	if rec.Flaky {
		r.Note = rec.Implicates
	}
	if err := testcase.WriteCase(path, m, r); err != nil {
		return "", err.Error()
	}
	return name, ""
}

// addFindings records a program's findings (non-empty): their classes and
// adapters in order, and what the first implicates.
func (r *ProgramRecord) addFindings(fs []check.Finding) {
	for _, fd := range fs {
		r.Classes = append(r.Classes, fd.Class)
		r.Adapters = append(r.Adapters, fd.Adapter)
	}
	r.Implicates = fs[0].Implicates
}

// gpuClass reports whether a finding class rests on GPU runs (and so may
// come from a flaky stack): everything but the interpreter-only flatten
// classes and gpudiff's own errors.
func gpuClass(class check.Class) bool {
	switch class {
	case check.ClassFlatten, check.ClassFlattenRefused, check.ClassError, check.ClassRace:
		return false
	}
	return true
}

// hasFinding reports whether fs holds a finding of f's class on f's adapter.
// A compile error must also be the same error (messageKey): shrinking must
// not wander from one rejection to another.
func hasFinding(fs []check.Finding, f check.Finding) bool {
	for _, g := range fs {
		if g.Class == f.Class && g.Adapter == f.Adapter &&
			(f.Class != check.ClassCompileError || check.MessageKey(g.Message) == check.MessageKey(f.Message)) {
			return true
		}
	}
	return false
}

// shrinks reports whether a failure whose first finding is f is shrunk.
func shrinks(cfg Config, f check.Finding) bool {
	return cfg.ShrinkAttempts >= 0 && f.Class != check.ClassError && f.Class != check.ClassTimeout
}

// classify attributes a result (check.Result.Findings), adding the
// campaign's own expectations: a program inside the subset that flatten
// refuses is a failure; a program outside it that flatten accepts is fine
// (flatten proved more); generated entry points are inside flatten's
// subset, and race-free: a race the reference reports is a generator bug,
// a gpudiff-side failure.
func classify(p *gen.Program, res *check.Result) []check.Finding {
	fs := res.Findings()
	if res.FlattenErr != nil && (p.OutsideSubset == "" || !flatten.IsRefusal(res.FlattenErr)) {
		what := "a program inside its subset"
		if p.IsEntry() {
			what = "a generated entry point, which is inside its subset"
		}
		fs = append([]check.Finding{{Class: check.ClassFlattenRefused, Adapter: "flatten",
			Implicates: "flatten refused (or failed on) " + what + ": " + firstLine(res.FlattenErr.Error())}}, fs...)
	}
	if len(res.Races) > 0 {
		fs = slices.DeleteFunc(fs, func(f check.Finding) bool { return f.Class == check.ClassRace })
		fs = append([]check.Finding{{Class: check.ClassError, Adapter: "interp", Runs: []string{"interp " + res.ABI.Kernel + " ir"},
			Implicates: "the reference reports a data race in a generated entry point, which the compute profile makes race-free by construction (a generator bug): " + res.Races[0].String()}}, fs...)
	}
	return fs
}

func countRuns(rec *ProgramRecord, res *check.Result) {
	n := map[string]int{"interp": 1}
	order := []string{"interp"}
	for _, r := range res.Runs {
		if _, ok := n[r.Adapter]; !ok {
			order = append(order, r.Adapter)
		}
		n[r.Adapter]++
	}
	for _, a := range order {
		rec.Runs = append(rec.Runs, RunCount{Adapter: a, Runs: n[a]})
	}
}

// SortedKeys returns m's keys in order.
func SortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
