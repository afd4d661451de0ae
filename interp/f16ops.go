package interp

import (
	"math"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// f16 operators, conversions and bitcasts. They run f32.go's kernels with
// f16F (f16.go) in closures (opFn), + - * with an exact-result shortcut of
// their own: none of the f32 fast paths of code.go and fuse.go (Fast2Sum
// in float32, exact normal operands, ±2^k exponent scaling, f32(i32)
// below 2^24, branches on f32 comparisons) is ever emitted for an f16
// operand, since each of them reads a slot's bits as binary32.

// floatArith compiles + - * / % on float operands of format m: f32's
// fast paths (f32Arith), or f16's general kernels (f16Arith).
func (c *compiler) floatArith(m *ffmt, pos ir.Pos, node ir.Node, op ir.BinaryOp, x, y cexpr, sx, sy, n, d int32) exprFn {
	if !m.half {
		return c.f32Arith(pos, node, op, x, y, sx, sy, n, d)
	}
	return c.f16Arith(pos, node, op, x, y, sx, sy, n, d)
}

// f16Arith compiles + - * / % on f16 operands lane by lane (stride 0
// broadcasts a scalar): + - * correctly rounded (the reference rounds to
// nearest even and grants one binary16 ULP where the exact result is not
// representable), / 2.5 ULP for |y| in [2^-14, 2^14] (else
// indeterminate), % inherited from x - y * trunc(x / y) (WGSL
// #concrete-float-accuracy, the f16 column); a result that may reach
// beyond 65504 is indeterminate (#floating-point-rounding-and-overflow).
func (c *compiler) f16Arith(pos ir.Pos, node ir.Node, op ir.BinaryOp, x, y cexpr, sx, sy, n, d int32) exprFn {
	m := f16F
	var k fk2
	acc := "correctly rounded"
	switch op {
	case ir.OpAdd:
		k = func(a, b fv) (fv, fstatus) { return m.add(a, b), fsOK }
	case ir.OpSub:
		k = func(a, b fv) (fv, fstatus) { return m.sub(a, b), fsOK }
	case ir.OpMul:
		k = func(a, b fv) (fv, fstatus) { return m.mul(a, b), fsOK }
	case ir.OpDiv:
		k, acc = m.div, "2.5 ULP for |y| in [2^-14, 2^14]"
	default:
		k, acc = m.rem, "inherited from x - y * trunc(x / y)"
	}
	site := c.site(pos, node, acc)
	xl, yl := x.loc, y.loc
	if op == ir.OpAdd || op == ir.OpSub || op == ir.OpMul {
		// Exact, normal (or zero) operands whose float64 result — exact:
		// binary16 sums and products fit in 53 bits — is a finite f16:
		// that value, exact, as the general kernel gives it.
		return func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				a, b := &s[xl+i*sx], &s[yl+i*sy]
				if a.why|b.why == 0 && !m.isSub(a.bits) && !m.isSub(b.bits) {
					u, v := m.valueOf(a.bits), m.valueOf(b.bits)
					var r float64
					switch op {
					case ir.OpAdd:
						r = u + v
					case ir.OpSub:
						r = u - v
					default:
						r = u * v
					}
					if h, exact, finite := wgslsem.F64ToF16(r); exact && finite {
						s[d+i] = slot{bits: uint32(h)}
						continue
					}
				}
				s[d+i] = m.eval2(site, k, *a, *b)
			}
		}
	}
	return func(fr *frame) {
		s := fr.s
		for i := int32(0); i < n; i++ {
			s[d+i] = m.eval2(site, k, s[xl+i*sx], s[yl+i*sy])
		}
	}
}

// f16Compare compiles a comparison of f16 operands: exact (WGSL "Correct
// result"), indeterminate where the outcome may change within the
// operands' bounds or when a subnormal operand is flushed.
func (c *compiler) f16Compare(site int32, op ir.BinaryOp, x, y cexpr, sx, sy, n, d int32) exprFn {
	m := f16F
	k := cmpKernel(op)
	xl, yl := x.loc, y.loc
	return func(fr *frame) {
		s := fr.s
		for i := int32(0); i < n; i++ {
			s[d+i] = m.evalCmp(site, k, s[xl+i*sx], s[yl+i*sy])
		}
	}
}

// f16Convert returns the lane kernel of a value conversion from or to
// f16 (WGSL #conversion-expr, #floating-point-conversion), or nil when
// neither side is f16. site is the conversion's reason block.
//
//   - f16 → bool: x != 0, indeterminate where a subnormal may be flushed or
//     0 lies within the bound;
//   - f16 → i32, u32: truncated, clamped (every finite f16 is within i32;
//     u32 clamps negatives to 0), indeterminate for NaN and where the result
//     may change within the bound;
//   - f16 → f32: exact, the bound kept; a subnormal f16 may have been
//     flushed, so its f32 value (a normal f32, which the comparator does not
//     count as zero) carries |x| more;
//   - bool → f16: 0.0h or 1.0h;
//   - i32, u32 → f16: rounded either way (one ULP where inexact),
//     indeterminate beyond 65504 (outside the finite range: 65504 or
//     infinity);
//   - f32 → f16: rounded either way (one ULP where inexact, or where the
//     operand is inexact), indeterminate where |x| plus the bound may pass
//     65504.
func f16Convert(site int32, from, to ir.Kind) func(a slot) slot {
	m := f16F
	switch {
	case from == ir.KindF16 && to == ir.KindBool:
		return func(a slot) slot {
			v := m.valueOf(a.bits)
			r := slot{bits: b2u(v != 0), why: a.why}
			switch {
			case a.why < 0:
			case m.isSub(a.bits):
				r.why = -(site + int32(fsSubnormal))
			case a.err > 0 && math.Abs(v) <= a.err:
				r.why = -(site + int32(fsAmbiguous))
			}
			if r.why > 0 {
				r.why = 0
			}
			return r
		}
	case from == ir.KindF16 && (to == ir.KindI32 || to == ir.KindU32):
		signed := to == ir.KindI32
		return func(a slot) slot { return float2int(m, site, a, signed) }
	case from == ir.KindF16 && to == ir.KindF32:
		return func(a slot) slot {
			v := m.valueOf(a.bits)
			if a.why < 0 {
				// Any value: an allowed set of f16 bits is no set of f32's.
				return slot{bits: math.Float32bits(float32(v)), why: a.why}
			}
			r := slot{bits: math.Float32bits(float32(v)), why: a.why, err: a.err}
			if m.isSub(a.bits) {
				r.err += math.Abs(v)
				if r.why == 0 {
					r.why = site
				}
			}
			return r
		}
	case from == ir.KindBool && to == ir.KindF16:
		return func(a slot) slot { return slot{bits: a.bits * 0x3c00, why: a.why} }
	case (from == ir.KindI32 || from == ir.KindU32) && to == ir.KindF16:
		signed := from == ir.KindI32
		return func(a slot) slot {
			x := float64(a.bits)
			if signed {
				x = float64(int32(a.bits))
			}
			h, exact, finite := wgslsem.F64ToF16(x)
			r := slot{bits: uint32(h), why: a.why}
			switch {
			case a.why < 0:
			case !finite:
				r.why = -(site + int32(fsOverflow))
			case !exact:
				r.why, r.err = site, m.ulp(x)
			}
			return r
		}
	case from == ir.KindF32 && to == ir.KindF16:
		return func(a slot) slot {
			v := f32of(a.bits)
			if a.why < 0 {
				return slot{bits: m.bitsOf(v), why: a.why}
			}
			return m.finish(site, m.cr(v, true, a.err), fsOK, a.why)
		}
	}
	return nil
}

// float2int converts a float slot of format m to i32 or u32 (WGSL
// #floating-point-conversion): truncate and saturate; indeterminate for
// NaN and when the result may change within the value's error bound.
func float2int(m *ffmt, site int32, a slot, signed bool) slot {
	v := m.valueOf(a.bits)
	conv := func(x float64) uint32 {
		if signed {
			return uint32(wgslsem.F32ToI32(x))
		}
		return wgslsem.F32ToU32(x)
	}
	r := slot{bits: conv(v)}
	switch {
	case a.why < 0:
		r.why = a.why
	case v != v:
		r.why = -(site + int32(fsOverflow))
	case a.err > 0 && (conv(v-a.err) != r.bits || conv(v+a.err) != r.bits):
		r.why = -(site + int32(fsAmbiguous))
	}
	return r
}

// f16Bitcast compiles a bitcast with f16 on one side (WGSL
// #bitcast-builtin): vecN<f16> to itself keeps the bits; vec2<f16> ↔ a
// 32-bit scalar and vec4<f16> ↔ vec2 of a 32-bit type reinterpret each
// 32-bit lane as two f16 lanes, the first in the low 16 bits (WGSL
// #internal-value-layout). As for f32: a source lane that is indeterminate
// makes its result lanes indeterminate; one that is inexact or subnormal
// (WGSL may flush a subnormal a bitcast consumes) makes them
// indeterminate; a result lane whose bits are an infinity or NaN of its
// type is indeterminate (finite math assumption). A subnormal f16 result
// is kept, as an f32 one is.
func (c *compiler) f16Bitcast(e *ir.Bitcast, x cexpr, dst int32) cexpr {
	from, to := e.X.Type().Scalar().Kind, e.T.Scalar().Kind
	if from == to {
		return x
	}
	n := int32(e.T.Width())
	d := c.pickDst(dst, n, false, x)
	xl := x.loc
	var fn exprFn
	if from == ir.KindF16 {
		bad := -c.addReason(e.Pos, rBitcast, e, "an f16 source lane is subnormal (WGSL may flush it) or inexact")
		nonFin := -c.addReason(e.Pos, rBitcast, e, "the result is an f32 infinity or NaN (finite math assumption)")
		toF32 := to == ir.KindF32
		fn = func(fr *frame) {
			s := fr.s
			for j := int32(0); j < n; j++ {
				lo, hi := s[xl+2*j], s[xl+2*j+1]
				r := slot{bits: lo.bits&0xffff | hi.bits&0xffff<<16, why: firstWhy(min(lo.why, 0), min(hi.why, 0))}
				switch {
				case r.why < 0:
				case f16F.isSub(lo.bits) || f16F.isSub(hi.bits) || lo.err > 0 || hi.err > 0:
					r.why = bad
				case toF32 && nonFinite(r.bits):
					r.why = nonFin
				}
				s[d+j] = r
			}
		}
	} else {
		bad := -c.addReason(e.Pos, rBitcast, e, "the f32 source is subnormal (WGSL may flush it) or inexact")
		nonFin := -c.addReason(e.Pos, rBitcast, e, "the result is an f16 infinity or NaN (finite math assumption)")
		fromF32 := from == ir.KindF32
		fn = func(fr *frame) {
			s := fr.s
			for j := int32(0); j < n/2; j++ {
				a := s[xl+j]
				why := min(a.why, 0)
				if a.why >= 0 && fromF32 && (isSubnormal(a.bits) || a.err > 0) {
					why = bad
				}
				for h := int32(0); h < 2; h++ {
					r := slot{bits: a.bits >> (16 * h) & 0xffff, why: why}
					if r.why == 0 && f16F.nonFinite(r.bits) {
						r.why = nonFin
					}
					s[d+2*j+h] = r
				}
			}
		}
	}
	return cexpr{code: c.emit(fn, x), loc: d, n: n, stops: x.stops}
}
