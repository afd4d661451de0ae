package check

import (
	"errors"
	"fmt"
	"time"
)

// FlagCheck is one numeric flag's check, as every command checks its
// counts and durations: Problem says why its value cannot mean what it
// says ("" when it can).
type FlagCheck struct{ Flag, Problem string }

// AtLeast checks that --flag's value v is at least min.
func AtLeast(flag string, v, min int64) FlagCheck {
	if v < min {
		return FlagCheck{flag, fmt.Sprintf("--%s must be at least %d, got %d", flag, min, v)}
	}
	return FlagCheck{Flag: flag}
}

// Positive checks that --flag's duration d is positive: no duration flag
// has a "no limit" spelling.
func Positive(flag string, d time.Duration) FlagCheck {
	if d <= 0 {
		return FlagCheck{flag, fmt.Sprintf("--%s must be a positive duration such as 30s or 5m, got %v", flag, d)}
	}
	return FlagCheck{Flag: flag}
}

// FirstProblem is the first failed check of a flag given (given nil:
// every check counts, for flags whose defaults pass) as an error whose
// text is its problem; nil when none failed.
func FirstProblem(given map[string]bool, checks ...FlagCheck) error {
	for _, c := range checks {
		if c.Problem != "" && (given == nil || given[c.Flag]) {
			return errors.New(c.Problem)
		}
	}
	return nil
}

// Check refuses a limit that is zero or negative, naming its flag: no
// limit flag has a "no limit" spelling, and 0 must not silently mean the
// default or nothing at all.
func (l Limits) Check() error {
	return FirstProblem(nil, AtLeast("max-source-bytes", l.SourceBytes, 1), AtLeast("max-statements", int64(l.Statements), 1),
		AtLeast("max-invocations", int64(l.Invocations), 1), AtLeast("max-steps", l.Steps, 1),
		AtLeast("max-unroll-copies", int64(l.Unroll), 1), AtLeast("max-unroll-nodes", int64(l.UnrollNodes), 1),
		AtLeast("max-buffer-bytes", l.BufferBytes, 1))
}
