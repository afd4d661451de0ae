package fuzz

import (
	"context"
	"errors"
	"fmt"

	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/oracle"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
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
	// FlattenErr is flatten's refusal or failure when Flat was requested
	// (the twin's runs are then absent and Verdict is FlattenRejected).
	FlattenErr error
}

// Execute runs c on the selected paths and judges every run against the
// interpreter's run of the original. Errors are setup failures (an
// unknown kernel, arguments that do not fit the parameters); failures of
// individual runs become their verdicts.
func Execute(ctx context.Context, c *Case, opts Options) (*Result, error) {
	abi, err := ir.NewKernelABI(c.Module, c.Kernel)
	if err != nil {
		return nil, err
	}
	res := &Result{ABI: abi}
	for _, o := range abi.Outputs {
		res.Names = append(res.Names, o.Name)
	}
	ref, _, err := interpRun(c.Module, c.Kernel, c.Args, opts.Interp)
	if err != nil {
		return nil, err
	}
	res.Reference = ref

	mode := opts.Mode
	if mode == "" {
		mode = wgsl.Portable
	}
	var runs []oracle.Run
	funcs := []string{c.Kernel}
	mod := c.Module
	if opts.Flat {
		mod = ir.CloneModule(c.Module)
		tw, ferr := flatten.Function(mod, c.Kernel, opts.Flatten)
		if ferr != nil {
			res.FlattenErr = ferr
			mod = c.Module
		} else {
			res.Twin = tw.Name
			funcs = append(funcs, tw.Name)
			outs, invErr, err := interpRun(mod, tw.Name, c.Args, opts.Interp)
			r := oracle.Run{Adapter: "interp", Function: tw.Name, Format: "ir", Outputs: outs, InvocationErr: invErr}
			if err != nil {
				r.Outputs, r.Failed, r.Message = nil, oracle.Error, err.Error()
			}
			runs = append(runs, r)
		}
	}
	in, err := abi.EncodeInputs(c.Args)
	if err != nil {
		return nil, err
	}
	n := len(c.Args)
	for _, d := range opts.Devices {
		for _, fn := range funcs {
			tabi, err := ir.NewKernelABI(mod, fn)
			if err != nil {
				return nil, err
			}
			r := oracle.Run{Adapter: d.Info().Name, Function: fn, Format: "wgsl", Mode: string(mode)}
			src, entry, err := wgsl.Emit(mod, fn, wgsl.EmitOptions{Mode: mode})
			if err != nil {
				r.Failed, r.Message = oracle.Error, err.Error()
			} else {
				gpuRun(ctx, d, harness.Kernel{WGSL: src, EntryPoint: entry, Label: opts.Label + fn + "/wgsl"}, in, n, tabi, &r)
			}
			runs = append(runs, r)
			if opts.SPIRV {
				r := oracle.Run{Adapter: d.Info().Name, Function: fn, Format: "spirv", Mode: string(mode)}
				words, err := spirv.Emit(mod, fn, spirv.Options{Mode: spirv.Mode(mode)})
				if err != nil {
					r.Failed, r.Message = oracle.Error, err.Error()
				} else {
					gpuRun(ctx, d, harness.Kernel{SPIRV: words, EntryPoint: spirv.EntryPoint, Label: opts.Label + fn + "/spirv"}, in, n, tabi, &r)
				}
				if r.Failed == oracle.Unsupported {
					continue // the implementation takes no SPIR-V: nothing was tested
				}
				runs = append(runs, r)
			}
		}
	}
	res.Runs, res.Verdict = oracle.Judge(ref, res.Names, runs)
	if res.FlattenErr != nil && res.Verdict == oracle.Pass {
		res.Verdict = oracle.FlattenRejected
	}
	return res, nil
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
		return
	}
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
