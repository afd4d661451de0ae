package wgsl_test

import (
	"testing"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

// TestParseAcceptsPrintedGeneratedPrograms is a property over the program
// generator's IR modules (an independent producer of IR): the printed
// text of every generated module parses, except a recursive program
// (WGSL forbids recursion), and what Parse returns round-trips through
// the printer. Each profile of the generator is exercised.
func TestParseAcceptsPrintedGeneratedPrograms(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(7)
	params.MinSuccessfulTests = 60
	properties := gopter.NewProperties(params)
	for _, prof := range gen.Profiles() {
		cfg := gen.Config{Profile: prof}
		properties.Property(prof.Name+": printed generated programs parse and round-trip", prop.ForAll(func(p *gen.Program) string {
			printed := ir.Print(p.Module)
			m, err := wgsl.Parse("gen.wgsl", []byte(printed))
			if p.OutsideSubset == gen.OutsideRecursion {
				if err == nil {
					return "a recursive program parses"
				}
				return ""
			}
			if err != nil {
				return "Parse fails: " + err.Error() + "\n" + printed
			}
			again := ir.Print(m)
			m2, err := wgsl.Parse("gen.wgsl", []byte(again))
			if err != nil {
				return "re-parse fails: " + err.Error() + "\n" + again
			}
			if ir.Print(m2) != again {
				return "print → parse → print is not stable:\n" + again + "\n---\n" + ir.Print(m2)
			}
			return ""
		}, gen.Gen(cfg)))
	}
	properties.TestingRun(t)
}
