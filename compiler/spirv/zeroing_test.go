package spirv

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// TestWorkgroupZeroingCoversEveryLeaf runs zeroWorkgroup's split stores
// on lavapipe for each way a variable is cut (whole; one unit per
// invocation; a loop over scalar units; a loop over two array dimensions;
// a loop over struct units): every invocation ORs every word of the
// variable it reads after the zeroing barrier into out[li], which WGSL
// (#var-and-value: workgroup memory starts zeroed) makes 0. The "row per
// invocation" shape is the 64×64 f32 tile of Tint's
// test/tint/bug/tint/914.wgsl, whose dispatch lavapipe did not finish
// within minutes when invocation 0 stored its null in one OpStore (the
// test then fails with the harness's dispatch timeout). lavapipe and
// SwiftShader both hand each dispatch zeroed workgroup memory, so a unit
// the zeroing missed would read 0 anyway: the test also pins the
// zeroing's code (the unit count its stores are guarded by, the loop's
// step, the indices' radix: a store guarded by one unit too few fails it
// in every shape), and TestZeroUnitsCoverEveryElement checks the cut.
func TestWorkgroupZeroingCoversEveryLeaf(t *testing.T) {
	shapes := []struct {
		name, decl, size, each string // each: the loop over every u32 word of w, reading one into x
		// prologue: what the zeroing before the first OpControlBarrier
		// holds (regular expressions, in order): the unit count the
		// stores are guarded by, the step of the loop (the workgroup's
		// invocations), the radix of the indices
		prologue []string
	}{
		{"whole", "array<u32, 16>", "16", "for (var i = 0u; i < 16u; i++) { x = w[i]; STEP }",
			[]string{`OpIEqual %bool %\w+ %uint_0`, `OpStore %\w+ %\w+`}},
		{"row per invocation", "array<array<u32, 64>, 64>", "16, 16", "for (var i = 0u; i < 64u; i++) { for (var j = 0u; j < 64u; j++) { x = w[i][j]; STEP } }",
			[]string{`OpULessThan %bool %\w+ %uint_64`, `OpAccessChain %_ptr_Workgroup__arr_uint_uint_64 %\w+ %\w+\n`}},
		{"scalar loop", "array<u32, 4096>", "64", "for (var i = 0u; i < 4096u; i++) { x = w[i]; STEP }",
			[]string{`OpULessThan %bool %\w+ %uint_4096`, `OpLoopMerge`, `OpAccessChain %_ptr_Workgroup_uint %\w+ %\w+\n`, `OpIAdd %uint %\w+ %uint_64`}},
		{"two dimensions", "array<array<array<u32, 2>, 40>, 50>", "64", "for (var i = 0u; i < 50u; i++) { for (var j = 0u; j < 40u; j++) { for (var k = 0u; k < 2u; k++) { x = w[i][j][k]; STEP } } }",
			[]string{`OpULessThan %bool %\w+ %uint_2000`, `OpLoopMerge`, `OpUMod %uint %\w+ %uint_40`, `OpUDiv %uint %\w+ %uint_40`, `OpAccessChain %_ptr_Workgroup__arr_uint_uint_2 %\w+ %\w+ %\w+\n`, `OpIAdd %uint %\w+ %uint_64`}},
		{"struct units", "array<S, 300>", "64", "for (var i = 0u; i < 300u; i++) { x = w[i].a.x; STEP x = w[i].a.y; STEP x = w[i].a.z; STEP x = w[i].a.w; STEP x = w[i].b; STEP }",
			[]string{`OpULessThan %bool %\w+ %uint_300`, `OpLoopMerge`, `OpAccessChain %_ptr_Workgroup_S %\w+ %\w+\n`, `OpIAdd %uint %\w+ %uint_64`}},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			head := fmt.Sprintf("struct S { a: vec4<u32>, b: u32 }\n@group(0) @binding(0) var<storage, read_write> out: array<u32, 256>;\nvar<workgroup> w: %s;\n@compute @workgroup_size(%s)\n", sh.decl, sh.size)
			check := head + "fn main(@builtin(local_invocation_index) li: u32) {\n  var x = 0u;\n  var acc = 0u;\n  " +
				strings.ReplaceAll(sh.each, "STEP", "acc = acc | x;") + "\n  out[li] = acc;\n}\n"
			run := func(src string) []uint32 {
				m, err := wgsl.Parse("zero.wgsl", []byte(src))
				require.NoError(t, err, src)
				words := emitValid(t, m, "main", Options{Mode: Portable, DebugNames: true})
				dis := runSpirvDis(t, words)
				pro := dis[strings.Index(dis, "OpFunction "):strings.Index(dis, "OpControlBarrier")]
				require.Regexp(t, strings.Join(sh.prologue, "(?s:.*)"), pro, "the zeroing")
				got, err := gpu(t).Run(context.Background(), harness.Kernel{SPIRV: words, EntryPoint: "main"},
					harness.Dispatch{Buffers: []harness.BufferBinding{{Group: 0, Binding: 0, Kind: harness.BindingStorage, Data: make([]byte, 1024)}},
						Workgroups: [3]uint32{1, 1, 1}})
				require.NoError(t, err)
				out := make([]uint32, 256)
				for i := range out {
					out[i] = binary.LittleEndian.Uint32(got[4*i:])
				}
				return out
			}
			for i, v := range run(check) {
				require.Zero(t, v, "invocation %d read a nonzero word of w after the zeroing: %#x", i, v)
			}
		})
	}
	assert.Equal(t, 64, zeroSplitLeaves, "the shapes above are cut at 64 leaves")
}

// TestZeroUnitsCoverEveryElement checks zeroWorkgroup's cut (zeroCut,
// zeroUnitIndex) and its distribution over the invocations (invocation i
// stores units i, i + n, … below the unit count, n the workgroup's
// invocations): for shapes whole, cut once, cut twice and of structs, and
// 1, 7, 64 and 256 invocations, every element the cut names is stored
// exactly once, each index is within its array, the units' leaves add up
// to the variable's, and a cut unit has at most zeroSplitLeaves leaves
// while what is left uncut is no array of more.
func TestZeroUnitsCoverEveryElement(t *testing.T) {
	for _, decl := range []string{"array<u32, 16>", "array<array<f32, 64>, 64>", "array<u32, 4096>",
		"array<array<array<u32, 2>, 40>, 50>", "array<S, 300>", "S", "array<vec4<f32>, 65>", "array<mat4x4<f32>, 20>"} {
		src := "struct S { a: vec4<u32>, b: u32 }\nvar<workgroup> w: " + decl + ";\n@compute @workgroup_size(1) fn main() { _ = w; }\n"
		m, err := wgsl.Parse("cut.wgsl", []byte(src))
		require.NoError(t, err, decl)
		wt := m.Shared[0].T
		dims, unit := zeroCut(wt)
		units := uint32(1)
		for _, d := range dims {
			units *= d
		}
		assert.Equal(t, leaves(wt), int(units)*leaves(unit), "%s: the units' leaves are the variable's", decl)
		if len(dims) == 0 {
			// Stored whole by invocation 0: small, or no array to cut.
			assert.True(t, leaves(wt) <= zeroSplitLeaves || wt.Kind != ir.KindArray, "%s: left whole", decl)
			continue
		}
		assert.LessOrEqual(t, leaves(unit), zeroSplitLeaves, "%s: a cut unit is small", decl)
		for _, n := range []uint32{1, 7, 64, 256} {
			seen := map[string]int{}
			for li := uint32(0); li < n; li++ {
				for u := li; u < units; u += n {
					idx := zeroUnitIndex(u, dims)
					for k, x := range idx {
						require.Less(t, x, dims[k], "%s: unit %d index %d", decl, u, k)
					}
					seen[fmt.Sprint(idx)]++
				}
			}
			assert.Len(t, seen, int(units), "%s on %d invocations: every element stored", decl, n)
			for k, c := range seen {
				assert.Equal(t, 1, c, "%s on %d invocations: element %s stored once", decl, n, k)
			}
		}
	}
}
