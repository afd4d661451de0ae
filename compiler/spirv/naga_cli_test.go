package spirv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// nagaCLI returns the path of the naga command-line tool (naga-cli, a
// SPIR-V front end that is not ours: wgpu's), skipping the test when it
// is not installed — it is not one of `make deps`' tools (`cargo install
// naga-cli` gives it; these tests were written against naga 30.0.1).
func nagaCLI(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("naga")
	if err != nil {
		t.Skip("naga (naga-cli) not on PATH: cargo install naga-cli to cross-read gpudiff's SPIR-V")
	}
	return p
}

// nagaWGSL has naga read, validate and translate the SPIR-V words to
// WGSL; it returns the WGSL, or naga's complaint and false.
func nagaWGSL(t *testing.T, naga string, words []uint32) (string, bool) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "module.wgsl")
	msg, err := exec.Command(naga, writeBinary(t, words), out).CombinedOutput()
	if err != nil {
		return string(msg), false
	}
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	return string(b), true
}

// TestSubgroupAndF16ReadByNaga has another SPIR-V front end, a current
// naga's, read gpudiff's subgroup and f16 modules back into WGSL: each
// builtin must come back as itself (so our opcodes, group operations and
// quad-swap directions mean what WGSL's names do to another reader:
// quadSwapX is direction 0, quadSwapY 1, quadSwapDiagonal 2; inclusive
// and exclusive scans are InclusiveScan and ExclusiveScan), the values
// keep their f16 types, and naga's validator accepts every module.
func TestSubgroupAndF16ReadByNaga(t *testing.T) {
	naga := nagaCLI(t)
	v := param("v", v4h)
	p := param("p", ir.Bool)
	u := param("u", ir.U32)
	cases := []struct {
		x    ir.Expr
		want string
	}{
		{bi(ir.BSubgroupAdd, v), "subgroupAdd("},
		{bi(ir.BSubgroupMul, u), "subgroupMul("},
		{bi(ir.BSubgroupMin, v), "subgroupMin("},
		{bi(ir.BSubgroupMax, u), "subgroupMax("},
		{bi(ir.BSubgroupAnd, u), "subgroupAnd("},
		{bi(ir.BSubgroupOr, u), "subgroupOr("},
		{bi(ir.BSubgroupXor, u), "subgroupXor("},
		{bi(ir.BSubgroupInclusiveAdd, v), "subgroupInclusiveAdd("},
		{bi(ir.BSubgroupExclusiveAdd, u), "subgroupExclusiveAdd("},
		{bi(ir.BSubgroupInclusiveMul, v), "subgroupInclusiveMul("},
		{bi(ir.BSubgroupExclusiveMul, u), "subgroupExclusiveMul("},
		{bi(ir.BSubgroupAll, p), "subgroupAll("},
		{bi(ir.BSubgroupAny, p), "subgroupAny("},
		{bi(ir.BSubgroupBallot, p), "subgroupBallot("},
		// naga 30's SPIR-V front end has no OpGroupNonUniformElect (its
		// refusal is checked, so this notices when it gains one).
		{bi(ir.BSubgroupElect), "unsupported instruction GroupNonUniformElect"},
		{bi(ir.BSubgroupBroadcast, v, i32(3)), "subgroupBroadcast("},
		{bi(ir.BSubgroupBroadcastFirst, v), "subgroupBroadcastFirst("},
		{bi(ir.BSubgroupShuffle, v, u), "subgroupShuffle("},
		{bi(ir.BSubgroupShuffleXor, v, u32(1)), "subgroupShuffleXor("},
		{bi(ir.BSubgroupShuffleUp, v, u32(1)), "subgroupShuffleUp("},
		{bi(ir.BSubgroupShuffleDown, v, u32(2)), "subgroupShuffleDown("},
		{bi(ir.BQuadBroadcast, v, u32(2)), "quadBroadcast("},
		{bi(ir.BQuadSwapX, v), "quadSwapX("},
		{bi(ir.BQuadSwapY, v), "quadSwapY("},
		{bi(ir.BQuadSwapDiagonal, v), "quadSwapDiagonal("},
		// f16 arithmetic, a constant and conversions.
		{bin(ir.OpMul, v, f16(1.5)), "1.5h"},
		{conv(ir.Vec(4, ir.I32), v), "vec4<i32>("},
		{conv(ir.F16, conv(ir.F32, swz(v, 0))), "f16("},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			m := module(fn("k", params("v", v4h, "p", ir.Bool, "u", ir.U32), c.x.Type(), ret(c.x)))
			got, ok := nagaWGSL(t, naga, emitValid(t, m, "k", Options{Mode: Raw, DebugNames: true}))
			assert.Contains(t, got, c.want)
			if strings.HasPrefix(c.want, "unsupported") {
				assert.False(t, ok, "naga now reads it: expect subgroupElect()")
				return
			}
			require.True(t, ok, "naga: %s", got)
			assert.Contains(t, got, "v: vec4<f16>")
			assert.True(t, strings.HasPrefix(got, "enable f16;"), "naga reads f16: %s", got)
		})
	}
}

// TestEntryPointsReadByNaga has a current naga read and validate the
// f16 bindings module (storage, uniform with split f16 matrices, runtime
// arrays, workgroup), the f16 fragment IO module and the subgroup
// builtin values: naga lays out the bindings itself, so an Offset,
// ArrayStride or MatrixStride that breaks WGSL's layout would show up
// as a validation error or as padding it spells in WGSL (@size, @align).
func TestEntryPointsReadByNaga(t *testing.T) {
	naga := nagaCLI(t)
	for _, c := range []struct {
		name, entry string
		m           *ir.Module
		want        []string
	}{
		{"f16 bindings", "main", f16Bindings(), []string{"enable f16;", "mat2x3<f16>", "array<vec3<f16>>"}},
		{"f16 fragment", "fs", f16Fragment(), []string{"enable f16;", "@location(1) @interpolate(flat) in_k: f16", "-> @location(0) vec4<f16>"}},
		{"subgroup builtin values", "main", subgroupEntry(ir.StageCompute), []string{"@builtin(subgroup_invocation_id)", "@builtin(subgroup_size)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := nagaWGSL(t, naga, emitValid(t, c.m, c.entry, DefaultOptions()))
			require.True(t, ok, "naga: %s", got)
			for _, w := range c.want {
				assert.Contains(t, got, w)
			}
			assert.NotContains(t, got, "@size(")
			assert.NotContains(t, got, "@align(")
		})
	}
}
