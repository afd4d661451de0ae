package drivers

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

func TestFindHazardsSmoke(t *testing.T) {
	src := `fn k(a: i32, b: i32) -> i32 { var x = clamp(a, b, 3); return extractBits(a, u32(b), 4u) / x; }`
	m, err := wgsl.Parse("t.wgsl", []byte(src))
	require.NoError(t, err)
	args := [][]ir.Value{{ir.I32Val(7), ir.I32Val(0)}, {ir.I32Val(7), ir.I32Val(5)}, {ir.I32Val(-1), ir.I32Val(30)}}
	hz, err := FindHazards(m, "k", args)
	require.NoError(t, err)
	for _, h := range hz {
		t.Log(h)
	}
	assert.NotEmpty(t, hz)
}
