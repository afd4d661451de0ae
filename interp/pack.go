package interp

import (
	"math"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// packBuiltin compiles a data packing or unpacking builtin (WGSL
// #pack-builtin-functions, #unpack-builtin-functions); the values are
// wgslsem's.
//
//   - pack4x8snorm/unorm, pack2x16snorm/unorm: "correctly rounded
//     intermediate result value, correct result", so the packed word is
//     WGSL's ⌊0.5 + M × c⌋; but what the stacks compile it to is
//     GLSL.std.450's round(M × c) (Tint, naga), which differs where M × c
//     rounds to f32 near a half (wgslsem.PackNormRange), so the word is
//     indeterminate (ambiguous) where the two readings, at either end of a
//     component's f32 error interval, differ;
//   - unpack4x8snorm/unorm, unpack2x16snorm/unorm: the correctly rounded
//     quotient with a 3 ULP bound (0 is exact);
//   - pack4xI8/U8(Clamp), unpack4xI8/U8: exact integer operations;
//   - pack2x16float: exact where both components are binary16 values
//     (normal or zero); an inexact component (WGSL #floating-point-
//     conversion allows either neighbour), one outside binary16's finite
//     range, or a subnormal binary16 (which may be flushed) makes the word
//     indeterminate; unpack2x16float: exact, indeterminate for an
//     infinity, a NaN or a subnormal half.
//
// An indeterminate operand makes the result indeterminate.
func (c *compiler) packBuiltin(e *ir.BuiltinCall, dst int32) cexpr {
	info := e.Fn.Info()
	ops := c.operands(e.Args...)
	a, inN := ops[0].loc, ops[0].n
	n := size(e.T)
	site := c.site(e.Pos, e, accuracy(info))
	d := c.pickDst(dst, n, false, ops...)
	var fn exprFn
	switch e.Fn {
	case ir.BPack4x8Snorm, ir.BPack4x8Unorm, ir.BPack2x16Snorm, ir.BPack2x16Unorm:
		bits := 32 / int(inN)
		signed := e.Fn == ir.BPack4x8Snorm || e.Fn == ir.BPack2x16Snorm
		mask := uint32(1)<<bits - 1
		fn = func(fr *frame) {
			s := fr.s
			var r uint32
			why := int32(0)
			for i := int32(0); i < inN; i++ {
				x := s[a+i]
				v := f32of(x.bits)
				p := wgslsem.PackNormInt(v, bits, signed)
				switch {
				case x.why < 0:
					why = firstWhy(why, x.why)
				default:
					lo, _ := wgslsem.PackNormRange(v-x.err, bits, signed)
					_, hi := wgslsem.PackNormRange(v+x.err, bits, signed)
					if lo != hi {
						why = firstWhy(why, -(site + int32(fsAmbiguous)))
					}
				}
				r |= uint32(p) & mask << (uint(bits) * uint(i))
			}
			s[d] = slot{bits: r, why: why}
		}
	case ir.BUnpack4x8Snorm, ir.BUnpack4x8Unorm, ir.BUnpack2x16Snorm, ir.BUnpack2x16Unorm:
		bits := 32 / int(n)
		signed := e.Fn == ir.BUnpack4x8Snorm || e.Fn == ir.BUnpack2x16Snorm
		fn = func(fr *frame) {
			s := fr.s
			x := s[a]
			for i := int32(0); i < n; i++ {
				v := float64(wgslsem.UnpackNorm(x.bits>>(uint(bits)*uint(i)), bits, signed))
				switch {
				case x.why < 0:
					s[d+i] = slot{bits: math.Float32bits(float32(v)), why: x.why}
				case v == 0:
					s[d+i] = slot{bits: math.Float32bits(float32(v))}
				default:
					s[d+i] = finish(site, fv{v, 3 * ulp(v)}, fsOK, 0)
				}
			}
		}
	case ir.BPack2x16Float:
		fn = func(fr *frame) {
			s := fr.s
			var r uint32
			why := int32(0)
			for i := int32(0); i < 2; i++ {
				x := s[a+i]
				h, exact, finite := wgslsem.F32ToF16(math.Float32frombits(x.bits))
				switch {
				case x.why < 0:
					why = firstWhy(why, x.why)
				case !finite:
					why = firstWhy(why, -(site + int32(fsOverflow)))
				case !exact || x.err > 0:
					why = firstWhy(why, -(site + int32(fsAmbiguous)))
				case h&0x7C00 == 0 && h&0x3FF != 0:
					why = firstWhy(why, -(site + int32(fsSubnormal)))
				}
				r |= uint32(h) << (16 * uint(i))
			}
			s[d] = slot{bits: r, why: why}
		}
	case ir.BUnpack2x16Float:
		fn = func(fr *frame) {
			s := fr.s
			x := s[a]
			for i := int32(0); i < 2; i++ {
				v, finite, sub := wgslsem.F16ToF32(uint16(x.bits >> (16 * uint(i))))
				r := slot{bits: math.Float32bits(v), why: x.why}
				switch {
				case x.why < 0:
				case !finite:
					r.why = -(site + int32(fsOverflow))
				case sub:
					r.why = -(site + int32(fsSubnormal))
				}
				s[d+i] = r
			}
		}
	case ir.BPack4xI8, ir.BPack4xU8, ir.BPack4xI8Clamp, ir.BPack4xU8Clamp:
		signed := e.Fn == ir.BPack4xI8 || e.Fn == ir.BPack4xI8Clamp
		clamp := e.Fn == ir.BPack4xI8Clamp || e.Fn == ir.BPack4xU8Clamp
		fn = func(fr *frame) {
			s := fr.s
			var in [4]uint32
			why := int32(0)
			for i := range in {
				x := s[a+int32(i)]
				in[i] = x.bits
				why = firstWhy(why, x.why)
			}
			s[d] = slot{bits: wgslsem.Pack4x8(in, signed, clamp), why: why}
		}
	case ir.BUnpack4xI8, ir.BUnpack4xU8:
		signed := e.Fn == ir.BUnpack4xI8
		fn = func(fr *frame) {
			s := fr.s
			x := s[a]
			for i := int32(0); i < 4; i++ {
				s[d+i] = slot{bits: wgslsem.Unpack4x8(x.bits, int(i), signed), why: x.why}
			}
		}
	default:
		c.errorf(e.Pos, "builtin %s has no reference implementation", info.Name)
		return c.dummy(e.T, dst)
	}
	return cexpr{code: c.emitI(instr{op: opFn, d: d, fn: fn}, ops...), loc: d, n: n, stops: anyStops(ops...)}
}

// splitBuiltin executes modf(x) and frexp(x) (WGSL #modf-builtin,
// #frexp-builtin) lane by lane into the result struct's slots (the n
// fract lanes, then the n whole or exp lanes). Both are exact on a
// finite, normal, exact operand: modf's whole part is trunc(x) and its
// fract part x - trunc(x), each with x's sign; frexp's fract is in
// [0.5, 1) in magnitude, with x's sign, and x = fract * 2^exp (frexp(0)
// = (0, 0)). An indeterminate operand makes both parts indeterminate
// for its reason, an inexact one (an error bound) ambiguous, Inf/NaN
// overflow. A subnormal operand: modf gives (x, 0), equal to the flushed
// result under the subnormal/zero equivalence; frexp's flushed (0, 0) and
// unflushed results differ, so both parts are subnormal-indeterminate.
func (c *compiler) splitBuiltin(e *ir.BuiltinCall, dst int32) cexpr {
	ops := c.operands(e.Args...)
	a, n := ops[0].loc, ops[0].n
	site := c.site(e.Pos, e, accuracy(e.Fn.Info()))
	d := c.pickDst(dst, 2*n, false, ops...)
	modf := e.Fn == ir.BModf
	m := fmtOf(e.Args[0].Type().Scalar().Kind) // f32 or f16: the parts are exact in either
	fn := func(fr *frame) {
		s := fr.s
		for i := int32(0); i < n; i++ {
			x := s[a+i]
			v := m.valueOf(x.bits)
			var first, second uint32
			why := x.why
			switch {
			case modf:
				w := math.Trunc(v)
				first, second = m.bitsOf(v-w), m.bitsOf(w)
				if math.IsInf(v, 0) || math.IsNaN(v) {
					first, second = 0, 0
				}
			default:
				f, ex := math.Frexp(v)
				first, second = m.bitsOf(f), uint32(int32(ex))
			}
			switch {
			case why < 0:
			case math.IsInf(v, 0) || math.IsNaN(v):
				why = -(site + int32(fsOverflow))
			case x.err > 0:
				why = -(site + int32(fsAmbiguous))
			case !modf && m.isSub(x.bits):
				why = -(site + int32(fsSubnormal))
			}
			s[d+i] = slot{bits: first, why: why}
			s[d+n+i] = slot{bits: second, why: why}
		}
	}
	return cexpr{code: c.emitI(instr{op: opFn, d: d, fn: fn}, ops...), loc: d, n: 2 * n, stops: anyStops(ops...)}
}
