package shrink_test

import (
	"testing"

	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/fuzz/shrink"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/require"
)

// TestCandidatesVerifyAndShrink checks every candidate of generated
// programs of every profile: it verifies, keeps the kernel with fitting
// arguments, is strictly smaller, adds no unbounded loop, no recursion and
// no hazard, and the original case is left untouched: 6 programs per
// profile under GPUDIFF_TEST_LONG=1 (make test-long), the first 2 in make
// test (about 6,000 candidates).
func TestCandidatesVerifyAndShrink(t *testing.T) {
	total := 0
	seeds := uint64(testCount(6, 2))
	for _, prof := range gen.Profiles() {
		for seed := uint64(0); seed < seeds; seed++ {
			p := gen.Generate(seed, gen.Config{Size: 14, Profile: prof})
			c := shrink.Case{Module: p.Module, Kernel: p.Kernel, Args: gen.Inputs(seed, p.Module.Func(p.Kernel).Params, 3)}
			before := ir.Print(c.Module)
			unb, haz := shrink.Unbounded(c.Module, c.Kernel), shrink.Hazards(c.Module, c.Kernel)
			cyclic := c.Module.FindCycle(c.Kernel) != nil
			for i, cand := range shrink.Candidates(c) {
				total++
				where := func() string { return prof.Name + " seed " + string(rune('0'+seed)) + ":\n" + ir.Print(cand.Module) }
				require.NoError(t, ir.Verify(cand.Module), "candidate %d of %s", i, where())
				k := cand.Module.Func(cand.Kernel)
				require.NotNil(t, k)
				for _, inv := range cand.Args {
					require.Len(t, inv, len(k.Params))
					for j, v := range inv {
						require.True(t, ir.Identical(v.Type, k.Params[j].T))
					}
				}
				require.True(t, shrink.Smaller(cand, c), "candidate %d of %s", i, where())
				require.LessOrEqual(t, shrink.Unbounded(cand.Module, cand.Kernel), unb, "candidate %d of %s", i, where())
				require.LessOrEqual(t, shrink.Hazards(cand.Module, cand.Kernel), haz, "candidate %d of %s", i, where())
				if !cyclic {
					require.Nil(t, cand.Module.FindCycle(cand.Kernel))
				}
			}
			require.Equal(t, before, ir.Print(c.Module), "Candidates does not mutate its input")
		}
	}
	require.Greater(t, total, 1000)
}
