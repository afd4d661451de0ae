package gen

import (
	"testing"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refusedInSubset flattens p's kernel with opts and returns flatten's
// refusal, or nil when flatten did not refuse (other flatten failures are
// flatten's own tests' concern, not the generator's).
func refusedInSubset(p *Program, opts flatten.Options) error {
	_, err := flatten.Function(ir.CloneModule(p.Module), p.Kernel, opts)
	if flatten.IsRefusal(err) {
		return err
	}
	return nil
}

// TestGeneratedProgramsStayInsideFlattenCaps: no in-subset program is
// refused by flatten, at any size and under any profile — the size knob
// never turns a program into a refusal the campaign counts as a failure
// (issue 12 item 4). Two parts:
//
//   - default caps: sizes 1..80 × every profile, with flatten's default
//     options, and the programs that exceeded the unroll cap before the
//     generator enforced it (each was refused by flatten then);
//   - small caps: Config.MaxUnroll = flatten.Options.MaxUnroll = 16 and
//     100, where the cap binds in most programs with loops, so the
//     generator's count (unroll.go) must match flatten's exactly or
//     this fails at once.
func TestGeneratedProgramsStayInsideFlattenCaps(t *testing.T) {
	check := func(t *testing.T, cfg Config, seed uint64, opts flatten.Options) bool {
		p := Generate(seed, cfg)
		if p.OutsideSubset != "" {
			return false
		}
		if err := refusedInSubset(p, opts); err != nil {
			t.Errorf("profile %s size %d seed %#x (MaxUnroll %d): flatten refused an in-subset program: %v\n%s",
				cfg.Profile.Name, cfg.Size, seed, opts.MaxUnroll, err, p)
		}
		return true
	}
	t.Run("default caps", func(t *testing.T) {
		checked := 0
		for _, prof := range kernelProfiles() {
			for size := 1; size <= 80; size++ {
				if check(t, Config{Size: size, Profile: prof}, ProgramSeed(uint64(size), 0), flatten.Options{}) {
					checked++
				}
			}
		}
		assert.Greater(t, checked, 400, "in-subset programs checked")
		// Over the cap (6036, 6058 and 8241 loop-body copies) before
		// the generator enforced it; `gpudiff run --seed 11 --profile
		// calls --size 50` met the last one as program 104.
		for _, c := range []struct {
			profile string
			size    int
			seed    uint64
		}{
			{"loops", 30, 0x3164b3313efe503a},
			{"loops", 40, 0xe363df2130af0c53},
			{"calls", 50, 0xa5c05d37c4d6f2ae},
		} {
			require.True(t, check(t, Config{Size: c.size, Profile: mustProfile(t, c.profile)}, c.seed, flatten.Options{}))
		}
	})
	t.Run("small caps", func(t *testing.T) {
		for _, cap := range []int{16, 100} {
			loops := 0
			for _, prof := range kernelProfiles() {
				for size := 10; size <= 60; size += 10 {
					for i := 0; i < 3; i++ {
						cfg := Config{Size: size, Profile: prof, MaxUnroll: cap}
						seed := ProgramSeed(uint64(size), i)
						check(t, cfg, seed, flatten.Options{MaxUnroll: cap})
						if _, bounds := loopReport(Generate(seed, cfg).Module); len(bounds) > 0 {
							loops++
						}
					}
				}
			}
			assert.Greater(t, loops, 60, "programs with loops under cap %d", cap)
		}
	})
}

// TestDefaultMaxUnrollIsFlattens pins gen's copy of flatten's default
// unroll cap (gen cannot import flatten: flatten's tests import gen).
func TestDefaultMaxUnrollIsFlattens(t *testing.T) {
	assert.Equal(t, flatten.DefaultMaxUnroll, DefaultMaxUnroll)
}
