package spirv

import (
	"github.com/gpudiff/gpudiff/ir"
)

// Compute entry points as written (ARCHITECTURE.md "Entry points as
// written (compute)"): the entry point becomes the module's GLCompute
// OpEntryPoint under its own name, its builtin parameters Input
// variables, its module's shared variables StorageBuffer, Uniform and
// Workgroup variables.

// Scope and memory-semantics operands (SPIR-V §3.27 "Scope <id>", §3.25
// "Memory Semantics <id>"); they are passed as u32 constants.
const (
	scopeDevice    uint32 = 1
	scopeWorkgroup uint32 = 2

	semanticsRelaxed         uint32 = 0x0
	semanticsAcquireRelease  uint32 = 0x8
	semanticsUniformMemory   uint32 = 0x40
	semanticsWorkgroupMemory uint32 = 0x100
	semanticsImageMemory     uint32 = 0x800
)

// builtInOf maps WGSL's compute builtin values (ir.InvocationBuiltins) to
// SPIR-V BuiltIn decorations (WGSL #builtin-values; SPIR-V §3.21
// "BuiltIn"; Vulkan §15.9 "Built-In Variables": each is an Input
// variable of GLCompute, a vec3<u32> or a u32).
var builtInOf = map[string]uint32{
	"global_invocation_id":   builtInGlobalInvocationId,
	"local_invocation_id":    builtInLocalInvocationId,
	"local_invocation_index": builtInLocalInvocationIndex,
	"workgroup_id":           builtInWorkgroupId,
	"num_workgroups":         builtInNumWorkgroups,
	// WGSL #subgroup-builtin-values (capability GroupNonUniform; a
	// compute Input needs no Flat).
	"subgroup_invocation_id": builtInSubgroupLocalInvocationId,
	"subgroup_size":          builtInSubgroupSize,
}

// sharedVar is a declared shared module-scope variable.
type sharedVar struct {
	v     *ir.SharedVar
	id    uint32   // the OpVariable
	class uint32   // StorageBuffer, Uniform or Workgroup
	typ   uint32   // the variable's pointee type: the Block struct, or the logical type (Workgroup)
	wrap  []uint32 // indices from the variable to v's value: [0] when a Block struct wraps it
	rt    uint32   // member of typ that is the runtime-sized array, for OpArrayLength
	// std140: a var<uniform> holding a matCx2, laid out with its
	// matrices split into columns (std140.go); loads go through
	// uniformLoad.
	std140 bool
}

// hostClass reports whether class holds host-shareable (explicitly laid
// out) types: values cross it through fromHost and toHost.
func hostClass(class uint32) bool {
	return class == storageClassStorageBuffer || class == storageClassUniform
}

// sharedUsed returns the shared variables the call graph of name refers
// to, in declaration order.
func sharedUsed(m *ir.Module, name string) []*ir.SharedVar {
	used := map[string]bool{}
	for _, f := range m.CallGraph(name) {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if id, ok := n.(*ir.Ident); ok && id.Ref == ir.RefShared {
				used[id.Name] = true
			}
			return true
		})
	}
	var out []*ir.SharedVar
	for _, v := range m.Shared {
		if used[v.Name] {
			out = append(out, v)
		}
	}
	return out
}

// declareShared emits the module-scope OpVariable of v:
//
//   - var<workgroup>: a Workgroup variable of the logical type, no
//     initializer (Vulkan 1.1 without VK_KHR_zero_initialize_workgroup_memory
//     allows none; the entry point zeroes it, see zeroWorkgroup);
//   - var<storage, A> and var<uniform>: a StorageBuffer or Uniform
//     variable (SPIR-V 1.3 with SPV_KHR_storage_buffer_storage_class in
//     core; Vulkan §15.6.1 "Descriptor Set Interface") whose type is a
//     Block-decorated struct with explicit layout (Vulkan §15.6.4: every
//     member an Offset, every array an ArrayStride). A struct type T is
//     that Block itself (its own copy, so a T nested elsewhere carries no
//     Block); any other T is wrapped as the only member, at Offset 0 —
//     as naga and Tint do, since Vulkan needs a Block struct and a
//     runtime-sized array may only be a Block's last member. Offsets and
//     strides are WGSL's (layout.go). DescriptorSet = @group,
//     Binding = @binding. A read-only storage binding is NonWritable, as
//     the variable and as each member of its Block (SPIR-V §3.20
//     "Decoration"; wgpu checks a read-only binding against it).
//     A var<uniform> holding a matCx2 is laid out with the matrices split
//     into vec2 columns instead (declareUniformStd140, std140.go).
func (e *emitter) declareShared(v *ir.SharedVar) {
	b := e.b
	sv := &sharedVar{v: v}
	if v.Space == ir.SpaceWorkgroup {
		sv.class = storageClassWorkgroup
		sv.typ = e.typeOf(v.T)
		sv.id = b.variable(b.typePointer(sv.class, sv.typ), sv.class, 0)
	} else {
		sv.class = storageClassStorageBuffer
		if v.Space == ir.SpaceUniform {
			sv.class = storageClassUniform
		}
		e.storage16(sv.class, v.T)
		if v.Space == ir.SpaceUniform {
			if hasMatCx2(v.T) {
				// matCx2's 8-byte column stride: split (std140.go).
				e.declareUniformStd140(sv)
				b.name(sv.id, v.Name)
				e.shared[v.Name] = sv
				e.sharedByID[sv.id] = sv
				return
			}
		}
		var members []uint32
		var offs []int
		var names []string
		var last *ir.Type
		if v.T.Kind == ir.KindStruct {
			for _, fd := range v.T.Struct.Fields {
				members = append(members, e.abiType(fd.Type))
				names = append(names, fd.Name)
				last = fd.Type
			}
			offs = hostOffsets(v.T.Struct)
		} else {
			members, offs, names, last = []uint32{e.abiType(v.T)}, []int{0}, []string{"value"}, v.T
			sv.wrap = []uint32{b.constU32(0)}
		}
		sv.typ = b.typeStruct("", members...)
		if v.T.Kind == ir.KindStruct {
			b.name(sv.typ, v.T.Struct.Name+"_block")
		} else {
			b.name(sv.typ, v.Name+"_block")
		}
		b.decorate(sv.typ, decorationBlock)
		readOnly := v.Space == ir.SpaceStorage && v.Access != ir.AccessReadWrite
		for i := range members {
			b.memberName(sv.typ, i, names[i])
			b.memberDecorate(sv.typ, i, decorationOffset, uint32(offs[i]))
			if v.T.Kind == ir.KindStruct {
				e.matrixLayout(sv.typ, i, v.T.Struct.Fields[i].Type)
			} else {
				e.matrixLayout(sv.typ, i, v.T)
			}
			if readOnly {
				b.memberDecorate(sv.typ, i, decorationNonWritable)
			}
		}
		if last.Kind == ir.KindRuntimeArray {
			sv.rt = uint32(len(members) - 1)
		}
		sv.id = b.variable(b.typePointer(sv.class, sv.typ), sv.class, 0)
		b.decorate(sv.id, decorationDescriptorSet, uint32(v.Group))
		b.decorate(sv.id, decorationBinding, uint32(v.Binding))
		if readOnly {
			b.decorate(sv.id, decorationNonWritable)
		}
	}
	b.name(sv.id, v.Name)
	e.shared[v.Name] = sv
	e.sharedByID[sv.id] = sv
}

// builtinVar returns the Input variable decorated BuiltIn for the WGSL
// builtin value name, and its value type, declaring it on first use and
// adding it to the entry point's interface.
func (e *emitter) builtinVar(name string) (variable, typ uint32) {
	typ = e.typeOf(ir.InvocationBuiltins[name])
	if id, ok := e.builtins[name]; ok {
		return id, typ
	}
	b := e.b
	id := b.variable(b.typePointer(storageClassInput, typ), storageClassInput, 0)
	b.name(id, name)
	b.decorate(id, decorationBuiltIn, builtInOf[name])
	if ir.SubgroupBuiltin(name) {
		e.capability(capabilityGroupNonUniform)
	}
	e.builtins[name] = id
	e.iface = append(e.iface, id)
	return id, typ
}

// entryFunc emits the compute entry point fn as written: a void function
// without parameters (SPIR-V §2.16.1: an OpEntryPoint's function takes
// none) that loads each builtin parameter — or each builtin member of a
// struct parameter, then builds the struct — from its Input variable,
// runs the private globals' non-constant initializers, zeroes the
// workgroup variables (zeroWorkgroup), then runs fn's body. OpEntryPoint
// GLCompute names it fn.Name and lists its Input variables (before
// SPIR-V 1.4 the interface holds Input and Output variables only);
// OpExecutionMode LocalSize is fn's @workgroup_size (SPIR-V §3.6
// "Execution Mode").
func (e *emitter) entryFunc(fn *ir.Func) {
	b := e.b
	id := b.id()
	b.name(id, fn.Name)
	f := e.newFn(ir.Void)
	f.demoted = demotedLets(fn)
	var header []uint32
	emit(&header, opFunction, b.typeVoid(), id, functionControlNone, b.typeFunction(b.typeVoid()))
	entry := b.id()
	f.cur = entry
	for _, p := range fn.Params {
		var v uint32
		if p.Builtin != "" {
			vr, t := e.builtinVar(p.Builtin)
			v = f.op(opLoad, t, vr)
		} else {
			parts := make([]uint32, len(p.T.Struct.Fields))
			for i, fd := range p.T.Struct.Fields {
				vr, t := e.builtinVar(fd.Builtin)
				parts[i] = f.op(opLoad, t, vr)
			}
			v = f.op(opCompositeConstruct, e.typeOf(p.T), parts...)
		}
		b.name(v, p.Name)
		f.named[v] = true
		f.vals[p.Name] = binding{id: v}
	}
	for _, g := range e.inits {
		f.store(e.globals[g.Name], f.expr(g.Init))
	}
	f.zeroWorkgroup(fn.WorkgroupSize[0] * fn.WorkgroupSize[1] * fn.WorkgroupSize[2])
	f.block(fn.Body)
	f.finish(header, entry)

	ws := fn.WorkgroupSize
	emit(&b.entryPoints, opEntryPoint, append(append([]uint32{executionModelGLCompute, id}, stringWords(fn.Name)...), e.iface...)...)
	emit(&b.execModes, opExecutionMode, id, executionModeLocalSize, ws[0], ws[1], ws[2])
}

// zeroWorkgroup zeroes the workgroup variables at the start of the entry
// point: WGSL zero-initializes workgroup memory (#var-and-value: "variables
// in the workgroup address space are zero-initialized" at the start of
// each workgroup), which a Vulkan 1.1 Workgroup variable may not express
// as an initializer without VK_KHR_zero_initialize_workgroup_memory. A
// variable of at most zeroSplitLeaves leaves is zeroed as naga's
// ZeroInitializeWorkgroupMemoryMode::Polyfill does: one invocation
// (local_invocation_index 0, naga tests local_invocation_id == 0) stores
// OpConstantNull into it. A larger one is split along its leading array
// dimensions into units of at most zeroSplitLeaves leaves, which the
// workgroup's invocations store among them as Tint's
// ZeroInitWorkgroupMemory transform does (invocation i the units i,
// i + invocations, …: a loop when there are more units than invocations):
// llvmpipe (Mesa 22.3) did not finish a dispatch within 4 minutes when
// one invocation stored the null of a 64×64 f32 array, the tile of
// Tint's test/tint/bug/tint/914.wgsl. Then every invocation meets an
// OpControlBarrier Workgroup Workgroup AcquireRelease|WorkgroupMemory
// (workgroupBarrier's) before the body runs; the barrier, the loops and
// the stores' conditions are in uniform control flow or depend only on
// local_invocation_index, and every byte is zero and visible to the
// workgroup before any user access. invocations is the workgroup size's
// product.
func (f *fnEmitter) zeroWorkgroup(invocations uint32) {
	e, b := f.e, f.b
	var whole []*sharedVar
	type split struct {
		sv   *sharedVar
		dims []uint32 // leading array lengths, outermost first
		unit *ir.Type // what is left: the element stored null
	}
	var splits []split
	for _, v := range e.sharedOrder {
		sv := e.shared[v.Name]
		if sv.class != storageClassWorkgroup {
			continue
		}
		if dims, unit := zeroCut(v.T); len(dims) == 0 {
			whole = append(whole, sv)
		} else {
			splits = append(splits, split{sv, dims, unit})
		}
	}
	if len(whole) == 0 && len(splits) == 0 {
		return
	}
	vr, t := e.builtinVar("local_invocation_index")
	li := f.op(opLoad, t, vr)
	boolT := e.typeOf(ir.Bool)
	if len(whole) > 0 {
		first := f.op(opIEqual, boolT, li, b.constU32(0))
		then, merge := b.id(), b.id()
		f.inst(opSelectionMerge, merge, selectionControlNone)
		f.branchCond(first, then, merge)
		f.label(then)
		for _, sv := range whole {
			f.store(sv.id, b.constNull(sv.typ))
		}
		f.branch(merge)
		f.label(merge)
	}
	for _, sp := range splits {
		units := uint32(1)
		for _, d := range sp.dims {
			units *= d
		}
		unitT := e.typeOf(sp.unit)
		// storeUnit stores null into unit u (< units) of sp's variable:
		// its indices are u's digits in the dims' mixed radix.
		storeUnit := func(u uint32) {
			idx := make([]uint32, len(sp.dims))
			for k := len(sp.dims) - 1; k > 0; k-- {
				d := b.constU32(sp.dims[k])
				idx[k] = f.op(opUMod, t, u, d)
				u = f.op(opUDiv, t, u, d)
			}
			idx[0] = u
			ptr := f.op(opAccessChain, b.typePointer(storageClassWorkgroup, unitT), append([]uint32{sp.sv.id}, idx...)...)
			f.store(ptr, b.constNull(unitT))
		}
		if units <= invocations {
			in := f.op(opULessThan, boolT, li, b.constU32(units))
			then, merge := b.id(), b.id()
			f.inst(opSelectionMerge, merge, selectionControlNone)
			f.branchCond(in, then, merge)
			f.label(then)
			storeUnit(li)
			f.branch(merge)
			f.label(merge)
			continue
		}
		// for (var u = li; u < units; u += invocations) { storeUnit(u) }
		uv := f.newVar(ir.U32, "zero_"+sp.sv.v.Name)
		f.store(uv, li)
		header, body, cont, merge := b.id(), b.id(), b.id(), b.id()
		f.branch(header)
		f.label(header)
		u := f.op(opLoad, t, uv)
		more := f.op(opULessThan, boolT, u, b.constU32(units))
		f.inst(opLoopMerge, merge, cont, loopControlNone)
		f.branchCond(more, body, merge)
		f.label(body)
		storeUnit(u)
		f.branch(cont)
		f.label(cont)
		f.store(uv, f.op(opIAdd, t, f.op(opLoad, t, uv), b.constU32(invocations)))
		f.branch(header)
		f.label(merge)
	}
	f.barrier(ir.BWorkgroupBarrier)
}

// zeroSplitLeaves is the most leaves a workgroup variable, or a unit of
// one, that one invocation zeroes with a single store (zeroWorkgroup).
const zeroSplitLeaves = 64

// zeroCut is how zeroWorkgroup cuts a workgroup variable of type t: along
// dims, its leading array lengths (outermost first), while what is left
// has more than zeroSplitLeaves leaves; unit is what is left, the type
// each store writes. No dims: the variable is stored whole. Unit u, in
// [0, product of dims), is the element whose indices are u's digits in
// the dims' mixed radix, the last index varying fastest
// (zeroUnitIndex; zeroWorkgroup computes them with OpUMod and OpUDiv).
func zeroCut(t *ir.Type) (dims []uint32, unit *ir.Type) {
	for t.Kind == ir.KindArray && t.Len > 0 && leaves(t) > zeroSplitLeaves {
		dims, t = append(dims, uint32(t.Len)), t.Elem
	}
	return dims, t
}

// zeroUnitIndex is unit u's indices (zeroCut).
func zeroUnitIndex(u uint32, dims []uint32) []uint32 {
	if len(dims) == 0 {
		return nil // stored whole
	}
	idx := make([]uint32, len(dims))
	for k := len(dims) - 1; k > 0; k-- {
		idx[k], u = u%dims[k], u/dims[k]
	}
	idx[0] = u
	return idx
}

// leaves is the number of scalar leaves of a value of type t.
func leaves(t *ir.Type) int {
	switch t.Kind {
	case ir.KindVec:
		return t.Len
	case ir.KindArray:
		return t.Len * leaves(t.Elem)
	case ir.KindMat:
		return t.Len * leaves(t.Elem)
	case ir.KindStruct:
		n := 0
		for _, fd := range t.Struct.Fields {
			n += leaves(fd.Type)
		}
		return n
	}
	return 1
}

// barrier emits workgroupBarrier or storageBarrier (WGSL
// #sync-builtin-functions: a control barrier over the workgroup with
// acquire-release ordering of the named address space) as Tint does:
// OpControlBarrier with Execution and Memory scope Workgroup and
// semantics AcquireRelease|WorkgroupMemory (workgroupBarrier) or
// AcquireRelease|UniformMemory (storageBarrier; UniformMemory covers the
// StorageBuffer class, SPIR-V §3.25; its scope is Workgroup, not Device,
// since WGSL's storageBarrier only orders accesses within the workgroup —
// Tint commit e85efca "storageBarrier() has workgroup memory scope").
func (f *fnEmitter) barrier(fn ir.Builtin) {
	sem := semanticsAcquireRelease | semanticsWorkgroupMemory
	switch fn {
	case ir.BStorageBarrier:
		sem = semanticsAcquireRelease | semanticsUniformMemory
	case ir.BTextureBarrier:
		sem = semanticsAcquireRelease | semanticsImageMemory // Tint
	}
	if f.e.work.barrierBlock && f.cur != 0 && len(f.code) != f.labelEnd {
		next := f.b.id()
		f.branch(next)
		f.label(next)
	}
	wg := f.b.constU32(scopeWorkgroup)
	f.inst(opControlBarrier, wg, wg, f.b.constU32(sem))
}

// atomic emits an atomic builtin (WGSL #atomic-builtin-functions) on the
// atomic x.Ptr() designates: OpAtomicLoad, OpAtomicStore, OpAtomicIAdd,
// OpAtomicISub, OpAtomicSMax/UMax, OpAtomicSMin/UMin, OpAtomicAnd,
// OpAtomicOr, OpAtomicXor, OpAtomicExchange (SPIR-V §3.52.18). Memory
// scope is Device for storage and Workgroup for workgroup atomics (the
// invocations that can reach the variable; Tint and naga use the same),
// semantics Relaxed (None): WGSL's atomic builtins are relaxed
// (#atomic-builtin-functions: "all atomic built-in functions use a
// relaxed memory ordering"). atomicCompareExchangeWeak is
// OpAtomicCompareExchange (never spuriously failing, which a weak
// exchange allows) with both semantics Relaxed; its result struct
// (old_value, exchanged) is built with exchanged = old_value == compare.
// The reference is evaluated first, then the operands left to right.
func (f *fnEmitter) atomic(x *ir.Atomic) uint32 {
	e, b := f.e, f.b
	ptr, class, _ := f.refp(x.Ptr())
	scope := scopeDevice
	if class == storageClassWorkgroup {
		scope = scopeWorkgroup
	}
	elem := x.Ptr().Type().Elem
	t := e.typeOf(elem)
	args := make([]uint32, len(x.Args)-1)
	for i, a := range x.Args[1:] {
		args[i] = f.expr(a)
	}
	sc, rel := b.constU32(scope), b.constU32(semanticsRelaxed)
	signed := elem.Kind == ir.KindI32
	var op opcode
	switch x.Op {
	case ir.AtomicLoad:
		return f.op(opAtomicLoad, t, ptr, sc, rel)
	case ir.AtomicStore:
		f.inst(opAtomicStore, ptr, sc, rel, args[0])
		return 0
	case ir.AtomicCompareExchangeWeak:
		old := f.op(opAtomicCompareExchange, t, ptr, sc, rel, rel, args[1], args[0])
		ok := f.op(opIEqual, e.typeOf(ir.Bool), old, args[0])
		return f.op(opCompositeConstruct, e.typeOf(x.T), old, ok)
	case ir.AtomicAdd:
		op = opAtomicIAdd
	case ir.AtomicSub:
		op = opAtomicISub
	case ir.AtomicMax:
		op = opAtomicUMax
		if signed {
			op = opAtomicSMax
		}
	case ir.AtomicMin:
		op = opAtomicUMin
		if signed {
			op = opAtomicSMin
		}
	case ir.AtomicAnd:
		op = opAtomicAnd
	case ir.AtomicOr:
		op = opAtomicOr
	case ir.AtomicXor:
		op = opAtomicXor
	case ir.AtomicExchange:
		op = opAtomicExchange
	default:
		e.errorf(x.Pos, "unsupported atomic builtin %v", x.Op)
		return b.constNull(t)
	}
	return f.op(op, t, ptr, sc, rel, args[0])
}

// arrayLength emits arrayLength(&X) (WGSL #arrayLength-builtin) as
// OpArrayLength of the binding's Block struct and the member that is the
// runtime-sized array (SPIR-V §3.52.8: its Structure operand is a pointer
// to a struct whose last member is the runtime array): X is the binding
// itself (wrapped: member 0) or its last member.
func (f *fnEmitter) arrayLength(x *ir.ArrayLength) uint32 {
	sv := f.sharedRoot(x.X)
	if sv == nil {
		return f.b.constU32(0)
	}
	return f.op(opArrayLength, f.e.typeOf(ir.U32), sv.id, sv.rt)
}

// sharedRoot returns the declared shared variable an Ident/Index/Member
// chain is rooted at, reporting an error when there is none.
func (f *fnEmitter) sharedRoot(x ir.Expr) *sharedVar {
	for {
		switch y := x.(type) {
		case *ir.Ident:
			if sv := f.e.shared[y.Name]; sv != nil && y.Ref == ir.RefShared {
				return sv
			}
			f.e.errorf(y.Pos, "%s is not a storage binding of the entry point", y.Name)
			return nil
		case *ir.Index:
			x = y.X
		case *ir.Member:
			x = y.X
		default:
			f.e.errorf(x.Position(), "%T is not a reference to a binding", x)
			return nil
		}
	}
}

// runtimeIndex emits a run-time index into the runtime-sized array of
// sv. Portable mode clamps it to min(u32(i), arrayLength - 1), as naga's
// Restrict bounds-check policy does (the reference flags such an access
// indeterminate, so any in-bounds element is acceptable; WGSL
// #out-of-bounds-access-sec); raw mode passes it through.
func (f *fnEmitter) runtimeIndex(x ir.Expr, sv *sharedVar) uint32 {
	v := f.expr(x)
	if !f.e.portable {
		return v
	}
	u32 := f.e.typeOf(ir.U32)
	if x.Type().Kind == ir.KindI32 {
		v = f.op(opBitcast, u32, v)
	}
	n := f.op(opArrayLength, u32, sv.id, sv.rt)
	return f.glsl(glslUMin, u32, v, f.op(opISub, u32, n, f.b.constU32(1)))
}

// hasMatCx2 reports whether t is or contains a matrix a Uniform block
// splits into columns (isMatCx2: matCx2<f32> or any f16 matrix).
func hasMatCx2(t *ir.Type) bool {
	switch t.Kind {
	case ir.KindMat:
		return isMatCx2(t)
	case ir.KindArray, ir.KindRuntimeArray:
		return hasMatCx2(t.Elem)
	case ir.KindStruct:
		for _, f := range t.Struct.Fields {
			if hasMatCx2(f.Type) {
				return true
			}
		}
	}
	return false
}
