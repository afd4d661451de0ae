package devices

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/worker"
)

// TestMain lets this test binary serve as its own worker process
// (harness/worker re-executes the running binary with MarkerEnv set).
func TestMain(m *testing.M) {
	if os.Getenv(worker.MarkerEnv) == "1" {
		if err := worker.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "devices test worker:", err)
			os.Exit(worker.ExitServeError)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestOpenIsolatesWGPUAdapters: with no selector, Open opens the first
// Vulkan adapter (lavapipe on a machine without a GPU, a GPU's adapter
// first where there is one); with "all", every wgpu adapter runs in a
// worker process and every adapter appears once; an unknown selector is
// an error naming it.
func TestOpenIsolatesWGPUAdapters(t *testing.T) {
	def, err := Open(nil, Options{})
	require.NoError(t, err)
	require.Len(t, def, 1)
	assert.Contains(t, def[0].Info().Name, "vulkan")
	def.Close()

	all, err := Open([]string{"all"}, Options{})
	require.NoError(t, err)
	defer all.Close()
	seen := map[string]bool{}
	for _, d := range all {
		name := d.Info().Name
		assert.False(t, seen[name], "%s opened twice", name)
		seen[name] = true
		if d.Info().Implementation == "wgpu" {
			assert.IsType(t, &worker.Device{}, d, name)
		}
		assert.NotNil(t, d.Info().Features, "%s: a worker's device reports its features", name)
		assert.Empty(t, d.Info().Variant, "all opens no variant: %s", name)
	}
	assert.True(t, seen["wgpu-vulkan:llvmpipe"], "lavapipe missing from %v (make deps installs mesa-vulkan-drivers)", seen)

	_, err = Open([]string{"no-such-adapter"}, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no-such-adapter")
}

// TestPrefixWriter: complete lines come out prefixed, whatever the write
// boundaries; a line without its newline waits for it.
func TestPrefixWriter(t *testing.T) {
	var out bytes.Buffer
	var mu sync.Mutex
	a := &prefixWriter{mu: &mu, w: &out, prefix: "[a] "}
	b := &prefixWriter{mu: &mu, w: &out, prefix: "[b] "}
	for _, s := range []string{"one\ntw", "o\n", "thr"} {
		n, err := a.Write([]byte(s))
		require.NoError(t, err)
		assert.Equal(t, len(s), n)
	}
	_, err := b.Write([]byte("x\n\ny\n"))
	require.NoError(t, err)
	_, err = a.Write([]byte("ee\n"))
	require.NoError(t, err)
	assert.Equal(t, "[a] one\n[a] two\n[b] x\n[b] \n[b] y\n[a] three\n", out.String())
}

// TestOpenVariants: Options.Variants adds the variants of the selected
// adapters after them (Dawn's Mesa 25 lavapipe at subgroup sizes 4 and
// 16), each with its own subgroup size; without it, a prefix opens none.
func TestOpenVariants(t *testing.T) {
	const base = "dawn-vulkan:llvmpipe-mesa25"
	plain, err := Open([]string{base}, Options{})
	require.NoError(t, err, "Dawn and Mesa 25 are needed: `make deps`")
	require.Len(t, plain, 1)
	plain.Close()

	set, err := Open([]string{base}, Options{Variants: true})
	require.NoError(t, err)
	defer set.Close()
	var got []string
	sizes := map[uint32]bool{}
	for _, d := range set {
		got = append(got, d.Info().Name)
		sizes[d.Info().SubgroupMinSize] = true
	}
	require.Len(t, got, 3, "%v", got)
	assert.Equal(t, base, got[0])
	for _, n := range got[1:] {
		v, b := harness.VariantOfName(n)
		assert.NotEmpty(t, v, n)
		assert.Equal(t, base, b)
	}
	assert.Len(t, sizes, 3, "three subgroup sizes on one driver: %v", sizes)
}
