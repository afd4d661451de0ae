package check

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Device runs compute kernels on one adapter (harness.Device, or an
// isolated worker process speaking for one).
type Device interface {
	Info() harness.AdapterInfo
	Run(ctx context.Context, k harness.Kernel, job harness.Dispatch) ([]byte, error)
}

// DeviceDrivers are the driver records of devs, in order, each adapter's
// driver filled in as harness.WithDriver does (repro's note compares them
// with a case file's).
func DeviceDrivers(devs []Device) []harness.DriverRecord {
	var out []harness.DriverRecord
	for _, d := range devs {
		out = append(out, harness.WithDriver(d.Info()).Record())
	}
	return out
}

// Options selects the paths Execute runs.
type Options struct {
	Devices []Device // GPU adapters to run on (none: interpreter only)
	Flat    bool     // also flatten the kernel and run the twin everywhere
	SPIRV   bool     // also run our SPIR-V of each function on each adapter
	// Stages are the pipeline stages every GPU run is made in, in this
	// order (ARCHITECTURE.md "Kernel ABI"): oracle.StageCompute,
	// oracle.StageFragment; none means compute only.
	Stages  []oracle.Stage
	Mode    wgsl.Mode // emission mode for WGSL and SPIR-V ("" = portable)
	Flatten flatten.Options
	Interp  interp.Options
	// Fill is how the inputs were made up (exec --fill), "" when they were
	// given (--inputs, a campaign's generator): with a fill, a reference
	// that runs past the step limit makes the verdict oracle.OutOfDomain
	// (check/domain.go), not oracle.Error.
	Fill testcase.Fill
	// Label prefixes the label of every GPU dispatch (harness.Kernel.Label,
	// used in reports and by worker fault injection): each dispatch is
	// labelled Label + "<function>/<format>".
	Label string
}

// Result is the outcome of Execute for a case of any kind: the reference,
// every judged run and the overall verdict. A function kernel's has one
// invocation per argument list; a fragment entry point's one per pixel
// (row-major, its position the argument), whose one output "ret" is the
// fragment's colour; a compute entry point's one invocation, the dispatch
// (see ComputeResult).
type Result struct {
	// Case and Options are what ran (Execute's arguments); Case is nil for
	// a result judged from an Execution of a KernelCase made without one.
	Case      *testcase.Case
	Options   Options
	ABI       *ir.KernelABI
	Names     []string            // output names, ABI order
	Reference [][]oracle.Expected // [invocation][output]
	Twin      string              // the twin's name when flattened
	Runs      []oracle.Judged
	Verdict   oracle.Verdict
	// ReferenceErr[i], when non-empty, is why the reference interpreter
	// could not finish invocation i (its step limit, interp.Options.
	// MaxSteps); nil when every invocation finished. A reference error
	// makes Verdict Error: nothing can be judged against that invocation.
	ReferenceErr []string
	// FlattenErr is flatten's refusal or failure when Flat was requested
	// (the twin's runs are then absent and Verdict is FlattenRejected).
	FlattenErr error
	// ComputeResult is a compute entry point's dispatch: its bindings,
	// races and skipped runs (empty for the other kinds; IsCompute).
	ComputeResult
}

// IsCompute reports whether res is a compute entry point's: one
// invocation, the dispatch, whose outputs are bindings (ComputeResult).
func (res *Result) IsCompute() bool { return res.Case != nil && res.Case.Kind == testcase.KindCompute }

// Execute runs c on the paths opts selects and judges every run against
// the interpreter's run of the original, for a case of any kind. Errors
// are setup failures (an unknown kernel or entry point, arguments or
// bindings that do not fit, a target size out of range, the reference's
// own failure: see each kind's Prepare); failures of individual runs
// become their verdicts. A ctx that ends before every run is made is an
// error wrapping its cause (context.Cause), not a result: the runs it cut
// short would read as failures of the stack.
//
// Execute is its three stages in order: Prepare, DeviceRuns on every
// device, Judge. A campaign runs the same stages, spread over a pipeline.
func Execute(ctx context.Context, c *testcase.Case, opts Options) (*Result, error) {
	opts.Interp.Context = ctx // the reference stops when ctx ends (SIGTERM, --duration)
	x, err := Prepare(c, opts)
	if err != nil {
		return nil, err
	}
	runs := make([][]oracle.Run, len(opts.Devices))
	for k, d := range opts.Devices {
		runs[k] = x.DeviceRuns(ctx, d)
	}
	if ctx.Err() != nil {
		// Runs cut short (an abandoned dispatch reads as a failure of its
		// own) are no result: never judged, never reported.
		return nil, fmt.Errorf("check: the case's GPU runs were cut short: %w", context.Cause(ctx))
	}
	return x.Judge(runs), nil
}

// kindExecution is what a kind of case other than a function kernel
// implements to run through Execute's stages (prepareCompute,
// prepareFragment make one; a function kernel's stages are Execution's
// own methods, which the campaign's batches use too).
type kindExecution interface {
	// deviceRuns makes every run of the case on one device.
	deviceRuns(ctx context.Context, d Device) []oracle.Run
	// judge judges the runs of every device, in device order.
	judge(devRuns [][]oracle.Run) *Result
}

// Execution is a case between Execute's stages: the reference and the
// twin's interpreter run are done (Prepare), the GPU runs are not
// (DeviceRuns, or the same dispatches made by a caller: Functions,
// Formats, Kernel, Dispatch, NewRun, Decode, FailRun), nothing is judged
// yet (Judge). Its methods may be called from several goroutines once
// Prepare returns; a caller that makes the dispatches itself (the
// campaign's pipeline and its batches) builds each run with NewRun and
// Decode or FailRun, exactly as DeviceRuns does.
type Execution struct {
	kind  kindExecution // a compute or fragment entry point's stages; nil for a function kernel
	cs    *testcase.Case
	c     *testcase.KernelCase
	opts  Options
	mode  wgsl.Mode
	res   *Result
	mod   *ir.Module // c.Module, or its clone holding the twin
	funcs []string   // the kernel, then the twin when there is one
	tabis []*ir.KernelABI
	runs  []oracle.Run // the twin's interpreter run, when there is one
	in    []byte       // the encoded arguments
	n     int
	// kernels caches each function's emitted modules: [function][path
	// index: pathIndex].
	kernels [][len(allPaths)]emitted
	// work estimates what compiling one module of each function costs
	// (IR nodes of its call graph, plus a module's fixed share).
	work int
	// subgroups: the case uses subgroup operations (a variant adapter
	// runs it), decided once at Prepare.
	subgroups bool
}

// emitted is one function's module in one format, emitted once.
type emitted struct {
	once sync.Once
	k    harness.Kernel
	err  error
}

// Path is what one GPU run of a function runs: its module's format in a
// pipeline stage.
type Path struct {
	Format oracle.Format // oracle.FormatWGSL or oracle.FormatSPIRV
	Stage  oracle.Stage  // oracle.StageCompute or oracle.StageFragment
}

func (p Path) String() string { return string(p.Format) + "/" + string(p.Stage) }

// allPaths are the paths of GPU runs in Execute's order (per stage, WGSL
// then SPIR-V); a path's index here is its slot in Execution.kernels.
var allPaths = [4]Path{
	{oracle.FormatWGSL, oracle.StageCompute}, {oracle.FormatSPIRV, oracle.StageCompute},
	{oracle.FormatWGSL, oracle.StageFragment}, {oracle.FormatSPIRV, oracle.StageFragment},
}

// pathIndex is p's index in allPaths.
func pathIndex(p Path) int {
	i := 0
	if p.Format == oracle.FormatSPIRV {
		i = 1
	}
	if p.Stage == oracle.StageFragment {
		i += 2
	}
	return i
}

// moduleWork is a module's fixed share of compiling it, in IR nodes (the
// ABI wrapper, and what a stack spends on any module: a small generated
// function has a few hundred nodes).
const moduleWork = 300

// Prepare runs the interpreter stages of Execute for a case of any kind:
// the reference, flatten and the twin's run, and the inputs laid out for
// the devices. Its errors are Execute's. Only a function kernel's
// Execution is batched (Batchable) and made by callers dispatch by
// dispatch (Functions, Kernel, Dispatch, NewRun, Decode); every kind's
// runs through DeviceRuns and Judge.
func Prepare(c *testcase.Case, opts Options) (*Execution, error) {
	if c.Func == nil {
		return nil, errors.New("check: the case names no function (Case.Func is nil)")
	}
	var x *Execution
	switch c.Kind {
	case testcase.KindCompute:
		k, err := prepareCompute(c.Entry(), opts)
		if err != nil {
			return nil, err
		}
		x = &Execution{kind: k, res: k.res}
	case testcase.KindFragment:
		k, err := prepareFragment(c.Fragment(), opts)
		if err != nil {
			return nil, err
		}
		x = &Execution{kind: k, res: k.res}
	case testcase.KindDraw:
		k, err := prepareDraw(c, opts)
		if err != nil {
			return nil, err
		}
		x = &Execution{kind: k, res: k.res}
	default:
		var err error
		if x, err = prepareKernel(c.Kernel(), opts); err != nil {
			return nil, err
		}
	}
	x.cs, x.opts = c, opts
	x.subgroups = c.Module.UsesSubgroups(c.Func.Name)
	// The result keeps what the case ran with, not the devices or the
	// context it ran in (its runs name their adapters).
	kept := opts
	kept.Devices, kept.Interp.Context = nil, nil
	x.res.Case, x.res.Options = c, kept
	return x, nil
}

// Batchable reports whether x is a function kernel's, whose dispatches a
// caller may make itself and batch with others' (NewBatch, RunUnit).
func (x *Execution) Batchable() bool { return x.kind == nil }

// prepareKernel is Prepare for a function kernel.
func prepareKernel(c *testcase.KernelCase, opts Options) (*Execution, error) {
	abi, err := ir.NewKernelABI(c.Module, c.Kernel)
	if err != nil {
		return nil, err
	}
	res := &Result{ABI: abi}
	for _, o := range abi.Outputs {
		res.Names = append(res.Names, o.Name)
	}
	ref, refErr, err := interpRun(c.Module, c.Kernel, c.Args, opts.Interp)
	if err != nil {
		return nil, err
	}
	res.Reference, res.ReferenceErr = ref, refErr

	mode := opts.Mode
	if mode == "" {
		mode = wgsl.Portable
	}
	x := &Execution{c: c, opts: opts, mode: mode, res: res, mod: c.Module, funcs: []string{c.Kernel}}
	if opts.Flat {
		mod := ir.CloneModule(c.Module)
		tw, ferr := flatten.Function(mod, c.Kernel, opts.Flatten)
		if ferr != nil {
			res.FlattenErr = ferr
		} else {
			x.mod = mod
			res.Twin = tw.Name
			x.funcs = append(x.funcs, tw.Name)
			outs, invErr, err := interpRun(mod, tw.Name, c.Args, opts.Interp)
			r := oracle.Run{Adapter: "interp", Function: tw.Name, Format: oracle.FormatIR, Outputs: outs, InvocationErr: invErr}
			if err != nil {
				r.Outputs, r.Failed, r.Message = nil, oracle.Error, err.Error()
			}
			x.runs = append(x.runs, r)
		}
	}
	if x.in, err = abi.EncodeInputs(c.Args); err != nil {
		return nil, err
	}
	x.n = len(c.Args)
	for _, fn := range x.funcs {
		tabi, err := ir.NewKernelABI(x.mod, fn)
		if err != nil {
			return nil, err
		}
		x.tabis = append(x.tabis, tabi)
	}
	x.kernels = make([][len(allPaths)]emitted, len(x.funcs))
	for _, fn := range x.funcs {
		x.work += moduleWork
		for _, f := range x.mod.CallGraph(fn) {
			ir.Inspect(f.Body, func(ir.Node) bool { x.work++; return true })
		}
	}
	return x, nil
}

// Module is the module the GPU runs are emitted from: the case's module,
// or its clone holding the twin when the case was flattened. Callers must
// not change it.
func (x *Execution) Module() *ir.Module { return x.mod }

// Functions are the functions the GPU runs run, by index f of the other
// methods: the kernel (f = 0), then its twin when there is one.
func (x *Execution) Functions() []string { return x.funcs }

// ABI is function f's kernel ABI (ARCHITECTURE.md "Kernel ABI"); the
// kernel and its twin share the input layout.
func (x *Execution) ABI(f int) *ir.KernelABI { return x.tabis[f] }

// Paths are the paths of each function's GPU runs, in Execute's order:
// per stage of Options.Stages (compute when none), oracle.FormatWGSL, then
// oracle.FormatSPIRV when Options.SPIRV is set.
func (x *Execution) Paths() []Path { return Paths(x.opts) }

// Paths are the paths of each function's GPU runs that opts select, in
// Execute's order (Execution.Paths).
func Paths(opts Options) []Path {
	stages := opts.Stages
	if len(stages) == 0 {
		stages = []oracle.Stage{oracle.StageCompute}
	}
	var ps []Path
	for _, st := range stages {
		for _, p := range allPaths {
			if p.Stage == st && (opts.SPIRV || p.Format == oracle.FormatWGSL) {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// Mode is the emission mode of the GPU runs (Options.Mode, portable when
// unset).
func (x *Execution) Mode() wgsl.Mode { return x.mode }

// Label is the prefix of every dispatch label (Options.Label).
func (x *Execution) Label() string { return x.opts.Label }

// Inputs are the encoded arguments of every invocation (the kernel ABI's
// input records), shared by the kernel and its twin.
func (x *Execution) Inputs() []byte { return x.in }

// Invocations is the number of invocations of each run.
func (x *Execution) Invocations() int { return x.n }

// Work estimates what compiling one module of every function costs: the
// IR nodes of each function's call graph plus a fixed share per module
// (the unit a campaign measures compile time in).
func (x *Execution) Work() int { return x.work }

// EmitKernel emits function fn of m as a kernel (ARCHITECTURE.md "Kernel
// ABI") on path p (format oracle.FormatWGSL or oracle.FormatSPIRV, stage
// oracle.StageCompute or oracle.StageFragment) in mode, labelled label:
// the one way every GPU run's module is made.
func EmitKernel(m *ir.Module, fn string, p Path, mode wgsl.Mode, label string) (harness.Kernel, error) {
	frag := p.Stage == oracle.StageFragment
	stage := harness.ComputeStage
	if frag {
		stage = harness.FragmentStage
	}
	if p.Format == oracle.FormatWGSL {
		src, entry, err := wgsl.Emit(m, fn, wgsl.EmitOptions{Mode: mode, Fragment: frag})
		return harness.Kernel{WGSL: src, EntryPoint: entry, Label: label, Stage: stage}, err
	}
	words, err := spirv.Emit(m, fn, spirv.Options{Mode: mode, Fragment: frag})
	return harness.Kernel{SPIRV: words, EntryPoint: spirv.EntryPoint, Label: label, Stage: stage}, err
}

// PathLabel is the part of a dispatch label that names path p:
// "<format>" in the compute stage, "<format>/fragment" in the fragment
// stage (compute labels are what they were before stages).
func PathLabel(p Path) string {
	if p.Stage == oracle.StageFragment {
		return string(p.Format) + "/" + string(p.Stage)
	}
	return string(p.Format)
}

// Kernel returns function f's module on path p, emitting it on first use.
// Its label is Label() + "<function>/" + PathLabel(p).
func (x *Execution) Kernel(f int, p Path) (harness.Kernel, error) {
	e := &x.kernels[f][pathIndex(p)]
	e.once.Do(func() {
		fn := x.funcs[f]
		e.k, e.err = EmitKernel(x.mod, fn, p, x.mode, x.opts.Label+fn+"/"+PathLabel(p))
	})
	return e.k, e.err
}

// Dispatch is function f's dispatch in stage: every invocation, its
// inputs, and room for its output records; in the fragment stage also
// the render target (harness.FragmentTarget) and the wrapper's marker
// attachment (r32uint at ir.FragmentMarkerLocation).
func (x *Execution) Dispatch(f int, stage oracle.Stage) harness.Dispatch {
	return KernelDispatch(x.in, x.n, x.tabis[f].OutputStride, stage)
}

// KernelDispatch is the kernel ABI's dispatch of n invocations with the
// encoded inputs in and output records of stride bytes, in stage (see
// Execution.Dispatch).
func KernelDispatch(in []byte, n, stride int, stage oracle.Stage) harness.Dispatch {
	d := harness.Dispatch{Input: in, OutputSize: n * stride, Invocations: n}
	if stage == oracle.StageFragment {
		d.Target = harness.FragmentTarget(n)
		d.Attachments = []harness.AttachmentFormat{harness.R32Uint}
	}
	return d
}

// NewRun is the run of function f on path p on the named adapter, before
// anything is known of it: Decode or FailRun completes it.
func (x *Execution) NewRun(adapter string, f int, p Path) oracle.Run {
	return oracle.Run{Adapter: adapter, Function: x.funcs[f], Format: p.Format, Stage: p.Stage, Mode: string(x.mode)}
}

// Decode decodes function f's output records, out (as its own dispatch
// in r's stage lays them out), into r's outputs; records that do not
// decode, or a fragment stage's marker saying an invocation's fragment did
// not run, make r an Error run.
func (x *Execution) Decode(f int, out []byte, r *oracle.Run) {
	out, err := KernelOutput(out, x.n, x.tabis[f].OutputStride, r.Stage)
	if err != nil {
		r.Failed, r.Message = oracle.Error, err.Error()
		return
	}
	x.DecodeRecords(f, out, r)
}

// DecodeRecords decodes function f's output records alone (what
// KernelOutput returns, or a batch module's share of it) into r's
// outputs, as Decode does.
func (x *Execution) DecodeRecords(f int, records []byte, r *oracle.Run) {
	decodeRun(records, x.n, x.tabis[f], r)
}

// KernelOutput returns the output records of a kernel ABI run of n
// invocations with records of stride bytes in stage, out being what the
// device returned: in the fragment stage the records are followed by the
// marker attachment, which must be 1 at each invocation's pixel (its
// fragment ran); an error says which did not.
func KernelOutput(out []byte, n, stride int, stage oracle.Stage) ([]byte, error) {
	if stage != oracle.StageFragment {
		return out, nil
	}
	size := n * stride
	tg := harness.FragmentTarget(n)
	if len(out) != size+4*int(tg[0]*tg[1]) {
		return nil, fmt.Errorf("fragment stage: %d bytes back, want %d of records and %d of the %d×%d marker attachment", len(out), size, 4*tg[0]*tg[1], tg[0], tg[1])
	}
	for i := 0; i < n; i++ {
		x, y := i%ir.FragmentRowPitch, i/ir.FragmentRowPitch
		at := size + 4*(y*int(tg[0])+x)
		if m := binary.LittleEndian.Uint32(out[at:]); m != 1 {
			return nil, fmt.Errorf("fragment stage: the fragment of invocation %d (pixel %d,%d) did not run to its end: its marker is %d, want 1", i, x, y, m)
		}
	}
	return out[:size], nil
}

// Tested reports whether a GPU run counts: a SPIR-V run on an
// implementation that takes no SPIR-V tested nothing and is dropped. (A
// SPIR-V run the adapter cannot take in the fragment stage is dropped too;
// the WGSL run of the same function and stage, always made, keeps the
// adapter's reason as its unsupported verdict, so nothing passes
// silently.)
func Tested(r oracle.Run) bool {
	return !(r.Format == oracle.FormatSPIRV && r.Failed == oracle.Unsupported)
}

// run is function f's run on path p on d, in a module of its own; ok is
// false for a run that is dropped (Tested).
func (x *Execution) run(ctx context.Context, d Device, f int, p Path) (oracle.Run, bool) {
	r := x.NewRun(d.Info().Name, f, p)
	k, err := x.Kernel(f, p)
	if err != nil {
		r.Failed, r.Message = oracle.Error, err.Error()
		return r, true
	}
	out, err := d.Run(ctx, k, x.Dispatch(f, p.Stage))
	if err != nil {
		FailRun(&r, err)
	} else {
		x.Decode(f, out, &r)
	}
	return r, Tested(r)
}

// DeviceRuns runs every function on every path on d, each in a module of
// its own, in Execute's order: per function, per stage, WGSL then SPIR-V.
//
// A variant adapter (harness.Variants: lavapipe at another subgroup size)
// runs only a case that uses subgroup operations (harness.VariantRuns):
// for any other it would repeat its base adapter, so it makes no runs.
func (x *Execution) DeviceRuns(ctx context.Context, d Device) []oracle.Run {
	if info := d.Info(); info.Variant != "" {
		var needs []harness.Need
		if x.subgroups {
			needs = append(needs, harness.Need{Kind: harness.NeedSubgroups})
		}
		if !harness.VariantRuns(info, needs) {
			return nil
		}
	}
	if x.kind != nil {
		return x.kind.deviceRuns(ctx, d)
	}
	var runs []oracle.Run
	for f := range x.funcs {
		for _, p := range x.Paths() {
			if r, ok := x.run(ctx, d, f, p); ok {
				runs = append(runs, r)
			}
		}
	}
	return runs
}

// Judge judges the twin's interpreter run and the GPU runs (one list per
// device, in device order, each in DeviceRuns' order) against the
// reference. It may be called more than once.
func (x *Execution) Judge(devRuns [][]oracle.Run) *Result {
	if x.kind != nil {
		return x.kind.judge(devRuns)
	}
	runs := append([]oracle.Run(nil), x.runs...)
	for _, rs := range devRuns {
		runs = append(runs, rs...)
	}
	judgeRejections(runs, func(r oracle.Run) []harness.Need { return moduleNeeds(x.mod, r.Function, r.Format, r.Mode) }) // check/promise.go
	res := *x.res
	res.Runs, res.Verdict = oracle.Judge(res.Reference, res.Names, runs)
	res.Verdict = settle(res.Runs, res.Verdict)
	if res.FlattenErr != nil && res.Verdict == oracle.Pass {
		res.Verdict = oracle.FlattenRejected
	}
	res.Verdict = referenceVerdict(res.Verdict, res.ReferenceErr, x.opts.Fill)
	return &res
}

// interpRun runs kernel in the interpreter and converts its invocations to
// oracle form. Per-invocation errors (step limit) are returned separately
// and make that invocation's outputs all indeterminate.
func interpRun(m *ir.Module, kernel string, args [][]ir.Value, opts interp.Options) ([][]oracle.Expected, []string, error) {
	invs, err := interp.Run(m, kernel, args, opts)
	if err != nil {
		return nil, nil, err
	}
	return invocationsExpected(m, kernel, invs)
}

// invocationsExpected turns the reference's invocations of kernel into
// the oracle's expected outputs and per-invocation errors (interpRun).
func invocationsExpected(m *ir.Module, kernel string, invs []interp.Invocation) ([][]oracle.Expected, []string, error) {
	abi, err := ir.NewKernelABI(m, kernel)
	if err != nil {
		return nil, nil, err
	}
	out := make([][]oracle.Expected, len(invs))
	var errs []string
	for i, inv := range invs {
		if inv.Err != nil {
			if errs == nil {
				errs = make([]string, len(invs))
			}
			errs[i] = inv.Err.Error()
			out[i] = make([]oracle.Expected, len(abi.Outputs))
			for j, o := range abi.Outputs {
				lv := len(o.T.ComponentTypes())
				ind := make([]bool, lv)
				for k := range ind {
					ind[k] = true
				}
				out[i][j] = oracle.Expected{Value: ir.Zero(o.T), Indeterminate: ind, Why: inv.Err.Error()}
			}
			continue
		}
		out[i] = make([]oracle.Expected, len(inv.Outputs))
		for j, o := range inv.Outputs {
			out[i][j] = expected(o)
		}
	}
	return out, errs, nil
}

// FailRun records a dispatch's error as r's failure verdict
// (FailureVerdict) and message: the stack's own words for a compile
// error, and a worker's stderr tail for a crash or a timeout.
func FailRun(r *oracle.Run, err error) {
	r.Failed, r.Message = FailureVerdict(err), err.Error()
	var ce *harness.CompileError
	var crash *worker.CrashError
	var to *worker.TimeoutError
	switch {
	case errors.As(err, &ce):
		r.Message = ce.Message
	case errors.As(err, &crash) && crash.StderrTail != "":
		r.Message += "\nworker stderr (tail):\n" + crash.StderrTail
	case errors.As(err, &to) && to.StderrTail != "":
		r.Message += "\nworker stderr (tail):\n" + to.StderrTail
	}
}

// decodeRun decodes n invocations' output records into r's outputs.
func decodeRun(out []byte, n int, abi *ir.KernelABI, r *oracle.Run) {
	vals, err := abi.DecodeOutputs(out, n)
	if err != nil {
		r.Failed, r.Message = oracle.Error, err.Error()
		return
	}
	r.Outputs = make([][]oracle.Expected, n)
	for i := range vals {
		r.Outputs[i] = make([]oracle.Expected, len(vals[i]))
		for j, v := range vals[i] {
			r.Outputs[i][j] = oracle.Expected{Value: v}
		}
	}
}

// FailureVerdict classifies a GPU run error: a rejected module is a
// compile error, a compile that ran out of time (a timeout of the compile
// phase: an error with a SlowCompile method that reports true, as
// *worker.TimeoutError and harness/dawn's timeout have) a slow compile, any
// other deadline a timeout, a lost or broken device a crash.
func FailureVerdict(err error) oracle.Verdict {
	var ce *harness.CompileError
	var de *harness.DeviceError
	var sc slowCompiler
	switch {
	case errors.Is(err, harness.ErrUnsupported):
		return oracle.Unsupported
	case errors.As(err, &ce):
		return oracle.CompileError
	case errors.As(err, &sc) && sc.SlowCompile():
		return oracle.SlowCompile
	case errors.Is(err, context.DeadlineExceeded):
		return oracle.Timeout
	case errors.As(err, &de):
		return oracle.Crash
	}
	return oracle.Error
}

// slowCompiler is a timeout error that knows its phase: SlowCompile
// reports a timeout of the compile phase (shader module and pipeline
// creation).
type slowCompiler interface{ SlowCompile() bool }

// settle is the overall verdict of judged runs whose oracle verdict
// (oracle.Judge's: the first failure when nothing differs) is v: a slow
// compile (oracle.SlowCompile) tested nothing and is no failure, so a
// later run's failure (a crash, a timeout, a compile error) is the
// verdict instead; v itself otherwise.
func settle(runs []oracle.Judged, v oracle.Verdict) oracle.Verdict {
	if v != oracle.SlowCompile {
		return v
	}
	for _, r := range runs {
		if r.Failed != "" && r.Failed != oracle.Unsupported && r.Failed != oracle.SlowCompile {
			return r.Failed
		}
	}
	return v
}

// SlowCompiles lists res's runs whose stack did not finish compiling within
// the compile limit (oracle.SlowCompile), in res.Runs order: performance
// notes, never findings.
func (r *Result) SlowCompiles() []oracle.Judged {
	var out []oracle.Judged
	for _, j := range r.Runs {
		if j.Failed == oracle.SlowCompile {
			out = append(out, j)
		}
	}
	return out
}

// String summarizes a result in one line.
func (r *Result) String() string {
	return fmt.Sprintf("%s: %s (%d runs)", r.ABI.Kernel, r.Verdict, len(r.Runs))
}

// Unfinished lists the invocations the reference interpreter could not
// finish (ReferenceErr), in order.
func (r *Result) Unfinished() []int {
	var inv []int
	for i, e := range r.ReferenceErr {
		if e != "" {
			inv = append(inv, i)
		}
	}
	return inv
}
