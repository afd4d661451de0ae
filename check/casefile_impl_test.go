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

// TestCaseFileImplementationVersion: a case file's driver records name
// the WebGPU implementation and its version of each GPU run (wgpu's as
// linked), and they read back; DeviceDrivers (repro's side of the note)
// carries them too.
func TestCaseFileImplementationVersion(t *testing.T) {
	c, _ := trickyCase(t)
	d, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	defer d.Close()
	res, err := Execute(t.Context(), c.Case(), Options{Flat: true, Devices: []Device{d}})
	require.NoError(t, err)
	rec := NewRecord(c, res, Options{Flat: true}, "test")
	require.NotEmpty(t, rec.Drivers)
	for _, r := range rec.Drivers {
		assert.Equal(t, "wgpu", r.Implementation, r.Adapter)
		assert.Equal(t, harness.WGPUImplementationVersion, r.ImplementationVersion, r.Adapter)
	}
	path := filepath.Join(t.TempDir(), "case.wgsl")
	require.NoError(t, testcase.WriteCase(path, c.Module, rec))
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(src), `"implementation_version": "`+harness.WGPUImplementationVersion+`"`)
	_, rec2, err := testcase.ParseCase(path, src)
	require.NoError(t, err)
	assert.Equal(t, rec.Drivers, rec2.Drivers)
	for _, r := range DeviceDrivers([]Device{d}) {
		assert.Equal(t, harness.WGPUImplementationVersion, r.ImplementationVersion, r.Adapter)
	}
}
