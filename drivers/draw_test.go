package drivers

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/harness/devices"
)

// A corpus of draws: a module with a vertex stage and two fragment entry
// points is one case per fragment entry point (NAME.ENTRY, each drawn
// after the vertex stage it fits), on wgpu's lavapipe and Deno's
// lavapipe; the triangle's pixel (8, 8) is inside (its centre lies far from
// the edges of (−0.5, −0.5), (0.5, −0.5), (0, 0.5): framebuffer (4, 12),
// (12, 12), (8, 4)) and holds the fragment's constant, pixel (0, 0) the
// clear value.
func TestDrawCorpus(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tri.wgsl"), []byte(`@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  var pos = array<vec2f, 3>(vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(0.0, 0.5));
  return vec4f(pos[i], 0.0, 1.0);
}
@fragment fn fs_a() -> @location(0) u32 { return 5u; }
@fragment fn fs_b() -> @location(0) u32 { return 9u; }
`), 0o644))
	cases, err := LoadCorpus(dir)
	require.NoError(t, err)
	require.Len(t, cases, 2)
	assert.Equal(t, "tri.fs_a", cases[0].Name)
	assert.Equal(t, "tri.fs_b", cases[1].Name)
	set, err := devices.Open([]string{"wgpu-vulkan:llvmpipe", "deno-vulkan:llvmpipe"}, devices.Options{})
	require.NoError(t, err, "the CPU adapters are needed (make deps)")
	defer set.Close()
	devs := make([]check.Device, len(set))
	for i, d := range set {
		devs[i] = d
	}
	rep := Run(context.Background(), cases, devs, Options{Tool: "test"})
	require.Len(t, rep.Cases, 2)
	for i, cr := range rep.Cases {
		require.Empty(t, cr.Error, cr.Name)
		assert.JSONEq(t, []string{"5", "9"}[i], string(cr.Reference[8*16+8]), "%s: pixel (8, 8)", cr.Name)
		assert.JSONEq(t, "0", string(cr.Reference[0]), "%s: pixel (0, 0)", cr.Name)
		for _, c := range cr.Cells {
			assert.Equal(t, Agrees, c.Text, "%s on %s", cr.Name, c.Adapter)
		}
	}
}
