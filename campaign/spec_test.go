package campaign

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	var w bytes.Buffer
	r := &Run{resumed: true, Spec: Spec{Adapters: []string{"wgpu-vulkan:llvmpipe"}, Drivers: before}}
	require.NoError(t, r.UseAdapters([]string{"wgpu-vulkan:llvmpipe"}, now, &w))
	assert.Contains(t, w.String(), "the drivers changed since the campaign began (wgpu-vulkan:llvmpipe: llvmpipe 22.3.6 → llvmpipe 23.0.1)")
	w.Reset()
	require.NoError(t, r.UseAdapters([]string{"wgpu-vulkan:llvmpipe"}, before, &w))
	assert.Empty(t, w.String())
	assert.ErrorContains(t, r.UseAdapters([]string{"wgpu-gl:llvmpipe"}, before, &w), "the campaign ran on wgpu-vulkan:llvmpipe, this machine gives wgpu-gl:llvmpipe")
}
