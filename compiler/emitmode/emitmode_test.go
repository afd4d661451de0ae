package emitmode

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseAcceptsTheTwoModesAndEmpty(t *testing.T) {
	for in, want := range map[string]Mode{"": Portable, "portable": Portable, "raw": Raw} {
		got, err := Parse(in)
		assert.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"Raw", "portable ", "strict"} {
		_, err := Parse(bad)
		assert.EqualError(t, err, `unknown mode "`+bad+`" (want portable or raw)`)
	}
}
