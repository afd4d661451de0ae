package harness

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The adapters of Mesa 25 (driver set mesa25) after `make deps`.
const (
	lavapipe25   = "wgpu-vulkan:llvmpipe-mesa25"
	glLLVMpipe25 = "wgpu-gl:llvmpipe-mesa25"
)

// requireMesa25 returns the mesa25 set, failing the test (never skipping)
// when `make deps` has not unpacked it.
func requireMesa25(t testing.TB) DriverSet {
	t.Helper()
	s, err := Mesa25()
	if err != nil {
		t.Fatalf("Mesa 25 is missing: %v", err)
	}
	return s
}

// upstream is a Debian package version without its revision:
// "25.0.7-2~bpo12+1" → "25.0.7".
func upstream(v string) string {
	v, _, _ = strings.Cut(strings.TrimPrefix(v, "Mesa "), "-")
	return v
}

// TestDriverSetsFindMesa25: `make deps` unpacked Mesa 25; DriverSets lists
// it after the system's, with an Env that selects only its manifests,
// which name libraries that exist.
func TestDriverSetsFindMesa25(t *testing.T) {
	m := requireMesa25(t)
	sets := DriverSets()
	require.Len(t, sets, 2)
	assert.Equal(t, "", sets[0].Name)
	assert.Contains(t, sets[0].VulkanICDs, "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json")
	assert.Equal(t, m, sets[1])
	assert.Equal(t, "mesa25", m.Name)
	assert.Regexp(t, `^Mesa 25\.0\.[0-9]+-`, m.Version)
	env := map[string]string{}
	for _, kv := range m.Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	assert.Equal(t, "mesa25", env[DriverSetEnv])
	assert.Equal(t, m.VulkanICDs, []string{env["VK_ICD_FILENAMES"]})
	assert.Equal(t, env["VK_ICD_FILENAMES"], env["VK_DRIVER_FILES"])
	assert.Contains(t, env, "VK_ADD_DRIVER_FILES")
	assert.Empty(t, env["VK_ADD_DRIVER_FILES"], "no SwiftShader or other added ICD in the set")
	for _, manifest := range []string{env["VK_ICD_FILENAMES"], env["__EGL_VENDOR_LIBRARY_FILENAMES"]} {
		require.True(t, filepath.IsAbs(manifest), manifest)
		b, err := os.ReadFile(manifest)
		require.NoError(t, err)
		var j struct {
			ICD struct {
				LibraryPath string `json:"library_path"`
			}
		}
		require.NoError(t, json.Unmarshal(b, &j), manifest)
		lib := filepath.Join(filepath.Dir(manifest), j.ICD.LibraryPath) // relative to the manifest
		assert.FileExists(t, lib, manifest)
		assert.True(t, strings.HasPrefix(lib, strings.Split(env["LD_LIBRARY_PATH"], ":")[0]), "%s outside LD_LIBRARY_PATH's first directory", lib)
	}
}

// TestMesa25Locate: Mesa25Env "off" removes the set, a directory without
// the set is an error naming `make deps`, and the set is found from a
// working directory outside the module (through the source directory).
func TestMesa25Locate(t *testing.T) {
	want := requireMesa25(t)
	t.Setenv(Mesa25Env, "off")
	_, err := Mesa25()
	assert.ErrorIs(t, err, ErrDriverSetNotInstalled)
	assert.Len(t, DriverSets(), 1)
	_, ok := DriverSetOf(lavapipe25)
	assert.False(t, ok, "no mesa25 set: its names are no set's")

	t.Setenv(Mesa25Env, t.TempDir())
	_, err = Mesa25()
	assert.ErrorIs(t, err, ErrDriverSetNotInstalled)
	assert.ErrorContains(t, err, "make deps")

	t.Setenv(Mesa25Env, "")
	t.Chdir(t.TempDir())
	got, err := Mesa25()
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

func TestDriverSetOf(t *testing.T) {
	requireMesa25(t)
	for name, want := range map[string]string{
		lavapipe25:                      "mesa25",
		glLLVMpipe25:                    "mesa25",
		"vulkan:llvmpipe-mesa25":        "mesa25",
		"WGPU-Vulkan:LLVMpipe-Mesa25#2": "mesa25",
		"dawn-vulkan:llvmpipe-mesa25":   "mesa25",
		lavapipe:                        "",
		glLLVMpipe:                      "",
		"wgpu-vulkan:mesa25-gpu":        "",
		"mesa25":                        "",
	} {
		s, ok := DriverSetOf(name)
		assert.Equal(t, want != "", ok, name)
		assert.Equal(t, want, s.Name, name)
	}
}

// TestAdaptersListMesa25: Adapters lists Mesa 25's lavapipe and llvmpipe
// GL (found by a child process in the set's environment) beside the
// system's, each with its own Mesa's version; the system's adapters keep
// their names and the installed Mesa's version.
func TestAdaptersListMesa25(t *testing.T) {
	m := requireMesa25(t)
	start := time.Now()
	all, err := Adapters()
	require.NoError(t, err)
	t.Logf("Adapters with the mesa25 child: %v (%v)", names(all), time.Since(start))
	byName := map[string]AdapterInfo{}
	for _, a := range all {
		byName[a.Name] = a
	}
	want25 := upstream(m.Version)
	sys := dpkgVersion(t, "mesa-vulkan-drivers")
	require.NotEqual(t, want25, sys, "the system's Mesa is already %s", sys)
	for _, name := range []string{lavapipe25, glLLVMpipe25} {
		a, ok := byName[name]
		require.True(t, ok, "%s missing from %v", name, names(all))
		t.Logf("%s: %s %s %q", name, a.Driver, a.DriverVersion, a.DriverInfo)
		assert.Equal(t, "mesa25", a.DriverSet, name)
		assert.Equal(t, "wgpu", a.Implementation, name)
		assert.Equal(t, want25, a.DriverVersion, name)
		assert.Contains(t, a.DriverInfo, "Mesa "+want25, name)
		assert.Contains(t, a.Device, "llvmpipe", name)
	}
	assert.Equal(t, "llvmpipe", byName[lavapipe25].Driver)
	assert.NotEmpty(t, byName[lavapipe25].DriverConformance)
	assert.Equal(t, "Mesa", byName[glLLVMpipe25].Driver)
	for _, name := range cpuAdapters {
		a := byName[name]
		assert.Empty(t, a.DriverSet, name)
		if name != swiftshader {
			assert.Equal(t, sys, a.DriverVersion, name)
			assert.NotContains(t, a.DriverInfo, want25, name)
		}
	}
	for _, a := range all {
		if a.Name != lavapipe25 && a.Name != glLLVMpipe25 {
			assert.NotContains(t, a.Name, "mesa25", "SwiftShader is not part of the set")
		}
	}
	// Adapters order: each Mesa 25 adapter right after the system's.
	i := slices.Index(names(all), lavapipe)
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, lavapipe25, all[i+1].Name)
	def, err := Select(all, nil)
	require.NoError(t, err)
	if def[0].Type == "cpu" {
		assert.Equal(t, lavapipe, def[0].Name, "the default stays the system's lavapipe")
	}
	recs := DriverRecords([]string{lavapipe25})
	require.Len(t, recs, 1)
	assert.Equal(t, want25, recs[0].Version)
}

// TestOpenRefusesOtherDriverSet: Open cannot load Mesa 25 into this
// process: it says so, never opening the system's llvmpipe instead.
func TestOpenRefusesOtherDriverSet(t *testing.T) {
	requireMesa25(t)
	for _, name := range []string{lavapipe25, "vulkan:llvmpipe-mesa25", glLLVMpipe25} {
		d, err := Open(name)
		var dse *DriverSetError
		require.ErrorAs(t, err, &dse, name)
		assert.Nil(t, d)
		assert.Equal(t, "mesa25", dse.Set)
		assert.ErrorContains(t, err, "harness/worker")
	}
	_, err := OpenAny(lavapipe25)
	assert.ErrorContains(t, err, "import package harness/worker", "no opener registered in package harness's own tests")
}

// dpkgVersion is the upstream version of an installed Debian package.
func dpkgVersion(t testing.TB, pkg string) string {
	t.Helper()
	out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", pkg).Output()
	require.NoError(t, err, "dpkg-query %s", pkg)
	return upstream(string(out))
}

// TestListSetReportsChildFailure: a set whose child cannot list its
// adapters is a *DriverSetError with the child's reason.
func TestListSetReportsChildFailure(t *testing.T) {
	_, err := listSet(DriverSet{Name: "broken", Version: "test", Env: []string{DriverSetEnv + "=broken", "VK_ICD_FILENAMES=/nonexistent.json",
		"VK_DRIVER_FILES=/nonexistent.json", "VK_ADD_DRIVER_FILES=", "__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent.json"}})
	var dse *DriverSetError
	require.ErrorAs(t, err, &dse)
	assert.Equal(t, "broken", dse.Set)
	assert.True(t, errors.Is(err, dse.Err))
	assert.ErrorContains(t, err, "panicked", "wgpu-native's panic without an EGL vendor, from the head of the child's output")
}
