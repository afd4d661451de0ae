package gen_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/require"
)

// The README's property ("Writing a property with gpudiff's generators"),
// verbatim between the markers (TestREADMEPropertyIsThisFile keeps them
// equal), with flatten as the compiler under test: the compiler is a
// function from a module and a kernel name to the function it made.

// README property begin
func TestCompilerPreservesSemantics(t *testing.T) {
	compile := func(m *ir.Module, kernel string) (*ir.Func, error) {
		return flatten.Function(m, kernel, flatten.Options{}) // your compiler here
	}
	params := gopter.DefaultTestParametersWithSeed(1)
	params.MinSuccessfulTests = 25
	properties := gopter.NewProperties(params)
	properties.Property("compiling preserves every output", prop.ForAll(func(p *gen.Program) bool {
		args := gen.Inputs(p.Seed, p.Module.Func(p.Kernel).Params, 8)
		want, err := interp.Run(p.Module, p.Kernel, args, interp.Options{})
		if err != nil {
			return false
		}
		m := ir.CloneModule(p.Module)
		f, err := compile(m, p.Kernel)
		if err != nil {
			return false
		}
		got, err := interp.Run(m, f.Name, args, interp.Options{})
		return err == nil && sameOutputs(want, got)
	}, gen.Programs(gen.Config{Size: 12, OutsideSubset: -1})))
	properties.TestingRun(t)
}

// sameOutputs reports whether two runs computed equal values for every
// output of every invocation (generated programs are exact: no
// tolerance, no indeterminate leaf).
func sameOutputs(want, got []interp.Invocation) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if want[i].Err != nil || got[i].Err != nil || len(want[i].Outputs) != len(got[i].Outputs) {
			return false
		}
		for j, o := range want[i].Outputs {
			if !ir.Equal(o.Value, got[i].Outputs[j].Value) {
				return false
			}
		}
	}
	return true
}

// README property end

// TestREADMEPropertyIsThisFile keeps the README's property snippet
// compiling: it must be, line for line, the code between the markers
// above.
func TestREADMEPropertyIsThisFile(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	self, err := os.ReadFile("example_test.go")
	require.NoError(t, err)
	between := func(s, begin, end string) string {
		i := strings.Index(s, begin)
		require.GreaterOrEqual(t, i, 0, "marker %q", begin)
		j := strings.Index(s[i:], end)
		require.GreaterOrEqual(t, j, 0, "marker %q", end)
		return strings.TrimSpace(s[i+len(begin) : i+j])
	}
	code := between(string(self), "// README property begin", "// README property end")
	block := between(string(readme), "<!-- gen property begin -->", "<!-- gen property end -->")
	require.Equal(t, "```go\n"+code+"\n```", block, "README.md's property differs from example_test.go")
}

// A campaign's program i is Programs' draw from CampaignParameters(seed,
// i): Generate's program for ProgramSeed(seed, i).
func ExampleCampaignParameters() {
	cfg := gen.Config{Size: 8}
	p := gen.Programs(cfg)(gen.CampaignParameters(1, 3)).Result.(*gen.Program)
	q := gen.Generate(gen.ProgramSeed(1, 3), cfg)
	fmt.Println(p.Seed == gen.ProgramSeed(1, 3), p.String() == q.String())
	// Output: true true
}

// Expressions draws a kernel returning one generated expression of the
// requested type.
func ExampleExpressions() {
	params := gopter.DefaultGenParameters().CloneWithSeed(7)
	p := gen.Expressions(ir.Vec(2, ir.U32), gen.Config{Size: 10})(params).Result.(*gen.Program)
	k := p.Module.Func(p.Kernel)
	fmt.Println(k.Result, len(k.Body.Stmts) >= 1)
	// Output: vec2<u32> true
}
