package drivers

import (
	"errors"
	"fmt"
	"time"

	"github.com/gpudiff/gpudiff/baseline"
	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/oracle"
)

// Settings are a drivers command line's choices before any adapter opens:
// what to run (corpora, generated programs) and how. Validate checks them
// and resolves the names they give.
type Settings struct {
	Corpora     []string
	Generated   int    // generated programs (program i of Seed, as a campaign generates it)
	Seed        uint64 // campaign seed of the generated programs
	Size        int    // size of the generated programs (0: the generator's default)
	Profile     string // generator profile (gen.LookupProfile)
	Invocations int    // invocations per generated program
	Mode        string // emission mode (wgsl.ParseMode)
	Baseline    string // known divergences (baseline.ReadKeys; "": none)
	Stage       string // compute, fragment or both (check.ParseStages)
	Timeout     time.Duration
	// Given names the settings the user gave (flag names): Size and
	// Timeout are checked only when given (nil: always, check.FirstProblem).
	Given map[string]bool
	// MaxInvocations bounds Invocations (check.Limits.Invocations).
	MaxInvocations int
}

// Resolved is what Validate makes of Settings' names.
type Resolved struct {
	Mode    wgsl.Mode
	Stages  []oracle.Stage
	Profile gen.Profile
	Known   *baseline.Set // nil: no baseline
}

// Validate checks s and resolves its names; the first problem is the
// error, naming its flag (e.g. "--mode: …"), in the order mode, what to
// run, counts, stage, size and timeout, the invocation limit, profile,
// baseline.
func (s Settings) Validate() (Resolved, error) {
	var r Resolved
	var err error
	if r.Mode, err = wgsl.ParseMode(s.Mode); err != nil {
		return r, fmt.Errorf("--mode: %v", err)
	}
	if len(s.Corpora) == 0 && s.Generated <= 0 {
		return r, errors.New("nothing to run: give --corpus DIR and/or --generated N")
	}
	if s.Generated < 0 || s.Size < 0 || s.Invocations < 1 {
		return r, errors.New("--generated and --size must be ≥ 0 and --invocations ≥ 1")
	}
	if r.Stages, err = check.ParseStages(s.Stage); err != nil {
		return r, fmt.Errorf("--stage: %v", err)
	}
	if err := check.FirstProblem(s.Given, check.AtLeast("size", int64(s.Size), 1), check.Positive("timeout", s.Timeout)); err != nil {
		return r, err
	}
	if s.Invocations > s.MaxInvocations {
		return r, fmt.Errorf("--invocations %d exceeds the limit of %d (raise it with --max-invocations)", s.Invocations, s.MaxInvocations)
	}
	if r.Profile, err = gen.LookupProfile(s.Profile); err != nil {
		return r, fmt.Errorf("--profile: %v", err)
	}
	if s.Baseline != "" {
		if r.Known, err = baseline.ReadKeys(s.Baseline); err != nil {
			return r, fmt.Errorf("--baseline: %v", err)
		}
	}
	return r, nil
}
