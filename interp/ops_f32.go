package interp

import (
	"math"
	"math/bits"

	"github.com/gpudiff/gpudiff/ir"
)

// f32 kernels of one, two and three scalar operands, and comparisons.
type (
	fk1   func(a fv) (fv, fstatus)
	fk2   func(a, b fv) (fv, fstatus)
	fk3   func(a, b, c fv) (fv, fstatus)
	fcmpk func(a, b fv) (bool, fstatus)
)

// fvOf is the value and bound of an f32 slot (f32F.fvOf).
func fvOf(s slot) fv { return fv{f32of(s.bits), s.tol()} }

// fvOf is the value and bound of a slot of the format.
func (m *ffmt) fvOf(s slot) fv { return fv{m.valueOf(s.bits), s.tol()} }

// flushed is s with a subnormal value replaced by a zero of its sign.
func (m *ffmt) flushed(s slot) fv {
	if m.isSub(s.bits) {
		return fv{math.Copysign(0, m.valueOf(s.bits)), s.tol()}
	}
	return m.fvOf(s)
}

// same reports whether two f32 results agree once subnormals count as
// zero.
func same(a, b float64) bool { return f32F.same(a, b) }

// finish turns a kernel's result into a slot. site is the operation's
// reason block, in the first inexact reason among the operands (0 if
// none). The result is indeterminate when the kernel says so, or when it
// could overflow: |v| + E beyond the largest finite value, or
// non-finite (WGSL #differences-from-ieee754, finite math assumption;
// for f16, #floating-point-rounding-and-overflow: a result in
// (65504, 2^16) may be 65504 or infinity, one from 2^16 on is infinity).
func (m *ffmt) finish(site int32, r fv, st fstatus, in int32) slot {
	b := m.bitsOf(r.v)
	switch {
	case st != fsOK:
		return slot{bits: b, why: -(site + int32(st))}
	case !(math.Abs(r.v)+r.e <= m.maxF):
		return slot{bits: b, why: -(site + int32(fsOverflow))}
	case r.e == 0:
		return slot{bits: b}
	case in > 0:
		return slot{bits: b, why: in, err: r.e}
	}
	return slot{bits: b, why: site, err: r.e}
}

// finish is f32F.finish.
func finish(site int32, r fv, st fstatus, in int32) slot { return f32F.finish(site, r, st, in) }

// eval1, eval2 and eval3 run a kernel on operand slots: indeterminate
// operands give an indeterminate result; a subnormal operand is also
// tried flushed to zero, every combination, and a different outcome makes
// the result indeterminate (WGSL #differences-from-ieee754: inputs of these
// operations may be flushed).
func (m *ffmt) eval1(site int32, k fk1, x slot) slot {
	r, st := k(m.fvOf(x))
	if x.why < 0 {
		return slot{bits: m.bitsOf(r.v), why: x.why}
	}
	if st == fsOK && m.isSub(x.bits) {
		if r2, st2 := k(m.flushed(x)); st2 != fsOK || !m.same(r.v, r2.v) {
			st = fsSubnormal
		}
	}
	return m.finish(site, r, st, x.why)
}

func (m *ffmt) eval2(site int32, k fk2, x, y slot) slot {
	r, st := k(m.fvOf(x), m.fvOf(y))
	if w := mergeWhy(x.why, y.why); w < 0 {
		return slot{bits: m.bitsOf(r.v), why: w}
	}
	if st == fsOK && (m.isSub(x.bits) || m.isSub(y.bits)) {
		xs := []slot{x, y}
		for mask := 1; mask < 4; mask++ {
			if a, b, ok := m.flushPick2(xs, mask); ok {
				if r2, st2 := k(a, b); st2 != fsOK || !m.same(r.v, r2.v) {
					st = fsSubnormal
					break
				}
			}
		}
	}
	return m.finish(site, r, st, mergeWhy(x.why, y.why))
}

// flushPick2 flushes the operands selected by mask; ok is false when the
// mask selects an operand that is not subnormal (a duplicate combination).
func (m *ffmt) flushPick2(xs []slot, mask int) (fv, fv, bool) {
	var out [2]fv
	for i := range out {
		if mask&(1<<i) != 0 {
			if !m.isSub(xs[i].bits) {
				return fv{}, fv{}, false
			}
			out[i] = m.flushed(xs[i])
		} else {
			out[i] = m.fvOf(xs[i])
		}
	}
	return out[0], out[1], true
}

func (m *ffmt) eval3(site int32, k fk3, x, y, z slot) slot {
	r, st := k(m.fvOf(x), m.fvOf(y), m.fvOf(z))
	if w := mergeWhy(mergeWhy(x.why, y.why), z.why); w < 0 {
		return slot{bits: m.bitsOf(r.v), why: w}
	}
	if st == fsOK && (m.isSub(x.bits) || m.isSub(y.bits) || m.isSub(z.bits)) {
		xs := [3]slot{x, y, z}
	masks:
		for mask := 1; mask < 8; mask++ {
			var in [3]fv
			for i := range xs {
				if mask&(1<<i) != 0 {
					if !m.isSub(xs[i].bits) {
						continue masks
					}
					in[i] = m.flushed(xs[i])
				} else {
					in[i] = m.fvOf(xs[i])
				}
			}
			if r2, st2 := k(in[0], in[1], in[2]); st2 != fsOK || !m.same(r.v, r2.v) {
				st = fsSubnormal
				break
			}
		}
	}
	return m.finish(site, r, st, mergeWhy(mergeWhy(x.why, y.why), z.why))
}

// eval1, eval2 and eval3 are f32F's.
func eval1(site int32, k fk1, x slot) slot       { return f32F.eval1(site, k, x) }
func eval2(site int32, k fk2, x, y slot) slot    { return f32F.eval2(site, k, x, y) }
func eval3(site int32, k fk3, x, y, z slot) slot { return f32F.eval3(site, k, x, y, z) }

// evalCmp runs a comparison kernel: the result is exact unless an operand
// is indeterminate, or the outcome is ambiguous within the operands'
// bounds or under flushing of a subnormal operand.
func (m *ffmt) evalCmp(site int32, k fcmpk, x, y slot) slot {
	r, st := k(m.fvOf(x), m.fvOf(y))
	if w := mergeWhy(x.why, y.why); w < 0 {
		return slot{bits: b2u(r), why: w}
	}
	if st == fsOK && (m.isSub(x.bits) || m.isSub(y.bits)) {
		xs := []slot{x, y}
		for mask := 1; mask < 4; mask++ {
			if a, b, ok := m.flushPick2(xs, mask); ok {
				if r2, st2 := k(a, b); st2 != fsOK || r2 != r {
					st = fsSubnormal
					break
				}
			}
		}
	}
	if st != fsOK {
		return slot{bits: b2u(r), why: -(site + int32(st))}
	}
	return slot{bits: b2u(r)}
}

// evalCmp is f32F's.
func evalCmp(site int32, k fcmpk, x, y slot) slot { return f32F.evalCmp(site, k, x, y) }

// exactSum32 adds two finite f32 values (as bits) in float32 and reports
// whether the sum is exact and finite. With |u| ≥ |v|, s - u is computed
// exactly and equals v exactly when s is the exact sum (Dekker's
// Fast2Sum, radix 2, round to nearest).
func exactSum32(ub, vb uint32) (uint32, bool) {
	// The swap selects bits (conditional moves, not a branch: which
	// operand is larger is data, and mispredicts).
	hb, lb := ub, vb
	if ub&0x7fffffff < vb&0x7fffffff {
		hb = vb
	}
	if ub&0x7fffffff < vb&0x7fffffff {
		lb = ub
	}
	u, v := math.Float32frombits(hb), math.Float32frombits(lb)
	s := u + v
	sb := math.Float32bits(s)
	return sb, s-u == v && sb&0x7f800000 != 0x7f800000
}

// exactMul32 multiplies two finite, non-subnormal f32 values (as bits)
// and reports whether the product is exact and a normal f32 or a zero
// (from a zero operand): the float64 product of two f32 values is exact
// (48 significant bits), and rounding it to f32 rounds once, as an f32
// multiplication does, so the product is exact when that rounding gives
// it back. The general kernel (fMul) gives the same f32 value, exact,
// for every product accepted here.
func exactMul32(ab, bb uint32) (uint32, bool) {
	p := float64(math.Float32frombits(ab)) * float64(math.Float32frombits(bb))
	r := float32(p)
	rb := math.Float32bits(r)
	e := rb & 0x7f800000
	return rb, float64(r) == p && e != 0x7f800000 && (e != 0 || p == 0)
}

// sigBits is the number of significant bits of a normal f32's significand.
func sigBits(b uint32) int { return 24 - bits.TrailingZeros32(b&0x7fffff|0x800000) }

func kAdd(a, b fv) (fv, fstatus) { return f32F.add(a, b), fsOK }
func kSub(a, b fv) (fv, fstatus) { return f32F.sub(a, b), fsOK }
func kMul(a, b fv) (fv, fstatus) { return f32F.mul(a, b), fsOK }

// cmpKernel is the kernel of a float comparison (the format does not
// matter: comparisons are exact, WGSL #concrete-float-accuracy).
func cmpKernel(op ir.BinaryOp) fcmpk {
	m := f32F
	switch op {
	case ir.OpEq:
		return m.eq
	case ir.OpNe:
		return func(a, b fv) (bool, fstatus) { r, st := m.eq(a, b); return !r, st }
	case ir.OpLt:
		return m.lt
	case ir.OpLe:
		return m.le
	case ir.OpGt:
		return func(a, b fv) (bool, fstatus) { return m.lt(b, a) }
	}
	return func(a, b fv) (bool, fstatus) { return m.le(b, a) }
}

func (c *compiler) f32Compare(site int32, op ir.BinaryOp, x, y cexpr, sx, sy, n, d int32) exprFn {
	k := cmpKernel(op)
	xl, yl := x.loc, y.loc
	return func(fr *frame) {
		s := fr.s
		for i := int32(0); i < n; i++ {
			a, b := s[xl+i*sx], s[yl+i*sy]
			if a.why|b.why == 0 && a.err == 0 && b.err == 0 && !isSubnormal(a.bits) && !isSubnormal(b.bits) {
				// Exact operands: the comparison is exact.
				r, _ := k(fvOf(a), fvOf(b))
				s[d+i] = slot{bits: b2u(r)}
				continue
			}
			s[d+i] = evalCmp(site, k, a, b)
		}
	}
}

// f32Arith compiles + - * / % on f32 operands. + - and * have a fast
// path for exact, normal operands whose exact result is a finite f32.
func (c *compiler) f32Arith(pos ir.Pos, node ir.Node, op ir.BinaryOp, x, y cexpr, sx, sy, n, d int32) exprFn {
	xl, yl := x.loc, y.loc
	var k fk2
	acc := "correctly rounded"
	switch op {
	case ir.OpAdd:
		k = kAdd
	case ir.OpSub:
		k = kSub
	case ir.OpMul:
		k = kMul
	case ir.OpDiv:
		k, acc = f32F.div, "2.5 ULP for |y| in [2^-126, 2^126]"
	default:
		k, acc = f32F.rem, "inherited from x - y * trunc(x / y)"
	}
	site := c.site(pos, node, acc)
	switch op {
	case ir.OpAdd, ir.OpSub:
		neg := uint32(0)
		if op == ir.OpSub {
			neg = 1 << 31
		}
		if n == 1 {
			return func(fr *frame) {
				s := fr.s
				a, b := &s[xl], &s[yl]
				if a.why|b.why == 0 && !isSubnormal(a.bits) && !isSubnormal(b.bits) {
					if r, ok := exactSum32(a.bits, b.bits^neg); ok {
						s[d] = slot{bits: r}
						return
					}
				}
				s[d] = eval2(site, k, *a, *b)
			}
		}
		return func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				a, b := &s[xl+i*sx], &s[yl+i*sy]
				if a.why|b.why == 0 && !isSubnormal(a.bits) && !isSubnormal(b.bits) {
					if r, ok := exactSum32(a.bits, b.bits^neg); ok {
						s[d+i] = slot{bits: r}
						continue
					}
				}
				s[d+i] = eval2(site, k, *a, *b)
			}
		}
	case ir.OpMul:
		return func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				a, b := &s[xl+i*sx], &s[yl+i*sy]
				if a.why|b.why == 0 && !isSubnormal(a.bits) && !isSubnormal(b.bits) {
					if r, ok := exactMul32(a.bits, b.bits); ok {
						s[d+i] = slot{bits: r}
						continue
					}
				}
				s[d+i] = eval2(site, k, *a, *b)
			}
		}
	}
	return func(fr *frame) {
		s := fr.s
		for i := int32(0); i < n; i++ {
			s[d+i] = eval2(site, k, s[xl+i*sx], s[yl+i*sy])
		}
	}
}
