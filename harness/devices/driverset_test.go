package devices

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// TestOpenMesa25Adapters: the selectors every command passes reach Mesa
// 25's adapters (by name, by alias, in "wgpu"), each a worker that runs the
// kernel on Mesa 25 (its Info's driver read where it ran), beside the
// system's same-named adapters on Mesa 22; with no selector the default is
// still the system's lavapipe.
func TestOpenMesa25Adapters(t *testing.T) {
	set, err := harness.Mesa25()
	if err != nil {
		t.Fatalf("Mesa 25 is missing: %v", err)
	}
	want25, _, _ := strings.Cut(strings.TrimPrefix(set.Version, "Mesa "), "-")
	devs, err := Open([]string{"wgpu-vulkan:llvmpipe", "vulkan:llvmpipe-mesa25", "wgpu-gl:llvmpipe-mesa25", "gl:llvmpipe"}, Options{})
	require.NoError(t, err)
	defer devs.Close()
	var got []string
	for _, d := range devs {
		info := d.Info()
		got = append(got, info.Name)
		out, err := d.Run(t.Context(), harness.Kernel{WGSL: `
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	if (gid.x < arrayLength(&outp)) { outp[gid.x] = inp[gid.x] * 3u + 1u; }
}`, EntryPoint: "main"}, harness.Dispatch{Input: []byte{5, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, OutputSize: 8, Invocations: 2})
		require.NoError(t, err, info.Name)
		assert.Equal(t, []uint32{16, 0xfffffffe}, []uint32{binary.LittleEndian.Uint32(out), binary.LittleEndian.Uint32(out[4:])}, info.Name)
		if strings.HasSuffix(info.Name, "-mesa25") {
			assert.Equal(t, "mesa25", info.DriverSet, info.Name)
			assert.Equal(t, want25, info.DriverVersion, info.Name)
		} else {
			assert.Empty(t, info.DriverSet, info.Name)
			assert.NotEqual(t, want25, info.DriverVersion, info.Name)
			assert.NotEmpty(t, info.DriverVersion, info.Name)
		}
	}
	assert.Equal(t, []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:llvmpipe-mesa25", "wgpu-gl:llvmpipe", "wgpu-gl:llvmpipe-mesa25"}, got)

	all, err := harness.AllAdapters()
	require.NoError(t, err)
	wgpu, err := harness.Select(all, []string{"wgpu"})
	require.NoError(t, err)
	var names []string
	for _, a := range wgpu {
		names = append(names, a.Name)
	}
	assert.Contains(t, names, "wgpu-vulkan:llvmpipe-mesa25")
	assert.Contains(t, names, "wgpu-gl:llvmpipe-mesa25")

	def, err := Open(nil, Options{})
	require.NoError(t, err)
	defer def.Close()
	if def[0].Info().Type == "cpu" {
		assert.Equal(t, "wgpu-vulkan:llvmpipe", def[0].Info().Name)
	}
}
