package gen

import (
	"testing"

	"github.com/gpudiff/gpudiff/interp"
	"github.com/stretchr/testify/require"
)

// TestGeneratedProgramsRunExactlyInInterp proves exactness and termination
// on the reference: every generated program runs on its generated inputs
// with no invocation error (no step-limit overrun), no indeterminate leaf
// and zero tolerance on every f32 leaf. Recursive programs are skipped: the
// interpreter refuses recursion, as WGSL does.
func TestGeneratedProgramsRunExactlyInInterp(t *testing.T) {
	const perProfile = 200 // × 6 profiles = 1,200 programs
	const invocations = 16
	ran := 0
	defer func() {
		if !t.Failed() {
			require.GreaterOrEqual(t, ran, 1000, "programs run")
		}
	}()
	for _, prof := range kernelProfiles() {
		t.Run(prof.Name, func(t *testing.T) {
			for seed := uint64(0); seed < perProfile; seed++ {
				p := Generate(seed, Config{Profile: prof})
				if p.OutsideSubset == OutsideRecursion {
					continue
				}
				ran++
				args := Inputs(seed, p.Module.Func(p.Kernel).Params, invocations)
				invs, err := interp.Run(p.Module, p.Kernel, args, interp.Options{})
				require.NoError(t, err, "seed %d:\n%s", seed, p)
				require.Len(t, invs, invocations)
				for i, inv := range invs {
					require.NoError(t, inv.Err, "seed %d invocation %d:\n%s", seed, i, p)
					for j, out := range inv.Outputs {
						require.Empty(t, out.Why, "seed %d invocation %d output %d:\n%s", seed, i, j, p)
						for k := range out.Indeterminate {
							require.False(t, out.Indeterminate[k], "seed %d invocation %d output %d leaf %d indeterminate", seed, i, j, k)
						}
						for k := range out.Tolerance {
							require.Zero(t, out.Tolerance[k], "seed %d invocation %d output %d leaf %d tolerance", seed, i, j, k)
						}
					}
				}
			}
		})
	}
}
