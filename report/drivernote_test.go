package report

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/harness"
)

func TestDriverChanges(t *testing.T) {
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
	assert.Equal(t, []string{"wgpu-vulkan:llvmpipe: llvmpipe 22.3.6 → llvmpipe 23.0.1"}, DriverChanges(before, now))
	assert.Nil(t, DriverChanges(before, before))
	assert.Contains(t, ResumeDriverNote(before, now), "the drivers changed since the campaign began (wgpu-vulkan:llvmpipe: llvmpipe 22.3.6 → llvmpipe 23.0.1)")
	assert.Empty(t, ResumeDriverNote(before, before))
	assert.Empty(t, BaselineDriverNote("b.json", before, before))
	assert.Empty(t, CaseDriverNote(nil, now))
}
