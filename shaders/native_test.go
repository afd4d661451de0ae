package shaders

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/ir"
)

// Native Go implementations of the examples, written from each kernel's
// algorithm (its header comment) with WGSL's runtime semantics
// (wgslsem_test.go). They generate and check NAME.expected.json; they share
// nothing with the interpreter or the compiler.

// field is a named, typed kernel parameter or output.
type field struct {
	name string
	t    *ir.Type
}

// native is the independent implementation of one example.
type native struct {
	name    string  // example file stem
	kernel  string  // kernel function name
	params  []field // kernel parameters, in order
	outputs []field // "ret" (if any), then the private globals used, in module order
	// run computes one invocation's outputs, in the order of outputs.
	run func(t testing.TB, args []ir.Value) []ir.Value
}

var (
	vec2f = ir.Vec(2, ir.F32)
	vec3f = ir.Vec(3, ir.F32)
	vec4f = ir.Vec(4, ir.F32)
	vec2i = ir.Vec(2, ir.I32)
	vec2u = ir.Vec(2, ir.U32)
)

// structOf declares a struct type for the native side; the examples'
// structs are nominal, so a same-named declaration is Identical.
func structOf(name string, fs ...field) *ir.Type {
	d := &ir.StructDecl{Name: name}
	for _, f := range fs {
		d.Fields = append(d.Fields, ir.Field{Name: f.name, Type: f.t})
	}
	return ir.StructType(d)
}

var (
	particleT = structOf("Particle",
		field{"pos", vec2f}, field{"vel", vec2f}, field{"bounces", ir.U32}, field{"alive", ir.Bool})
	triSetupT = structOf("TriSetup",
		field{"plane", vec4f}, field{"bbox_min", vec3f}, field{"bbox_max", vec3f},
		field{"area2", ir.F32}, field{"front", ir.Bool}, field{"degenerate", ir.Bool})
	divModT = structOf("DivMod",
		field{"quot", ir.I32}, field{"rem", ir.I32}, field{"floor_quot", ir.I32}, field{"floor_mod", ir.I32},
		field{"uquot", ir.U32}, field{"urem", ir.U32}, field{"gcd", ir.U32})
)

// Value plumbing between ir.Value and plain Go.

func i32v(x int32) ir.Value  { return ir.I32Val(x) }
func u32v(x uint32) ir.Value { return ir.U32Val(x) }

// vecF makes a vecN<f32>, rounding each component to float32 (a no-op
// for the f32 run; the f64 shadow's rounding is what agree compares).
func vecF[F float](xs ...F) ir.Value {
	es := make([]ir.Value, len(xs))
	for i, x := range xs {
		es[i] = ir.F32Val(float32(x))
	}
	return ir.CompositeVal(ir.Vec(len(xs), ir.F32), es...)
}

// fv makes an f32 value from either float type.
func fv[F float](x F) ir.Value { return ir.F32Val(float32(x)) }

func vecU(xs ...uint32) ir.Value {
	es := make([]ir.Value, len(xs))
	for i, x := range xs {
		es[i] = ir.U32Val(x)
	}
	return ir.CompositeVal(ir.Vec(len(xs), ir.U32), es...)
}

func f2[F float](v ir.Value) [2]F { return [2]F{F(v.Elems[0].F32()), F(v.Elems[1].F32())} }
func f3[F float](v ir.Value) [3]F {
	return [3]F{F(v.Elems[0].F32()), F(v.Elems[1].F32()), F(v.Elems[2].F32())}
}

// exact runs a float kernel twice, in float32 and in float64, and fails
// the test unless both give the same outputs (float64 results rounded to
// float32): then no f32 rounding decided the result, and any conforming
// implementation must produce it bit for bit (up to the sign of zero). It
// returns the float32 outputs.
func exact(t testing.TB, f32 func() []ir.Value, f64 func() []ir.Value) []ir.Value {
	t.Helper()
	v := f32()
	if err := agree(v, f64()); err != nil {
		t.Fatalf("%v: choose inputs in the exact domain", err)
	}
	return v
}

// agree reports the first output where the float32 run v and the float64
// shadow w differ.
func agree(v, w []ir.Value) error {
	for i := range v {
		if !ir.Equal(v[i], w[i]) {
			return fmt.Errorf("not exact in f32: output %d is %s in f32 arithmetic but %s in f64",
				i, ir.MarshalValue(v[i]), ir.MarshalValue(w[i]))
		}
	}
	return nil
}
func i2(v ir.Value) [2]int32 { return [2]int32{v.Elems[0].I32(), v.Elems[1].I32()} }

func one(v ir.Value) []ir.Value { return []ir.Value{v} }

// natives lists every example. Adding an example means adding its native
// implementation here; TestExamplesNativeGoldens fails for a .wgsl file
// without one.
var natives = []native{
	{
		name: "shade", kernel: "shade",
		params:  []field{{"x", ir.F32}},
		outputs: []field{{"ret", ir.F32}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			x := a[0].F32()
			return exact(t,
				func() []ir.Value { return one(fv(nativeShade(x))) },
				func() []ir.Value { return one(fv(nativeShade(float64(x)))) })
		},
	},
	{
		name: "pcg_hash", kernel: "pcg_hash",
		params:  []field{{"v", ir.U32}},
		outputs: []field{{"ret", ir.U32}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			return one(u32v(nativePCGHash(a[0].U32())))
		},
	},
	{
		name: "tonemap", kernel: "tonemap",
		params:  []field{{"hdr", vec3f}, {"exposure", ir.F32}},
		outputs: []field{{"ret", ir.U32}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			e := a[1].F32()
			return exact(t,
				func() []ir.Value { return one(u32v(nativeTonemap(t, f3[float32](a[0]), e))) },
				func() []ir.Value { return one(u32v(nativeTonemap(t, f3[float64](a[0]), float64(e)))) })
		},
	},
	{
		name: "sdf", kernel: "scene",
		params:  []field{{"p", vec2f}},
		outputs: []field{{"ret", ir.F32}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			return exact(t,
				func() []ir.Value { return one(fv(nativeScene(t, f2[float32](a[0])))) },
				func() []ir.Value { return one(fv(nativeScene(t, f2[float64](a[0])))) })
		},
	},
	{
		name: "collatz", kernel: "collatz_steps",
		params:  []field{{"start", ir.U32}},
		outputs: []field{{"ret", ir.I32}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			return one(i32v(nativeCollatz(a[0].U32())))
		},
	},
	{
		name: "bit_twiddle", kernel: "bit_twiddle",
		params:  []field{{"x", ir.U32}, {"s", ir.U32}},
		outputs: []field{{"ret", ir.ArrayOf(ir.U32, 12)}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			r := nativeBitTwiddle(a[0].U32(), a[1].U32())
			es := make([]ir.Value, len(r))
			for i, x := range r {
				es[i] = u32v(x)
			}
			return one(ir.CompositeVal(ir.ArrayOf(ir.U32, 12), es...))
		},
	},
	{
		name: "particle", kernel: "step_particle",
		params:  []field{{"p", particleT}},
		outputs: []field{{"ret", particleT}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			return exact(t,
				func() []ir.Value { return one(runParticle[float32](a[0])) },
				func() []ir.Value { return one(runParticle[float64](a[0])) })
		},
	},
	{
		name: "tri_setup", kernel: "tri_setup",
		params:  []field{{"a", vec3f}, {"b", vec3f}, {"c", vec3f}},
		outputs: []field{{"ret", triSetupT}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			return exact(t,
				func() []ir.Value { return one(runTriSetup[float32](a)) },
				func() []ir.Value { return one(runTriSetup[float64](a)) })
		},
	},
	{
		name: "clip_class", kernel: "clip_class",
		params:  []field{{"a", vec2i}, {"b", vec2i}},
		outputs: []field{{"ret", ir.I32}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			return one(i32v(nativeClipClass(i2(a[0]), i2(a[1]))))
		},
	},
	{
		name: "primes", kernel: "primes",
		params:  []field{{"n", ir.U32}},
		outputs: []field{{"ret", vec2u}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			count, largest := nativePrimes(a[0].U32())
			return one(vecU(count, largest))
		},
	},
	{
		name: "lights", kernel: "lights",
		params:  []field{{"n", vec3f}},
		outputs: []field{{"ret", ir.F32}, {"lit_count", ir.U32}, {"strongest", ir.F32}, {"ambient", ir.F32}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			return exact(t, func() []ir.Value { return runLights[float32](a[0]) },
				func() []ir.Value { return runLights[float64](a[0]) })
		},
	},
	{
		name: "blend", kernel: "blend",
		params:  []field{{"mode", ir.I32}, {"dst", ir.U32}, {"src", ir.U32}},
		outputs: []field{{"ret", ir.U32}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			return one(u32v(nativeBlend(a[0].I32(), a[1].U32(), a[2].U32())))
		},
	},
	{
		name: "divmod", kernel: "divmod",
		params:  []field{{"a", ir.I32}, {"b", ir.I32}},
		outputs: []field{{"ret", divModT}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			d := nativeDivMod(a[0].I32(), a[1].I32())
			return one(ir.CompositeVal(divModT, i32v(d.quot), i32v(d.rem), i32v(d.floorQuot),
				i32v(d.floorMod), u32v(d.uquot), u32v(d.urem), u32v(d.gcd)))
		},
	},
	{
		name: "gradient", kernel: "gradient",
		params:  []field{{"t", ir.F32}},
		outputs: []field{{"out_color", vec4f}, {"out_stop", ir.U32}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			x := a[0].F32()
			return exact(t, func() []ir.Value { return runGradient(t, x) },
				func() []ir.Value { return runGradient(t, float64(x)) })
		},
	},
	{
		name: "ptr_params", kernel: "ptr_params",
		params:  []field{{"x", ir.I32}, {"y", ir.I32}},
		outputs: []field{{"out_lo", ir.I32}, {"out_hi", ir.I32}, {"total", ir.I32}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			lo, hi, total := nativePtrParams(a[0].I32(), a[1].I32())
			return []ir.Value{i32v(lo), i32v(hi), i32v(total)}
		},
	},
	{
		name: "pack", kernel: "pack",
		params: []field{{"a", vec4f}, {"w", ir.U32}},
		outputs: []field{{"p8s", ir.U32}, {"p8u", ir.U32}, {"p16s", ir.U32}, {"p16u", ir.U32},
			{"u8s", vec4f}, {"u8u", vec4f}, {"u16s", vec2f}, {"u16u", vec2f}},
		run: func(t testing.TB, a []ir.Value) []ir.Value {
			var e [4]float32
			for i := range e {
				e[i] = a[0].Elems[i].F32()
			}
			return nativePack(e, a[1].U32())
		},
	},
}

// pack: the spec's formulas written out (WGSL #pack4x8snorm-builtin …
// #unpack4xU8-builtin): a normalized pack is ⌊0.5 + M·clamp(e)⌋ in
// two's complement, M = 2^(bits-1) - 1 (snorm) or 2^bits - 1 (unorm), the
// intermediate rounded once to float32; an unpack is v / M (snorm: at
// least -1) rounded to float32.
func nativePack(e [4]float32, w uint32) []ir.Value {
	norm := func(x float32, m float64, lo float64) uint32 {
		c := math.Min(1, math.Max(lo, float64(x)))
		return uint32(int32(math.Floor(float64(float32(0.5 + m*c)))))
	}
	var p8s, p8u, p16s, p16u uint32
	for i, x := range e {
		p8s |= (norm(x, 127, -1) & 0xFF) << (8 * i)
		p8u |= (norm(x, 255, 0) & 0xFF) << (8 * i)
	}
	p16s = norm(e[0], 32767, -1)&0xFFFF | norm(e[1], 32767, -1)<<16
	p16u = norm(e[2], 65535, 0)&0xFFFF | norm(e[3], 65535, 0)<<16
	u8s, u8u := make([]float32, 4), make([]float32, 4)
	for i := range 4 {
		b := w >> (8 * i) & 0xFF
		s := int32(int8(b))
		u8s[i] = float32(math.Max(float64(s)/127, -1))
		u8u[i] = float32(float64(b) / 255)
	}
	h := [2]uint32{w & 0xFFFF, w >> 16}
	u16s := []float32{float32(math.Max(float64(int16(h[0]))/32767, -1)), float32(math.Max(float64(int16(h[1]))/32767, -1))}
	u16u := []float32{float32(float64(h[0]) / 65535), float32(float64(h[1]) / 65535)}
	return []ir.Value{u32v(p8s), u32v(p8u), u32v(p16s), u32v(p16u),
		vecF(u8s...), vecF(u8u...), vecF(u16s...), vecF(u16u...)}
}

// ptr_params: order x, y (swap through pointers when x > y); the struct
// accumulator sums both (wrapping) and counts 2; total (private, starting
// at 0) gets the sum, then the count.
func nativePtrParams(x, y int32) (lo, hi, total int32) {
	if x > y {
		x, y = y, x
	}
	sum := x + y
	return x, y, sum + 2
}

// shade (daslang-flatten §8.1): x * 2 above one half, x otherwise.
func nativeShade[F float](x F) F {
	if x > 0.5 {
		return F(x * 2)
	}
	return x
}

// pcg_hash: PCG-RXS-M-XS 32 as published by Jarzynski & Olano (2020):
// state = v * 747796405 + 2891336453 (an LCG step); a random rotation-free
// xorshift by (state >> 28) + 4; a multiply by 277803737; a final
// xorshift by 22. Go's uint32 arithmetic wraps like WGSL's u32.
func nativePCGHash(v uint32) uint32 {
	state := v*747796405 + 2891336453
	word := ((state >> ((state >> 28) + 4)) ^ state) * 277803737
	return (word >> 22) ^ word
}

// tonemap: per channel max(hdr * exposure, 0) through the shoulder curve
// (slope 1 to 64, 1/2 to 192, 1/4 to 448, 1/8 beyond, capped at 255);
// RGB are the floors, alpha the truncated luma (weights 2/8, 5/8, 1/8) of
// the unfloored curve values; packed R | G<<8 | B<<16 | A<<24.
func nativeTonemap[F float](t testing.TB, hdr [3]F, exposure F) uint32 {
	shoulder := func(x F) F {
		switch {
		case x <= 64:
			return x
		case x <= 192:
			return 64 + F((x-64)*0.5)
		case x <= 448:
			return 128 + F((x-192)*0.25)
		}
		return min(192+F((x-448)*0.125), 255)
	}
	var m [3]F
	var rgb [3]uint32
	for i, h := range hdr {
		m[i] = shoulder(max(F(h*exposure), 0))
		rgb[i] = toU32(t, floorF(m[i]))
	}
	luma := F(dot3(m, [3]F{2, 5, 1}) * 0.125)
	a := toU32(t, clampF(luma, 0, 255))
	return rgb[0] | rgb[1]<<8 | rgb[2]<<16 | a<<24
}

// sdf: min(sdBox(p - (8, 0), half size (3, 2)), sdCircle(p - (-8, 0), 5))
// with sdBox(p, b) = length(max(|p| - b, 0)) + min(max(d.x, d.y), 0) and
// sdCircle(p, r) = length(p) - r. Every length is exact (exactSqrt).
func nativeScene[F float](t testing.TB, p [2]F) F {
	sdBox := func(p, b [2]F) F {
		d := [2]F{absF(p[0]) - b[0], absF(p[1]) - b[1]}
		return length2(t, [2]F{max(d[0], 0), max(d[1], 0)}) + min(max(d[0], d[1]), 0)
	}
	sdCircle := func(p [2]F, r F) F { return length2(t, p) - r }
	toBox := sdBox([2]F{p[0] - 8, p[1] - 0}, [2]F{3, 2})
	toCircle := sdCircle([2]F{p[0] + 8, p[1] - 0}, 5)
	return min(toBox, toCircle)
}

// collatz: n -> n/2 for even n, 3n+1 (mod 2^32) for odd n, until n <= 1;
// the step count, or -1 when 200 steps end with n still > 1.
func nativeCollatz(start uint32) int32 {
	n := start
	for steps := int32(0); ; {
		if n <= 1 {
			return steps
		}
		if n%2 == 0 {
			n /= 2
		} else {
			n = 3*n + 1
		}
		steps++
		if steps >= 200 {
			if n > 1 {
				return -1
			}
			return steps
		}
	}
}

// bit_twiddle: see the kernel's header; off = s mod 16.
func nativeBitTwiddle(x, s uint32) [12]uint32 {
	off := s & 15
	xi := int32(x)
	rotl := x<<(s%32) | x>>((32-s)%32)
	return [12]uint32{
		uint32(countOnes(x)),
		reverse(x),
		firstLeadingBitU32(x),
		firstTrailingBit(x),
		extractBitsU32(x, off, 8),
		insertBits(x, ^s, off, 12),
		rotl,
		shr(x, s),
		shl(x, s),
		uint32(sar(xi, s)),
		uint32(firstLeadingBitI32(xi)),
		uint32(extractBitsI32(xi, off, 8)),
	}
}

// countOnes and reverse count and reverse bits one at a time, the way the
// WGSL spec defines countOneBits and reverseBits.
func countOnes(x uint32) int {
	n := 0
	for i := 0; i < 32; i++ {
		n += int(x >> i & 1)
	}
	return n
}

func reverse(x uint32) uint32 {
	var r uint32
	for i := 0; i < 32; i++ {
		r |= (x >> i & 1) << (31 - i)
	}
	return r
}

type particle[F float] struct {
	pos, vel [2]F
	bounces  uint32
	alive    bool
}

func runParticle[F float](v ir.Value) ir.Value {
	e := v.Elems
	q := nativeStepParticle(particle[F]{f2[F](e[0]), f2[F](e[1]), e[2].U32(), e[3].Bool()})
	return ir.CompositeVal(particleT, vecF(q.pos[:]...), vecF(q.vel[:]...), u32v(q.bounces), ir.BoolVal(q.alive))
}

// particle: dead particles are unchanged. Otherwise vel.y -= 4 * dt, pos
// += vel * dt (dt = 1/2); below the floor y is mirrored and damped by 1/2
// (both pos.y and vel.y), outside [0, 16] x is clamped and vel.x negated,
// each counting a bounce; alive while bounces < 4.
func nativeStepParticle[F float](p particle[F]) particle[F] {
	q := p
	if !q.alive {
		return q
	}
	const dt = 0.5
	q.vel[1] = q.vel[1] - F(4*dt)
	q.pos[0] = q.pos[0] + F(q.vel[0]*dt)
	q.pos[1] = q.pos[1] + F(q.vel[1]*dt)
	if q.pos[1] < 0 {
		q.pos[1] = F(-q.pos[1] * 0.5)
		q.vel[1] = F(-q.vel[1] * 0.5)
		q.bounces++
	}
	if q.pos[0] < 0 || q.pos[0] > 16 {
		q.pos[0] = clampF(q.pos[0], 0, 16)
		q.vel[0] = -q.vel[0]
		q.bounces++
	}
	q.alive = q.bounces < 4
	return q
}

type triSetup[F float] struct {
	plane             [4]F
	bboxMin, bboxMax  [3]F
	area2             F
	front, degenerate bool
}

func runTriSetup[F float](a []ir.Value) ir.Value {
	s := nativeTriSetup(f3[F](a[0]), f3[F](a[1]), f3[F](a[2]))
	return ir.CompositeVal(triSetupT, vecF(s.plane[:]...), vecF(s.bboxMin[:]...), vecF(s.bboxMax[:]...),
		fv(s.area2), ir.BoolVal(s.front), ir.BoolVal(s.degenerate))
}

// tri_setup: n = (b - a) x (c - a), plane (n, -n.a), the component-wise
// bounding box, area2 = e1.x*e2.y - e1.y*e2.x, front when area2 > 0,
// degenerate when n is the zero vector.
func nativeTriSetup[F float](a, b, c [3]F) triSetup[F] {
	var e1, e2 [3]F
	var s triSetup[F]
	for i := range 3 {
		e1[i] = b[i] - a[i]
		e2[i] = c[i] - a[i]
		s.bboxMin[i] = min(a[i], b[i], c[i])
		s.bboxMax[i] = max(a[i], b[i], c[i])
	}
	n := cross(e1, e2)
	s.plane = [4]F{n[0], n[1], n[2], -dot3(n, a)}
	s.area2 = F(e1[0]*e2[1]) + F(e1[1]*-e2[0])
	s.front = s.area2 > 0
	s.degenerate = n == [3]F{}
	return s
}

// clip_class: Cohen–Sutherland outcodes (1 left x<0, 2 right x>639,
// 4 bottom y<0, 8 top y>479). A point: 6 inside, else 1. Both codes 0:
// 0; codes sharing a bit: 1; otherwise the first outside endpoint's code
// picks 2 (left), 3 (right), 4 (bottom), 5 (top), in that priority.
func nativeClipClass(a, b [2]int32) int32 {
	outcode := func(p [2]int32) uint32 {
		var c uint32
		if p[0] < 0 {
			c |= 1
		} else if p[0] > 639 {
			c |= 2
		}
		if p[1] < 0 {
			c |= 4
		} else if p[1] > 479 {
			c |= 8
		}
		return c
	}
	ca, cb := outcode(a), outcode(b)
	switch {
	case a == b && ca == 0:
		return 6
	case a == b:
		return 1
	case ca|cb == 0:
		return 0
	case ca&cb != 0:
		return 1
	}
	c := cb
	if ca != 0 {
		c = ca
	}
	switch {
	case c&1 != 0:
		return 2
	case c&2 != 0:
		return 3
	case c&4 != 0:
		return 4
	}
	return 5
}

// primes: scan i = 2..n, counting primes by trial division, stopping after
// the 25th; returns (count, largest prime counted).
func nativePrimes(n uint32) (count, largest uint32) {
	isPrime := func(i uint32) bool {
		if i < 2 {
			return false
		}
		for d := uint32(2); d*d <= i; d++ {
			if i%d == 0 {
				return false
			}
		}
		return true
	}
	for i := uint64(2); i <= uint64(n) && count < 25; i++ {
		if isPrime(uint32(i)) {
			count++
			largest = uint32(i)
		}
	}
	return count, largest
}

type lightGlobals[F float] struct {
	litCount  uint32
	strongest F
	ambient   F
}

func runLights[F float](n ir.Value) []ir.Value {
	ret, g := nativeLights(f3[F](n))
	return []ir.Value{fv(ret), u32v(g.litCount), fv(g.strongest), fv(g.ambient)}
}

// lights: ambient 1/4 plus, for each light i (directions (0,1,0), (1,1,0),
// (0,-1,2), intensities 1, 1/2, 1/4), max(n.l_i, 0) * intensity_i; every
// positive term counts in lit_count and raises strongest (unscaled).
func nativeLights[F float](n [3]F) (F, lightGlobals[F]) {
	g := lightGlobals[F]{ambient: 0.25}
	dirs := [3][3]F{{0, 1, 0}, {1, 1, 0}, {0, -1, 2}}
	intensity := [3]F{1, 0.5, 0.25}
	sum := g.ambient
	for i := range 3 {
		term := max(dot3(n, dirs[i]), 0)
		if term > 0 {
			g.litCount++
			g.strongest = max(g.strongest, term)
		}
		sum += F(term * intensity[i])
	}
	return sum, g
}

// blend: the modes of the kernel's header. Go's uint32 arithmetic wraps
// like WGSL's; the divisors are the nonzero constant 255.
func nativeBlend(mode int32, dst, src uint32) uint32 {
	switch mode {
	case 0, 8:
		return src
	case 1:
		return (dst*src + 127) / 255
	case 2:
		return 255 - ((255-dst)*(255-src)+127)/255
	case 3:
		return min(dst+src, 255)
	case 4:
		return dst - min(src, dst)
	case 5:
		return uint32(absI32(int32(dst) - int32(src)))
	case 6:
		return max(dst, src)
	case 7:
		return min(dst, src)
	case -1:
		return 255 - src
	}
	return dst
}

type divMod struct {
	quot, rem, floorQuot, floorMod int32
	uquot, urem, gcd               uint32
}

// divmod: WGSL / and % on i32 and on the u32 bit patterns; floored
// division (round toward -inf) and modulo (sign of the divisor), with
// WGSL's x/0 = x, x%0 = 0 carried through; Euclid's gcd of the magnitudes
// |a|, |b| as u32 (|INT_MIN| = 2^31).
func nativeDivMod(a, b int32) divMod {
	d := divMod{quot: divI32(a, b), rem: remI32(a, b)}
	d.floorQuot, d.floorMod = d.quot, d.rem
	if d.rem != 0 && (d.rem < 0) != (b < 0) {
		d.floorQuot = d.quot - 1
		d.floorMod = d.rem + b
	}
	d.uquot, d.urem = divU32(uint32(a), uint32(b)), remU32(uint32(a), uint32(b))
	mag := func(x int32) uint32 {
		if x < 0 {
			return uint32(-int64(x))
		}
		return uint32(x)
	}
	x, y := mag(a), mag(b)
	for y != 0 {
		x, y = y, x%y
	}
	d.gcd = x
	return d
}

// gradient: x = 7t; stop i = clamp(i32(x), 0, 6) (i32 saturating);
// f = clamp(x - i, 0, 1); w = smoothstep(0, 1, f); color = mix(stop i,
// stop i+1, w) component-wise; out_stop = i.
func runGradient[F float](t testing.TB, tt F) []ir.Value {
	color, stop := nativeGradient(t, tt)
	return []ir.Value{vecF(color[:]...), u32v(stop)}
}

func nativeGradient[F float](t testing.TB, tt F) ([4]F, uint32) {
	stops := [8][4]F{
		{0, 0, 0, 1},
		{0.25, 0, 0.5, 1},
		{0.5, 0, 0.75, 1},
		{0.875, 0.125, 0.5, 1},
		{1, 0.375, 0.25, 1},
		{1, 0.625, 0, 1},
		{1, 0.875, 0.375, 1},
		{1, 1, 1, 0.5},
	}
	x := F(tt * 7)
	i := uint32(clampI32(toI32(t, x), 0, 6))
	f := clampF(x-F(i), 0, 1)
	w := smoothstep01(f)
	var c [4]F
	for k := range 4 {
		c[k] = mixF(stops[i][k], stops[i+1][k], w)
	}
	return c, i
}

// TestExactDetectsRounding shows that the float64 shadow catches an input
// outside the exact domain: t = 0.1 makes 7t round in f32, and the ramp
// colour with it.
func TestExactDetectsRounding(t *testing.T) {
	x := float32(0.1)
	assert.Error(t, agree(runGradient(t, x), runGradient(t, float64(x))))
	x = 0.5
	assert.NoError(t, agree(runGradient(t, x), runGradient(t, float64(x))))
}
