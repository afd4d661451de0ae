package check

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Fragment entry points as written (ARCHITECTURE.md "Entry points as
// written (fragment)"): the case is a module, its @fragment entry point
// and the size of the render target. Every pixel is one invocation, in
// row order from the top-left: its @builtin(position) is the pixel centre
// (x + 0.5, y + 0.5, 0, 1), which harness.VertexWGSL's full-screen
// triangle gives every fragment (depth 0, w 1). The reference runs the
// entry point once per pixel with that position (interp), in 2×2 quads
// when it takes derivatives (usesQuads); its texture and sampler bindings
// are the case's, as a compute entry point's (Textures, Samplers); each GPU run
// draws the entry point as written with one colour attachment per
// @location output (FragmentAttachment), whose texels are decoded back to
// the outputs. The result has a function kernel's shape (Result): one
// output "ret", the entry point's result, per pixel, so exec's table,
// JSON and pictures show it as they show a kernel's.

// FragmentAttachment is the colour attachment format of a fragment output
// of type t (a numeric scalar, vec2 or vec4): r32, rg32 or rgba32 of its
// scalar type (float, sint, uint), whose texels hold the output's bits
// exactly (WebGPU #plain-color-formats).
func FragmentAttachment(t *ir.Type) (harness.AttachmentFormat, error) {
	n := 1
	if t.Kind == ir.KindVec {
		n = t.Len
	}
	prefix := map[int]string{1: "r32", 2: "rg32", 4: "rgba32"}[n]
	suffix := map[ir.Kind]string{ir.KindF32: "float", ir.KindI32: "sint", ir.KindU32: "uint"}[t.Scalar().Kind]
	if prefix == "" || suffix == "" {
		return "", fmt.Errorf("no 32-bit colour format holds a %v output", t)
	}
	return harness.AttachmentFormat(prefix + suffix), nil
}

// fragmentExecution is a fragment entry point between Execute's stages
// (Execution.kind): the reference and the twin's run in the interpreter
// are done, the GPU runs are not.
type fragmentExecution struct {
	res         *Result
	f           *ir.Func
	outs        []wgsl.FragmentOutput
	attachments []harness.AttachmentFormat
	mod         *ir.Module // the case's module, or its clone holding the twin
	funcs       []string
	formats     []oracle.Format
	mode        wgsl.Mode
	label       string
	job         harness.Dispatch
	pixels      int
	twin        []oracle.Run
}

// prepareFragment runs c on the selected paths — the reference, the twin
// in the interpreter with opts.Flat, and each device's runs of the entry
// point (and twin) as WGSL and, with opts.SPIRV, gpudiff's SPIR-V, all in
// the fragment stage — and judges every pixel's outputs against the
// reference. opts.Stages does not apply (a fragment entry point runs in
// the fragment stage). Errors are setup failures: the entry point outside
// what gpudiff runs (wgsl.FragmentEntry's positioned errors), a size of
// zero or too many pixels.
func prepareFragment(c *testcase.FragmentCase, opts Options) (*fragmentExecution, error) {
	f, err := wgsl.FragmentEntry(c.Module, c.Entry)
	if err != nil {
		return nil, err
	}
	w, h := c.Size[0], c.Size[1]
	if w == 0 || h == 0 || uint64(w)*uint64(h) > testcase.MaxFragmentPixels {
		return nil, fmt.Errorf("fragment target %d×%d: want 1 to %d pixels, each side at least 1", w, h, testcase.MaxFragmentPixels)
	}
	outs := wgsl.FragmentOutputs(f)
	attachments := make([]harness.AttachmentFormat, len(outs))
	for i, o := range outs {
		if attachments[i], err = FragmentAttachment(o.T); err != nil {
			return nil, err
		}
	}
	args := testcase.FragmentPositions(w, h, len(f.Params))
	abi, err := ir.NewKernelABI(c.Module, f.Name)
	if err != nil {
		return nil, err
	}
	abi.Outputs = []ir.ABIField{{Name: "ret", T: f.Result}} // private globals are not outputs of a fragment
	res := &Result{ABI: abi, Names: []string{"ret"}}
	var texJob []harness.TextureBinding
	var smpJob []harness.SamplerBinding
	if len(c.Module.Textures) > 0 {
		texs, smps, err := testcase.CompleteTextures(c.Module, f.Name, c.Textures, c.Samplers)
		if err != nil {
			return nil, err
		}
		if texJob, smpJob, _, err = textureJob(c.Module, f.Name, texs, smps); err != nil {
			return nil, err
		}
		opts.Interp.Textures, opts.Interp.Samplers = texs, smps
	}
	// A fragment that takes derivatives (or samples with implicit ones)
	// runs in 2×2 quads (interp.Program.RunQuads); one that does not runs
	// alone, pixel by pixel, as before quads existed.
	run := func(m *ir.Module, fn string) ([][]oracle.Expected, []string, error) {
		if !usesQuads(m, fn) {
			return interpRun(m, fn, args, opts.Interp)
		}
		return quadRun(m, fn, int(w), int(h), len(f.Params), opts.Interp)
	}
	ref, refErr, err := run(c.Module, f.Name)
	if err != nil {
		return nil, err
	}
	res.Reference, res.ReferenceErr = retOnly(ref), refErr

	x := &fragmentExecution{res: res, f: f, outs: outs, attachments: attachments, mod: c.Module, funcs: []string{f.Name},
		mode: opts.Mode, label: opts.Label, pixels: int(w * h)}
	if x.mode == "" {
		x.mode = wgsl.Portable
	}
	if opts.Flat {
		m := ir.CloneModule(c.Module)
		tw, ferr := flatten.Function(m, f.Name, opts.Flatten)
		if ferr != nil {
			res.FlattenErr = ferr
		} else {
			x.mod, res.Twin = m, tw.Name
			x.funcs = append(x.funcs, tw.Name)
			outsTw, invErr, err := run(m, tw.Name)
			r := oracle.Run{Adapter: "interp", Function: tw.Name, Format: oracle.FormatIR, Outputs: retOnly(outsTw), InvocationErr: invErr}
			if err != nil {
				r.Outputs, r.Failed, r.Message = nil, oracle.Error, err.Error()
			}
			x.twin = append(x.twin, r)
		}
	}
	x.formats = []oracle.Format{oracle.FormatWGSL}
	if opts.SPIRV {
		x.formats = append(x.formats, oracle.FormatSPIRV)
	}
	x.job = harness.Dispatch{Target: c.Size, Attachments: attachments, Entry: true, Textures: texJob, Samplers: smpJob}
	return x, nil
}

// deviceRuns draws every function in every format on d, per function WGSL
// then SPIR-V; a SPIR-V run d cannot take is not made (Tested).
func (x *fragmentExecution) deviceRuns(ctx context.Context, d Device) []oracle.Run {
	var runs []oracle.Run
	for _, fn := range x.funcs {
		for _, format := range x.formats {
			r := oracle.Run{Adapter: d.Info().Name, Function: fn, Format: format, Stage: oracle.StageFragment, Mode: string(x.mode)}
			k, err := emitFragment(x.mod, fn, format, x.mode, x.label+fn+"/"+string(format)+"/fragment")
			if spirv.IsUnsupported(err) || err == nil && spirv.NagaGap(k.SPIRV) != "" && d.Info().Implementation == "wgpu" {
				continue // not run: Tested drops a SPIR-V run a device cannot take
			}
			if err != nil {
				r.Failed, r.Message = oracle.Error, err.Error()
				runs = append(runs, r)
				continue
			}
			runDecoded(ctx, d, k, x.job, &r, func(out []byte) ([][]oracle.Expected, error) {
				return decodeFragment(out, x.f, x.outs, x.attachments, x.pixels)
			})
			if Tested(r) {
				runs = append(runs, r)
			}
		}
	}
	return runs
}

// judge judges the twin's run in the interpreter and the GPU runs
// (devRuns: deviceRuns' lists in device order) against the reference. It
// may be called more than once.
func (x *fragmentExecution) judge(devRuns [][]oracle.Run) *Result {
	res := *x.res
	runs := append([]oracle.Run(nil), x.twin...)
	for _, rs := range devRuns {
		runs = append(runs, rs...)
	}
	judgeRejections(runs, func(r oracle.Run) []harness.Need { return moduleNeeds(x.mod, r.Function, r.Format, r.Mode) }) // check/promise.go
	res.Runs, res.Verdict = oracle.Judge(res.Reference, res.Names, runs)
	res.Verdict = settle(res.Runs, res.Verdict)
	if res.FlattenErr != nil && res.Verdict == oracle.Pass {
		res.Verdict = oracle.FlattenRejected
	}
	if res.ReferenceErr != nil {
		res.Verdict = oracle.Error
	}
	return &res
}

// usesQuads reports whether fn's call graph in m takes a derivative or
// samples with implicit derivatives: then its fragments run in 2×2 quads.
func usesQuads(m *ir.Module, fn string) bool {
	quads := false
	for _, g := range m.CallGraph(fn) {
		ir.Inspect(g.Body, func(n ir.Node) bool {
			switch x := n.(type) {
			case *ir.BuiltinCall:
				quads = quads || x.Fn.Info().Class == ir.ClassDerivative
			case *ir.TextureCall:
				quads = quads || x.Op.ImplicitDerivatives()
			}
			return !quads
		})
	}
	return quads
}

// quadRun runs fragment entry point fn of m over a w×h target in 2×2
// quads (interp.Program.RunQuads; helper invocations past the target's
// edge get their pixel centre too), one invocation per pixel in row
// order, as interpRun's outputs.
func quadRun(m *ir.Module, fn string, w, h, nparams int, opts interp.Options) ([][]oracle.Expected, []string, error) {
	p, err := interp.Compile(m, fn)
	if err != nil {
		return nil, nil, err
	}
	invs, err := p.RunQuads(func(x, y int) []ir.Value {
		if nparams == 0 {
			return []ir.Value{}
		}
		return []ir.Value{ir.CompositeVal(ir.Vec(4, ir.F32), ir.F32Val(float32(x)+0.5), ir.F32Val(float32(y)+0.5), ir.F32Val(0), ir.F32Val(1))}
	}, w, h, opts)
	if err != nil {
		return nil, nil, err
	}
	return invocationsExpected(m, fn, invs)
}

// retOnly keeps each invocation's first output, the entry point's result
// (interpRun's outputs follow the kernel ABI: the result, then the
// private globals).
func retOnly(outs [][]oracle.Expected) [][]oracle.Expected {
	if outs == nil {
		return nil
	}
	r := make([][]oracle.Expected, len(outs))
	for i, o := range outs {
		r[i] = o[:1]
	}
	return r
}

// emitFragment emits fragment entry point fn of m as written in format
// and mode, as a harness kernel of the fragment stage labelled label.
func emitFragment(m *ir.Module, fn string, format oracle.Format, mode wgsl.Mode, label string) (harness.Kernel, error) {
	if format == oracle.FormatWGSL {
		src, err := wgsl.EmitFragment(m, fn, wgsl.EmitOptions{Mode: mode})
		return harness.Kernel{WGSL: src, EntryPoint: fn, Label: label, Stage: harness.FragmentStage}, err
	}
	words, err := spirv.Emit(m, fn, spirv.Options{Mode: mode})
	return harness.Kernel{SPIRV: words, EntryPoint: fn, Label: label, Stage: harness.FragmentStage}, err
}

// decodeFragment decodes a fragment draw's attachments (out: each
// attachment's texels in order, row by row) into each of the n pixels'
// result: the output value, or the struct of the members' values.
func decodeFragment(out []byte, f *ir.Func, outs []wgsl.FragmentOutput, formats []harness.AttachmentFormat, n int) ([][]oracle.Expected, error) {
	want := 0
	for _, a := range formats {
		want += n * a.TexelSize()
	}
	if len(out) != want {
		return nil, fmt.Errorf("fragment draw: %d bytes back, want %d (%d pixels × %d attachments)", len(out), want, n, len(formats))
	}
	offsets := make([]int, len(formats))
	at := 0
	for i, a := range formats {
		offsets[i] = at
		at += n * a.TexelSize()
	}
	value := func(t *ir.Type, texel []byte) ir.Value {
		word := func(i int) ir.Value { return ir.ScalarVal(t.Scalar(), binary.LittleEndian.Uint32(texel[4*i:])) }
		if t.Kind != ir.KindVec {
			return word(0)
		}
		comps := make([]ir.Value, t.Len)
		for i := range comps {
			comps[i] = word(i)
		}
		return ir.CompositeVal(t, comps...)
	}
	res := make([][]oracle.Expected, n)
	for p := range res {
		vals := make([]ir.Value, len(outs))
		for i, o := range outs {
			size := formats[i].TexelSize()
			vals[i] = value(o.T, out[offsets[i]+p*size:offsets[i]+(p+1)*size])
		}
		v := vals[0]
		if f.Result.Kind == ir.KindStruct {
			members := make([]ir.Value, len(outs))
			for i, o := range outs {
				members[o.Member] = vals[i]
			}
			v = ir.CompositeVal(f.Result, members...)
		}
		res[p] = []oracle.Expected{{Value: v}}
	}
	return res, nil
}
