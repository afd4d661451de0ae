package main

import (
	"testing"
)

func TestPickAdapters(t *testing.T) {
	all := []adapter{
		{Name: "wgpu-vulkan:nvidia-h100", Implementation: "wgpu", Type: "discrete-gpu"},
		{Name: "wgpu-vulkan:llvmpipe", Implementation: "wgpu", Type: "cpu"},
		{Name: "dawn-vulkan:nvidia-h100", Implementation: "dawn", Type: "unknown"},
		{Name: "wgpu-gl:nvidia-h100", Implementation: "wgpu", Type: "integrated-gpu"},
	}
	names := func(as []adapter) (s []string) {
		for _, a := range as {
			s = append(s, a.Name)
		}
		return s
	}
	got, vendor := pickAdapters(all, "", "wgpu-vulkan:llvmpipe")
	if !vendor || len(got) != 2 || got[0].Name != "wgpu-vulkan:nvidia-h100" || got[1].Name != "wgpu-gl:nvidia-h100" {
		t.Errorf("vendor pick = %v, %v", names(got), vendor)
	}
	got, vendor = pickAdapters(all[1:2], "", "wgpu-vulkan:llvmpipe")
	if vendor || len(got) != 1 || got[0].Name != "wgpu-vulkan:llvmpipe" {
		t.Errorf("fallback pick = %v, %v", names(got), vendor)
	}
	got, vendor = pickAdapters(all, "wgpu-vulkan:llvmpipe, dawn-vulkan:nvidia-h100", "")
	if !vendor || len(got) != 2 || got[1].Name != "dawn-vulkan:nvidia-h100" {
		t.Errorf("listed pick = %v, %v", names(got), vendor)
	}
}
