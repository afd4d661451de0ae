package spirv

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/compiler/emitmode"
	"github.com/gpudiff/gpudiff/ir"
)

// Mode is the emission mode, shared with compiler/wgsl (emitmode.Mode;
// ARCHITECTURE.md, "Emission modes").
type Mode = emitmode.Mode

const (
	// Portable spells out every WGSL rule that SPIR-V or GLSL.std.450 does
	// not give for free (guarded integer division and remainder, masked
	// shift counts, saturating float→int conversion, clamped indices,
	// WGSL's clamp/abs/extractBits/insertBits), so any disagreement with
	// the reference is a bug in gpudiff, the compiler or the driver.
	Portable = emitmode.Portable
	// Raw emits the plain SPIR-V opcodes (OpSDiv, unmasked shifts,
	// unclamped OpConvertFToS and OpAccessChain, SAbs, FClamp, …): the
	// stack under test owns WGSL's rules.
	Raw = emitmode.Raw
)

// Options configures Emit. The zero value is valid: Portable mode without
// debug names. DefaultOptions turns debug names on.
type Options struct {
	// Mode is Portable (also when empty) or Raw.
	Mode Mode
	// DebugNames emits OpName/OpMemberName for functions, parameters,
	// locals, globals and structs (SPIR-V §3.52.2, "Debug Instructions").
	// Names never change behavior.
	DebugNames bool
	// Fragment emits a function kernel's kernel ABI entry point in the
	// fragment stage instead of GLCompute (see Emit). It does not apply to
	// an entry point as written.
	Fragment bool
	// Discard is how a fragment entry point's discard statement is
	// lowered: DiscardDemote (also when empty) emits
	// OpDemoteToHelperInvocation with SPV_EXT_demote_to_helper_invocation,
	// DiscardKill emulates demotion with a flag and an OpKill once the
	// entry point returns, for stacks that cannot take the extension
	// (wgpu 0.19.4: NagaGap). render.go's comment gives both lowerings.
	Discard Discard
}

// DefaultOptions returns Portable mode with debug names.
func DefaultOptions() Options { return Options{Mode: Portable, DebugNames: true} }

// EntryPoint is the name of the GLCompute OpEntryPoint of every module
// Emit returns for a function kernel (the kernel ABI); a compute entry
// point as written keeps its own name.
const EntryPoint = "main"

// pass is the pass name of every error this package reports.
const pass = "spirv"

// Emit compiles kernel and the functions and private globals it uses into a
// SPIR-V 1.3 module for the Vulkan 1.1 environment (words, magic number
// first, host order). The module's GLCompute entry point EntryPoint
// implements the kernel ABI (ir.KernelABI, ARCHITECTURE.md "Kernel ABI"):
//
//   - descriptor set 0, binding 0: the input, a StorageBuffer Block struct
//     holding a runtime array (ArrayStride = InputStride) of the input
//     record, one member per parameter at the ABI offsets, NonWritable;
//   - binding 1: the output, the same shape with the output record: the
//     result ("ret"), then each private global the kernel's call graph uses;
//   - a record without members holds one u32 pad member;
//   - bool crosses as u32 0/1, also inside vectors, arrays and structs;
//   - LocalSize 64 1 1; invocation i = GlobalInvocationId.x returns at once
//     when i >= OpArrayLength(output); otherwise it loads its arguments,
//     calls the kernel and stores the result and the private globals.
//
// With opts.Fragment the entry point EntryPoint is a Fragment one instead
// (ARCHITECTURE.md "Kernel ABI", the fragment stage), with the same two
// buffers: OriginUpperLeft, invocation i = OpConvertFToU(FragCoord.y) *
// ir.FragmentRowPitch + OpConvertFToU(FragCoord.x) (FragCoord, an Input
// BuiltIn, is the pixel centre), and a u32 Output variable at Location
// ir.FragmentMarkerLocation holding 1, or 0 when i is past the output's
// length (the fragment then returns at once). The interface lists
// FragCoord and the marker (SPIR-V 1.3: Input and Output variables only).
// The harness draws it with its own WGSL vertex stage
// (harness.VertexWGSL): SPIR-V and WGSL modules mix in one render
// pipeline.
//
// When kernel names a vertex or fragment entry point (ir.StageVertex,
// ir.StageFragment), Emit compiles it as written (render.go): an
// OpEntryPoint Vertex or Fragment (OriginUpperLeft) under its own name,
// one Input or Output variable per IO leaf — BuiltIn VertexIndex,
// InstanceIndex and Position (vertex), FragCoord and FrontFacing
// (fragment), Location n for @location(n), the varyings decorated Flat
// (flat, and every integer varying) or NoPerspective (linear) — the
// bindings, textures and samplers its call graph uses, and discard as
// Options.Discard says; Options.Fragment does not apply.
//
// When kernel names a compute entry point (ir.StageCompute), Emit
// compiles it as written instead (ARCHITECTURE.md "Entry points as
// written (compute)"; shared.go): OpEntryPoint GLCompute under the
// entry point's own name with its builtin Input variables as interface,
// LocalSize = its @workgroup_size, each var<storage>/var<uniform> it uses
// a StorageBuffer/Uniform Block variable at DescriptorSet @group and
// Binding @binding with WGSL's host-shareable layout, each var<workgroup>
// a Workgroup variable zeroed by local invocation 0 before a barrier,
// barriers as OpControlBarrier and atomics as OpAtomic*.
//
// m must pass ir.Verify; Emit runs it and returns its ErrorList (pass
// "verify") unchanged. Emit's own errors are ir.ErrorList values of
// *ir.Error with pass "spirv", positioned at the offending node: an
// unknown mode or kernel, recursion (at the call that closes the cycle),
// or a builtin without a SPIR-V lowering here (derivatives outside a
// fragment entry point, barriers outside an entry point as written,
// subgroup builtins in a vertex stage, a quadBroadcast id that is not a
// constant: subgroup.go). Emit does not modify m.
func Emit(m *ir.Module, kernel string, opts Options) ([]uint32, error) {
	return emitModule(m, kernel, opts, allWorkarounds)
}

// workarounds are the stack quirks Emit avoids. Each avoids valid SPIR-V
// that a stack under test mishandles; tests turn them off to show that the
// quirk is still there.
type workarounds struct {
	// noUnreachable ends dead merge blocks with a return (of a null value
	// in a non-void function) instead of OpUnreachable: wgpu+lavapipe
	// lose the device creating the pipeline of some such modules
	// (TestUnreachableMergeQuirk); SwiftShader runs them.
	noUnreachable bool
	// foldConstructs turns a constructor whose arguments are all
	// constants into a constant (OpConstantComposite) rather than an
	// OpCompositeConstruct of constants: wgpu+lavapipe lose the device
	// creating the pipeline when such an OpCompositeConstruct mixes scalar
	// and vector constants (TestConstantConstructQuirk).
	foldConstructs bool
	// noDefaultLiterals leaves the values of the clause that also holds
	// default out of OpSwitch (they reach the default target anyway):
	// wgpu's SPIR-V front end (naga 0.19.2) sends them to the next clause
	// instead (TestSwitchDefaultLiteralsQuirk).
	noDefaultLiterals bool
	// barrierBlock opens a new block (OpBranch to it from the open one)
	// before an OpControlBarrier that is not already the first
	// instruction of its block: wgpu's SPIR-V front end (naga 0.19.2)
	// does not close its run of pending expressions at OpControlBarrier,
	// so an OpLoad of workgroup or storage memory between the last
	// statement and the barrier is evaluated after the barrier
	// (gfx-rs/wgpu#8151, fixed by gfx-rs/wgpu#8215, long after the wgpu 0.19.4 gpudiff links), where it
	// can read what other invocations store in the next phase; it does
	// close the run at every block's end. An unconditional branch to a
	// block of the same construct is plain structured control flow
	// (SPIR-V §2.11: the new block is dominated by, and inside, the
	// construct of the one it follows; a loop header holds only
	// OpLoopMerge and its branch, so no header is split). Every load
	// before the barrier then stays before it on wgpu, lavapipe and
	// SwiftShader alike (TestBarrierLoadQuirk).
	barrierBlock bool
}

var allWorkarounds = workarounds{noUnreachable: true, foldConstructs: true, noDefaultLiterals: true, barrierBlock: true}

func emitModule(m *ir.Module, kernel string, opts Options, w workarounds) ([]uint32, error) {
	if opts.Mode == "" {
		opts.Mode = Portable
	}
	if opts.Mode != Portable && opts.Mode != Raw {
		return nil, ir.ErrorList{ir.Errorf(m.File, ir.Pos{}, pass, "unknown emission mode %q (want %q or %q)", opts.Mode, Portable, Raw)}
	}
	if opts.Discard == "" {
		opts.Discard = DiscardDemote
	}
	if opts.Discard != DiscardDemote && opts.Discard != DiscardKill {
		return nil, ir.ErrorList{ir.Errorf(m.File, ir.Pos{}, pass, "unknown discard lowering %q (want %q or %q)", opts.Discard, DiscardDemote, DiscardKill)}
	}
	f := m.Func(kernel)
	if f == nil {
		return nil, ir.ErrorList{ir.Errorf(m.File, ir.Pos{}, pass, "no function %q in module", kernel)}
	}
	if cyc := m.FindCycle(kernel); cyc != nil {
		return nil, ir.ErrorList{ir.Errorf(m.File, cyclePos(m, cyc), pass,
			"recursion is not allowed (WGSL #function-calls: the call graph must be acyclic): %s", strings.Join(cyc, " → "))}
	}
	if err := ir.Verify(m); err != nil {
		return nil, err
	}
	// SPIR-V's logical addressing passes a function only pointers that
	// are memory object declarations (SPIR-V §2.16.1) unless
	// VariablePointers is declared; like Tint's SPIR-V writer, gpudiff
	// passes pointers into workgroup, storage and uniform memory as
	// their index operands and accesses the variable directly
	// (ir.DirectVariableAccess). Function and private pointers stay
	// pointers.
	m = ir.DirectVariableAccess(m)
	f = m.Func(kernel)
	switch f.Stage {
	case ir.StageCompute:
		return emitEntry(m, f, opts, w)
	case ir.StageFragment, ir.StageVertex:
		return emitRender(m, f, opts, w)
	}
	fns := m.CallGraph(kernel)
	abi, err := ir.NewKernelABI(m, kernel)
	if err != nil {
		return nil, ir.ErrorList{ir.Errorf(m.File, f.Pos, pass, "%v", err)}
	}
	e := newEmitter(m, opts, w)
	e.abi = abi
	e.fragment = opts.Fragment
	e.header()
	for _, fn := range fns {
		e.declareFunc(fn)
	}
	for _, g := range m.GlobalsUsed(kernel) {
		e.declareGlobal(g)
	}
	for _, fn := range fns {
		e.function(fn)
	}
	e.entryPoint(f)
	if len(e.errs) > 0 {
		e.errs.Sort()
		return nil, e.errs
	}
	return e.b.words(), nil
}

func newEmitter(m *ir.Module, opts Options, w workarounds) *emitter {
	return &emitter{
		m:          m,
		portable:   opts.Mode == Portable,
		b:          newBuilder(opts.DebugNames),
		types:      map[*ir.Type]uint32{},
		typeKey:    map[string]uint32{},
		abiKey:     map[string]uint32{},
		funcs:      map[string]*funcInfo{},
		globals:    map[string]uint32{},
		consts:     map[uint32]ir.Value{},
		shared:     map[string]*sharedVar{},
		sharedByID: map[uint32]*sharedVar{},
		builtins:   map[string]uint32{},
		work:       w,
	}
}

// emitEntry emits the compute entry point ep of m as written: the
// functions it calls, the private globals and shared variables they use,
// and ep itself as the GLCompute entry point (shared.go).
func emitEntry(m *ir.Module, ep *ir.Func, opts Options, w workarounds) ([]uint32, error) {
	e := newEmitter(m, opts, w)
	e.entry = ep
	e.header()
	fns := m.CallGraph(ep.Name)
	for _, fn := range fns {
		if fn != ep {
			e.declareFunc(fn)
		}
	}
	for _, g := range m.GlobalsUsed(ep.Name) {
		e.declareGlobal(g)
	}
	e.sharedOrder = sharedUsed(m, ep.Name)
	for _, v := range e.sharedOrder {
		e.declareShared(v)
	}
	e.declareTextures(m, ep)
	for _, fn := range fns {
		if fn != ep {
			e.function(fn)
		}
	}
	e.entryFunc(ep)
	if len(e.errs) > 0 {
		e.errs.Sort()
		return nil, e.errs
	}
	return e.b.words(), nil
}

// emitter holds the module-wide state of one Emit call.
type emitter struct {
	m        *ir.Module
	portable bool
	b        *builder
	abi      *ir.KernelABI
	fragment bool // the kernel ABI's entry point in the fragment stage
	errs     ir.ErrorList

	types   map[*ir.Type]uint32 // logical types by node (a cache of typeKey)
	typeKey map[string]uint32   // logical types by WGSL spelling
	abiKey  map[string]uint32   // host-shareable mirror types by WGSL spelling

	consts map[uint32]ir.Value // constant ids made by constant → their value

	funcs   map[string]*funcInfo
	globals map[string]uint32 // private global name → OpVariable id
	inits   []*ir.Global      // globals initialized at the start of the entry point
	work    workarounds

	// Entry points as written (shared.go); entry is nil for a function kernel.
	entry       *ir.Func
	sharedOrder []*ir.SharedVar       // the shared variables the entry point uses, in declaration order
	shared      map[string]*sharedVar // by name
	sharedByID  map[uint32]*sharedVar // by OpVariable id
	builtins    map[string]uint32     // builtin value name → its Input variable
	iface       []uint32              // the entry point's interface (Input variables)
	tex         map[string]*texVar    // texture and sampler bindings by name (texture.go)
	derivatives bool                  // a fragment entry point: derivative builtins are emitted (texture.go)

	// Render entry points as written (render.go).
	stage       ir.Stage // the entry point's stage: StageVertex or StageFragment; StageNone otherwise
	discardKill bool     // Options.Discard is DiscardKill
	discardFlag uint32   // DiscardKill: the Private bool a discard sets, 0 when nothing discards
}

// funcInfo is a declared user function.
type funcInfo struct {
	id, typ uint32
	params  []uint32 // parameter types
	result  uint32
}

// unsupportedMark ends the message of an error for valid input that this
// backend does not express (IsUnsupported).
const unsupportedMark = "not supported by gpudiff's SPIR-V backend"

// IsUnsupported reports whether err, an error of Emit, is only about
// input this backend does not express (a bgra8unorm storage texture,
// which has no SPIR-V Image Format): the module is valid, and another
// path (its WGSL) can run it.
func IsUnsupported(err error) bool {
	var list ir.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return false
	}
	for _, e := range list {
		if e.Pass != pass || !strings.HasSuffix(e.Msg, unsupportedMark) {
			return false
		}
	}
	return true
}

func (e *emitter) errorf(pos ir.Pos, format string, args ...any) {
	e.errs = append(e.errs, ir.Errorf(e.m.File, pos, pass, format, args...))
}

// header emits the capability, memory model and execution mode sections.
func (e *emitter) header() {
	b := e.b
	emit(&b.capabilities, opCapability, capabilityShader)
	emit(&b.memoryModel, opMemoryModel, addressingModelLogical, memoryModelGLSL450)
}

// typeOf returns the logical SPIR-V type of t: the type used for values,
// Function and Private variables. Structs and arrays carry no layout
// decorations (those belong to the host-shareable mirrors of abiType).
func (e *emitter) typeOf(t *ir.Type) uint32 {
	if id, ok := e.types[t]; ok {
		return id
	}
	b := e.b
	var id uint32
	switch t.Kind {
	case ir.KindVoid:
		id = b.typeVoid()
	case ir.KindBool:
		id = b.typeBool()
	case ir.KindI32:
		id = b.typeInt(true)
	case ir.KindU32:
		id = b.typeInt(false)
	case ir.KindF32:
		id = b.typeFloat()
	case ir.KindF16:
		// f16 (WGSL #extension-f16): arithmetic on 16-bit floats needs
		// Float16 (SPIR-V §2.16.1); memory holding them needs the 16-bit
		// storage capabilities besides (f16.go, storage16).
		id = b.typeFloat16()
		e.capability(capabilityFloat16)
	case ir.KindVec:
		id = b.typeVector(e.typeOf(t.Elem), t.Len)
	case ir.KindMat:
		id = b.typeMatrix(e.typeOf(t.Elem), t.Len)
	case ir.KindAtomic:
		// SPIR-V has no atomic types: atomic instructions take a pointer
		// to a 32-bit integer (SPIR-V §3.52.18, "Atomic Instructions").
		id = e.typeOf(t.Elem)
	case ir.KindArray, ir.KindStruct:
		key := t.String()
		if known, ok := e.typeKey[key]; ok {
			id = known
			break
		}
		if t.Kind == ir.KindArray {
			id = b.typeArray(e.typeOf(t.Elem), t.Len)
		} else {
			members := make([]uint32, len(t.Struct.Fields))
			for i, f := range t.Struct.Fields {
				members[i] = e.typeOf(f.Type)
			}
			id = b.typeStruct("", members...)
			b.name(id, t.Struct.Name)
			for i, f := range t.Struct.Fields {
				b.memberName(id, i, f.Name)
			}
		}
		e.typeKey[key] = id
	default:
		panic(fmt.Sprintf("spirv: typeOf(%v)", t))
	}
	e.types[t] = id
	return id
}

// abiType returns the host-shareable mirror of t used in the storage
// buffers: bool becomes u32 (also inside vectors), atomic<T> is T, arrays
// (fixed- and runtime-sized) carry ArrayStride = hostStride and structs
// carry member Offsets = hostOffsets (layout.go; WGSL "Memory Layout";
// SPIR-V §2.16.2, "Validation Rules for Shader Capabilities", explicit
// layout). Scalars and vectors without bool are the logical types.
func (e *emitter) abiType(t *ir.Type) uint32 {
	switch t.Kind {
	case ir.KindBool:
		return e.typeOf(ir.U32)
	case ir.KindI32, ir.KindU32, ir.KindF32, ir.KindF16:
		return e.typeOf(t)
	case ir.KindVec:
		return e.b.typeVector(e.abiType(t.Elem), t.Len)
	case ir.KindAtomic:
		return e.typeOf(t.Elem)
	case ir.KindMat:
		// The logical matrix type: its layout (ColMajor, MatrixStride)
		// is decorated on the struct member holding it (matrixLayout).
		return e.typeOf(t)
	}
	key := t.String()
	if id, ok := e.abiKey[key]; ok {
		return id
	}
	var id uint32
	switch t.Kind {
	case ir.KindArray:
		// Keyed by the SPIR-V element, not by t: array<atomic<u32>, N>,
		// array<bool, N> and array<u32, N> are one SPIR-V type, decorated
		// once (typeStridedArray).
		id = e.b.typeStridedArray(e.abiType(t.Elem), t.Len, hostStride(t))
	case ir.KindRuntimeArray:
		id = e.b.typeRuntimeArray(e.abiType(t.Elem))
		e.b.decorate(id, decorationArrayStride, uint32(hostStride(t)))
	default:
		members := make([]uint32, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			members[i] = e.abiType(f.Type)
		}
		id = e.b.typeStruct("", members...)
		e.b.name(id, t.Struct.Name+"_host")
		for i, off := range hostOffsets(t.Struct) {
			e.b.memberDecorate(id, i, decorationOffset, uint32(off))
			e.matrixLayout(id, i, t.Struct.Fields[i].Type)
			e.b.memberName(id, i, t.Struct.Fields[i].Name)
		}
	}
	e.abiKey[key] = id
	return id
}

// constant returns the id of a constant holding v (SPIR-V §3.52.7):
// OpConstantTrue/False, OpConstant or OpConstantComposite.
func (e *emitter) constant(v ir.Value) uint32 {
	t := v.Type
	var id uint32
	switch t.Kind {
	case ir.KindBool:
		id = e.b.constBool(v.Bits != 0)
	case ir.KindI32, ir.KindU32, ir.KindF32:
		id = e.b.constScalar(e.typeOf(t), v.Bits)
	case ir.KindF16:
		id = e.b.constScalar(e.typeOf(t), v.Bits&0xffff)
	default:
		parts := make([]uint32, len(v.Elems))
		for i, el := range v.Elems {
			parts[i] = e.constant(el)
		}
		id = e.b.constComposite(e.typeOf(t), parts...)
	}
	e.consts[id] = v
	return id
}

// constComponents returns the scalar components of a scalar or vector
// constant made by constant, or false when id is not one.
func (e *emitter) constComponents(id uint32) ([]uint32, bool) {
	v, ok := e.consts[id]
	if !ok {
		return nil, false
	}
	if v.Type.IsScalar() {
		return []uint32{v.Bits}, true
	}
	if v.Type.Kind != ir.KindVec {
		return nil, false
	}
	bits := make([]uint32, len(v.Elems))
	for i, el := range v.Elems {
		bits[i] = el.Bits
	}
	return bits, true
}

// splatConst returns the constant of type t (scalar or vector) whose
// components all have the bits of the scalar s.
func (e *emitter) splatConst(t *ir.Type, bits uint32) uint32 {
	s := ir.ScalarVal(t.Scalar(), bits)
	if t.Kind != ir.KindVec {
		return e.constant(s)
	}
	es := make([]ir.Value, t.Len)
	for i := range es {
		es[i] = s
	}
	return e.constant(ir.CompositeVal(t, es...))
}

// declareFunc assigns f its id and function type.
func (e *emitter) declareFunc(f *ir.Func) {
	fi := &funcInfo{id: e.b.id(), result: e.typeOf(f.Result)}
	for _, p := range f.Params {
		if p.Ptr != 0 {
			fi.params = append(fi.params, e.b.typePointer(ptrClass(p.Ptr), e.typeOf(p.T)))
			continue
		}
		fi.params = append(fi.params, e.typeOf(p.T))
	}
	fi.typ = e.b.typeFunction(fi.result, fi.params...)
	e.b.name(fi.id, f.Name)
	e.funcs[f.Name] = fi
}

// ptrClass is the storage class of a pointer parameter's address space
// (function or private).
func ptrClass(s ir.AddressSpace) uint32 {
	if s == ir.SpacePrivate {
		return storageClassPrivate
	}
	return storageClassFunction
}

// declareGlobal emits a Private OpVariable for g (per invocation, as WGSL
// var<private>). A constant initializer becomes the variable's
// initializer; no initializer is OpConstantNull (WGSL's zero value); any
// other const-expression is stored at the start of the entry point.
func (e *emitter) declareGlobal(g *ir.Global) {
	t := e.typeOf(g.T)
	init, ok := uint32(0), false
	if g.Init == nil {
		init, ok = e.b.constNull(t), true
	} else if v, isConst := constValue(g.Init); isConst {
		init, ok = e.constant(v), true
	}
	if !ok {
		init = e.b.constNull(t)
		e.inits = append(e.inits, g)
	}
	id := e.b.variable(e.b.typePointer(storageClassPrivate, t), storageClassPrivate, init)
	e.b.name(id, g.Name)
	e.globals[g.Name] = id
}

// constValue folds the constant expressions that need no arithmetic:
// literals and constructors of them (zero value, splat, components).
func constValue(x ir.Expr) (ir.Value, bool) {
	switch x := x.(type) {
	case *ir.Lit:
		return x.Val, true
	case *ir.Construct:
		t := x.T
		if len(x.Args) == 0 {
			return ir.Zero(t), true
		}
		args := make([]ir.Value, len(x.Args))
		for i, a := range x.Args {
			v, ok := constValue(a)
			if !ok {
				return ir.Value{}, false
			}
			args[i] = v
		}
		switch t.Kind {
		case ir.KindBool, ir.KindI32, ir.KindU32, ir.KindF32, ir.KindF16:
			return args[0], true
		case ir.KindVec:
			var comps []ir.Value
			if len(args) == 1 && args[0].Type.IsScalar() {
				for i := 0; i < t.Len; i++ {
					comps = append(comps, args[0])
				}
			} else {
				for _, a := range args {
					if a.Type.Kind == ir.KindVec {
						comps = append(comps, a.Elems...)
					} else {
						comps = append(comps, a)
					}
				}
			}
			return ir.CompositeVal(t, comps...), true
		default:
			return ir.CompositeVal(t, args...), true
		}
	}
	return ir.Value{}, false
}

// cyclePos returns the position of the call that closes the call cycle
// cyc (from its second-to-last function to its last), or of the function
// when that call has no position.
func cyclePos(m *ir.Module, cyc []string) ir.Pos {
	caller := m.Func(cyc[len(cyc)-2])
	if c := firstCall(caller, cyc[len(cyc)-1]); c != nil && c.Pos.IsValid() {
		return c.Pos
	}
	return caller.Pos
}

// firstCall returns the first call of callee in f, or nil.
func firstCall(f *ir.Func, callee string) *ir.Call {
	var found *ir.Call
	ir.Inspect(f.Body, func(n ir.Node) bool {
		if c, ok := n.(*ir.Call); ok && c.Func == callee && found == nil {
			found = c
		}
		return found == nil
	})
	return found
}

// matrixLayout decorates member i of the explicitly laid out struct type
// st when its type t is a matrix or an array (of arrays) of matrices:
// ColMajor and MatrixStride = the column stride of WGSL's layout,
// roundUp(AlignOf(vecR), SizeOf(vecR)) — 8 for R = 2, 16 for R = 3 and 4
// (WGSL #alignment-and-size; SPIR-V §2.16.2: a matrix in a Block needs
// both, on the member that holds it, through arrays).
func (e *emitter) matrixLayout(st uint32, i int, t *ir.Type) {
	for t.Kind == ir.KindArray || t.Kind == ir.KindRuntimeArray {
		t = t.Elem
	}
	if t.Kind != ir.KindMat {
		return
	}
	e.b.memberDecorate(st, i, decorationColMajor)
	e.b.memberDecorate(st, i, decorationMatrixStride, uint32(ir.ArrayStride(t)))
}
