package drivers

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// TestAdapterImplementationVersion: a matrix column names its adapter's
// implementation version, in the JSON (a report read back as a baseline
// keeps it) and in the report's driver records.
func TestAdapterImplementationVersion(t *testing.T) {
	a := NewAdapter(harness.AdapterInfo{Name: "wgpu-vulkan:llvmpipe", Implementation: "wgpu", ImplementationVersion: "wgpu 0.19.4 (naga 0.19.2)",
		Backend: "vulkan", Device: "llvmpipe", Driver: "llvmpipe", DriverVersion: "22.3.6"})
	assert.Equal(t, "wgpu 0.19.4 (naga 0.19.2)", a.ImplementationVersion)
	rep := &Report{Adapters: []Adapter{a}}
	recs := rep.DriverRecords()
	require.Len(t, recs, 1)
	assert.Equal(t, harness.DriverRecord{Adapter: "wgpu-vulkan:llvmpipe", Driver: "llvmpipe", Version: "22.3.6",
		Implementation: "wgpu", ImplementationVersion: "wgpu 0.19.4 (naga 0.19.2)"}, recs[0])
	b, err := json.Marshal(a)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"implementation":"wgpu","implementation_version":"wgpu 0.19.4 (naga 0.19.2)"`)
	var old Adapter
	require.NoError(t, json.Unmarshal([]byte(`{"name":"wgpu-vulkan:llvmpipe","implementation":"wgpu","driver_name":"llvmpipe","driver_version":"22.3.6"}`), &old))
	assert.Empty(t, old.ImplementationVersion, "a report written before implementation versions loads")
}
