package interp

import (
	"fmt"
	"math"
	"math/rand"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/internal/benchkit"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// benchKernel is a generated-like kernel: a bounded loop with branches,
// a continue, i32/u32 wrapping arithmetic, shifts, f32 and vec4<f32>
// arithmetic kept in the exact domain, conversions and a builtin:
//
//	fn k(a: i32, b: u32, c: f32, v: vec4<f32>) -> vec4<f32> {
//	  var acc = a; var h = b; var f = c; var w = v;
//	  for (var i = 0; i < 64; i++) {
//	    if ((acc & 1) == 0) { acc = (acc >> 1u) + i; } else { acc = acc * 3 + 1; }
//	    h = (h ^ (h << 13u)) * 5u + u32(i);
//	    h = h ^ (h >> 7u);
//	    if (f < 1000.0) { f = f + f32(i & 7); } else { f = f - 512.0; }
//	    w = clamp(w * 2.0 - vec4<f32>(f32(i)), vec4<f32>(-4096.0), vec4<f32>(4096.0));
//	    if (h % 3u == 0u) { continue; }
//	    w.x = w.x + f32(acc & 15);
//	  }
//	  return w + vec4<f32>(f32(acc & 255), f32(h & 255u), f, 1.0);
//	}
func benchKernel() *ir.Module {
	v4 := vecT(4, tF32)
	acc := func() *ir.Ident { return local("acc", tI32) }
	h := func() *ir.Ident { return local("h", tU32) }
	f := func() *ir.Ident { return local("f", tF32) }
	w := func() *ir.Ident { return local("w", v4) }
	i := func() *ir.Ident { return local("i", tI32) }
	body := []ir.Stmt{
		ifElse(bin(ir.OpEq, bin(ir.OpAnd, acc(), iL(1)), iL(0)),
			[]ir.Stmt{assign(acc(), bin(ir.OpAdd, bin(ir.OpShr, acc(), uL(1)), i()))},
			[]ir.Stmt{assign(acc(), bin(ir.OpAdd, bin(ir.OpMul, acc(), iL(3)), iL(1)))}),
		assign(h(), bin(ir.OpAdd, bin(ir.OpMul, bin(ir.OpXor, h(), bin(ir.OpShl, h(), uL(13))), uL(5)), conv(tU32, i()))),
		assign(h(), bin(ir.OpXor, h(), bin(ir.OpShr, h(), uL(7)))),
		ifElse(bin(ir.OpLt, f(), fL(1000)),
			[]ir.Stmt{assign(f(), bin(ir.OpAdd, f(), conv(tF32, bin(ir.OpAnd, i(), iL(7)))))},
			[]ir.Stmt{assign(f(), bin(ir.OpSub, f(), fL(512)))}),
		assign(w(), bi(ir.BClamp, bin(ir.OpSub, bin(ir.OpMul, w(), fL(2)), construct(v4, conv(tF32, i()))),
			construct(v4, fL(-4096)), construct(v4, fL(4096)))),
		if_(bin(ir.OpEq, bin(ir.OpRem, h(), uL(3)), uL(0)), cont()),
		assign(swz(w(), 0), bin(ir.OpAdd, swz(w(), 0), conv(tF32, bin(ir.OpAnd, acc(), iL(15))))),
	}
	stmts := []ir.Stmt{
		varDecl("acc", tI32, param("a", tI32)),
		varDecl("h", tU32, param("b", tU32)),
		varDecl("f", tF32, param("c", tF32)),
		varDecl("w", v4, param("v", v4)),
	}
	stmts = append(stmts, forLoop("i", 0, 64, body...)...)
	stmts = append(stmts, ret(bin(ir.OpAdd, w(), construct(v4,
		conv(tF32, bin(ir.OpAnd, acc(), iL(255))), conv(tF32, bin(ir.OpAnd, h(), uL(255))), f(), fL(1)))))
	return module(nil, fn("k", []P{{"a", tI32}, {"b", tU32}, {"c", tF32}, {"v", v4}}, v4, stmts...))
}

type benchInput struct {
	a int32
	b uint32
	c float32
	v [4]float32
}

func benchInputs(n int) ([]benchInput, [][]ir.Value) {
	r := rand.New(rand.NewSource(1))
	var ins []benchInput
	var args [][]ir.Value
	for k := 0; k < n; k++ {
		in := benchInput{a: r.Int31() - 1<<30, b: r.Uint32(), c: float32(r.Intn(2000) - 1000)}
		vs := make([]ir.Value, 4)
		for j := range in.v {
			in.v[j] = float32(r.Intn(8000) - 4000)
			vs[j] = fvv(in.v[j])
		}
		ins = append(ins, in)
		args = append(args, []ir.Value{iv(in.a), uv(in.b), fvv(in.c), ir.CompositeVal(vecT(4, tF32), vs...)})
	}
	return ins, args
}

func TestBenchKernelMatchesNativeGo(t *testing.T) {
	ins, args := benchInputs(200)
	invs, err := Run(benchKernel(), "k", args, Options{})
	require.NoError(t, err)
	for k, inv := range invs {
		require.NoError(t, inv.Err)
		o := inv.Outputs[0]
		require.True(t, exact(o), desc(o))
		want := benchkit.Native(ins[k].a, ins[k].b, ins[k].c, ins[k].v)
		for j := range want {
			assert.Equal(t, want[j], o.Value.Elems[j].F32(), "invocation %d lane %d", k, j)
		}
	}
}

const benchInvocations = 64

// BenchmarkInterp runs benchKernel for 64 invocations per iteration and
// reports ns per executed IR operation (statements executed and non-leaf
// expressions evaluated, counted in a separate instrumented run) and ns
// per invocation; the "native" sub-benchmark runs the same kernel written
// in Go, for the ratio.
func BenchmarkInterp(b *testing.B) {
	ins, args := benchInputs(benchInvocations)
	m := benchKernel()
	counted, err := compile(m, "k", compileOpts{countOps: true})
	require.NoError(b, err)
	fr := counted.getFrame()
	ops := int64(0)
	for _, a := range args {
		counted.invoke(fr, a, DefaultMaxSteps)
		ops += fr.ops
		fr.ops = 0
	}
	b.Run("interp", func(b *testing.B) {
		p, err := Compile(m, "k")
		require.NoError(b, err)
		b.ReportAllocs()
		b.ResetTimer()
		for n := 0; n < b.N; n++ {
			if _, err := p.Run(args, Options{}); err != nil {
				b.Fatal(err)
			}
		}
		ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		b.ReportMetric(ns/float64(ops), "ns/IR-op")
		b.ReportMetric(ns/benchInvocations, "ns/invocation")
		b.ReportMetric(float64(ops)/benchInvocations, "IR-ops/invocation")
	})
	// ratio alternates the two in every iteration and measures the
	// thread's CPU time, so that the load of a shared machine affects
	// neither.
	b.Run("ratio", func(b *testing.B) {
		p, err := Compile(m, "k")
		require.NoError(b, err)
		var ti, tn time.Duration
		its, nts := alternateWithNative(b, p, args, ins)
		for k := range its {
			ti, tn = ti+its[k], tn+nts[k]
		}
		b.ReportMetric(float64(ti)/float64(tn), "interp/native")
		b.ReportMetric(float64(ti.Nanoseconds())/float64(b.N)/float64(ops), "cpu-ns/IR-op")
		b.ReportMetric(float64(tn.Nanoseconds())/float64(b.N)/float64(ops), "native-cpu-ns/IR-op")
	})
	b.Run("native", func(b *testing.B) {
		var sink [4]float32
		for n := 0; n < b.N; n++ {
			for _, in := range ins {
				r := benchkit.Native(in.a, in.b, in.c, in.v)
				sink[0] += r[0]
			}
		}
		ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		b.ReportMetric(ns/float64(ops), "ns/IR-op")
		b.ReportMetric(ns/benchInvocations, "ns/invocation")
		_ = sink
	})
}

// BenchmarkCompile measures Compile (ir.Verify included) of benchKernel.
func BenchmarkCompile(b *testing.B) {
	m := benchKernel()
	b.ReportAllocs()
	for n := 0; n < b.N; n++ {
		if _, err := Compile(m, "k"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCountOpsCountsWhatTheBenchmarkCounts(t *testing.T) {
	_, args := benchInputs(4)
	n, err := CountOps(benchKernel(), "k", args)
	require.NoError(t, err)
	// Per invocation: 64 iterations of about 30 operations.
	assert.Greater(t, n, int64(4*64*20))
	assert.Less(t, n, int64(4*64*60))
}

// stepKernel has each control transfer into a block that the
// interpreter's fused step checks handle (code.go, execAt's enter): if and
// else, continue, break, switch clauses, a loop with a continuing block,
// a while loop.
const stepKernel = `
fn k(n: i32) -> i32 {
  var s = 0;
  for (var i = 0; i < n; i++) {
    if ((i & 1) == 0) { s += i; } else { continue; }
    switch (i % 3) { case 0: { s ^= 5; } default: { } }
    var j = 0;
    loop { if (j >= i) { break; } j += 2; continuing { s += 1; } }
  }
  while (s > 100) { s -= 7; }
  return s;
}
`

// TestStepLimitCountingIsPinned pins the step limit's behaviour: for
// every limit from 1 to 89, whether k(5) ends, and where the step-limit
// error is reported, as the transitions "limit:position" of that
// sequence; and the least limit under which each invocation ends. The
// expected values are those of the interpreter before its step checks
// were fused into control transfers (commit 82500c9: every block's
// opSteps dispatched on its own), which the fusion must not change: a
// block counts its statements when it is entered, a loop one step per
// iteration, and the check reports the block's first statement, or the
// innermost loop inside one (stmt.go). The first transitions follow by
// hand: limits 1–3 fail at k's first statement (3:3; k's body has 4
// statements, counted on entry: var s, the for statement, the while
// statement, return), 4–5 at the for statement's block (4:8: var i and
// the loop), and from 6 on, the first iteration's step, in the loop
// (4:3).
func TestStepLimitCountingIsPinned(t *testing.T) {
	m, err := wgsl.Parse("steps.wgsl", []byte(stepKernel))
	require.NoError(t, err)
	p, err := Compile(m, "k")
	require.NoError(t, err)
	var got []string
	last := ""
	for limit := int64(1); limit < 90; limit++ {
		invs, err := p.Run([][]ir.Value{{iv(5)}}, Options{MaxSteps: limit})
		require.NoError(t, err)
		e := "ok"
		if invs[0].Err != nil {
			e = strings.TrimSuffix(strings.TrimPrefix(invs[0].Err.Error(), "steps.wgsl:"),
				fmt.Sprintf(": interp: step limit of %d exceeded (the kernel may not terminate)", limit))
		}
		if e != last {
			got = append(got, fmt.Sprintf("%d:%s", limit, e))
			last = e
		}
	}
	assert.Equal(t, "1:3:3 4:4:8 6:4:3 14:8:5 17:4:3 34:8:5 41:4:3 58:8:5 69:4:3 77:10:3 81:ok", strings.Join(got, " "))

	least := func(p *Program, args []ir.Value) int64 {
		lo, hi := int64(1), int64(1<<20) // k fails under lo (or lo is 1), ends under hi
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			invs, err := p.Run([][]ir.Value{args}, Options{MaxSteps: mid})
			require.NoError(t, err)
			if invs[0].Err == nil {
				hi = mid
			} else {
				lo = mid
			}
		}
		return hi
	}
	for n, want := range map[int32]int64{0: 16, 1: 29, 2: 37, 5: 81, 9: 150, 40: 1387} {
		assert.Equal(t, want, least(p, []ir.Value{iv(n)}), "k(%d)", n)
	}
	bm, err := wgsl.Parse("bench.wgsl", []byte(benchkit.KernelWGSL))
	require.NoError(t, err)
	bp, err := Compile(bm, "k")
	require.NoError(t, err)
	_, args := benchInputs(3)
	for k, want := range []int64{805, 809, 810} {
		assert.Equal(t, want, least(bp, args[k]), "benchmark kernel, invocation %d", k)
	}
}

// laneKernels exercise the lane-wise f32 fast paths (code.go: opAddFV,
// opMulFV, opClampFV), with constant operands (whose checks the fast
// paths skip: goodB) and run-time ones.
const laneKernels = `
fn mulK(v: vec4<f32>, s: f32) -> vec4<f32> { return v * 2.0; }
fn mulV(v: vec4<f32>, s: f32) -> vec4<f32> { return v * vec4<f32>(3.0, 0.5, 1e-30, -7.0); }
fn mulS(v: vec4<f32>, s: f32) -> vec4<f32> { return v * s; }
fn subS(v: vec4<f32>, s: f32) -> vec4<f32> { return v - vec4<f32>(s); }
fn addK(v: vec4<f32>, s: f32) -> vec4<f32> { return v + vec4<f32>(1.5, -2.0, 0.25, 3e38); }
fn clampK(v: vec4<f32>, s: f32) -> vec4<f32> { return clamp(v, vec4<f32>(-3.5, -1.0, 0.0, -0.0), vec4<f32>(3.5, 1.0, 0.0, 9.0)); }
fn clampV(v: vec4<f32>, s: f32) -> vec4<f32> { return clamp(v, vec4<f32>(s), vec4<f32>(5.0)); }
`

// TestLaneFastPathsMatchTheGeneralKernels cross-checks the lane-wise f32
// fast paths against the general kernels (IEEE-754 with WGSL's accuracy
// and flushing rules, f32.go), which a countOps compilation runs for
// every operation (emitI): on operands that are zero, signed zero,
// subnormal, huge, odd-significand, non-finite (indeterminate arguments)
// and random, both must give the same invocation, value bits, marks,
// tolerances and reasons included.
func TestLaneFastPathsMatchTheGeneralKernels(t *testing.T) {
	m, err := wgsl.Parse("lanes.wgsl", []byte(laneKernels))
	require.NoError(t, err)
	pool := []float32{0, float32(math.Copysign(0, -1)), 1, -1.5, 3, 4096, -4095.5, 1.0000001, 16777215, 3e38, -3e38,
		math.Float32frombits(1), math.Float32frombits(0x807fffff), math.SmallestNonzeroFloat32 * 1e6, 0x1p-126,
		float32(math.Inf(1)), float32(math.NaN()), 0.1, -7.25, 5, 4, -4}
	r := rand.New(rand.NewSource(2))
	pick := func() float32 {
		if r.Intn(4) == 0 {
			return math.Float32frombits(r.Uint32())
		}
		return pool[r.Intn(len(pool))]
	}
	var args [][]ir.Value
	for k := 0; k < 400; k++ {
		vs := make([]ir.Value, 4)
		for j := range vs {
			vs[j] = fvv(pick())
		}
		args = append(args, []ir.Value{ir.CompositeVal(vecT(4, tF32), vs...), fvv(pick())})
	}
	requireFastMatchesGeneral(t, m, []string{"mulK", "mulV", "mulS", "subS", "addK", "clampK", "clampV"}, args)
}

// intKernels exercise the integer instructions with a constant operand
// (opAddK …, opBrEqK …), and i32 → f32 conversions into f32
// instructions, on operands that may be indeterminate (i32(f) of a
// non-finite f) or beyond 2^24.
const intKernels = `
fn ia(a: i32, b: u32, f: f32) -> i32 { let x = a + i32(f); return ((((x + 5) * -3) ^ (7 & x)) | (x >> 3u)) + (x << 31u); }
fn ib(a: i32, b: u32, f: f32) -> u32 { let y = b + u32(f); return ((y >> 7u) ^ (y << 13u)) % 3u + y / 5u + (7u * y) + (y >> 31u); }
fn ic(a: i32, b: u32, f: f32) -> i32 {
  let x = a + i32(f);
  var r = 0;
  if (x < -4) { r += 1; }
  if (x >= 100) { r += 2; }
  if (x == -1) { r += 4; }
  if (x != 0) { r += 8; }
  if (b > 3000000000u) { r += 16; }
  if (b <= 5u) { r += 32; }
  if (x > -2147483647) { r += 64; }
  if (x <= 7) { r += 128; }
  return r;
}
fn fa(a: i32, b: u32, f: f32) -> f32 { let x = a + i32(f); return (f + f32(x)) * f32(x >> 4u); }
fn fv(a: i32, b: u32, f: f32) -> vec4<f32> {
  let x = a + i32(f);
  return vec4<f32>(f, 1.5, -2.0, 3e38) * vec4<f32>(f32(x)) - vec4<f32>(f32(x & 255));
}
fn it(a: i32, b: u32, f: f32) -> i32 {
  let x = a + i32(f);
  var r = 0;
  if ((x & 3) == 0) { r += 1; }
  if ((b & 8u) != 0u) { r += 2; }
  if (b % 3u == 0u) { r += 4; }
  if (u32(x) % 5u != 0u) { r += 8; } else { r -= 1; }
  for (var i = 0; i < (x & 7); i += 2) { r += i; }
  for (var i = 0; i < 3; i++) {
    if ((i & 1) != 0) { continue; }
    r ^= i;
  }
  var h = b ^ u32(x);
  h = (h ^ (h << 13u)) * 5u + u32(r);
  h = (h >> 7u) ^ h;
  r += i32(f32(r & 1023)) + i32(h * 3u + 7u);
  return r;
}
fn fs(a: i32, b: u32, f: f32) -> vec4<f32> {
  return vec4<f32>(bitcast<f32>(b), bitcast<f32>(b ^ 0x3f800000u), f32(a), f) * 2.0;
}
fn fs2(a: i32, b: u32, f: f32) -> vec4<f32> {
  return 0.25 * vec4<f32>(bitcast<f32>(b), bitcast<f32>(b | 0x00800000u), -0.0, f);
}
// wy, wy2: both operands of a fused pair indeterminate for different
// reasons (sqrt and log of negatives): the result's reason is its first
// operand's in the second instruction's order (one function each: an
// Output names the reason of its first indeterminate leaf only).
fn wy(a: i32, b: u32, f: f32) -> u32 {
  let p = u32(sqrt(f - 10.0));
  let q = u32(log(f - 20.0));
  return p ^ (q << 3u);
}
fn wy2(a: i32, b: u32, f: f32) -> u32 {
  let p = u32(sqrt(f - 10.0));
  let q = u32(log(f - 20.0));
  return q * 5u + p;
}
fn fc(a: i32, b: u32, f: f32) -> vec4<f32> {
  let v = vec4<f32>(f32(a >> 9u), f32(a & 255), f, f32(a >> 20u));
  return clamp(v + vec4<f32>(f32(a >> 12u)), vec4<f32>(-4096.0), vec4<f32>(4096.0));
}
fn fc2(a: i32, b: u32, f: f32) -> vec4<f32> {
  let v = vec4<f32>(f32(a >> 8u), f, bitcast<f32>((b & 0x007fffffu) | 0x00800000u), f32(a & 7));
  return clamp(v - vec4<f32>(-2.5, f32(a >> 10u), 2.3509887e-38, 3.0), vec4<f32>(-1e30, -1.0, 0.0, -3.0), vec4<f32>(1e30, 1.0, 2.0, -1.0));
}
fn fc3(a: i32, b: u32, f: f32) -> vec3<f32> {
  let v = vec3<f32>(bitcast<f32>(b), f32(a), f);
  return clamp(v * vec3<f32>(0.75, f, -3.0) + v, vec3<f32>(-4096.0), vec3<f32>(4096.0));
}
fn fs3(a: i32, b: u32, f: f32) -> vec3<f32> {
  return vec3<f32>(bitcast<f32>(b & 0xbfffffffu)) * -8.0 + vec3<f32>(bitcast<f32>(b | 0x7e000000u), f, 1.0) * 0.5;
}
`

// TestIntConstantInstructionsMatchTheGeneralOnes cross-checks the integer
// instructions with a constant operand, and the conversions' fast path,
// against the general ones, which a
// countOps compilation uses (WGSL #arithmetic-expr via wgslsem, and the
// branches' fork or poison on an indeterminate condition): the same
// invocations, marks and reasons included.
func TestIntConstantInstructionsMatchTheGeneralOnes(t *testing.T) {
	m, err := wgsl.Parse("ints.wgsl", []byte(intKernels))
	require.NoError(t, err)
	r := rand.New(rand.NewSource(4))
	ints := []int32{0, 1, -1, -4, -5, 5, 99, 100, 7, 8, -2147483647, -2147483648, 2147483647}
	uints := []uint32{0, 5, 6, 3000000000, 3000000001, 1 << 31, 0xffffffff}
	floats := []float32{0, 1, -1, float32(math.Inf(-1)), float32(math.NaN()), 3e9, 0.5}
	var args [][]ir.Value
	for k := 0; k < 300; k++ {
		a, b, f := r.Int31()-r.Int31(), r.Uint32(), float32(0)
		if k%2 == 0 {
			a, b = ints[r.Intn(len(ints))], uints[r.Intn(len(uints))]
		}
		if k%3 == 0 {
			f = floats[r.Intn(len(floats))]
		}
		args = append(args, []ir.Value{iv(a), uv(b), fvv(f)})
	}
	requireFastMatchesGeneral(t, m, []string{"ia", "ib", "ic", "fa", "fv", "it", "fs", "fs2", "fs3", "fc", "fc2", "fc3", "wy", "wy2"}, args)
}

// TestClampBitsIsClampInF32: the branch-free clampBits selects as
// clamp(x, lo, hi) = min(max(x, lo), hi) compared in f32 (WGSL
// #clamp-builtin), keeping the bits of the operand selected: x when
// neither bound passes it (so clamp(-0.0, 0.0, 1.0) is -0.0), else the
// bound.
func TestClampBitsIsClampInF32(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	zero, negZero := uint32(0), uint32(0x80000000)
	assert.Equal(t, negZero, clampBits(negZero, zero, math.Float32bits(1)))
	assert.Equal(t, zero, clampBits(zero, negZero, negZero))
	for k := 0; k < 100000; k++ {
		v := [3]uint32{}
		for j := range v {
			v[j] = r.Uint32()
			if r.Intn(3) == 0 {
				v[j] = math.Float32bits(float32(r.Intn(9) - 4))
			}
			if nonFinite(v[j]) {
				v[j] = 0
			}
		}
		x, lo, hi := v[0], v[1], v[2]
		if f32bits(hi) < f32bits(lo) {
			lo, hi = hi, lo
		}
		want := x
		if f32bits(x) < f32bits(lo) {
			want = lo
		} else if f32bits(hi) < f32bits(x) {
			want = hi
		}
		require.Equal(t, want, clampBits(x, lo, hi), "clamp(%g, %g, %g)", f32bits(x), f32bits(lo), f32bits(hi))
	}
}

// BenchmarkInterpRowD is `make bench`'s row (d) alone, without the GPU
// parts (campaign's benchInterp, the same method): benchkit.KernelWGSL
// parsed from WGSL, 64 invocations per run, each run of Program.Run
// alternated with the same work in native Go, the thread's CPU time of
// each; it reports the median run's interpreter nanoseconds per executed
// IR operation (CountOps), native Go's, their ratio (the target is
// ≤ 10) and the IR operations of one run. b.N is the number of run pairs
// (-benchtime 2000x: about a second).
func BenchmarkInterpRowD(b *testing.B) {
	m, err := wgsl.Parse("bench.wgsl", []byte(benchkit.KernelWGSL))
	require.NoError(b, err)
	ins, args := benchInputs(benchInvocations)
	ops, err := CountOps(m, "k", args)
	require.NoError(b, err)
	p, err := Compile(m, "k")
	require.NoError(b, err)
	its, nts := alternateWithNative(b, p, args, ins)
	slices.Sort(its)
	slices.Sort(nts)
	ti, tn := float64(its[len(its)/2].Nanoseconds()), float64(nts[len(nts)/2].Nanoseconds())
	b.ReportMetric(ti/float64(ops), "cpu-ns/IR-op")
	b.ReportMetric(tn/float64(ops), "native-cpu-ns/IR-op")
	b.ReportMetric(ti/tn, "interp/native")
	b.ReportMetric(float64(ops), "IR-ops/run")
}

// alternateWithNative runs p on args and the same invocations in native
// Go (benchkit.Native on ins) b.N times, one after the other, and returns
// the thread's CPU time of each run of each (alternating them, so that
// the load of a shared machine affects neither more).
func alternateWithNative(b *testing.B, p *Program, args [][]ir.Value, ins []benchInput) (its, nts []time.Duration) {
	now, release := benchkit.ThreadClock()
	defer release()
	its, nts = make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
	var sink float32
	for n := 0; n < b.N; n++ {
		t0 := now()
		if _, err := p.Run(args, Options{}); err != nil {
			b.Fatal(err)
		}
		t1 := now()
		for _, in := range ins {
			r := benchkit.Native(in.a, in.b, in.c, in.v)
			sink += r[0]
		}
		t2 := now()
		its, nts = append(its, t1-t0), append(nts, t2-t1)
	}
	runtime.KeepAlive(sink)
	return its, nts
}

// TestFusedPairsAreCompiled: the kernel `it` of intKernels, which
// TestIntConstantInstructionsMatchTheGeneralOnes runs fused against the
// general instructions (a countOps compilation fuses nothing), holds each
// pair opcode (fuse.go), so that cross-check covers them; and a pair's
// second instruction is never a jump target. Likewise fc and fc2 hold
// opAddFVClampFV (a scalar and a vector addend), and fs, fs2 and fs3
// opScaleFV (a vector times a constant ±2^k, on either side; four lanes
// and three).
func TestFusedPairsAreCompiled(t *testing.T) {
	m, err := wgsl.Parse("ints.wgsl", []byte(intKernels))
	require.NoError(t, err)
	p, err := Compile(m, "it")
	require.NoError(t, err)
	body := p.kernel.body
	seen := map[opcode]int{}
	targets := map[int32]bool{}
	for _, in := range body {
		if opInfos[in.op].jumps() {
			targets[in.d] = true
		}
	}
	for pc, in := range body {
		if opInfos[in.op].pair {
			seen[in.op]++
			assert.False(t, targets[int32(pc+1)], "instruction %d, the second of a pair, is a jump target", pc+1)
		}
	}
	for _, op := range []opcode{opAndKBrEqK, opAndKBrNeK, opRemUKBrEqK, opRemUKBrNeK, opAddKLoopBack,
		opShlKXor, opShrUKXor, opAndKI2F, opMulKAdd, opMulKAddK} {
		assert.Positive(t, seen[op], "pair opcode %d", op)
	}
	counted, err := compile(m, "it", compileOpts{countOps: true})
	require.NoError(t, err)
	for _, in := range counted.kernel.body {
		assert.False(t, opInfos[in.op].pair, "a countOps compilation fuses nothing")
	}
	for _, name := range []string{"fc", "fc2"} {
		p, err := Compile(m, name)
		require.NoError(t, err)
		n := 0
		for _, in := range p.kernel.body {
			if in.op == opAddFVClampFV {
				n++
			}
		}
		assert.Equal(t, 1, n, "%s: opAddFVClampFV instructions", name)
	}
	for name, lanes := range map[string][]uint32{"fs": {4}, "fs2": {4}, "fs3": {3, 3}} {
		p, err := Compile(m, name)
		require.NoError(t, err)
		var got []uint32
		for _, in := range p.kernel.body {
			if in.op == opScaleFV {
				got = append(got, in.x&7)
			}
		}
		assert.Equal(t, lanes, got, "%s: the lanes of its opScaleFV instructions", name)
	}
}

// requireFastMatchesGeneral runs each function of names on args compiled
// as the interpreter runs it (fast paths, fused pairs) and as a countOps
// compilation does (every operation its general kernel, nothing fused),
// and requires the same invocations, value bits, marks, tolerances and
// reasons included.
func requireFastMatchesGeneral(t *testing.T, m *ir.Module, names []string, args [][]ir.Value) {
	t.Helper()
	for _, name := range names {
		fast, err := Compile(m, name)
		require.NoError(t, err)
		general, err := compile(m, name, compileOpts{countOps: true})
		require.NoError(t, err)
		want, err := general.Run(args, Options{})
		require.NoError(t, err)
		got, err := fast.Run(args, Options{})
		require.NoError(t, err)
		for k := range args {
			require.Equal(t, want[k], got[k], "%s%v", name, args[k])
		}
	}
}
