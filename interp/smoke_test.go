package interp

import (
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSmokeAdd(t *testing.T) {
	m := exprKernel(bin(ir.OpAdd, param("a", tI32), param("b", tI32)), P{"a", tI32}, P{"b", tI32})
	o := retOf(t, m, "k", iv(2), iv(3))
	require.True(t, exact(o), desc(o))
	assert.Equal(t, int32(5), o.Value.I32())
}
