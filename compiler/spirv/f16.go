package spirv

import (
	"math"

	"github.com/gpudiff/gpudiff/ir"
)

// f16 (WGSL #extension-f16, behind `enable f16;`) in SPIR-V:
//
//   - the type is OpTypeFloat 16 with the Float16 capability (SPIR-V
//     §2.16.1: "Uses OpTypeFloat to declare the 16-bit floating-point
//     type"), declared by typeOf; every arithmetic, comparison and
//     GLSL.std.450 instruction that takes f32 takes it (GLSL.std.450:
//     "floating-point type with 16 or 32-bit component width"), so
//     expressions lower as for f32;
//   - a constant is OpConstant with the binary16 bits in the low half of
//     its literal word and the high half 0 (SPIR-V §2.2.1);
//   - memory: Function, Private and Workgroup variables need only
//     Float16; a StorageBuffer block holding one needs
//     StorageBuffer16BitAccess, a Uniform block
//     UniformAndStorageBuffer16BitAccess, an Input or Output variable
//     StorageInputOutput16 (SPIR-V 1.3 core, from SPV_KHR_16bit_storage;
//     Vulkan §"Features": storageBuffer16BitAccess,
//     uniformAndStorageBuffer16BitAccess, storageInputOutput16 — WebGPU's
//     shader-f16 requires the first two; Mesa 22.3's lavapipe has them
//     but not storageInputOutput16) — storage16;
//   - layouts are WGSL's (ir.AlignOf, ir.SizeOf: f16 leaves 2 bytes,
//     vec2<f16> align 4, vec3<f16> align 8 size 6, vec4<f16> align 8;
//     matCxR<f16> a MatrixStride of 4 (R = 2) or 8); in a Uniform block
//     every f16 matrix is split into its columns (std140.go: Vulkan's
//     extended layout wants a MatrixStride multiple of 16);
//   - conversions: f32 ↔ f16 OpFConvert, f16 → i32/u32 clamped to f16's
//     finite range in portable mode, integers → f16 OpConvertSToF/UToF
//     (convert, expr.go); frexp through f32 (frexp16).

// floatConst returns the constant of float scalar or vector type t whose
// components are all v (rounded to t's scalar type: f16 to nearest even).
func (e *emitter) floatConst(t *ir.Type, v float32) uint32 {
	if t.Scalar().Kind == ir.KindF16 {
		return e.splatConst(t, ir.F16Val(v).Bits)
	}
	return e.splatConst(t, math.Float32bits(v))
}

// floatOrIntConst returns the constant of numeric scalar or vector type t
// whose components are all the small integer n, as a float for float
// types.
func (e *emitter) floatOrIntConst(t *ir.Type, n int32) uint32 {
	if t.Scalar().IsFloat() {
		return e.floatConst(t, float32(n))
	}
	return e.splatConst(t, uint32(n))
}

// storage16 declares the 16-bit storage capability a variable of storage
// class class holding t needs when t contains f16 (see the comment
// above): StorageBuffer16BitAccess, UniformAndStorageBuffer16BitAccess or
// StorageInputOutput16. Other classes need none beyond Float16.
func (e *emitter) storage16(class uint32, t *ir.Type) {
	if !t.HasF16() {
		return
	}
	switch class {
	case storageClassStorageBuffer:
		e.capability(capabilityStorageBuffer16BitAccess)
	case storageClassUniform:
		e.capability(capabilityUniformAndStorageBuffer16BitAccess)
	case storageClassInput, storageClassOutput:
		e.capability(capabilityStorageInputOutput16)
	}
}

// frexp16 emits frexp(x) of an f16 scalar or vector x (type at; t is its
// result struct, WGSL #frexp-builtin) through f32: x is widened with
// OpFConvert (exact: every binary16 value, subnormals included, is a
// normal binary32), split as an f32 (split), and the fraction narrowed
// back (exact: it has x's at most 11 significant bits and lies in
// [0.5, 1), or is x itself when x is zero). The exponent is the same.
func (f *fnEmitter) frexp16(t uint32, at *ir.Type, x uint32) uint32 {
	e := f.e
	at32 := at.WithScalar(ir.F32)
	r32 := f.split(ir.BFrexp, e.typeOf(ir.FrexpResult(at32)), at32, f.op(opFConvert, e.typeOf(at32), x))
	fr := f.op(opFConvert, e.typeOf(at), f.op(opCompositeExtract, e.typeOf(at32), r32, 0))
	it := at.WithScalar(ir.I32)
	exp := f.op(opCompositeExtract, e.typeOf(it), r32, 1)
	return f.op(opCompositeConstruct, t, fr, exp)
}
