package interp

import (
	"errors"
	"math"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func at(line, col int32) ir.Pos { return ir.Pos{Line: line, Col: col} }

// TestIndeterminateResults: operations WGSL leaves indeterminate, each
// with the reason reported at the operation's position.
func TestIndeterminateResults(t *testing.T) {
	x, y := param("x", tF32), param("y", tF32)
	nan := fvv(float32(math.NaN()))
	sub := ir.ScalarVal(tF32, 1<<3) // 2^-146, subnormal
	for _, tc := range []struct {
		name string
		e    ir.Expr
		args []ir.Value
		why  string
	}{
		{"3e38 * 10 overflows", bin(ir.OpMul, x, y), []ir.Value{fvv(3e38), fvv(10)}, "overflow"},
		{"max + max overflows", bin(ir.OpAdd, x, y), []ir.Value{fvv(math.MaxFloat32), fvv(math.MaxFloat32)}, "overflow"},
		{"exp(100) overflows", bi(ir.BExp, x), []ir.Value{fvv(100)}, "overflow"},
		{"0 / 0 is outside division's range", bin(ir.OpDiv, x, y), []ir.Value{fvv(0), fvv(0)}, "outside the range"},
		{"1 / 2^127 is outside division's range", bin(ir.OpDiv, x, y), []ir.Value{fvv(1), fvv(0x1p127)}, "outside the range"},
		{"sin(4.0) is outside [-pi, pi]", bi(ir.BSin, x), []ir.Value{fvv(4)}, "outside the range"},
		{"cos(f32(pi)) is just outside [-pi, pi]", bi(ir.BCos, x), []ir.Value{fvv(math.Pi)}, "outside the range"},
		{"log(-1)", bi(ir.BLog, x), []ir.Value{fvv(-1)}, "outside the range"},
		{"log(0) is -inf", bi(ir.BLog, x), []ir.Value{fvv(0)}, "overflow"},
		{"sqrt(-1)", bi(ir.BSqrt, x), []ir.Value{fvv(-1)}, "outside the range"},
		{"inverseSqrt(0) is inf", bi(ir.BInverseSqrt, x), []ir.Value{fvv(0)}, "overflow"},
		{"pow(-2, 2) has x < 0", bi(ir.BPow, x, y), []ir.Value{fvv(-2), fvv(2)}, "outside the range"},
		{"asin(2)", bi(ir.BAsin, x), []ir.Value{fvv(2)}, "outside the range"},
		{"asin(1) has no bound: atan2's x operand is 0", bi(ir.BAsin, x), []ir.Value{fvv(1)}, "outside the range"},
		{"atan2(0, -1) may be pi or -pi (sign of zero)", bi(ir.BAtan2, x, y), []ir.Value{fvv(0), fvv(-1)}, "can change"},
		{"smoothstep(1, 1, x) divides by zero", bi(ir.BSmoothstep, y, y, x), []ir.Value{fvv(0.5), fvv(1)}, "outside the range"},
		{"clamp(4, 5, 3): min(max) and median differ", bi(ir.BClamp, x, y, fL(3)), []ir.Value{fvv(4), fvv(5)}, "can change"},
		{"normalize(0) is outside its domain", bi(ir.BNormalize, construct(vecT(2, tF32), x, y)), []ir.Value{fvv(0), fvv(0)}, "outside the range"},
		{"i32(NaN argument)", conv(tI32, x), []ir.Value{nan}, "argument x is not a finite f32"},
		{"NaN argument + 1", bin(ir.OpAdd, x, fL(1)), []ir.Value{nan}, "argument x"},
		{"inf argument compared", bin(ir.OpLt, x, y), []ir.Value{fvv(float32(math.Inf(1))), fvv(0)}, "argument x"},
		{"i32(bitcast<f32>(NaN bits))", conv(tI32, bitcast(tF32, param("u", tU32))), []ir.Value{uv(0x7fc00000)}, "infinity or NaN"},
		{"subnormal * 2^100 differs when flushed", bin(ir.OpMul, x, y), []ir.Value{sub, fvv(0x1p100)}, "subnormal"},
		{"subnormal > 0 differs when flushed", bin(ir.OpGt, x, y), []ir.Value{sub, fvv(0)}, "subnormal"},
		{"bool(subnormal) may flush", conv(tBool, x), []ir.Value{sub}, "subnormal"},
		{"bitcast<u32>(subnormal) may flush", bitcast(tU32, x), []ir.Value{sub}, "subnormal"},
		{"poison propagates through integers", bin(ir.OpAdd, conv(tI32, bin(ir.OpMul, x, y)), iL(1)), []ir.Value{fvv(3e38), fvv(10)}, "overflow"},
		{"poison propagates through vectors", bi(ir.BDot, construct(vecT(2, tF32), bin(ir.OpMul, x, y), x), construct(vecT(2, tF32), x, x)),
			[]ir.Value{fvv(3e38), fvv(10)}, "overflow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ps []P
			for i, a := range tc.args {
				ps = append(ps, P{[]string{"x", "y"}[i], a.Type})
			}
			if b, ok := tc.e.(*ir.Convert); ok {
				if bc, ok := b.X.(*ir.Bitcast); ok && bc.X.Type().Kind == ir.KindU32 {
					ps = []P{{"u", tU32}}
				}
			}
			o := retOf(t, exprKernel(tc.e, ps...), "k", tc.args...)
			assert.True(t, indeterminate(o), desc(o))
			assert.Contains(t, o.Why, tc.why)
		})
	}
	// Flushing that changes nothing is fine: 1 + subnormal is 1 either way.
	o := retOf(t, f32Kernel(bin(ir.OpAdd, x, y), "x", "y"), "k", sub, fvv(1))
	assert.False(t, indeterminate(o), desc(o))
	assert.Equal(t, float32(1), o.Value.F32())
}

func TestWhyIsPositioned(t *testing.T) {
	e := bin(ir.OpMul, param("x", tF32), param("y", tF32))
	e.Pos = at(3, 14)
	o := retOf(t, f32Kernel(e, "x", "y"), "k", fvv(3e38), fvv(10))
	assert.True(t, indeterminate(o))
	assert.Equal(t, "3:14: f32 overflow or non-finite result in x * y (finite math assumption, WGSL #differences-from-ieee754)", o.Why)
}

func TestOutOfBoundsReadIsClampedAndIndeterminate(t *testing.T) {
	arr := ir.ArrayOf(tI32, 3)
	v3 := vecT(3, tU32)
	for _, tc := range []struct {
		name string
		x    ir.Expr
		xv   ir.Value
		i    ir.Value
		want ir.Value
		ind  bool
	}{
		{"array[5] reads the last element", param("a", arr), ir.CompositeVal(arr, iv(10), iv(20), iv(30)), iv(5), iv(30), true},
		{"array[-1] reads the first element", param("a", arr), ir.CompositeVal(arr, iv(10), iv(20), iv(30)), iv(-1), iv(10), true},
		{"array[3u] reads the last element", param("a", arr), ir.CompositeVal(arr, iv(10), iv(20), iv(30)), uv(3), iv(30), true},
		{"array[2] is in bounds", param("a", arr), ir.CompositeVal(arr, iv(10), iv(20), iv(30)), iv(2), iv(30), false},
		{"vector[7u] reads the last component", param("a", v3), vecV(tU32, uv(1), uv(2), uv(3)), uv(7), uv(3), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := exprKernel(idx(tc.x, param("i", tc.i.Type)), P{"a", tc.xv.Type}, P{"i", tc.i.Type})
			o := retOf(t, m, "k", tc.xv, tc.i)
			assert.True(t, ir.Equal(tc.want, o.Value), "got %v", o.Value)
			assert.Equal(t, tc.ind, indeterminate(o), desc(o))
			if tc.ind {
				assert.Contains(t, o.Why, "out of bounds")
			}
		})
	}
}

func TestOutOfBoundsWriteMakesTheVariableIndeterminate(t *testing.T) {
	// var a = array(1, 2, 3); var b = 5; a[i] = 9; [a[0] = 7;] return a; (b stays)
	arr := ir.ArrayOf(tI32, 3)
	a := func() *ir.Ident { return local("a", arr) }
	body := func(extra ...ir.Stmt) *ir.Module {
		ss := []ir.Stmt{varDecl("a", arr, construct(arr, iL(1), iL(2), iL(3))),
			assign(idx(a(), param("i", tI32)), iL(9))}
		ss = append(ss, extra...)
		return module([]*ir.Global{global("g", tI32, nil)}, fn("k", []P{{"i", tI32}}, arr,
			append(ss, assign(glob("g", tI32), iL(4)), ret(a()))...))
	}
	out := outputs(t, body(), "k", iv(1))
	assert.True(t, exact(out["ret"]), desc(out["ret"]))
	assert.True(t, ir.Equal(ir.CompositeVal(arr, iv(1), iv(9), iv(3)), out["ret"].Value))

	out = outputs(t, body(), "k", iv(3))
	assert.True(t, allIndeterminate(out["ret"]), desc(out["ret"]))
	assert.Contains(t, out["ret"].Why, "whole variable a is indeterminate")
	assert.True(t, exact(out["g"]), "other variables are unaffected")

	// A later in-bounds store is determinate again.
	out = outputs(t, body(assign(idx(a(), iL(0)), iL(7))), "k", iv(-4))
	o := out["ret"]
	require.Len(t, o.Indeterminate, 3)
	assert.Equal(t, []bool{false, true, true}, o.Indeterminate)
	assert.Equal(t, int32(7), o.Value.Elems[0].I32())
}

func TestSelectDiscardingAnIndeterminateArmIsDeterminate(t *testing.T) {
	x := param("x", tF32)
	bad := bin(ir.OpMul, x, fL(10)) // overflows for x = 3e38
	for _, tc := range []struct {
		name string
		e    ir.Expr
		ind  bool
	}{
		{"select(bad, 1.0, true) takes the good arm", sel(bad, fL(1), bL(true)), false},
		{"select(1.0, bad, false) takes the good arm", sel(fL(1), bad, bL(false)), false},
		{"select(bad, 1.0, false) takes the bad arm", sel(bad, fL(1), bL(false)), true},
		{"select on an indeterminate condition", sel(fL(1), fL(2), bin(ir.OpGt, bad, fL(0))), true},
		{"a vector select keeps lanes apart", swz(sel(construct(vecT(2, tF32), bad, fL(1)), construct(vecT(2, tF32), fL(1), bad),
			construct(vecT(2, tBool), bL(true), bL(false))), 0), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := retOf(t, f32Kernel(tc.e, "x"), "k", fvv(3e38))
			assert.Equal(t, tc.ind, indeterminate(o), desc(o))
			if !tc.ind {
				assert.True(t, exact(o), desc(o))
				assert.Equal(t, float32(1), o.Value.F32())
			}
		})
	}
}

// A branch on an indeterminate condition runs both ways (fork.go): what
// both ways compute alike stays exact, what they compute differently is
// the union of the two. Expected values by hand: g = 7 is stored before
// the branch on every path; r is 1 when the branch is not taken, 2 when
// it is.
func TestBranchOnIndeterminateConditionForks(t *testing.T) {
	// var<private> g: i32;
	// fn k(x: f32) -> i32 { g = 7; var r = 1;
	//   <control flow on x * 1e30 > 0> { r = 2; } return r; }
	g := glob("g", tI32)
	r := func() *ir.Ident { return local("r", tI32) }
	cond := func() ir.Expr { return bin(ir.OpGt, bin(ir.OpMul, param("x", tF32), fL(1e30)), fL(0)) }
	ifS := if_(cond(), assign(r(), iL(2)))
	ifS.Pos = at(5, 3)
	for _, tc := range []struct {
		name string
		s    []ir.Stmt
		ret  []int32 // the allowed values of ret (one: exact)
	}{
		{"if", []ir.Stmt{ifS}, []int32{1, 2}},
		// loop { r = 2; break if c }: breaking gives 2; going round
		// again meets the break-if in the same state, a cycle that
		// never ends: 2 is the only value a run that ends can return.
		{"break if", []ir.Stmt{loop([]ir.Stmt{assign(r(), iL(2))}, nil, cond())}, []int32{2}},
		// A switch whose only clause is default goes there either way.
		{"switch", []ir.Stmt{&ir.Switch{Selector: conv(tI32, bin(ir.OpMul, param("x", tF32), fL(1e30))), Cases: []*ir.Case{
			{Default: true, Body: block(assign(r(), iL(2)))}}}}, []int32{2}},
		{"switch two ways", []ir.Stmt{&ir.Switch{Selector: conv(tI32, bin(ir.OpMul, param("x", tF32), fL(1e30))), Cases: []*ir.Case{
			{Values: []ir.Value{iv(5)}, Body: block(assign(r(), iL(3)))},
			{Default: true, Body: block(assign(r(), iL(2)))}}}}, []int32{2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := append([]ir.Stmt{assign(g, iL(7)), varDecl("r", tI32, iL(1))}, tc.s...)
			m := module([]*ir.Global{global("g", tI32, nil)}, fn("k", []P{{"x", tF32}}, tI32, append(body, ret(r()))...))
			out := outputs(t, m, "k", fvv(1e30))
			assert.True(t, exact(out["g"]), "g is stored before the branch: %s", desc(out["g"]))
			assert.Equal(t, int32(7), out["g"].Value.I32())
			o := out["ret"]
			if len(tc.ret) == 1 {
				assert.True(t, exact(o), desc(o))
				assert.Equal(t, tc.ret[0], o.Value.I32())
			} else {
				require.True(t, allIndeterminate(o), desc(o))
				require.NotNil(t, o.Allowed, desc(o))
				var got []int32
				for _, b := range o.Allowed[0].Values {
					got = append(got, int32(b))
				}
				assert.ElementsMatch(t, tc.ret, got, desc(o))
				assert.Contains(t, o.Why, "depends on an indeterminate value")
				assert.Contains(t, o.Why, "overflow", "the cause is reported too")
			}
			if tc.name == "if" {
				assert.Contains(t, o.Why, "5:3: ")
			}
			// A determinate condition does not fork.
			out = outputs(t, m, "k", fvv(1))
			assert.True(t, exact(out["ret"]) && exact(out["g"]))
			assert.Equal(t, int32(2), out["ret"].Value.I32())
		})
	}
}

// With forking off (MaxPaths 1), a branch on an indeterminate condition
// makes everything the invocation can still write any value.
func TestBranchOnIndeterminateConditionWithoutForksPoisonsEverything(t *testing.T) {
	r := func() *ir.Ident { return local("r", tI32) }
	cond := bin(ir.OpGt, bin(ir.OpMul, param("x", tF32), fL(1e30)), fL(0))
	m := module([]*ir.Global{global("g", tI32, nil)}, fn("k", []P{{"x", tF32}}, tI32,
		assign(glob("g", tI32), iL(7)), varDecl("r", tI32, iL(1)), if_(cond, assign(r(), iL(2))), ret(r())))
	invs, err := Run(m, "k", [][]ir.Value{{fvv(1e30)}}, Options{MaxPaths: 1})
	require.NoError(t, err)
	for _, o := range invs[0].Outputs {
		assert.True(t, allIndeterminate(o), desc(o))
		assert.Nil(t, o.Allowed)
		assert.Contains(t, o.Why, "depends on an indeterminate value")
	}
}

func TestStepLimitStopsOnlyThatInvocation(t *testing.T) {
	// fn k(n: i32) -> i32 { var i = 0; loop { if (i == n) { break; } i += 1; } return i; }
	i := func() *ir.Ident { return local("i", tI32) }
	l := loop([]ir.Stmt{if_(bin(ir.OpEq, i(), param("n", tI32)), brk()), opAssign(ir.OpAdd, i(), iL(1))}, nil, nil)
	l.Pos = at(2, 5)
	m := module(nil, fn("k", []P{{"n", tI32}}, tI32, varDecl("i", tI32, iL(0)), l, ret(i())))
	p, err := Compile(m, "k")
	require.NoError(t, err)
	invs, err := p.Run([][]ir.Value{{iv(5)}, {iv(-1)}, {iv(7)}}, Options{MaxSteps: 1000})
	require.NoError(t, err)
	assert.Equal(t, int32(5), invs[0].Outputs[0].Value.I32())
	require.Error(t, invs[1].Err)
	assert.Nil(t, invs[1].Outputs)
	assert.Equal(t, "test.wgsl:2:5: interp: step limit of 1000 exceeded (the kernel may not terminate)", invs[1].Err.Error())
	var ie *ir.Error
	assert.True(t, errors.As(invs[1].Err, &ie))
	assert.Equal(t, int32(7), invs[2].Outputs[0].Value.I32())
}

func TestInfiniteLoopHitsDefaultStepLimit(t *testing.T) {
	m := module(nil, fn("k", nil, tI32, loop(nil, nil, nil), ret(iL(1))))
	inv := runOne(t, m, "k")
	require.Error(t, inv.Err)
	assert.Contains(t, inv.Err.Error(), "step limit of 10000000 exceeded")
}

func TestUnexecutableBuiltinsFailTheInvocation(t *testing.T) {
	// fn k(x: f32) -> f32 { var y = x; if (x > 0) { y = dpdx(x); } return y; }
	y := func() *ir.Ident { return local("y", tF32) }
	d := bi(ir.BDpdx, param("x", tF32))
	d.Pos = at(4, 9)
	m := module(nil, fn("k", []P{{"x", tF32}}, tF32,
		varDecl("y", tF32, param("x", tF32)),
		if_(bin(ir.OpGt, param("x", tF32), fL(0)), assign(y(), d)),
		ret(y())))
	invs, err := Run(m, "k", [][]ir.Value{{fvv(1)}, {fvv(-1)}}, Options{})
	require.NoError(t, err)
	require.Error(t, invs[0].Err)
	assert.Equal(t, "test.wgsl:4:9: interp: dpdx is not executable by the reference (a derivative builtin needs other invocations)", invs[0].Err.Error())
	require.NoError(t, invs[1].Err)
	assert.Equal(t, float32(-1), invs[1].Outputs[0].Value.F32())

	wb := &ir.BuiltinCall{Fn: ir.BWorkgroupBarrier, T: ir.Void}
	m = module(nil, fn("k", nil, ir.Void, stmt(wb)))
	inv := runOne(t, m, "k")
	assert.ErrorContains(t, inv.Err, "workgroupBarrier is not executable")
}

func TestCompileAndRunErrors(t *testing.T) {
	ok := exprKernel(param("a", tI32), P{"a", tI32})
	_, err := Compile(ok, "nope")
	assert.ErrorContains(t, err, `interp: no function "nope"`)

	rec := module(nil, fn("k", []P{{"n", tI32}}, tI32, ret(call("k", tI32, param("n", tI32)))))
	_, err = Compile(rec, "k")
	assert.ErrorContains(t, err, "recursion k -> k")

	bad := module(nil, fn("k", nil, tI32, ret(bL(true))))
	_, err = Compile(bad, "k")
	assert.ErrorContains(t, err, "verify")

	p, err := Compile(ok, "a"[:0]+"k")
	require.NoError(t, err)
	_, err = p.Run([][]ir.Value{{uv(1)}}, Options{})
	assert.ErrorContains(t, err, "argument a: has type u32, want i32")
	_, err = p.Run([][]ir.Value{{}}, Options{})
	assert.ErrorContains(t, err, "0 arguments for the 1 parameters")
	_, err = p.Run([][]ir.Value{{iv(1)}, {iv(1), iv(2)}}, Options{})
	assert.ErrorContains(t, err, "invocation 1")
	v := exprKernel(param("v", vecT(2, tI32)), P{"v", vecT(2, tI32)})
	_, err = Run(v, "k", [][]ir.Value{{ir.CompositeVal(vecT(2, tI32), iv(1))}}, Options{})
	assert.ErrorContains(t, err, "has 1 components")
}
