package interp

import (
	"math"
	"math/bits"

	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// f32 and f16 values and their error bounds (WGSL #floating-point-accuracy,
// #concrete-float-accuracy, #differences-from-ieee754). The kernels are
// methods of a format (ffmt, f16.go): f32F for f32, f16F for f16, which
// differ only in the format's range, ULPs and the accuracy table's f16
// column (division and atan2 on [2^-14, 2^14], sin/cos 2^-7, log 2^-7,
// exp 1 + 2|x| ULP, atan 5 ULP, asin/acos 3.91e-3, ldexp's bias 15). What
// follows says f32; for f16 read binary16 and its constants.
//
// Every f32 operation is computed in float64 from the float32 operands and
// rounded once to float32 (round to nearest even: the reference picks one
// of the two results WGSL allows); f16 rounds once from the float64 to
// binary16 (wgslsem.F64ToF16), never through float32. Products are wrapped in explicit
// float64(…) conversions wherever a sum follows, because the Go spec lets
// an implementation fuse x*y+z into one FMA unless an explicit conversion
// rounds the product (TestNoFusedMultiplyAdd would catch it).
//
// Beside its value, each f32 carries E, an absolute bound on how far any
// conforming implementation's value may be from the reference's value,
// given that the implementation's operands were themselves within their
// bounds. The rules, first order, with a and b the reference operands and
// Ea, Eb their bounds:
//
//   - correctly rounded operations (+ - *): the propagated bound (add/sub:
//     Ea+Eb; mul: |a|Eb+|b|Ea+EaEb), plus 1 ULP of the largest possible
//     result when the exact result is not representable or the operands are
//     inexact (the implementation may round the other way, or round a
//     different exact value);
//   - exact operations (negation, abs, min, max, clamp, saturate, select):
//     the largest operand bound; ldexp: the bound scaled by 2^e2 (plus the
//     value itself where e2 ≤ -127 lets it be zero); floor, ceil, round,
//     trunc (monotone, discontinuous):
//     the largest jump of the function within the operand's interval;
//   - division: (Ea + |q|Eb)/(|b|-Eb) + 2.5 ULP(q), indeterminate unless
//     |b|±Eb stays within [2^-126, 2^126];
//   - ULP-bounded builtins (inverseSqrt 2, exp/exp2 3+2|x|, log/log2 3
//     outside [0.5, 2], atan/atan2 4096): the function's largest change
//     within the operand's interval (evaluated at the interval's ends, the
//     functions being monotone) plus the ULP bound at the largest result;
//   - absolute-bounded builtins (sin/cos 2^-11 in [-π, π], log/log2 2^-21 in
//     [0.5, 2], asin/acos 6.8e-5): the propagated bound (|sin'| ≤ 1, or the
//     interval ends) plus the absolute bound plus 1 ULP for the reference's
//     own rounding;
//   - inherited builtins (fract, sqrt, tan, pow, dot, cross, length,
//     distance, normalize, mix, smoothstep, fma, reflect, faceForward,
//     sinh, cosh, tanh — the worse of that and 1e-5 —, f32 %): the bound of their
//     defining WGSL expression, computed by composing the rules above step by
//     step; where the reference value is computed more precisely than that
//     expression, E grows by the distance between the two values.
//
// A result is indeterminate when its magnitude plus E could exceed the
// largest f32 (overflow, infinity or NaN under the finite math
// assumption), when an operand leaves the range where the accuracy is
// specified, or when an outcome that cannot vary continuously (a
// comparison, sign, step, a conversion to an integer) differs at the ends
// of the operands' intervals.
//
// ULP here is the spacing of f32 values in the binade of the magnitude
// (2^(e-23) for 2^e ≤ |x| < 2^(e+1), 2^-149 below 2^-126), which is at least
// the spec's ULP and twice it at exact powers of two: a conservative choice.

const (
	maxF32    = math.MaxFloat32
	minNormal = 0x1p-126
)

// fv is an f32 value (held in a float64) and its error bound.
type fv struct{ v, e float64 }

// fstatus is the outcome of an f32 kernel. Its values are offsets into an
// operation site's block of reasons (see rkind).
type fstatus uint8

const (
	fsOK        = fstatus(rInexact)
	fsOverflow  = fstatus(rOverflow)
	fsDomain    = fstatus(rDomain)
	fsAmbiguous = fstatus(rAmbiguous)
	fsSubnormal = fstatus(rSubnormal)
)

// ulp returns the spacing of f32 values around |x| (see above).
func ulp(x float64) float64 {
	x = math.Abs(x)
	switch {
	case x < minNormal:
		return 0x1p-149
	case x >= maxF32:
		return 0x1p104
	}
	_, e := math.Frexp(x) // x = f·2^e, f ∈ [0.5, 1)
	return math.Ldexp(1, e-24)
}

// r32 rounds x to the nearest f32 (ties to even).
func r32(x float64) float64 { return float64(float32(x)) }

// f32of returns the value of an f32 slot's bits.
func f32of(b uint32) float64 { return float64(math.Float32frombits(b)) }

// isSubnormal reports whether f32 bits b are a nonzero subnormal.
func isSubnormal(b uint32) bool { return b&0x7f800000 == 0 && b&0x007fffff != 0 }

// zeroish reports whether x is zero or an f32 subnormal (the values a
// flush to zero makes equal).
func zeroish(x float64) bool { return math.Abs(x) < minNormal }

// cr is the rule for a correctly rounded operation whose exact result is
// exact (exactOK reports that exact is exact and not a float64 rounding)
// and whose operands contribute prop.
func (m *ffmt) cr(exact float64, exactOK bool, prop float64) fv {
	v := m.round(exact)
	e := prop
	if prop > 0 || !exactOK || v != exact {
		e += m.ulp(math.Abs(exact) + prop)
	}
	return fv{v, e}
}

// twoSumExact reports whether s = fl(a+b) is the exact sum (Knuth's
// TwoSum error term is zero).
func twoSumExact(a, b, s float64) bool {
	bb := s - a
	return (a-(s-bb))+(b-bb) == 0
}

func (m *ffmt) add(a, b fv) fv {
	s := a.v + b.v
	return m.cr(s, twoSumExact(a.v, b.v, s), a.e+b.e)
}

func (m *ffmt) sub(a, b fv) fv { return m.add(a, fv{-b.v, b.e}) }

func (m *ffmt) mul(a, b fv) fv {
	// The product of two f32 values is exact in float64 (48 significant
	// bits, exponents well inside float64's range).
	p := float64(a.v * b.v)
	prop := float64(math.Abs(a.v)*b.e) + float64(math.Abs(b.v)*a.e) + float64(a.e*b.e)
	return m.cr(p, true, prop)
}

// fDiv is x / y: 2.5 ULP for |y| in [2^-126, 2^126] (WGSL
// #concrete-float-accuracy). One deliberate exception: an exact x divided
// by an exact power of two whose quotient is a normal f32 is exact. Every
// implementation divides by a power of two exactly (scaling the exponent,
// or multiplying by its exact reciprocal), and the program generator's
// exact domain relies on it (floor(x / 4.0)); the letter of the spec
// would grant 2.5 ULP there too.
func (m *ffmt) div(a, b fv) (fv, fstatus) {
	q := a.v / b.v
	ab := math.Abs(b.v)
	if ab-b.e < m.minNormal || ab+b.e > m.divHi {
		return fv{m.round(q), 0}, fsDomain
	}
	if a.e == 0 && b.e == 0 && isPow2(ab) && m.round(q) == q && (q == 0 || math.Abs(q) >= m.minNormal) {
		return fv{q, 0}, fsOK
	}
	prop := (a.e + float64(math.Abs(q)*b.e)) / (ab - b.e)
	v := m.round(q)
	e := prop + 2.5*m.ulp(math.Abs(q)+prop)
	if prop > 0 {
		// As in fMonoULP: measured from the exact quotient, so the
		// reference's rounding adds in. (For exact operands the grid
		// absorbs it: the quotient of two values of the format is never
		// the midpoint of two normal values — its odd part would need one
		// bit more than the dividend has; subnormal results count as
		// zero in the comparator.)
		e += math.Abs(v - q)
	}
	return fv{v, e}, fsOK
}

// isPow2 reports whether x > 0 is a power of two.
func isPow2(x float64) bool {
	f, _ := math.Frexp(x)
	return f == 0.5
}

// fRem is x % y, inherited from x - y * trunc(x / y) (WGSL
// #arithmetic-expr); the reference value is the exact remainder.
func (m *ffmt) rem(a, b fv) (fv, fstatus) {
	q, st := m.div(a, b)
	if st != fsOK {
		return fv{m.round(math.Mod(a.v, b.v)), 0}, st
	}
	t := m.mono(math.Trunc, q)
	r := m.sub(a, m.mul(b, t))
	v := m.round(math.Mod(a.v, b.v))
	return fv{v, r.e + math.Abs(v-r.v)}, fsOK
}

// fMono applies a monotone, possibly discontinuous function whose results
// are exact (floor, ceil, trunc, round): E is its largest jump within the
// operand's interval.
func (m *ffmt) mono(f func(float64) float64, a fv) fv {
	v := f(a.v)
	if a.e == 0 {
		return fv{v, 0}
	}
	hi, lo := f(a.v+a.e), f(a.v-a.e)
	return fv{v, math.Max(math.Abs(hi-v), math.Abs(v-lo))}
}

// fMonoULP applies a monotone function accurate to k ULP (k may depend
// on the largest operand magnitude, as exp's 3 + 2|x| does).
func (m *ffmt) monoULP(f func(float64) float64, a fv, k float64) fv {
	x := f(a.v)
	prop := 0.0
	if a.e > 0 {
		prop = math.Max(math.Abs(f(a.v+a.e)-x), math.Abs(x-f(a.v-a.e)))
	}
	v := m.round(x)
	e := prop + k*m.ulp(math.Abs(x)+prop)
	if prop > 0 || k != math.Trunc(k) {
		// The allowed values lie within k ULP of f at an operand in the
		// interval, measured from the exact f, not from v: the reference's
		// own rounding |v - x| adds in. (For an exact operand and an
		// integer k it need not: v and every allowed value lie on the
		// format's grid, at most k ULP apart.)
		e += math.Abs(v - x)
	}
	return fv{v, e}
}

// absBound finishes an absolutely bounded function: exact is its float64
// value, prop the propagated bound, bound the absolute bound.
func (m *ffmt) absBound(exact, prop, bound float64) fv {
	v := m.round(exact)
	e := prop + bound
	if v != exact {
		e += m.ulp(exact)
	}
	return fv{v, e}
}

func (m *ffmt) abs(a fv) fv { return fv{math.Abs(a.v), a.e} }
func (m *ffmt) neg(a fv) fv { return fv{-a.v, a.e} }

// fMin and fMax are min and max as WGSL defines them (#min-float-builtin:
// e2 if e2 < e1, else e1; max: e2 if e1 < e2, else e1).
func (m *ffmt) min(a, b fv) fv {
	v := a.v
	if b.v < a.v {
		v = b.v
	}
	return fv{v, math.Max(a.e, b.e)}
}

func (m *ffmt) max(a, b fv) fv {
	v := a.v
	if a.v < b.v {
		v = b.v
	}
	return fv{v, math.Max(a.e, b.e)}
}

// fClamp is clamp(x, lo, hi) (WGSL #clamp): min(max(x, lo), hi) or the
// median of the three. When lo > hi is possible the two may differ:
// indeterminate if they do for the reference operands, else E grows by the
// largest possible difference.
func (m *ffmt) clamp(x, lo, hi fv) (fv, fstatus) {
	v := m.min(m.max(x, lo), hi).v
	med := m.max(m.min(x, lo), m.min(m.max(x, lo), hi)).v
	e := math.Max(x.e, math.Max(lo.e, hi.e))
	if v != med {
		return fv{v, e}, fsAmbiguous
	}
	if lo.e+hi.e > 0 && lo.v+lo.e > hi.v-hi.e {
		e += lo.e + hi.e
	}
	return fv{v, e}, fsOK
}

func (m *ffmt) floor(a fv) fv { return m.mono(math.Floor, a) }
func (m *ffmt) ceil(a fv) fv  { return m.mono(math.Ceil, a) }
func (m *ffmt) trunc(a fv) fv { return m.mono(math.Trunc, a) }

// fRound rounds half to even (WGSL #round-builtin, wgslsem.Round).
func (m *ffmt) roundEven(a fv) fv { return m.mono(wgslsem.Round, a) }

// fFract is x - floor(x) (WGSL #fract-builtin, inherited).
func (m *ffmt) fract(a fv) fv { return m.sub(a, m.floor(a)) }

// fSign is sign(x) (WGSL #sign-builtin): indeterminate when the sign may
// change within the interval.
func (m *ffmt) sign(a fv) (fv, fstatus) {
	v := 0.0
	switch {
	case a.v > 0:
		v = 1
	case a.v < 0:
		v = -1
	}
	if a.e > 0 && math.Abs(a.v) <= a.e {
		return fv{v, 0}, fsAmbiguous
	}
	return fv{v, 0}, fsOK
}

// fStep is step(edge, x): 1.0 if edge ≤ x, else 0.0 (WGSL #step-builtin).
func (m *ffmt) step(edge, x fv) (fv, fstatus) {
	le, st := m.le(edge, x)
	if le {
		return fv{1, 0}, st
	}
	return fv{0, 0}, st
}

// fInverseSqrt is 2 ULP on (0, +∞) (WGSL #inverseSqrt-builtin).
func (m *ffmt) inverseSqrt(a fv) (fv, fstatus) {
	if a.v-a.e <= 0 {
		if a.v == 0 && a.e == 0 {
			return fv{math.Inf(1), 0}, fsOverflow
		}
		return fv{m.round(1 / math.Sqrt(a.v)), 0}, fsDomain
	}
	return m.monoULP(func(x float64) float64 { return 1 / math.Sqrt(x) }, a, 2), fsOK
}

// fSqrt is inherited from 1.0 / inverseSqrt(x) (WGSL #sqrt-builtin). The
// reference value is the correctly rounded square root; sqrt(0) is 0
// exactly (the inherited expression would divide by infinity there, but
// every implementation returns 0 and WGSL allows better accuracy).
func (m *ffmt) sqrt(a fv) (fv, fstatus) {
	v := m.round(math.Sqrt(a.v))
	switch {
	case a.v < 0 || a.v-a.e < 0:
		return fv{v, 0}, fsDomain
	case a.v == 0 && a.e == 0:
		return fv{0, 0}, fsOK
	case a.v-a.e == 0:
		// The interval reaches 0: any result in [0, sqrt(x+E)] plus
		// the inherited bound at its top.
		hi := math.Sqrt(a.v + a.e)
		return fv{v, hi + 5*m.ulp(hi)}, fsOK
	}
	y, st := m.inverseSqrt(a)
	if st != fsOK {
		return fv{v, 0}, st
	}
	r, st := m.div(fv{1, 0}, y)
	if st != fsOK {
		return fv{v, 0}, st
	}
	return fv{v, r.e + math.Abs(v-r.v)}, fsOK
}

// fExp and fExp2 are 3 + 2|x| ULP (WGSL #concrete-float-accuracy).
func (m *ffmt) exp(a fv) fv  { return m.monoULP(math.Exp, a, m.expULP+2*(math.Abs(a.v)+a.e)) }
func (m *ffmt) exp2(a fv) fv { return m.monoULP(math.Exp2, a, m.expULP+2*(math.Abs(a.v)+a.e)) }

// fLogBase is log or log2: absolute 2^-21 on [0.5, 2], 3 ULP elsewhere,
// domain (0, +∞) (log 0 is -∞, an overflow).
func (m *ffmt) logBase(f func(float64) float64, a fv) (fv, fstatus) {
	x := f(a.v)
	switch {
	case a.v == 0 && a.e == 0:
		return fv{math.Inf(-1), 0}, fsOverflow
	case a.v-a.e <= 0:
		return fv{m.round(x), 0}, fsDomain
	}
	prop := 0.0
	if a.e > 0 {
		prop = math.Max(math.Abs(f(a.v+a.e)-x), math.Abs(x-f(a.v-a.e)))
	}
	lo, hi := a.v-a.e, a.v+a.e
	abs := m.absBound(x, prop, m.logAbs)
	rel := fv{m.round(x), prop + 3*m.ulp(math.Abs(x)+prop)}
	switch {
	case lo >= 0.5 && hi <= 2:
		return abs, fsOK
	case hi < 0.5 || lo > 2:
		return rel, fsOK
	}
	return fv{abs.v, math.Max(abs.e, rel.e)}, fsOK
}

func (m *ffmt) log(a fv) (fv, fstatus)  { return m.logBase(math.Log, a) }
func (m *ffmt) log2(a fv) (fv, fstatus) { return m.logBase(math.Log2, a) }

// fSinCos is sin or cos: absolute 2^-11 on [-π, π] (WGSL
// #concrete-float-accuracy); |sin'| and |cos'| ≤ 1 propagate E unchanged.
func (m *ffmt) sinCos(f func(float64) float64, a fv) (fv, fstatus) {
	x := f(a.v)
	if math.Abs(a.v)+a.e > math.Pi {
		return fv{m.round(x), 0}, fsDomain
	}
	return m.absBound(x, math.Min(a.e, 2), m.trigAbs), fsOK
}

func (m *ffmt) sin(a fv) (fv, fstatus) { return m.sinCos(math.Sin, a) }
func (m *ffmt) cos(a fv) (fv, fstatus) { return m.sinCos(math.Cos, a) }

// fTan is inherited from sin(x) / cos(x).
func (m *ffmt) tan(a fv) (fv, fstatus) {
	v := m.round(math.Tan(a.v))
	s, st := m.sin(a)
	if st != fsOK {
		return fv{v, 0}, st
	}
	c, st := m.cos(a)
	if st != fsOK {
		return fv{v, 0}, st
	}
	q, st := m.div(s, c)
	if st != fsOK {
		return fv{v, 0}, st
	}
	return fv{v, q.e + math.Abs(v-q.v)}, fsOK
}

// fAsinAcos is asin or acos: the worse of an absolute bound and the bound
// inherited from atan2(x, sqrt(1 - x*x)) (asin) or atan2(sqrt(1 - x*x), x)
// (acos). Where the inherited expression has no bound (atan2's x operand
// outside [2^-126, 2^126], e.g. asin(±1), acos(0)), neither has the builtin.
func (m *ffmt) asinAcos(a fv, acos bool) (fv, fstatus) {
	f, bound := math.Asin, m.asinAbs
	if acos {
		f, bound = math.Acos, m.acosAbs
	}
	x := f(a.v)
	if math.Abs(a.v)+a.e > 1 {
		return fv{m.round(x), 0}, fsDomain
	}
	prop := 0.0
	if a.e > 0 {
		prop = math.Max(math.Abs(f(math.Min(a.v+a.e, 1))-x), math.Abs(x-f(math.Max(a.v-a.e, -1))))
	}
	abs := m.absBound(x, prop, bound)
	s, st := m.sqrt(m.sub(fv{1, 0}, m.mul(a, a)))
	if st != fsOK {
		return abs, st
	}
	var t fv
	if acos {
		t, st = m.atan2(s, a)
	} else {
		t, st = m.atan2(a, s)
	}
	if st != fsOK {
		return abs, st
	}
	return fv{abs.v, math.Max(abs.e, t.e+math.Abs(abs.v-t.v))}, fsOK
}

// fAtan is 4096 ULP.
func (m *ffmt) atan(a fv) fv { return m.monoULP(math.Atan, a, m.atanULP) }

// fAtan2 is atan2(y, x): 4096 ULP for |x| in [2^-126, 2^126] and y finite
// and not subnormal (zero is accepted: the spec's "normal" excludes the
// subnormals its note warns about). Where x may be negative and y may be
// zero, the result may jump between -π and π (WGSL also lets an
// implementation ignore the sign of a zero): ambiguous.
func (m *ffmt) atan2(y, x fv) (fv, fstatus) {
	r := math.Atan2(y.v, x.v)
	ax, ay := math.Abs(x.v), math.Abs(y.v)
	switch {
	case ax-x.e < m.minNormal || ax+x.e > m.divHi:
		return fv{m.round(r), 0}, fsDomain
	case y.e == 0 && y.v != 0 && ay < m.minNormal, y.e > 0 && ay-y.e < m.minNormal:
		return fv{m.round(r), 0}, fsDomain
	}
	if x.v-x.e < 0 && ay <= y.e {
		return fv{m.round(r), 0}, fsAmbiguous
	}
	prop := 0.0
	if x.e > 0 || y.e > 0 {
		dx := ax - x.e
		dy := math.Max(0, ay-y.e)
		d2 := float64(dx*dx) + float64(dy*dy)
		prop = (float64((ax+x.e)*y.e) + float64((ay+y.e)*x.e)) / d2
	}
	v := m.round(r)
	e := prop + m.atanULP*m.ulp(math.Abs(r)+prop)
	if prop > 0 {
		e += math.Abs(v - r) // as in fMonoULP
	}
	return fv{v, e}, fsOK
}

// fPow is inherited from exp2(y * log2(x)) (WGSL #pow-builtin); its domain
// excludes x < 0, and x = 0 makes log2 infinite.
func (m *ffmt) pow(x, y fv) (fv, fstatus) {
	v := m.round(math.Pow(x.v, y.v))
	l, st := m.log2(x)
	if st != fsOK {
		return fv{v, 0}, st
	}
	r := m.exp2(m.mul(y, l))
	return fv{v, r.e + math.Abs(v-r.v)}, fsOK
}

// quantum returns the value of the lowest set bit of v ≠ 0, a value of
// m's format: the lowest set bit of its float64 significand (exact: every
// f32 and f16 value is a float64).
func (m *ffmt) quantum(v float64) float64 {
	b := math.Float64bits(v)
	exp := int(b >> 52 & 0x7ff)
	mant := b & (1<<52 - 1)
	e := -1074
	if exp != 0 {
		mant |= 1 << 52
		e = exp - 1075
	}
	return math.Ldexp(1, e+bits.TrailingZeros64(mant))
}

// fSum adds terms (each an f32 result) in any order, as an implementation
// may reassociate (WGSL #reassociation-and-fusion): exact when every term
// is exact and every partial sum in any order fits 24 bits above the
// smallest term's lowest bit; otherwise each addition may round by 1 ULP
// of the sum of magnitudes, which also bounds every partial sum (so a
// possible overflow of any partial sum is detected too).
func (m *ffmt) sum(ts []fv) (fv, fstatus) {
	s, mag, prop := 0.0, 0.0, 0.0
	exact := true
	q := math.Inf(1)
	for _, t := range ts {
		s += t.v
		mag += math.Abs(t.v)
		prop += t.e
		if t.e > 0 {
			exact = false
		}
		if t.v != 0 {
			q = math.Min(q, m.quantum(t.v))
		}
	}
	if mag+prop > m.maxF {
		return fv{m.round(s), 0}, fsOverflow
	}
	if exact && (mag == 0 || mag/q < m.exactSpan) {
		return fv{m.round(s), 0}, fsOK
	}
	return fv{m.round(s), prop + float64(len(ts)-1)*m.ulp(mag+prop)}, fsOK
}

// fDot is inherited from the sum of x[i] * y[i] (WGSL #dot-builtin).
func (m *ffmt) dot(x, y []fv, tmp []fv) (fv, fstatus) {
	tmp = tmp[:len(x)]
	for i := range x {
		tmp[i] = m.mul(x[i], y[i])
	}
	return m.sum(tmp)
}

// fLength is inherited from sqrt(dot(x, x)) (sqrt(x*x) for a scalar); the
// reference value is the correctly rounded Euclidean length.
func (m *ffmt) length(x []fv, tmp []fv) (fv, fstatus) {
	ss := 0.0
	for _, c := range x {
		ss += float64(c.v * c.v)
	}
	v := m.round(math.Sqrt(ss))
	d, st := m.dot(x, x, tmp)
	if st != fsOK {
		return fv{v, 0}, st
	}
	r, st := m.sqrt(d)
	if st != fsOK {
		return fv{v, 0}, st
	}
	return fv{v, r.e + math.Abs(v-r.v)}, fsOK
}

// fNormalize is inherited from x / length(x); the zero vector is outside
// its domain (WGSL #normalize-builtin).
func (m *ffmt) normalize(x, out, tmp []fv) fstatus {
	l, st := m.length(x, tmp)
	ss := 0.0
	for _, c := range x {
		ss += float64(c.v * c.v)
	}
	n := math.Sqrt(ss)
	for i, c := range x {
		out[i] = fv{m.round(c.v / n), 0}
	}
	if st != fsOK {
		return st
	}
	for i, c := range x {
		q, st := m.div(c, l)
		if st != fsOK {
			return st
		}
		out[i].e = q.e + math.Abs(out[i].v-q.v)
	}
	return fsOK
}

// fCross is inherited from x[i] * y[j] - x[j] * y[i] (WGSL #cross-builtin).
func (m *ffmt) cross(x, y, out []fv) {
	for i := 0; i < 3; i++ {
		j, k := (i+1)%3, (i+2)%3
		out[i] = m.sub(m.mul(x[j], y[k]), m.mul(x[k], y[j]))
	}
}

// fMix is inherited from x * (1.0 - z) + y * z (WGSL #mix-builtin).
func (m *ffmt) mix(x, y, z fv) fv {
	r := m.add(m.mul(x, m.sub(fv{1, 0}, z)), m.mul(y, z))
	v := m.round(float64(x.v*(1-z.v)) + float64(y.v*z.v))
	return fv{v, r.e + math.Abs(v-r.v)}
}

// fSmoothstep is inherited from t * t * (3.0 - 2.0 * t) with
// t = clamp((x - e0) / (e1 - e0), 0.0, 1.0) (WGSL #smoothstep-builtin);
// e0 = e1 divides by zero, which is indeterminate.
func (m *ffmt) smoothstep(e0, e1, x fv) (fv, fstatus) {
	tp := math.Min(math.Max((x.v-e0.v)/(e1.v-e0.v), 0), 1)
	v := m.round(float64(tp*tp) * (3 - float64(2*tp)))
	q, st := m.div(m.sub(x, e0), m.sub(e1, e0))
	if st != fsOK {
		return fv{v, 0}, st
	}
	t := fv{math.Min(math.Max(q.v, 0), 1), q.e}
	r := m.mul(m.mul(t, t), m.sub(fv{3, 0}, m.mul(fv{2, 0}, t)))
	return fv{v, r.e + math.Abs(v-r.v)}, fsOK
}

// fFma is inherited from x * y + z (WGSL #fma-builtin): the reference
// evaluates it unfused (an implementation may fuse; the bound covers both).
func (m *ffmt) fma(x, y, z fv) fv { return m.add(m.mul(x, y), z) }

// Comparisons are exact (WGSL #concrete-float-accuracy, "Correct result")
// but ambiguous when the outcome differs within the operands' intervals.

func (m *ffmt) lt(a, b fv) (bool, fstatus) {
	switch {
	case a.v+a.e < b.v-b.e:
		return true, fsOK
	case a.v-a.e >= b.v+b.e:
		return false, fsOK
	}
	return a.v < b.v, fsAmbiguous
}

func (m *ffmt) le(a, b fv) (bool, fstatus) {
	switch {
	case a.v+a.e <= b.v-b.e:
		return true, fsOK
	case a.v-a.e > b.v+b.e:
		return false, fsOK
	}
	return a.v <= b.v, fsAmbiguous
}

func (m *ffmt) eq(a, b fv) (bool, fstatus) {
	switch {
	case a.e == 0 && b.e == 0:
		return a.v == b.v, fsOK
	case math.Abs(a.v-b.v) > a.e+b.e:
		return false, fsOK
	}
	return a.v == b.v, fsAmbiguous
}

// fSaturate is saturate(x) = clamp(x, 0.0, 1.0), correctly rounded (WGSL
// #saturate-float-builtin): exact, E that of x (clamp is 1-Lipschitz).
func (m *ffmt) saturate(a fv) (fv, fstatus) { return m.clamp(a, fv{0, 0}, fv{1, 0}) }

// fExpPair is exp(x) and exp(-x), the terms of sinh and cosh's inherited
// expressions; fsOverflow when either may exceed the largest f32 (the
// inherited expression's intermediate is then not finite: WGSL
// #differences-from-ieee754, the finite math assumption).
func (m *ffmt) expPair(a fv) (p, n fv, st fstatus) {
	p, n = m.exp(a), m.exp(m.neg(a))
	if !(p.v+p.e <= m.maxF) || !(n.v+n.e <= m.maxF) {
		return p, n, fsOverflow
	}
	return p, n, fsOK
}

// fSinh is inherited from (exp(x) - exp(-x)) * 0.5 (WGSL #sinh-builtin,
// #concrete-float-accuracy); the reference value is the correctly rounded
// sinh(x). Near 0 the subtraction cancels: the bound stays that of the
// two exp terms (about 6 ULP of 1), as WGSL's inherited accuracy says.
func (m *ffmt) sinh(a fv) (fv, fstatus) {
	v := m.round(math.Sinh(a.v))
	p, n, st := m.expPair(a)
	if st != fsOK {
		return fv{v, 0}, st
	}
	r := m.mul(m.sub(p, n), fv{0.5, 0})
	return fv{v, r.e + math.Abs(v-r.v)}, fsOK
}

// fCosh is inherited from (exp(x) + exp(-x)) * 0.5 (WGSL #cosh-builtin);
// the reference value is the correctly rounded cosh(x).
func (m *ffmt) cosh(a fv) (fv, fstatus) {
	v := m.round(math.Cosh(a.v))
	p, n, st := m.expPair(a)
	if st != fsOK {
		return fv{v, 0}, st
	}
	r := m.mul(m.add(p, n), fv{0.5, 0})
	return fv{v, r.e + math.Abs(v-r.v)}, fsOK
}

// fTanh is the worse of an absolute error of 1e-5 and the bound inherited
// from sinh(x) / cosh(x) (WGSL #tanh-builtin, #concrete-float-accuracy);
// the reference value is the correctly rounded tanh(x). Where the
// inherited expression has no bound (exp(|x|) may overflow, or cosh(x)
// leaves the divisor range [2^-126, 2^126]: |x| above about 88), neither
// has the builtin, as for asin and acos.
func (m *ffmt) tanh(a fv) (fv, fstatus) {
	x := math.Tanh(a.v)
	v := m.round(x)
	s, st := m.sinh(a)
	if st != fsOK {
		return fv{v, 0}, st
	}
	c, st := m.cosh(a)
	if st != fsOK {
		return fv{v, 0}, st
	}
	q, st := m.div(s, c)
	if st != fsOK {
		return fv{v, 0}, st
	}
	prop := 0.0
	if a.e > 0 {
		// tanh is monotone with |tanh'| ≤ 1.
		prop = math.Max(math.Abs(math.Tanh(a.v+a.e)-x), math.Abs(x-math.Tanh(a.v-a.e)))
	}
	abs := m.absBound(x, prop, 1e-5)
	return fv{v, math.Max(abs.e, q.e+math.Abs(v-q.v))}, fsOK
}

// fLdexp is ldexp(e1, e2) = e1 * 2^e2, correctly rounded (WGSL
// #ldexp-builtin, #concrete-float-accuracy): exact unless the result is
// subnormal (then 1 ULP); an operand bound scales by 2^e2. e2 > 128
// (bias + 1) makes the result an indeterminate value (fsDomain); where
// e2 + 127 ≤ 0 the result may be zero, so E grows by |v| to take 0 in.
// A result beyond the largest f32 overflows (finish).
func (m *ffmt) ldexp(a fv, e2 int32) (fv, fstatus) {
	exact := math.Ldexp(a.v, int(e2))
	if int64(e2) > m.bias+1 {
		return fv{m.round(exact), 0}, fsDomain
	}
	r := m.cr(exact, true, math.Ldexp(a.e, int(e2)))
	if int64(e2)+m.bias <= 0 {
		r.e += math.Abs(r.v)
	}
	return r, fsOK
}

// fReflect is reflect(x, y), inherited from x - 2.0 * dot(x, y) * y (WGSL
// #reflect-builtin, #concrete-float-accuracy), composed step by step: the
// reference value is that expression in f32 (one conforming evaluation),
// E its inherited bound.
func (m *ffmt) reflect(x, y, out []fv, tmp []fv) fstatus {
	d, st := m.dot(x, y, tmp)
	k := m.mul(fv{2, 0}, d)
	for i := range x {
		out[i] = m.sub(x[i], m.mul(k, y[i]))
	}
	return st
}

// fFaceForward is faceForward(x, y, z), inherited from
// select(-x, x, dot(z, y) < 0.0) (WGSL #faceForward-builtin,
// #concrete-float-accuracy): x or -x exactly, with x's bounds. The
// comparison is ambiguous (an indeterminate result) unless every value
// the dot may take is a negative normal f32, or every one is ≥ 0; a
// product or the sum that may be subnormal may also be flushed to zero
// (WGSL #differences-from-ieee754), which widens the interval by less
// than 2^-126 per such step.
func (m *ffmt) faceForward(x, y, z, out []fv, tmp []fv) fstatus {
	tmp = tmp[:len(y)]
	slack := 0.0
	for i := range y {
		tmp[i] = m.mul(z[i], y[i])
		if p := tmp[i]; (p.v != 0 || p.e != 0) && math.Abs(p.v)-p.e < m.minNormal {
			slack += m.minNormal
		}
	}
	d, st := m.sum(tmp)
	for i := range x {
		out[i] = x[i]
	}
	if st != fsOK {
		return st
	}
	lo, hi := d.v-d.e-slack, d.v+d.e+slack
	switch {
	case hi <= -m.minNormal:
	case lo >= 0:
		for i := range x {
			out[i] = m.neg(x[i])
		}
	default:
		if d.v >= 0 {
			for i := range x {
				out[i] = m.neg(x[i])
			}
		}
		return fsAmbiguous
	}
	return fsOK
}

// scaleByConst is x * k for a real constant k, inherited from x times k
// rounded to the format (degrees, radians), which is also the reference
// value; an implementation may be more accurate (WGSL
// #concrete-float-accuracy, "inherited from": "with better accuracy"), so
// the bound also takes in both neighbours of the exact x·k: for f16 the
// constant's own rounding moves the product by up to half an ULP (57.2958
// is 57.28125 in binary16).
func (m *ffmt) scaleByConst(a fv, k float64) fv {
	r := m.mul(a, fv{m.round(k), 0})
	exact := a.v * k
	if d := math.Abs(exact-r.v) + a.e*math.Abs(k) + m.ulp(math.Abs(exact)+a.e*math.Abs(k)); d > r.e && exact != r.v {
		r.e = d
	}
	return r
}

// fFma is f32F.fma (fma of f32 operands), by its name before the kernels
// became methods of a format.
func fFma(x, y, z fv) fv { return f32F.fma(x, y, z) }
