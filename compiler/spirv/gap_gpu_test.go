package spirv

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// TestF16AndSubgroupGapsOnWgpu runs f16 and subgroup modules on lavapipe
// through wgpu-native (wgpu 0.19.4, naga 0.19.2's SPIR-V front end) and
// requires each to be refused at shader-module creation exactly as
// NagaGap says — naga 0.19 has neither 16-bit floats nor subgroup
// operations — and NagaGapError to give the reason as a *GapError. When
// this fails because a module runs, the stack reads it: drop the gap
// from NagaGap and compare results instead.
func TestF16AndSubgroupGapsOnWgpu(t *testing.T) {
	dev := gpu(t)
	a := param("a", ir.U32)
	h := param("h", ir.F16)
	sub := func(b ir.Builtin, args ...ir.Expr) *ir.Module {
		x := bi(b, args...)
		return module(fn("k", params("a", ir.U32), x.Type(), ret(x)))
	}
	cases := []struct {
		name    string
		m       *ir.Module
		gap     string // in NagaGap's reason
		refusal string // in wgpu's error
	}{
		{"f16 in registers", module(fn("k", params("a", ir.U32), ir.U32, ret(conv(ir.U32, bin(ir.OpMul, conv(ir.F16, a), f16(2)))))),
			"reads no 16-bit floats", "invalid type width %2"},
		{"f16 in the ABI's buffers", module(fn("k", params("h", ir.F16), ir.F16, ret(bin(ir.OpAdd, h, f16(1))))),
			"reads no 16-bit floats", "unsupported capability StorageBuffer16BitAccess"},
		{"subgroupAdd", sub(ir.BSubgroupAdd, a), "OpCapability GroupNonUniformArithmetic", "unsupported capability GroupNonUniformArithmetic"},
		{"subgroupElect", sub(ir.BSubgroupElect), "OpCapability GroupNonUniform)", "unsupported capability GroupNonUniform"},
		{"subgroupBallot", sub(ir.BSubgroupBallot, bin(ir.OpEq, a, u32(1))), "OpCapability GroupNonUniformBallot", "unsupported capability GroupNonUniformBallot"},
		{"subgroupAll", sub(ir.BSubgroupAll, bin(ir.OpEq, a, u32(1))), "OpCapability GroupNonUniformVote", "unsupported capability GroupNonUniformVote"},
		{"subgroupShuffle", sub(ir.BSubgroupShuffle, a, u32(0)), "OpCapability GroupNonUniformShuffle", "unsupported capability GroupNonUniformShuffle"},
		{"subgroupShuffleUp", sub(ir.BSubgroupShuffleUp, a, u32(1)), "OpCapability GroupNonUniformShuffleRelative", "unsupported capability GroupNonUniformShuffleRelative"},
		{"quadSwapX", sub(ir.BQuadSwapX, a), "OpCapability GroupNonUniformQuad", "unsupported capability GroupNonUniformQuad"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			words := emitValid(t, c.m, "k", DefaultOptions())
			assert.Contains(t, NagaGap(words), c.gap)
			var ge *GapError
			require.True(t, errors.As(NagaGapError(words), &ge))
			assert.Equal(t, NagaGap(words), ge.Reason)
			abi, err := ir.NewKernelABI(c.m, "k")
			require.NoError(t, err)
			args := [][]ir.Value{make([]ir.Value, len(abi.Inputs))}
			for i, in := range abi.Inputs {
				args[0][i] = ir.Zero(in.T)
			}
			input, err := abi.EncodeInputs(args)
			require.NoError(t, err)
			_, err = dev.Run(context.Background(), harness.Kernel{SPIRV: words, EntryPoint: EntryPoint},
				harness.Dispatch{Input: input, OutputSize: abi.OutputStride, Invocations: 1})
			require.Error(t, err, "wgpu now reads this module: drop its gap from NagaGap")
			assert.Contains(t, err.Error(), "In wgpuDeviceCreateShaderModule")
			assert.Contains(t, err.Error(), c.refusal)
		})
	}
	// Without f16 or subgroups there is no gap.
	assert.Nil(t, NagaGapError(emitValid(t, module(fn("k", params("a", ir.U32), ir.U32, ret(a))), "k", DefaultOptions())))
}
