package worker

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// TestRunTexturesThroughWorker: textures, samplers and the storage
// texture readback cross the worker protocol (they travel in
// harness.Dispatch). Hand-derived: texel (x, y) of the rgba8uint storage
// texture is (x, y, src texel's red byte, 9).
func TestRunTexturesThroughWorker(t *testing.T) {
	d := startDevice(t, lavapipe, Options{})
	k := harness.Kernel{EntryPoint: "main", Label: "tex/wgsl", WGSL: `
@group(0) @binding(0) var src: texture_2d<u32>;
@group(0) @binding(1) var dst: texture_storage_2d<rgba8uint, write>;
@group(0) @binding(2) var s: sampler;
@compute @workgroup_size(2, 2)
fn main(@builtin(local_invocation_id) id: vec3u) {
  textureStore(dst, id.xy, vec4u(id.x, id.y, textureLoad(src, id.xy, 0).x, 9u));
}`}
	job := harness.Dispatch{
		Textures: []harness.TextureBinding{
			{Binding: 0, Kind: harness.TextureSampled, View: "2d", Format: "r8uint", Width: 2, Height: 2, Data: [][]byte{{11, 12, 13, 14}}},
			{Binding: 1, Kind: harness.TextureStorage, View: "2d", Format: "rgba8uint", Access: "write-only", Width: 2, Height: 2},
		},
		Samplers:   []harness.SamplerBinding{{Binding: 2}},
		Workgroups: [3]uint32{1, 1, 1},
	}
	out, err := d.Run(context.Background(), k, job)
	require.NoError(t, err)
	assert.Equal(t, []byte{0, 0, 11, 9, 1, 0, 12, 9, 0, 1, 13, 9, 1, 1, 14, 9}, out)
}
