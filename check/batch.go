package check

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Batching several programs into one shader module.
//
// A GPU stack pays a fixed cost per shader module and pipeline (lavapipe
// runs LLVM once per pipeline, at its first dispatch; SwiftShader at
// pipeline creation), so a campaign checks a few programs per module: a
// batch module holds the call graphs of every function of its programs
// (originals and twins), renamed apart, and one kernel, gpudiff_batch,
// that switches on a per-invocation selector and calls the function the
// selector names:
//
//	fn gpudiff_batch(sel: u32, b0_p0: i32, …, b1_p0: vec2<f32>, …) -> gpudiff_BatchResult {
//	  var r: gpudiff_BatchResult;
//	  switch (sel) {
//	    case 0u: { r.r0 = kernel_b0(b0_p0, …); }
//	    case 1u: { r.r1 = kernel_flat_b0(b0_p0, …); }
//	    case 2u: { kernel_b1(b1_p0, …); }        // a void kernel
//	    …
//	    default: {}
//	  }
//	  return r;
//	}
//
// The batch kernel is an ordinary kernel of the kernel ABI, so the WGSL and
// SPIR-V emitters serve it unchanged, in either mode, and every private
// global of every program is an output. Each function's invocations get
// their own workgroups (records 64·v … 64·v+n-1 for variant v; the padding
// records select nothing), so invocation i of a function runs in lane i of
// a workgroup that runs nothing else, as in its own dispatch.
//
// The batch is a way to run the same functions, not a different test:
// the campaign (campaign/pipeline.go) takes a batched run only when it
// agrees with the reference.
// A batch the stack rejects, crashes on or times out on is run again one
// module per function, and a program with any finding is executed again
// unbatched (Execute), so verdicts, messages and saved cases are those of
// the unbatched path.

// batchProgram is one program of a batch: its module (with the twin, when
// flattened), the functions to run (the kernel first) and its encoded
// inputs.
type batchProgram struct {
	mod   *ir.Module
	funcs []string
	abi   *ir.KernelABI // the kernel's ABI (inputs are shared by its twin)
	in    []byte        // abi.EncodeInputs of the arguments
	n     int           // invocations
	label string        // dispatch label prefix ("p5/")
}

// batchVariant is one function of one program of a batch.
type batchVariant struct {
	prog int    // index of the program in the batch
	fn   string // the function's name in the program's module
	abi  *ir.KernelABI
	// ret is the index of the function's result in gpudiff_BatchResult
	// (-1 for a void function).
	ret  int
	base int // first record of the function's invocations
}

// batchModule is a built batch: the module, its kernel and ABI, and how
// to find each function's invocations in the buffers.
type batchModule struct {
	mod      *ir.Module
	kernel   string
	abi      *ir.KernelABI
	variants []batchVariant
	globals  []map[string]string // per program: global name → name in the batch
	records  int                 // invocation records in the dispatch
	in       []byte              // the input buffer
	labels   []string            // per variant: the label its own dispatch would have, without the format
}

// batchKernel is the name of the batch module's kernel.
const batchKernel = "gpudiff_batch"

// programOf is the batch program of a prepared case: the module with the
// twin, the functions, the kernel's ABI, the encoded inputs.
func programOf(x *Execution) batchProgram {
	return batchProgram{mod: x.mod, funcs: x.funcs, abi: x.tabis[0], in: x.in, n: x.n, label: x.opts.Label}
}

// buildBatch builds the batch module of progs. It fails (and the programs
// are then run one module per function) when a program cannot take part:
// opaque declarations, functions whose parameters differ from the
// kernel's, or a module that does not verify once merged.
func buildBatch(progs []batchProgram) (*batchModule, error) {
	namer := ir.NewNamer(nil)
	for _, p := range progs {
		if len(p.mod.Opaque) > 0 {
			return nil, fmt.Errorf("batch: module has opaque declarations")
		}
		for _, s := range p.mod.Structs {
			namer.Reserve(s.Name)
		}
		for _, g := range p.mod.Globals {
			namer.Reserve(g.Name)
		}
		for _, f := range p.mod.Funcs {
			namer.ReserveFunc(f)
		}
	}
	out := &ir.Module{File: "gpudiff-batch"}
	bm := &batchModule{mod: out, kernel: namer.Fresh(batchKernel)}
	var calls []callee
	var resultFields []ir.Field
	kparams := []*ir.Param{{Name: namer.Fresh("sel"), T: ir.U32}}
	for j, p := range progs {
		r := ir.NewMergeRenamer(namer, fmt.Sprintf("_b%d", j))
		kernel := p.mod.Func(p.funcs[0])
		var params []*ir.Param
		for _, prm := range kernel.Params {
			np := &ir.Param{Name: namer.Fresh(fmt.Sprintf("b%d_%s", j, prm.Name)), T: r.Type(prm.T)}
			params = append(params, np)
			kparams = append(kparams, np)
		}
		globals := r.Copy(out, p.mod, p.funcs)
		bm.globals = append(bm.globals, globals)
		for _, fn := range p.funcs {
			f := p.mod.Func(fn)
			if len(f.Params) != len(kernel.Params) {
				return nil, fmt.Errorf("batch: %s and %s have different parameters", fn, kernel.Name)
			}
			for k, prm := range f.Params {
				if !ir.Identical(prm.T, kernel.Params[k].T) {
					return nil, fmt.Errorf("batch: %s and %s have different parameters", fn, kernel.Name)
				}
			}
			abi, err := ir.NewKernelABI(p.mod, fn)
			if err != nil {
				return nil, err
			}
			v := batchVariant{prog: j, fn: fn, abi: abi, ret: -1}
			if !f.Result.IsVoid() {
				v.ret = len(resultFields)
				resultFields = append(resultFields, ir.Field{Name: fmt.Sprintf("r%d", len(bm.variants)), Type: r.Type(f.Result)})
			}
			bm.variants = append(bm.variants, v)
			calls = append(calls, callee{name: r.Func(fn), params: params, result: r.Type(f.Result)})
			bm.labels = append(bm.labels, p.label+fn)
		}
	}

	out.Funcs = append(out.Funcs, bm.kernelFunc(namer, kparams, calls, resultFields))
	if err := ir.Verify(out); err != nil {
		return nil, fmt.Errorf("batch: merged module does not verify: %w", err)
	}
	abi, err := ir.NewKernelABI(out, bm.kernel)
	if err != nil {
		return nil, err
	}
	bm.abi = abi

	bm.encodeInputs(progs)
	return bm, nil
}

// callee is one function the batch kernel calls: its name in the batch,
// the batch kernel's parameters passed to it, and its result type.
type callee struct {
	name   string
	params []*ir.Param
	result *ir.Type
}

// kernelFunc builds the batch kernel: it declares the result struct
// (resultFields, one per non-void variant) in bm.mod and switches on the
// selector, kparams[0], calling calls[v] for variant v.
func (bm *batchModule) kernelFunc(namer *ir.Namer, kparams []*ir.Param, calls []callee, resultFields []ir.Field) *ir.Func {
	out := bm.mod
	k := &ir.Func{Name: bm.kernel, Params: kparams, Result: ir.Void, Body: &ir.Block{}}
	res := func() *ir.Ident { return nil }
	if len(resultFields) > 0 {
		sd := &ir.StructDecl{Name: namer.Fresh("gpudiff_BatchResult"), Fields: resultFields}
		out.Structs = append(out.Structs, sd)
		k.Result = ir.StructType(sd)
		name := namer.Fresh("r")
		res = func() *ir.Ident { return &ir.Ident{Name: name, T: k.Result, Ref: ir.RefVar} }
		k.Body.Stmts = append(k.Body.Stmts, &ir.Decl{Name: name, T: k.Result, Mutable: true})
	}
	sw := &ir.Switch{Selector: &ir.Ident{Name: kparams[0].Name, T: ir.U32, Ref: ir.RefParam}}
	for v, c := range calls {
		args := make([]ir.Expr, len(c.params))
		for i, prm := range c.params {
			args[i] = &ir.Ident{Name: prm.Name, T: prm.T, Ref: ir.RefParam}
		}
		call := &ir.Call{Func: c.name, Args: args, T: c.result}
		var s ir.Stmt = &ir.ExprStmt{X: call}
		if r := bm.variants[v].ret; r >= 0 {
			s = &ir.Assign{LHS: &ir.Member{X: res(), Field: r, T: c.result}, Op: ir.OpNone, RHS: call}
		}
		sw.Cases = append(sw.Cases, &ir.Case{Values: []ir.Value{ir.U32Val(uint32(v))}, Body: &ir.Block{Stmts: []ir.Stmt{s}}})
	}
	sw.Cases = append(sw.Cases, &ir.Case{Default: true, Body: &ir.Block{}})
	k.Body.Stmts = append(k.Body.Stmts, sw)
	if r := res(); r != nil {
		k.Body.Stmts = append(k.Body.Stmts, &ir.Return{Value: r})
	}
	return k
}

// encodeInputs lays out the batch's input buffer: each function's
// invocations from a workgroup boundary, the padding records selecting
// nothing, and every record holding its program's arguments.
func (bm *batchModule) encodeInputs(progs []batchProgram) {
	abi := bm.abi
	// Inputs: each function's invocations from a workgroup boundary.
	base := 0
	for v := range bm.variants {
		bm.variants[v].base = base
		base += roundUp(progs[bm.variants[v].prog].n, ir.WorkgroupSize)
	}
	bm.records = base
	bm.in = make([]byte, bm.records*abi.InputStride)
	for i := 0; i < bm.records; i++ {
		put32(bm.in[i*abi.InputStride+abi.Inputs[0].Offset:], ^uint32(0)) // padding selects nothing
	}
	field := 1 // abi.Inputs[0] is sel
	first := make([]int, len(progs))
	for j, p := range progs {
		first[j] = field
		field += len(p.abi.Inputs)
	}
	for v, bv := range bm.variants {
		p := progs[bv.prog]
		for i := 0; i < p.n; i++ {
			rec := bm.in[(bv.base+i)*abi.InputStride:]
			put32(rec[abi.Inputs[0].Offset:], uint32(v))
			src := p.in[i*p.abi.InputStride:]
			for k, f := range p.abi.Inputs {
				copy(rec[abi.Inputs[first[bv.prog]+k].Offset:], src[f.Offset:f.Offset+ir.SizeOf(f.T)])
			}
		}
	}
}

// outputs extracts variant v's output records from the batch's output
// buffer, laid out as the function's own dispatch lays them out, so that
// its ABI decodes them exactly as it decodes a dispatch of its own.
func (bm *batchModule) outputs(v int, buf []byte, n int) []byte {
	bv := bm.variants[v]
	out := make([]byte, n*bv.abi.OutputStride)
	var retOff []int
	if bv.ret >= 0 {
		retOff = ir.FieldOffsets(bm.abi.Result.Struct)
	}
	offsetOf := func(f ir.ABIField) int {
		name := "ret"
		if f.Global {
			name = bm.globals[bv.prog][f.Name]
		}
		for _, m := range bm.abi.Outputs {
			if m.Name == name {
				if !f.Global {
					return m.Offset + retOff[bv.ret]
				}
				return m.Offset
			}
		}
		panic("batch: output " + f.Name + " missing from the batch ABI") // buildBatch made every one
	}
	for _, f := range bv.abi.Outputs {
		off, size := offsetOf(f), ir.SizeOf(f.T)
		for i := 0; i < n; i++ {
			src := buf[(bv.base+i)*bm.abi.OutputStride+off:]
			copy(out[i*bv.abi.OutputStride+f.Offset:], src[:size])
		}
	}
	return out
}

func roundUp(n, a int) int { return (n + a - 1) / a * a }

func put32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

// Batch is the batch module of several prepared function-kernel cases
// (Executions of one Options, in order) on each of their paths, emitted on
// first use. Build it with NewBatch; RunUnit runs it.
type Batch struct {
	bm      *batchModule
	xs      []*Execution
	paths   []Path
	kernels [4]emitted // the batch module on each of paths (execute.go's emitted)
}

// NewBatch builds the batch module of xs (at least two). It fails (the
// cases then run one module per function) when a case cannot take part:
// opaque declarations, functions whose parameters differ from the
// kernel's, or a module that does not verify once merged.
func NewBatch(xs []*Execution) (*Batch, error) {
	progs := make([]batchProgram, len(xs))
	for g, x := range xs {
		progs[g] = programOf(x)
	}
	bm, err := buildBatch(progs)
	if err != nil {
		return nil, err
	}
	return &Batch{bm: bm, xs: xs, paths: xs[0].Paths()}, nil
}

// Kernel returns the batch module on its fi-th path, emitting it on first
// use (safe for concurrent use); its label joins the labels its functions'
// own modules would have.
func (b *Batch) Kernel(fi int) (harness.Kernel, error) {
	e := &b.kernels[fi]
	e.once.Do(func() {
		p := b.paths[fi]
		labels := make([]string, len(b.bm.labels))
		for i, l := range b.bm.labels {
			labels[i] = l + "/" + PathLabel(p)
		}
		e.k, e.err = EmitKernel(b.bm.mod, b.bm.kernel, p, b.xs[0].Mode(), strings.Join(labels, "|"))
	})
	return e.k, e.err
}

// RunUnit is the batched execution step: it runs every function of the
// prepared cases xs on every path on device d, as Execute's device runs
// would (Kernel, Dispatch, NewRun, Decode, FailRun). With b (nil: none)
// the batch module runs first; then, in modules of their own, every
// function whose path the batch did not cover (all of them without b).
// Each step's dispatches go to the device together (RunAll), so a worker
// runs them back to back. It returns each case's runs in Execute's order
// (functions, then paths) and, per case, the names (RunName) of the runs
// that came from the batch module.
func RunUnit(ctx context.Context, d Device, xs []*Execution, b *Batch) (runs [][]oracle.Run, batched [][]string) {
	paths := xs[0].Paths()
	// got[case][function][path index]: the run, and whether it exists.
	type slot struct {
		r  oracle.Run
		ok bool
	}
	got := make([][][4]slot, len(xs))
	for g, x := range xs {
		got[g] = make([][4]slot, len(x.Functions()))
	}
	batched = make([][]string, len(xs))
	var covered [4]bool
	if b != nil {
		covered = b.run(ctx, d, func(g, f, fi int, r oracle.Run) {
			got[g][f][fi] = slot{r, true}
			batched[g] = append(batched[g], RunName(r))
		})
	}

	// Each function in a module of its own, as Execute runs it.
	type item struct{ g, f, fi int }
	var items []item
	var ks []harness.Kernel
	var jobs []harness.Dispatch
	name := d.Info().Name
	for g, x := range xs {
		for f := range x.Functions() {
			for fi, p := range paths {
				if covered[fi] {
					continue
				}
				kern, err := x.Kernel(f, p)
				if err != nil {
					r := x.NewRun(name, f, p)
					r.Failed, r.Message = oracle.Error, err.Error()
					got[g][f][fi] = slot{r, true}
					continue
				}
				items = append(items, item{g, f, fi})
				ks = append(ks, kern)
				jobs = append(jobs, x.Dispatch(f, p.Stage))
			}
		}
	}
	outs, errs := RunAll(ctx, d, ks, jobs)
	for i, it := range items {
		x := xs[it.g]
		r := x.NewRun(name, it.f, paths[it.fi])
		if errs[i] != nil {
			FailRun(&r, errs[i])
		} else {
			x.Decode(it.f, outs[i], &r)
		}
		got[it.g][it.f][it.fi] = slot{r, Tested(r)}
	}
	runs = make([][]oracle.Run, len(xs))
	for g, x := range xs {
		for f := range x.Functions() {
			for fi := range paths {
				if s := got[g][f][fi]; s.ok {
					runs[g] = append(runs[g], s.r)
				}
			}
		}
	}
	return runs, batched
}

// run runs the batch module on each of its paths on d and hands each
// function's run to put (g: the case, f: its function, fi: the path's
// index); it reports the paths it covered. A path is not covered when the
// batch has no module on it or its dispatch fails (a compile error, crash
// or timeout says nothing about which case caused it, nor does a fragment
// marker saying some fragment did not run): RunUnit then runs each
// function in a module of its own. (A batched run that disagrees with the
// reference is a finding, and the campaign executes its program again
// unbatched.) A stack that takes no SPIR-V covers SPIR-V with no runs, as
// Execute drops them.
func (b *Batch) run(ctx context.Context, d Device, put func(g, f, fi int, r oracle.Run)) (covered [4]bool) {
	bm := b.bm
	var fis []int
	var ks []harness.Kernel
	var jobs []harness.Dispatch
	for fi, p := range b.paths {
		if kern, err := b.Kernel(fi); err == nil {
			fis = append(fis, fi)
			ks = append(ks, kern)
			jobs = append(jobs, KernelDispatch(bm.in, bm.records, bm.abi.OutputStride, p.Stage))
		}
	}
	outs, errs := RunAll(ctx, d, ks, jobs)
	name := d.Info().Name
	for i, fi := range fis {
		p := b.paths[fi]
		if err := errs[i]; err != nil {
			covered[fi] = p.Format == oracle.FormatSPIRV && FailureVerdict(err) == oracle.Unsupported
			continue
		}
		out, err := KernelOutput(outs[i], bm.records, bm.abi.OutputStride, p.Stage)
		if err != nil {
			continue
		}
		covered[fi] = true
		for v, bv := range bm.variants {
			x := b.xs[bv.prog]
			f := slices.Index(x.Functions(), bv.fn)
			r := x.NewRun(name, f, p)
			x.DecodeRecords(f, bm.outputs(v, out, x.Invocations()), &r)
			put(bv.prog, f, fi, r)
		}
	}
	return covered
}

// runAller is a Device that takes several dispatches at once and runs
// them in order as Run would (worker.Device.RunAll).
type runAller interface {
	RunAll(ctx context.Context, ks []harness.Kernel, jobs []harness.Dispatch) ([][]byte, []error)
}

// RunAll runs ks[i] with jobs[i] on d in order: through d's RunAll when it
// has one (harness/worker's Device: one round trip), else one Run after
// another. outs[i] and errs[i] are Run's results for the i-th.
func RunAll(ctx context.Context, d Device, ks []harness.Kernel, jobs []harness.Dispatch) (outs [][]byte, errs []error) {
	if ra, ok := d.(runAller); ok {
		return ra.RunAll(ctx, ks, jobs)
	}
	outs, errs = make([][]byte, len(ks)), make([]error, len(ks))
	for i := range ks {
		outs[i], errs[i] = d.Run(ctx, ks[i], jobs[i])
	}
	return outs, errs
}

// Locked returns d with its runs serialized, for callers that share one
// device between goroutines (the campaign's pipeline and its shrinking:
// harness.Device is not safe for concurrent use). A RunAll holds the
// device throughout.
func Locked(d Device) Device { return &lockedDevice{d: d} }

type lockedDevice struct {
	mu sync.Mutex
	d  Device
}

func (l *lockedDevice) Info() harness.AdapterInfo { return l.d.Info() }

func (l *lockedDevice) Run(ctx context.Context, k harness.Kernel, job harness.Dispatch) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.d.Run(ctx, k, job)
}

// RunAll runs the dispatches in order, holding the device throughout.
func (l *lockedDevice) RunAll(ctx context.Context, ks []harness.Kernel, jobs []harness.Dispatch) ([][]byte, []error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return RunAll(ctx, l.d, ks, jobs)
}
