package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// TestMesa25BesideMesa22: `gpudiff adapters` lists Mesa 25's lavapipe and
// llvmpipe GL (driver set mesa25) with Mesa 25's version beside the
// system's Mesa 22 adapters; exec and drivers run on them, and drivers
// records the version each ran on.
func TestMesa25BesideMesa22(t *testing.T) {
	set, err := harness.Mesa25()
	if err != nil {
		t.Fatalf("Mesa 25 is missing: %v", err)
	}
	want25, _, _ := strings.Cut(strings.TrimPrefix(set.Version, "Mesa "), "-")

	code, out, errOut := gpudiff(t, "adapters", "--json")
	require.Equal(t, 0, code, errOut)
	var infos []struct {
		Name          string `json:"name"`
		DriverSet     string `json:"driver_set"`
		DriverVersion string `json:"driver_version"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &infos))
	got := map[string]string{}
	for _, a := range infos {
		got[a.Name] = a.DriverSet + " " + a.DriverVersion
	}
	assert.Equal(t, "mesa25 "+want25, got["wgpu-vulkan:llvmpipe-mesa25"], "%v", got)
	assert.Equal(t, "mesa25 "+want25, got["wgpu-gl:llvmpipe-mesa25"], "%v", got)
	assert.NotEqual(t, " "+want25, got["wgpu-vulkan:llvmpipe"])
	assert.Regexp(t, `^ [0-9]`, got["wgpu-vulkan:llvmpipe"], "the system's lavapipe: no set, a version")

	code, out, errOut = gpudiff(t, "exec", repo("shaders/examples/shade.wgsl"), "--json",
		"--adapter", "wgpu-vulkan:llvmpipe-mesa25", "--adapter", "gl:llvmpipe-mesa25")
	require.Equal(t, 0, code, errOut)
	var res execOut
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	assert.Equal(t, "pass", res.Verdict)
	var ran []string
	for _, r := range res.Runs {
		ran = append(ran, r.Adapter)
	}
	assert.Equal(t, []string{"wgpu-vulkan:llvmpipe-mesa25", "wgpu-gl:llvmpipe-mesa25"}, ran)

	corpus := t.TempDir()
	for _, f := range []string{"shade.wgsl", "shade.inputs.json"} {
		b, err := os.ReadFile(repo("shaders/examples/" + f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(corpus, f), b, 0o644))
	}
	code, out, errOut = gpudiff(t, "drivers", "--corpus", corpus,
		"--adapter", "wgpu-vulkan:llvmpipe", "--adapter", "wgpu-vulkan:llvmpipe-mesa25")
	require.Equal(t, 0, code, errOut+out)
	assert.Regexp(t, `wgpu-vulkan:llvmpipe [^,]* on llvmpipe 22\.`, out)
	assert.Contains(t, out, "wgpu-vulkan:llvmpipe-mesa25 ")
	assert.Regexp(t, `wgpu-vulkan:llvmpipe-mesa25 [^,]* on llvmpipe `+strings.ReplaceAll(want25, ".", `\.`), out)
}
