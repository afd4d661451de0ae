package interp

import (
	"fmt"
	"math"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// Integer builtin kernels on the bits of one lane: the values are
// wgslsem's (WGSL §17.5 Numeric Built-in Functions); i32 lanes are
// converted to int32 where the sign matters.

func absI(a uint32) uint32           { return uint32(wgslsem.Abs(int32(a))) }
func signI(a uint32) uint32          { return uint32(wgslsem.Sign(int32(a))) }
func minI(a, b uint32) uint32        { return uint32(wgslsem.Min(int32(a), int32(b))) }
func maxI(a, b uint32) uint32        { return uint32(wgslsem.Max(int32(a), int32(b))) }
func clampI(e, lo, hi uint32) uint32 { return uint32(wgslsem.Clamp(int32(e), int32(lo), int32(hi))) }
func firstLeadingBitI(a uint32) uint32 {
	return uint32(wgslsem.FirstLeadingBitI32(int32(a)))
}
func extractBitsI(e, offset, count uint32) uint32 {
	return uint32(wgslsem.ExtractBitsI32(int32(e), offset, count))
}

// lanes is a compiled operand read lane by lane: stride 0 broadcasts a
// scalar.
type lanes struct{ loc, stride int32 }

func laneOf(o cexpr, t *ir.Type) lanes {
	if t.Kind == ir.KindVec {
		return lanes{o.loc, 1}
	}
	return lanes{o.loc, 0}
}

func why3(a, b, c int32) int32 { return firstWhy(firstWhy(a, b), c) }

// intLanes builds a lane-wise closure for an integer kernel of 1 to 4
// operands (exactly one of k1..k4 is set).
func intLanes(ls []lanes, n, d int32,
	k1 func(uint32) uint32, k2 func(a, b uint32) uint32,
	k3 func(a, b, c uint32) uint32, k4 func(a, b, c, e uint32) uint32) exprFn {
	switch {
	case k1 != nil:
		a := ls[0]
		return func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				x := s[a.loc+i*a.stride]
				s[d+i] = slot{bits: k1(x.bits), why: x.why}
			}
		}
	case k2 != nil:
		a, b := ls[0], ls[1]
		return func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				x, y := s[a.loc+i*a.stride], s[b.loc+i*b.stride]
				s[d+i] = slot{bits: k2(x.bits, y.bits), why: firstWhy(x.why, y.why)}
			}
		}
	case k3 != nil:
		a, b, c := ls[0], ls[1], ls[2]
		return func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				x, y, z := s[a.loc+i*a.stride], s[b.loc+i*b.stride], s[c.loc+i*c.stride]
				s[d+i] = slot{bits: k3(x.bits, y.bits, z.bits), why: why3(x.why, y.why, z.why)}
			}
		}
	}
	a, b, c, e := ls[0], ls[1], ls[2], ls[3]
	return func(fr *frame) {
		s := fr.s
		for i := int32(0); i < n; i++ {
			x, y, z, w := s[a.loc+i*a.stride], s[b.loc+i*b.stride], s[c.loc+i*c.stride], s[e.loc+i*e.stride]
			s[d+i] = slot{bits: k4(x.bits, y.bits, z.bits, w.bits), why: firstWhy(why3(x.why, y.why, z.why), w.why)}
		}
	}
}

// accuracy describes a builtin's f32 accuracy for reasons.
func accuracy(info *ir.BuiltinInfo) string {
	switch info.Acc {
	case ir.AccExact:
		return "correctly rounded"
	case ir.AccInherited:
		return "inherited from " + info.Spec
	case ir.AccULP:
		return fmt.Sprintf("%g ULP", info.ULP)
	}
	return info.Spec
}

// builtin compiles a builtin call.
func (c *compiler) builtin(e *ir.BuiltinCall, dst int32) cexpr {
	info := e.Fn.Info()
	switch info.Class {
	case ir.ClassDerivative:
		return c.derivative(e, dst) // quad.go
	case ir.ClassBarrier:
		return c.unexecutable(e, info)
	case ir.ClassSubgroup:
		return c.subgroup(e, dst) // subgroup.go
	}
	if e.Fn == ir.BTranspose || e.Fn == ir.BDeterminant {
		return c.matrixBuiltin(e, dst)
	}
	if info.Class == ir.ClassPack {
		return c.packBuiltin(e, dst)
	}
	if e.Fn == ir.BModf || e.Fn == ir.BFrexp {
		return c.splitBuiltin(e, dst)
	}
	ops := c.operands(e.Args...)
	at := e.Args[0].Type()
	n := int32(e.T.Width())
	ls := make([]lanes, len(ops))
	for i, o := range ops {
		ls[i] = laneOf(o, e.Args[i].Type())
	}
	elementwise := true
	switch e.Fn {
	case ir.BDot, ir.BLength, ir.BDistance, ir.BNormalize, ir.BCross, ir.BAll, ir.BAny, ir.BReflect, ir.BFaceForward:
		elementwise = false
	}
	d := c.pickDst(dst, n, elementwise, ops...)
	var fn exprFn
	switch s := at.Scalar().Kind; {
	case e.Fn == ir.BAll || e.Fn == ir.BAny:
		fn = allAny(ops[0].loc, int32(at.Width()), e.Fn == ir.BAny, d)
	case s == ir.KindF32 || s == ir.KindF16:
		fn = c.floatBuiltin(fmtOf(s), e, info, ops, ls, n, d)
	case e.Fn == ir.BDot:
		fn = intDot(ops[0].loc, ops[1].loc, int32(at.Width()), d)
	default:
		signed := s == ir.KindI32
		var (
			k1 func(uint32) uint32
			k2 func(a, b uint32) uint32
			k3 func(a, b, c uint32) uint32
			k4 func(a, b, c, e uint32) uint32
		)
		switch e.Fn {
		case ir.BAbs:
			k1 = wgslsem.Abs[uint32]
			if signed {
				k1 = absI
			}
		case ir.BSign:
			k1 = signI
		case ir.BCountOneBits:
			k1 = wgslsem.CountOneBits[uint32]
		case ir.BReverseBits:
			k1 = wgslsem.ReverseBits[uint32]
		case ir.BFirstLeadingBit:
			k1 = wgslsem.FirstLeadingBitU32
			if signed {
				k1 = firstLeadingBitI
			}
		case ir.BFirstTrailingBit:
			k1 = wgslsem.FirstTrailingBit[uint32]
		case ir.BMin:
			k2 = wgslsem.Min[uint32]
			if signed {
				k2 = minI
			}
		case ir.BMax:
			k2 = wgslsem.Max[uint32]
			if signed {
				k2 = maxI
			}
		case ir.BClamp:
			k3 = wgslsem.Clamp[uint32]
			if signed {
				k3 = clampI
			}
		case ir.BExtractBits:
			k3 = wgslsem.ExtractBitsU32
			if signed {
				k3 = extractBitsI
			}
		case ir.BInsertBits:
			k4 = wgslsem.InsertBits[uint32]
		default:
			c.errorf(e.Pos, "builtin %s is not defined for %v", info.Name, at)
			return c.dummy(e.T, dst)
		}
		fn = intLanes(ls, n, d, k1, k2, k3, k4)
	}
	in := instr{op: opFn, d: d, fn: fn}
	if e.Fn == ir.BClamp && at.Scalar().Kind == ir.KindF32 {
		in.op, in.a, in.b, in.c = opClampFV, ls[0].loc, ls[1].loc, ls[2].loc
		in.x = laneBits(n, ls[0].stride, ls[1].stride, ls[2].stride)
		if c.goodConst(ls[1].loc, ls[1].stride, n) && c.goodConst(ls[2].loc, ls[2].stride, n) && c.ordered(ls[1], ls[2], n) {
			in.x |= goodB
		}
	}
	return cexpr{code: c.emitI(in, ops...), loc: d, n: n, stops: anyStops(ops...)}
}

// ordered reports whether lo ≤ hi in each of n lanes of two constant
// f32 operands (clamp's bounds).
func (c *compiler) ordered(lo, hi lanes, n int32) bool {
	for i := int32(0); i < n; i++ {
		if !(f32of(c.image[lo.loc+i*lo.stride].bits) <= f32of(c.image[hi.loc+i*hi.stride].bits)) {
			return false
		}
	}
	return true
}

// unexecutable compiles a derivative, barrier or subgroup builtin: it
// needs other invocations (a quad, a workgroup, a subgroup) that a
// single-invocation reference does not model, so executing it stops the
// invocation with an error.
func (c *compiler) unexecutable(e *ir.BuiltinCall, info *ir.BuiltinInfo) cexpr {
	ops := c.operands(e.Args...)
	kind := map[ir.BuiltinClass]string{ir.ClassDerivative: "derivative", ir.ClassBarrier: "barrier", ir.ClassSubgroup: "subgroup"}[info.Class]
	pos, name := e.Pos, info.Name
	n := size(e.T)
	d := int32(0)
	if n > 0 {
		d = c.alloc(n)
	}
	fn := func(fr *frame) {
		fr.fail(pos, "%s is not executable by the reference (a %s builtin needs other invocations)", name, kind)
	}
	return cexpr{code: seq(ops, fn), loc: d, n: n, stops: true}
}

func allAny(loc, n int32, any bool, d int32) exprFn {
	return func(fr *frame) {
		s := fr.s
		r := slot{bits: b2u(!any)}
		for i := int32(0); i < n; i++ {
			x := s[loc+i]
			r.why = firstWhy(r.why, x.why)
			if any {
				r.bits |= x.bits
			} else {
				r.bits &= x.bits
			}
		}
		s[d] = r
	}
}

// intDot is dot of two integer vectors (WGSL §17.5.20): the wrapping sum
// of products, as wgslsem.Dot computes it (the bits are the same for i32
// and u32).
func intDot(xl, yl, n, d int32) exprFn {
	return func(fr *frame) {
		s := fr.s
		var r slot
		for i := int32(0); i < n; i++ {
			x, y := s[xl+i], s[yl+i]
			r.bits = wgslsem.Add(r.bits, wgslsem.Mul(x.bits, y.bits))
			r.why = why3(r.why, x.why, y.why)
		}
		s[d] = r
	}
}

// Scalar float builtin kernels of format m (f32.go's rules with m's
// parameters).
func unaryKernels(m *ffmt) map[ir.Builtin]fk1 {
	return map[ir.Builtin]fk1{
		ir.BAbs:   func(a fv) (fv, fstatus) { return m.abs(a), fsOK },
		ir.BFloor: func(a fv) (fv, fstatus) { return m.floor(a), fsOK },
		// degrees, radians: inherited from x * the constant in m's
		// format (WGSL #degrees-builtin, #radians-builtin), or better.
		ir.BDegrees:     func(a fv) (fv, fstatus) { return m.scaleByConst(a, 57.295779513082322865), fsOK },
		ir.BRadians:     func(a fv) (fv, fstatus) { return m.scaleByConst(a, 0.017453292519943295769), fsOK },
		ir.BCeil:        func(a fv) (fv, fstatus) { return m.ceil(a), fsOK },
		ir.BRound:       func(a fv) (fv, fstatus) { return m.roundEven(a), fsOK },
		ir.BTrunc:       func(a fv) (fv, fstatus) { return m.trunc(a), fsOK },
		ir.BFract:       func(a fv) (fv, fstatus) { return m.fract(a), fsOK },
		ir.BSign:        m.sign,
		ir.BSqrt:        m.sqrt,
		ir.BInverseSqrt: m.inverseSqrt,
		ir.BExp:         func(a fv) (fv, fstatus) { return m.exp(a), fsOK },
		ir.BExp2:        func(a fv) (fv, fstatus) { return m.exp2(a), fsOK },
		ir.BLog:         m.log,
		ir.BLog2:        m.log2,
		ir.BSin:         m.sin,
		ir.BCos:         m.cos,
		ir.BTan:         m.tan,
		ir.BAsin:        func(a fv) (fv, fstatus) { return m.asinAcos(a, false) },
		ir.BAcos:        func(a fv) (fv, fstatus) { return m.asinAcos(a, true) },
		ir.BAtan:        func(a fv) (fv, fstatus) { return m.atan(a), fsOK },
		ir.BSaturate:    m.saturate,
		ir.BSinh:        m.sinh,
		ir.BCosh:        m.cosh,
		ir.BTanh:        m.tanh,
	}
}

func binaryKernels(m *ffmt) map[ir.Builtin]fk2 {
	return map[ir.Builtin]fk2{
		ir.BMin:   func(a, b fv) (fv, fstatus) { return m.min(a, b), fsOK },
		ir.BMax:   func(a, b fv) (fv, fstatus) { return m.max(a, b), fsOK },
		ir.BPow:   m.pow,
		ir.BAtan2: m.atan2,
		ir.BStep:  m.step,
	}
}

func ternaryKernels(m *ffmt) map[ir.Builtin]fk3 {
	return map[ir.Builtin]fk3{
		ir.BClamp:      m.clamp,
		ir.BMix:        func(a, b, c fv) (fv, fstatus) { return m.mix(a, b, c), fsOK },
		ir.BSmoothstep: m.smoothstep,
		ir.BFma:        func(a, b, c fv) (fv, fstatus) { return m.fma(a, b, c), fsOK },
	}
}

var (
	f32Unary, f16Unary     = unaryKernels(f32F), unaryKernels(f16F)
	f32Binary, f16Binary   = binaryKernels(f32F), binaryKernels(f16F)
	f32Ternary, f16Ternary = ternaryKernels(f32F), ternaryKernels(f16F)
)

// Fast paths: the value of a builtin on exact, normal operands when it
// is exact too (ok false sends the lane to the general kernel). They
// agree with the general kernels on such operands.
var (
	f32Fast1 = map[ir.Builtin]func(x float64) (float64, bool){
		ir.BAbs:   func(x float64) (float64, bool) { return math.Abs(x), true },
		ir.BFloor: func(x float64) (float64, bool) { return math.Floor(x), true },
		ir.BCeil:  func(x float64) (float64, bool) { return math.Ceil(x), true },
		ir.BTrunc: func(x float64) (float64, bool) { return math.Trunc(x), true },
		ir.BRound: func(x float64) (float64, bool) { return wgslsem.Round(x), true },
		ir.BFract: func(x float64) (float64, bool) { r := x - math.Floor(x); return r, r32(r) == r },
		ir.BSaturate: func(x float64) (float64, bool) {
			return math.Min(math.Max(x, 0), 1), true
		},
		ir.BSign: func(x float64) (float64, bool) {
			switch {
			case x > 0:
				return 1, true
			case x < 0:
				return -1, true
			}
			return 0, true
		},
	}
	f32Fast2 = map[ir.Builtin]func(x, y float64) (float64, bool){
		ir.BMin: func(x, y float64) (float64, bool) {
			if y < x {
				return y, true
			}
			return x, true
		},
		ir.BMax: func(x, y float64) (float64, bool) {
			if x < y {
				return y, true
			}
			return x, true
		},
		ir.BStep: func(edge, x float64) (float64, bool) { return wgslsem.Step(edge, x), true },
	}
	f32Fast3 = map[ir.Builtin]func(x, y, z float64) (float64, bool){
		ir.BClamp: func(x, lo, hi float64) (float64, bool) {
			if hi < lo {
				return 0, false
			}
			if x < lo {
				x = lo
			}
			if hi < x {
				x = hi
			}
			return x, true
		},
		ir.BFma: func(x, y, z float64) (float64, bool) {
			p := float64(x * y)
			s := p + z
			return s, r32(p) == p && r32(s) == s && twoSumExact(p, z, s)
		},
		ir.BMix: func(x, y, z float64) (float64, bool) {
			a := 1 - z
			p, q := float64(x*a), float64(y*z)
			s := p + q
			return s, r32(a) == a && r32(p) == p && r32(q) == q && r32(s) == s && twoSumExact(p, q, s)
		},
	}
)

// exactNormal reports whether a slot is an exact, determinate f32 that is
// not subnormal.
func exactNormal(x slot) bool { return x.why == 0 && !isSubnormal(x.bits) }

func fastSlot(r float64, ok bool) (slot, bool) {
	if ok && math.Abs(r) <= maxF32 {
		return slot{bits: math.Float32bits(float32(r))}, true
	}
	return slot{}, false
}

// vk is an f32 kernel over whole vectors: in holds the operands' lanes
// one operand after the other, out receives the result's lanes.
type vk func(in, out []fv) fstatus

func vkDot(m *ffmt, w int) vk {
	return func(in, out []fv) fstatus {
		var tmp [4]fv
		r, st := m.dot(in[:w], in[w:2*w], tmp[:])
		out[0] = r
		return st
	}
}

func vkLength(m *ffmt, w int) vk {
	return func(in, out []fv) fstatus {
		var tmp [4]fv
		r, st := m.length(in[:w], tmp[:])
		out[0] = r
		return st
	}
}

func vkDistance(m *ffmt, w int) vk {
	return func(in, out []fv) fstatus {
		var diff, tmp [4]fv
		for i := 0; i < w; i++ {
			diff[i] = m.sub(in[i], in[w+i])
		}
		r, st := m.length(diff[:w], tmp[:])
		out[0] = r
		return st
	}
}

func vkNormalize(m *ffmt, w int) vk {
	return func(in, out []fv) fstatus {
		var tmp [4]fv
		return m.normalize(in[:w], out[:w], tmp[:])
	}
}

func vkReflect(m *ffmt, w int) vk {
	return func(in, out []fv) fstatus {
		var tmp [4]fv
		return m.reflect(in[:w], in[w:2*w], out[:w], tmp[:])
	}
}

func vkFaceForward(m *ffmt, w int) vk {
	return func(in, out []fv) fstatus {
		var tmp [4]fv
		return m.faceForward(in[:w], in[w:2*w], in[2*w:3*w], out[:w], tmp[:])
	}
}

func vkCross(m *ffmt) vk {
	return func(in, out []fv) fstatus {
		m.cross(in[:3], in[3:6], out[:3])
		return fsOK
	}
}

// floatBuiltin compiles a float builtin of format m lane by lane (or
// over whole vectors). f32 has fast paths for exact, normal operands;
// f16 runs the general kernels only (their values and bounds are f32's
// rules with f16's parameters, f16.go).
func (c *compiler) floatBuiltin(m *ffmt, e *ir.BuiltinCall, info *ir.BuiltinInfo, ops []cexpr, ls []lanes, n, d int32) exprFn {
	site := c.site(e.Pos, e, accuracyOf(m, e.Fn, info))
	w := e.Args[0].Type().Width()
	var v vk
	switch e.Fn {
	case ir.BDot:
		v = vkDot(m, w)
	case ir.BLength:
		v = vkLength(m, w)
	case ir.BDistance:
		v = vkDistance(m, w)
	case ir.BNormalize:
		v = vkNormalize(m, w)
	case ir.BCross:
		v = vkCross(m)
	case ir.BReflect:
		v = vkReflect(m, w)
	case ir.BFaceForward:
		v = vkFaceForward(m, w)
	}
	if v != nil {
		return vecKernel(m, site, v, ops, n, d)
	}
	if e.Fn == ir.BLdexp {
		return ldexpLanes(m, site, ls, n, d)
	}
	if m.half {
		return c.f16Lanes(e, info, site, ls, n, d)
	}
	if k, ok := f32Unary[e.Fn]; ok {
		a := ls[0]
		fast := f32Fast1[e.Fn]
		if fast == nil {
			fast = func(float64) (float64, bool) { return 0, false }
		}
		return func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				x := s[a.loc+i*a.stride]
				if exactNormal(x) {
					if r, ok := fastSlot(fast(f32of(x.bits))); ok {
						s[d+i] = r
						continue
					}
				}
				s[d+i] = eval1(site, k, x)
			}
		}
	}
	if k, ok := f32Binary[e.Fn]; ok {
		a, b := ls[0], ls[1]
		fast := f32Fast2[e.Fn]
		if fast == nil {
			fast = func(float64, float64) (float64, bool) { return 0, false }
		}
		return func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				x, y := s[a.loc+i*a.stride], s[b.loc+i*b.stride]
				if exactNormal(x) && exactNormal(y) {
					if r, ok := fastSlot(fast(f32of(x.bits), f32of(y.bits))); ok {
						s[d+i] = r
						continue
					}
				}
				s[d+i] = eval2(site, k, x, y)
			}
		}
	}
	if e.Fn == ir.BClamp {
		// clamp on exact, normal lanes with low <= high: compared in f32.
		a, b, cc := ls[0], ls[1], ls[2]
		k := f32Ternary[ir.BClamp]
		return func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				x, lo, hi := &s[a.loc+i*a.stride], &s[b.loc+i*b.stride], &s[cc.loc+i*cc.stride]
				if x.why|lo.why|hi.why == 0 && !isSubnormal(x.bits) && !isSubnormal(lo.bits) && !isSubnormal(hi.bits) {
					xv, lv, hv := math.Float32frombits(x.bits), math.Float32frombits(lo.bits), math.Float32frombits(hi.bits)
					if lv <= hv {
						r := x.bits
						if xv < lv {
							r, xv = lo.bits, lv
						}
						if hv < xv {
							r = hi.bits
						}
						s[d+i] = slot{bits: r}
						continue
					}
				}
				s[d+i] = eval3(site, k, *x, *lo, *hi)
			}
		}
	}
	if k, ok := f32Ternary[e.Fn]; ok {
		a, b, cc := ls[0], ls[1], ls[2]
		fast := f32Fast3[e.Fn]
		if fast == nil {
			fast = func(float64, float64, float64) (float64, bool) { return 0, false }
		}
		return func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				x, y, z := s[a.loc+i*a.stride], s[b.loc+i*b.stride], s[cc.loc+i*cc.stride]
				if exactNormal(x) && exactNormal(y) && exactNormal(z) {
					if r, ok := fastSlot(fast(f32of(x.bits), f32of(y.bits), f32of(z.bits))); ok {
						s[d+i] = r
						continue
					}
				}
				s[d+i] = eval3(site, k, x, y, z)
			}
		}
	}
	c.errorf(e.Pos, "builtin %s is not defined for f32", info.Name)
	return func(*frame) {}
}

// f16Lanes compiles a lane-wise f16 builtin: the general kernel on every
// lane (eval1, eval2, eval3 with f16F: flushed subnormal operands tried,
// overflow past 65504 indeterminate).
func (c *compiler) f16Lanes(e *ir.BuiltinCall, info *ir.BuiltinInfo, site int32, ls []lanes, n, d int32) exprFn {
	m := f16F
	if k, ok := f16Unary[e.Fn]; ok {
		a := ls[0]
		return func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				s[d+i] = m.eval1(site, k, s[a.loc+i*a.stride])
			}
		}
	}
	if k, ok := f16Binary[e.Fn]; ok {
		a, b := ls[0], ls[1]
		return func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				s[d+i] = m.eval2(site, k, s[a.loc+i*a.stride], s[b.loc+i*b.stride])
			}
		}
	}
	if k, ok := f16Ternary[e.Fn]; ok {
		a, b, cc := ls[0], ls[1], ls[2]
		return func(fr *frame) {
			s := fr.s
			for i := int32(0); i < n; i++ {
				s[d+i] = m.eval3(site, k, s[a.loc+i*a.stride], s[b.loc+i*b.stride], s[cc.loc+i*cc.stride])
			}
		}
	}
	c.errorf(e.Pos, "builtin %s is not defined for f16", info.Name)
	return func(*frame) {}
}

// ldexpLanes is ldexp(e1, e2) lane by lane (fLdexp): ls[0] the f32
// lanes, ls[1] the i32 exponents; an indeterminate exponent makes its
// lane indeterminate, a subnormal e1 is also tried flushed (eval1).
func ldexpLanes(m *ffmt, site int32, ls []lanes, n, d int32) exprFn {
	a, b := ls[0], ls[1]
	return func(fr *frame) {
		s := fr.s
		for i := int32(0); i < n; i++ {
			x, k := s[a.loc+i*a.stride], s[b.loc+i*b.stride]
			if k.why < 0 && x.why >= 0 {
				s[d+i] = slot{bits: x.bits, why: k.why}
				continue
			}
			e2 := int32(k.bits)
			s[d+i] = m.eval1(site, func(a fv) (fv, fstatus) { return m.ldexp(a, e2) }, x)
		}
	}
}

// vecKernel runs a whole-vector kernel of format m. Subnormal operands
// are tried flushed all together and one at a time (not every
// combination).
func vecKernel(m *ffmt, site int32, k vk, ops []cexpr, n, d int32) exprFn {
	type arg struct{ loc, n int32 }
	args := make([]arg, len(ops))
	inN := int32(0)
	for i, o := range ops {
		args[i] = arg{o.loc, o.n}
		inN += o.n
	}
	return func(fr *frame) {
		s := fr.s
		in := fr.fin[:inN]
		why, sub := int32(0), false
		j := 0
		for _, a := range args {
			for i := int32(0); i < a.n; i++ {
				x := s[a.loc+i]
				in[j] = m.fvOf(x)
				why = mergeWhy(why, x.why)
				sub = sub || m.isSub(x.bits)
				j++
			}
		}
		out := fr.fout[:n]
		st := k(in, out)
		if why >= 0 && st == fsOK && sub && vecFlushDiffers(m, fr, k, inN, n) {
			st = fsSubnormal
		}
		for i := int32(0); i < n; i++ {
			if why < 0 {
				s[d+i] = slot{bits: m.bitsOf(out[i].v), why: why}
			} else {
				s[d+i] = m.finish(site, out[i], st, why)
			}
		}
	}
}

// vecFlushDiffers reruns k with the subnormal operands in fr.fin flushed
// (all, then each alone) and reports whether any outcome differs from
// fr.fout.
func vecFlushDiffers(m *ffmt, fr *frame, k vk, inN, n int32) bool {
	in2, out2 := fr.fin2[:inN], fr.fout2[:n]
	for single := int32(-1); single < inN; single++ {
		copy(in2, fr.fin[:inN])
		any := false
		for i := range in2 {
			if in2[i].v != 0 && m.zeroish(in2[i].v) && (single < 0 || single == int32(i)) {
				in2[i].v = math.Copysign(0, in2[i].v)
				any = true
			}
		}
		if !any {
			continue
		}
		st := k(in2, out2)
		if st != fsOK {
			return true
		}
		for i := range out2 {
			if !m.same(out2[i].v, fr.fout[i].v) {
				return true
			}
		}
	}
	return false
}
