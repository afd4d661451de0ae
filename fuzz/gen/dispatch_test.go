package gen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// TestDispatchProfileTwinsAgree is the property interp(twin) ==
// interp(original) over the dispatch profile (issue 17): every program
// holds one closed-set dispatch, flatten accepts it, and its twin — with
// the candidates the tag-set analysis pruned left out — computes the
// original's outputs on the generated inputs. Across the programs the
// analysis must meet each kind of tag: single-valued, narrowed and
// unbounded.
func TestDispatchProfileTwinsAgree(t *testing.T) {
	prof, err := LookupProfile("dispatch")
	require.NoError(t, err)
	const programs, invocations = 150, 16
	single, narrowed, unbounded, pruned := 0, 0, 0, 0
	for seed := uint64(0); seed < programs; seed++ {
		p := Generate(seed, Config{Profile: prof})
		var stats []flatten.TagSwitchStat
		twin, err := flatten.Function(p.Module, p.Kernel, flatten.Options{OnTagSwitch: func(s flatten.TagSwitchStat) { stats = append(stats, s) }})
		require.NoError(t, err, "seed %d:\n%s", seed, p)
		require.Len(t, stats, 1, "seed %d: one dispatch:\n%s", seed, p)
		s := stats[0]
		switch _, one := s.Tag.Single(); {
		case s.Tag.Unbounded:
			unbounded++
		case one:
			single++
		default:
			narrowed++
		}
		pruned += s.Pruned()
		args := Inputs(seed, p.Module.Func(p.Kernel).Params, invocations)
		ref, err := interp.Run(p.Module, p.Kernel, args, interp.Options{})
		require.NoError(t, err)
		tw, err := interp.Run(p.Module, twin.Name, args, interp.Options{})
		require.NoError(t, err)
		for i := range ref {
			require.NoError(t, ref[i].Err, "seed %d", seed)
			require.NoError(t, tw[i].Err, "seed %d", seed)
			for j := range ref[i].Outputs {
				require.True(t, ir.Equal(ref[i].Outputs[j].Value, tw[i].Outputs[j].Value),
					"seed %d invocation %d output %d: twin %v, original %v\n%s", seed, i, j, tw[i].Outputs[j].Value, ref[i].Outputs[j].Value, p)
			}
		}
	}
	t.Logf("%d programs: %d single-valued, %d narrowed, %d unbounded tags; %d candidates pruned", programs, single, narrowed, unbounded, pruned)
	assert.Positive(t, single)
	assert.Positive(t, narrowed)
	assert.Positive(t, unbounded)
}
