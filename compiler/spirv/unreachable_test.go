package spirv

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// unreachableMergeModule is a generated program (fuzz/gen, profile
// "control", seed 12, size 60) reduced by statement deletion while
// wgpu+lavapipe kept losing the device creating its pipeline. Its switches
// list values in their default clauses, and the innermost one's merge
// block is dead (OpUnreachable). Without the values in OpSwitch
// (workarounds.noDefaultLiterals) it compiles and runs correctly;
// SwiftShader and the GL adapter run it correctly either way.
//
//	var<private> g0: i32 = -6i;
//	fn h3() -> i32 { let v0: i32 = g0; return max(v0, -1421672342i); }
//	fn kernel(p0: vec3<i32>, p1: array<u32, 2>, p2: f32) -> i32 {
//	  var v0: bool = any(vec2<bool>(bool(g0)));
//	  switch (p0.z & 7i) {
//	    case 7i: {
//	      switch (p1[0u]) {
//	        case 5u, default: {}
//	        case 8u: {}
//	        case 0u: {
//	          switch ((select(h3(), p0[min(p1[1u] * p1[1i], 2u)], v0) - abs(p0[min(~p1[0u], 2u)])) & 7i) {
//	            case -2i, 0i, 6i, default: {
//	              return ((p0.y >> 9u) ^ -1i) + (p0.y % p0[2u] + p0.y / p0.z);
//	            }
//	          }
//	        }
//	      }
//	    }
//	    default: {}
//	    case 100i: {}
//	  }
//	  return p0[1u];
//	}
func unreachableMergeModule() *ir.Module {
	g0 := global("g0", ir.I32)
	h3 := fn("h3", nil, ir.I32,
		letDecl("v0", g0),
		ret(bi(ir.BMax, letRef("v0", ir.I32), i32(-1421672342))))
	arr := ir.ArrayOf(ir.U32, 2)
	p0, p1, v0 := param("p0", v3i), param("p1", arr), local("v0", ir.Bool)
	clamp2 := func(x ir.Expr) ir.Expr { return bi(ir.BMin, x, u32(2)) }
	inner := switchOf(
		bin(ir.OpAnd,
			bin(ir.OpSub,
				sel(callFn(h3), index(p0, clamp2(bin(ir.OpMul, index(p1, u32(1)), index(p1, i32(1))))), v0),
				bi(ir.BAbs, index(p0, clamp2(un(ir.OpCompl, index(p1, u32(0))))))),
			i32(7)),
		caseOf([]ir.Value{iv(-2), iv(0), iv(6)}, true,
			ret(bin(ir.OpAdd,
				bin(ir.OpXor, bin(ir.OpShr, swz(p0, 1), u32(9)), i32(-1)),
				bin(ir.OpAdd, bin(ir.OpRem, swz(p0, 1), index(p0, u32(2))), bin(ir.OpDiv, swz(p0, 1), swz(p0, 2)))))))
	k := fn("kernel", params("p0", v3i, "p1", arr, "p2", ir.F32), ir.I32,
		varDecl("v0", ir.Bool, bi(ir.BAny, cons(v2b, conv(ir.Bool, g0)))),
		switchOf(bin(ir.OpAnd, swz(p0, 2), i32(7)),
			caseOf([]ir.Value{iv(7)}, false,
				switchOf(index(p1, u32(0)),
					caseOf([]ir.Value{uv(5)}, true),
					caseOf([]ir.Value{uv(8)}, false),
					caseOf([]ir.Value{uv(0)}, false, inner))),
			caseOf(nil, true),
			caseOf([]ir.Value{iv(100)}, false)),
		ret(index(p0, u32(1))))
	m := module(h3, k)
	m.Globals = []*ir.Global{{Name: "g0", T: ir.I32, Init: i32(-6)}}
	return m
}

// TestUnreachableMergeOnGPU runs the reduced program on lavapipe. For the
// argument below p0.z & 7 = 7 and p1[0] = 1 select the empty default
// clause of the middle switch, so the kernel returns p0[1] = 1 and g0 keeps
// its initializer -6 (derived by hand from the source above).
func TestUnreachableMergeOnGPU(t *testing.T) {
	m := unreachableMergeModule()
	p0 := ir.CompositeVal(v3i, iv(0), iv(1), iv(-1))
	p1 := ir.CompositeVal(ir.ArrayOf(ir.U32, 2), uv(1), uv(0xFFFFFFFF))
	got := runGPU(t, m, "kernel", DefaultOptions(), [][]ir.Value{{p0, p1, fv(-1)}})
	if !ir.Equal(got[0][0], iv(1)) || !ir.Equal(got[0][1], iv(-6)) {
		t.Errorf("got ret %v, g0 %v; want 1i, -6i", got[0][0], got[0][1])
	}
}

// TestSwitchDefaultLiteralsQuirk documents workarounds.noDefaultLiterals:
// OpSwitch %sel %default 6 %default 3 %default 2 %two is valid SPIR-V
// (SPIR-V §3.52.17, OpSwitch: any target may repeat) that sends 6 and 3 to
// the default clause, but wgpu's SPIR-V path sends them to %two, on
// lavapipe and on SwiftShader alike — so the fault is in wgpu's SPIR-V
// front end (naga), the part the two adapters share. Combined with a dead
// merge block it makes lavapipe lose the device (unreachableMergeModule).
// When this test fails, the stack handles such literals: the workaround
// may go.
func TestSwitchDefaultLiteralsQuirk(t *testing.T) {
	a := param("a", ir.I32)
	m := module(fn("k", params("a", ir.I32), ir.I32,
		varDecl("g", ir.I32, i32(0)),
		switchOf(bin(ir.OpAnd, a, i32(7)),
			caseOf([]ir.Value{iv(6), iv(3)}, true, ret(i32(10))),
			caseOf([]ir.Value{iv(2)}, false, assignOp(ir.OpAdd, local("g", ir.I32), i32(1)))),
		ret(local("g", ir.I32))))
	args := args1(iv(6), iv(3), iv(2), iv(0))
	want := []ir.Value{iv(10), iv(10), iv(1), iv(10)} // by hand: 6 and 3 take the default clause
	checkGPU(t, DefaultOptions(), []gpuCase{{"with workaround", m, args, want}})

	words, err := emitModule(m, "k", DefaultOptions(), workarounds{})
	require.NoError(t, err)
	requireValid(t, words)
	require.Contains(t, must(Disassemble(words)), "OpSwitch %10 %12 6 %12 3 %12 2 %13")
	abi, err := ir.NewKernelABI(m, "k")
	require.NoError(t, err)
	in, err := abi.EncodeInputs(args)
	require.NoError(t, err)
	out, err := gpu(t).Run(context.Background(), harness.Kernel{SPIRV: words, EntryPoint: EntryPoint},
		harness.Dispatch{Input: in, OutputSize: len(args) * abi.OutputStride, Invocations: len(args)})
	require.NoError(t, err)
	got, err := abi.DecodeOutputs(out, len(args))
	require.NoError(t, err)
	t.Logf("without the workaround: %v", got)
	assert.False(t, ir.Equal(got[0][0], want[0]) && ir.Equal(got[1][0], want[1]),
		"wgpu now sends default-clause literals to the default target: workarounds.noDefaultLiterals may go")
}
