package spirv

import (
	"github.com/gpudiff/gpudiff/ir"
)

// glslFloat maps the float builtins (f32 and f16: GLSL.std.450 takes
// 16-bit floats wherever it takes 32-bit ones) that are exactly one GLSL.std.450
// instruction with the same operand order and meaning for every input WGSL
// defines (GLSL.std.450 instruction names; WGSL "Built-in Functions").
// round is RoundEven (WGSL rounds half to even), fract is Fract
// (x - floor(x)), step(edge, x) and smoothstep(low, high, x) take their
// operands in GLSL's order.
//
// The hyperbolic functions, reflect, faceForward and ldexp mean the same
// in both specs, so portable mode guards none of them:
//   - Sinh, Cosh, Tanh: GLSL.std.450 restricts no domain; WGSL's accuracy
//     is inherited from the exp formulas (tanh also allows 1e-5 absolute),
//     indeterminate where an exp overflows;
//   - Reflect(I, N) = I - 2 * dot(N, I) * N is WGSL's reflect(e1, e2) (its
//     "N must already be normalized" is advice, not a domain);
//   - FaceForward(N, I, Nref) is N if dot(Nref, I) < 0, else -N: WGSL's
//     faceForward(e1, e2, e3) with N = e1, I = e2, Nref = e3;
//   - Ldexp(x, exp): undefined for exp > 128 or a product too large (WGSL:
//     an indeterminate value for a run-time e2 > bias + 1 = 128, overflow
//     under the finite math assumption), and "may be flushed to zero" for
//     exp < -126, exactly WGSL's "may be zero if e2 + bias ≤ 0".
var glslFloat = map[ir.Builtin]uint32{
	ir.BFloor: glslFloor, ir.BCeil: glslCeil, ir.BRound: glslRoundEven, ir.BTrunc: glslTrunc,
	ir.BFract: glslFract, ir.BSqrt: glslSqrt, ir.BInverseSqrt: glslInverseSqrt, ir.BPow: glslPow,
	ir.BExp: glslExp, ir.BExp2: glslExp2, ir.BLog: glslLog, ir.BLog2: glslLog2,
	ir.BSin: glslSin, ir.BCos: glslCos, ir.BTan: glslTan, ir.BAsin: glslAsin, ir.BAcos: glslAcos,
	ir.BAtan: glslAtan, ir.BAtan2: glslAtan2, ir.BCross: glslCross, ir.BLength: glslLength,
	ir.BNormalize: glslNormalize, ir.BDistance: glslDistance, ir.BStep: glslStep,
	ir.BSmoothstep: glslSmoothStep, ir.BFma: glslFma,
	ir.BDegrees: glslDegrees, ir.BRadians: glslRadians,
	ir.BSinh: glslSinh, ir.BCosh: glslCosh, ir.BTanh: glslTanh,
	ir.BReflect: glslReflect, ir.BFaceForward: glslFaceForward, ir.BLdexp: glslLdexp,
}

// builtin emits a builtin call. Arguments are evaluated left to right.
//
// Lowerings (the same in both modes unless noted):
//   - abs: FAbs (f32, f16); i32 portable: select(x, -x, x < 0), which wraps at
//     INT_MIN like WGSL (SAbs in raw); u32: x itself;
//   - min/max: FMin/SMin/UMin, FMax/SMax/UMax;
//   - clamp(x, lo, hi): portable min(max(x, lo), hi) — WGSL's definition,
//     defined for lo > hi where FClamp/SClamp/UClamp are not; raw:
//     FClamp/SClamp/UClamp; saturate(x): FClamp(x, 0.0, 1.0);
//   - sign: FSign/SSign; mix: FMix, a scalar factor splatted;
//   - dot: OpDot for f32 and f16, a wrapping sum of products for integers;
//   - countOneBits: OpBitCount; reverseBits: OpBitReverse;
//     firstLeadingBit: FindSMsb (i32: highest bit differing from the
//     sign, -1 for 0 and -1) / FindUMsb (u32: 0xFFFFFFFF for 0);
//     firstTrailingBit: FindILsb (-1 for 0) — results in the argument's type;
//   - extractBits/insertBits: OpBitFieldSExtract/UExtract, OpBitFieldInsert;
//     portable mode first applies WGSL's clamping: o = min(offset, 32),
//     c = min(count, 32 - o) (#extractBits-signed-builtin,
//     #insertBits-builtin), where SPIR-V leaves offset + count > 32
//     undefined;
//   - all/any: OpAll/OpAny for vectors, the argument itself for a scalar.
//
// Subgroup and quad builtins are subgroup's (subgroup.go). Derivative
// and barrier builtins have no lowering here outside a fragment entry
// point and an entry point as written: they are reported as errors at
// the call.
func (f *fnEmitter) builtin(x *ir.BuiltinCall) uint32 {
	e := f.e
	info := x.Fn.Info()
	if e.entry != nil && (x.Fn == ir.BWorkgroupBarrier || x.Fn == ir.BStorageBarrier || x.Fn == ir.BTextureBarrier) {
		f.barrier(x.Fn)
		return 0
	}
	if e.entry != nil && x.Fn == ir.BWorkgroupUniformLoad {
		// OpControlBarrier; OpLoad (OpAtomicLoad for an atomic);
		// OpControlBarrier (Tint, naga).
		f.barrier(ir.BWorkgroupBarrier)
		v := f.expr(ir.UniformLoadValue(x))
		f.barrier(ir.BWorkgroupBarrier)
		return v
	}
	if info.Class == ir.ClassDerivative && e.derivatives {
		return f.derivative(x) // texture.go
	}
	if info.Class == ir.ClassSubgroup {
		return f.subgroup(x) // subgroup.go
	}
	if !info.Pure() {
		e.errorf(x.Pos, "builtin %s is not supported by the SPIR-V backend (needs uniform control flow or a non-compute stage)", info.Name)
		for _, a := range x.Args {
			f.expr(a)
		}
		if x.T.IsVoid() {
			return 0
		}
		return e.b.constNull(e.typeOf(x.T))
	}
	args := make([]uint32, len(x.Args))
	for i, a := range x.Args {
		args[i] = f.expr(a)
	}
	t := e.typeOf(x.T)
	at := x.Args[0].Type()
	switch x.Fn {
	case ir.BTranspose:
		return f.op(opTranspose, t, args[0])
	case ir.BDeterminant:
		return f.glsl(glslDeterminant, t, args[0])
	case ir.BModf, ir.BFrexp:
		return f.split(x.Fn, t, at, args[0])
	}
	if info.Class == ir.ClassPack {
		return f.pack(x.Fn, t, args[0])
	}
	k := at.Scalar().Kind
	pick := func(fl, s, u uint32) uint32 {
		switch k {
		case ir.KindF32, ir.KindF16:
			return fl
		case ir.KindI32:
			return s
		}
		return u
	}
	if inst, ok := glslFloat[x.Fn]; ok {
		return f.glsl(inst, t, args...)
	}
	switch x.Fn {
	case ir.BAbs:
		switch {
		case at.Scalar().IsFloat():
			return f.glsl(glslFAbs, t, args[0])
		case k == ir.KindU32:
			return args[0]
		case e.portable:
			neg := f.op(opSNegate, t, args[0])
			lt := f.op(opSLessThan, e.typeOf(ir.BoolShaped(at)), args[0], e.splatConst(at, 0))
			return f.op(opSelect, t, lt, neg, args[0])
		}
		return f.glsl(glslSAbs, t, args[0])
	case ir.BMin:
		return f.glsl(pick(glslFMin, glslSMin, glslUMin), t, args...)
	case ir.BMax:
		return f.glsl(pick(glslFMax, glslSMax, glslUMax), t, args...)
	case ir.BClamp:
		if e.portable {
			hi := f.glsl(pick(glslFMax, glslSMax, glslUMax), t, args[0], args[1])
			return f.glsl(pick(glslFMin, glslSMin, glslUMin), t, hi, args[2])
		}
		return f.glsl(pick(glslFClamp, glslSClamp, glslUClamp), t, args...)
	case ir.BSaturate:
		// FClamp(x, 0.0, 1.0) in both modes: its bounds are ordered, where
		// FClamp is what WGSL's clamp is (WGSL #saturate-float-builtin).
		return f.glsl(glslFClamp, t, args[0], e.splatConst(at, 0), e.floatConst(at, 1))
	case ir.BSign:
		return f.glsl(pick(glslFSign, glslSSign, glslSSign), t, args[0])
	case ir.BMix:
		z := args[2]
		if x.Args[2].Type().Kind != at.Kind {
			z = f.splat(at, z)
		}
		return f.glsl(glslFMix, t, args[0], args[1], z)
	case ir.BDot:
		if at.Scalar().IsFloat() {
			return f.op(opDot, t, args[0], args[1])
		}
		var sum uint32
		for i := 0; i < at.Len; i++ {
			a := f.op(opCompositeExtract, t, args[0], uint32(i))
			b := f.op(opCompositeExtract, t, args[1], uint32(i))
			p := f.op(opIMul, t, a, b)
			if i == 0 {
				sum = p
			} else {
				sum = f.op(opIAdd, t, sum, p)
			}
		}
		return sum
	case ir.BCountOneBits:
		return f.op(opBitCount, t, args[0])
	case ir.BReverseBits:
		return f.op(opBitReverse, t, args[0])
	case ir.BFirstLeadingBit:
		return f.glsl(pick(0, glslFindSMsb, glslFindUMsb), t, args[0])
	case ir.BFirstTrailingBit:
		return f.glsl(glslFindILsb, t, args[0])
	case ir.BExtractBits:
		o, c := f.bitRange(args[1], args[2])
		if k == ir.KindI32 {
			return f.op(opBitFieldSExtract, t, args[0], o, c)
		}
		return f.op(opBitFieldUExtract, t, args[0], o, c)
	case ir.BInsertBits:
		o, c := f.bitRange(args[2], args[3])
		return f.op(opBitFieldInsert, t, args[0], args[1], o, c)
	case ir.BAll, ir.BAny:
		if at.Kind != ir.KindVec {
			return args[0]
		}
		if x.Fn == ir.BAll {
			return f.op(opAll, t, args[0])
		}
		return f.op(opAny, t, args[0])
	}
	e.errorf(x.Pos, "builtin %s has no SPIR-V lowering", info.Name)
	return e.b.constNull(t)
}

// bitRange returns the offset and count operands of a bit-field
// instruction: in portable mode WGSL's o = min(offset, 32),
// c = min(count, 32 - o) (UMin), in raw mode the operands as given.
func (f *fnEmitter) bitRange(offset, count uint32) (uint32, uint32) {
	if !f.e.portable {
		return offset, count
	}
	u32 := f.e.typeOf(ir.U32)
	w := f.b.constU32(32)
	o := f.glsl(glslUMin, u32, offset, w)
	c := f.glsl(glslUMin, u32, count, f.op(opISub, u32, w, o))
	return o, c
}

// glslPack maps the float data packing builtins to their GLSL.std.450
// instruction (what Tint and naga emit). GLSL's round leaves the direction
// of a .5 tie to the implementation, where WGSL's ⌊0.5 + M × c⌋ rounds it
// up: pack4x8snorm(-0.5) and pack2x16snorm(-0.5) are the only inputs where
// the two readings differ (the reference follows WGSL).
var glslPack = map[ir.Builtin]uint32{
	ir.BPack4x8Snorm: glslPackSnorm4x8, ir.BPack4x8Unorm: glslPackUnorm4x8,
	ir.BPack2x16Snorm: glslPackSnorm2x16, ir.BPack2x16Unorm: glslPackUnorm2x16,
	ir.BUnpack4x8Snorm: glslUnpackSnorm4x8, ir.BUnpack4x8Unorm: glslUnpackUnorm4x8,
	ir.BUnpack2x16Snorm: glslUnpackSnorm2x16, ir.BUnpack2x16Unorm: glslUnpackUnorm2x16,
	ir.BPack2x16Float: glslPackHalf2x16, ir.BUnpack2x16Float: glslUnpackHalf2x16,
}

// pack emits a data packing or unpacking builtin of a: the float ones as
// GLSL.std.450 instructions; pack4xI8/U8 as the OR of each component's
// low byte shifted into place (the Clamp forms first SClamp to
// [-128, 127] / UMin with 255); unpack4xI8/U8 as OpBitFieldSExtract /
// OpBitFieldUExtract of each byte.
func (f *fnEmitter) pack(fn ir.Builtin, t, a uint32) uint32 {
	if inst, ok := glslPack[fn]; ok {
		return f.glsl(inst, t, a)
	}
	b := f.b
	u32, i32 := f.e.typeOf(ir.U32), f.e.typeOf(ir.I32)
	switch fn {
	case ir.BUnpack4xI8, ir.BUnpack4xU8:
		el := u32
		src := a
		ext := opBitFieldUExtract
		if fn == ir.BUnpack4xI8 {
			el, ext = i32, opBitFieldSExtract
			src = f.op(opBitcast, i32, a)
		}
		var parts [4]uint32
		for i := range parts {
			parts[i] = f.op(ext, el, src, b.constU32(uint32(8*i)), b.constU32(8))
		}
		return f.op(opCompositeConstruct, t, parts[:]...)
	}
	signed := fn == ir.BPack4xI8 || fn == ir.BPack4xI8Clamp
	var r uint32
	for i := 0; i < 4; i++ {
		var c uint32
		if signed {
			c = f.op(opCompositeExtract, i32, a, uint32(i))
			if fn == ir.BPack4xI8Clamp {
				c = f.glsl(glslSClamp, i32, c, b.constI32(-128), b.constI32(127))
			}
			c = f.op(opBitcast, u32, c)
		} else {
			c = f.op(opCompositeExtract, u32, a, uint32(i))
			if fn == ir.BPack4xU8Clamp {
				c = f.glsl(glslUMin, u32, c, b.constU32(255))
			}
		}
		c = f.op(opBitwiseAnd, u32, c, b.constU32(0xFF))
		if i > 0 {
			c = f.op(opShiftLeftLogical, u32, c, b.constU32(uint32(8*i)))
			c = f.op(opBitwiseOr, u32, r, c)
		}
		r = c
	}
	return r
}

// split emits modf(x) and frexp(x) (WGSL #modf-builtin, #frexp-builtin;
// frexp of f16 goes through f32, frexp16)
// as their result struct built with OpCompositeConstruct, not with
// GLSL.std.450 ModfStruct/FrexpStruct, which naga's SPIR-V reader (naga
// 0.19.2, of the linked wgpu 0.19.4) rejects ("Special type is not registered"):
//   - modf: whole = Trunc(x), fract = x - whole (exact for finite x);
//   - frexp: for x != 0, exp = ((bits >> 23) & 0xff) - 126 and fract =
//     bitcast((bits & 0x807fffff) | 0x3f000000) (the significand with
//     the exponent of 0.5, x's sign); x == 0 gives (x, 0). Exact for
//     normal x; subnormal, Inf and NaN operands are indeterminate in the
//     reference.
func (f *fnEmitter) split(b ir.Builtin, t uint32, at *ir.Type, x uint32) uint32 {
	e := f.e
	ft := e.typeOf(at)
	if b == ir.BFrexp && at.Scalar().Kind == ir.KindF16 {
		return f.frexp16(t, at, x) // f16.go
	}
	if b == ir.BModf {
		whole := f.glsl(glslTrunc, ft, x)
		return f.op(opCompositeConstruct, t, f.op(opFSub, ft, x, whole), whole)
	}
	ut, it := ir.U32, ir.I32
	bt := ir.Bool
	if at.Kind == ir.KindVec {
		ut, it, bt = ir.Vec(at.Len, ir.U32), ir.Vec(at.Len, ir.I32), ir.Vec(at.Len, ir.Bool)
	}
	bits := f.op(opBitcast, e.typeOf(ut), x)
	biased := f.op(opBitwiseAnd, e.typeOf(ut), f.op(opShiftRightLogical, e.typeOf(ut), bits, e.splatConst(ut, 23)), e.splatConst(ut, 0xff))
	exp := f.op(opISub, e.typeOf(it), f.op(opBitcast, e.typeOf(it), biased), e.splatConst(it, 126))
	fr := f.op(opBitcast, ft, f.op(opBitwiseOr, e.typeOf(ut), f.op(opBitwiseAnd, e.typeOf(ut), bits, e.splatConst(ut, 0x807fffff)), e.splatConst(ut, 0x3f000000)))
	zero := f.op(opFOrdEqual, e.typeOf(bt), x, e.splatConst(at, 0))
	fr = f.op(opSelect, ft, zero, x, fr)
	exp = f.op(opSelect, e.typeOf(it), zero, e.splatConst(it, 0), exp)
	return f.op(opCompositeConstruct, t, fr, exp)
}
