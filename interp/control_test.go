package interp

import (
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func global(name string, t *ir.Type, init ir.Expr) *ir.Global {
	return &ir.Global{Name: name, T: t, Init: init}
}

// outputs runs kernel once and returns its outputs by ABI name.
func outputs(t *testing.T, m *ir.Module, kernel string, args ...ir.Value) map[string]Output {
	t.Helper()
	p, err := Compile(m, kernel)
	require.NoError(t, err)
	invs, err := p.Run([][]ir.Value{args}, Options{})
	require.NoError(t, err)
	require.NoError(t, invs[0].Err)
	out := map[string]Output{}
	for i, f := range p.ABI().Outputs {
		out[f.Name] = invs[0].Outputs[i]
	}
	return out
}

func TestSelectOnVectorsPicksPerLane(t *testing.T) {
	v3 := vecT(3, tI32)
	e := sel(param("f", v3), param("t", v3), param("c", vecT(3, tBool)))
	m := exprKernel(e, P{"f", v3}, P{"t", v3}, P{"c", vecT(3, tBool)})
	o := retOf(t, m, "k", vecV(tI32, iv(1), iv(2), iv(3)), vecV(tI32, iv(4), iv(5), iv(6)), vecV(tBool, bv(true), bv(false), bv(true)))
	assert.True(t, exact(o))
	assert.True(t, ir.Equal(vecV(tI32, iv(4), iv(2), iv(6)), o.Value), "%v", o.Value)

	// A scalar condition selects whole vectors.
	e = sel(param("f", v3), param("t", v3), param("c", tBool))
	m = exprKernel(e, P{"f", v3}, P{"t", v3}, P{"c", tBool})
	o = retOf(t, m, "k", vecV(tI32, iv(1), iv(2), iv(3)), vecV(tI32, iv(4), iv(5), iv(6)), bv(false))
	assert.True(t, ir.Equal(vecV(tI32, iv(1), iv(2), iv(3)), o.Value), "%v", o.Value)
}

// effModule: var<private> g: i32; fn eff() -> bool { g = g + 1; return true; }
// fn k(a: bool) -> i32 { if (a OP eff()) { return 10 + g; } return g; }
func effModule(op ir.BinaryOp) *ir.Module {
	g := func() *ir.Ident { return glob("g", tI32) }
	eff := fn("eff", nil, tBool, assign(g(), bin(ir.OpAdd, g(), iL(1))), ret(bL(true)))
	k := fn("k", []P{{"a", tBool}}, tI32,
		if_(bin(op, param("a", tBool), call("eff", tBool)), ret(bin(ir.OpAdd, iL(10), g()))),
		ret(g()))
	return module([]*ir.Global{global("g", tI32, nil)}, eff, k)
}

func TestShortCircuitSkipsCallThatWritesGlobal(t *testing.T) {
	for _, tc := range []struct {
		name    string
		op      ir.BinaryOp
		a       bool
		ret, gv int32
	}{
		{"false && eff() does not call eff", ir.OpLogAnd, false, 0, 0},
		{"true && eff() calls eff", ir.OpLogAnd, true, 11, 1},
		{"true || eff() does not call eff", ir.OpLogOr, true, 10, 0},
		{"false || eff() calls eff", ir.OpLogOr, false, 11, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := effModule(tc.op)
			require.NoError(t, ir.Normalize(m))
			out := outputs(t, m, "k", bv(tc.a))
			assert.Equal(t, tc.ret, out["ret"].Value.I32())
			assert.Equal(t, tc.gv, out["g"].Value.I32())
		})
	}
}

func TestShortCircuitIgnoresUndecidingRightOperand(t *testing.T) {
	// a && (arr[i] > 0) with i out of bounds: when a is false the
	// indeterminate right operand does not matter.
	arr := ir.ArrayOf(tI32, 2)
	e := bin(ir.OpLogAnd, param("a", tBool), bin(ir.OpGt, idx(param("arr", arr), param("i", tI32)), iL(0)))
	m := exprKernel(e, P{"a", tBool}, P{"arr", arr}, P{"i", tI32})
	arrV := ir.CompositeVal(arr, iv(1), iv(1))
	o := retOf(t, m, "k", bv(false), arrV, iv(9))
	assert.True(t, exact(o), desc(o))
	assert.False(t, o.Value.Bool())
	o = retOf(t, m, "k", bv(true), arrV, iv(9))
	assert.True(t, indeterminate(o), desc(o))
}

func TestSwitchWithDefaultInTheMiddle(t *testing.T) {
	r := func() *ir.Ident { return local("r", tI32) }
	sw := &ir.Switch{Selector: param("x", tI32), Cases: []*ir.Case{
		{Values: []ir.Value{iv(1)}, Body: block(assign(r(), iL(10)))},
		{Values: []ir.Value{iv(2)}, Default: true, Body: block(assign(r(), iL(20)))},
		{Values: []ir.Value{iv(3), iv(4)}, Body: block(assign(r(), iL(30)), brk())},
	}}
	m := module(nil, fn("k", []P{{"x", tI32}}, tI32, varDecl("r", tI32, nil), sw, ret(r())))
	for x, want := range map[int32]int32{1: 10, 2: 20, 3: 30, 4: 30, 7: 20, -1: 20} {
		assert.Equal(t, want, retOf(t, m, "k", iv(x)).Value.I32(), "x = %d", x)
	}
}

func TestBreakInSwitchLeavesOnlyTheSwitch(t *testing.T) {
	// for (i = 0; i < 4; i++) { switch (i) { case 1: { break; } default: {} } s += i; }
	s := func() *ir.Ident { return local("s", tI32) }
	i := func() *ir.Ident { return local("i", tI32) }
	sw := &ir.Switch{Selector: i(), Cases: []*ir.Case{
		{Values: []ir.Value{iv(1)}, Body: block(brk())},
		{Default: true, Body: block()},
	}}
	body := []ir.Stmt{varDecl("s", tI32, iL(0))}
	body = append(body, forLoop("i", 0, 4, sw, opAssign(ir.OpAdd, s(), i()))...)
	body = append(body, ret(s()))
	m := module(nil, fn("k", nil, tI32, body...))
	assert.Equal(t, int32(0+1+2+3), retOf(t, m, "k").Value.I32())
}

func TestLoopWithContinuingAndBreakIf(t *testing.T) {
	// var i = 0; var s = 0;
	// loop { if (i % 2 == 1) { continue; } s += i;
	//        continuing { i += 1; break if i >= n; } }
	i := func() *ir.Ident { return local("i", tI32) }
	s := func() *ir.Ident { return local("s", tI32) }
	l := loop(
		[]ir.Stmt{if_(bin(ir.OpEq, bin(ir.OpRem, i(), iL(2)), iL(1)), cont()), opAssign(ir.OpAdd, s(), i())},
		[]ir.Stmt{opAssign(ir.OpAdd, i(), iL(1))},
		bin(ir.OpGe, i(), param("n", tI32)))
	m := module(nil, fn("k", []P{{"n", tI32}}, tI32, varDecl("i", tI32, iL(0)), varDecl("s", tI32, iL(0)), l, ret(s())))
	// n = 5: i = 0, 2, 4 are added (1 and 3 continue to continuing).
	assert.Equal(t, int32(6), retOf(t, m, "k", iv(5)).Value.I32())
	// The body runs once before break-if is first tested.
	assert.Equal(t, int32(0), retOf(t, m, "k", iv(-3)).Value.I32())
}

func TestLoopDeclarationsAreReinitializedEachIteration(t *testing.T) {
	// for (i = 0; i < 3; i++) { var t: i32; t += 1; s += t; } → 3
	s := func() *ir.Ident { return local("s", tI32) }
	tt := func() *ir.Ident { return local("t", tI32) }
	body := []ir.Stmt{varDecl("s", tI32, iL(0))}
	body = append(body, forLoop("i", 0, 3, varDecl("t", tI32, nil), opAssign(ir.OpAdd, tt(), iL(1)), opAssign(ir.OpAdd, s(), tt()))...)
	body = append(body, ret(s()))
	assert.Equal(t, int32(3), retOf(t, module(nil, fn("k", nil, tI32, body...)), "k").Value.I32())
}

func TestEarlyReturnFromNestedLoops(t *testing.T) {
	// for i in 0..10 { for j in 0..10 { if (i * j == n) { return i*100 + j; } } } return -1;
	i, j := local("i", tI32), local("j", tI32)
	inner := forLoop("j", 0, 10, if_(bin(ir.OpEq, bin(ir.OpMul, i, j), param("n", tI32)),
		ret(bin(ir.OpAdd, bin(ir.OpMul, i, iL(100)), j))))
	body := append(forLoop("i", 0, 10, inner...), ret(iL(-1)))
	m := module(nil, fn("k", []P{{"n", tI32}}, tI32, body...))
	for n, want := range map[int32]int32{12: 206, 0: 0, 97: -1, 81: 909, 7: 107} {
		assert.Equal(t, want, retOf(t, m, "k", iv(n)).Value.I32(), "n = %d", n)
	}
}

func TestPrivateGlobalsResetPerInvocation(t *testing.T) {
	// var<private> g: i32 = 5; var<private> h: vec2<i32>;
	// fn k(a: i32) -> i32 { g = g + a; h.y += a; return g; }
	g := glob("g", tI32)
	h := glob("h", vecT(2, tI32))
	m := module([]*ir.Global{global("g", tI32, iL(5)), global("h", vecT(2, tI32), nil), global("unused", tI32, iL(1))},
		fn("k", []P{{"a", tI32}}, tI32,
			assign(g, bin(ir.OpAdd, g, param("a", tI32))),
			opAssign(ir.OpAdd, swz(h, 1), param("a", tI32)),
			ret(g)))
	p, err := Compile(m, "k")
	require.NoError(t, err)
	names := []string{}
	for _, f := range p.ABI().Outputs {
		names = append(names, f.Name)
	}
	require.Equal(t, []string{"ret", "g", "h"}, names, "outputs are ret then the globals used")
	invs, err := p.Run([][]ir.Value{{iv(1)}, {iv(2)}, {iv(3)}}, Options{})
	require.NoError(t, err)
	for i, inv := range invs {
		a := int32(i + 1)
		require.NoError(t, inv.Err)
		assert.Equal(t, 5+a, inv.Outputs[0].Value.I32())
		assert.Equal(t, 5+a, inv.Outputs[1].Value.I32())
		assert.True(t, ir.Equal(vecV(tI32, iv(0), iv(a)), inv.Outputs[2].Value), "%v", inv.Outputs[2].Value)
	}
}

// bumpModule: var<private> g: i32 = 1; fn bump() -> i32 { g = 100; return 10; }
// fn k() -> i32 { <stmts>; return g; } (or the expression returned).
func bumpModule(body ...ir.Stmt) *ir.Module {
	bump := fn("bump", nil, tI32, assign(glob("g", tI32), iL(100)), ret(iL(10)))
	return module([]*ir.Global{global("g", tI32, iL(1))}, bump, fn("k", nil, tI32, body...))
}

func TestCompoundAssignmentLoadsBeforeRHSCall(t *testing.T) {
	g := func() *ir.Ident { return glob("g", tI32) }
	bump := func() *ir.Call { return call("bump", tI32) }
	for _, tc := range []struct {
		name string
		m    *ir.Module
		want int32
	}{
		// g += bump() is g = g + bump() with g loaded first: 1 + 10.
		{"g += bump()", bumpModule(opAssign(ir.OpAdd, g(), bump()), ret(g())), 11},
		{"g + bump() loads g first", bumpModule(ret(bin(ir.OpAdd, g(), bump()))), 11},
		{"bump() + g loads g after the call", bumpModule(ret(bin(ir.OpAdd, bump(), g()))), 110},
		{"g = g * 2 + bump()", bumpModule(assign(g(), bin(ir.OpAdd, bin(ir.OpMul, g(), iL(2)), bump())), ret(g())), 12},
		{"let x = g; g = 5; x is the old g", bumpModule(letDecl("x", g()), assign(g(), iL(5)), ret(letR("x", tI32))), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, retOf(t, tc.m, "k").Value.I32())
		})
	}
}

func TestCompoundAssignmentThroughRuntimeIndexLoadsFirst(t *testing.T) {
	// var<private> a: array<i32, 3> = array(1, 2, 3);
	// fn bump() -> i32 { a[1] = 100; return 10; }
	// fn k(i: i32) -> i32 { a[i] += bump(); return a[1]; }
	arr := ir.ArrayOf(tI32, 3)
	a := func() *ir.Ident { return glob("a", arr) }
	bump := fn("bump", nil, tI32, assign(idx(a(), iL(1)), iL(100)), ret(iL(10)))
	k := fn("k", []P{{"i", tI32}}, tI32,
		opAssign(ir.OpAdd, idx(a(), param("i", tI32)), call("bump", tI32)),
		ret(idx(a(), iL(1))))
	m := module([]*ir.Global{global("a", arr, construct(arr, iL(1), iL(2), iL(3)))}, bump, k)
	out := outputs(t, m, "k", iv(1))
	assert.Equal(t, int32(12), out["ret"].Value.I32())
	assert.True(t, ir.Equal(ir.CompositeVal(arr, iv(1), iv(12), iv(3)), out["a"].Value), "%v", out["a"].Value)
}

// traceModule has var<private> tr: i32 and helpers that append a digit:
// fn dN() -> i32 { tr = tr * 10 + N; return N - 1; } for N = 1, 2, 3.
func traceModule(extra ...*ir.Func) *ir.Module {
	tr := func() *ir.Ident { return glob("tr", tI32) }
	var fs []*ir.Func
	for _, n := range []int32{1, 2, 3} {
		fs = append(fs, fn("d"+string(rune('0'+n)), nil, tI32,
			assign(tr(), bin(ir.OpAdd, bin(ir.OpMul, tr(), iL(10)), iL(n))), ret(iL(n-1))))
	}
	return module([]*ir.Global{global("tr", tI32, nil)}, append(fs, extra...)...)
}

func TestEvaluationOrderIsLeftToRight(t *testing.T) {
	d := func(n int) *ir.Call { return call("d"+string(rune('0'+n)), tI32) }
	tr := glob("tr", tI32)
	arr := ir.ArrayOf(tI32, 3)
	three := fn("three", []P{{"x", tI32}, {"y", tI32}, {"z", tI32}}, tI32, ret(iL(0)))
	for _, tc := range []struct {
		name string
		k    *ir.Func
		want int32
	}{
		{"call arguments", fn("k", nil, tI32, stmt(call("three", tI32, d(1), d(2), d(3))), ret(tr)), 123},
		{"binary operands", fn("k", nil, tI32, letDecl("x", bin(ir.OpSub, d(2), d(1))), ret(tr)), 21},
		{"select evaluates all three", fn("k", nil, tI32,
			letDecl("x", sel(d(3), d(1), bin(ir.OpEq, d(2), iL(1)))), ret(tr)), 312},
		{"assignment: reference before value", fn("k", nil, tI32,
			varDecl("a", arr, nil), assign(idx(local("a", arr), d(2)), d(1)), ret(tr)), 21},
		{"constructor arguments", fn("k", nil, tI32,
			letDecl("v", construct(vecT(3, tI32), d(3), d(2), d(1))), ret(tr)), 321},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := traceModule(three, tc.k)
			require.NoError(t, ir.Normalize(m))
			assert.Equal(t, tc.want, retOf(t, m, "k").Value.I32())
		})
	}
}

func TestNestedCallsOfOneFunctionKeepTheirArguments(t *testing.T) {
	// fn f(x: i32, y: i32) -> i32 { return x * 10 + y; }
	f := fn("f", []P{{"x", tI32}, {"y", tI32}}, tI32,
		ret(bin(ir.OpAdd, bin(ir.OpMul, param("x", tI32), iL(10)), param("y", tI32))))
	fc := func(a, b ir.Expr) *ir.Call { return call("f", tI32, a, b) }
	for _, tc := range []struct {
		name string
		e    ir.Expr
		want int32
	}{
		{"f(f(1, 2), 3)", fc(fc(iL(1), iL(2)), iL(3)), 123},
		{"f(3, f(1, 2))", fc(iL(3), fc(iL(1), iL(2))), 42},
		{"f(1, 2) + f(3, 4)", bin(ir.OpAdd, fc(iL(1), iL(2)), fc(iL(3), iL(4))), 46},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := module(nil, f, fn("k", nil, tI32, ret(tc.e)))
			assert.Equal(t, tc.want, retOf(t, m, "k").Value.I32())
		})
	}
}

func TestAssignmentsThatReadTheirOwnTarget(t *testing.T) {
	v2 := vecT(2, tI32)
	v := func() *ir.Ident { return local("v", v2) }
	for _, tc := range []struct {
		name string
		s    ir.Stmt
		want ir.Value
	}{
		{"v = v.yx swaps", assign(v(), swz(v(), 1, 0)), vecV(tI32, iv(3), iv(2))},
		{"v = vec2(v.y, v.x) swaps", assign(v(), construct(v2, swz(v(), 1), swz(v(), 0))), vecV(tI32, iv(3), iv(2))},
		{"v = v * v.x uses the old v.x in every lane", assign(v(), bin(ir.OpMul, v(), swz(v(), 0))), vecV(tI32, iv(4), iv(6))},
		{"v *= v.x", opAssign(ir.OpMul, v(), swz(v(), 0)), vecV(tI32, iv(4), iv(6))},
		{"v = v + v", assign(v(), bin(ir.OpAdd, v(), v())), vecV(tI32, iv(4), iv(6))},
		{"v.y = v.x", assign(swz(v(), 1), swz(v(), 0)), vecV(tI32, iv(2), iv(2))},
		{"v = select(v.yx, v, false)", assign(v(), sel(swz(v(), 1, 0), v(), bL(false))), vecV(tI32, iv(3), iv(2))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := module(nil, fn("k", nil, v2, varDecl("v", v2, construct(v2, iL(2), iL(3))), tc.s, ret(v())))
			o := retOf(t, m, "k")
			assert.True(t, ir.Equal(tc.want, o.Value), "got %v", o.Value)
		})
	}
}

func TestStructsArraysAndMembers(t *testing.T) {
	sd := &ir.StructDecl{Name: "S", Fields: []ir.Field{{Name: "a", Type: tI32}, {Name: "v", Type: vecT(3, tF32)}, {Name: "arr", Type: ir.ArrayOf(tU32, 2)}}}
	st := ir.StructType(sd)
	s := func() *ir.Ident { return local("s", st) }
	m := &ir.Module{File: "t.wgsl", Structs: []*ir.StructDecl{sd}, Funcs: []*ir.Func{fn("k", []P{{"i", tI32}}, st,
		varDecl("s", st, nil),
		assign(mem(s(), 0), iL(7)),
		assign(swz(mem(s(), 1), 2), fL(2.5)),
		assign(idx(mem(s(), 2), param("i", tI32)), uL(9)),
		opAssign(ir.OpAdd, mem(s(), 0), conv(tI32, swz(mem(s(), 1), 2))),
		ret(s()))}}
	o := retOf(t, m, "k", iv(1))
	assert.True(t, exact(o), desc(o))
	want := ir.CompositeVal(st, iv(9), vecV(tF32, fvv(0), fvv(0), fvv(2.5)), ir.CompositeVal(ir.ArrayOf(tU32, 2), uv(0), uv(9)))
	assert.True(t, ir.Equal(want, o.Value), "got %v", o.Value)
	assert.Len(t, tF32.ComponentTypes(), 1)
}

func TestVoidKernelWritesGlobals(t *testing.T) {
	m := module([]*ir.Global{global("out", tU32, nil)},
		fn("k", []P{{"x", tU32}}, ir.Void, assign(glob("out", tU32), bin(ir.OpMul, param("x", tU32), uL(3)))))
	p, err := Compile(m, "k")
	require.NoError(t, err)
	require.Len(t, p.ABI().Outputs, 1)
	invs, err := p.Run([][]ir.Value{{uv(5)}}, Options{})
	require.NoError(t, err)
	assert.Equal(t, uint32(15), invs[0].Outputs[0].Value.U32())
}

func TestRunIsSafeForConcurrentUse(t *testing.T) {
	p, err := Compile(benchKernel(), "k")
	require.NoError(t, err)
	_, args := benchInputs(32)
	want, err := p.Run(args, Options{})
	require.NoError(t, err)
	done := make(chan []Invocation)
	for g := 0; g < 4; g++ {
		go func() {
			got, _ := p.Run(args, Options{})
			done <- got
		}()
	}
	for g := 0; g < 4; g++ {
		got := <-done
		for i := range want {
			assert.True(t, ir.Equal(want[i].Outputs[0].Value, got[i].Outputs[0].Value))
		}
	}
}
