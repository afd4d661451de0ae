package wgsl

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmitFragmentWrapper: with Fragment the wrapper is a @fragment entry
// point computing its invocation from @builtin(position) with the row
// pitch, returning the marker, and no @compute entry point.
func TestEmitFragmentWrapper(t *testing.T) {
	text, err := os.ReadFile("../testdata/frag_kernel.wgsl") // compiler/spirv's TestFragmentWrapperRuns draws this wrapper
	require.NoError(t, err)
	m, err := Parse("frag_kernel.wgsl", text)
	require.NoError(t, err)
	src, entry, err := Emit(m, "k", EmitOptions{Fragment: true})
	require.NoError(t, err)
	for _, want := range []string{"@fragment\nfn " + entry + "(@builtin(position) ", ") -> @location(0) u32 {", ".y) * 256u + u32(", "return 0u;", "return 1u;"} {
		assert.Contains(t, src, want)
	}
	assert.NotContains(t, src, "@compute")
	assert.NotContains(t, src, "global_invocation_id")
}
