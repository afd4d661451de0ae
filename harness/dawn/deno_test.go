package dawn

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// pinnedDeno is the version of the npm package deno that the module
// root's package.json pins: an independent source for what the binary
// must report.
func pinnedDeno(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "package.json"))
	require.NoError(t, err)
	var pkg struct{ Dependencies map[string]string }
	require.NoError(t, json.Unmarshal(b, &pkg))
	require.NotEmpty(t, pkg.Dependencies["deno"], "package.json pins deno")
	return pkg.Dependencies["deno"]
}

// TestDenoAdaptersFindCPUAdapters: Deno's WebGPU reaches lavapipe and
// SwiftShader through Vulkan (one ICD per process) and llvmpipe through
// GL, named by harness's rule, with the versions of the deno binary and of
// the wgpu-core and naga it was built with, and the driver identity of
// wgpu's adapter on the same driver.
func TestDenoAdaptersFindCPUAdapters(t *testing.T) {
	requireDeno(t)
	all, err := DenoAdapters()
	require.NoError(t, err)
	byName := map[string]harness.AdapterInfo{}
	for _, a := range all {
		byName[a.Name] = a
		assert.Equal(t, DenoImplementation, a.Implementation)
		assert.Regexp(t, `^deno `+strings.ReplaceAll(pinnedDeno(t), ".", `\.`)+` \(wgpu-core [0-9]+\.[0-9]+\.[0-9]+, naga [0-9]+\.[0-9]+\.[0-9]+\)$`, a.ImplementationVersion, a.Name)
	}
	for _, want := range denoCPUAdapters {
		require.Contains(t, byName, want, "deno adapters: %v (%s)", all, adapterHint)
	}
	wgpu, err := harness.Adapters()
	require.NoError(t, err)
	for _, w := range wgpu {
		d, ok := byName["deno-"+strings.TrimPrefix(w.Name, "wgpu-")]
		require.True(t, ok, "Deno reaches %s's driver", w.Name)
		assert.Equal(t, w.Device, d.Device, w.Name)
		assert.Equal(t, w.Driver, d.Driver, w.Name)
		assert.Equal(t, w.DriverVersion, d.DriverVersion, w.Name)
		assert.Equal(t, w.Vendor, d.Vendor, w.Name)
		assert.Equal(t, "cpu", d.Type, w.Name)
	}
	// naga 29 is what Deno 2.9 ships (its Cargo.lock); the major version
	// is what a maintainer asks about.
	assert.Contains(t, byName[denoLavapipe].ImplementationVersion, "naga 29.")
	again, err := DenoAdapters()
	require.NoError(t, err)
	assert.Equal(t, all, again)
}

// TestCrateVersions reads crate versions from the paths a Rust binary
// carries, preferring the most frequent, and ignores look-alikes.
func TestCrateVersions(t *testing.T) {
	bin := []byte("x/wgpu-core-29.0.1/src/a.rs\x00/naga-29.0.3/src/b.rs /naga-29.0.3/src/c.rs " +
		"/naga-0.19.2/src/d.rs naga-1.2 naga-1.2.3x/ wgpu-core-1..2.3/ wgpu-core-29.0.1/")
	c := crateVersions(bin, crates)
	assert.Equal(t, map[string]map[string]int{
		"wgpu-core": {"29.0.1": 2},
		"naga":      {"29.0.3": 2, "0.19.2": 1},
	}, c)
	assert.Equal(t, "29.0.3", mostFrequent(c["naga"]))
	assert.Equal(t, "", mostFrequent(nil))

	// Read in chunks, a file counts what the whole does: paths just before
	// and inside each chunk's overlap (its last 64 bytes, from 4 MiB), ones
	// cut by the end of a read (4 MiB + 64, 8 MiB + 64), and one at the end.
	big := make([]byte, 3*(4<<20)+100)
	var want int
	for _, at := range []int{0, 4<<20 - 80, 4<<20 - 64, 4<<20 + 10, 4<<20 + 59, 8<<20 + 59, len(big) - len("naga-1.2.3/")} {
		copy(big[at:], "naga-1.2.3/")
		want++
	}
	path := filepath.Join(t.TempDir(), "bin")
	require.NoError(t, os.WriteFile(path, big, 0o644))
	got, err := scanCrateVersions(path, crates)
	require.NoError(t, err)
	assert.Equal(t, map[string]map[string]int{"naga": {"1.2.3": want}}, got)
	assert.Equal(t, crateVersions(big, crates), got)
}

// TestDenoCompileErrorCarriesNagaMessage: a WGSL type error comes back as a
// *harness.CompileError with naga's diagnostic, and the worker runs the
// next kernel.
func TestDenoCompileErrorCarriesNagaMessage(t *testing.T) {
	d := openDevice(t, denoLavapipe)
	pid := d.w.pid()
	bad := strings.Replace(tripleWGSL, "outp[i] = inp[i] * 3u + 1u;", "let x: u32 = 1.5;\n\toutp[i] = x;", 1)
	job := harness.Dispatch{Input: le(1, 2), OutputSize: 8, Invocations: 2}
	_, err := d.Run(t.Context(), harness.Kernel{WGSL: bad, EntryPoint: "main"}, job)
	var ce *harness.CompileError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, harness.StageShaderModule, ce.Stage)
	assert.Contains(t, ce.Message, "let x: u32 = 1.5;", "naga quotes the source line")
	out, err := d.Run(t.Context(), harness.Kernel{WGSL: tripleWGSL, EntryPoint: "main"}, job)
	require.NoError(t, err)
	assert.Equal(t, []uint32{4, 7}, words(out))
	assert.Equal(t, pid, d.w.pid(), "compile errors keep the worker")
}

// TestDenoAcceptsWhatNaga019Rejects: the two wgpu stacks are different
// compilers. const_assert (WGSL §9.5, "const assertion statement") is valid
// WGSL that naga 0.19 cannot parse; Deno's naga accepts and runs it.
func TestDenoAcceptsWhatNaga019Rejects(t *testing.T) {
	src := "const_assert 3u * 2u == 6u;\n" + tripleWGSL
	k := harness.Kernel{WGSL: src, EntryPoint: "main"}
	job := harness.Dispatch{Input: le(2), OutputSize: 4, Invocations: 1}
	old, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	defer old.Close()
	_, err = old.Run(t.Context(), k, job)
	var ce *harness.CompileError
	require.ErrorAs(t, err, &ce, "naga 0.19 (wgpu 0.19.4) rejects const_assert")
	out, err := openDevice(t, denoLavapipe).Run(t.Context(), k, job)
	require.NoError(t, err)
	assert.Equal(t, []uint32{7}, words(out))
}

// TestDenoNotInstalledFails: a missing deno is an error wrapping
// ErrNotInstalled that says to run `make deps`.
func TestDenoNotInstalledFails(t *testing.T) {
	t.Setenv(DenoEnv, "/nonexistent/deno")
	_, err := findDeno()
	assert.ErrorIs(t, err, ErrNotInstalled)
	assert.ErrorContains(t, err, "make deps")
}

// mappedLibraries lists the shared objects mapped into process pid (Linux).
func mappedLibraries(t *testing.T, pid int) []string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
	require.NoError(t, err)
	var libs []string
	for line := range strings.SplitSeq(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 6 && strings.Contains(f[5], ".so") && !slices.Contains(libs, f[5]) {
			libs = append(libs, f[5])
		}
	}
	return libs
}

// TestMesa25WorkersLoadMesa25: a Dawn or Deno adapter of the mesa25 driver
// set runs in a node or deno process that maps Mesa 25's driver from
// build/mesa25 and no Mesa driver of the system's, and the system's
// same-named adapter maps none from build/mesa25 — what ran is what the
// name says (Deno's driver fields are copied from wgpu's listing, so this
// is the independent check). Each gives the tripler's exact output.
func TestMesa25WorkersLoadMesa25(t *testing.T) {
	set, err := harness.Mesa25()
	require.NoError(t, err, "Mesa 25 is needed")
	dir := filepath.Dir(set.VulkanICDs[0]) + "/"
	driver := func(l string) bool {
		return strings.Contains(l, "libvulkan_lvp.so") || strings.Contains(l, "libgallium") || strings.Contains(l, "libEGL_mesa.so") || strings.Contains(l, "_dri.so")
	}
	for _, c := range []struct{ mesa25, system string }{
		{"dawn-vulkan:llvmpipe-mesa25", ""}, // Dawn refuses Mesa 22's lavapipe
		{"dawn-gl:llvmpipe-mesa25", glLLVMpipe},
		{"deno-vulkan:llvmpipe-mesa25", denoLavapipe},
		{"deno-gl:llvmpipe-mesa25", denoGL},
	} {
		t.Run(c.mesa25, func(t *testing.T) {
			d := openDevice(t, c.mesa25)
			out, err := d.Run(t.Context(), harness.Kernel{WGSL: tripleWGSL, EntryPoint: "main"}, harness.Dispatch{Input: le(7, 8), OutputSize: 8, Invocations: 2})
			require.NoError(t, err)
			assert.Equal(t, []uint32{22, 25}, words(out))
			assert.Equal(t, "mesa25", d.Info().DriverSet)
			var own, system []string
			for _, l := range mappedLibraries(t, d.w.pid()) {
				switch {
				case !driver(l):
				case strings.HasPrefix(l, dir):
					own = append(own, l)
				default:
					system = append(system, l)
				}
			}
			assert.NotEmpty(t, own, "maps no Mesa 25 driver from %s", dir)
			assert.Empty(t, system, "maps the system's Mesa")
			if c.system == "" {
				return
			}
			sys := openDevice(t, c.system)
			_, err = sys.Run(t.Context(), harness.Kernel{WGSL: tripleWGSL, EntryPoint: "main"}, harness.Dispatch{Input: le(1), OutputSize: 4, Invocations: 1})
			require.NoError(t, err)
			for _, l := range mappedLibraries(t, sys.w.pid()) {
				assert.False(t, strings.HasPrefix(l, dir), "%s maps %s", c.system, l)
			}
		})
	}
}
