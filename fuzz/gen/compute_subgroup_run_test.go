package gen_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/oracle"
)

// runSubgroup runs a subgroups program in the reference at the linear
// partition of subgroup size size, with its twin.
func runSubgroup(t *testing.T, p *gen.Program, size int, fopts flatten.Options) *check.Result {
	c := &testcase.ComputeCase{Module: p.Module, Entry: p.Kernel, Workgroups: p.Workgroups,
		Buffers: testcase.MustBindingBuffers(p.Module, gen.Bindings(p.Seed, p.Module))}
	res, err := check.Execute(context.Background(), c.Case(), check.Options{Flat: true, Flatten: fopts, Interp: interp.Options{SubgroupSize: size}})
	require.NoError(t, err, "seed %d size %d:\n%s", p.Seed, size, p)
	return res
}

// TestSubgroupProgramsAreRaceFreeAtEverySize: the subgroups profile's
// discipline (doc.go "Subgroup operations") checked by the reference at
// subgroup sizes 4, 8, 16, 32 and 64 (WGSL #subgroups: a power of two in
// [4, 128]): no race, no non-uniform barrier, flatten accepts the entry
// point (every operation guarded, none in a kept masked loop) and the
// twin agrees; the leaves that depend on a divergent active set
// (oracle's Reconvergence) or are indeterminate (a shuffle from an
// inactive lane) are all in the result bindings, which nothing reads:
// out, the atomics and the matrices stay determinate. Some programs have
// such leaves (the divergent shapes are there), and every program has a
// result binding.
func TestSubgroupProgramsAreRaceFreeAtEverySize(t *testing.T) {
	cfg := subgroupConfig(t)
	reconverging, indeterminate := 0, 0
	for seed := uint64(0); seed < 40; seed++ {
		p := gen.Generate(seed, cfg)
		for _, size := range []int{4, 8, 16, 32, 64} {
			res := runSubgroup(t, p, size, flatten.Options{})
			assert.Empty(t, res.Races, "seed %d size %d:\n%s", seed, size, p)
			assert.NoError(t, res.FlattenErr, "seed %d size %d:\n%s", seed, size, p)
			assert.Equal(t, oracle.Pass, res.Verdict, "seed %d size %d:\n%s", seed, size, p)
			results := 0
			for i, ref := range res.Reference[0] {
				name := res.Names[i]
				isResult := strings.HasPrefix(name, "sg")
				if isResult {
					results++
				}
				for j, in := range ref.Indeterminate {
					if in {
						indeterminate++
						assert.True(t, isResult, "seed %d size %d: %s leaf %d is indeterminate:\n%s", seed, size, name, j, p)
					}
				}
				for j, rc := range ref.Reconvergence {
					if rc {
						reconverging++
						assert.True(t, isResult, "seed %d size %d: %s leaf %d depends on reconvergence:\n%s", seed, size, name, j, p)
					}
				}
			}
			assert.Positive(t, results, "seed %d: no result binding", seed)
		}
	}
	assert.Positive(t, reconverging, "no leaf depends on a divergent active set")
	assert.Positive(t, indeterminate, "no shuffle reads an inactive lane")
}

// TestSubgroupProgramsFindADroppedGuard: flatten's injected fault
// subgroup-guard-dropped (a reduction's or scan's operand not guarded by
// the path's mask, so the twin reduces over the whole subgroup) makes
// the twin disagree on most subgroups programs: the divergent shapes are
// what detects it. Without the fault they pass (above).
func TestSubgroupProgramsFindADroppedGuard(t *testing.T) {
	cfg := subgroupConfig(t)
	found := 0
	const n = 20
	for seed := uint64(0); seed < n; seed++ {
		res := runSubgroup(t, gen.Generate(seed, cfg), 8, flatten.Options{Fault: "subgroup-guard-dropped"})
		if res.Verdict == oracle.Mismatch {
			found++
		}
	}
	assert.Greater(t, found, n/3, "the dropped guard is found in %d of %d programs", found, n)
}

// TestSubgroupProgramsParse: the canonical WGSL of a subgroups program
// (ir.Print, directives included) and its emitted entry point are valid
// WGSL the front end reads back, uniformity analysis included (the
// directive lowers subgroup_uniformity; WGSL #uniformity), and gpudiff's
// SPIR-V of it (GroupNonUniform instructions) passes spirv-val.
func TestSubgroupProgramsParse(t *testing.T) {
	parsesAndValidates(t, subgroupConfig(t), 60)
}
