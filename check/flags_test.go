package check

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The first failed check of a given flag is the problem; a flag not given
// is not checked unless given is nil.
func TestFlagChecks(t *testing.T) {
	checks := []FlagCheck{AtLeast("count", 0, 1), Positive("timeout", -time.Second), AtLeast("size", 5, 1)}
	assert.EqualError(t, FirstProblem(nil, checks...), "--count must be at least 1, got 0")
	assert.EqualError(t, FirstProblem(map[string]bool{"timeout": true}, checks...), "--timeout must be a positive duration such as 30s or 5m, got -1s")
	assert.NoError(t, FirstProblem(map[string]bool{"size": true}, checks...))
	assert.NoError(t, FirstProblem(nil, Positive("timeout", time.Second)))
}

// Check names the first limit that is not positive, in flag order.
func TestLimitsCheck(t *testing.T) {
	assert.NoError(t, DefaultLimits.Check())
	l := DefaultLimits
	l.Steps, l.BufferBytes = 0, -1
	assert.EqualError(t, l.Check(), "--max-steps must be at least 1, got 0")
}
