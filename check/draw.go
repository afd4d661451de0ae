package check

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/interp/raster"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Draws: render pipelines as written (issue 39; ARCHITECTURE.md "Render
// pipelines"). A draw case is a @vertex and a @fragment entry point, the
// draw (vertex and index buffers, counts, topology, culling), the target
// and its colour attachments, and the bindings both stages read
// (testcase.KindDraw). Its reference is the pipeline WebGPU describes,
// run by the reference's parts:
//
//  1. vertex fetch (WebGPU #vertex-processing): for each instance, each
//     vertex the draw fetches (through the index buffer and baseVertex),
//     the vertex entry point runs in the interpreter on its
//     vertex_index, instance_index and @location attributes
//     (testcase.VertexInput: the values its buffers hold, as the shader
//     reads them);
//  2. primitive assembly, culling and rasterization in interp/raster:
//     every pixel centre in, out or ambiguous, each fragment's
//     @builtin(position), front_facing and varyings as allowed sets, in
//     2×2 quads of one primitive with helper lanes;
//  3. the fragment entry point over each primitive's quads
//     (interp.Program.RunQuadList: derivatives, helpers, discard's
//     demotion); where the rasterizer leaves a choice the reference
//     makes it explicitly and keeps every outcome: flat either's
//     provoking vertex (the first or the last, one choice for the whole
//     primitive), a front_facing the positions' bounds leave open;
//  4. output merging in primitive order (WebGPU #output-merging, no
//     blending in v1): an *in* fragment that is not discarded replaces
//     the pixel's value; an *ambiguous* one, or one that may be
//     discarded, adds its value to the set beneath; a discarded one
//     leaves it; the pixel starts as the attachment's clear value. A
//     set past ir.MaxValueSet members is any value.
//
// Every pixel of every attachment is then exact, an allowed set, or any
// value, and the judge checks membership (oracle.Judge), as for compute
// outputs. An attachment's value is what its texel holds: the output's
// bits for the 32-bit formats (FragmentAttachment), the four 8-bit codes
// for rgba8unorm, where the conversion (WebGPU #texture-formats; Vulkan
// "Conversion from Floating-Point to Normalized Fixed-Point" rounds to
// nearest only as a recommendation) may land on either code around
// v·255.

// drawPair is the vertex and the fragment entry point one run draws.
type drawPair struct{ vs, fs string }

// drawExecution is a draw case between Prepare and Judge.
type drawExecution struct {
	res         *Result
	c           *testcase.Case
	vmod, fmod  *ir.Module // the stages' modules (their clones holding the twins with Flat)
	same        bool       // one module has both stages
	pairs       []drawPair // the original pair, then the twins' when there are
	outs        []wgsl.FragmentOutput
	attachments []harness.AttachmentFormat
	formats     []oracle.Format
	mode        wgsl.Mode
	label       string
	job         harness.Dispatch
	pixels      int
	twin        []oracle.Run
	// fill is how the inputs were made up (Options.Fill); unfinished
	// reports that the reference finished no pixel (the vertex stage, or
	// every fragment, ran past the step limit): no device draws it.
	fill       testcase.Fill
	unfinished bool
	// kernels caches each pair's emitted stages, [pair][format][for
	// wgpu-native: 1]: emitted once however many devices draw them.
	kernels [][][2]emitted
}

// drawTextures is the textures and samplers a draw's stages read (every
// module's, completed with the defaults), for interp and for the
// harness.
func drawTextures(c *testcase.Case, mods []*ir.Module, entries []string) (map[string]*interp.Texture, map[string]*interp.Sampler, []harness.TextureBinding, []harness.SamplerBinding, error) {
	texs, smps := map[string]*interp.Texture{}, map[string]*interp.Sampler{}
	var texJob []harness.TextureBinding
	var smpJob []harness.SamplerBinding
	seen := map[string]bool{}
	for i, m := range mods {
		if len(m.Textures) == 0 {
			continue
		}
		t, s, err := testcase.CompleteTextures(m, entries[i], c.Textures, c.Samplers)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		for k, v := range t {
			texs[k] = v
		}
		for k, v := range s {
			smps[k] = v
		}
		tj, sj, _, err := textureJob(m, entries[i], t, s)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		for _, b := range tj {
			if key := fmt.Sprintf("%d/%d", b.Group, b.Binding); !seen[key] {
				seen[key] = true
				texJob = append(texJob, b)
			}
		}
		for _, b := range sj {
			if key := fmt.Sprintf("%d/%d", b.Group, b.Binding); !seen[key] {
				seen[key] = true
				smpJob = append(smpJob, b)
			}
		}
	}
	return texs, smps, texJob, smpJob, nil
}

// drawBindings are the uniform and read-only storage buffers the stages
// use (WGSL #resource-interface: each module's used bindings, a name the
// two modules share bound once), as the harness binds them, and as values
// for the interpreter. A binding the case does not give starts zeroed.
func drawBindings(c *testcase.Case, mods []*ir.Module, entries []string) ([]harness.BufferBinding, map[string]ir.Value, error) {
	var bufs []harness.BufferBinding
	vals := map[string]ir.Value{}
	seen := map[string]bool{}
	for i, m := range mods {
		for _, v := range m.SharedUsed(entries[i]) {
			if v.Space == ir.SpaceWorkgroup || seen[v.Name] {
				continue
			}
			seen[v.Name] = true
			val, err := givenBinding(m, v, c.Bindings)
			if err != nil {
				return nil, nil, err
			}
			if bindingKind(v) == harness.BindingStorage {
				return nil, nil, &ir.Error{File: m.File, Pos: v.Pos, Pass: "check", Msg: fmt.Sprintf("binding %s: a read_write storage buffer in a render pipeline is outside what gpudiff draws (v1: uniform and read-only storage buffers)", v.Name)}
			}
			bufs = append(bufs, harness.BufferBinding{Group: uint32(v.Group), Binding: uint32(v.Binding), Kind: bindingKind(v), Data: val.Bytes})
			x, err := val.Value()
			if err != nil {
				return nil, nil, &ir.Error{File: m.File, Pos: v.Pos, Pass: "check", Msg: fmt.Sprintf("binding %s: %v", v.Name, err)}
			}
			vals[v.Name] = x
		}
	}
	return bufs, vals, nil
}

// prepareDraw is Prepare for a draw case: the reference (drawReference),
// the twins' reference with opts.Flat (both entry points flattened), and
// each device's draw of every pair in WGSL and, with opts.SPIRV,
// gpudiff's SPIR-V (both stages in the one format). Errors are setup
// failures: an entry point outside what gpudiff draws (positioned), a
// vertex the rasterizer refuses (w ≤ 0, z outside [0, w]: clipping is
// outside v1), a target of zero or too many pixels.
func prepareDraw(c *testcase.Case, opts Options) (*drawExecution, error) {
	if c.Vertex == nil || c.Draw == nil {
		return nil, fmt.Errorf("check: a draw case needs its vertex entry point and its draw (testcase.Case.Vertex, Draw)")
	}
	vmod := c.VertexModule
	if vmod == nil {
		vmod = c.Module
	}
	fmod, f := c.Module, c.Func
	w, h := c.Size[0], c.Size[1]
	if w == 0 || h == 0 || uint64(w)*uint64(h) > testcase.MaxFragmentPixels {
		return nil, fmt.Errorf("draw target %d×%d: want 1 to %d pixels, each side at least 1", w, h, testcase.MaxFragmentPixels)
	}
	if err := wgsl.CheckInterfaceIn(fmod.File, c.Vertex, f); err != nil {
		return nil, err
	}
	outs := wgsl.FragmentOutputs(f)
	attachments := c.Attachments
	if len(attachments) == 0 {
		attachments = make([]harness.AttachmentFormat, len(outs))
		for i, o := range outs {
			var err error
			if attachments[i], err = FragmentAttachment(o.T); err != nil {
				return nil, err
			}
		}
	}
	if len(attachments) != len(outs) {
		return nil, fmt.Errorf("draw: %d attachment formats for %d fragment outputs", len(attachments), len(outs))
	}
	for i, o := range outs {
		if attachments[i] == harness.RGBA8Unorm && !(o.T.Kind == ir.KindVec && o.T.Len == 4 && o.T.Elem.Kind == ir.KindF32) {
			return nil, ir.ErrorList{ir.Errorf(fmod.File, f.Pos, "check", "output %s of type %v into an rgba8unorm attachment: gpudiff draws rgba8unorm from a vec4<f32> output", o.Name, o.T)}
		}
	}
	mods, entries := []*ir.Module{vmod, fmod}, []string{c.Vertex.Name, f.Name}
	same := vmod == fmod
	bufs, bvals, err := drawBindings(c, mods, entries)
	if err != nil {
		return nil, err
	}
	texs, smps, texJob, smpJob, err := drawTextures(c, mods, entries)
	if err != nil {
		return nil, err
	}
	if len(texs) > 0 || len(smps) > 0 {
		opts.Interp.Textures, opts.Interp.Samplers = texs, smps
	}
	names := make([]string, len(outs))
	for i, o := range outs {
		names[i] = o.Name
	}
	abi, err := ir.NewKernelABI(fmod, f.Name)
	if err != nil {
		return nil, err
	}
	res := &Result{ABI: abi, Names: names}
	dr := &drawRef{c: c, outs: outs, attachments: attachments, bindings: bvals, opts: opts.Interp}
	ref, refErr, err := dr.run(vmod, c.Vertex.Name, fmod, f.Name)
	if err != nil {
		return nil, err
	}
	res.Reference, res.ReferenceErr = ref, refErr

	x := &drawExecution{res: res, c: c, vmod: vmod, fmod: fmod, same: same, pairs: []drawPair{{c.Vertex.Name, f.Name}},
		outs: outs, attachments: attachments, mode: opts.Mode, label: opts.Label, pixels: int(w * h)}
	if x.mode == "" {
		x.mode = wgsl.Portable
	}
	if opts.Flat {
		tv := ir.CloneModule(vmod)
		tf := tv
		if !same {
			tf = ir.CloneModule(fmod)
		}
		vt, ferr := flatten.Function(tv, c.Vertex.Name, opts.Flatten)
		var ft *ir.Func
		if ferr == nil {
			ft, ferr = flatten.Function(tf, f.Name, opts.Flatten)
		}
		if ferr != nil {
			res.FlattenErr = ferr
		} else {
			x.vmod, x.fmod, res.Twin = tv, tf, ft.Name
			x.pairs = append(x.pairs, drawPair{vt.Name, ft.Name})
			r := oracle.Run{Adapter: "interp", Function: ft.Name, Format: oracle.FormatIR}
			if r.Outputs, r.InvocationErr, err = dr.run(tv, vt.Name, tf, ft.Name); err != nil {
				r.Outputs, r.Failed, r.Message = nil, oracle.Error, err.Error()
			}
			x.twin = append(x.twin, r)
		}
	}
	if err := stoppedBy(opts.Interp.Context); err != nil {
		// Stopped while the reference or the twin's ran (an interrupted
		// interpreter's invocations are unfinished, not wrong): no
		// verdict, the caller's stop.
		return nil, err
	}
	x.formats = []oracle.Format{oracle.FormatWGSL}
	if opts.SPIRV {
		x.formats = append(x.formats, oracle.FormatSPIRV)
	}
	x.job = harness.Dispatch{Target: c.Size, Attachments: attachments, Entry: true, Draw: c.Draw, Buffers: bufs, Textures: texJob, Samplers: smpJob}
	x.fill = opts.Fill
	x.kernels = make([][][2]emitted, len(x.pairs))
	for i := range x.kernels {
		x.kernels[i] = make([][2]emitted, len(x.formats))
	}
	if refErr != nil && allSet(refErr) {
		x.unfinished = true // every pixel: the GPU would loop as long (a compute entry point's out-of-domain dispatch is not run either)
	}
	return x, nil
}

// allSet reports whether every entry of errs is set.
func allSet(errs []string) bool {
	for _, e := range errs {
		if e == "" {
			return false
		}
	}
	return true
}

// deviceRuns draws every pair in every format on d, per pair WGSL then
// SPIR-V; a SPIR-V run d cannot take is not made (Tested).
func (x *drawExecution) deviceRuns(ctx context.Context, d Device) []oracle.Run {
	if x.unfinished {
		return nil
	}
	var runs []oracle.Run
	wgpu := d.Info().Implementation == "wgpu"
	for i, p := range x.pairs {
		for j, format := range x.formats {
			r := oracle.Run{Adapter: d.Info().Name, Function: p.fs, Format: format, Stage: oracle.StageFragment, Mode: string(x.mode)}
			e := &x.kernels[i][j][b2i(wgpu)]
			e.once.Do(func() { e.k, e.err = x.emit(p, format, x.label+p.fs+"/"+string(format)+"/draw", wgpu) })
			k, err := e.k, e.err
			if spirv.IsUnsupported(err) || err == nil && format == oracle.FormatSPIRV && wgpu &&
				(spirv.NagaGap(k.SPIRV) != "" || spirv.NagaGap(k.VertexSPIRV) != "") {
				continue // not run: Tested drops a SPIR-V run a device cannot take
			}
			if err != nil {
				r.Failed, r.Message = oracle.Error, err.Error()
				runs = append(runs, r)
				continue
			}
			runDecoded(ctx, d, k, x.job, &r, func(out []byte) ([][]oracle.Expected, error) {
				return decodeDraw(out, x.outs, x.attachments, x.pixels)
			})
			if Tested(r) {
				runs = append(runs, r)
			}
		}
	}
	return runs
}

// runDecoded makes run r of kernel k on d — its outputs decoded from the
// bytes back, or its failure (FailRun; a decoding error is gpudiff's) —
// as a fragment case's and a draw's runs make theirs.
func runDecoded(ctx context.Context, d Device, k harness.Kernel, job harness.Dispatch, r *oracle.Run, decode func([]byte) ([][]oracle.Expected, error)) {
	out, err := d.Run(ctx, k, job)
	if err != nil {
		FailRun(r, err)
	} else if r.Outputs, err = decode(out); err != nil {
		r.Failed, r.Message = oracle.Error, err.Error()
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// emit is pair p's two stages in format as one harness kernel: the
// fragment stage's module, and the vertex stage's (WebGPU takes a module
// per stage; wgsl.EmitStage writes each with the bindings it uses).
// gpudiff's SPIR-V lowers discard as Tint's fallback does (spirv.DiscardKill:
// demotion through a flag, the invocation killed at the end), which the
// stacks without the demote extension take; a v1 fragment stage writes no
// memory, so it is exact.
//
// For wgpu-native as linked (wgpu 0.19, naga 0.19; naga19 true) the pair
// is first fitted to two rules of that release that WebGPU does not have,
// without changing what the draw computes: its pipeline validation
// refuses a vertex output the fragment stage does not read ("Location[1]
// is provided by the previous stage output but is not consumed as input
// by this stage"), so the fragment entry point takes each such output as
// an extra, unused input (fitInterface); and its WGSL front end does not
// parse an interpolation sampling of flat ("unknown attribute: 'first'",
// "'either'"), so @interpolate(flat, first) is written @interpolate(flat),
// which WGSL defines as the same, and @interpolate(flat, either) too in
// both stages, the first vertex being one of the two either allows.
func (x *drawExecution) emit(p drawPair, format oracle.Format, label string, naga19 bool) (harness.Kernel, error) {
	k := harness.Kernel{EntryPoint: p.fs, VertexEntryPoint: p.vs, Stage: harness.FragmentStage, Label: label}
	vmod, fmod := x.vmod, x.fmod
	if naga19 {
		vmod, fmod = fitInterface(x.vmod, x.fmod, p)
	}
	if format == oracle.FormatWGSL {
		var err error
		if k.WGSL, err = wgsl.EmitStage(fmod, p.fs, wgsl.EmitOptions{Mode: x.mode}); err != nil {
			return k, err
		}
		k.VertexWGSL, err = wgsl.EmitStage(vmod, p.vs, wgsl.EmitOptions{Mode: x.mode})
		if naga19 {
			k.WGSL, k.VertexWGSL = flatSamplingless(k.WGSL), flatSamplingless(k.VertexWGSL)
		}
		return k, err
	}
	var err error
	if k.SPIRV, err = spirv.Emit(fmod, p.fs, spirv.Options{Mode: x.mode, Discard: spirv.DiscardKill}); err != nil {
		return k, err
	}
	k.VertexSPIRV, err = spirv.Emit(vmod, p.vs, spirv.Options{Mode: x.mode})
	return k, err
}

// flatSamplingless writes flat's interpolation samplings as plain flat
// (emit's naga 0.19 rule).
func flatSamplingless(src string) string {
	src = strings.ReplaceAll(src, "@interpolate(flat, first)", "@interpolate(flat)")
	return strings.ReplaceAll(src, "@interpolate(flat, either)", "@interpolate(flat)")
}

// fitInterface returns the pair's modules with the fragment entry point
// taking, as extra unused inputs, the vertex outputs it does not read
// (emit's naga 0.19 rule); the modules themselves when it reads them all.
func fitInterface(vmod, fmod *ir.Module, p drawPair) (*ir.Module, *ir.Module) {
	vf, ff := vmod.Func(p.vs), fmod.Func(p.fs)
	if vf == nil || ff == nil {
		return vmod, fmod
	}
	read := map[int]bool{}
	for _, in := range wgsl.StageInputs(ff) {
		if in.Location >= 0 {
			read[in.Location] = true
		}
	}
	var extra []*ir.Param
	for _, o := range wgsl.StageOutputs(vf) {
		if o.Location >= 0 && !read[o.Location] {
			extra = append(extra, &ir.Param{Pos: ff.Pos, Name: fmt.Sprintf("gpudiff_unread_%d", o.Location), T: o.T,
				HasLocation: true, Location: o.Location, Interp: o.Interp})
		}
	}
	if len(extra) == 0 {
		return vmod, fmod
	}
	fm := ir.CloneModule(fmod)
	for i, f := range fm.Funcs {
		if f.Name == p.fs {
			g := ir.CloneFunc(f)
			g.Params = append(append([]*ir.Param(nil), g.Params...), extra...)
			fm.Funcs[i] = g
		}
	}
	if vmod == fmod {
		return fm, fm
	}
	return vmod, fm
}

// judge judges the twins' reference run and the GPU runs against the
// reference.
func (x *drawExecution) judge(devRuns [][]oracle.Run) *Result {
	res := *x.res
	runs := append([]oracle.Run(nil), x.twin...)
	for _, rs := range devRuns {
		runs = append(runs, rs...)
	}
	judgeRejections(runs, func(r oracle.Run) []harness.Need { return moduleNeeds(x.fmod, r.Function, r.Format, r.Mode) }) // check/promise.go
	res.Runs, res.Verdict = oracle.Judge(res.Reference, res.Names, runs)
	res.Verdict = settle(res.Runs, res.Verdict)
	if res.FlattenErr != nil && res.Verdict == oracle.Pass {
		res.Verdict = oracle.FlattenRejected
	}
	// Pixels the reference could not finish (the step limit: a loop
	// bounded by a made-up count): out of domain with made-up inputs,
	// else an error (check/domain.go) — never a pass.
	res.Verdict = referenceVerdict(res.Verdict, res.ReferenceErr, x.fill)
	return &res
}

// decodeDraw decodes a draw's attachments (each attachment's texels in
// order, row by row) into each of the n pixels' outputs, one per
// attachment: the output's value for a 32-bit format, the four codes
// (vec4<u32>) for rgba8unorm.
func decodeDraw(out []byte, outs []wgsl.FragmentOutput, formats []harness.AttachmentFormat, n int) ([][]oracle.Expected, error) {
	want := 0
	for _, a := range formats {
		want += n * a.TexelSize()
	}
	if len(out) != want {
		return nil, fmt.Errorf("draw: %d bytes back, want %d (%d pixels × %d attachments)", len(out), want, n, len(formats))
	}
	res := make([][]oracle.Expected, n)
	for p := range res {
		res[p] = make([]oracle.Expected, len(outs))
	}
	at := 0
	for i, o := range outs {
		size := formats[i].TexelSize()
		t := attachmentType(o.T, formats[i])
		for p := 0; p < n; p++ {
			texel := out[at+p*size : at+(p+1)*size]
			leaves := len(t.ComponentTypes())
			vals := make([]ir.Value, leaves)
			for k := range vals {
				if formats[i] == harness.RGBA8Unorm {
					vals[k] = ir.U32Val(uint32(texel[k]))
				} else {
					vals[k] = ir.ScalarVal(t.Scalar(), binary.LittleEndian.Uint32(texel[4*k:]))
				}
			}
			v := vals[0]
			if t.Kind == ir.KindVec {
				v = ir.CompositeVal(t, vals...)
			}
			res[p][i] = oracle.Expected{Value: v}
		}
		at += n * size
	}
	return res, nil
}

// attachmentType is the type of what an attachment of format holds for
// an output of type t: t itself for the 32-bit formats, vec4<u32> codes
// for rgba8unorm.
func attachmentType(t *ir.Type, format harness.AttachmentFormat) *ir.Type {
	if format == harness.RGBA8Unorm {
		return ir.Vec(4, ir.U32)
	}
	return t
}

// drawRef runs a draw case's reference pipeline (the package comment of
// this file, steps 1–4) for one pair of entry points.
type drawRef struct {
	// errs is the reference's error per pixel of the run in progress
	// (nil: every pixel finished).
	errs        []string
	c           *testcase.Case
	outs        []wgsl.FragmentOutput
	attachments []harness.AttachmentFormat
	bindings    map[string]ir.Value
	opts        interp.Options
}

// leafSet is one leaf's allowed values at a pixel: a ValueSet, any value
// when any is set (ir.ValueSet's own empty set means any too, but a union
// needs to tell it from "nothing yet").
type leafSet struct {
	set ir.ValueSet
	any bool
}

// run is the reference of pair (vs of vmod, fs of fmod): one Expected per
// attachment per pixel, in row order, and per pixel the reference's error
// where it could not finish it (nil when it finished every pixel): a
// fragment past the step limit, or every pixel when a vertex is.
func (d *drawRef) run(vmod *ir.Module, vs string, fmod *ir.Module, fs string) ([][]oracle.Expected, []string, error) {
	c := d.c
	vf, ff := vmod.Func(vs), fmod.Func(fs)
	if vf == nil || ff == nil {
		return nil, nil, fmt.Errorf("draw: no entry points %s and %s", vs, fs)
	}
	vp, err := interp.CompileBindings(vmod, vs, d.bindingsOf(vmod, vs))
	if err != nil {
		return nil, nil, err
	}
	fp, err := interp.CompileBindings(fmod, fs, d.bindingsOf(fmod, fs))
	if err != nil {
		return nil, nil, err
	}
	d.errs = nil
	w, h := int(c.Size[0]), int(c.Size[1])
	// The pixels' sets, [attachment][pixel][leaf], start at the clear value.
	state := make([][][]leafSet, len(d.outs))
	for i, o := range d.outs {
		clear := [4]float64{}
		if i < len(c.Draw.Clear) {
			clear = c.Draw.Clear[i]
		}
		cl := clearLeaves(attachmentType(o.T, d.attachments[i]), d.attachments[i], clear)
		state[i] = make([][]leafSet, w*h)
		for p := range state[i] {
			state[i][p] = append([]leafSet(nil), cl...)
		}
	}
	dr, err := d.rasterDraw(vmod.File, vf, ff)
	if err != nil {
		return nil, nil, err
	}
	for _, inst := range d.instances() {
		for _, strip := range d.vertexLists() {
			verts, err := d.vertexStage(vp, vf, inst, strip, dr)
			var ue *unfinishedVertex
			if errors.As(err, &ue) {
				// A vertex past the step limit: no pixel of the draw is
				// known.
				ref := make([][]oracle.Expected, w*h)
				errs := make([]string, w*h)
				for p := range ref {
					ref[p] = make([]oracle.Expected, len(d.outs))
					for i, o := range d.outs {
						t := attachmentType(o.T, d.attachments[i])
						ref[p][i] = leavesExpected(t, anyLeaves(d.outs[i:i+1], d.attachments[i:i+1])[0])
					}
					errs[p] = ue.msg
				}
				return ref, errs, nil
			}
			if err != nil {
				return nil, nil, err
			}
			prims, err := raster.Rasterize(dr.Draw, verts)
			if err != nil {
				if ve, ok := err.(*raster.VertexError); ok {
					return nil, nil, ir.ErrorList{ir.Errorf(vmod.File, vf.Pos, "check", "vertex stage %s: %s (instance %d): gpudiff draws vertices with 0 ≤ z ≤ w and w > 0 only (no clipping in v1)", vs, ve.Error(), inst)}
				}
				return nil, nil, err
			}
			for pi := range prims {
				if err := d.fragmentStage(fp, ff, &prims[pi], verts, dr, state); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	ref := make([][]oracle.Expected, w*h)
	for p := range ref {
		ref[p] = make([]oracle.Expected, len(d.outs))
		for i, o := range d.outs {
			ref[p][i] = leavesExpected(attachmentType(o.T, d.attachments[i]), state[i][p])
		}
	}
	return ref, d.errs, nil
}

// unfinishedVertex is a vertex the reference could not finish (its
// error's text: the step limit, positioned at the loop).
type unfinishedVertex struct{ msg string }

func (e *unfinishedVertex) Error() string { return e.msg }

// bindingsOf is the bindings fn of m reads, as values.
func (d *drawRef) bindingsOf(m *ir.Module, fn string) map[string]ir.Value {
	out := map[string]ir.Value{}
	for _, v := range m.SharedUsed(fn) {
		if x, ok := d.bindings[v.Name]; ok {
			out[v.Name] = x
		}
	}
	return out
}

// rasterSetup is the rasterizer's draw and, per varying leaf, which
// fragment input it is.
type rasterSetup struct {
	raster.Draw
	// ins are the fragment entry point's inputs (wgsl.StageInputs); leaf
	// k of Varyings is component comp[k] of input ins[in[k]].
	ins      []wgsl.StageIO
	in, comp []int
	// outLeaf[k] is where varying leaf k is in the vertex stage's result:
	// the output (wgsl.StageOutputs) and the component.
	vouts    []wgsl.StageIO
	out      []int
	position int // the vertex output that is @builtin(position)
}

// rasterDraw is the rasterizer's view of the draw for vertex entry point
// vf (of file vfile) and fragment entry point ff: topology, culling, the
// target, and the varyings the fragment stage reads, each matched with
// the vertex output at its location.
func (d *drawRef) rasterDraw(vfile string, vf, ff *ir.Func) (*rasterSetup, error) {
	c := d.c
	var err error
	s := &rasterSetup{Draw: raster.Draw{Width: int(c.Size[0]), Height: int(c.Size[1])}, position: -1}
	if s.Topology, err = raster.ParseTopology(orDefault(c.Draw.Topology, "triangle-list")); err != nil {
		return nil, err
	}
	if s.CullMode, err = raster.ParseCullMode(orDefault(c.Draw.CullMode, "none")); err != nil {
		return nil, err
	}
	if s.FrontFace, err = raster.ParseFrontFace(orDefault(c.Draw.FrontFace, "ccw")); err != nil {
		return nil, err
	}
	s.vouts = wgsl.StageOutputs(vf)
	byLoc := map[int]int{}
	for i, o := range s.vouts {
		if o.Builtin == "position" {
			s.position = i
		} else if o.Location >= 0 {
			byLoc[o.Location] = i
		}
	}
	if s.position < 0 {
		return nil, ir.ErrorList{ir.Errorf(vfile, vf.Pos, "check", "vertex entry point %s writes no @builtin(position)", vf.Name)}
	}
	s.ins = wgsl.StageInputs(ff)
	for i, in := range s.ins {
		if in.Location < 0 {
			continue
		}
		oi, ok := byLoc[in.Location]
		if !ok {
			return nil, ir.ErrorList{ir.Errorf(c.Module.File, in.Pos, "check", "fragment input @location(%d) has no vertex output", in.Location)}
		}
		mode, err := raster.InterpOf(in.Interp, in.T)
		if err != nil {
			return nil, ir.ErrorList{ir.Errorf(c.Module.File, in.Pos, "check", "%v", err)}
		}
		n := 1
		if in.T.Kind == ir.KindVec {
			n = in.T.Len
		}
		for k := 0; k < n; k++ {
			s.Varyings = append(s.Varyings, raster.Varying{Type: in.T.Scalar(), Interp: mode})
			s.in, s.comp, s.out = append(s.in, i), append(s.comp, k), append(s.out, oi)
		}
	}
	return s, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// instances are the instance indices the draw runs (WebGPU: firstInstance
// to firstInstance + instanceCount − 1; an instance count of 0 counts as 1
// here, as harness.Draw says).
func (d *drawRef) instances() []uint32 {
	n := d.c.Draw.InstanceCount
	if n == 0 {
		n = 1
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = d.c.Draw.FirstInstance + uint32(i)
	}
	return out
}

// vertexLists are the vertex indices the draw fetches, in order: firstVertex
// on for a non-indexed draw, else each index of the index buffer from
// firstIndex on plus baseVertex; an indexed strip restarts at the
// primitive-restart value (WebGPU #primitive-assembly: 0xFFFF, 0xFFFFFFFF),
// which splits it into lists assembled one after another.
func (d *drawRef) vertexLists() [][]uint32 {
	dw := d.c.Draw
	if dw.Index == nil {
		l := make([]uint32, dw.Count)
		for i := range l {
			l[i] = dw.FirstVertex + uint32(i)
		}
		return [][]uint32{l}
	}
	size, restart := 4, uint32(0xFFFFFFFF)
	if dw.Index.Format == "uint16" {
		size, restart = 2, 0xFFFF
	}
	strip := dw.Topology == "triangle-strip"
	var lists [][]uint32
	var cur []uint32
	for k := uint32(0); k < dw.Count; k++ {
		at := int(dw.FirstIndex+k) * size
		if at+size > len(dw.Index.Data) {
			break // out of range: CheckDraw refuses such a draw before it runs
		}
		var idx uint32
		if size == 2 {
			idx = uint32(binary.LittleEndian.Uint16(dw.Index.Data[at:]))
		} else {
			idx = binary.LittleEndian.Uint32(dw.Index.Data[at:])
		}
		if strip && idx == restart {
			lists = append(lists, cur)
			cur = nil
			continue
		}
		cur = append(cur, uint32(int64(idx)+int64(dw.BaseVertex)))
	}
	return append(lists, cur)
}

// vertexStage runs the vertex entry point for each vertex of list in
// instance inst and returns the vertices as the rasterizer takes them:
// position, and each varying leaf the fragment stage reads, with the
// reference's bounds (an indeterminate leaf is any value).
func (d *drawRef) vertexStage(p *interp.Program, vf *ir.Func, inst uint32, list []uint32, s *rasterSetup) ([]raster.Vertex, error) {
	var err error
	args := make([][]ir.Value, len(list))
	for i, idx := range list {
		if args[i], err = d.vertexArgs(vf, idx, inst); err != nil {
			return nil, err
		}
	}
	invs, err := p.Run(args, d.opts)
	if err != nil {
		return nil, err
	}
	verts := make([]raster.Vertex, len(list))
	for i, inv := range invs {
		if inv.Err != nil {
			if isStepLimit(inv.Err.Error()) {
				return nil, &unfinishedVertex{msg: inv.Err.Error()}
			}
			return nil, fmt.Errorf("vertex stage %s, vertex %d of instance %d: %v", vf.Name, list[i], inst, inv.Err)
		}
		out := inv.Outputs[0]
		leaves, tols := flatLeaves(out)
		at := leafOffsets(vf.Result)
		pos := s.vouts[s.position]
		base := at[outIndex(pos)]
		v := raster.Vertex{}
		for k := 0; k < 4; k++ {
			v.Position[k] = leaves[base+k].F32()
			v.PosTol[k] = tols[base+k]
		}
		v.Values, v.Tol = make([]ir.Value, len(s.Varyings)), make([]float64, len(s.Varyings))
		for k := range s.Varyings {
			o := s.vouts[s.out[k]]
			j := at[outIndex(o)] + s.comp[k]
			v.Values[k], v.Tol[k] = leaves[j], tols[j]
		}
		verts[i] = v
	}
	return verts, nil
}

// outIndex is output o's index among its function's result leaves'
// groups: its member, or 0 for a bare result.
func outIndex(o wgsl.StageIO) int {
	if len(o.Path) == 0 {
		return 0
	}
	return o.Path[0]
}

// leafOffsets is, for a struct result, the index of each member's first
// leaf among the result's leaves ([0] for a bare result).
func leafOffsets(t *ir.Type) []int {
	if t.Kind != ir.KindStruct {
		return []int{0}
	}
	out := make([]int, len(t.Struct.Fields))
	at := 0
	for i, f := range t.Struct.Fields {
		out[i] = at
		at += len(f.Type.ComponentTypes())
	}
	return out
}

// flatLeaves is an output's scalar leaves and each one's bound: its
// tolerance, +Inf where the reference leaves it indeterminate.
func flatLeaves(o interp.Output) ([]ir.Value, []float64) {
	var lc leafCollector
	ir.WalkValue(o.Value, &lc)
	leaves := lc.leaves
	tols := make([]float64, len(leaves))
	for i := range tols {
		if i < len(o.Tolerance) {
			tols[i] = o.Tolerance[i]
		}
		if i < len(o.Indeterminate) && o.Indeterminate[i] {
			tols[i] = math.Inf(1)
		}
	}
	return leaves, tols
}

// vertexArgs are the vertex entry point's arguments for vertex idx of
// instance inst: vertex_index, instance_index, and each @location
// attribute's value (testcase.VertexInput, by step mode).
func (d *drawRef) vertexArgs(vf *ir.Func, idx, inst uint32) ([]ir.Value, error) {
	ins := wgsl.StageInputs(vf)
	leaf := func(io wgsl.StageIO) (ir.Value, error) {
		switch io.Builtin {
		case "vertex_index":
			return ir.U32Val(idx), nil
		case "instance_index":
			return ir.U32Val(inst), nil
		}
		for _, vi := range d.c.VertexInputs {
			if vi.Location != io.Location {
				continue
			}
			k := idx
			if vi.StepMode == "instance" {
				k = inst
			}
			if int(k) >= len(vi.Values) {
				return ir.Value{}, fmt.Errorf("vertex stage %s: attribute @location(%d) %s has %d values, the draw reads %s %d (gpudiff draws within the vertex buffers: WebGPU's out-of-bounds vertex fetch is implementation-defined)", vf.Name, io.Location, vi.Name, len(vi.Values), vi.StepMode, k)
			}
			return vi.Values[k], nil
		}
		return ir.Value{}, fmt.Errorf("vertex stage %s: no vertex buffer attribute for @location(%d) %s", vf.Name, io.Location, io.Name)
	}
	args := make([]ir.Value, len(vf.Params))
	members := make([][]ir.Value, len(vf.Params))
	for _, io := range ins {
		v, err := leaf(io)
		if err != nil {
			return nil, err
		}
		pi := io.Path[0]
		if len(io.Path) == 1 {
			args[pi] = v
			continue
		}
		if members[pi] == nil {
			members[pi] = make([]ir.Value, len(vf.Params[pi].T.Struct.Fields))
		}
		members[pi][io.Path[1]] = v
	}
	for i, m := range members {
		if m != nil {
			args[i] = ir.CompositeVal(vf.Params[i].T, m...)
		}
	}
	return args, nil
}

// fragmentStage runs the fragment entry point over primitive pr's quads —
// once per choice the rasterizer leaves open (flat either's provoking
// vertex, an ambiguous front_facing) — and merges each covered pixel's
// outputs into state.
func (d *drawRef) fragmentStage(p *interp.Program, ff *ir.Func, pr *raster.Primitive, verts []raster.Vertex, s *rasterSetup, state [][][]leafSet) error {
	if pr.Culled == raster.IsCulled || len(pr.Quads) == 0 {
		return nil
	}
	provoking := []int{0}
	for k, v := range s.Varyings {
		if v.Interp == raster.FlatEither && !sameLeaf(verts[pr.Vertices[0]], verts[pr.Last], k) {
			provoking = []int{0, 1}
			break
		}
	}
	facings := []bool{pr.Facing == raster.FrontFacing}
	if pr.Facing == raster.FacingAmbiguous {
		facings = []bool{true, false}
	}
	choices := len(provoking) * len(facings)
	// Each choice's outcome at a pixel: what its fragment writes; the
	// pixel then takes the union over choices.
	type write struct {
		leaves [][]leafSet // [attachment][leaf]
		cover  raster.Coverage
		maybe  bool // may be discarded
		none   bool // discarded on every path
	}
	writes := map[int][]write{}
	for _, pv := range provoking {
		for _, front := range facings {
			quads := make([]interp.Quad, len(pr.Quads))
			for qi, q := range pr.Quads {
				for l, lane := range q.Lanes {
					args, tols := d.fragmentArgs(ff, &lane.Fragment, s, pv, front)
					quads[qi][l] = interp.QuadLane{Args: args, Tol: tols, Helper: lane.Coverage == raster.Out || !lane.InTarget}
				}
			}
			results, err := p.RunQuadList(quads, d.opts)
			if err != nil {
				return err
			}
			for qi, q := range pr.Quads {
				for l, lane := range q.Lanes {
					if !lane.InTarget || lane.Coverage == raster.Out {
						continue
					}
					r := results[qi][l]
					px := lane.Y*s.Width + lane.X
					wr := write{cover: lane.Coverage, maybe: r.MayDiscard && !r.Discarded, none: r.Discarded} // MayDiscard holds where Discarded does (interp.Invocation)
					if r.Err != nil {
						// Not finished (the step limit): the pixel is any
						// value, and the reference says why.
						wr.maybe = true
						wr.leaves = anyLeaves(d.outs, d.attachments)
						if lane.Coverage == raster.In {
							d.unfinished(px, s.Width*s.Height, r.Err.Error())
						}
					} else if !wr.none {
						wr.leaves = d.outputLeaves(ff, r.Outputs[0])
					}
					writes[px] = append(writes[px], wr)
				}
			}
		}
	}
	for px, ws := range writes {
		// One choice is the primitive's: the pixel may end with any of
		// their outcomes. A fragment that is in, not discarded, under
		// every choice replaces the value; otherwise the outcomes join
		// the value beneath.
		replace := len(ws) == choices
		for _, wr := range ws {
			if wr.cover != raster.In || wr.maybe || wr.none || pr.Culled == raster.MaybeCulled {
				replace = false
			}
		}
		for i := range d.outs {
			var next []leafSet
			if !replace {
				next = state[i][px]
			}
			for _, wr := range ws {
				if wr.none {
					continue
				}
				next = unionLeaves(next, wr.leaves[i])
			}
			if next != nil {
				state[i][px] = next
			}
		}
	}
	return nil
}

// sameLeaf reports whether varying leaf k is the same at vertices a and b.
func sameLeaf(a, b raster.Vertex, k int) bool {
	return a.Values[k].Bits == b.Values[k].Bits && a.Tol[k] == b.Tol[k]
}

// fragmentArgs are the fragment entry point's arguments at fragment fr and
// their bounds: @builtin(position), front_facing, and each varying's value
// (provoking selects flat either's member: 0 the first vertex, 1 the last).
func (d *drawRef) fragmentArgs(ff *ir.Func, fr *raster.Fragment, s *rasterSetup, provoking int, front bool) ([]ir.Value, [][]float64) {
	args := make([]ir.Value, len(ff.Params))
	tols := make([][]float64, len(ff.Params))
	type leafVal struct {
		v   ir.Value
		tol float64
	}
	fromSet := func(set ir.ValueSet, t *ir.Type, member int) leafVal {
		if set.IsAny() {
			return leafVal{ir.Zero(t), math.Inf(1)}
		}
		if set.HasRange && len(set.Values) == 0 {
			if t.Kind == ir.KindF32 {
				lo, hi := float64(math.Float32frombits(set.Lo)), float64(math.Float32frombits(set.Hi))
				return leafVal{ir.F32Val(float32((lo + hi) / 2)), (hi - lo) / 2}
			}
			return leafVal{ir.ScalarVal(t, set.Lo), math.Inf(1)}
		}
		m := min(member, len(set.Values)-1)
		tol := 0.0
		if set.Tol != nil {
			tol = set.Tol[m]
		}
		return leafVal{ir.ScalarVal(t, set.Values[m]), tol}
	}
	leafOf := func(io wgsl.StageIO, comp int) leafVal {
		switch io.Builtin {
		case "position":
			return fromSet(fr.Position[comp], ir.F32, 0)
		case "front_facing":
			return leafVal{ir.BoolVal(front), 0}
		}
		for k := range s.Varyings {
			if s.ins[s.in[k]].Location == io.Location && s.comp[k] == comp {
				return fromSet(fr.Varyings[k], s.Varyings[k].Type, provoking)
			}
		}
		return leafVal{ir.Zero(io.T.Scalar()), math.Inf(1)}
	}
	members := make([][]ir.Value, len(ff.Params))
	mtols := make([][][]float64, len(ff.Params))
	for _, io := range s.ins {
		n := 1
		if io.T.Kind == ir.KindVec {
			n = io.T.Len
		}
		comps := make([]ir.Value, n)
		ct := make([]float64, n)
		for k := 0; k < n; k++ {
			lv := leafOf(io, k)
			comps[k], ct[k] = lv.v, lv.tol
		}
		v := comps[0]
		if io.T.Kind == ir.KindVec {
			v = ir.CompositeVal(io.T, comps...)
		}
		pi := io.Path[0]
		if len(io.Path) == 1 {
			args[pi], tols[pi] = v, ct
			continue
		}
		if members[pi] == nil {
			members[pi] = make([]ir.Value, len(ff.Params[pi].T.Struct.Fields))
			mtols[pi] = make([][]float64, len(ff.Params[pi].T.Struct.Fields))
		}
		members[pi][io.Path[1]], mtols[pi][io.Path[1]] = v, ct
	}
	for i, m := range members {
		if m == nil {
			continue
		}
		args[i] = ir.CompositeVal(ff.Params[i].T, m...)
		for _, t := range mtols[i] {
			tols[i] = append(tols[i], t...)
		}
	}
	for i := range tols {
		if tols[i] != nil && allZero(tols[i]) {
			tols[i] = nil
		}
	}
	return args, tols
}

func allZero(xs []float64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}

// outputLeaves is a fragment's result as what each attachment's texel
// holds, leaf by leaf (the file comment: the output's value within its
// bound for the 32-bit formats; rgba8unorm's codes around v·255).
func (d *drawRef) outputLeaves(ff *ir.Func, out interp.Output) [][]leafSet {
	leaves, tols := flatLeaves(out)
	at := leafOffsets(ff.Result)
	res := make([][]leafSet, len(d.outs))
	for i, o := range d.outs {
		base := at[0]
		if o.Member >= 0 {
			base = at[o.Member]
		}
		n := len(o.T.ComponentTypes())
		res[i] = make([]leafSet, n)
		for k := 0; k < n; k++ {
			v, t := leaves[base+k], tols[base+k]
			res[i][k] = texelLeaf(v, t, d.attachments[i])
		}
	}
	return res
}

// texelLeaf is the set a texel's channel may hold for an output leaf v
// within tol, in an attachment of format.
func texelLeaf(v ir.Value, tol float64, format harness.AttachmentFormat) leafSet {
	if math.IsInf(tol, 0) || math.IsNaN(tol) {
		return leafSet{any: true}
	}
	if format == harness.RGBA8Unorm {
		x := float64(v.F32())
		if math.IsNaN(x) {
			return leafSet{any: true}
		}
		return leafSet{set: unormCodes(x-tol, x+tol)}
	}
	if v.Type.Kind == ir.KindF32 {
		if f := v.F32(); math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return leafSet{any: true} // a non-finite value is indeterminate (WGSL #floating-point-evaluation)
		}
	}
	s := ir.ValueSet{Values: []uint32{v.Bits}}
	if tol > 0 {
		s.Tol = []float64{tol}
	}
	return leafSet{set: s}
}

// unormCodes is the set of 8-bit unorm codes a value in [lo, hi] may
// convert to: clamped to [0, 1], then either neighbour of x·255.
func unormCodes(lo, hi float64) ir.ValueSet {
	cl := func(x float64) float64 { return math.Max(0, math.Min(1, x)) }
	a, b := uint32(math.Floor(cl(lo)*255)), uint32(math.Ceil(cl(hi)*255))
	if b-a > 3 {
		return ir.Interval(a, b)
	}
	// A few codes as members, so that a union with another pixel value
	// (the clear value beneath an edge) stays those codes, not their hull.
	var s ir.ValueSet
	for c := a; c <= b; c++ {
		s, _ = s.Add(c, 0)
	}
	return s
}

// clearLeaves is an attachment's clear value (WebGPU GPURenderPassColorAttachment
// clearValue, converted to the format) as leaves of t.
func clearLeaves(t *ir.Type, format harness.AttachmentFormat, clear [4]float64) []leafSet {
	n := len(t.ComponentTypes())
	out := make([]leafSet, n)
	for k := 0; k < n; k++ {
		c := clear[k]
		switch {
		case format == harness.RGBA8Unorm:
			out[k] = leafSet{set: unormCodes(c, c)}
		case t.Scalar().Kind == ir.KindF32:
			out[k] = leafSet{set: ir.ValueSet{Values: []uint32{math.Float32bits(float32(c))}}}
		case t.Scalar().Kind == ir.KindI32:
			out[k] = leafSet{set: ir.ValueSet{Values: []uint32{uint32(int32(c))}}}
		default:
			out[k] = leafSet{set: ir.ValueSet{Values: []uint32{uint32(c)}}}
		}
	}
	return out
}

// anyLeaves is "any value" for every leaf of every attachment.
func anyLeaves(outs []wgsl.FragmentOutput, formats []harness.AttachmentFormat) [][]leafSet {
	res := make([][]leafSet, len(outs))
	for i, o := range outs {
		res[i] = make([]leafSet, len(attachmentType(o.T, formats[i]).ComponentTypes()))
		for k := range res[i] {
			res[i][k].any = true
		}
	}
	return res
}

// unionLeaves is the leafwise union of a and b (a nil: b).
func unionLeaves(a, b []leafSet) []leafSet {
	if a == nil {
		return append([]leafSet(nil), b...)
	}
	out := make([]leafSet, len(a))
	for k := range a {
		if a[k].any || b[k].any {
			out[k].any = true
			continue
		}
		u, ok := unionSet(a[k].set, b[k].set)
		out[k] = leafSet{set: u, any: !ok}
	}
	return out
}

// unionSet is the union of two non-empty sets; ok false past
// ir.MaxValueSet members (then any value).
func unionSet(a, b ir.ValueSet) (ir.ValueSet, bool) {
	if a.HasRange || b.HasRange {
		if len(a.Values) == 0 && len(b.Values) == 0 {
			// two intervals of codes (rgba8unorm): their hull, which holds
			// every code either allows (a superset: sound).
			return ir.Interval(min(a.Lo, b.Lo), max(a.Hi, b.Hi)), true
		}
		return ir.ValueSet{}, false
	}
	out := a
	for i, v := range b.Values {
		t := 0.0
		if b.Tol != nil {
			t = b.Tol[i]
		}
		var ok bool
		if out, ok = out.Add(v, t); !ok {
			return ir.ValueSet{}, false
		}
	}
	return out, true
}

// leavesExpected is a pixel's reference for one attachment: exact where a
// leaf has one value, within its tolerance where one value and a bound,
// else indeterminate with its allowed set (an empty set: any value).
func leavesExpected(t *ir.Type, leaves []leafSet) oracle.Expected {
	n := len(leaves)
	vals := make([]ir.Value, n)
	e := oracle.Expected{}
	st := t.Scalar()
	for k, l := range leaves {
		switch {
		case l.any:
			vals[k] = ir.Zero(st)
			setIndet(&e, n, k, ir.ValueSet{})
		case len(l.set.Values) == 1 && !l.set.HasRange:
			vals[k] = ir.ScalarVal(st, l.set.Values[0])
			if l.set.Tol != nil && l.set.Tol[0] > 0 {
				if e.Tolerance == nil {
					e.Tolerance = make([]float64, n)
				}
				e.Tolerance[k] = l.set.Tol[0]
			}
		case len(l.set.Values) == 0 && l.set.HasRange && l.set.Lo == l.set.Hi:
			vals[k] = ir.ScalarVal(st, l.set.Lo)
		default:
			if len(l.set.Values) > 0 {
				vals[k] = ir.ScalarVal(st, l.set.Values[0])
			} else {
				vals[k] = ir.ScalarVal(st, l.set.Lo)
			}
			setIndet(&e, n, k, l.set)
		}
	}
	e.Value = vals[0]
	if t.Kind == ir.KindVec {
		e.Value = ir.CompositeVal(t, vals...)
	}
	if e.Indeterminate != nil {
		e.Why = "the draw leaves this pixel open: an edge within the rasterizer's latitude, a discard on some path, flat either's provoking vertex or an ambiguous facing (check/draw.go)"
	}
	return e
}

func setIndet(e *oracle.Expected, n, k int, set ir.ValueSet) {
	if e.Indeterminate == nil {
		e.Indeterminate = make([]bool, n)
		e.Allowed = make([]ir.ValueSet, n)
	}
	e.Indeterminate[k], e.Allowed[k] = true, set
}

// leafCollector gathers a value's scalar leaves in ComponentTypes order.
type leafCollector struct{ leaves []ir.Value }

func (l *leafCollector) Open(*ir.Type, int)     {}
func (l *leafCollector) Child(*ir.Type, int)    {}
func (l *leafCollector) Close(*ir.Type)         {}
func (l *leafCollector) Leaf(_ int, v ir.Value) { l.leaves = append(l.leaves, v) }

// unfinished records that the reference could not finish pixel px of n.
func (d *drawRef) unfinished(px, n int, msg string) {
	if d.errs == nil {
		d.errs = make([]string, n)
	}
	if d.errs[px] == "" {
		d.errs[px] = msg
	}
}
