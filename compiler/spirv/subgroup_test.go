package spirv

import (
	"fmt"
	"regexp"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// subgroupBuiltins are every subgroup and quad builtin.
func subgroupBuiltins() []ir.Builtin {
	var out []ir.Builtin
	for b := ir.Builtin(1); int(b) < len(ir.Builtins); b++ {
		if ir.Builtins[b].Name != "" && b.Info().Class == ir.ClassSubgroup {
			out = append(out, b)
		}
	}
	return out
}

// subgroupCall builds b's call on the value v (of type vt) with
// the constant second operand WGSL wants (an id, mask or delta of 1 as
// u32, or as i32 when signed) where b takes one.
func subgroupCall(b ir.Builtin, v ir.Expr, signed bool) ir.Expr {
	switch b.Info().Args {
	case 0:
		return bi(b)
	case 2:
		second := u32(1)
		if signed && b != ir.BSubgroupShuffleUp && b != ir.BSubgroupShuffleDown {
			second = i32(1)
		}
		return bi(b, v, second)
	}
	return bi(b, v)
}

// TestSubgroupBuiltinsValidate emits every subgroup and quad builtin on
// every scalar and vector type it accepts (f16 included; i32 ids where
// WGSL allows them) in both modes, and checks the modules with spirv-val
// (Vulkan 1.1: SPIR-V 1.3's non-uniform instructions). One module per
// builtin holds all its overloads, a helper function each.
func TestSubgroupBuiltinsValidate(t *testing.T) {
	types := append(scalarAndVectorTypes(), f16Types()...)
	for _, b := range subgroupBuiltins() {
		t.Run(b.String(), func(t *testing.T) {
			var exprs []func([]ir.Expr) ir.Expr
			for i, vt := range types {
				for _, signed := range []bool{false, true} {
					if b.Info().Args == 0 && (i > 0 || signed) {
						continue
					}
					var probe []*ir.Type
					if b.Info().Args >= 1 {
						probe = append(probe, vt)
					}
					if b.Info().Args == 2 {
						if signed {
							probe = append(probe, ir.I32)
						} else {
							probe = append(probe, ir.U32)
						}
					}
					if _, err := ir.BuiltinResultType(b, probe); err != nil {
						continue
					}
					i, signed := i, signed
					exprs = append(exprs, func(ps []ir.Expr) ir.Expr { return subgroupCall(b, ps[i], signed) })
				}
			}
			require.NotEmpty(t, exprs, "no overload of %v found", b)
			validateBothModes(t, phonyKernel(types, exprs))
		})
	}
}

// subgroupInstruction returns the first OpGroupNonUniform… line of our
// disassembly of words and the module's capabilities, sorted.
func subgroupInstruction(t *testing.T, words []uint32) (string, []string) {
	t.Helper()
	text := dis(t, words)
	line := regexp.MustCompile(`OpGroupNonUniform\w+[^\n]*`).FindString(text)
	caps := capabilities(t, words)
	sort.Strings(caps)
	return line, caps
}

// TestSubgroupLowerings checks each builtin's instruction, its Group
// Operation, its scope (the u32 constant 3, Subgroup: SPIR-V §3.27) and
// the exact capabilities declared, read by hand from SPIR-V §3.52.24
// ("Non-Uniform Instructions": each instruction's capability) and WGSL
// #subgroup-builtin-functions (which operation each builtin is).
func TestSubgroupLowerings(t *testing.T) {
	arith := []string{"GroupNonUniformArithmetic", "Shader"}
	cases := []struct {
		b    ir.Builtin
		t    *ir.Type
		inst string // opcode and, for arithmetic, the group operation
		caps []string
	}{
		{ir.BSubgroupAdd, ir.I32, "OpGroupNonUniformIAdd %S Reduce", arith},
		{ir.BSubgroupAdd, v3f, "OpGroupNonUniformFAdd %S Reduce", arith},
		{ir.BSubgroupMul, ir.U32, "OpGroupNonUniformIMul %S Reduce", arith},
		{ir.BSubgroupMul, ir.F32, "OpGroupNonUniformFMul %S Reduce", arith},
		{ir.BSubgroupMin, ir.I32, "OpGroupNonUniformSMin %S Reduce", arith},
		{ir.BSubgroupMin, v2u, "OpGroupNonUniformUMin %S Reduce", arith},
		{ir.BSubgroupMin, ir.F32, "OpGroupNonUniformFMin %S Reduce", arith},
		{ir.BSubgroupMax, v4i, "OpGroupNonUniformSMax %S Reduce", arith},
		{ir.BSubgroupMax, ir.U32, "OpGroupNonUniformUMax %S Reduce", arith},
		{ir.BSubgroupMax, ir.F32, "OpGroupNonUniformFMax %S Reduce", arith},
		{ir.BSubgroupAnd, ir.U32, "OpGroupNonUniformBitwiseAnd %S Reduce", arith},
		{ir.BSubgroupOr, v2i, "OpGroupNonUniformBitwiseOr %S Reduce", arith},
		{ir.BSubgroupXor, ir.I32, "OpGroupNonUniformBitwiseXor %S Reduce", arith},
		{ir.BSubgroupInclusiveAdd, ir.U32, "OpGroupNonUniformIAdd %S InclusiveScan", arith},
		{ir.BSubgroupExclusiveAdd, ir.F32, "OpGroupNonUniformFAdd %S ExclusiveScan", arith},
		{ir.BSubgroupInclusiveMul, ir.F32, "OpGroupNonUniformFMul %S InclusiveScan", arith},
		{ir.BSubgroupExclusiveMul, ir.I32, "OpGroupNonUniformIMul %S ExclusiveScan", arith},
		{ir.BSubgroupAll, ir.Bool, "OpGroupNonUniformAll %S", []string{"GroupNonUniformVote", "Shader"}},
		{ir.BSubgroupAny, ir.Bool, "OpGroupNonUniformAny %S", []string{"GroupNonUniformVote", "Shader"}},
		{ir.BSubgroupBallot, ir.Bool, "OpGroupNonUniformBallot %S", []string{"GroupNonUniformBallot", "Shader"}},
		{ir.BSubgroupBroadcast, ir.F32, "OpGroupNonUniformBroadcast %S", []string{"GroupNonUniformBallot", "Shader"}},
		{ir.BSubgroupBroadcastFirst, v2u, "OpGroupNonUniformBroadcastFirst %S", []string{"GroupNonUniformBallot", "Shader"}},
		{ir.BSubgroupElect, nil, "OpGroupNonUniformElect %S", []string{"GroupNonUniform", "Shader"}},
		{ir.BSubgroupShuffle, ir.I32, "OpGroupNonUniformShuffle %S", []string{"GroupNonUniformShuffle", "Shader"}},
		{ir.BSubgroupShuffleXor, v4f, "OpGroupNonUniformShuffleXor %S", []string{"GroupNonUniformShuffle", "Shader"}},
		{ir.BSubgroupShuffleUp, ir.U32, "OpGroupNonUniformShuffleUp %S", []string{"GroupNonUniformShuffleRelative", "Shader"}},
		{ir.BSubgroupShuffleDown, ir.F32, "OpGroupNonUniformShuffleDown %S", []string{"GroupNonUniformShuffleRelative", "Shader"}},
		{ir.BQuadBroadcast, ir.U32, "OpGroupNonUniformQuadBroadcast %S", []string{"GroupNonUniformQuad", "Shader"}},
		{ir.BQuadSwapX, ir.I32, "OpGroupNonUniformQuadSwap %S %V %0", []string{"GroupNonUniformQuad", "Shader"}},
		{ir.BQuadSwapY, ir.I32, "OpGroupNonUniformQuadSwap %S %V %1", []string{"GroupNonUniformQuad", "Shader"}},
		{ir.BQuadSwapDiagonal, ir.I32, "OpGroupNonUniformQuadSwap %S %V %2", []string{"GroupNonUniformQuad", "Shader"}},
		// f16 needs Float16 too (and the ABI's buffers 16-bit storage).
		{ir.BSubgroupAdd, v4h, "OpGroupNonUniformFAdd %S Reduce", []string{"Float16", "GroupNonUniformArithmetic", "Shader", "StorageBuffer16BitAccess"}},
		{ir.BSubgroupShuffleXor, ir.F16, "OpGroupNonUniformShuffleXor %S", []string{"Float16", "GroupNonUniformShuffle", "Shader", "StorageBuffer16BitAccess"}},
	}
	for _, c := range cases {
		name := c.b.String()
		if c.t != nil {
			name += "(" + c.t.String() + ")"
		}
		t.Run(name, func(t *testing.T) {
			var x ir.Expr
			var ps []*ir.Param
			if c.t == nil {
				x = bi(c.b)
			} else {
				ps = params("v", c.t)
				x = subgroupCall(c.b, param("v", c.t), false)
			}
			words := emitValid(t, module(fn("k", ps, x.Type(), ret(x))), "k", Options{Mode: Portable})
			line, caps := subgroupInstruction(t, words)
			assert.Equal(t, c.caps, caps)
			ids := constIDs(words)
			want := regexp.QuoteMeta(c.inst)
			want = regexp.MustCompile(`%S`).ReplaceAllString(want, fmt.Sprintf(`%%\d+ %%%d`, ids[[2]uint32{0, scopeSubgroup}]))
			want = regexp.MustCompile(`%V`).ReplaceAllString(want, `%\d+`)
			for _, d := range []uint32{0, 1, 2} {
				want = regexp.MustCompile(fmt.Sprintf(`%%%d$`, d)).ReplaceAllString(want, fmt.Sprintf(`%%%d`, ids[[2]uint32{0, d}]))
			}
			assert.Regexp(t, "^"+want, line)
			// Our disassembly of the enumerants and operands is spirv-dis's.
			assert.Equal(t, spirvDis(t, words), dis(t, words))
		})
	}
}

// constIDs maps (0, value) of each u32 OpConstant of words to its id.
func constIDs(words []uint32) map[[2]uint32]uint32 {
	u32 := uint32(0)
	out := map[[2]uint32]uint32{}
	for i := headerLength; i < len(words); {
		n, op := int(words[i]>>16), opcode(words[i]&0xffff)
		in := words[i : i+n]
		switch {
		case op == opTypeInt && in[2] == 32 && in[3] == 0:
			u32 = in[1]
		case op == opConstant && u32 != 0 && in[1] == u32:
			out[[2]uint32{0, in[3]}] = in[2]
		}
		i += n
	}
	return out
}

// TestSubgroupIDs checks the id operands SPIR-V 1.3 constrains: an
// unsigned integer (Signedness 0) in every case, and a constant for
// OpGroupNonUniformBroadcast's Id and OpGroupNonUniformQuadBroadcast's
// Index (before SPIR-V 1.5). An i32 constant id (WGSL allows i32 ids)
// becomes the u32 constant of its bits; an i32 run-time id or mask is
// bitcast; a broadcast id the emitter cannot see as a constant is
// lowered as OpGroupNonUniformShuffle (capability GroupNonUniformShuffle).
func TestSubgroupIDs(t *testing.T) {
	v := param("v", ir.F32)
	id := param("id", ir.I32)
	cases := []struct {
		name string
		x    ir.Expr
		re   string
	}{
		{"broadcast i32 constant", bi(ir.BSubgroupBroadcast, v, i32(5)), `OpGroupNonUniformBroadcast %\d+ %\d+ %\d+ %C5\b`},
		{"quadBroadcast i32 constant", bi(ir.BQuadBroadcast, v, i32(3)), `OpGroupNonUniformQuadBroadcast %\d+ %\d+ %\d+ %C3\b`},
		{"shuffle i32 run-time id", bi(ir.BSubgroupShuffle, v, id), `OpBitcast %U %\d+\n.*OpGroupNonUniformShuffle %\d+ %\d+ %\d+ %\d+`},
		{"shuffleXor i32 constant", bi(ir.BSubgroupShuffleXor, v, i32(2)), `OpGroupNonUniformShuffleXor %\d+ %\d+ %\d+ %C2\b`},
		{"broadcast run-time id", bi(ir.BSubgroupBroadcast, v, id), `OpBitcast %U %\d+\n.*OpGroupNonUniformShuffle %\d+`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			words := emitValid(t, module(fn("k", params("v", ir.F32, "id", ir.I32), ir.F32, ret(c.x))), "k", Options{Mode: Raw})
			text := dis(t, words)
			ids := constIDs(words)
			re := c.re
			for _, k := range []uint32{2, 3, 5} {
				re = regexp.MustCompile(fmt.Sprintf(`%%C%d\\b`, k)).ReplaceAllString(re, fmt.Sprintf(`%%%d\b`, ids[[2]uint32{0, k}]))
			}
			u := regexp.MustCompile(`%(\d+) = OpTypeInt 32 0`).FindStringSubmatch(text)
			require.NotNil(t, u)
			re = regexp.MustCompile(`%U`).ReplaceAllString(re, "%"+u[1])
			assert.Regexp(t, re, text)
		})
	}
}

// subgroupEntry is a compute or fragment entry point "main" taking the
// subgroup builtin values:
//
//	fn main(@builtin(subgroup_invocation_id) sid: u32, @builtin(subgroup_size) n: u32)
func subgroupEntry(stage ir.Stage) *ir.Module {
	sid, n := param("sid", ir.U32), param("n", ir.U32)
	ps := []*ir.Param{{Name: "sid", T: ir.U32, Builtin: "subgroup_invocation_id"}, {Name: "n", T: ir.U32, Builtin: "subgroup_size"}}
	out := &ir.SharedVar{Name: "out", T: &ir.Type{Kind: ir.KindRuntimeArray, Elem: ir.U32}, Space: ir.SpaceStorage, Access: ir.AccessReadWrite}
	body := assign(index(shared("out", out.T), sid), n)
	main := fn("main", ps, ir.Void, body)
	main.Stage = stage
	if stage == ir.StageCompute {
		main.WorkgroupSize = [3]uint32{64, 1, 1}
	} else {
		main.Result = ir.Vec(4, ir.F32)
		main.Body.Stmts = append(main.Body.Stmts, ret(cons(ir.Vec(4, ir.F32))))
	}
	return &ir.Module{File: "test.wgsl", Funcs: []*ir.Func{main}, Shared: []*ir.SharedVar{out}}
}

// TestSubgroupBuiltinValues checks subgroup_invocation_id and
// subgroup_size: u32 Input variables decorated BuiltIn
// SubgroupLocalInvocationId and SubgroupSize, in the entry point's
// interface, with capability GroupNonUniform; Flat in a fragment entry
// point (an integer fragment Input, Vulkan VUID-StandaloneSpirv-Flat-04744)
// and not in a compute one.
func TestSubgroupBuiltinValues(t *testing.T) {
	for _, stage := range []ir.Stage{ir.StageCompute, ir.StageFragment} {
		t.Run(stage.String(), func(t *testing.T) {
			m := subgroupEntry(stage)
			if err := ir.Verify(m); err != nil && stage == ir.StageFragment {
				// WGSL allows both in the fragment stage; ir.Verify does
				// not yet (fragment builtin values, ir/verify.go).
				t.Skipf("ir.Verify refuses fragment subgroup builtin values: %v", err)
			}
			words := emitValid(t, m, "main", DefaultOptions())
			text := dis(t, words)
			caps := capabilities(t, words)
			sort.Strings(caps)
			assert.Equal(t, []string{"GroupNonUniform", "Shader"}, caps)
			for name, builtIn := range map[string]string{"subgroup_invocation_id": "SubgroupLocalInvocationId", "subgroup_size": "SubgroupSize"} {
				m := regexp.MustCompile(`OpName %(\d+) "(?:in_)?` + name + `"`).FindStringSubmatch(text)
				require.NotNil(t, m, name)
				v := m[1]
				assert.Regexp(t, `OpDecorate %`+v+` BuiltIn `+builtIn+`\n`, text)
				ptr := regexp.MustCompile(`%` + v + ` = OpVariable %(\d+) Input`).FindStringSubmatch(text)
				require.NotNil(t, ptr, name)
				assert.Regexp(t, `%`+ptr[1]+` = OpTypePointer Input %\d+`, text)
				assert.Regexp(t, `OpEntryPoint \w+ %\d+ "main"[^\n]* %`+v+`\b`, text)
				if stage == ir.StageFragment {
					assert.Regexp(t, `OpDecorate %`+v+` Flat\n`, text)
				} else {
					assert.NotRegexp(t, `OpDecorate %`+v+` Flat\n`, text)
				}
			}
		})
	}
}

// TestSubgroupInVertexStageIsAnError: WGSL allows subgroup builtins in
// the compute and fragment stages only.
func TestSubgroupInVertexStageIsAnError(t *testing.T) {
	x := &ir.BuiltinCall{Pos: ir.Pos{Line: 2, Col: 11}, Fn: ir.BSubgroupElect, T: ir.Bool}
	vs := fn("vs", nil, ir.Vec(4, ir.F32), ret(sel(cons(ir.Vec(4, ir.F32)), cons(ir.Vec(4, ir.F32), f32(1), f32(1), f32(1), f32(1)), x)))
	vs.Stage, vs.ResultBuiltin = ir.StageVertex, "position"
	_, err := Emit(&ir.Module{File: "test.wgsl", Funcs: []*ir.Func{vs}}, "vs", DefaultOptions())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "test.wgsl:2:11: spirv: subgroupElect in a vertex entry point's call graph")
}
