package fuzz

import (
	"context"
	"errors"
	"fmt"
	"sync"

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

// Case is one program to check: a module, its kernel and the arguments of
// each invocation (Args[i][j] is parameter j of invocation i).
type Case struct {
	Module *ir.Module
	Kernel string
	Args   [][]ir.Value
}

// Options selects the paths Execute runs.
type Options struct {
	Devices []Device  // GPU adapters to run on (none: interpreter only)
	Flat    bool      // also flatten the kernel and run the twin everywhere
	SPIRV   bool      // also run our SPIR-V of each function on each adapter
	Mode    wgsl.Mode // emission mode for WGSL and SPIR-V ("" = portable)
	Flatten flatten.Options
	Interp  interp.Options
	// Label prefixes the label of every GPU dispatch (harness.Kernel.Label,
	// used in reports and by worker fault injection): each dispatch is
	// labelled Label + "<function>/<format>".
	Label string
}

// Result is the outcome of Execute: the reference, every judged run and
// the overall verdict.
type Result struct {
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
}

// Execute runs c on the selected paths and judges every run against the
// interpreter's run of the original. Errors are setup failures (an
// unknown kernel, arguments that do not fit the parameters); failures of
// individual runs become their verdicts.
func Execute(ctx context.Context, c *Case, opts Options) (*Result, error) {
	x, err := prepare(c, opts)
	if err != nil {
		return nil, err
	}
	runs := make([][]oracle.Run, len(opts.Devices))
	for k, d := range opts.Devices {
		runs[k] = x.deviceRuns(ctx, d)
	}
	return x.judge(runs), nil
}

// execution is a case between Execute's stages: the reference and the
// twin's interpreter run are done (prepare), the GPU runs are not
// (deviceRuns, or a batch; see batch.go), nothing is judged yet (judge).
// Its methods may be called from several goroutines once prepare returns.
type execution struct {
	c     *Case
	opts  Options
	mode  wgsl.Mode
	res   *Result
	mod   *ir.Module // c.Module, or its clone holding the twin
	funcs []string   // the kernel, then the twin when there is one
	tabis []*ir.KernelABI
	runs  []oracle.Run // the twin's interpreter run, when there is one
	in    []byte       // the encoded arguments
	n     int
	// kernels caches each function's emitted modules: [function][format].
	kernels [][2]emitted
	// work estimates what compiling one module of each function costs
	// (IR nodes of its call graph, plus a module's fixed share): the
	// unit batchTuner measures time in.
	work int
}

// emitted is one function's module in one format, emitted once.
type emitted struct {
	once sync.Once
	k    harness.Kernel
	err  error
}

const (
	fmtWGSL  = 0
	fmtSPIRV = 1
)

var formatNames = [2]string{"wgsl", "spirv"}

// moduleWork is a module's fixed share of compiling it, in IR nodes (the
// ABI wrapper, and what a stack spends on any module: a small generated
// function has a few hundred nodes).
const moduleWork = 300

// prepare runs the interpreter stages of Execute: the reference, flatten
// and the twin's run, and encodes the arguments.
func prepare(c *Case, opts Options) (*execution, error) {
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
	x := &execution{c: c, opts: opts, mode: mode, res: res, mod: c.Module, funcs: []string{c.Kernel}}
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
			r := oracle.Run{Adapter: "interp", Function: tw.Name, Format: "ir", Outputs: outs, InvocationErr: invErr}
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
	x.kernels = make([][2]emitted, len(x.funcs))
	for _, fn := range x.funcs {
		x.work += moduleWork
		for _, f := range x.mod.CallGraph(fn) {
			ir.Inspect(f.Body, func(ir.Node) bool { x.work++; return true })
		}
	}
	return x, nil
}

// kernel returns function f's module in format (fmtWGSL or fmtSPIRV),
// emitting it on first use.
func (x *execution) kernel(f, format int) (harness.Kernel, error) {
	e := &x.kernels[f][format]
	e.once.Do(func() {
		fn := x.funcs[f]
		label := x.opts.Label + fn + "/" + formatNames[format]
		if format == fmtWGSL {
			src, entry, err := wgsl.Emit(x.mod, fn, wgsl.EmitOptions{Mode: x.mode})
			e.k, e.err = harness.Kernel{WGSL: src, EntryPoint: entry, Label: label}, err
			return
		}
		words, err := spirv.Emit(x.mod, fn, spirv.Options{Mode: x.mode})
		e.k, e.err = harness.Kernel{SPIRV: words, EntryPoint: spirv.EntryPoint, Label: label}, err
	})
	return e.k, e.err
}

// formats returns the formats Execute runs.
func (x *execution) formats() []int {
	if x.opts.SPIRV {
		return []int{fmtWGSL, fmtSPIRV}
	}
	return []int{fmtWGSL}
}

// run is function f's run in format on d, each in a module of its own;
// ok is false for a run that is dropped (the implementation takes no
// SPIR-V: nothing was tested).
func (x *execution) run(ctx context.Context, d Device, f, format int) (oracle.Run, bool) {
	r := oracle.Run{Adapter: d.Info().Name, Function: x.funcs[f], Format: formatNames[format], Mode: string(x.mode)}
	k, err := x.kernel(f, format)
	if err != nil {
		r.Failed, r.Message = oracle.Error, err.Error()
	} else {
		gpuRun(ctx, d, k, x.in, x.n, x.tabis[f], &r)
	}
	return r, !(format == fmtSPIRV && r.Failed == oracle.Unsupported)
}

// deviceRuns runs every function in every format on d, in Execute's
// order: per function, WGSL then SPIR-V.
func (x *execution) deviceRuns(ctx context.Context, d Device) []oracle.Run {
	var runs []oracle.Run
	for f := range x.funcs {
		for _, format := range x.formats() {
			if r, ok := x.run(ctx, d, f, format); ok {
				runs = append(runs, r)
			}
		}
	}
	return runs
}

// judge judges the twin's interpreter run and the GPU runs (one list per
// device, in device order) against the reference.
func (x *execution) judge(devRuns [][]oracle.Run) *Result {
	runs := append([]oracle.Run(nil), x.runs...)
	for _, rs := range devRuns {
		runs = append(runs, rs...)
	}
	res := *x.res
	res.Runs, res.Verdict = oracle.Judge(res.Reference, res.Names, runs)
	if res.FlattenErr != nil && res.Verdict == oracle.Pass {
		res.Verdict = oracle.FlattenRejected
	}
	if res.ReferenceErr != nil {
		res.Verdict = oracle.Error
	}
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
			out[i][j] = oracle.Expected{Value: o.Value, Indeterminate: o.Indeterminate, Tolerance: o.Tolerance, Why: o.Why}
		}
	}
	return out, errs, nil
}

// gpuRun dispatches one kernel and decodes its outputs into r, or records
// the failure verdict.
func gpuRun(ctx context.Context, d Device, k harness.Kernel, in []byte, n int, abi *ir.KernelABI, r *oracle.Run) {
	out, err := d.Run(ctx, k, harness.Dispatch{Input: in, OutputSize: n * abi.OutputStride, Invocations: n})
	if err != nil {
		failRun(r, err)
		return
	}
	decodeRun(out, n, abi, r)
}

// failRun records a dispatch's error as r's failure verdict and message.
func failRun(r *oracle.Run, err error) {
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
// compile error, a deadline a timeout, a lost or broken device a crash.
func FailureVerdict(err error) oracle.Verdict {
	var ce *harness.CompileError
	var de *harness.DeviceError
	switch {
	case errors.Is(err, harness.ErrUnsupported):
		return oracle.Unsupported
	case errors.As(err, &ce):
		return oracle.CompileError
	case errors.Is(err, context.DeadlineExceeded):
		return oracle.Timeout
	case errors.As(err, &de):
		return oracle.Crash
	}
	return oracle.Error
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
