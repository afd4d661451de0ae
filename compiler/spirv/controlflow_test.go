package spirv

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// Control-flow kernels. Each is checked by spirv-val in both modes and run
// on lavapipe in portable mode against outputs derived by hand from the
// WGSL statement semantics (WGSL §9, "Statements").

var (
	a32 = param("a", ir.I32)
	n32 = param("n", ir.I32)
)

func vI(n string) *ir.Ident { return local(n, ir.I32) }

// nestedIfs: r = a > 0 ? (a > 10 ? 2 : 1) : (a < -10 ? -2 : 0).
func nestedIfs() *ir.Module {
	return module(fn("k", params("a", ir.I32), ir.I32,
		varDecl("r", ir.I32, nil),
		ifElse(bin(ir.OpGt, a32, i32(0)),
			[]ir.Stmt{ifElse(bin(ir.OpGt, a32, i32(10)), []ir.Stmt{assign(vI("r"), i32(2))}, []ir.Stmt{assign(vI("r"), i32(1))})},
			[]ir.Stmt{ifThen(bin(ir.OpLt, a32, i32(-10)), assign(vI("r"), i32(-2)))}),
		ret(vI("r"))))
}

// oddSum: the sum of the odd numbers below n, with continue and break.
func oddSum() *ir.Module {
	return module(fn("k", params("n", ir.I32), ir.I32,
		varDecl("s", ir.I32, i32(0)),
		varDecl("i", ir.I32, i32(0)),
		loop([]ir.Stmt{
			ifThen(bin(ir.OpGe, vI("i"), n32), brk()),
			ifThen(bin(ir.OpEq, bin(ir.OpRem, vI("i"), i32(2)), i32(0)), cont()),
			assignOp(ir.OpAdd, vI("s"), vI("i")),
		}, []ir.Stmt{assignOp(ir.OpAdd, vI("i"), i32(1))}, nil),
		ret(vI("s"))))
}

// breakIfSum: s = 0 + 1 + … + (n-1), at least one iteration (break if at
// the end of the continuing block).
func breakIfSum() *ir.Module {
	i, s := local("i", ir.U32), local("s", ir.U32)
	return module(fn("k", params("n", ir.U32), ir.U32,
		varDecl("i", ir.U32, u32(0)),
		varDecl("s", ir.U32, u32(0)),
		loop([]ir.Stmt{assignOp(ir.OpAdd, s, i)},
			[]ir.Stmt{assignOp(ir.OpAdd, i, u32(1))},
			bin(ir.OpGe, i, param("n", ir.U32))),
		ret(s)))
}

// switchInLoop: per iteration i, by i % 4:
//
//	0:            s += 1, then s += 5 after the switch
//	1, 2:         if s > 100 { break (the switch) } else { s += 10; continue }
//	3, default:   s += 100; break (the switch), then s += 5
func switchInLoop() *ir.Module {
	return module(fn("k", params("n", ir.I32), ir.I32,
		varDecl("s", ir.I32, i32(0)),
		varDecl("i", ir.I32, i32(0)),
		loop([]ir.Stmt{
			ifThen(bin(ir.OpGe, vI("i"), n32), brk()),
			switchOf(bin(ir.OpRem, vI("i"), i32(4)),
				caseOf([]ir.Value{iv(0)}, false, assignOp(ir.OpAdd, vI("s"), i32(1))),
				caseOf([]ir.Value{iv(1), iv(2)}, false,
					ifThen(bin(ir.OpGt, vI("s"), i32(100)), brk()),
					assignOp(ir.OpAdd, vI("s"), i32(10)),
					cont()),
				caseOf([]ir.Value{iv(3)}, true, assignOp(ir.OpAdd, vI("s"), i32(100)), brk()),
			),
			assignOp(ir.OpAdd, vI("s"), i32(5)),
		}, []ir.Stmt{assignOp(ir.OpAdd, vI("i"), i32(1))}, nil),
		ret(vI("s"))))
}

// earlyReturn: the first i ≥ 0 with i*i > n, returned from inside an
// endless loop (its merge block is unreachable).
func earlyReturn() *ir.Module {
	return module(fn("k", params("n", ir.I32), ir.I32,
		varDecl("i", ir.I32, i32(0)),
		loop([]ir.Stmt{
			ifThen(bin(ir.OpGt, bin(ir.OpMul, vI("i"), vI("i")), n32), ret(vI("i"))),
			assignOp(ir.OpAdd, vI("i"), i32(1)),
		}, nil, nil)))
}

// shortCircuitIndex: i < 4 && a[i] > 2 || i == 100, a = (1, 2, 3, 4)
// (the run-time index sits under the short-circuit).
func shortCircuitIndex() *ir.Module {
	arr := ir.ArrayOf(ir.I32, 4)
	a := letRef("arr", arr)
	i := param("i", ir.I32)
	return module(fn("k", params("i", ir.I32), ir.Bool,
		letDecl("arr", cons(arr, i32(1), i32(2), i32(3), i32(4))),
		ret(bin(ir.OpLogOr,
			bin(ir.OpLogAnd, bin(ir.OpLt, i, i32(4)), bin(ir.OpGt, index(a, i), i32(2))),
			bin(ir.OpEq, i, i32(100))))))
}

// nestedLoops: for i in 0..n { for j in 0..n { if j > i { break } s += 1 } }
// = n(n+1)/2, with the inner loop in the outer loop's body and a loop and
// a switch with break in the outer continuing block.
func nestedLoops() *ir.Module {
	j := vI("j")
	return module(fn("k", params("n", ir.I32), ir.I32,
		varDecl("s", ir.I32, i32(0)),
		varDecl("i", ir.I32, i32(0)),
		loop([]ir.Stmt{
			ifThen(bin(ir.OpGe, vI("i"), n32), brk()),
			varDecl("j", ir.I32, i32(0)),
			loop([]ir.Stmt{
				ifThen(bin(ir.OpGe, j, n32), brk()),
				ifThen(bin(ir.OpGt, j, vI("i")), brk()),
				assignOp(ir.OpAdd, vI("s"), i32(1)),
			}, []ir.Stmt{assignOp(ir.OpAdd, j, i32(1))}, nil),
		}, []ir.Stmt{
			assignOp(ir.OpAdd, vI("i"), i32(1)),
			// A do-nothing loop and switch inside the continuing block.
			varDecl("t", ir.I32, i32(0)),
			loop([]ir.Stmt{assignOp(ir.OpAdd, vI("t"), i32(1))}, nil, bin(ir.OpGe, vI("t"), i32(2))),
			switchOf(vI("t"), caseOf([]ir.Value{iv(2)}, false, brk()), caseOf(nil, true, assign(vI("s"), i32(-1000)))),
		}, nil),
		ret(vI("s"))))
}

// helperCalls: sq(a) + sq(sq(2)) + twice(a), with void and value helpers.
func helperCalls() *ir.Module {
	sq := fn("sq", params("x", ir.I32), ir.I32, ret(bin(ir.OpMul, param("x", ir.I32), param("x", ir.I32))))
	twice := fn("twice", params("y", ir.I32), ir.I32,
		varDecl("acc", ir.I32, i32(0)),
		exprStmt(callFn(sq, param("y", ir.I32))),
		assign(local("acc", ir.I32), bin(ir.OpAdd, param("y", ir.I32), param("y", ir.I32))),
		ret(local("acc", ir.I32)))
	return module(sq, twice, fn("k", params("a", ir.I32), ir.I32,
		ret(bin(ir.OpAdd, bin(ir.OpAdd, callFn(sq, a32), callFn(sq, callFn(sq, i32(2)))), callFn(twice, a32)))))
}

// deadAfterBlock: { return a; } followed by statements in the same block,
// and an if whose both arms return followed by more code.
func deadAfterBlock() *ir.Module {
	return module(fn("k", params("a", ir.I32), ir.I32,
		ifElse(bin(ir.OpGt, a32, i32(0)), []ir.Stmt{blk(ret(i32(1)))}, []ir.Stmt{ret(i32(2))}),
		varDecl("dead", ir.I32, a32),
		blk(ret(vI("dead"))),
		assign(vI("dead"), i32(3)),
		ret(i32(4))))
}

func TestControlFlowOnGPU(t *testing.T) {
	cases := []gpuCase{
		{"nested ifs", nestedIfs(), args1(iv(5), iv(20), iv(-20), iv(-5), iv(0)),
			[]ir.Value{iv(1), iv(2), iv(-2), iv(0), iv(0)}},
		{"loop continue break", oddSum(), args1(iv(10), iv(0), iv(1), iv(4)),
			[]ir.Value{iv(1 + 3 + 5 + 7 + 9), iv(0), iv(0), iv(1 + 3)}},
		{"break if", breakIfSum(), args1(uv(5), uv(1), uv(0)),
			[]ir.Value{uv(0 + 1 + 2 + 3 + 4), uv(0), uv(0)}},
		// n=4: 6, 16, 26, 131; n=8 continues: 137, 142, 147, 252.
		{"switch in loop", switchInLoop(), args1(iv(4), iv(8), iv(0), iv(1)),
			[]ir.Value{iv(131), iv(252), iv(0), iv(6)}},
		{"early return in loop", earlyReturn(), args1(iv(10), iv(0), iv(-1)),
			[]ir.Value{iv(4), iv(1), iv(0)}},
		// -1 indexes a[3] = 4 in portable mode.
		{"short circuit over index", shortCircuitIndex(), args1(iv(3), iv(1), iv(10), iv(100), iv(-1)),
			[]ir.Value{bv(true), bv(false), bv(false), bv(true), bv(true)}},
		{"nested loops", nestedLoops(), args1(iv(4), iv(0), iv(1)), []ir.Value{iv(10), iv(0), iv(1)}},
		{"helper calls", helperCalls(), args1(iv(3), iv(-2)), []ir.Value{iv(9 + 16 + 6), iv(4 + 16 - 4)}},
		{"dead code after jumps", deadAfterBlock(), args1(iv(1), iv(0)), []ir.Value{iv(1), iv(2)}},
	}
	checkGPU(t, DefaultOptions(), cases)
	// Raw mode: the same kernels, minus the argument that indexes out of
	// bounds (undefined in raw mode), must compute the same values.
	raw := append([]gpuCase(nil), cases...)
	for i := range raw {
		if raw[i].name == "short circuit over index" {
			raw[i].args, raw[i].want = raw[i].args[:4], raw[i].want[:4]
		}
		raw[i].name += "/raw"
	}
	checkGPU(t, Options{Mode: Raw}, raw)
}

// TestPrivateGlobalsOnGPU runs a void kernel that writes private globals
// (one with a literal initializer, one zero-initialized, one whose
// initializer is not a literal and is stored at entry) through a helper;
// each invocation starts from the initializers (var<private> is per
// invocation).
func TestPrivateGlobalsOnGPU(t *testing.T) {
	g := global("g", ir.I32)
	h := global("h", v2f)
	flag := global("flag", ir.Bool)
	c := global("c", ir.I32)
	bump := fn("bump", params("x", ir.I32), ir.Void, assignOp(ir.OpAdd, g, param("x", ir.I32)))
	m := module(bump, fn("k", params("a", ir.I32), ir.Void,
		exprStmt(callFn(bump, a32)),
		exprStmt(callFn(bump, c)),
		assign(swz(h, 1), conv(ir.F32, a32)),
		assign(flag, bin(ir.OpGt, a32, i32(0))),
	))
	m.Globals = []*ir.Global{
		{Name: "g", T: ir.I32, Init: i32(5)},
		{Name: "h", T: v2f},
		{Name: "flag", T: ir.Bool},
		{Name: "c", T: ir.I32, Init: bin(ir.OpMul, i32(2), i32(3))},
		{Name: "unused", T: ir.F32, Init: f32(1)},
	}
	got := runGPU(t, m, "k", DefaultOptions(), args1(iv(1), iv(-7)))
	abi, err := ir.NewKernelABI(m, "k")
	require.NoError(t, err)
	var names []string
	for _, o := range abi.Outputs {
		names = append(names, o.Name)
	}
	require.Equal(t, []string{"g", "h", "flag", "c"}, names, "the ABI lists the used globals in module order")
	// g = 5 + a + 6; h = (0, a); flag = a > 0; c = 6.
	want := [][]ir.Value{
		{iv(12), ir.CompositeVal(v2f, fv(0), fv(1)), bv(true), iv(6)},
		{iv(4), ir.CompositeVal(v2f, fv(0), fv(-7)), bv(false), iv(6)},
	}
	for i := range want {
		for j := range want[i] {
			assert.True(t, ir.Equal(want[i][j], got[i][j]), "invocation %d %s: got %v, want %v", i, names[j], got[i][j], want[i][j])
		}
	}
}

// TestNoParamsOnGPU: a kernel without parameters (the input record is a
// u32 pad) still runs once per invocation.
func TestNoParamsOnGPU(t *testing.T) {
	m := module(fn("k", nil, ir.U32, ret(u32(42))))
	got := runGPU(t, m, "k", DefaultOptions(), [][]ir.Value{{}, {}, {}})
	for i := range got {
		assert.True(t, ir.Equal(uv(42), got[i][0]), "invocation %d: %v", i, got[i][0])
	}
}
