package campaign

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/harness"
)

// TestBaselineDrivers reads the drivers of each kind of baseline file: a
// run --report's, a drivers --json report's adapters, none from a text
// baseline, a run report without drivers or a missing file.
func TestBaselineDrivers(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		assert.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	llvm := harness.DriverRecord{Adapter: "wgpu-vulkan:llvmpipe", Driver: "llvmpipe", Version: "22.3.6"}
	assert.Equal(t, []harness.DriverRecord{llvm},
		BaselineDrivers(write("run.json", `{"drivers":[{"adapter":"wgpu-vulkan:llvmpipe","driver":"llvmpipe","driver_version":"22.3.6"}],"adapters":["wgpu-vulkan:llvmpipe"]}`)))
	assert.Equal(t, []harness.DriverRecord{llvm},
		BaselineDrivers(write("drivers.json", `{"adapters":[{"name":"wgpu-vulkan:llvmpipe","driver_name":"llvmpipe","driver_version":"22.3.6"},{"name":"dawn"}]}`)))
	assert.Nil(t, BaselineDrivers(write("old.json", `{"adapters":["wgpu-vulkan:llvmpipe"]}`)))
	assert.Nil(t, BaselineDrivers(write("known.txt", "vendor/wgpu-gl:llvmpipe/*\n")))
	assert.Nil(t, BaselineDrivers(filepath.Join(dir, "missing.json")))
	assert.Nil(t, BaselineDrivers(""))
}
