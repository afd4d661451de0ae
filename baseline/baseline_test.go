package baseline

import (
	"path"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBaselineSignaturesAndPatterns(t *testing.T) {
	var none *Set
	assert.False(t, none.Known("flatten/interp/1c8f0105bf6fec4a"))
	assert.Equal(t, 0, none.Len())

	b := &Set{}
	require.NoError(t, b.Add("flatten/interp/1c8f0105bf6fec4a"))
	require.NoError(t, b.Add("vendor/wgpu-gl:llvmpipe/*"))
	require.NoError(t, b.Add("compile-error/*/spirv/*"))
	assert.Equal(t, 3, b.Len())
	for sig, known := range map[string]bool{
		"flatten/interp/1c8f0105bf6fec4a":                      true,
		"flatten/interp/5afd5427d045278b":                      false, // exact entries are exact
		"vendor/wgpu-gl:llvmpipe/890a87ab8a1f73d7":             true,
		"vendor/wgpu-vulkan:llvmpipe/890a87ab8a1f73d7":         false,
		"spirv/wgpu-gl:llvmpipe/b0e6860dacd189e1":              false,
		"compile-error/wgpu-gl:llvmpipe/spirv/m12ab":           true,
		"compile-error/wgpu-gl:llvmpipe/wgsl/m12ab":            false,
		"unconfirmed/vendor/wgpu-gl:llvmpipe/890a87ab8a1f73d7": false, // * stops at '/'
	} {
		assert.Equal(t, known, b.Known(sig), sig)
	}

	for prefix, every := range map[string]bool{
		"vendor/wgpu-gl:llvmpipe":        true,
		"vendor/wgpu-vulkan:llvmpipe":    false,
		"flatten/interp":                 false, // one exact signature is not every one
		"compile-error/wgpu-gl:llvmpipe": false, // "compile-error/*/spirv/*" needs the format too
	} {
		assert.Equal(t, every, b.KnowsEvery(prefix), prefix)
	}
	assert.False(t, none.KnowsEvery("vendor/wgpu-gl:llvmpipe"))

	assert.Equal(t, []string{"compile-error/*/spirv/*", "flatten/interp/1c8f0105bf6fec4a"},
		b.Unmatched([]string{"vendor/wgpu-gl:llvmpipe/890a87ab8a1f73d7", "compile-error/wgpu-gl:llvmpipe/wgsl/m12ab"}),
		"entries no signature matches, sorted")
	assert.Nil(t, none.Unmatched([]string{"x"}))

	err := b.Add("vendor/[wgpu")
	assert.ErrorIs(t, err, path.ErrBadPattern)
	assert.Contains(t, err.Error(), `malformed pattern "vendor/[wgpu"`)
	assert.Equal(t, 3, b.Len(), "a malformed pattern is not added")
}
