package worker

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// mappedLibraries lists the shared objects mapped into process pid.
func mappedLibraries(t testing.TB, pid int) []string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
	require.NoError(t, err)
	seen := map[string]bool{}
	var libs []string
	for line := range strings.SplitSeq(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 6 && strings.Contains(f[5], ".so") && !seen[f[5]] {
			seen[f[5]] = true
			libs = append(libs, f[5])
		}
	}
	return libs
}

// TestDriverSetWorkers: a worker of a Mesa 25 adapter runs the kernel on
// Mesa 25 and nothing else — its Info names Mesa 25's version (read in the
// worker, from the drivers it loaded), the process maps Mesa 25's driver
// libraries from build/mesa25 and none of the system's — while a worker of
// the system's same-named adapter still runs the system's Mesa 22. Both
// give the tripler's exact output. OpenAny reaches the set through the
// opener this package registers.
func TestDriverSetWorkers(t *testing.T) {
	set, err := harness.Mesa25()
	if err != nil {
		t.Fatalf("Mesa 25 is missing: %v", err)
	}
	want25, _, _ := strings.Cut(strings.TrimPrefix(set.Version, "Mesa "), "-")
	dir := filepath.Dir(set.VulkanICDs[0])
	for _, c := range []struct {
		name, system string
		lib          string // the driver library each must map (its own copy)
	}{
		{"wgpu-vulkan:llvmpipe-mesa25", "wgpu-vulkan:llvmpipe", "libvulkan_lvp.so"},
		{"wgpu-gl:llvmpipe-mesa25", "wgpu-gl:llvmpipe", "libEGL_mesa.so"},
	} {
		d := startDevice(t, c.name, Options{})
		runTriple(t, d, 1, 100, "mesa25")
		info := d.Info()
		t.Logf("%s: %s %s %q", info.Name, info.Driver, info.DriverVersion, info.DriverInfo)
		assert.Equal(t, c.name, info.Name)
		assert.Equal(t, "mesa25", info.DriverSet)
		assert.Equal(t, want25, info.DriverVersion, c.name)
		assert.Contains(t, info.DriverInfo, "Mesa "+want25, c.name)
		libs := mappedLibraries(t, workerPid(d))
		var own, system []string
		for _, l := range libs {
			if strings.Contains(l, c.lib) || strings.Contains(l, "libgallium") || strings.Contains(l, "_dri.so") {
				if strings.HasPrefix(l, dir+"/") {
					own = append(own, l)
				} else {
					system = append(system, l)
				}
			}
		}
		assert.NotEmpty(t, own, "%s maps no Mesa 25 driver from %s: %v", c.name, dir, libs)
		assert.Empty(t, system, "%s maps the system's Mesa", c.name)

		sys := startDevice(t, c.system, Options{})
		runTriple(t, sys, 2, 100, "system")
		assert.Empty(t, sys.Info().DriverSet)
		assert.NotEqual(t, want25, sys.Info().DriverVersion, c.system)
		for _, l := range mappedLibraries(t, workerPid(sys)) {
			assert.False(t, strings.HasPrefix(l, dir+"/"), "%s maps %s", c.system, l)
		}
	}

	r, err := harness.OpenAny("vulkan:llvmpipe-mesa25")
	require.NoError(t, err)
	defer r.Close()
	require.IsType(t, &Device{}, r)
	assert.Equal(t, "wgpu-vulkan:llvmpipe-mesa25", r.Info().Name)
	runTriple(t, r.(*Device), 3, 10, "openany")
}
