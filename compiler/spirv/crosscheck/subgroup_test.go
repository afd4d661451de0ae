package crosscheck

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/ir"
)

// TestSubgroupProgramsValidate emits 100 programs of the "subgroups"
// generator profile (sizes 10/30/60) — subgroup reductions, scans,
// ballots, broadcasts and shuffles in uniform and divergent control flow
// — as they run on a device: with ir.AddSubgroupProbe's binding, each
// entry point and its flattened twin (whose subgroup operations carry the
// path's guards), in both modes, and requires every module to pass
// spirv-val (Vulkan 1.1). No stack gpudiff links reads these modules
// (spirv.NagaGap), so spirv-val is their only check here.
func TestSubgroupProgramsValidate(t *testing.T) {
	p, err := gen.LookupProfile("subgroups")
	require.NoError(t, err)
	sizes := []int{10, 30, 60}
	var jobs []valJob
	twins, refused := 0, 0
	for i := 0; i < 100; i++ {
		prog := gen.Generate(uint64(i+1), gen.Config{Size: sizes[i%len(sizes)], Profile: p})
		m := prog.Module
		if _, err := ir.AddSubgroupProbe(m, prog.Kernel); err != nil {
			t.Fatalf("%s: AddSubgroupProbe: %v", programName(prog, i), err)
		}
		kernels := []string{prog.Kernel}
		twin, err := flatten.Function(m, prog.Kernel, flatten.Options{})
		switch {
		case err == nil:
			kernels = append(kernels, twin.Name)
			twins++
		case flatten.IsRefusal(err):
			refused++
		default:
			t.Fatalf("%s: flatten: %v", programName(prog, i), err)
		}
		for _, k := range kernels {
			for _, o := range bothModes {
				words, err := spirv.Emit(m, k, o)
				require.NoError(t, err, "%s %s:\n%s", programName(prog, i), k, prog)
				require.NotEmpty(t, spirv.NagaGap(words), "a subgroup module is one wgpu 0.19.4 refuses")
				jobs = append(jobs, valJob{name: fmt.Sprintf("%s %s %s", programName(prog, i), k, o.Mode), words: words, text: prog.String()})
			}
		}
	}
	bad := validateAll(t, jobs)
	t.Logf("%d modules validated (%d twins, %d programs whose twin flatten refuses)", len(jobs), twins, refused)
	for i, b := range bad {
		if i == 3 {
			t.Errorf("… and %d more", len(bad)-3)
			break
		}
		t.Errorf("spirv-val rejects %s", b)
	}
}
