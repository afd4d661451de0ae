package wgsl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A kernel outside the subset through a long chain of calls gets one
// bounded line that leads with the cause (issue 25: a 3000-call chain
// ending in a function named f32 gave one 125,061-byte line with the
// cause last); a single use keeps "calls g, which is outside the subset:
// why".
func TestOutsideThroughAChainLeadsWithTheCause(t *testing.T) {
	var b strings.Builder
	const n = 3000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "fn g%d() -> i32 { return g%d(); }\n", i, i+1)
	}
	fmt.Fprintf(&b, "fn g%d() -> i32 { return f32(); }\nfn f32() -> i32 { return 1; }\n", n)
	m, err := Parse("chain.wgsl", []byte(b.String()))
	require.NoError(t, err)
	_, err = Kernel(m, "g0")
	require.Error(t, err)
	msg := err.Error()
	assert.Less(t, len(msg), 400, msg)
	assert.Contains(t, msg, "kernel g0 is outside the gpudiff subset: the module redeclares 'f32'")
	assert.Contains(t, msg, "(reached through calls g1 → calls g2 → calls g3 → … (2996 more) → calls g3000 → calls f32)")

	// One step: the old form.
	m, err = Parse("one.wgsl", []byte("fn k() -> i32 { return f32(); }\nfn f32() -> i32 { return 1; }\n"))
	require.NoError(t, err)
	_, err = Kernel(m, "k")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kernel k is outside the gpudiff subset: calls f32, which is outside the subset: the module redeclares 'f32'")
}
