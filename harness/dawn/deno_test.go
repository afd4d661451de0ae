package dawn

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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

// TestDenoDeadWorkerIsReplaced: a Deno worker killed between Runs (as a
// crashing driver would end it) costs that Run a DeviceError saying how it
// died; the next Run starts a new one.
func TestDenoDeadWorkerIsReplaced(t *testing.T) {
	d := openDevice(t, denoSwiftShader)
	require.NoError(t, syscall.Kill(d.w.pid(), syscall.SIGKILL))
	k := harness.Kernel{WGSL: tripleWGSL, EntryPoint: "main"}
	job := harness.Dispatch{Input: le(5), OutputSize: 4, Invocations: 1}
	_, err := d.Run(t.Context(), k, job)
	var de *harness.DeviceError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "worker", de.Op)
	assert.Contains(t, de.Message, "deno worker")
	assert.Contains(t, de.Message, "signal: killed")
	out, err := d.Run(t.Context(), k, job)
	require.NoError(t, err)
	assert.Equal(t, []uint32{16}, words(out))
	assert.Equal(t, 2, d.starts)
}

// TestDenoSPIRVIsNotSupported: Deno's createShaderModule takes WGSL only.
func TestDenoSPIRVIsNotSupported(t *testing.T) {
	d := openDevice(t, denoGL)
	_, err := d.Run(t.Context(), harness.Kernel{SPIRV: []uint32{0x07230203, 0x00010000, 0, 1, 0}, EntryPoint: "main"},
		harness.Dispatch{OutputSize: 4, Invocations: 1})
	assert.ErrorIs(t, err, ErrNoSPIRV)
	assert.ErrorIs(t, err, harness.ErrUnsupported)
}

// TestDenoNotInstalledFails: a missing deno is an error wrapping
// ErrNotInstalled that says to run `make deps`.
func TestDenoNotInstalledFails(t *testing.T) {
	t.Setenv(DenoEnv, "/nonexistent/deno")
	_, err := findDeno()
	assert.ErrorIs(t, err, ErrNotInstalled)
	assert.ErrorContains(t, err, "make deps")
}
