package ir

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Add keeps one bound per member: a member added within a tolerance after
// exact ones has its own bound, and the exact ones keep none — a set
// {0, 633.5 ± 643.5} holds −10 through its second member only.
func TestValueSetAddKeepsOneBoundPerMember(t *testing.T) {
	var s ValueSet
	s, ok := s.Add(math.Float32bits(0), 0)
	require.True(t, ok)
	s, ok = s.Add(math.Float32bits(633.5), 643.5)
	require.True(t, ok)
	require.Len(t, s.Values, 2)
	require.Len(t, s.Tol, 2, "one bound per member")
	assert.Equal(t, []float64{0, 643.5}, s.Tol)
	s, ok = s.Add(math.Float32bits(1), 0)
	require.True(t, ok)
	assert.Equal(t, []float64{0, 643.5, 0}, s.Tol)
	// A member already in the set widens its own bound only.
	s, ok = s.Add(math.Float32bits(0), 2)
	require.True(t, ok)
	assert.Equal(t, []float64{2, 643.5, 0}, s.Tol)
}
