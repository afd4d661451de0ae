package spirv

import (
	"github.com/gpudiff/gpudiff/ir"
)

// Subgroup and quad builtins (WGSL #subgroup-builtin-functions,
// #quad-builtin-functions, behind `enable subgroups;`) are SPIR-V 1.3's
// non-uniform group instructions (SPIR-V §3.52.24 "Non-Uniform
// Instructions"; Vulkan 1.1 subgroup operations), each with Execution
// scope Subgroup — the OpConstant u32 3 (SPIR-V §3.27) — and operating on
// the invocations active at the call, as WGSL's do:
//
//	subgroupAdd/Mul/Min/Max        OpGroupNonUniform{IAdd,FAdd}/{IMul,FMul}/{SMin,UMin,FMin}/{SMax,UMax,FMax} Reduce
//	subgroupAnd/Or/Xor             OpGroupNonUniformBitwise{And,Or,Xor} Reduce
//	subgroupInclusiveAdd/Mul       OpGroupNonUniform{IAdd,FAdd}/{IMul,FMul} InclusiveScan
//	subgroupExclusiveAdd/Mul       … ExclusiveScan                     (capability GroupNonUniformArithmetic)
//	subgroupAll/Any                OpGroupNonUniformAll/Any            (GroupNonUniformVote)
//	subgroupBallot                 OpGroupNonUniformBallot → vec4<u32> (GroupNonUniformBallot)
//	subgroupBroadcast(e, id)       OpGroupNonUniformBroadcast          (GroupNonUniformBallot)
//	subgroupBroadcastFirst         OpGroupNonUniformBroadcastFirst     (GroupNonUniformBallot)
//	subgroupElect                  OpGroupNonUniformElect              (GroupNonUniform)
//	subgroupShuffle/ShuffleXor     OpGroupNonUniformShuffle/ShuffleXor (GroupNonUniformShuffle)
//	subgroupShuffleUp/Down         OpGroupNonUniformShuffleUp/Down     (GroupNonUniformShuffleRelative)
//	quadBroadcast(e, id)           OpGroupNonUniformQuadBroadcast      (GroupNonUniformQuad)
//	quadSwapX/Y/Diagonal           OpGroupNonUniformQuadSwap 0/1/2     (GroupNonUniformQuad)
//
// Each capability is declared only where an instruction needs it (every
// one of them implies GroupNonUniform, SPIR-V §3.31). The instructions
// take scalars and vectors directly, component-wise, so vector arguments
// need no splitting. Ids, masks, deltas and quad indices must be u32 in
// SPIR-V ("Signedness operand is 0"): an i32 operand is bitcast (a
// constant one becomes the u32 constant of its bits). Before SPIR-V 1.5
// the id of OpGroupNonUniformBroadcast and the index of
// OpGroupNonUniformQuadBroadcast must come from constant instructions;
// WGSL makes both const-expressions (#subgroupBroadcast-builtin: id in
// [0, 128), #quadBroadcast-builtin: id in [0, 4)), so they are folded
// literals here. A subgroupBroadcast id the emitter cannot see as a
// constant is lowered as OpGroupNonUniformShuffle instead (the same value
// for an id uniform over the subgroup, which a const-expression is); a
// quadBroadcast index that is not one is an error.
//
// f16 operands need Float16 (typeOf) and, on Vulkan, the device's
// shaderSubgroupExtendedTypes (Vulkan 1.2; spirv-val does not check it).
// The builtin values subgroup_invocation_id and subgroup_size are Input
// variables of u32 decorated BuiltIn SubgroupLocalInvocationId and
// SubgroupSize (capability GroupNonUniform), in a fragment entry point
// also Flat (Vulkan: an integer Input of the fragment stage).
//
// WGSL allows subgroup builtins in the compute and fragment stages only
// (#subgroup-builtin-functions); a vertex entry point's call graph using
// one is an error here.

// Scope and group operations (SPIR-V §3.27 "Scope <id>", §3.28 "Group
// Operation").
const (
	scopeSubgroup uint32 = 3

	groupOperationReduce        uint32 = 0
	groupOperationInclusiveScan uint32 = 1
	groupOperationExclusiveScan uint32 = 2

	quadSwapHorizontal uint32 = 0 // quadSwapX
	quadSwapVertical   uint32 = 1 // quadSwapY
	quadSwapDiagonal   uint32 = 2
)

// subgroupArith is a subgroup arithmetic builtin's group operation and
// instructions per scalar kind (float, signed, unsigned; a zero entry: no
// such overload).
type subgroupArith struct {
	op             uint32
	fl, sint, uint opcode
}

var subgroupArithOps = map[ir.Builtin]subgroupArith{
	ir.BSubgroupAdd:          {groupOperationReduce, opGroupNonUniformFAdd, opGroupNonUniformIAdd, opGroupNonUniformIAdd},
	ir.BSubgroupMul:          {groupOperationReduce, opGroupNonUniformFMul, opGroupNonUniformIMul, opGroupNonUniformIMul},
	ir.BSubgroupMin:          {groupOperationReduce, opGroupNonUniformFMin, opGroupNonUniformSMin, opGroupNonUniformUMin},
	ir.BSubgroupMax:          {groupOperationReduce, opGroupNonUniformFMax, opGroupNonUniformSMax, opGroupNonUniformUMax},
	ir.BSubgroupAnd:          {groupOperationReduce, 0, opGroupNonUniformBitwiseAnd, opGroupNonUniformBitwiseAnd},
	ir.BSubgroupOr:           {groupOperationReduce, 0, opGroupNonUniformBitwiseOr, opGroupNonUniformBitwiseOr},
	ir.BSubgroupXor:          {groupOperationReduce, 0, opGroupNonUniformBitwiseXor, opGroupNonUniformBitwiseXor},
	ir.BSubgroupInclusiveAdd: {groupOperationInclusiveScan, opGroupNonUniformFAdd, opGroupNonUniformIAdd, opGroupNonUniformIAdd},
	ir.BSubgroupExclusiveAdd: {groupOperationExclusiveScan, opGroupNonUniformFAdd, opGroupNonUniformIAdd, opGroupNonUniformIAdd},
	ir.BSubgroupInclusiveMul: {groupOperationInclusiveScan, opGroupNonUniformFMul, opGroupNonUniformIMul, opGroupNonUniformIMul},
	ir.BSubgroupExclusiveMul: {groupOperationExclusiveScan, opGroupNonUniformFMul, opGroupNonUniformIMul, opGroupNonUniformIMul},
}

// subgroup emits the subgroup or quad builtin call x (see the comment
// above). Arguments are evaluated left to right.
func (f *fnEmitter) subgroup(x *ir.BuiltinCall) uint32 {
	e, b := f.e, f.b
	args := make([]uint32, len(x.Args))
	for i, a := range x.Args {
		args[i] = f.expr(a)
	}
	t := e.typeOf(x.T)
	if e.stage == ir.StageVertex {
		e.errorf(x.Pos, "%s in a vertex entry point's call graph: subgroup builtins are for the compute and fragment stages (WGSL #subgroup-builtin-functions)", x.Fn)
		return b.constNull(t)
	}
	scope := b.constU32(scopeSubgroup)
	if a, ok := subgroupArithOps[x.Fn]; ok {
		e.capability(capabilityGroupNonUniformArithmetic)
		s := x.Args[0].Type().Scalar()
		o := a.uint
		switch {
		case s.IsFloat():
			o = a.fl
		case s.Kind == ir.KindI32:
			o = a.sint
		}
		if o == 0 {
			e.errorf(x.Pos, "%s is not defined for %v", x.Fn, x.Args[0].Type())
			return b.constNull(t)
		}
		return f.op(o, t, scope, a.op, args[0])
	}
	switch x.Fn {
	case ir.BSubgroupAll, ir.BSubgroupAny:
		e.capability(capabilityGroupNonUniformVote)
		if x.Fn == ir.BSubgroupAll {
			return f.op(opGroupNonUniformAll, t, scope, args[0])
		}
		return f.op(opGroupNonUniformAny, t, scope, args[0])
	case ir.BSubgroupBallot:
		e.capability(capabilityGroupNonUniformBallot)
		return f.op(opGroupNonUniformBallot, t, scope, args[0])
	case ir.BSubgroupBroadcastFirst:
		e.capability(capabilityGroupNonUniformBallot)
		return f.op(opGroupNonUniformBroadcastFirst, t, scope, args[0])
	case ir.BSubgroupElect:
		e.capability(capabilityGroupNonUniform)
		return f.op(opGroupNonUniformElect, t, scope)
	case ir.BSubgroupBroadcast:
		if id, ok := e.constU32Of(args[1]); ok {
			e.capability(capabilityGroupNonUniformBallot)
			return f.op(opGroupNonUniformBroadcast, t, scope, args[0], id)
		}
		e.capability(capabilityGroupNonUniformShuffle)
		return f.op(opGroupNonUniformShuffle, t, scope, args[0], f.asU32(args[1], x.Args[1].Type()))
	case ir.BSubgroupShuffle, ir.BSubgroupShuffleXor:
		e.capability(capabilityGroupNonUniformShuffle)
		o := opGroupNonUniformShuffle
		if x.Fn == ir.BSubgroupShuffleXor {
			o = opGroupNonUniformShuffleXor
		}
		return f.op(o, t, scope, args[0], f.asU32(args[1], x.Args[1].Type()))
	case ir.BSubgroupShuffleUp, ir.BSubgroupShuffleDown:
		e.capability(capabilityGroupNonUniformShuffleRelative)
		o := opGroupNonUniformShuffleUp
		if x.Fn == ir.BSubgroupShuffleDown {
			o = opGroupNonUniformShuffleDown
		}
		return f.op(o, t, scope, args[0], f.asU32(args[1], x.Args[1].Type()))
	case ir.BQuadBroadcast:
		e.capability(capabilityGroupNonUniformQuad)
		id, ok := e.constU32Of(args[1])
		if !ok {
			e.errorf(x.Args[1].Position(), "quadBroadcast's id must be a const-expression (WGSL #quadBroadcast-builtin; SPIR-V 1.3's OpGroupNonUniformQuadBroadcast takes a constant Index)")
			return b.constNull(t)
		}
		return f.op(opGroupNonUniformQuadBroadcast, t, scope, args[0], id)
	case ir.BQuadSwapX, ir.BQuadSwapY, ir.BQuadSwapDiagonal:
		e.capability(capabilityGroupNonUniformQuad)
		dir := map[ir.Builtin]uint32{ir.BQuadSwapX: quadSwapHorizontal, ir.BQuadSwapY: quadSwapVertical, ir.BQuadSwapDiagonal: quadSwapDiagonal}[x.Fn]
		return f.op(opGroupNonUniformQuadSwap, t, scope, args[0], b.constU32(dir))
	}
	e.errorf(x.Pos, "builtin %s has no SPIR-V lowering", x.Fn)
	return b.constNull(t)
}

// constU32Of returns the u32 constant with the bits of id when id is an
// integer scalar constant made by constant (an i32 one becomes the u32 of
// its bits).
func (e *emitter) constU32Of(id uint32) (uint32, bool) {
	v, ok := e.consts[id]
	if !ok || !v.Type.IsInteger() {
		return 0, false
	}
	return e.b.constU32(v.Bits), true
}

// asU32 returns v, an integer scalar of type t, as a u32: bitcast when t
// is i32 (a constant folded to the u32 constant of its bits).
func (f *fnEmitter) asU32(v uint32, t *ir.Type) uint32 {
	if t.Kind != ir.KindI32 {
		return v
	}
	if c, ok := f.e.constU32Of(v); ok {
		return c
	}
	return f.op(opBitcast, f.e.typeOf(ir.U32), v)
}
