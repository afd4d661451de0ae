package gen

import (
	"testing"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/leanovate/gopter"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func draw(t testing.TB, g gopter.Gen, params *gopter.GenParameters) *Program {
	v, ok := g(params).Retrieve()
	require.True(t, ok)
	return v.(*Program)
}

// TestCampaignDrawIsGenerateOfProgramSeed: program i of campaign seed s,
// drawn through the gopter generator as `gpudiff run` draws it, is
// Generate(ProgramSeed(s, i)) — the programs, the digests and every
// report's seeds stay what they were before campaigns drew through gopter
// — and consecutive draws from one parameter set are programs i, i+1, ….
func TestCampaignDrawIsGenerateOfProgramSeed(t *testing.T) {
	for _, s := range []uint64{0, 1, 11, 1 << 63, ^uint64(0)} {
		for _, i := range []int{0, 1, 7, 199, 1 << 20} {
			cfg := Config{Size: 1 + i%40, Profile: kernelProfiles()[i%len(kernelProfiles())]}
			p := draw(t, Programs(cfg), CampaignParameters(s, i))
			require.Equal(t, ProgramSeed(s, i), p.Seed, "seed %d index %d", s, i)
			q := Generate(ProgramSeed(s, i), cfg)
			require.Equal(t, q.String(), p.String(), "seed %d index %d", s, i)
			require.Equal(t, q.OutsideSubset, p.OutsideSubset)
		}
		params := CampaignParameters(s, 5)
		for i := 5; i < 10; i++ {
			assert.Equal(t, ProgramSeed(s, i), draw(t, Programs(Config{Size: 3}), params).Seed, "draw %d from index 5", i)
		}
	}
}

// TestShapedProgramsAreTheirShapeAndInsideTheSubset: Functions,
// Statements and Expressions draw verified, deterministic programs of
// their shape that flatten never refuses.
func TestShapedProgramsAreTheirShapeAndInsideTheSubset(t *testing.T) {
	vec3i := ir.Vec(3, ir.I32)
	arr := ir.ArrayOf(ir.Vec(2, ir.F32), 3)
	shapes := []struct {
		name  string
		gen   func(Config) gopter.Gen
		check func(t *testing.T, p *Program)
	}{
		{"Functions", Functions, func(t *testing.T, p *Program) {
			assert.Len(t, p.Module.Funcs, 1, "the kernel alone")
		}},
		{"Statements", Statements, func(t *testing.T, p *Program) {
			// One statement (a loop comes with its counter's
			// declaration, a && with a call is lowered to an if) and the
			// final return or global write.
			assert.LessOrEqual(t, len(p.Module.Func(p.Kernel).Body.Stmts), 6)
		}},
		{"Expressions(bool)", func(c Config) gopter.Gen { return Expressions(ir.Bool, c) }, func(t *testing.T, p *Program) {
			assert.True(t, ir.Identical(ir.Bool, p.Module.Func(p.Kernel).Result))
		}},
		{"Expressions(vec3<i32>)", func(c Config) gopter.Gen { return Expressions(vec3i, c) }, func(t *testing.T, p *Program) {
			assert.True(t, ir.Identical(vec3i, p.Module.Func(p.Kernel).Result))
		}},
		{"Expressions(array<vec2<f32>, 3>)", func(c Config) gopter.Gen { return Expressions(arr, c) }, func(t *testing.T, p *Program) {
			assert.True(t, ir.Identical(arr, p.Module.Func(p.Kernel).Result))
		}},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			kinds := map[string]bool{}
			for i := 0; i < 60; i++ {
				cfg := Config{Size: 5 + i%30, Profile: kernelProfiles()[i%len(kernelProfiles())]}
				p := draw(t, sh.gen(cfg), CampaignParameters(3, i))
				again := draw(t, sh.gen(cfg), CampaignParameters(3, i))
				require.Equal(t, p.String(), again.String(), "deterministic")
				require.NoError(t, ir.Verify(p.Module))
				assert.Empty(t, p.OutsideSubset)
				assert.Empty(t, exactViolations(p.Module))
				assert.Empty(t, hazards(p.Module))
				sh.check(t, p)
				_, err := flatten.Function(ir.CloneModule(p.Module), p.Kernel, flatten.Options{})
				assert.False(t, flatten.IsRefusal(err), "flatten refused: %v", err)
				if t.Failed() {
					t.Fatalf("draw %d:\n%s", i, p)
				}
				for _, s := range p.Module.Func(p.Kernel).Body.Stmts {
					kinds[stmtKind(s)] = true
				}
			}
			if sh.name == "Statements" {
				for _, k := range []string{"*ir.If", "*ir.Loop", "*ir.Switch", "*ir.Assign"} {
					assert.True(t, kinds[k], "some kernel's statement is a %s", k)
				}
			}
		})
	}
	assert.Panics(t, func() { Expressions(ir.Void, Config{}) })
}

func stmtKind(s ir.Stmt) string {
	switch s.(type) {
	case *ir.If:
		return "*ir.If"
	case *ir.Loop:
		return "*ir.Loop"
	case *ir.Switch:
		return "*ir.Switch"
	case *ir.Assign:
		return "*ir.Assign"
	}
	return "other"
}

// TestArgumentsShrinkToFewerOrZeroValues: every candidate of Arguments'
// shrinker keeps the parameters' types and is strictly smaller (fewer
// invocations, or one more argument set to zero); the stream ends.
func TestArgumentsShrinkToFewerOrZeroValues(t *testing.T) {
	p := Generate(ProgramSeed(1, 0), Config{Profile: mustProfile(t, "data")})
	params := p.Module.Func(p.Kernel).Params
	require.NotEmpty(t, params)
	res := Arguments(params, 6)(CampaignParameters(1, 0))
	v, ok := res.Retrieve()
	require.True(t, ok)
	args := v.([][]ir.Value)
	require.Equal(t, Inputs(ProgramSeed(1, 0), params, 6), args, "Inputs of the drawn seed")
	zeros := func(a [][]ir.Value) (n int) {
		for _, row := range a {
			for _, x := range row {
				if isZeroValue(x) {
					n++
				}
			}
		}
		return n
	}
	next := res.Shrinker(args)
	count := 0
	for c, ok := next(); ok; c, ok = next() {
		count++
		require.Less(t, count, 1000, "finite")
		a := c.([][]ir.Value)
		require.NotEmpty(t, a)
		for _, row := range a {
			require.Len(t, row, len(params))
			for j, x := range row {
				require.True(t, ir.Identical(params[j].T, x.Type))
			}
		}
		assert.True(t, len(a) < len(args) || zeros(a) == zeros(args)+1, "candidate %d is smaller", count)
	}
	assert.Greater(t, count, len(args), "one-invocation candidates and zeroings")
}
