package spirv

import (
	"context"
	"encoding/binary"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// endlessLoopModule is a generated program (fuzz/gen, profile "calls",
// seed 15, size 10) reduced by statement deletion while wgpu+lavapipe
// kept losing the device creating its pipeline when its dead merge blocks
// (the endless inner loop's, the outer loop's, the if's whose arms both
// break) held OpUnreachable. spirv-val accepts it and SwiftShader runs it;
// with dead merge blocks that return (workarounds.noUnreachable) lavapipe
// runs it too.
//
//	fn kernel(p0: u32, p1: vec3<u32>, p2: i32) -> bool {
//	  switch (~p1.z) {
//	    case 0u, 4u, 7u: {}
//	    case 5u, 100u, 9u: {
//	      var i17: i32 = 2i;
//	      loop {
//	        {
//	          var i18: u32 = 4u;
//	          loop {
//	            switch (i18) {
//	              case 8u: {}
//	              case 9u, 5u: {
//	                if (bool(bitcast<i32>(p1[p1[2i] % 3u])) && true) { break; } else { break; }
//	              }
//	              default: {}
//	            }
//	          }
//	        }
//	        continuing { break if i17 >= 8i; }
//	      }
//	    }
//	    case 8u: {}
//	    case 6u, 1u, 3u: {}
//	    default: {}
//	  }
//	  return all(vec2<bool>(bool(p1[min(p1.y / p1.z, 2u)])));
//	}
func endlessLoopModule() *ir.Module {
	p1 := param("p1", v3u)
	i17, i18 := local("i17", ir.I32), local("i18", ir.U32)
	uvs := func(vs ...uint32) []ir.Value {
		var out []ir.Value
		for _, v := range vs {
			out = append(out, uv(v))
		}
		return out
	}
	cond := bin(ir.OpLogAnd, conv(ir.Bool, bitcast(ir.I32, index(p1, bin(ir.OpRem, index(p1, i32(2)), u32(3))))), boolLit(true))
	inner := switchOf(i18,
		caseOf(uvs(8), false),
		caseOf(uvs(9, 5), false, ifElse(cond, []ir.Stmt{brk()}, []ir.Stmt{brk()})),
		caseOf(nil, true))
	k := fn("kernel", params("p0", ir.U32, "p1", v3u, "p2", ir.I32), ir.Bool,
		switchOf(un(ir.OpCompl, swz(p1, 2)),
			caseOf(uvs(0, 4, 7), false),
			caseOf(uvs(5, 100, 9), false,
				varDecl("i17", ir.I32, i32(2)),
				loop([]ir.Stmt{blk(varDecl("i18", ir.U32, u32(4)), loop([]ir.Stmt{inner}, nil, nil))},
					nil, bin(ir.OpGe, i17, i32(8)))),
			caseOf(uvs(8), false),
			caseOf(uvs(6, 1, 3), false),
			caseOf(nil, true)),
		ret(bi(ir.BAll, cons(v2b, conv(ir.Bool, index(p1, bi(ir.BMin, bin(ir.OpDiv, swz(p1, 1), swz(p1, 2)), u32(2))))))))
	return module(k)
}

// endlessLoopArgs: ~p1.z = 0x7FFFFFFF selects the default clause, so the
// kernel returns all(vec2(bool(p1[min(0xFFFFFFFF / 0x80000000, 2)]))) =
// bool(p1[1]) = true (by hand).
func endlessLoopArgs() [][]ir.Value {
	return [][]ir.Value{{uv(0), ir.CompositeVal(v3u, uv(1), uv(0xFFFFFFFF), uv(0x80000000)), iv(-1)}}
}

func TestEndlessLoopOnGPU(t *testing.T) {
	got := runGPU(t, endlessLoopModule(), "kernel", DefaultOptions(), endlessLoopArgs())
	assert.True(t, ir.Equal(bv(true), got[0][0]), "got %v", got[0][0])
	emitValid(t, endlessLoopModule(), "kernel", Options{Mode: Raw})
}

// quirkChildEnv selects a test's child-process role (see losesDevice).
const quirkChildEnv = "GPUDIFF_SPIRV_TEST_CHILD"

// losesDevice reports whether running words (emitted for kernel of m) on
// lavapipe for args fails, as a lost device does. A lost device may abort
// wgpu-native (harness/doc.go), so the run happens in a child process —
// this test binary re-executed for test name — on a device of its own.
// The child reports "quirk: accepted" or "quirk: rejected: <error>".
func losesDevice(t *testing.T, m *ir.Module, kernel string, words []uint32, args [][]ir.Value) bool {
	t.Helper()
	if os.Getenv(quirkChildEnv) == t.Name() {
		abi, err := ir.NewKernelABI(m, kernel)
		require.NoError(t, err)
		in, err := abi.EncodeInputs(args)
		require.NoError(t, err)
		dev, err := harness.Open("vulkan:llvmpipe")
		require.NoError(t, err, "lavapipe (Vulkan on llvmpipe) is needed: install mesa-vulkan-drivers (make deps)")
		defer dev.Close()
		_, err = dev.Run(context.Background(), harness.Kernel{SPIRV: words, EntryPoint: EntryPoint},
			harness.Dispatch{Input: in, OutputSize: len(args) * abi.OutputStride, Invocations: len(args)})
		if err != nil {
			t.Logf("quirk: rejected: %s", strings.ReplaceAll(err.Error(), "\n", " "))
		} else {
			t.Logf("quirk: accepted")
		}
		t.SkipNow() // the child's verdict is its log; the parent asserts
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v")
	cmd.Env = append(os.Environ(), quirkChildEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	t.Logf("child (exit %v):\n%s", err, out)
	require.True(t, err != nil || strings.Contains(string(out), "quirk: "), "the child did not run the module")
	return err != nil || strings.Contains(string(out), "quirk: rejected:")
}

// TestUnreachableMergeQuirk documents workarounds.noUnreachable: with
// OpUnreachable in its dead merge blocks, endlessLoopModule is valid
// (spirv-val) but wgpu+lavapipe lose the device creating its pipeline.
// When this test fails, the stack compiles such modules: the workaround
// may go.
func TestUnreachableMergeQuirk(t *testing.T) {
	m := endlessLoopModule()
	w := allWorkarounds
	w.noUnreachable = false
	words, err := emitModule(m, "kernel", DefaultOptions(), w)
	require.NoError(t, err)
	requireValid(t, words)
	require.Contains(t, must(Disassemble(words)), "OpUnreachable")
	assert.True(t, losesDevice(t, m, "kernel", words, endlessLoopArgs()),
		"lavapipe now compiles OpUnreachable merge blocks: workarounds.noUnreachable may go")
}

// constantConstructModule is a generated program (fuzz/gen, profile
// "calls", seed 12, size 10) reduced by statement deletion, then by hand,
// while wgpu+lavapipe kept losing the device creating its pipeline:
//
//	fn k(p: u32) -> u32 {
//	  let f = false;
//	  if (all(vec4<bool>(f, false, vec2<bool>(true, true)))) { return 1u; }
//	  return p;
//	}
//
// Unfolded, the constructor is an OpCompositeConstruct whose operands are
// all constants, scalars and a vector.
func constantConstructModule() *ir.Module {
	f := letRef("f", ir.Bool)
	return module(fn("k", params("p", ir.U32), ir.U32,
		letDecl("f", boolLit(false)),
		ifThen(bi(ir.BAll, cons(v4b, f, boolLit(false), cons(v2b, boolLit(true), boolLit(true)))), ret(u32(1))),
		ret(param("p", ir.U32))))
}

// TestConstantConstructQuirk documents workarounds.foldConstructs. With it
// the kernel returns p (the vector is not all true); without it the module
// is valid but wgpu+lavapipe lose the device. When the second half fails,
// the stack compiles such constructors: folding is then an optimization,
// not a workaround.
func TestConstantConstructQuirk(t *testing.T) {
	m := constantConstructModule()
	if os.Getenv(quirkChildEnv) == "" {
		checkGPU(t, DefaultOptions(), []gpuCase{{"folded", m, args1(uv(7)), []ir.Value{uv(7)}}})
	}
	w := allWorkarounds
	w.foldConstructs = false
	words, err := emitModule(m, "k", DefaultOptions(), w)
	require.NoError(t, err)
	requireValid(t, words)
	require.Contains(t, must(Disassemble(words)), "OpCompositeConstruct")
	assert.True(t, losesDevice(t, m, "k", words, args1(uv(7))),
		"lavapipe now compiles OpCompositeConstruct of constants: workarounds.foldConstructs is an optimization only")
}

// TestSwitchDefaultLiteralsQuirk documents workarounds.noDefaultLiterals:
// OpSwitch %sel %default 6 %default 3 %default 2 %two is valid SPIR-V
// (SPIR-V §3.52.17, OpSwitch: any target may repeat) that sends 6 and 3 to
// the default clause, but wgpu's SPIR-V path sends them to %two, on
// lavapipe and on SwiftShader alike — so the fault is in wgpu's SPIR-V
// front end (naga), the part the two adapters share. When this test fails, the stack handles such literals: the workaround
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

	words, err := emitModule(m, "k", DefaultOptions(), workarounds{noUnreachable: true, foldConstructs: true})
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

// barrierLoadSrc reads workgroup memory before a barrier and stores to it
// after: every invocation loads tile[0] while it still holds 0 (workgroup
// memory starts zeroed, WGSL #var-and-value, and nothing stores to it
// before the first barrier: WGSL #sync-builtin-functions orders the load
// before every invocation's store after that barrier), so out[li] = 0 +
// 100 for all 16 invocations; tile[0] becomes 1 only in the next phase.
const barrierLoadSrc = `@group(0) @binding(0) var<storage, read_write> out: array<u32, 16>;
var<workgroup> tile: array<u32, 16>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) li: u32) {
  let first = tile[0u];
  workgroupBarrier();
  tile[li] = li + 1u;
  workgroupBarrier();
  out[li] = first + 100u;
}
`

// runBarrierLoad dispatches words (barrierLoadSrc's SPIR-V) on lavapipe
// and returns out.
func runBarrierLoad(t *testing.T, words []uint32) []uint32 {
	t.Helper()
	got, err := gpu(t).Run(context.Background(), harness.Kernel{SPIRV: words, EntryPoint: "main"},
		harness.Dispatch{Buffers: []harness.BufferBinding{{Group: 0, Binding: 0, Kind: harness.BindingStorage, Data: make([]byte, 64)}},
			Workgroups: [3]uint32{1, 1, 1}})
	require.NoError(t, err)
	require.Len(t, got, 64)
	out := make([]uint32, 16)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(got[4*i:])
	}
	return out
}

// TestBarrierLoadQuirk documents workarounds.barrierBlock. With it, the
// OpControlBarrier after the load of tile[0] opens its own block and every
// invocation gets 100 on lavapipe, in both modes. Without it the module is
// valid and holds the load before the barrier, but wgpu's SPIR-V front end
// (naga 0.19.2, gfx-rs/wgpu#8151) evaluates the load after the barrier,
// just before tile[li] = li + 1: lavapipe runs the workgroup 8 invocations
// at a time, switching at barriers, so invocations 8..15 read the 1 that
// invocation 0 stored (SwiftShader, 4 at a time, goes wrong from
// invocation 4). When the second half fails, naga keeps loads before
// barriers: the workaround may go.
func TestBarrierLoadQuirk(t *testing.T) {
	m, err := wgsl.Parse("barrier_load.wgsl", []byte(barrierLoadSrc))
	require.NoError(t, err)
	want := make([]uint32, 16)
	for i := range want {
		want[i] = 100
	}
	for _, o := range bothModes {
		words := emitValid(t, m, "main", o)
		asm := must(Disassemble(words))
		split := regexp.MustCompile(`OpLoad [^\n]*\n\s*OpBranch (%\d+)\n\s*(%\d+) = OpLabel\n\s*OpControlBarrier`).FindStringSubmatch(asm)
		require.NotNil(t, split, "%s: the barrier after the load of tile[0] opens a block:\n%s", o.Mode, asm)
		require.Equal(t, split[1], split[2], "%s: the branch goes to the barrier's block", o.Mode)
		assert.Equal(t, want, runBarrierLoad(t, words), "%s mode, with the workaround", o.Mode)
	}

	w := allWorkarounds
	w.barrierBlock = false
	words, err := emitModule(m, "main", DefaultOptions(), w)
	require.NoError(t, err)
	requireValid(t, words)
	require.Regexp(t, `OpLoad [^\n]*\n\s*OpControlBarrier`, must(Disassemble(words)), "without the workaround the load sits just before the barrier")
	got := runBarrierLoad(t, words)
	t.Logf("without the workaround: %v", got)
	assert.NotEqual(t, want, got, "wgpu's SPIR-V front end now keeps loads before barriers: workarounds.barrierBlock may go")
}
