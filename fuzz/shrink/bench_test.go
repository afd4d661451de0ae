package shrink_test

import (
	"testing"

	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/fuzz/shrink"
)

// BenchmarkCandidates measures computing every candidate of a Size-30
// generated program (candidates/s is the figure).
func BenchmarkCandidates(b *testing.B) {
	n := 0
	for i := 0; i < b.N; i++ {
		p := gen.Generate(gen.ProgramSeed(7, i%20), gen.Config{})
		n += len(shrink.Candidates(shrink.Case{Module: p.Module, Kernel: p.Kernel}))
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "candidates/s")
	b.ReportMetric(float64(n)/float64(b.N), "candidates/program")
}

// BenchmarkMinimize measures minimizing Size-30 programs against a cheap
// predicate (the shrinker's own cost, without running programs).
func BenchmarkMinimize(b *testing.B) {
	attempts := 0
	for i := 0; i < b.N; i++ {
		p := gen.Generate(gen.ProgramSeed(7, i%20), gen.Config{})
		c := shrink.Case{Module: p.Module, Kernel: p.Kernel, Args: gen.Inputs(1, p.Module.Func(p.Kernel).Params, 16)}
		shrink.Minimize(c, func(c shrink.Case) bool {
			attempts++
			return shrink.Stmts(c.Module, c.Kernel) >= 3
		}, 0)
	}
	b.ReportMetric(float64(attempts)/float64(b.N), "attempts/program")
}
