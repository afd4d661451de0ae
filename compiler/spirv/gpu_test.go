package spirv

import (
	"context"
	"math"
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
func gpu(t testing.TB) *harness.Device {
	t.Helper()
	lavapipeOnce.Do(func() { lavapipe, lavapipeErr = harness.Open("vulkan:llvmpipe") })
	require.NoError(t, lavapipeErr, "lavapipe (Vulkan on llvmpipe) is needed: install mesa-vulkan-drivers (make deps)")
	return lavapipe
}

// runGPU emits kernel (checking it with spirv-val), runs it on lavapipe
// for the given arguments and returns the decoded output records.
func runGPU(t testing.TB, m *ir.Module, kernel string, opts Options, args [][]ir.Value) [][]ir.Value {
	t.Helper()
	return runOn(t, gpu(t), m, kernel, emitValid(t, m, kernel, opts), args)
}

// runOn runs words, the SPIR-V of m's kernel, on dev for the given
// arguments and returns the decoded output records.
func runOn(t testing.TB, dev *harness.Device, m *ir.Module, kernel string, words []uint32, args [][]ir.Value) [][]ir.Value {
	t.Helper()
	abi, err := ir.NewKernelABI(m, kernel)
	require.NoError(t, err)
	in, err := abi.EncodeInputs(args)
	require.NoError(t, err)
	out, err := dev.Run(context.Background(), harness.Kernel{SPIRV: words, EntryPoint: EntryPoint},
		harness.Dispatch{Input: in, OutputSize: len(args) * abi.OutputStride, Invocations: len(args)})
	require.NoError(t, err, "%s", dev.Info().Name)
	vals, err := abi.DecodeOutputs(out, len(args))
	require.NoError(t, err)
	return vals
}

// binKernel is fn k(a: A, b: B) -> R { return a op b; }.
func binKernel(op ir.BinaryOp, a, b *ir.Type) *ir.Module {
	return module(fn("k", params("a", a, "b", b), must(ir.BinaryResultType(op, a, b)),
		ret(bin(op, param("a", a), param("b", b)))))
}

// unKernel is fn k(a: A) -> R { return body(a); }.
func unKernel(a *ir.Type, body func(ir.Expr) ir.Expr) *ir.Module {
	x := body(param("a", a))
	return module(fn("k", params("a", a), x.Type(), ret(x)))
}

const intMin = math.MinInt32

var (
	iv = ir.I32Val
	uv = ir.U32Val
	fv = ir.F32Val
	bv = ir.BoolVal
)

func args1(vs ...ir.Value) [][]ir.Value {
	out := make([][]ir.Value, len(vs))
	for i, v := range vs {
		out[i] = []ir.Value{v}
	}
	return out
}

type gpuCase struct {
	name string
	m    *ir.Module
	args [][]ir.Value
	want []ir.Value // the "ret" output of each invocation
}

func checkGPU(t *testing.T, opts Options, cases []gpuCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Len(t, c.want, len(c.args))
			got := runGPU(t, c.m, "k", opts, c.args)
			for i := range c.args {
				assert.True(t, ir.Equal(c.want[i], got[i][0]), "invocation %d %v: got %v, want %v", i, c.args[i], got[i][0], c.want[i])
			}
		})
	}
}

// TestPortableEdgeCasesOnGPU runs portable-mode kernels on lavapipe for
// the inputs where WGSL and plain SPIR-V differ. Expected values are read
// by hand from the WGSL spec (#arithmetic-expr, #bit-expr,
// #floating-point-conversion, the builtin sections) and ARCHITECTURE.md
// "Semantics".
func TestPortableEdgeCasesOnGPU(t *testing.T) {
	i, u, f := iv, uv, fv
	arr4 := ir.ArrayOf(ir.I32, 4)
	cases := []gpuCase{
		{"i32 div", binKernel(ir.OpDiv, ir.I32, ir.I32),
			[][]ir.Value{{i(7), i(2)}, {i(-7), i(2)}, {i(7), i(0)}, {i(intMin), i(-1)}, {i(-8), i(-1)}, {i(0), i(0)}, {i(intMin), i(1)}},
			[]ir.Value{i(3), i(-3), i(7), i(intMin), i(8), i(0), i(intMin)}},
		{"i32 rem", binKernel(ir.OpRem, ir.I32, ir.I32),
			[][]ir.Value{{i(7), i(2)}, {i(-7), i(2)}, {i(7), i(-2)}, {i(7), i(0)}, {i(intMin), i(-1)}},
			[]ir.Value{i(1), i(-1), i(1), i(0), i(0)}},
		{"u32 div", binKernel(ir.OpDiv, ir.U32, ir.U32),
			[][]ir.Value{{u(7), u(2)}, {u(7), u(0)}, {u(0xFFFFFFFF), u(1)}, {u(0xFFFFFFFF), u(0)}},
			[]ir.Value{u(3), u(7), u(0xFFFFFFFF), u(0xFFFFFFFF)}},
		{"u32 rem", binKernel(ir.OpRem, ir.U32, ir.U32),
			[][]ir.Value{{u(7), u(3)}, {u(7), u(0)}},
			[]ir.Value{u(1), u(0)}},
		{"vec2<i32> div", binKernel(ir.OpDiv, v2i, v2i),
			[][]ir.Value{{ir.CompositeVal(v2i, i(intMin), i(9)), ir.CompositeVal(v2i, i(-1), i(0))}},
			[]ir.Value{ir.CompositeVal(v2i, i(intMin), i(9))}},
		{"vec2<i32> % scalar", binKernel(ir.OpRem, v2i, ir.I32),
			[][]ir.Value{{ir.CompositeVal(v2i, i(intMin), i(9)), i(-1)}, {ir.CompositeVal(v2i, i(5), i(9)), i(0)}},
			[]ir.Value{ir.CompositeVal(v2i, i(0), i(0)), ir.CompositeVal(v2i, i(0), i(0))}},
		{"i32 <<", binKernel(ir.OpShl, ir.I32, ir.U32),
			[][]ir.Value{{i(1), u(33)}, {i(1), u(31)}, {i(-1), u(32)}, {i(3), u(0xFFFFFFFF)}},
			[]ir.Value{i(2), i(intMin), i(-1), i(intMin)}},
		{"i32 >>", binKernel(ir.OpShr, ir.I32, ir.U32),
			[][]ir.Value{{i(-8), u(33)}, {i(intMin), u(31)}, {i(64), u(38)}},
			[]ir.Value{i(-4), i(-1), i(1)}},
		{"u32 >>", binKernel(ir.OpShr, ir.U32, ir.U32),
			[][]ir.Value{{u(0x80000000), u(33)}, {u(0x80000000), u(63)}},
			[]ir.Value{u(0x40000000), u(1)}},
		{"vec2<u32> <<", binKernel(ir.OpShl, v2u, v2u),
			[][]ir.Value{{ir.CompositeVal(v2u, u(1), u(1)), ir.CompositeVal(v2u, u(32), u(36))}},
			[]ir.Value{ir.CompositeVal(v2u, u(1), u(16))}},
		{"f32 to i32", unKernel(ir.F32, func(a ir.Expr) ir.Expr { return conv(ir.I32, a) }),
			args1(f(3e9), f(-3e9), f(1.9), f(-1.9), f(2147483520), f(-2147483648)),
			[]ir.Value{i(2147483520), i(intMin), i(1), i(-1), i(2147483520), i(intMin)}},
		{"f32 to u32", unKernel(ir.F32, func(a ir.Expr) ir.Expr { return conv(ir.U32, a) }),
			args1(f(-1), f(5e9), f(3.7), f(4294967040)),
			[]ir.Value{u(0), u(4294967040), u(3), u(4294967040)}},
		{"vec2<f32> to vec2<i32>", unKernel(v2f, func(a ir.Expr) ir.Expr { return conv(v2i, a) }),
			args1(ir.CompositeVal(v2f, f(1e10), f(-1e10))),
			[]ir.Value{ir.CompositeVal(v2i, i(2147483520), i(intMin))}},
		{"abs i32", unKernel(ir.I32, func(a ir.Expr) ir.Expr { return bi(ir.BAbs, a) }),
			args1(i(intMin), i(-5), i(5)),
			[]ir.Value{i(intMin), i(5), i(5)}},
		{"clamp lo > hi", unKernel(ir.I32, func(a ir.Expr) ir.Expr { return bi(ir.BClamp, a, i32(10), i32(0)) }),
			// WGSL clamp(e, low, high) = min(max(e, low), high).
			args1(i(5), i(-5), i(20)),
			[]ir.Value{i(0), i(0), i(0)}},
		{"clamp f32 lo > hi", unKernel(ir.F32, func(a ir.Expr) ir.Expr { return bi(ir.BClamp, a, f32(1), f32(-1)) }),
			args1(f(0.5), f(3)),
			[]ir.Value{f(-1), f(-1)}},
		{"extractBits u32", unKernel(ir.U32, func(a ir.Expr) ir.Expr { return bi(ir.BExtractBits, a, u32(28), u32(8)) }),
			// o = 28, c = min(8, 32-28) = 4: bits 28..31.
			args1(u(0xF0000000), u(0x5FFFFFFF)),
			[]ir.Value{u(0xF), u(0x5)}},
		{"extractBits i32", unKernel(ir.I32, func(a ir.Expr) ir.Expr { return bi(ir.BExtractBits, a, u32(28), u32(8)) }),
			// The 4-bit field is sign-extended from its bit 3.
			args1(i(0x70000000), i(-0x10000000)),
			[]ir.Value{i(7), i(-1)}},
		{"extractBits offset 40", unKernel(ir.U32, func(a ir.Expr) ir.Expr { return bi(ir.BExtractBits, a, u32(40), u32(3)) }),
			// o = min(40, 32) = 32, c = min(3, 0) = 0: the result is 0.
			args1(u(0xFFFFFFFF)),
			[]ir.Value{u(0)}},
		{"insertBits", unKernel(ir.U32, func(a ir.Expr) ir.Expr { return bi(ir.BInsertBits, a, u32(0xFFFFFFFF), u32(30), u32(5)) }),
			// o = 30, c = min(5, 2) = 2: bits 30 and 31 set.
			args1(u(0), u(1)),
			[]ir.Value{u(0xC0000000), u(0xC0000001)}},
		{"firstLeadingBit i32", unKernel(ir.I32, func(a ir.Expr) ir.Expr { return bi(ir.BFirstLeadingBit, a) }),
			args1(i(0), i(-1), i(1), i(-2), i(0x40000000), i(intMin)),
			[]ir.Value{i(-1), i(-1), i(0), i(0), i(30), i(30)}},
		{"firstLeadingBit u32", unKernel(ir.U32, func(a ir.Expr) ir.Expr { return bi(ir.BFirstLeadingBit, a) }),
			args1(u(0), u(0x80000000), u(1)),
			[]ir.Value{u(0xFFFFFFFF), u(31), u(0)}},
		{"firstTrailingBit", unKernel(ir.I32, func(a ir.Expr) ir.Expr { return bi(ir.BFirstTrailingBit, a) }),
			args1(i(0), i(8), i(intMin)),
			[]ir.Value{i(-1), i(3), i(31)}},
		{"countOneBits", unKernel(ir.U32, func(a ir.Expr) ir.Expr { return bi(ir.BCountOneBits, a) }),
			args1(u(0xFF00FF00), u(0)),
			[]ir.Value{u(16), u(0)}},
		{"reverseBits", unKernel(ir.U32, func(a ir.Expr) ir.Expr { return bi(ir.BReverseBits, a) }),
			args1(u(1), u(0x0000FFFF)),
			[]ir.Value{u(0x80000000), u(0xFFFF0000)}},
		{"integer dot wraps", unKernel(v3i, func(a ir.Expr) ir.Expr {
			return bi(ir.BDot, a, vecOf(v3i, i32(2), i32(1), i32(1)))
		}),
			// 0x7FFFFFFF*2 = 0xFFFFFFFE = -2; -2 + 1 + 1 = 0.
			args1(ir.CompositeVal(v3i, i(math.MaxInt32), i(1), i(1))),
			[]ir.Value{i(0)}},
		{"neg wraps", unKernel(ir.I32, func(a ir.Expr) ir.Expr { return un(ir.OpNeg, a) }),
			args1(i(intMin), i(3)),
			[]ir.Value{i(intMin), i(-3)}},
		{"let array index clamped", unKernel(ir.I32, func(a ir.Expr) ir.Expr {
			return index(cons(arr4, i32(10), i32(20), i32(30), i32(40)), a)
		}),
			// min(u32(i), 3): -1 → 0xFFFFFFFF → 3.
			args1(i(2), i(-1), i(7), i(0)),
			[]ir.Value{i(30), i(40), i(40), i(10)}},
		{"vector index clamped", unKernel(ir.U32, func(a ir.Expr) ir.Expr {
			return index(vecOf(v3f, f32(1), f32(2), f32(3)), a)
		}),
			args1(u(1), u(3), u(0xFFFFFFFF)),
			[]ir.Value{f(2), f(3), f(3)}},
		{"var array index clamped", module(fn("k", params("a", ir.I32), ir.I32,
			varDecl("arr", arr4, cons(arr4, i32(1), i32(2), i32(3), i32(4))),
			assign(index(local("arr", arr4), param("a", ir.I32)), i32(100)),
			ret(bin(ir.OpAdd, index(local("arr", arr4), i32(3)), bin(ir.OpMul, i32(1000), index(local("arr", arr4), i32(0))))))),
			// The store goes to arr[min(u32(a), 3)]; the result is arr[3] + 1000*arr[0].
			args1(i(0), i(3), i(9), i(-4)),
			[]ir.Value{i(4 + 100000), i(100 + 1000), i(100 + 1000), i(100 + 1000)}},
		{"bool through ABI", module(fn("k", params("b", ir.Bool, "v", v2b), v2b,
			ret(sel(param("v", v2b), un(ir.OpNot, param("v", v2b)), param("b", ir.Bool))))),
			[][]ir.Value{{bv(true), ir.CompositeVal(v2b, bv(true), bv(false))}, {bv(false), ir.CompositeVal(v2b, bv(true), bv(false))}},
			[]ir.Value{ir.CompositeVal(v2b, bv(false), bv(true)), ir.CompositeVal(v2b, bv(true), bv(false))}},
	}
	checkGPU(t, DefaultOptions(), cases)
}

// TestPortableVectorLogicOnGL runs vecN<bool> & and | (WGSL
// #logical-expr: component-wise) in portable mode on wgpu's GL backend,
// where naga translates SPIR-V's OpLogicalAnd/OpLogicalOr on vectors to
// GLSL && and ||, which GLSL defines on scalars only: the module does not
// compile there (the raw module still uses them, which the test also
// checks). Expected values are the truth tables, lane by lane.
func TestPortableVectorLogicOnGL(t *testing.T) {
	gl, err := harness.Open("gl:llvmpipe")
	require.NoError(t, err, "wgpu's GL backend on llvmpipe is needed: install libegl1, libgles2, libegl-mesa0 and libgl1-mesa-dri (make deps)")
	t.Cleanup(gl.Close)
	v4b := ir.Vec(4, ir.Bool)
	vb := func(x, y, z, w bool) ir.Value { return ir.CompositeVal(v4b, bv(x), bv(y), bv(z), bv(w)) }
	// Lanes: (false, false), (false, true), (true, false), (true, true).
	x, y := vb(false, false, true, true), vb(false, true, false, true)
	for _, c := range []struct {
		op    ir.BinaryOp
		logic string
		want  ir.Value
	}{
		{ir.OpAnd, "OpLogicalAnd", vb(false, false, false, true)},
		{ir.OpOr, "OpLogicalOr", vb(false, true, true, true)},
	} {
		t.Run(c.logic, func(t *testing.T) {
			m := binKernel(c.op, v4b, v4b)
			raw, err := Disassemble(emitValid(t, m, "k", Options{Mode: Raw}))
			require.NoError(t, err)
			assert.Contains(t, raw, c.logic, "raw mode emits the operator as written")
			words := emitValid(t, m, "k", DefaultOptions())
			portable, err := Disassemble(words)
			require.NoError(t, err)
			assert.NotContains(t, portable, "OpLogical")

			args := [][]ir.Value{{x, y}, {y, x}}
			for _, dev := range []*harness.Device{gl, gpu(t)} {
				got := runOn(t, dev, m, "k", words, args)
				for i := range args {
					assert.True(t, ir.Equal(c.want, got[i][0]), "%s invocation %d: got %v, want %v", dev.Info().Name, i, got[i][0], c.want)
				}
			}
		})
	}
}
