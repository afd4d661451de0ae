package baseline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadKeys(t *testing.T) {
	dir := t.TempDir()
	txt := filepath.Join(dir, "known.txt")
	require.NoError(t, os.WriteFile(txt, []byte("# known\n\ndiv_by_zero_i32/wgpu-gl:llvmpipe/original/wgsl\n  rem/dawn-gl:llvmpipe/twin/spirv  # a comment\n*/wgpu-vulkan:llvmpipe#2/*/spirv\n"), 0o644))
	known, err := ReadKeys(txt)
	require.NoError(t, err)
	assert.Equal(t, 3, known.Len())
	for key, want := range map[string]bool{
		"div_by_zero_i32/wgpu-gl:llvmpipe/original/wgsl":    true,
		"rem/dawn-gl:llvmpipe/twin/spirv":                   true,
		"rem/dawn-gl:llvmpipe/twin/wgsl":                    false,
		"abs_int_min/wgpu-vulkan:llvmpipe#2/original/spirv": true, // the pattern
		"abs_int_min/wgpu-vulkan:llvmpipe#2/original/wgsl":  false,
		"abs_int_min/wgpu-vulkan:llvmpipe/original/spirv":   false,
	} {
		assert.Equal(t, want, known.Known(key), key)
	}

	bad := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("# known\ndiv_by_zero_i32 on wgpu-gl:llvmpipe\n"), 0o644))
	_, err = ReadKeys(bad)
	assert.ErrorContains(t, err, "bad.txt:2: want a key case/adapter/function/format")

	badPattern := filepath.Join(dir, "badpattern.txt")
	require.NoError(t, os.WriteFile(badPattern, []byte("[a/b/c/d\n"), 0o644))
	_, err = ReadKeys(badPattern)
	assert.ErrorContains(t, err, `badpattern.txt:1: malformed pattern "[a/b/c/d"`)

	js := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(js, []byte(`{"divergences": [{"case": "x"}]}`), 0o644))
	_, err = ReadKeys(js)
	assert.ErrorContains(t, err, "divergences[0] has no key")
}
