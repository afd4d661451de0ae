package spirv

import (
	"github.com/gpudiff/gpudiff/ir"
)

// Render-pipeline entry points as written (issue 39; ARCHITECTURE.md
// "Entry points as written (fragment)"; ir/stage_io.go): a @vertex entry
// point becomes an OpEntryPoint Vertex, a @fragment one an OpEntryPoint
// Fragment with OriginUpperLeft (Vulkan's only origin, SPIR-V §3.6), each
// in a module of its own (WebGPU takes a module per stage; the two
// modules of a draw mix with WGSL ones in one render pipeline).
//
// The entry point and the functions it calls are ordinary functions: the
// entry point takes its inputs as parameters and returns its outputs. The
// OpEntryPoint's function (no parameters, SPIR-V §2.16.1) loads every
// input from its Input variable, calls it, and stores its result, or each
// member of a struct result, to an Output variable (struct-typed IO is
// one variable per member; WGSL #stage-inputs-outputs). The interface
// lists every Input and Output variable (SPIR-V 1.3: those only).
//
// Variables (Vulkan §15.1 "Shader Input and Output Interfaces", §15.9
// "Built-In Variables"):
//
//	WGSL                                SPIR-V
//	@builtin(vertex_index) u32          Input  BuiltIn VertexIndex   (vertex)
//	@builtin(instance_index) u32        Input  BuiltIn InstanceIndex (vertex)
//	@builtin(position) vec4<f32> out    Output BuiltIn Position      (vertex)
//	@builtin(position) vec4<f32> in     Input  BuiltIn FragCoord     (fragment)
//	@builtin(front_facing) bool         Input  BuiltIn FrontFacing   (fragment)
//	@location(n) T                      Input or Output, Location n
//
// WGSL's vertex_index counts from firstVertex (or is baseVertex plus the
// index buffer's entry) and instance_index from firstInstance (WGSL
// #builtin-values); Vulkan's VertexIndex begins at vkCmdDraw's
// firstVertex (or is the index buffer's entry plus vkCmdDrawIndexed's
// vertexOffset) and InstanceIndex at firstInstance (Vulkan §15.9,
// "VertexIndex", "InstanceIndex"), so they load unchanged. Position is a plain BuiltIn Output variable (as Tint
// writes it), not a gl_PerVertex block; its coordinates are WebGPU's
// clip space as written, since the module is consumed by a WebGPU
// implementation (wgpu reads it with naga's SPIR-V front end without
// adjusting the coordinate space, Dawn with Tint's reader), which maps
// BuiltIn Position to @builtin(position) and applies its own y flip.
//
// Interpolation (WGSL #interpolation, resolved by ir.Interpolation.Resolved;
// Vulkan §15.1.7 "Interpolation Decorations") decorates the varyings —
// the vertex stage's @location outputs and the fragment stage's @location
// inputs — alike, so that a WebGPU implementation matching the two stages'
// interfaces (wgpu compares their interpolations) sees WGSL's:
// flat (and every integer varying, which Vulkan requires Flat on a
// fragment input) is Flat, linear is NoPerspective, perspective has no
// decoration. The samplings center, first and either have no decoration:
// center is Vulkan's default position for a single-sample target, and
// Vulkan's Flat takes the provoking vertex, the first vertex of the
// primitive without VK_EXT_provoking_vertex (Vulkan §28.11 "Flat
// Shading"), which both first and either allow. Vertex inputs and
// fragment outputs carry no interpolation decoration (Vulkan forbids it,
// VUID-StandaloneSpirv-Flat-06201/06202). centroid and sample sampling,
// and the builtins sample_index, sample_mask, frag_depth and
// clip_distances, are refused, positioned (the front end refuses them
// first).
//
// Bindings: each var<uniform> and var<storage> the stage's call graph uses
// is a Uniform or StorageBuffer Block variable, and each texture and
// sampler a UniformConstant one, as for a compute entry point as written
// (declareShared, declareTextures); var<workgroup> and barriers are
// refused (compute only, WGSL #address-spaces).
//
// Discard (WGSL #discard-statement) demotes the invocation to a helper
// invocation: it keeps running, so its quad's derivatives still see its
// values, and its later stores and its outputs are dropped. Options.Discard
// selects the lowering:
//
//   - DiscardDemote (the default): OpDemoteToHelperInvocation (opcode
//     5380; SPV_EXT_demote_to_helper_invocation with the capability
//     DemoteToHelperInvocation, core in SPIR-V 1.6), which is WGSL's
//     semantics exactly, as Tint emits where the device has
//     VK_EXT_shader_demote_to_helper_invocation (core in Vulkan 1.3;
//     lavapipe and SwiftShader have it). wgpu 0.19.4's SPIR-V front end
//     refuses the capability (NagaGap).
//   - DiscardKill: for a stack that cannot take the extension, demotion is
//     emulated as Tint's DemoteToHelper transform does: discard sets a
//     Private bool and execution continues, and after the entry point
//     returns the wrapper executes OpKill (SPIR-V §3.52.17) when the flag
//     is set, so no output of a discarded fragment is written and its
//     quad keeps running until then. A demoted invocation's stores to
//     storage memory cannot be dropped this way: a module that discards
//     and uses a writable storage buffer or storage texture is refused
//     under DiscardKill (IsUnsupported).
//
// A discard outside a fragment entry point's call graph is an error.

// Discard is how Emit lowers a fragment entry point's discard statement
// (see render.go's comment and Options.Discard).
type Discard string

const (
	// DiscardDemote lowers discard to OpDemoteToHelperInvocation
	// (SPV_EXT_demote_to_helper_invocation). The zero value "" means it.
	DiscardDemote Discard = "demote"
	// DiscardKill emulates demotion with a flag and an OpKill after the
	// entry point returns, for stacks without the extension (wgpu's
	// SPIR-V front end).
	DiscardKill Discard = "kill"
)

// extDemote is the extension of OpDemoteToHelperInvocation before SPIR-V 1.6.
const extDemote = "SPV_EXT_demote_to_helper_invocation"

// renderBuiltin is a WGSL builtin value of a render stage and its SPIR-V
// variable.
type renderBuiltin struct {
	builtIn uint32
	t       *ir.Type
}

// renderBuiltins maps (stage, direction, WGSL name) to the BuiltIn of its
// variable (WGSL #builtin-values; Vulkan §15.9).
var renderBuiltins = map[ir.Stage]map[uint32]map[string]renderBuiltin{
	ir.StageVertex: {
		storageClassInput: {
			"vertex_index":   {builtInVertexIndex, ir.U32},
			"instance_index": {builtInInstanceIndex, ir.U32},
		},
		storageClassOutput: {
			"position": {builtInPosition, ir.Vec(4, ir.F32)},
		},
	},
	ir.StageFragment: {
		storageClassInput: {
			"position":     {builtInFragCoord, ir.Vec(4, ir.F32)},
			"front_facing": {builtInFrontFacing, ir.Bool},
			// WGSL #subgroup-builtin-values: u32 Inputs, decorated Flat
			// (builtinIO) as every integer fragment Input (Vulkan
			// VUID-StandaloneSpirv-Flat-04744), capability GroupNonUniform.
			"subgroup_invocation_id": {builtInSubgroupLocalInvocationId, ir.U32},
			"subgroup_size":          {builtInSubgroupSize, ir.U32},
		},
		storageClassOutput: {},
	},
}

// emitRender emits the vertex or fragment entry point ep of m as written
// (see render.go's comment): the functions it calls, the private globals,
// bindings, textures and samplers they use, and the OpEntryPoint.
func emitRender(m *ir.Module, ep *ir.Func, opts Options, w workarounds) ([]uint32, error) {
	e := newEmitter(m, opts, w)
	e.stage = ep.Stage
	e.derivatives = ep.Stage == ir.StageFragment
	e.discardKill = opts.Discard == DiscardKill
	e.header()
	fns := m.CallGraph(ep.Name)
	for _, fn := range fns {
		e.declareFunc(fn)
	}
	for _, g := range m.GlobalsUsed(ep.Name) {
		e.declareGlobal(g)
	}
	for _, v := range sharedUsed(m, ep.Name) {
		if v.Space == ir.SpaceWorkgroup {
			e.errorf(v.Pos, "var<workgroup> %s in a %s entry point's call graph: workgroup memory is for compute shaders only (WGSL #address-spaces)", v.Name, ep.Stage)
			continue
		}
		e.sharedOrder = append(e.sharedOrder, v)
		e.declareShared(v)
	}
	e.declareTextures(m, ep)
	if d := firstDiscard(fns); d != nil && e.discardKill && ep.Stage == ir.StageFragment {
		e.refuseKillWrites(m, d)
		bt := e.typeOf(ir.Bool)
		e.discardFlag = e.b.variable(e.b.typePointer(storageClassPrivate, bt), storageClassPrivate, e.b.constBool(false))
		e.b.name(e.discardFlag, "discarded")
	}
	for _, fn := range fns {
		e.function(fn)
	}
	e.renderEntry(ep)
	if len(e.errs) > 0 {
		e.errs.Sort()
		return nil, e.errs
	}
	return e.b.words(), nil
}

// firstDiscard returns the first discard statement of fns, or nil.
func firstDiscard(fns []*ir.Func) *ir.Discard {
	for _, fn := range fns {
		var d *ir.Discard
		ir.Inspect(fn.Body, func(n ir.Node) bool {
			if x, ok := n.(*ir.Discard); ok && d == nil {
				d = x
			}
			return d == nil
		})
		if d != nil {
			return d
		}
	}
	return nil
}

// refuseKillWrites reports each writable storage buffer and storage
// texture the entry point's call graph uses (d is its first discard): under DiscardKill a demoted invocation's
// stores to them would land (see render.go's comment).
func (e *emitter) refuseKillWrites(m *ir.Module, d *ir.Discard) {
	line := d.Pos.Line
	for _, v := range e.sharedOrder {
		if v.Writable() {
			e.errorf(v.Pos, "%s: a writable storage binding in a fragment entry point that discards (line %d) needs OpDemoteToHelperInvocation (Options.Discard %q): under %q a discarded invocation's stores would land; %s", v.Name, line, DiscardDemote, DiscardKill, unsupportedMark)
		}
	}
	for _, v := range m.Textures {
		if tv := e.tex[v.Name]; tv != nil && v.T.Kind == ir.KindTexture && v.T.Tex.Class == ir.TexStorage && v.T.Tex.Access != ir.TexRead {
			e.errorf(v.Pos, "%s: a writable storage texture in a fragment entry point that discards (line %d) needs OpDemoteToHelperInvocation (Options.Discard %q): under %q a discarded invocation's stores would land; %s", v.Name, line, DiscardDemote, DiscardKill, unsupportedMark)
		}
	}
}

// discard emits a discard statement (see render.go's comment).
func (f *fnEmitter) discard(s *ir.Discard) {
	e := f.e
	switch {
	case e.stage != ir.StageFragment:
		e.errorf(s.Pos, "discard outside a fragment entry point's call graph (WGSL #discard-statement: only the fragment stage may discard)")
	case e.discardFlag != 0:
		f.store(e.discardFlag, f.b.constBool(true))
	default:
		e.b.extension(extDemote)
		e.capability(capabilityDemoteToHelperInvocation)
		f.inst(opDemoteToHelperInvocation)
	}
}

// stageVar declares an Input or Output variable of type t for the entry
// point's interface.
func (e *emitter) stageVar(class uint32, t *ir.Type, name string) uint32 {
	b := e.b
	v := b.variable(b.typePointer(class, e.typeOf(t)), class, 0)
	e.storage16(class, t)
	b.name(v, name)
	e.iface = append(e.iface, v)
	return v
}

// builtinIO returns the BuiltIn variable of the render stage's builtin
// value name in class (Input or Output), declaring it on first use, or 0
// (reported at pos) when the stage has no such builtin here.
func (e *emitter) builtinIO(class uint32, name string, pos ir.Pos) uint32 {
	rb, ok := renderBuiltins[e.stage][class][name]
	if !ok {
		dir := "input"
		if class == storageClassOutput {
			dir = "output"
		}
		e.errorf(pos, "@builtin(%s) as a %s entry point's %s: %s", name, e.stage, dir, unsupportedMark)
		return 0
	}
	key := "in:" + name
	if class == storageClassOutput {
		key = "out:" + name
	}
	if id, ok := e.builtins[key]; ok {
		return id
	}
	v := e.stageVar(class, rb.t, name)
	e.b.decorate(v, decorationBuiltIn, rb.builtIn)
	if ir.SubgroupBuiltin(name) {
		e.capability(capabilityGroupNonUniform)
		e.b.decorate(v, decorationFlat)
	}
	e.builtins[key] = v
	return v
}

// locationIO declares the user-defined IO variable @location(loc) of type
// t in class (Input or Output); a varying (a vertex output, a fragment
// input) is decorated with its interpolation (see render.go's comment).
func (e *emitter) locationIO(class uint32, t *ir.Type, loc int, interp ir.Interpolation, name string, pos ir.Pos) uint32 {
	v := e.stageVar(class, t, name)
	e.b.decorate(v, decorationLocation, uint32(loc))
	varying := e.stage == ir.StageVertex && class == storageClassOutput || e.stage == ir.StageFragment && class == storageClassInput
	if !varying {
		return v
	}
	r := interp.Resolved(t)
	switch r.Type {
	case ir.InterpFlat:
		e.b.decorate(v, decorationFlat)
	case ir.InterpLinear:
		e.b.decorate(v, decorationNoPerspective)
	case ir.InterpPerspective:
	default:
		e.errorf(pos, "%s: interpolation type %d: %s", name, r.Type, unsupportedMark)
	}
	switch r.Sampling {
	case ir.SamplingCenter, ir.SamplingFirst, ir.SamplingEither:
	default:
		e.errorf(pos, "%s: interpolation sampling %d (centroid and sample are outside the subset): %s", name, r.Sampling, unsupportedMark)
	}
	return v
}

// stageIO is one leaf of an entry point's IO: a builtin or a @location.
type stageIO struct {
	builtin     string
	hasLocation bool
	location    int
	interp      ir.Interpolation
}

// ioVar declares the variable of leaf io (of type t) in class.
func (e *emitter) ioVar(class uint32, t *ir.Type, io stageIO, name string, pos ir.Pos) uint32 {
	switch {
	case io.builtin != "":
		return e.builtinIO(class, io.builtin, pos)
	case io.hasLocation || class == storageClassOutput && e.stage == ir.StageFragment:
		// A fragment output struct's members all have a @location
		// (the front end checks); Location is what it gives.
		return e.locationIO(class, t, io.location, io.interp, name, pos)
	}
	e.errorf(pos, "%s: entry point IO without @builtin or @location (WGSL #stage-inputs-outputs)", name)
	return 0
}

// fieldPos is the position of struct member fd, or def where it has none.
func fieldPos(fd ir.Field, def ir.Pos) ir.Pos {
	if fd.Pos.IsValid() {
		return fd.Pos
	}
	return def
}

// loadInput loads the parameter p: a leaf from its variable, a struct
// member by member from theirs.
func (f *fnEmitter) loadInput(p *ir.Param) uint32 {
	e := f.e
	t := e.typeOf(p.T)
	if p.T.Kind == ir.KindStruct && p.Builtin == "" && !p.HasLocation {
		parts := make([]uint32, len(p.T.Struct.Fields))
		for i, fd := range p.T.Struct.Fields {
			io := stageIO{fd.Builtin, fd.HasLocation, fd.Location, fd.Interp}
			v := e.ioVar(storageClassInput, fd.Type, io, "in_"+p.Name+"_"+fd.Name, fieldPos(fd, p.Pos))
			if v == 0 {
				parts[i] = f.b.constNull(e.typeOf(fd.Type))
				continue
			}
			parts[i] = f.op(opLoad, e.typeOf(fd.Type), v)
		}
		return f.op(opCompositeConstruct, t, parts...)
	}
	v := e.ioVar(storageClassInput, p.T, stageIO{p.Builtin, p.HasLocation, p.Location, p.Interp}, "in_"+p.Name, p.Pos)
	if v == 0 {
		return f.b.constNull(t)
	}
	return f.op(opLoad, t, v)
}

// renderEntry emits the OpEntryPoint function of the vertex or fragment
// entry point ep (see render.go's comment): inputs loaded, ep called, its
// outputs stored (under DiscardKill, after an OpKill when ep discarded).
func (e *emitter) renderEntry(ep *ir.Func) {
	b := e.b
	main := b.id()
	f := e.newFn(ir.Void)
	var header []uint32
	emit(&header, opFunction, b.typeVoid(), main, functionControlNone, b.typeFunction(b.typeVoid()))
	entry := b.id()
	f.cur = entry
	for _, g := range e.inits {
		f.store(e.globals[g.Name], f.expr(g.Init))
	}
	fi := e.funcs[ep.Name]
	call := []uint32{fi.id}
	for _, p := range ep.Params {
		call = append(call, f.loadInput(p))
	}
	result := f.op(opFunctionCall, fi.result, call...)

	type output struct{ v, val uint32 }
	var outs []output
	switch {
	case ep.Result.Kind == ir.KindStruct:
		for i, fd := range ep.Result.Struct.Fields {
			io := stageIO{fd.Builtin, fd.HasLocation, fd.Location, fd.Interp}
			v := e.ioVar(storageClassOutput, fd.Type, io, "out_"+fd.Name, fieldPos(fd, ep.Pos))
			if v != 0 {
				outs = append(outs, output{v, f.op(opCompositeExtract, e.typeOf(fd.Type), result, uint32(i))})
			}
		}
	case !ep.Result.IsVoid():
		io := stageIO{ep.ResultBuiltin, ep.ResultBuiltin == "", ep.ResultLocation, ep.ResultInterp}
		if v := e.ioVar(storageClassOutput, ep.Result, io, "out", ep.Pos); v != 0 {
			outs = append(outs, output{v, result})
		}
	}
	if e.discardFlag != 0 {
		// DiscardKill: a discarded fragment ends here, writing nothing.
		kill, merge := b.id(), b.id()
		d := f.op(opLoad, e.typeOf(ir.Bool), e.discardFlag)
		f.inst(opSelectionMerge, merge, selectionControlNone)
		f.branchCond(d, kill, merge)
		f.label(kill)
		f.terminate(opKill)
		f.label(merge)
	}
	for _, o := range outs {
		f.store(o.v, o.val)
	}
	f.terminate(opReturn)
	f.finish(header, entry)

	model := executionModelVertex
	if ep.Stage == ir.StageFragment {
		model = executionModelFragment
	}
	emit(&b.entryPoints, opEntryPoint, append(append([]uint32{model, main}, stringWords(ep.Name)...), e.iface...)...)
	if ep.Stage == ir.StageFragment {
		emit(&b.execModes, opExecutionMode, main, executionModeOriginUpperLeft)
	}
}
