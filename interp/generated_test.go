package interp_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/interp"
)

// TestFastPathsMatchGeneralOnGeneratedPrograms runs generated programs of
// every function-kernel profile compiled as the interpreter runs them
// (fast paths, fused pairs, opScaleFV) and as a countOps compilation
// does (every operation its general kernel), on the generator's inputs
// (edge values first), and requires the same results: values, marks,
// tolerances, reasons and invocation errors. The hand-written kernels of
// bench_test.go aim at each fast path and pair (the generator rarely
// writes a constant multiply-add or a xorshift, so those pairs are theirs
// to cover); these programs put the common ones — integer operations with
// constants, comparisons and branches on them, f32 + - * — in contexts
// nobody wrote (nested loops, calls, switches, early returns). It fails,
// for one, when opAddK, opXor or opBrLtK computes another result.
func TestFastPathsMatchGeneralOnGeneratedPrograms(t *testing.T) {
	perProfile := 40
	if testing.Short() {
		perProfile = 8
	}
	ran, profiles := 0, 0
	for _, prof := range gen.Profiles() {
		if prof.Entry {
			continue // compute entry points: dispatch.go, not function kernels
		}
		profiles++
		for i := 0; i < perProfile; i++ {
			p := gen.Generate(uint64(1000*i+7), gen.Config{Profile: prof})
			fast, errF := interp.Compile(p.Module, p.Kernel)
			general, errG := interp.CompileGeneral(p.Module, p.Kernel)
			require.Equal(t, errG == nil, errF == nil, "%s #%d: compile errors differ: %v / %v", prof.Name, i, errG, errF)
			if errF != nil {
				continue
			}
			args := gen.Inputs(p.Seed, p.Module.Func(p.Kernel).Params, 16)
			opts := interp.Options{MaxSteps: 20000}
			want, err := general.Run(args, opts)
			require.NoError(t, err)
			got, err := fast.Run(args, opts)
			require.NoError(t, err)
			for k := range args {
				require.Equal(t, want[k], got[k], "profile %s, program %d (seed %d), invocation %d:\n%s", prof.Name, i, p.Seed, k, p)
			}
			ran++
		}
	}
	t.Logf("%d programs of %d profiles cross-checked", ran, profiles)
	// Most programs compile; a profile's recursion programs may not.
	require.Greater(t, ran, profiles*perProfile/2, "programs cross-checked")
}
