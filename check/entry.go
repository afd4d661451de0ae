package check

import (
	"context"
	"fmt"
	"sort"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Entry points as written (ARCHITECTURE.md "Entry points as written
// (compute)"): the case is a module, its compute entry point, the dispatch
// size and the initial value of every storage and uniform binding. The
// reference is interp's dispatch; each GPU run gets one buffer per
// binding (harness.Dispatch.Buffers, laid out by ir.BindingBytes) and its
// read_write storage buffers are decoded back (ir.BindingValue) and
// compared with the reference's final contents. To the oracle the whole
// dispatch is one "invocation" whose outputs are the read_write bindings,
// in module order, named by their variables, so a leaf is "out[17].pos[1]".

// ComputeResult is what a compute entry point's Result holds beyond every
// kind's (Result embeds it; nil for the other kinds). The Result's Names
// are the read_write storage bindings in module order, then the storage
// textures written; its Reference has one invocation, the dispatch, whose
// outputs are their final contents in the reference, with their
// indeterminate leaves (races, order-dependent atomic results,
// out-of-bounds writes); its ABI names the entry point.
type ComputeResult struct {
	// Inputs are every storage and uniform binding's initial contents,
	// in module order (Bindings' order), as dispatched.
	Inputs   []ir.Buffer
	Bindings []*ir.SharedVar
	// TextureOutputs are the storage textures the entry point may write
	// (write or read_write access), in module order: the outputs after
	// the buffers in Names (their channel codes, check/texture.go).
	TextureOutputs []*ir.TextureVar
	textures       map[string]*interp.Texture // every texture's contents, as dispatched
	Races          []interp.Race
	// Skipped are the runs an implementation or emitter cannot take
	// (oracle.Unsupported: SPIR-V on Dawn, which takes WGSL only; gpudiff's
	// SPIR-V of atomics on wgpu), with their reason; never judged.
	Skipped []oracle.Run
	// Domain, with Verdict oracle.OutOfDomain, is why the made-up inputs
	// (Options.Fill) are outside what the shader handles: the reference's
	// step-limit error, positioned at the loop (check/domain.go). The
	// reference and the runs are then absent: nothing was compared.
	Domain string
	// Subgroups, for an entry point that uses subgroup operations, is the
	// partition of the Reference ("size 32, linear": Options.Interp's
	// SubgroupSize); each device run was judged against the reference of
	// the partition it observed instead (oracle.Run.Subgroups).
	Subgroups string
}

// computeExecution is a compute entry point between Execute's stages
// (Execution.kind): the reference and the twin's dispatch in the
// interpreter are done, the GPU runs are not.
//
// The entry point is dispatched as WGSL (the module as written, emitted
// by wgsl.EmitEntry in opts.Mode) and, with opts.SPIRV, as gpudiff's
// SPIR-V (spirv.EmitEntry; an emitter that cannot take the module makes
// that run Skipped, not failed); every run is judged against the reference
// under the oracle's float policy. With opts.Flat the entry point is
// flattened (flatten.Function: the twin <entry>_flat is itself a compute
// entry point), the twin's dispatch runs in the interpreter (run "interp
// <entry>_flat ir") and the twin runs on every device beside the
// original, all judged against the original's reference.
type computeExecution struct {
	res     *Result
	mod     *ir.Module // the case's module, or its clone holding the twin
	funcs   []string   // the entry point, then the twin
	formats []oracle.Format
	mode    wgsl.Mode
	label   string
	job     harness.Dispatch
	twin    []oracle.Run // the twin's dispatch in the interpreter
	done    bool         // no GPU runs: the inputs are outside the shader's domain
	// kernels caches each (format, function) module, emitted once.
	kernels []emitted
	// sg is set when the entry point uses subgroup operations: devices
	// run its probed module, and each run is judged against the
	// reference of the partition it observed (check/subgroups.go).
	sg *subgroupCase
}

// prepareCompute is Prepare for a compute entry point. Errors are setup
// failures, positioned where the source is known: no such entry point, a
// binding value that does not fit its type, a uniform type WGSL's layout
// constraints refuse, the reference's own failure (non-uniform barrier,
// step limit).
func prepareCompute(c *testcase.ComputeCase, opts Options) (*computeExecution, error) {
	ctx := opts.Interp.Context
	d, err := interp.CompileEntry(c.Module, c.Entry)
	if err != nil {
		return nil, err
	}
	res := &Result{ABI: &ir.KernelABI{Kernel: c.Entry}}
	for name := range c.Buffers {
		if v := c.Module.SharedVar(name); v == nil || v.Space == ir.SpaceWorkgroup {
			return nil, fmt.Errorf("%s has no storage or uniform binding named %q", c.Entry, name)
		}
	}
	var bufs []harness.BufferBinding
	// The entry point's resource interface (WGSL #resource-interface):
	// a binding it does not use is not part of its pipeline, and may
	// share its @group/@binding with one it does (another entry point's).
	for _, v := range c.Module.SharedUsed(c.Entry) {
		if v.Space == ir.SpaceWorkgroup {
			continue
		}
		val, err := givenBinding(c.Module, v, c.Buffers)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, harness.BufferBinding{Group: uint32(v.Group), Binding: uint32(v.Binding), Kind: bindingKind(v), Data: val.Bytes})
		res.Bindings = append(res.Bindings, v)
		res.Inputs = append(res.Inputs, val)
		if bindingKind(v) == harness.BindingStorage {
			res.Names = append(res.Names, v.Name)
		}
	}
	if err := stoppedBy(ctx); err != nil { // laying out a large binding takes a while
		return nil, err
	}
	inputs := map[string]ir.Buffer{}
	for i, v := range res.Bindings {
		inputs[v.Name] = res.Inputs[i]
	}
	texs, smps, err := testcase.CompleteTextures(c.Module, c.Entry, c.Textures, c.Samplers)
	if err != nil {
		return nil, err
	}
	texJob, smpJob, written, err := textureJob(c.Module, c.Entry, texs, smps)
	if err != nil {
		return nil, err
	}
	res.TextureOutputs, res.textures = written, texs
	for _, v := range written {
		res.Names = append(res.Names, v.Name)
	}
	if len(c.Module.Textures) > 0 {
		opts.Interp.Textures, opts.Interp.Samplers = texs, smps
	}
	x := &computeExecution{res: res, mod: c.Module, funcs: []string{c.Entry}, label: opts.Label}
	ref, err := d.RunBuffers(inputs, c.Workgroups, opts.Interp)
	if err != nil {
		if entryOutOfDomain(res, err, opts) {
			res.Reference = [][]oracle.Expected{nil}
			x.done = true
			return x, nil
		}
		return nil, err
	}
	res.Races = ref.Races
	if err := stoppedBy(ctx); err != nil { // the GPU runs and judging a large dispatch take a while
		return nil, err
	}
	refOutputs := func(ref *interp.DispatchResult) []oracle.Expected {
		var outs []oracle.Expected
		for _, name := range res.Names[:len(res.Names)-len(written)] {
			outs = append(outs, expected(ref.Buffers[name]))
		}
		for _, v := range written {
			outs = append(outs, textureOutput(v, texs[v.Name], ref.Textures))
		}
		return outs
	}
	res.Reference = [][]oracle.Expected{refOutputs(ref)}

	x.mode = opts.Mode
	if x.mode == "" {
		x.mode = wgsl.Portable
	}
	x.formats = []oracle.Format{oracle.FormatWGSL}
	if opts.SPIRV {
		x.formats = append(x.formats, oracle.FormatSPIRV)
	}
	if opts.Flat {
		tm := ir.CloneModule(c.Module)
		if tw, ferr := flatten.Function(tm, c.Entry, opts.Flatten); ferr != nil {
			res.FlattenErr = ferr
		} else {
			x.mod, res.Twin = tm, tw.Name
			x.funcs = append(x.funcs, tw.Name)
			x.twin = append(x.twin, res.twinReference(tm, tw.Name, inputs, c.Workgroups, opts.Interp))
		}
	}
	if c.Module.UsesSubgroups(c.Entry) {
		size := opts.Interp.SubgroupSize
		if opts.Interp.Subgroups != nil {
			size = opts.Interp.Subgroups.Size()
		} else if size == 0 {
			size = interp.DefaultSubgroupSize
		}
		res.Subgroups = fmt.Sprintf("size %d, linear", size)
		io := opts.Interp
		x.sg, err = newSubgroupCase(x.mod, x.funcs, c.Workgroups, func(p *interp.SubgroupPartition) ([]oracle.Expected, error) {
			o := io
			o.Subgroups = p
			ref, err := d.RunBuffers(inputs, c.Workgroups, o)
			if err != nil {
				return nil, err
			}
			return refOutputs(ref), nil
		})
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, x.sg.binding())
	}
	x.job = harness.Dispatch{Buffers: bufs, Workgroups: c.Workgroups, Textures: texJob, Samplers: smpJob}
	x.kernels = make([]emitted, len(x.formats)*len(x.funcs))
	return x, nil
}

// deviceRuns dispatches every function in every format on dev, one run
// per (format, function) in that order, the runs an implementation cannot
// take (oracle.Unsupported) among them; judge sets those aside.
func (x *computeExecution) deviceRuns(ctx context.Context, dev Device) []oracle.Run {
	if x.done {
		return nil
	}
	var runs []oracle.Run
	for i := range x.formats {
		for j := range x.funcs {
			runs = append(runs, x.run(ctx, dev, i, j))
		}
	}
	return runs
}

// run dispatches function j in format i on dev.
func (x *computeExecution) run(ctx context.Context, dev Device, i, j int) oracle.Run {
	format, fn := x.formats[i], x.funcs[j]
	e := &x.kernels[i*len(x.funcs)+j]
	m := x.mod
	if x.sg != nil {
		m = x.sg.mod
	}
	e.once.Do(func() { e.k, e.err = EmitEntryKernel(m, fn, format, x.mode, x.label+fn+"/"+string(format)) })
	k, kerr := e.k, e.err
	r := oracle.Run{Adapter: dev.Info().Name, Function: fn, Format: format, Stage: oracle.StageCompute, Mode: string(x.mode)}
	switch {
	case kerr != nil:
		FailRun(&r, kerr)
	case spirv.NagaGap(k.SPIRV) != "" && dev.Info().Implementation == "wgpu":
		r.Failed, r.Message = oracle.Unsupported, spirv.NagaGap(k.SPIRV)
	default:
		out, err := dev.Run(ctx, k, x.job)
		if err != nil {
			FailRun(&r, err)
		} else {
			decodeEntryRun(&x.res.ComputeResult, out, &r, x.sg)
		}
	}
	return r
}

// judge judges the twin's dispatch in the interpreter and the GPU runs
// (devRuns: deviceRuns' lists in device order) against the reference, in
// the order format, function, device. It may be called more than once.
func (x *computeExecution) judge(devRuns [][]oracle.Run) *Result {
	res := *x.res
	cr := &res.ComputeResult
	if x.done {
		return &res
	}
	cr.Skipped = nil
	runs := append([]oracle.Run(nil), x.twin...)
	for i := range len(x.formats) * len(x.funcs) {
		for _, rs := range devRuns {
			if i >= len(rs) {
				continue
			}
			if r := rs[i]; r.Failed == oracle.Unsupported {
				cr.Skipped = append(cr.Skipped, r)
			} else {
				runs = append(runs, r)
			}
		}
	}
	// A compile error is unsupported where the adapter declares it
	// cannot take the module, a broken promise where it does not and
	// another adapter accepts it (check/promise.go).
	judgeRejections(runs, func(r oracle.Run) []harness.Need { return moduleNeeds(x.mod, r.Function, r.Format, r.Mode) })
	kept := runs[:0]
	for _, r := range runs {
		if r.Failed == oracle.Unsupported {
			cr.Skipped = append(cr.Skipped, r)
			continue
		}
		kept = append(kept, r)
	}
	runs = kept
	if x.sg != nil {
		res.Runs, res.Verdict = x.sg.judgeRuns(res.Reference, res.Names, runs)
	} else {
		res.Runs, res.Verdict = oracle.Judge(res.Reference, res.Names, runs)
	}
	res.Verdict = settle(res.Runs, res.Verdict)
	if res.FlattenErr != nil && res.Verdict == oracle.Pass {
		res.Verdict = oracle.FlattenRejected
	}
	if len(cr.Races) > 0 && (res.Verdict == oracle.Pass || res.Verdict == oracle.VIndeterminate) {
		// The shader's own defect: its racing leaves were compared
		// against their allowed sets, and no run left them.
		res.Verdict = oracle.Race
	}
	return &res
}

// stoppedBy is the error of a case ctx stopped between its phases (the
// reference itself stops inside: interp.Options.Context), nil while ctx
// runs: the caller maps the cause (a signal) to its exit status.
func stoppedBy(ctx context.Context) error {
	if ctx == nil || ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("check: stopped: %w", context.Cause(ctx))
}

// twinReference dispatches the twin tw of module tm in the interpreter
// with the original's bindings: the run "interp <tw> ir", whose outputs
// (with the twin's own indeterminate leaves) are judged like any run.
func (res *Result) twinReference(tm *ir.Module, tw string, inputs map[string]ir.Buffer, wg [3]uint32, io interp.Options) oracle.Run {
	r := oracle.Run{Adapter: "interp", Function: tw, Format: oracle.FormatIR}
	d, err := interp.CompileEntry(tm, tw)
	var out *interp.DispatchResult
	if err == nil {
		out, err = d.RunBuffers(inputs, wg, io)
	}
	if err != nil {
		r.Failed, r.Message = oracle.Error, err.Error()
		return r
	}
	outs := make([]oracle.Expected, len(res.Names))
	nb := len(res.Names) - len(res.TextureOutputs)
	for i, name := range res.Names[:nb] {
		o := out.Buffers[name]
		outs[i] = expected(o)
	}
	for i, v := range res.TextureOutputs {
		outs[nb+i] = textureOutput(v, io.Textures[v.Name], out.Textures)
	}
	r.Outputs = [][]oracle.Expected{outs}
	return r
}

// EmitEntryKernel emits entry point entry of m in format and mode: the one
// emission path of modules as written. A SPIR-V emitter that does not
// take entry points yet answers with an error wrapping
// harness.ErrUnsupported, so the run is skipped, not failed.
func EmitEntryKernel(m *ir.Module, entry string, format oracle.Format, mode wgsl.Mode, label string) (harness.Kernel, error) {
	if format == oracle.FormatWGSL {
		src, err := wgsl.EmitEntry(m, entry, wgsl.EmitOptions{Mode: mode})
		return harness.Kernel{WGSL: src, EntryPoint: entry, Label: label}, err
	}
	words, err := emitEntrySPIRV(m, entry, mode)
	if spirv.IsUnsupported(err) {
		return harness.Kernel{}, fmt.Errorf("%v: the WGSL runs cover this entry point (%w)", err, harness.ErrUnsupported)
	}
	if err != nil {
		return harness.Kernel{}, err
	}
	return harness.Kernel{SPIRV: words, EntryPoint: entry, Label: label}, nil
}

// emitEntrySPIRV emits the entry point as written in SPIR-V (spirv.Emit
// compiles a compute entry point as written when kernel names one). It is
// a variable so that an emitter without entry points can be switched off:
// an error wrapping harness.ErrUnsupported makes the SPIR-V runs Skipped.
var emitEntrySPIRV = func(m *ir.Module, entry string, mode wgsl.Mode) ([]uint32, error) {
	return spirv.Emit(m, entry, spirv.Options{Mode: mode})
}

// decodeEntryRun splits a Buffers dispatch's output (the read_write
// buffers, concatenated in binding order) and decodes each binding; with
// sg, the subgroup probe's bytes follow the bindings' (the probe is the
// dispatch's last buffer) and set r.Subgroups.
func decodeEntryRun(res *ComputeResult, out []byte, r *oracle.Run, sg *subgroupCase) {
	var outs []oracle.Expected
	off := 0
	for i, v := range res.Bindings {
		if bindingKind(v) != harness.BindingStorage {
			continue
		}
		n := len(res.Inputs[i].Bytes)
		if off+n > len(out) {
			r.Failed, r.Message = oracle.Error, fmt.Sprintf("read back %d bytes, fewer than the read_write bindings hold", len(out))
			return
		}
		// The run's bytes as they came back: no decoding (issue 26).
		outs = append(outs, oracle.Expected{Buffer: ir.Buffer{Type: v.T, Bytes: out[off : off+n : off+n]}})
		off += n
	}
	if sg != nil {
		if off+sg.bytes > len(out) {
			r.Failed, r.Message = oracle.Error, fmt.Sprintf("read back %d bytes, fewer than the read_write bindings and the subgroup probe hold", len(out))
			return
		}
		r.Subgroups = sg.observe(out[off : off+sg.bytes])
		off += sg.bytes
	}
	for _, v := range res.TextureOutputs {
		t := res.textures[v.Name]
		n := len(t.Data[0])
		if off+n > len(out) {
			r.Failed, r.Message = oracle.Error, fmt.Sprintf("read back %d bytes, fewer than the read_write bindings and written storage textures hold", len(out))
			return
		}
		outs = append(outs, oracle.Expected{Value: textureValue(v, t, testcase.TexelCodes(t.Format, out[off:off+n]))})
		off += n
	}
	r.Outputs = [][]oracle.Expected{outs}
}

func bindingKind(v *ir.SharedVar) harness.BindingKind {
	switch {
	case v.Space == ir.SpaceUniform:
		return harness.BindingUniform
	case v.Access == ir.AccessReadWrite:
		return harness.BindingStorage
	}
	return harness.BindingReadOnly
}

// RaceLeaves returns, per read_write binding name, the sorted leaf indices
// the reference reported races on.
func (r *ComputeResult) RaceLeaves() map[string][]int {
	out := map[string][]int{}
	for _, rc := range r.Races {
		out[rc.Var] = append(out[rc.Var], rc.Slot)
	}
	for _, s := range out {
		sort.Ints(s)
	}
	return out
}

// Findings are res's findings, most specific first (Attribute: what the
// runs implicate; Finding.Invocations is [0], the dispatch, for a compute
// entry point's run that disagrees), then, when the reference of a compute
// entry point found data races, the shader's own finding (ClassRace).
func (res *Result) Findings() []Finding {
	fs := Attribute(res)
	if len(res.Races) > 0 {
		// The shader's own defect, listed after what the runs implicate.
		fs = append(fs, Finding{Class: ClassRace, Adapter: "interp", Runs: []string{"interp " + res.ABI.Kernel + " ir"},
			Implicates: fmt.Sprintf("the shader: %d data races (WGSL #memory-model), e.g. %s", len(res.Races), res.Races[0])})
	}
	return fs
}

// expected is the oracle's form of an interpreter output.
func expected(o interp.Output) oracle.Expected {
	return oracle.Expected{Value: o.Value, Buffer: o.Buffer, Indeterminate: o.Indeterminate, Tolerance: o.Tolerance, Why: o.Why, Allowed: o.Allowed, Reconvergence: o.Reconvergence}
}

// givenBinding is binding v's initial contents in m as given (zeroed when
// given lacks it), checked: a uniform's layout (WGSL #address-space-layout-
// constraints), the value's type, its size. Errors are positioned at v.
func givenBinding(m *ir.Module, v *ir.SharedVar, given map[string]ir.Buffer) (ir.Buffer, error) {
	val, ok := given[v.Name]
	if !ok {
		val = ir.ZeroBuffer(v.T)
	}
	if v.Space == ir.SpaceUniform {
		if err := ir.CheckUniformLayout(v.T); err != nil {
			return val, &ir.Error{File: m.File, Pos: v.Pos, Pass: "check", Msg: err.Error()}
		}
	}
	if !ir.Identical(val.Type, v.T) {
		return val, &ir.Error{File: m.File, Pos: v.Pos, Pass: "check", Msg: fmt.Sprintf("binding %s: has type %v, want %v", v.Name, val.Type, v.T)}
	}
	if min := ir.SizeOf(v.T); len(val.Bytes) < min {
		return val, &ir.Error{File: m.File, Pos: v.Pos, Pass: "check", Msg: fmt.Sprintf("binding %s: %d bytes, fewer than its type %v's %d", v.Name, len(val.Bytes), v.T, min)}
	}
	return val, nil
}
