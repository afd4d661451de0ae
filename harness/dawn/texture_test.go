package dawn

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// textureWGSL reads an rgba8unorm texture back to bytes (c/255*255
// rounds to c on any conforming stack), samples an r32float ramp with a
// nearest, repeating sampler at texel centres, and stores to an rgba8uint
// storage texture 3 texels wide (12-byte rows, padded to 256 on the
// device).
const textureWGSL = `
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var dst0: texture_storage_2d<rgba8uint, write>;
@group(1) @binding(0) var ramp: texture_2d<f32>;
@group(1) @binding(1) var samp: sampler;

@compute @workgroup_size(3, 2)
fn main(@builtin(local_invocation_id) id: vec3u) {
  let c = vec4u(textureLoad(src, id.xy, 0) * 255.0 + 0.5);
  out[id.y * 3u + id.x] = c.x | (c.y << 8u) | (c.z << 16u) | (c.w << 24u);
  let s = textureSampleLevel(ramp, samp, vec2f((f32(id.x) + 4.5) / 4.0, 0.5), 0.0).x;
  textureStore(dst0, id.xy, vec4u(id.x, id.y, u32(s), 200u + id.x));
}
`

func textureJob() harness.Dispatch {
	src := []byte{
		0, 1, 2, 3, 10, 20, 30, 40, 255, 254, 253, 252,
		128, 127, 129, 64, 5, 6, 7, 8, 90, 91, 92, 93,
	}
	ramp := append(append(append(le(0x41200000), le(0x41a00000)...), le(0x41f00000)...), le(0x42200000)...) // 10, 20, 30, 40
	return harness.Dispatch{
		Buffers: []harness.BufferBinding{{Group: 0, Binding: 1, Kind: harness.BindingStorage, Data: make([]byte, 24)}},
		Textures: []harness.TextureBinding{
			{Group: 0, Binding: 0, Kind: harness.TextureSampled, View: "2d", Format: "rgba8unorm", Width: 3, Height: 2, MipLevels: 2, Data: [][]byte{src}},
			{Group: 0, Binding: 2, Kind: harness.TextureStorage, View: "2d", Format: "rgba8uint", Access: "write-only", Width: 3, Height: 2},
			{Group: 1, Binding: 0, Kind: harness.TextureSampled, View: "2d", Format: "r32float", Width: 4, Height: 1, Data: [][]byte{ramp}},
		},
		Samplers:   []harness.SamplerBinding{{Group: 1, Binding: 1, AddressModeU: "repeat", AddressModeV: "repeat"}},
		Workgroups: [3]uint32{1, 1, 1},
	}
}

// TestRunTextures: textures, samplers and the storage texture readback on
// Dawn give the hand-derived bytes, and exactly what wgpu's harness gives
// on lavapipe.
func TestRunTextures(t *testing.T) {
	k := harness.Kernel{WGSL: textureWGSL, EntryPoint: "main"}
	job := textureJob()
	want := append(append([]byte{}, job.Textures[0].Data[0]...),
		0, 0, 10, 200, 1, 0, 20, 201, 2, 0, 30, 202, 0, 1, 10, 200, 1, 1, 20, 201, 2, 1, 30, 202)
	lavapipe, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	defer lavapipe.Close()
	wgpuOut, err := lavapipe.Run(t.Context(), k, job)
	require.NoError(t, err)
	assert.Equal(t, want, wgpuOut, "lavapipe (wgpu)")
	for _, name := range runAdapters {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			out, err := d.Run(t.Context(), k, textureJob())
			require.NoError(t, err)
			assert.Equal(t, want, out, "hand-derived")
		})
	}
}

// renderUploadWGSL reads a depth32float 2d-array (2 layers, 2 levels)
// and every sample of a multisampled rgba8uint texture: the textures only
// a render pass can write (harness/render_upload.go; worker.mjs).
const renderUploadWGSL = `
@group(0) @binding(0) var d: texture_depth_2d_array;
@group(0) @binding(1) var ms: texture_multisampled_2d<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32, 14>;

@compute @workgroup_size(1)
fn main() {
  for (var i = 0; i < 4; i++) {
    out[i] = bitcast<u32>(textureLoad(d, vec2i(i % 2, 0), i / 2, 0));
    let s = textureLoad(ms, vec2i(0, 0), i);
    out[4 + i] = s.x | (s.y << 8u) | (s.z << 16u) | (s.w << 24u);
  }
  out[8] = bitcast<u32>(textureLoad(d, vec2i(0, 0), 0, 1));
  out[9] = bitcast<u32>(textureLoad(d, vec2i(0, 0), 1, 1));
  for (var i = 0; i < 4; i++) {
    let s = textureLoad(ms, vec2i(1, 0), i);
    out[10 + i] = s.x | (s.y << 8u) | (s.z << 16u) | (s.w << 24u);
  }
}
`

// TestRunRenderUploadedTextures: a depth32float texture's texels (level 0
// layers 0 and 1: 0.25, 0.5 | 0.75, 1; level 1: 0.125 | 0.0625) come
// back as the same f32 bits, and sample s of the 2×1 multisampled
// rgba8uint texture's texel x is the bytes the job gives at (x·4 + s)·4,
// on wgpu (lavapipe) and Dawn (SwiftShader): every sample and
// subresource is where textureLoad looks for it. (Dawn's GL backends
// refuse textureLoad of a depth texture in compatibility mode.)
func TestRunRenderUploadedTextures(t *testing.T) {
	k := harness.Kernel{WGSL: renderUploadWGSL, EntryPoint: "main"}
	f := func(x float32) uint32 { return math.Float32bits(x) }
	depth := [][]byte{le(f(0.25), f(0.5), f(0.75), f(1)), le(f(0.125), f(0.0625))}
	var ms []byte
	for i := 0; i < 8; i++ {
		ms = append(ms, byte(4*i), byte(4*i+1), byte(4*i+2), byte(4*i+3))
	}
	job := harness.Dispatch{
		Buffers: []harness.BufferBinding{{Group: 0, Binding: 2, Kind: harness.BindingStorage, Data: make([]byte, 56)}},
		Textures: []harness.TextureBinding{
			{Group: 0, Binding: 0, Kind: harness.TextureSampled, View: "2d-array", Format: "depth32float", Width: 2, Height: 1, DepthOrLayers: 2, MipLevels: 2, Data: depth},
			{Group: 0, Binding: 1, Kind: harness.TextureSampled, View: "2d", Format: "rgba8uint", Width: 2, Height: 1, SampleCount: 4, Data: [][]byte{ms}},
		},
		Workgroups: [3]uint32{1, 1, 1},
	}
	var want []byte
	want = append(want, depth[0]...)
	want = append(want, ms[:16]...)                 // texel 0's samples
	want = append(want, le(f(0.125), f(0.0625))...) // level 1, layers 0 and 1
	want = append(want, ms[16:]...)                 // texel 1's samples
	lavapipe, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	defer lavapipe.Close()
	got, err := lavapipe.Run(t.Context(), k, job)
	require.NoError(t, err)
	assert.Equal(t, want, got, "lavapipe (wgpu)")
	d := openDevice(t, swiftshader)
	got, err = d.Run(t.Context(), k, job)
	require.NoError(t, err)
	assert.Equal(t, want, got, "SwiftShader (Dawn)")
}

// TestBindingsTheAdapterLacksAreUnsupported: what a Dawn device refuses of
// a module's own bindings is a kernel it cannot run (harness.ErrUnsupported:
// the run is skipped, saying why), not a crash: a read_write rgba32sint
// storage texture (WebGPU core allows read_write for r32 formats only) at
// the bind group layout, and a cube array texture on Dawn's GL backend
// (compatibility mode has none) at texture creation. dawn-vulkan runs the
// cube array.
func TestBindingsTheAdapterLacksAreUnsupported(t *testing.T) {
	rw := harness.Kernel{WGSL: `
@group(0) @binding(0) var t: texture_storage_2d<rgba32sint, read_write>;
@compute @workgroup_size(1) fn main() { textureStore(t, vec2i(0), textureLoad(t, vec2i(0)) + 1); }
`, EntryPoint: "main"}
	rwJob := harness.Dispatch{Workgroups: [3]uint32{1, 1, 1}, Textures: []harness.TextureBinding{
		{Kind: harness.TextureStorage, View: "2d", Format: "rgba32sint", Access: "read-write", Width: 1, Height: 1}}}
	_, err := openDevice(t, "dawn-vulkan:swiftshader").Run(context.Background(), rw, rwJob)
	require.ErrorIs(t, err, harness.ErrUnsupported)
	assert.Contains(t, err.Error(), "the module's bindings are not available to the compute stage")

	cube := harness.Kernel{WGSL: `
@group(0) @binding(0) var t: texture_cube_array<f32>;
@group(0) @binding(1) var<storage, read_write> o: array<u32, 1>;
@compute @workgroup_size(1) fn main() { o[0] = textureNumLayers(t); }
`, EntryPoint: "main"}
	cubeJob := harness.Dispatch{Workgroups: [3]uint32{1, 1, 1},
		Buffers:  []harness.BufferBinding{{Group: 0, Binding: 1, Kind: harness.BindingStorage, Data: make([]byte, 4)}},
		Textures: []harness.TextureBinding{{Kind: harness.TextureSampled, View: "cube-array", Format: "rgba8unorm", Width: 2, Height: 2, DepthOrLayers: 12}}}
	_, err = openDevice(t, "dawn-gl:llvmpipe").Run(context.Background(), cube, cubeJob)
	require.ErrorIs(t, err, harness.ErrUnsupported)
	assert.Contains(t, err.Error(), "the adapter cannot create the module's textures")
	out, err := openDevice(t, "dawn-vulkan:swiftshader").Run(context.Background(), cube, cubeJob)
	require.NoError(t, err)
	assert.Equal(t, le(2), out, "12 layers are 2 cubes")
}

// TestOneLayerStorageArray: a texture_storage_2d_array of one layer is
// bound as a 2d-array view on every adapter — in compatibility mode (Dawn's
// GL backends) too, where a texture created without
// textureBindingViewDimension '2d-array' would take only a '2d' view and
// the bind group would fail: the harness's own error, not the stack's (a
// campaign of the textures profile met it as "crashes" on dawn-gl). The
// shader writes (x + 1) · 10 + y at each texel of a 2×2 layer.
func TestOneLayerStorageArray(t *testing.T) {
	k := harness.Kernel{WGSL: `
@group(0) @binding(0) var dst: texture_storage_2d_array<r32uint, write>;
@compute @workgroup_size(2, 2)
fn main(@builtin(local_invocation_id) id: vec3u) {
  textureStore(dst, id.xy, 0, vec4u((id.x + 1u) * 10u + id.y, 0u, 0u, 1u));
}
`, EntryPoint: "main"}
	job := harness.Dispatch{Workgroups: [3]uint32{1, 1, 1}, Textures: []harness.TextureBinding{
		{Kind: harness.TextureStorage, View: "2d-array", Format: "r32uint", Access: "write-only", Width: 2, Height: 2, DepthOrLayers: 1}}}
	for _, name := range runAdapters {
		t.Run(name, func(t *testing.T) {
			out, err := openDevice(t, name).Run(context.Background(), k, job)
			require.NoError(t, err)
			assert.Equal(t, []uint32{10, 20, 11, 21}, words(out), "row by row: (0,0) (1,0) (0,1) (1,1)")
		})
	}
}
