package interp

import (
	"math"
	"math/bits"

	"github.com/gpudiff/gpudiff/ir"
)

// Float reductions and scans over a subgroup's active invocations (WGSL
// #concrete-float-accuracy: "inherited from the sum (product) of x for
// all active invocations", which an implementation may associate in any
// order, #reassociation-and-fusion). The rules are fSum's (f32.go), for
// f32 and f16 alike (ffmt: the format's parameters, f16.go), stated here so
// that they hold for a product too:
//
//   - sum: exact when every term is exact and every partial sum in any
//     order fits the significand above the smallest term's lowest bit;
//     else the operands' bounds plus n − 1 roundings of 1 ULP of the sum
//     of magnitudes (which bounds every partial sum in any order), plus
//     1 ULP for the reference's own rounding; indeterminate when the sum
//     of magnitudes plus the bounds may overflow (some partial sum in
//     some order could);
//   - product: exact when every term is an exact integer and the product
//     of the magnitudes above 1 fits the significand (every partial
//     product in any order is then an exact integer); else the operands'
//     bounds (∏(|x|+E) − ∏|x|), plus the relative roundings of n − 1
//     multiplications ((1+2^(1−p))^(n−1) − 1 of ∏(|x|+E)), plus, where a
//     partial product may fall below the least normal value and be
//     flushed, that value times the largest factor product; indeterminate
//     when the product of the magnitudes above 1 may overflow;
//   - min and max: exact operations, the largest operand bound;
//   - a subnormal term, which may be flushed to zero, adds its magnitude
//     to a sum's bound.

// lowBit is the value of the lowest set bit of nonzero x's significand.
func lowBit(x float64) float64 {
	b := math.Float64bits(math.Abs(x))
	exp := int(b >> 52 & 0x7ff)
	mant := b & (1<<52 - 1)
	e := -1074
	if exp != 0 {
		mant |= 1 << 52
		e = exp - 1075
	}
	return math.Ldexp(1, e+bits.TrailingZeros64(mant))
}

// floatFold reduces determinate float terms: a sum (add), a product
// (mul), else min or max (o.fn), with the bounds above.
func (o *sgOp) floatFold(ts []slot, add, mul bool) slot {
	f := f32F
	if o.elem == ir.KindF16 {
		f = f16F
	}
	n := len(ts)
	inexact := func(v, e float64) slot {
		s := slot{bits: f.bitsOf(v)}
		if e > 0 {
			s.why, s.err = o.fsite+int32(rInexact), e
		}
		return s
	}
	overflow := slot{why: -(o.fsite + int32(rOverflow))}
	switch {
	case add:
		s, mag, prop, sub := 0.0, 0.0, 0.0, 0.0
		exact := true
		q := math.Inf(1)
		for _, t := range ts {
			v, e := f.valueOf(t.bits), t.tol()
			s += v
			mag += math.Abs(v)
			prop += e
			if e > 0 {
				exact = false
			}
			if v != 0 {
				q = math.Min(q, lowBit(v))
				if math.Abs(v) < f.minNormal {
					sub += math.Abs(v)
					exact = false
				}
			}
		}
		if mag+prop > f.maxF {
			return overflow
		}
		if n <= 1 || exact && (mag == 0 || mag/q < f.exactSpan) {
			if n == 1 {
				return inexact(s, prop+sub)
			}
			return inexact(s, 0)
		}
		return inexact(s, prop+sub+float64(n)*f.ulp(mag+prop))
	case mul:
		p, withErr, big := 1.0, 1.0, 1.0
		exact := true
		zero := false
		for _, t := range ts {
			v, e := f.valueOf(t.bits), t.tol()
			p *= v
			withErr *= math.Abs(v) + e
			big *= math.Max(1, math.Abs(v)+e)
			if e > 0 || v != math.Trunc(v) {
				exact = false
			}
			if v == 0 && e == 0 {
				zero = true
			}
		}
		if big > f.maxF || math.IsInf(withErr, 0) {
			return overflow
		}
		if n <= 1 || zero || exact && big < f.exactSpan {
			if n == 1 {
				return inexact(p, ts[0].tol())
			}
			return inexact(p, 0)
		}
		u := math.Ldexp(1, 1-f.prec)
		e := (withErr - math.Abs(p)) + withErr*(math.Pow(1+u, float64(n-1))-1)*1.0001
		// A partial product below the least normal value may be flushed
		// (or rounded to a subnormal's coarse spacing).
		small := 1.0
		for _, t := range ts {
			if a := math.Abs(f.valueOf(t.bits)); a < 1 {
				small *= a
			}
		}
		if small < f.minNormal {
			e += f.minNormal * big
		}
		return inexact(p, e+f.ulp(withErr))
	}
	best := 0
	emax := 0.0
	for i, t := range ts {
		v, b := f.valueOf(t.bits), f.valueOf(ts[best].bits)
		if o.fn == ir.BSubgroupMin && v < b || o.fn == ir.BSubgroupMax && v > b {
			best = i
		}
		emax = math.Max(emax, t.tol())
	}
	r := slot{bits: ts[best].bits}
	if emax > 0 {
		r.why, r.err = o.fsite+int32(rInexact), emax
	}
	return r
}
