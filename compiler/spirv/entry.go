package spirv

import (
	"github.com/gpudiff/gpudiff/ir"
)

// abiBuffer declares one ABI storage buffer: a Block struct whose member 0
// is a runtime array (ArrayStride = stride) of a record struct with one
// member per field at its ABI offset (a u32 pad when there is none),
// bound at descriptor set 0, binding binding. It returns the variable and
// the record's member types (nil for the pad).
func (e *emitter) abiBuffer(name string, fields []ir.ABIField, stride, binding int, readOnly bool) (variable uint32, members []uint32) {
	b := e.b
	for _, fd := range fields {
		members = append(members, e.abiType(fd.T))
		e.storage16(storageClassStorageBuffer, fd.T)
	}
	recMembers := members
	if len(fields) == 0 {
		recMembers = []uint32{e.typeOf(ir.U32)}
	}
	rec := b.typeStruct("", recMembers...)
	b.name(rec, name+"Record")
	for i := range recMembers {
		off := 0
		if len(fields) > 0 {
			off = fields[i].Offset
			b.memberName(rec, i, fields[i].Name)
		} else {
			b.memberName(rec, i, "pad")
		}
		b.memberDecorate(rec, i, decorationOffset, uint32(off))
		if len(fields) > 0 {
			e.matrixLayout(rec, i, fields[i].T)
		}
	}
	arr := b.typeRuntimeArray(rec)
	b.decorate(arr, decorationArrayStride, uint32(stride))
	block := b.typeStruct("", arr)
	b.name(block, name+"Buffer")
	b.memberName(block, 0, "records")
	b.decorate(block, decorationBlock)
	b.memberDecorate(block, 0, decorationOffset, 0)
	if readOnly {
		b.memberDecorate(block, 0, decorationNonWritable)
	}
	variable = b.variable(b.typePointer(storageClassStorageBuffer, block), storageClassStorageBuffer, 0)
	b.name(variable, name)
	b.decorate(variable, decorationDescriptorSet, 0)
	b.decorate(variable, decorationBinding, uint32(binding))
	if readOnly {
		b.decorate(variable, decorationNonWritable)
	}
	return variable, members
}

// entryPoint emits the entry point EntryPoint implementing the kernel ABI
// for kernel k (see Emit): GLCompute, or Fragment when e.fragment is set.
func (e *emitter) entryPoint(k *ir.Func) {
	b := e.b
	u32 := e.typeOf(ir.U32)
	boolT := e.typeOf(ir.Bool)
	var iface []uint32
	var gid, gidType, fragCoord, fragCoordType, marker uint32
	if e.fragment {
		// FragCoord: the pixel centre (x + 0.5, y + 0.5, z, 1/w) with
		// OriginUpperLeft (Vulkan's only origin); the marker at Location 0.
		fragCoordType = b.typeVector(e.typeOf(ir.F32), 4)
		fragCoord = b.variable(b.typePointer(storageClassInput, fragCoordType), storageClassInput, 0)
		b.name(fragCoord, "fragcoord")
		b.decorate(fragCoord, decorationBuiltIn, builtInFragCoord)
		marker = b.variable(b.typePointer(storageClassOutput, u32), storageClassOutput, 0)
		b.name(marker, "marker")
		b.decorate(marker, decorationLocation, ir.FragmentMarkerLocation)
		iface = []uint32{fragCoord, marker}
	} else {
		gidType = b.typeVector(u32, 3)
		gid = b.variable(b.typePointer(storageClassInput, gidType), storageClassInput, 0)
		b.name(gid, "gid")
		b.decorate(gid, decorationBuiltIn, builtInGlobalInvocationId)
		iface = []uint32{gid}
	}
	in, inMembers := e.abiBuffer("input", e.abi.Inputs, e.abi.InputStride, ir.InputBinding, true)
	out, outMembers := e.abiBuffer("output", e.abi.Outputs, e.abi.OutputStride, ir.OutputBinding, false)

	main := b.id()
	b.name(main, EntryPoint)
	f := e.newFn(ir.Void)
	var header []uint32
	emit(&header, opFunction, b.typeVoid(), main, functionControlNone, b.typeFunction(b.typeVoid()))
	entry := b.id()
	f.cur = entry

	// Compute: i = GlobalInvocationId.x. Fragment: i = u32(FragCoord.y) *
	// ir.FragmentRowPitch + u32(FragCoord.x). Return when i >=
	// arrayLength(output) (a fragment stores the marker 0 first).
	var i uint32
	if e.fragment {
		fc := f.op(opLoad, fragCoordType, fragCoord)
		x := f.op(opConvertFToU, u32, f.op(opCompositeExtract, e.typeOf(ir.F32), fc, 0))
		y := f.op(opConvertFToU, u32, f.op(opCompositeExtract, e.typeOf(ir.F32), fc, 1))
		i = f.op(opIAdd, u32, f.op(opIMul, u32, y, b.constU32(ir.FragmentRowPitch)), x)
	} else {
		i = f.op(opCompositeExtract, u32, f.op(opLoad, gidType, gid), 0)
	}
	b.name(i, "i")
	n := f.op(opArrayLength, u32, out, 0)
	oob := f.op(opUGreaterThanEqual, boolT, i, n)
	ret, body := b.id(), b.id()
	f.inst(opSelectionMerge, body, selectionControlNone)
	f.branchCond(oob, ret, body)
	f.label(ret)
	if e.fragment {
		f.store(marker, b.constU32(0))
	}
	f.terminate(opReturn)
	f.label(body)

	for _, g := range e.inits {
		f.store(e.globals[g.Name], f.expr(g.Init))
	}
	fi := e.funcs[k.Name]
	call := []uint32{fi.id}
	zero := b.constU32(0)
	for j, fd := range e.abi.Inputs {
		ptr := f.op(opAccessChain, b.typePointer(storageClassStorageBuffer, inMembers[j]), in, zero, i, b.constU32(uint32(j)))
		v := f.op(opLoad, inMembers[j], ptr)
		call = append(call, f.fromHost(v, fd.T))
	}
	result := f.op(opFunctionCall, fi.result, call...)
	for j, fd := range e.abi.Outputs {
		v := result
		if fd.Global {
			v = f.load(fd.T, e.globals[fd.Name])
		}
		ptr := f.op(opAccessChain, b.typePointer(storageClassStorageBuffer, outMembers[j]), out, zero, i, b.constU32(uint32(j)))
		f.store(ptr, f.toHost(v, fd.T))
	}
	if e.fragment {
		f.store(marker, b.constU32(1))
	}
	f.terminate(opReturn)
	f.finish(header, entry)

	if e.fragment {
		emit(&b.entryPoints, opEntryPoint, append(append([]uint32{executionModelFragment, main}, stringWords(EntryPoint)...), iface...)...)
		emit(&b.execModes, opExecutionMode, main, executionModeOriginUpperLeft)
		return
	}
	emit(&b.entryPoints, opEntryPoint, append(append([]uint32{executionModelGLCompute, main}, stringWords(EntryPoint)...), iface...)...)
	emit(&b.execModes, opExecutionMode, main, executionModeLocalSize, ir.WorkgroupSize, 1, 1)
}

// fromHost converts v, a value of the host-shareable mirror of t, to the
// logical type t: u32 → bool is v != 0 (also in vectors); arrays and
// structs are rebuilt element by element (their mirror carries layout
// decorations, so it is a different SPIR-V type even without bools).
func (f *fnEmitter) fromHost(v uint32, t *ir.Type) uint32 {
	e := f.e
	switch t.Kind {
	case ir.KindBool:
		return f.op(opINotEqual, e.typeOf(t), v, f.b.constU32(0))
	case ir.KindVec:
		if t.Elem.Kind == ir.KindBool {
			return f.op(opINotEqual, e.typeOf(t), v, e.splatConst(ir.Vec(t.Len, ir.U32), 0))
		}
		return v
	case ir.KindArray, ir.KindStruct:
		parts := f.leaves(v, t, func(x uint32, et *ir.Type) uint32 {
			return f.fromHost(x, et)
		}, e.abiType)
		return f.op(opCompositeConstruct, e.typeOf(t), parts...)
	}
	return v
}

// toHost converts v of logical type t to its host-shareable mirror:
// bool → u32 is OpSelect 1 0.
func (f *fnEmitter) toHost(v uint32, t *ir.Type) uint32 {
	e := f.e
	switch t.Kind {
	case ir.KindBool:
		return f.op(opSelect, e.abiType(t), v, f.b.constU32(1), f.b.constU32(0))
	case ir.KindVec:
		if t.Elem.Kind == ir.KindBool {
			ut := ir.Vec(t.Len, ir.U32)
			return f.op(opSelect, e.abiType(t), v, e.splatConst(ut, 1), e.splatConst(ut, 0))
		}
		return v
	case ir.KindArray, ir.KindStruct:
		parts := f.leaves(v, t, func(x uint32, et *ir.Type) uint32 {
			return f.toHost(x, et)
		}, e.typeOf)
		return f.op(opCompositeConstruct, e.abiType(t), parts...)
	}
	return v
}

// leaves extracts each element of the array or struct value v (whose
// element types are given by typ) and converts it with conv.
func (f *fnEmitter) leaves(v uint32, t *ir.Type, conv func(uint32, *ir.Type) uint32, typ func(*ir.Type) uint32) []uint32 {
	n := t.Len
	if t.Kind == ir.KindStruct {
		n = len(t.Struct.Fields)
	}
	parts := make([]uint32, n)
	for i := range parts {
		et := elemType(t, i)
		parts[i] = conv(f.op(opCompositeExtract, typ(et), v, uint32(i)), et)
	}
	return parts
}
