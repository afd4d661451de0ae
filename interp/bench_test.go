package interp

import (
	"math/rand"
	"testing"
	"time"

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
		now, release := benchkit.ThreadClock()
		defer release()
		var ti, tn time.Duration
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
			ti += t1 - t0
			tn += t2 - t1
		}
		b.ReportMetric(float64(ti)/float64(tn), "interp/native")
		b.ReportMetric(float64(ti.Nanoseconds())/float64(b.N)/float64(ops), "cpu-ns/IR-op")
		b.ReportMetric(float64(tn.Nanoseconds())/float64(b.N)/float64(ops), "native-cpu-ns/IR-op")
		_ = sink
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
