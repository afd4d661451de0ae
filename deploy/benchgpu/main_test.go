package main

import (
	"os"
	"path/filepath"
	"slices"
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

// TestReplayAdapters: a case recorded on the H100's wgpu-gl adapter is
// replayed on the wgpu-gl adapter of whatever GPU is here, not on its
// Vulkan ones; one whose stack is absent on all of them.
func TestReplayAdapters(t *testing.T) {
	chosen := []adapter{{Name: "wgpu-vulkan:nvidia-h200"}, {Name: "wgpu-gl:nvidia-h200"}, {Name: "dawn-vulkan:nvidia-h200"}}
	if got := replayAdapters([]string{"wgpu-gl:nvidia-h100-80gb-hbm3-pcie-sse2"}, chosen); len(got) != 1 || got[0] != "wgpu-gl:nvidia-h200" {
		t.Errorf("wgpu-gl case replays on %v", got)
	}
	if got := replayAdapters([]string{"deno-vulkan:llvmpipe"}, chosen); len(got) != 3 {
		t.Errorf("a case of an absent stack replays on %v, want all three", got)
	}
	if got := replayAdapters(nil, chosen[:1]); len(got) != 1 {
		t.Errorf("a case without findings replays on %v", got)
	}
}

// TestCaseFiles: the case directories are walked for .wgsl files only
// (not the README beside them), and a directory that does not exist is
// ignored.
func TestCaseFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"loops/a.wgsl", "loops/b.wgsl", "README.md", "data/c.wgsl"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := caseFiles(dir + " " + filepath.Join(dir, "absent"))
	want := []string{filepath.Join(dir, "data/c.wgsl"), filepath.Join(dir, "loops/a.wgsl"), filepath.Join(dir, "loops/b.wgsl")}
	if !slices.Equal(got, want) {
		t.Errorf("caseFiles = %v, want %v", got, want)
	}
}
