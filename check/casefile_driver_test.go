package check

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/harness"
)

func mustMarshal(t *testing.T, c *testcase.KernelCase, res *Result) []byte {
	b, err := testcase.MarshalCase(c.Module, NewRecord(c, res, Options{Flat: true}, "test"))
	require.NoError(t, err)
	return b
}

// TestCaseFileDrivers: a case with GPU runs names each GPU adapter's driver
// and version, and they read back from the file.
func TestCaseFileDrivers(t *testing.T) {
	c, _ := trickyCase(t)
	d, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	defer d.Close()
	res, err := Execute(t.Context(), c.Case(), Options{Flat: true, Devices: []Device{d}})
	require.NoError(t, err)
	rec := NewRecord(c, res, Options{Flat: true}, "test")
	gpu := map[string]bool{}
	for _, r := range rec.Runs {
		if r.Adapter != "interp" {
			gpu[r.Adapter] = true
		}
	}
	require.NotEmpty(t, gpu, "the case ran on no GPU adapter")
	require.Len(t, rec.Drivers, len(gpu), "%+v", rec.Drivers)
	for _, d := range rec.Drivers {
		assert.True(t, gpu[d.Adapter], "%s has a driver record but no run", d.Adapter)
		assert.NotEmpty(t, d.Driver, "%s", d.Adapter)
		assert.Regexp(t, `^[0-9]+\.[0-9]+`, d.Version, "%s", d.Adapter)
	}
	path := filepath.Join(t.TempDir(), "case.wgsl")
	require.NoError(t, testcase.WriteCase(path, c.Module, rec))
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(src), `"driver_version"`)
	_, rec2, err := testcase.ParseCase(path, src)
	require.NoError(t, err)
	assert.Equal(t, rec.Drivers, rec2.Drivers)

	// The interpreter alone records no driver.
	res2, err := Execute(t.Context(), c.Case(), Options{Flat: true})
	require.NoError(t, err)
	assert.Nil(t, NewRecord(c, res2, Options{Flat: true}, "test").Drivers)
	assert.NotContains(t, string(mustMarshal(t, c, res2)), `"drivers"`)
}
