package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestImpossibleRequestsExit2AtOnce is issue 12 item 8: a request that
// cannot mean what it says, or that exceeds a limit, is one line on
// stderr and exit 2 before anything is allocated or run; never an
// out-of-memory death, a silent default, or a run that never ends.
func TestImpossibleRequestsExit2AtOnce(t *testing.T) {
	dir := t.TempDir()
	shade := repo("shaders/examples/shade.wgsl")
	empty := filepath.Join(dir, "empty.json")
	require.NoError(t, os.WriteFile(empty, []byte(`{"x": []}`), 0o644))
	regress := repo("shaders/regress/swizzle_value_before_call.wgsl")
	src, err := os.ReadFile(regress)
	require.NoError(t, err)
	bare := filepath.Join(dir, "shade.wgsl") // no shade.inputs.json beside it
	require.NoError(t, os.WriteFile(bare, mustRead(t, shade), 0o644))
	noInvocations := filepath.Join(dir, "zero.wgsl")
	require.NoError(t, os.WriteFile(noInvocations, []byte(strings.Replace(string(src), `"invocations": 8,`, `"invocations": 0,`, 1)), 0o644))

	cases := []struct {
		args []string
		want string
	}{
		// 3·10⁹ invocations once died with "fatal error: runtime: out of
		// memory"; 10⁸ took 7.3 GB and 25 s before the limit error.
		{[]string{"exec", shade, "--invocations", "3000000000"}, "--max-invocations"},
		{[]string{"exec", shade, "--invocations", "100000000", "--max-invocations", "200000000"}, "--max-buffer-bytes"},
		{[]string{"export-amber", bare, "--invocations", "3000000000"}, "--max-invocations"},
		{[]string{"exec", shade, "--no-gpu", "--inputs", empty}, "no invocations"},
		{[]string{"exec", noInvocations, "--no-gpu"}, "case record: 0 invocations"},
		{[]string{"repro", noInvocations}, "case record: 0 invocations"},
		{[]string{"exec", shade, "--no-gpu", "--invocations", "0"}, "--invocations must be at least 1, got 0"},
		{[]string{"exec", shade, "--no-gpu", "--invocations", "-3"}, "--invocations must be at least 1, got -3"},
		{[]string{"exec", shade, "--timeout", "0s"}, "--timeout must be a positive duration"},
		{[]string{"run", "--no-gpu", "--duration", "-5s"}, "--duration must be a positive duration such as 30s or 5m, got -5s"},
		{[]string{"run", "--no-gpu", "--duration", "0s"}, "--duration must be a positive duration"},
		{[]string{"run", "--no-gpu", "--count", "0"}, "--count must be at least 1, got 0"},
		{[]string{"run", "--no-gpu", "--count", "-1"}, "--count must be at least 1"},
		{[]string{"run", "--no-gpu", "--size", "0"}, "--size must be at least 1"},
		{[]string{"run", "--no-gpu", "--invocations", "0"}, "--invocations must be at least 1"},
		{[]string{"run", "--timeout", "0s"}, "--timeout must be a positive duration such as 30s or 5m, got 0s"},
		{[]string{"run", "--timeout", "-1s"}, "--timeout must be a positive duration such as 30s or 5m, got -1s"},
		{[]string{"run", "--no-gpu", "--adapter", "vulkan"}, "--no-gpu and --adapter contradict"},
		{[]string{"drivers", "--generated", "1", "--timeout", "0s"}, "--timeout must be a positive duration"},
		{[]string{"drivers", "--generated", "1", "--size", "0"}, "--size must be at least 1"},
		{[]string{"drivers", "--generated", "1", "--invocations", "3000000000"}, "--max-invocations"},
		{[]string{"repro", regress, "--timeout", "-1s"}, "--timeout must be a positive duration"},
		{[]string{"flatten", shade, "--max-unroll", "0"}, "--max-unroll must be at least 1"},
		{[]string{"exec", shade, "--no-gpu", "--max-steps", "0"}, "--max-steps must be at least 1"},
		{[]string{"exec", shade, "--no-gpu", "--max-invocations", "-1"}, "--max-invocations must be at least 1"},
		{[]string{"flatten", shade, "--max-unroll-copies", "0"}, "--max-unroll-copies must be at least 1"},
		{[]string{"flatten", shade, "--max-unroll-nodes", "0"}, "--max-unroll-nodes must be at least 1"},
		{[]string{"emit", shade, "--max-source-bytes", "0"}, "--max-source-bytes must be at least 1"},
		{[]string{"exec", shade, "--no-gpu", "--max-statements", "-5"}, "--max-statements must be at least 1"},
		{[]string{"exec", shade, "--no-gpu", "--max-buffer-bytes", "0"}, "--max-buffer-bytes must be at least 1"},
	}
	for _, c := range cases {
		code, out, errOut := gpudiff(t, c.args...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.want, "%v", c.args)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%v: one line: %q", c.args, errOut)
		assert.Empty(t, out, "%v", c.args)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}
