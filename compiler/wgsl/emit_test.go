package wgsl

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

var (
	lavapipeOnce sync.Once
	lavapipe     *harness.Device
	lavapipeErr  error
)

// gpu returns the lavapipe device, failing the test with an install hint
// when it is missing.
func gpu(t *testing.T) *harness.Device {
	t.Helper()
	lavapipeOnce.Do(func() { lavapipe, lavapipeErr = harness.Open("vulkan:llvmpipe") })
	require.NoError(t, lavapipeErr, "lavapipe (Vulkan on llvmpipe) is needed: install mesa-vulkan-drivers (make deps)")
	return lavapipe
}

// runGPU emits kernel in mode, runs it for the given arguments on lavapipe
// and returns the decoded outputs.
func runGPU(t *testing.T, m *ir.Module, kernel string, mode Mode, args [][]ir.Value) [][]ir.Value {
	t.Helper()
	src, entry, err := Emit(m, kernel, EmitOptions{Mode: mode})
	require.NoError(t, err)
	abi, err := ir.NewKernelABI(m, kernel)
	require.NoError(t, err)
	in, err := abi.EncodeInputs(args)
	require.NoError(t, err)
	out, err := gpu(t).Run(context.Background(), harness.Kernel{WGSL: src, EntryPoint: entry},
		harness.Dispatch{Input: in, OutputSize: len(args) * abi.OutputStride, Invocations: len(args)})
	require.NoError(t, err, "emitted WGSL:\n%s", src)
	vals, err := abi.DecodeOutputs(out, len(args))
	require.NoError(t, err)
	return vals
}

func param(name string, t *ir.Type) *ir.Ident { return &ir.Ident{Name: name, T: t, Ref: ir.RefParam} }

// binKernel is fn k(a: T, b: U) -> R { return a op b; }.
func binKernel(op ir.BinaryOp, a, b, r *ir.Type) *ir.Module {
	f := &ir.Func{Name: "k", Params: []*ir.Param{{Name: "a", T: a}, {Name: "b", T: b}}, Result: r,
		Body: ir.NewBlock(ir.Pos{}, &ir.Return{Value: &ir.Binary{Op: op, X: param("a", a), Y: param("b", b), T: r}})}
	return &ir.Module{Funcs: []*ir.Func{f}}
}

const intMin = math.MinInt32

// TestPortableIntegerRules checks, on lavapipe, the WGSL integer rules
// portable mode spells out; expected values are WGSL #arithmetic-expr and
// #bit-expr read by hand.
func TestPortableIntegerRules(t *testing.T) {
	i, u := ir.I32Val, ir.U32Val
	cases := []struct {
		name string
		m    *ir.Module
		args [][]ir.Value
		want []ir.Value
	}{
		{"i32 div", binKernel(ir.OpDiv, ir.I32, ir.I32, ir.I32),
			[][]ir.Value{{i(7), i(0)}, {i(intMin), i(-1)}, {i(-7), i(2)}, {i(7), i(-2)}, {i(intMin), i(1)}},
			[]ir.Value{i(7), i(intMin), i(-3), i(-3), i(intMin)}},
		{"i32 rem", binKernel(ir.OpRem, ir.I32, ir.I32, ir.I32),
			[][]ir.Value{{i(7), i(0)}, {i(intMin), i(-1)}, {i(-7), i(2)}, {i(7), i(-2)}},
			[]ir.Value{i(0), i(0), i(-1), i(1)}},
		{"u32 div", binKernel(ir.OpDiv, ir.U32, ir.U32, ir.U32),
			[][]ir.Value{{u(9), u(0)}, {u(0xFFFFFFFF), u(2)}},
			[]ir.Value{u(9), u(0x7FFFFFFF)}},
		{"u32 rem", binKernel(ir.OpRem, ir.U32, ir.U32, ir.U32),
			[][]ir.Value{{u(9), u(0)}, {u(9), u(4)}},
			[]ir.Value{u(0), u(1)}},
		{"u32 shl", binKernel(ir.OpShl, ir.U32, ir.U32, ir.U32),
			[][]ir.Value{{u(1), u(33)}, {u(1), u(31)}, {u(3), u(32)}},
			[]ir.Value{u(2), u(0x80000000), u(3)}},
		{"i32 shr", binKernel(ir.OpShr, ir.I32, ir.U32, ir.I32),
			[][]ir.Value{{i(-8), u(1)}, {i(-8), u(33)}, {i(intMin), u(31)}},
			[]ir.Value{i(-4), i(-4), i(-1)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, ir.Verify(c.m))
			got := runGPU(t, c.m, "k", Portable, c.args)
			for j := range c.want {
				assert.True(t, ir.Equal(c.want[j], got[j][0]), "invocation %d %v: want %v, got %v", j, c.args[j], c.want[j], got[j][0])
			}
		})
	}
}

// TestPortableConversionSaturates checks float→int conversion against
// WGSL #floating-point-conversion: truncate, then the nearest value
// representable in both types.
func TestPortableConversionSaturates(t *testing.T) {
	conv := func(to *ir.Type) *ir.Module {
		f := &ir.Func{Name: "k", Params: []*ir.Param{{Name: "f", T: ir.F32}}, Result: to,
			Body: ir.NewBlock(ir.Pos{}, &ir.Return{Value: &ir.Convert{T: to, X: param("f", ir.F32)}})}
		return &ir.Module{Funcs: []*ir.Func{f}}
	}
	f := ir.F32Val
	args := [][]ir.Value{{f(1e10)}, {f(-1e10)}, {f(-1.5)}, {f(2.75)}, {f(4294967296)}}
	gotI := runGPU(t, conv(ir.I32), "k", Portable, args)
	wantI := []int32{2147483520, math.MinInt32, -1, 2, 2147483520}
	gotU := runGPU(t, conv(ir.U32), "k", Portable, args)
	wantU := []uint32{4294967040, 0, 0, 2, 4294967040}
	for j := range args {
		assert.Equal(t, wantI[j], gotI[j][0].I32(), "i32(%v)", args[j][0].F32())
		assert.Equal(t, wantU[j], gotU[j][0].U32(), "u32(%v)", args[j][0].F32())
	}
}

// TestBoolCrossesAsU32 checks the ABI's bool mirrors: a struct with a bool
// and a vec2<bool> goes in and comes back out through u32 records.
func TestBoolCrossesAsU32(t *testing.T) {
	s := &ir.StructDecl{Name: "P", Fields: []ir.Field{
		{Name: "flag", Type: ir.Bool}, {Name: "v", Type: ir.Vec(2, ir.Bool)}, {Name: "n", Type: ir.I32}}}
	pt := ir.StructType(s)
	p := param("p", pt)
	flag := &ir.Member{X: p, Field: 0, T: ir.Bool}
	// fn k(p: P, b: bool) -> P { return P(!p.flag, !p.v, select(p.n, -p.n, b)); }
	body := &ir.Return{Value: &ir.Construct{T: pt, Args: []ir.Expr{
		&ir.Unary{Op: ir.OpNot, X: flag, T: ir.Bool},
		&ir.Unary{Op: ir.OpNot, X: &ir.Member{X: param("p", pt), Field: 1, T: ir.Vec(2, ir.Bool)}, T: ir.Vec(2, ir.Bool)},
		&ir.Select{False: &ir.Member{X: param("p", pt), Field: 2, T: ir.I32},
			True: &ir.Unary{Op: ir.OpNeg, X: &ir.Member{X: param("p", pt), Field: 2, T: ir.I32}, T: ir.I32},
			Cond: param("b", ir.Bool), T: ir.I32},
	}}}
	m := &ir.Module{Structs: []*ir.StructDecl{s}, Funcs: []*ir.Func{{Name: "k",
		Params: []*ir.Param{{Name: "p", T: pt}, {Name: "b", T: ir.Bool}}, Result: pt, Body: ir.NewBlock(ir.Pos{}, body)}}}
	require.NoError(t, ir.Verify(m))
	b := ir.BoolVal
	mk := func(f bool, v0, v1 bool, n int32) ir.Value {
		return ir.CompositeVal(pt, b(f), ir.CompositeVal(ir.Vec(2, ir.Bool), b(v0), b(v1)), ir.I32Val(n))
	}
	args := [][]ir.Value{{mk(true, false, true, 5), b(true)}, {mk(false, true, true, -9), b(false)}}
	want := []ir.Value{mk(false, true, false, -5), mk(true, false, false, -9)}
	for _, mode := range []Mode{Portable, Raw} {
		got := runGPU(t, m, "k", mode, args)
		for j := range want {
			assert.True(t, ir.Equal(want[j], got[j][0]), "%s invocation %d: want %v, got %v", mode, j, want[j], got[j][0])
		}
	}
}

func TestEmitRewritesOnlyWhatNeedsGuards(t *testing.T) {
	m := binKernel(ir.OpDiv, ir.I32, ir.I32, ir.I32)
	src, _, err := Emit(m, "k", EmitOptions{Mode: Portable})
	require.NoError(t, err)
	assert.Contains(t, src, "select(b, 1i, (b == 0i) | ((a == i32(-2147483648)) & (b == -1i)))")
	raw, _, err := Emit(m, "k", EmitOptions{Mode: Raw})
	require.NoError(t, err)
	assert.Contains(t, raw, "return a / b;")
	assert.NotContains(t, raw, "select(")

	// A literal divisor that is neither 0 nor -1 needs no guard.
	m.Funcs[0].Body.Stmts[0].(*ir.Return).Value.(*ir.Binary).Y = &ir.Lit{Val: ir.I32Val(4)}
	src, _, err = Emit(m, "k", EmitOptions{Mode: Portable})
	require.NoError(t, err)
	assert.Contains(t, src, "return a / 4i;")
	assert.False(t, strings.Contains(src, "gpudiff_div"), src)
}

// TestPortableCompoundAssignmentReadsFirst: WGSL expands `g ^= h()` to
// `g = g ^ (h())`, evaluated left to right (#compound-assignment-sec,
// #program-order), so g is read (3) before h sets it to 0 and returns 1:
// 3 ^ 1 = 2. naga 0.19.2 (wgpu 0.19.4) reads g after the call (0 ^ 1 = 1)
// unless portable mode spells the expansion out.
func TestPortableCompoundAssignmentReadsFirst(t *testing.T) {
	g := func() *ir.Ident { return &ir.Ident{Name: "g", T: ir.I32, Ref: ir.RefGlobal} }
	h := &ir.Func{Name: "h", Result: ir.I32, Body: ir.NewBlock(ir.Pos{},
		&ir.Assign{LHS: g(), RHS: &ir.Lit{Val: ir.I32Val(0)}},
		&ir.Return{Value: &ir.Lit{Val: ir.I32Val(1)}})}
	k := &ir.Func{Name: "k", Params: []*ir.Param{{Name: "p", T: ir.I32}}, Result: ir.I32, Body: ir.NewBlock(ir.Pos{},
		&ir.Assign{LHS: g(), Op: ir.OpXor, RHS: &ir.Call{Func: "h", T: ir.I32}},
		&ir.Return{Value: g()})}
	m := &ir.Module{Globals: []*ir.Global{{Name: "g", T: ir.I32, Init: &ir.Lit{Val: ir.I32Val(3)}}}, Funcs: []*ir.Func{h, k}}
	require.NoError(t, ir.Verify(m))
	got := runGPU(t, m, "k", Portable, [][]ir.Value{{ir.I32Val(0)}})
	assert.Equal(t, int32(2), got[0][0].I32(), "ret")
	assert.Equal(t, int32(2), got[0][1].I32(), "g")
}

// TestBoolArrayCrossesAsU32: an array<bool, 3> argument and result go
// through the u32 mirror conversion functions.
func TestBoolArrayCrossesAsU32(t *testing.T) {
	at := ir.ArrayOf(ir.Bool, 3)
	// fn k(a: array<bool, 3>) -> array<bool, 3> { return array<bool, 3>(a[2], !a[0], a[1]); }
	idx := func(i uint32) ir.Expr {
		return &ir.Index{X: param("a", at), Index: &ir.Lit{Val: ir.U32Val(i)}, T: ir.Bool}
	}
	body := &ir.Return{Value: &ir.Construct{T: at, Args: []ir.Expr{idx(2), &ir.Unary{Op: ir.OpNot, X: idx(0), T: ir.Bool}, idx(1)}}}
	m := &ir.Module{Funcs: []*ir.Func{{Name: "k", Params: []*ir.Param{{Name: "a", T: at}}, Result: at, Body: ir.NewBlock(ir.Pos{}, body)}}}
	require.NoError(t, ir.Verify(m))
	b := ir.BoolVal
	arr := func(x, y, z bool) ir.Value { return ir.CompositeVal(at, b(x), b(y), b(z)) }
	args := [][]ir.Value{{arr(true, false, false)}, {arr(false, true, true)}}
	want := []ir.Value{arr(false, false, false), arr(true, true, true)}
	for _, mode := range []Mode{Portable, Raw} {
		got := runGPU(t, m, "k", mode, args)
		for j := range want {
			assert.True(t, ir.Equal(want[j], got[j][0]), "%s invocation %d: want %v, got %v", mode, j, want[j], got[j][0])
		}
	}
}

// TestEmitFoldsOverflowingIntegerLiterals: `2147483647i + 1i` is a WGSL
// const-expression that wraps to INT_MIN (#arithmetic-expr); naga rejects
// it as an overflow, so the emitter folds it (both modes) and the kernel
// runs on lavapipe returning INT_MIN + a.
func TestEmitFoldsOverflowingIntegerLiterals(t *testing.T) {
	sum := &ir.Binary{Op: ir.OpAdd, X: &ir.Lit{Val: ir.I32Val(2147483647)}, Y: &ir.Lit{Val: ir.I32Val(1)}, T: ir.I32}
	m := &ir.Module{Funcs: []*ir.Func{{Name: "k", Params: []*ir.Param{{Name: "a", T: ir.I32}}, Result: ir.I32,
		Body: ir.NewBlock(ir.Pos{}, &ir.Return{Value: &ir.Binary{Op: ir.OpAdd, X: sum, Y: param("a", ir.I32), T: ir.I32}})}}}
	require.NoError(t, ir.Verify(m))
	for _, mode := range []Mode{Portable, Raw} {
		src, _, err := Emit(m, "k", EmitOptions{Mode: mode})
		require.NoError(t, err)
		assert.Contains(t, src, "return i32(-2147483648) + a;", mode)
		got := runGPU(t, m, "k", mode, [][]ir.Value{{ir.I32Val(5)}})
		assert.Equal(t, int32(-2147483643), got[0][0].I32(), mode)
	}
}
