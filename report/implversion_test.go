package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/drivers"
	"github.com/gpudiff/gpudiff/harness"
)

const implV19 = "wgpu 0.19.4 (naga 0.19.2)"

var implDrivers = []harness.DriverRecord{{Adapter: "wgpu-vulkan:llvmpipe", Driver: "llvmpipe", Version: "22.3.6", Info: "Mesa 22.3.6 (LLVM 15.0.6)",
	Implementation: "wgpu", ImplementationVersion: implV19}}

// TestAdaptersImplementationVersion: the adapters table has an
// implementation version column, and the JSON an implementation_version
// key for every adapter, empty where the implementation's version is
// unknown.
func TestAdaptersImplementationVersion(t *testing.T) {
	infos := []harness.AdapterInfo{
		{Name: "wgpu-vulkan:llvmpipe", Implementation: "wgpu", ImplementationVersion: implV19, Backend: "vulkan", Driver: "llvmpipe", DriverVersion: "22.3.6"},
		{Name: "other-vulkan:x", Implementation: "other", Backend: "vulkan"},
	}
	var b strings.Builder
	require.NoError(t, WriteAdapters(&b, infos, false))
	assert.Regexp(t, `IMPLEMENTATION +│ IMPLEMENTATION VERSION +│ BACKEND`, b.String())
	assert.Regexp(t, `│ wgpu +│ wgpu 0\.19\.4 \(naga 0\.19\.2\) +│ vulkan +│`, b.String())
	b.Reset()
	require.NoError(t, WriteAdapters(&b, infos, true))
	var got []map[string]any
	require.NoError(t, json.Unmarshal([]byte(b.String()), &got))
	require.Len(t, got, 2)
	assert.Equal(t, implV19, got[0]["implementation_version"])
	v, ok := got[1]["implementation_version"]
	assert.True(t, ok, "the key is there for an unknown version too")
	assert.Equal(t, "", v)
}

// TestCampaignOutputsImplementationVersion: run's summary line, --report
// JSON, JUnit properties and HTML name each adapter's implementation
// version beside its driver.
func TestCampaignOutputsImplementationVersion(t *testing.T) {
	c := campaign.Spec{Seed: 1, Count: 1, Size: 10, Profile: "default", Mode: "portable", Adapters: []string{"wgpu-vulkan:llvmpipe"}}
	run := CampaignRun{Tool: "gpudiff test", Drivers: implDrivers}
	s := &campaign.Summary{Verdicts: map[string]int{}, RunsPer: map[string]int{}}
	var b strings.Builder
	WriteCampaignSummary(&b, c, run, s)
	assert.Contains(t, b.String(), "drivers: wgpu-vulkan:llvmpipe wgpu 0.19.4 (naga 0.19.2) on llvmpipe 22.3.6\n")

	b.Reset()
	require.NoError(t, WriteCampaignJSON(&b, c, run, s))
	assert.Contains(t, b.String(), `"implementation": "wgpu",`)
	assert.Contains(t, b.String(), `"implementation_version": "wgpu 0.19.4 (naga 0.19.2)"`)

	b.Reset()
	require.NoError(t, WriteCampaignJUnit(&b, c, run, s))
	assert.Contains(t, b.String(), `<property name="implementation" value="wgpu"></property>`)
	assert.Contains(t, b.String(), `<property name="implementation_version" value="wgpu 0.19.4 (naga 0.19.2)"></property>`)

	b.Reset()
	require.NoError(t, WriteCampaignHTML(&b, c, run, s))
	assert.Contains(t, b.String(), `<th>conformance</th><th>implementation</th></tr>`)
	assert.Contains(t, b.String(), `<td>Mesa 22.3.6 (LLVM 15.0.6)</td><td></td><td>wgpu 0.19.4 (naga 0.19.2)</td></tr>`)
}

// TestDriversOutputsImplementationVersion: the drivers matrix's text,
// JSON, JUnit and HTML name each adapter's implementation version, and
// its driver records (a baseline's) carry it.
func TestDriversOutputsImplementationVersion(t *testing.T) {
	rep := &drivers.Report{Mode: "portable", Adapters: []drivers.Adapter{{Name: "wgpu-vulkan:llvmpipe", Implementation: "wgpu",
		ImplementationVersion: implV19, Backend: "vulkan", Driver: "vulkan:llvmpipe", Compiler: "naga", DriverName: "llvmpipe", DriverVersion: "22.3.6"}}}
	var b strings.Builder
	WriteDriversText(&b, rep, DriversTextOptions{})
	assert.Contains(t, b.String(), "drivers: wgpu-vulkan:llvmpipe wgpu 0.19.4 (naga 0.19.2) on llvmpipe 22.3.6\n")
	b.Reset()
	require.NoError(t, WriteDriversJSON(&b, rep))
	assert.Contains(t, b.String(), `"implementation_version": "wgpu 0.19.4 (naga 0.19.2)"`)
	b.Reset()
	require.NoError(t, WriteDriversJUnit(&b, rep))
	assert.Contains(t, b.String(), `<property name="implementation_version" value="wgpu 0.19.4 (naga 0.19.2)"></property>`)
	b.Reset()
	require.NoError(t, WriteDriversHTML(&b, rep))
	assert.Contains(t, b.String(), `<td>wgpu</td><td>wgpu 0.19.4 (naga 0.19.2)</td><td>naga</td>`)
	assert.Equal(t, implV19, rep.DriverRecords()[0].ImplementationVersion)
}

// TestDriverNotesImplementationVersion: a baseline or case recorded under
// another version of the implementation, on the same driver, says so.
func TestDriverNotesImplementationVersion(t *testing.T) {
	now := []harness.DriverRecord{implDrivers[0]}
	now[0].ImplementationVersion = "wgpu 29.0.1 (naga 29.0.3)"
	assert.Equal(t, "note: the baseline b.json was recorded on other drivers (wgpu-vulkan:llvmpipe: wgpu 0.19.4 (naga 0.19.2) → wgpu 29.0.1 (naga 29.0.3)): new and known failures compare across a driver change",
		BaselineDriverNote("b.json", implDrivers, now))
	assert.Equal(t, "gpudiff repro: note: the case was recorded on other drivers (wgpu-vulkan:llvmpipe: wgpu 0.19.4 (naga 0.19.2) → wgpu 29.0.1 (naga 29.0.3))",
		CaseDriverNote(implDrivers, now))
	assert.Empty(t, CaseDriverNote(implDrivers, implDrivers))
}
