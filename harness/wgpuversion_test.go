package harness

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWGPUVersionMatchesLinkedLibrary reads the wgpu-native static library
// the binding links (github.com/cogentcore/webgpu's
// wgpu/lib/<os>/<arch>/libwgpu_native.a, from the module cache) and checks
// that every cargo checkout path it carries is of gfx-rs/wgpu commit
// wgpuCommit, naga's sources among them: WGPUImplementationVersion names
// that commit's release. A new binding that ships another wgpu fails here
// until both constants are updated.
func TestWGPUVersionMatchesLinkedLibrary(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		goTool = "go"
	}
	out, err := exec.Command(goTool, "list", "-m", "-f", "{{.Dir}}", "github.com/cogentcore/webgpu").Output()
	require.NoError(t, err, "go list -m github.com/cogentcore/webgpu")
	dir := strings.TrimSpace(string(out))
	require.NotEmpty(t, dir, "github.com/cogentcore/webgpu is not in the module cache (go mod download)")
	lib := filepath.Join(dir, "wgpu", "lib", runtime.GOOS, runtime.GOARCH, "libwgpu_native.a")
	data, err := os.ReadFile(lib)
	if os.IsNotExist(err) {
		t.Skipf("the binding ships no static library for %s/%s (%s)", runtime.GOOS, runtime.GOARCH, lib)
	}
	require.NoError(t, err)

	// ".../git/checkouts/wgpu-<hash of the URL>/<commit>/<crate>/src/..."
	checkout := regexp.MustCompile(`checkouts/wgpu-[0-9a-f]+/([0-9a-f]{7,40})/([a-z_-]+)/`)
	commits := map[string]int{}
	crates := map[string]bool{}
	for _, m := range checkout.FindAllSubmatch(data, -1) {
		commits[string(m[1])]++
		crates[string(m[2])] = true
	}
	hint := "the linked wgpu-native changed: find the gfx-rs/wgpu release of the commit its cargo checkout paths name " +
		"(`strings libwgpu_native.a | grep checkouts/wgpu-`), read wgpu-core's and naga's versions from that commit's Cargo.toml files, " +
		"and update wgpuCommit and WGPUImplementationVersion (harness/wgpuversion.go) and the README's drivers table"
	require.NotEmpty(t, commits, "%s carries no gfx-rs/wgpu checkout path: %s", lib, hint)
	var seen []string
	for c := range commits {
		seen = append(seen, c)
	}
	slices.Sort(seen)
	require.Equal(t, []string{wgpuCommit}, seen, "%s was built from gfx-rs/wgpu %v, gpudiff names %s (%q): %s", lib, seen, wgpuCommit, WGPUImplementationVersion, hint)
	for _, crate := range []string{"wgpu-core", "wgpu-hal", "naga"} {
		assert.True(t, crates[crate], "%s has no %s sources of the checkout %s (crates seen: %v): %s", lib, crate, wgpuCommit, crates, hint)
	}
	// naga from the crates.io registry instead of the checkout would have
	// a version of its own that the constant does not name.
	reg := regexp.MustCompile(`registry/src/[^/]+/(naga|wgpu-core|wgpu-hal)-[0-9][^/]*`).Find(data)
	assert.Nil(t, reg, "%s links %s from crates.io, not from the checkout %s: %s", lib, reg, wgpuCommit, hint)
	assert.True(t, bytes.Contains(data, []byte("ash-0.37.3")), "%s no longer links ash 0.37.3 (wgpu 0.19's): %s", lib, hint)
}

// TestWGPUAdaptersNameTheirImplementation: every wgpu adapter, and the
// driver record of each, names the implementation and its version.
func TestWGPUAdaptersNameTheirImplementation(t *testing.T) {
	assert.Regexp(t, `^wgpu [0-9]+\.[0-9]+\.[0-9]+ \(naga [0-9]+\.[0-9]+\.[0-9]+\)$`, WGPUImplementationVersion)
	all, err := Adapters()
	require.NoError(t, err)
	require.NotEmpty(t, all, installHint)
	var names []string
	for _, a := range all {
		assert.Equal(t, WGPUImplementationVersion, a.ImplementationVersion, a.Name)
		names = append(names, a.Name)
	}
	recs := DriverRecords(names)
	require.Len(t, recs, len(names))
	for _, r := range recs {
		assert.Equal(t, "wgpu", r.Implementation, r.Adapter)
		assert.Equal(t, WGPUImplementationVersion, r.ImplementationVersion, r.Adapter)
	}
	// WithDriver fills in the version of an adapter described without it
	// (as a worker's device may be).
	bare := all[0]
	bare.ImplementationVersion, bare.DriverVersion = "", ""
	assert.Equal(t, WGPUImplementationVersion, WithDriver(bare).ImplementationVersion)
}

// TestDriverRecordJSON: the implementation's keys are written when known,
// and a record written before them still loads (without them).
func TestDriverRecordJSON(t *testing.T) {
	r := AdapterInfo{Name: "wgpu-vulkan:llvmpipe", Implementation: "wgpu", ImplementationVersion: "wgpu 0.19.4 (naga 0.19.2)",
		Driver: "llvmpipe", DriverVersion: "22.3.6"}.Record()
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"implementation":"wgpu","implementation_version":"wgpu 0.19.4 (naga 0.19.2)"`)
	var old DriverRecord
	require.NoError(t, json.Unmarshal([]byte(`{"adapter":"wgpu-vulkan:llvmpipe","driver":"llvmpipe","driver_version":"22.3.6"}`), &old))
	assert.Equal(t, DriverRecord{Adapter: "wgpu-vulkan:llvmpipe", Driver: "llvmpipe", Version: "22.3.6"}, old)

	assert.Equal(t, "wgpu 0.19.4 (naga 0.19.2) on llvmpipe 22.3.6", r.Stack())
	assert.Equal(t, "llvmpipe 22.3.6", old.Stack())
	assert.Equal(t, "deno 2.9.6", DriverRecord{ImplementationVersion: "deno 2.9.6"}.Stack())
}
