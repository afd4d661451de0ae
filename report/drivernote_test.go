package report

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/harness"
)

// TestDriverNotes: each note names exactly the changed adapter, and is
// empty when nothing changed (campaign.DriverChanges decides which).
func TestDriverNotes(t *testing.T) {
	before := []harness.DriverRecord{
		{Adapter: "wgpu-vulkan:llvmpipe", Driver: "llvmpipe", Version: "22.3.6"},
		{Adapter: "wgpu-gl:llvmpipe", Driver: "Mesa", Version: "22.3.6"},
		{Adapter: "gone", Driver: "x", Version: "1"},
	}
	now := []harness.DriverRecord{
		{Adapter: "wgpu-vulkan:llvmpipe", Driver: "llvmpipe", Version: "23.0.1"},
		{Adapter: "wgpu-gl:llvmpipe", Driver: "Mesa", Version: "22.3.6"},
		{Adapter: "new", Driver: "y", Version: "2"},
	}
	assert.Equal(t, "note: the baseline b.json was recorded on other drivers (wgpu-vulkan:llvmpipe: llvmpipe 22.3.6 → llvmpipe 23.0.1): new and known failures compare across a driver change", BaselineDriverNote("b.json", before, now))
	assert.Equal(t, "gpudiff repro: note: the case was recorded on other drivers (wgpu-vulkan:llvmpipe: llvmpipe 22.3.6 → llvmpipe 23.0.1)", CaseDriverNote(before, now))
	assert.Empty(t, BaselineDriverNote("b.json", before, before))
	assert.Empty(t, CaseDriverNote(nil, now))
}
