package campaign

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// TestDriverChangesImplementationVersion: a new version of the WebGPU
// implementation on the same driver is a change, phrased with the
// implementation versions; with the driver changed too, both; a record
// without the implementation's version (written before gpudiff recorded
// it) is not a change on that account.
func TestDriverChangesImplementationVersion(t *testing.T) {
	rec := func(impl, version string) harness.DriverRecord {
		return harness.DriverRecord{Adapter: "wgpu-vulkan:llvmpipe", Driver: "llvmpipe", Version: version,
			Implementation: "wgpu", ImplementationVersion: impl}
	}
	const v19, v29 = "wgpu 0.19.4 (naga 0.19.2)", "wgpu 29.0.1 (naga 29.0.3)"
	before := []harness.DriverRecord{rec(v19, "22.3.6")}
	assert.Equal(t, []string{"wgpu-vulkan:llvmpipe: wgpu 0.19.4 (naga 0.19.2) → wgpu 29.0.1 (naga 29.0.3)"},
		DriverChanges(before, []harness.DriverRecord{rec(v29, "22.3.6")}), "only the implementation version changed")
	assert.Equal(t, []string{"wgpu-vulkan:llvmpipe: wgpu 0.19.4 (naga 0.19.2) on llvmpipe 22.3.6 → wgpu 29.0.1 (naga 29.0.3) on llvmpipe 25.0.7"},
		DriverChanges(before, []harness.DriverRecord{rec(v29, "25.0.7")}), "both changed")
	assert.Equal(t, []string{"wgpu-vulkan:llvmpipe: llvmpipe 22.3.6 → llvmpipe 25.0.7"},
		DriverChanges(before, []harness.DriverRecord{rec(v19, "25.0.7")}), "only the driver changed")
	assert.Nil(t, DriverChanges(before, []harness.DriverRecord{rec(v19, "22.3.6")}))
	old := []harness.DriverRecord{{Adapter: "wgpu-vulkan:llvmpipe", Driver: "llvmpipe", Version: "22.3.6"}}
	assert.Nil(t, DriverChanges(old, []harness.DriverRecord{rec(v29, "22.3.6")}), "an old record's unknown version is no change")
	assert.Nil(t, DriverChanges(before, old))

	// A resumed campaign says so.
	var w bytes.Buffer
	r := &Run{resumed: true, Spec: Spec{Adapters: []string{"wgpu-vulkan:llvmpipe"}, Drivers: before}}
	require.NoError(t, r.UseAdapters([]string{"wgpu-vulkan:llvmpipe"}, []harness.DriverRecord{rec(v29, "22.3.6")}, &w))
	assert.Contains(t, w.String(), "the drivers changed since the campaign began (wgpu-vulkan:llvmpipe: wgpu 0.19.4 (naga 0.19.2) → wgpu 29.0.1 (naga 29.0.3))")
}

// TestBaselineDriversImplementationVersion: both kinds of JSON baseline
// give the implementation's version where they recorded it.
func TestBaselineDriversImplementationVersion(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	want := []harness.DriverRecord{{Adapter: "wgpu-vulkan:llvmpipe", Driver: "llvmpipe", Version: "22.3.6",
		Implementation: "wgpu", ImplementationVersion: "wgpu 0.19.4 (naga 0.19.2)"}}
	assert.Equal(t, want, BaselineDrivers(write("run.json",
		`{"drivers":[{"adapter":"wgpu-vulkan:llvmpipe","driver":"llvmpipe","driver_version":"22.3.6","implementation":"wgpu","implementation_version":"wgpu 0.19.4 (naga 0.19.2)"}]}`)))
	assert.Equal(t, want, BaselineDrivers(write("drivers.json",
		`{"adapters":[{"name":"wgpu-vulkan:llvmpipe","implementation":"wgpu","implementation_version":"wgpu 0.19.4 (naga 0.19.2)","driver_name":"llvmpipe","driver_version":"22.3.6"}]}`)))
}

// TestJournalHeaderImplementationVersion: the journal's header records
// each adapter's implementation version, and the merge of shard journals
// keeps it (the first shard's drivers).
func TestJournalHeaderImplementationVersion(t *testing.T) {
	dir := t.TempDir()
	drivers := []harness.DriverRecord{{Adapter: "wgpu-vulkan:llvmpipe", Driver: "llvmpipe", Version: "22.3.6",
		Implementation: "wgpu", ImplementationVersion: "wgpu 0.19.4 (naga 0.19.2)"}}
	var paths []string
	for i, shard := range []string{"0/2", "1/2"} {
		h := Spec{Tool: "t", Seed: 9, Count: 2, Size: 30, Profile: "default", Shard: shard, Mode: "portable",
			Adapters: []string{"wgpu-vulkan:llvmpipe"}, Drivers: drivers}
		data, err := EncodeJournal(h, []ProgramRecord{{Index: i, Hash: "h", Verdict: "pass", Stmts: 9, Invocations: 16}}, time.Second, false)
		require.NoError(t, err)
		assert.Contains(t, string(bytes.SplitN(data, []byte("\n"), 2)[0]), `"implementation":"wgpu","implementation_version":"wgpu 0.19.4 (naga 0.19.2)"`)
		p := filepath.Join(dir, shard[:1]+".jsonl")
		require.NoError(t, os.WriteFile(p, data, 0o644))
		paths = append(paths, p)
		h2, _, _, _, err := ReadJournal(p)
		require.NoError(t, err)
		assert.Equal(t, drivers, h2.Drivers)
	}
	m, err := MergeJournals(paths)
	require.NoError(t, err)
	assert.Equal(t, drivers, m.Header.Drivers)
}

// TestMergedDriverChanges: a shard that ran under another implementation
// version than the first journal given is named, with the change.
func TestMergedDriverChanges(t *testing.T) {
	dir := t.TempDir()
	rec := func(impl string) []harness.DriverRecord {
		return []harness.DriverRecord{{Adapter: "wgpu-vulkan:llvmpipe", Driver: "llvmpipe", Version: "22.3.6", Implementation: "wgpu", ImplementationVersion: impl}}
	}
	var paths []string
	for i, impl := range []string{"wgpu 0.19.4 (naga 0.19.2)", "wgpu 29.0.1 (naga 29.0.3)"} {
		shard := []string{"0/2", "1/2"}[i]
		h := Spec{Tool: "t", Seed: 9, Count: 2, Size: 30, Profile: "default", Shard: shard, Mode: "portable",
			Adapters: []string{"wgpu-vulkan:llvmpipe"}, Drivers: rec(impl)}
		data, err := EncodeJournal(h, []ProgramRecord{{Index: i, Hash: "h", Verdict: "pass", Stmts: 9, Invocations: 16}}, time.Second, false)
		require.NoError(t, err)
		p := filepath.Join(dir, shard[:1]+".jsonl")
		require.NoError(t, os.WriteFile(p, data, 0o644))
		paths = append(paths, p)
	}
	m, err := MergeJournals(paths)
	require.NoError(t, err)
	assert.Equal(t, []string{"shard 1/2 (" + paths[1] + "): wgpu-vulkan:llvmpipe: wgpu 0.19.4 (naga 0.19.2) → wgpu 29.0.1 (naga 29.0.3)"}, m.DriverChanges())
	// The header is the first journal given: the other is the one named.
	m, err = MergeJournals([]string{paths[1], paths[0]})
	require.NoError(t, err)
	assert.Equal(t, []string{"shard 0/2 (" + paths[0] + "): wgpu-vulkan:llvmpipe: wgpu 29.0.1 (naga 29.0.3) → wgpu 0.19.4 (naga 0.19.2)"}, m.DriverChanges())
}
