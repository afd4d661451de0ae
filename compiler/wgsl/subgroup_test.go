package wgsl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// Subgroups through the front end and the emitter (issue 40; WGSL
// #extension-subgroups, #subgroup-builtin-functions,
// #quad-builtin-functions, #subgroup-builtin-values).

// sgModule wraps statements in a compute entry point that has the two
// subgroup builtin values (sid, size) and a u32 x, behind `enable
// subgroups;` (and f16).
func sgModule(body string) string {
	return "enable f16;\nenable subgroups;\n@group(0) @binding(0) var<storage, read_write> out: array<u32, 64>;\n" +
		"@compute @workgroup_size(64)\nfn main(@builtin(local_invocation_index) x: u32, @builtin(subgroup_invocation_id) sid: u32, @builtin(subgroup_size) size: u32) {\n" +
		body + "\n}\n"
}

// TestSubgroupBuiltinsLower: every subgroup and quad builtin of the IR
// lowers to its ir.BuiltinCall with WGSL's result type; abstract
// arguments concretize (a lane index to i32, a delta to u32).
func TestSubgroupBuiltinsLower(t *testing.T) {
	for _, tc := range []struct {
		call string
		b    ir.Builtin
		t    *ir.Type
	}{
		{"subgroupAdd(x)", ir.BSubgroupAdd, ir.U32},
		{"subgroupMul(vec2(1.5h))", ir.BSubgroupMul, ir.Vec(2, ir.F16)},
		{"subgroupMin(1)", ir.BSubgroupMin, ir.I32},
		{"subgroupMax(2.5)", ir.BSubgroupMax, ir.F32},
		{"subgroupAnd(vec3(x))", ir.BSubgroupAnd, ir.Vec(3, ir.U32)},
		{"subgroupOr(x)", ir.BSubgroupOr, ir.U32},
		{"subgroupXor(-1)", ir.BSubgroupXor, ir.I32},
		{"subgroupAll(x > 3u)", ir.BSubgroupAll, ir.Bool},
		{"subgroupAny(x > 3u)", ir.BSubgroupAny, ir.Bool},
		{"subgroupBroadcast(x, 3)", ir.BSubgroupBroadcast, ir.U32},
		{"subgroupBroadcastFirst(f32(x))", ir.BSubgroupBroadcastFirst, ir.F32},
		{"subgroupElect()", ir.BSubgroupElect, ir.Bool},
		{"subgroupBallot(sid == 0u)", ir.BSubgroupBallot, ir.Vec(4, ir.U32)},
		{"subgroupShuffle(x, sid ^ 1u)", ir.BSubgroupShuffle, ir.U32},
		{"subgroupInclusiveAdd(size)", ir.BSubgroupInclusiveAdd, ir.U32},
		{"subgroupExclusiveAdd(1.0h)", ir.BSubgroupExclusiveAdd, ir.F16},
		{"subgroupInclusiveMul(2)", ir.BSubgroupInclusiveMul, ir.I32},
		{"subgroupExclusiveMul(vec4<f32>())", ir.BSubgroupExclusiveMul, ir.Vec(4, ir.F32)},
		{"subgroupShuffleXor(x, 1)", ir.BSubgroupShuffleXor, ir.U32},
		{"subgroupShuffleUp(x, 2)", ir.BSubgroupShuffleUp, ir.U32},
		{"subgroupShuffleDown(vec2(x), 1u)", ir.BSubgroupShuffleDown, ir.Vec(2, ir.U32)},
		{"quadBroadcast(x, 3u)", ir.BQuadBroadcast, ir.U32},
		{"quadSwapX(x)", ir.BQuadSwapX, ir.U32},
		{"quadSwapY(1.0h)", ir.BQuadSwapY, ir.F16},
		{"quadSwapDiagonal(i32(x))", ir.BQuadSwapDiagonal, ir.I32},
	} {
		m, err := Parse("x.wgsl", []byte(sgModule("  let r = "+tc.call+";")))
		require.NoError(t, err, tc.call)
		f := m.Func("main")
		require.NotNil(t, f, "%s: main is in the subset", tc.call)
		call, ok := f16Inits(f)["r"].(*ir.BuiltinCall)
		require.True(t, ok, "%s lowers to a BuiltinCall", tc.call)
		assert.Equal(t, tc.b, call.Fn, tc.call)
		assert.True(t, ir.Identical(tc.t, call.T), "%s: type %v, want %v", tc.call, call.T, tc.t)
		switch tc.b {
		case ir.BSubgroupBroadcast:
			assert.True(t, ir.Identical(ir.I32, call.Args[1].Type()), "the lane index 3 is an i32 (AbstractInt's first conversion)")
		case ir.BSubgroupShuffleXor, ir.BSubgroupShuffleUp:
			assert.True(t, ir.Identical(ir.U32, call.Args[1].Type()), "%s: the mask or delta is a u32", tc.call)
		}
	}
}

// TestSubgroupOverloadErrors: arguments WGSL's overloads refuse, each an
// error at the argument or the call.
func TestSubgroupOverloadErrors(t *testing.T) {
	const at = "x.wgsl:6:" // the statement line of sgModule
	for _, tc := range []struct{ call, col, msg string }{
		{"subgroupAdd(true)", "7", "no overload of subgroupAdd(bool)"},
		{"subgroupAnd(1.0)", "7", "no overload of subgroupAnd(AbstractFloat)"},
		{"subgroupBallot(1u)", "7", "no overload of subgroupBallot(u32)"},
		{"subgroupBroadcast(x, sid)", "28", "the sourceLaneIndex argument of subgroupBroadcast must be a const-expression"},
		{"subgroupBroadcast(x, 128u)", "28", "the sourceLaneIndex argument of subgroupBroadcast is 128, not in [0, 128)"},
		{"quadBroadcast(x, 4)", "24", "the id argument of quadBroadcast is 4, not in [0, 4)"},
		{"subgroupShuffleXor(x, -1)", "29", "value -1 cannot be represented as u32"},
		{"subgroupShuffle(x, 1.5)", "26", "argument 2 of subgroupShuffle must be an integer scalar"},
		{"quadSwapX(vec2(true))", "7", "no overload of quadSwapX(vec2<bool>)"},
	} {
		_, err := Parse("x.wgsl", []byte(sgModule("  _ = "+tc.call+";")))
		if assert.Error(t, err, tc.call) {
			assert.Contains(t, err.Error(), at+tc.col+": check: "+tc.msg, tc.call)
		}
	}
}

// TestSubgroupBuiltinValues: a compute entry point takes
// subgroup_invocation_id and subgroup_size (u32) as parameters and struct
// members; a fragment entry point's are outside the subset (valid WGSL),
// positioned; a wrong type is an error.
func TestSubgroupBuiltinValues(t *testing.T) {
	m := ptParse(t, "enable subgroups;\nstruct In { @builtin(subgroup_size) n: u32, @builtin(local_invocation_index) i: u32 }\n"+
		"@compute @workgroup_size(4) fn main(in: In, @builtin(subgroup_invocation_id) sid: u32) { _ = in.n + sid; }")
	f := m.Func("main")
	require.NotNil(t, f)
	assert.Equal(t, "subgroup_invocation_id", f.Params[1].Builtin)
	assert.Equal(t, "subgroup_size", f.Params[0].T.Struct.Fields[0].Builtin)
	assert.True(t, ModuleNeedsSubgroups(m))

	frag := ptParse(t, "enable subgroups;\n@fragment fn fs(@builtin(subgroup_size) n: u32) -> @location(0) vec4<f32> { return vec4<f32>(f32(n)); }")
	require.Len(t, frag.Opaque, 2)
	o := frag.Opaque[1]
	assert.Equal(t, "fs", o.Name)
	assert.Contains(t, o.Reason, "builtin value subgroup_size in a fragment entry point")
	assert.Equal(t, ir.Pos{Line: 2, Col: 26}, o.ReasonPos)

	_, err := Parse("x.wgsl", []byte("enable subgroups;\n@compute @workgroup_size(4) fn main(@builtin(subgroup_size) n: i32) {}"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "x.wgsl:2:64: check: @builtin(subgroup_size) has type u32, not i32")
}

// TestSubgroupsWithoutEnableAreNoted: without `enable subgroups;` a
// module that uses a subgroup builtin is accepted (as naga accepts it)
// and Notes says WGSL requires the directive, at the first use; with the
// directive there is no note. Tint refuses the first and accepts the
// second (the note's claim).
func TestSubgroupsWithoutEnableAreNoted(t *testing.T) {
	without := "@group(0) @binding(0) var<storage, read_write> out: array<u32, 64>;\n@compute @workgroup_size(64)\n" +
		"fn main(@builtin(local_invocation_index) i: u32) {\n  out[i] = subgroupAdd(i) + subgroupBroadcastFirst(i);\n}\n"
	m := ptParse(t, without)
	notes := Notes(m)
	require.Len(t, notes, 1)
	assert.True(t, strings.HasPrefix(notes[0].Error(), "test.wgsl:4:12: note: subgroupAdd without `enable subgroups;`: WGSL requires the directive"), notes[0].Error())
	with := "enable subgroups;\n" + without
	assert.Empty(t, Notes(ptParse(t, with)))
	assert.Empty(t, Notes(ptParse(t, "fn k(x: u32) -> u32 { return x; }")), "no subgroup use, no note")

	values := ptParse(t, "@compute @workgroup_size(4) fn main(@builtin(subgroup_size) n: u32) { _ = n; }")
	if vn := Notes(values); assert.Len(t, vn, 1) {
		assert.Contains(t, vn[0].Error(), "test.wgsl:1:37: note: @builtin(subgroup_size) without `enable subgroups;`")
	}

	tint := ptTintCheck(t)
	ok, _ := tint.accepts(t, without)
	assert.False(t, ok, "Tint refuses subgroup builtins without the directive")
	ok, msg := tint.accepts(t, with)
	assert.True(t, ok, "Tint accepts them with it: %s", msg)
}

// TestSubgroupBarrierIsNagas: naga's subgroupBarrier() (not WGSL; naga's
// tests/in/subgroup-operations.wgsl calls it) is refused at the call,
// named as naga's own builtin, not as an undeclared identifier.
func TestSubgroupBarrierIsNagas(t *testing.T) {
	_, err := Parse("x.wgsl", []byte("@compute @workgroup_size(1)\nfn main() {\n    subgroupBarrier();\n}"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "x.wgsl:3:5: check: subgroupBarrier is naga's own builtin")
	assert.NotContains(t, err.Error(), "undeclared identifier")
}

// TestSubgroupUniformityInAComputeEntryPoint: a subgroup builtin must be called from uniform
// control flow at the default severity of subgroup_uniformity (error;
// WGSL #uniformity-function-calls); `diagnostic(off,
// subgroup_uniformity)` lifts it. Tint agrees on both.
func TestSubgroupUniformityInAComputeEntryPoint(t *testing.T) {
	body := "@group(0) @binding(0) var<storage, read_write> out: array<u32, 64>;\n@compute @workgroup_size(64)\n" +
		"fn main(@builtin(local_invocation_index) i: u32) {\n  if (i < 3u) {\n    out[i] = subgroupAdd(i);\n  }\n}\n"
	strict := "enable subgroups;\n" + body
	_, err := Parse("x.wgsl", []byte(strict))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "x.wgsl:6:14: check: subgroupAdd must only be called from uniform control flow")
	lifted := "enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n" + body
	ptParse(t, lifted)
	tint := ptTintCheck(t)
	ok, _ := tint.accepts(t, strict)
	assert.False(t, ok, "Tint refuses the divergent subgroupAdd")
	ok, msg := tint.accepts(t, lifted)
	assert.True(t, ok, "Tint accepts it with the rule off: %s", msg)
}

// TestEmitSubgroupsEnable: an emitted module that uses a subgroup
// builtin or builtin value starts with `enable subgroups;` (after `enable
// f16;` when it also uses f16), whether or not its source had it;
// EmitOptions.OmitSubgroupsEnable leaves it out; a module without
// subgroups gets neither. The emitted text parses back to the same
// function, and Tint accepts it.
func TestEmitSubgroupsEnable(t *testing.T) {
	src := "@group(0) @binding(0) var<storage, read_write> out: array<f16, 64>;\n@compute @workgroup_size(64)\n" +
		"fn main(@builtin(local_invocation_index) i: u32, @builtin(subgroup_size) n: u32) {\n  out[i] = subgroupExclusiveAdd(f16(i)) + quadSwapY(f16(n));\n}\n"
	m := ptParse(t, "enable f16;\n"+src)
	got, err := EmitEntry(m, "main", EmitOptions{Mode: Raw})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(got, "enable f16;\nenable subgroups;\n\n"), got)
	m2, err := Parse("emitted.wgsl", []byte(got))
	require.NoError(t, err, got)
	assert.Equal(t, ir.PrintFunc(m.Func("main")), ir.PrintFunc(m2.Func("main")))
	assert.Empty(t, Notes(m2), "the emitted module has the directive")

	omitted, err := EmitEntry(m, "main", EmitOptions{OmitSubgroupsEnable: true})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(omitted, "enable f16;\n\n"), omitted)
	assert.NotContains(t, omitted, "enable subgroups")

	kernel := ptParse(t, "fn k(x: u32) -> u32 { return subgroupMax(x); }")
	k, _, err := Emit(kernel, "k", EmitOptions{})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(k, "enable subgroups;\n"), k)

	ok, msg := ptTintCheck(t).accepts(t, got)
	assert.True(t, ok, "Tint rejects the emitted module: %s\n%s", msg, got)
}

// TestSubgroupBuiltinsNotInTheVertexStage: a subgroup builtin reached
// from a vertex entry point is an error at the call (WGSL
// #subgroup-builtin-functions: compute and fragment stages only), as in
// Tint; a fragment entry point may call one.
func TestSubgroupBuiltinsNotInTheVertexStage(t *testing.T) {
	vertex := "enable subgroups;\nfn h(x: f32) -> f32 { return subgroupAdd(x); }\n" +
		"@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> { return vec4<f32>(h(f32(i))); }\n"
	_, err := Parse("x.wgsl", []byte(vertex))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "x.wgsl:2:30: check: subgroupAdd must only be used in the compute or fragment stage, but vertex entry point vs calls it")
	fragment := "enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n@fragment fn fs(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> { return vec4<f32>(subgroupAdd(p.x)); }\n"
	ptParse(t, fragment)
	tint := ptTintCheck(t)
	ok, _ := tint.accepts(t, vertex)
	assert.False(t, ok, "Tint refuses subgroupAdd in the vertex stage")
	ok, msg := tint.accepts(t, fragment)
	assert.True(t, ok, "Tint accepts it in the fragment stage: %s", msg)
}
