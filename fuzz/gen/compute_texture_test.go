package gen_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

func texturesConfig(t testing.TB) gen.Config {
	return profileConfig(t, "textures")
}

// TestTextureProgramsAreExact: every textures-profile entry point has
// textures, dispatches in the reference with no race, flatten accepts it
// and its twin agrees, its buffers are exact and every stored texel is
// exact or one of an allowed set (never any value: no read out of
// bounds, no sample at a texel edge, no store of a value the format
// cannot hold), and it is valid WGSL and SPIR-V as emitted.
func TestTextureProgramsAreExact(t *testing.T) {
	cfg := texturesConfig(t)
	for seed := uint64(0); seed < 80; seed++ {
		p := gen.Generate(seed, cfg)
		require.True(t, p.IsEntry(), "seed %d", seed)
		require.NotEmpty(t, p.Module.Textures, "seed %d", seed)
		c := &testcase.ComputeCase{Module: p.Module, Entry: p.Kernel, Workgroups: p.Workgroups, Buffers: testcase.MustBindingBuffers(p.Module, gen.Bindings(seed, p.Module)),
			Textures: p.Textures, Samplers: p.Samplers}
		res, err := check.Execute(context.Background(), c.Case(), check.Options{Flat: true})
		require.NoError(t, err, "seed %d:\n%s", seed, p)
		assert.Empty(t, res.Races, "seed %d:\n%s", seed, p)
		assert.NoError(t, res.FlattenErr, "seed %d:\n%s", seed, p)
		assert.Equal(t, oracle.Pass, res.Verdict, "seed %d:\n%s", seed, p)
		isTex := map[string]bool{}
		for _, v := range res.TextureOutputs {
			isTex[v.Name] = true
		}
		for i, ref := range res.Reference[0] {
			leaves := ref.Indeterminate
			for j := range leaves {
				if !isTex[res.Names[i]] {
					assert.False(t, ref.Indeterminate != nil && ref.Indeterminate[j], "seed %d: binding %s leaf %d is indeterminate (%s):\n%s", seed, res.Names[i], j, ref.Why, p)
				} else if ref.Indeterminate != nil && ref.Indeterminate[j] {
					assert.False(t, ref.Set(j).IsAny(), "seed %d: texture output %s leaf %d is any value (%s):\n%s", seed, res.Names[i], j, ref.Why, p)
				}
			}
		}
		src, err := wgsl.EmitEntry(p.Module, p.Kernel, wgsl.EmitOptions{})
		require.NoError(t, err, "seed %d", seed)
		_, err = wgsl.Parse("gen.wgsl", []byte(src))
		require.NoError(t, err, "seed %d:\n%s", seed, src)
		_, err = spirv.Emit(p.Module, p.Kernel, spirv.Options{})
		assert.NoError(t, err, "seed %d", seed)
	}
}

// TestTextureProgramsAreDeterministic: a seed names one program and one
// set of contents.
func TestTextureProgramsAreDeterministic(t *testing.T) {
	cfg := texturesConfig(t)
	for seed := uint64(0); seed < 10; seed++ {
		a, b := gen.Generate(seed, cfg), gen.Generate(seed, cfg)
		assert.Equal(t, ir.Print(a.Module), ir.Print(b.Module))
		assert.Equal(t, a.Textures, b.Textures)
		assert.Equal(t, a.Samplers, b.Samplers)
	}
}
