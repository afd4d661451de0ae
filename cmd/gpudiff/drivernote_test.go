package main

import (
	"bytes"
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
	assert.Equal(t, []string{"wgpu-vulkan:llvmpipe: llvmpipe 22.3.6 → llvmpipe 23.0.1"}, driverChanges(before, now))
	assert.Nil(t, driverChanges(before, before))
	var w bytes.Buffer
	noteDriverChange(&w, before, now)
	assert.Contains(t, w.String(), "the drivers changed since the campaign began (wgpu-vulkan:llvmpipe: llvmpipe 22.3.6 → llvmpipe 23.0.1)")
	w.Reset()
	noteDriverChange(&w, before, before)
	assert.Empty(t, w.String())
}
