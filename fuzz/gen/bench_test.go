package gen

import "testing"

// BenchmarkGenerate measures generation (including ir.Normalize and
// ir.Verify) at Size 30 for each profile; programs/s is the figure to
// compare.
func BenchmarkGenerate(b *testing.B) {
	for _, prof := range kernelProfiles() {
		b.Run(prof.Name, func(b *testing.B) {
			stmts := 0
			for i := 0; i < b.N; i++ {
				p := Generate(ProgramSeed(1, i), Config{Size: 30, Profile: prof})
				stmts += countStmts(p.Module)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "programs/s")
			b.ReportMetric(float64(stmts)/float64(b.N), "stmts/program")
		})
	}
}

// BenchmarkInputs measures argument generation for 64 invocations.
func BenchmarkInputs(b *testing.B) {
	p := Generate(1, Config{})
	params := p.Module.Func(p.Kernel).Params
	for i := 0; i < b.N; i++ {
		_ = Inputs(uint64(i), params, 64)
	}
}
