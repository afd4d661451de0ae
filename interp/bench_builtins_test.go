package interp

import (
	"math/rand"
	"testing"

	"github.com/gpudiff/gpudiff/internal/benchkit"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/require"
)

// intBuiltinKernel exercises the integer operators and builtins whose
// values come from ir/wgslsem, scalar and vec4, in a 64-iteration loop:
//
//	fn k(a: i32, b: u32, v: vec4<u32>) -> vec4<u32> {
//	  var s = a; var h = b; var w = v;
//	  for (var i = 0; i < 64; i++) {
//	    h = h + countOneBits(h ^ u32(i)) + firstLeadingBit(h) + reverseBits(h) % 7u;
//	    s = s / (i - 7) + extractBits(s, u32(i & 15), 8u) + firstLeadingBit(s)
//	        + clamp(s, -1000, 1000) + max(min(s, i), -i) + abs(s) + (s >> u32(i)) + (s % 5);
//	    w = insertBits(w, vec4<u32>(h), u32(i & 31), 5u) + min(w, vec4<u32>(h)) + firstTrailingBit(w);
//	  }
//	  return w + vec4<u32>(u32(s), h, 0u, 0u);
//	}
func intBuiltinKernel() *ir.Module {
	v4 := vecT(4, tU32)
	s := func() *ir.Ident { return local("s", tI32) }
	h := func() *ir.Ident { return local("h", tU32) }
	w := func() *ir.Ident { return local("w", v4) }
	i := func() *ir.Ident { return local("i", tI32) }
	add := func(x ir.Expr, ys ...ir.Expr) ir.Expr {
		for _, y := range ys {
			x = bin(ir.OpAdd, x, y)
		}
		return x
	}
	body := []ir.Stmt{
		assign(h(), add(h(),
			bi(ir.BCountOneBits, bin(ir.OpXor, h(), conv(tU32, i()))),
			bi(ir.BFirstLeadingBit, h()),
			bin(ir.OpRem, bi(ir.BReverseBits, h()), uL(7)))),
		assign(s(), add(bin(ir.OpDiv, s(), bin(ir.OpSub, i(), iL(7))),
			bi(ir.BExtractBits, s(), conv(tU32, bin(ir.OpAnd, i(), iL(15))), uL(8)),
			bi(ir.BFirstLeadingBit, s()),
			bi(ir.BClamp, s(), iL(-1000), iL(1000)),
			bi(ir.BMax, bi(ir.BMin, s(), i()), un(ir.OpNeg, i())),
			bi(ir.BAbs, s()),
			bin(ir.OpShr, s(), conv(tU32, i())),
			bin(ir.OpRem, s(), iL(5)))),
		assign(w(), add(bi(ir.BInsertBits, w(), construct(v4, h()), conv(tU32, bin(ir.OpAnd, i(), iL(31))), uL(5)),
			bi(ir.BMin, w(), construct(v4, h())),
			bi(ir.BFirstTrailingBit, w()))),
	}
	stmts := []ir.Stmt{
		varDecl("s", tI32, param("a", tI32)),
		varDecl("h", tU32, param("b", tU32)),
		varDecl("w", v4, param("v", v4)),
	}
	stmts = append(stmts, forLoop("i", 0, 64, body...)...)
	stmts = append(stmts, ret(bin(ir.OpAdd, w(), construct(v4, conv(tU32, s()), h(), uL(0), uL(0)))))
	return module(nil, fn("k", []P{{"a", tI32}, {"b", tU32}, {"v", v4}}, v4, stmts...))
}

// BenchmarkIntBuiltins runs intBuiltinKernel for 64 invocations per
// iteration and reports ns per executed IR operation and per invocation
// (as BenchmarkInterp), and the thread's CPU time per IR operation, which
// a loaded machine disturbs less: the cost of the integer builtin kernels.
func BenchmarkIntBuiltins(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	args := make([][]ir.Value, benchInvocations)
	for k := range args {
		args[k] = []ir.Value{iv(r.Int31() - 1<<30), uv(r.Uint32()),
			ir.CompositeVal(vecT(4, tU32), uv(r.Uint32()), uv(r.Uint32()), uv(r.Uint32()), uv(r.Uint32()))}
	}
	m := intBuiltinKernel()
	ops, err := CountOps(m, "k", args)
	require.NoError(b, err)
	p, err := Compile(m, "k")
	require.NoError(b, err)
	now, release := benchkit.ThreadClock()
	defer release()
	b.ReportAllocs()
	b.ResetTimer()
	t0 := now()
	for n := 0; n < b.N; n++ {
		if _, err := p.Run(args, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	cpu := float64((now() - t0).Nanoseconds()) / float64(b.N)
	ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(ns/float64(ops), "ns/IR-op")
	b.ReportMetric(cpu/float64(ops), "cpu-ns/IR-op")
	b.ReportMetric(ns/benchInvocations, "ns/invocation")
}
