package harness

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// textureWGSL loads an rgba8unorm texture (texel by texel, back to bytes:
// c/255*255 rounds back to c on any conforming stack), samples an
// r32float texture with a nearest, repeating sampler, and stores to two
// levels of an rgba8uint storage texture.
const textureWGSL = `
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var dst0: texture_storage_2d<rgba8uint, write>;
@group(1) @binding(0) var ramp: texture_2d<f32>;
@group(1) @binding(1) var samp: sampler;
@group(1) @binding(2) var dst1: texture_storage_2d<r32uint, write>;

@compute @workgroup_size(3, 2)
fn main(@builtin(local_invocation_id) id: vec3u) {
  let c = vec4u(textureLoad(src, id.xy, 0) * 255.0 + 0.5);
  out[id.y * 3u + id.x] = c.x | (c.y << 8u) | (c.z << 16u) | (c.w << 24u);
  textureStore(dst0, id.xy, vec4u(id.x, id.y, 7u, 200u + id.x));
  // x = (id.x + 4) + 0.5 texels of a 4-texel ramp: repeat wraps to id.x.
  let s = textureSampleLevel(ramp, samp, vec2f((f32(id.x) + 4.5) / 4.0, 0.5), 0.0).x;
  textureStore(dst1, id.xy, vec4u(u32(s)));
  out[6u + id.y * 3u + id.x] = textureDimensions(dst0).x * 10u + textureNumLevels(src);
}
`

func TestRunTextures(t *testing.T) {
	src := []byte{
		0, 1, 2, 3, 10, 20, 30, 40, 255, 254, 253, 252,
		128, 127, 129, 64, 5, 6, 7, 8, 90, 91, 92, 93,
	}
	ramp := append(append(append(le(0x41200000), le(0x41a00000)...), le(0x41f00000)...), le(0x42200000)...) // 10, 20, 30, 40 as f32
	for _, name := range []string{lavapipe, swiftshader} {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			job := Dispatch{
				Buffers: []BufferBinding{{Group: 0, Binding: 1, Kind: BindingStorage, Data: make([]byte, 48)}},
				Textures: []TextureBinding{
					{Group: 0, Binding: 0, Kind: TextureSampled, View: "2d", Format: "rgba8unorm", Width: 3, Height: 2, MipLevels: 2, Data: [][]byte{src}},
					{Group: 0, Binding: 2, Kind: TextureStorage, View: "2d", Format: "rgba8uint", Access: "write-only", Width: 3, Height: 2},
					{Group: 1, Binding: 0, Kind: TextureSampled, View: "2d", Format: "r32float", Width: 4, Height: 1, Data: [][]byte{ramp}},
					{Group: 1, Binding: 2, Kind: TextureStorage, View: "2d", Format: "r32uint", Access: "write-only", Width: 3, Height: 2, Data: [][]byte{le(9, 9, 9, 9, 9, 9)}},
				},
				Samplers:   []SamplerBinding{{Group: 1, Binding: 1, AddressModeU: "repeat", AddressModeV: "repeat"}},
				Workgroups: [3]uint32{1, 1, 1},
			}
			out, err := d.Run(context.Background(), Kernel{WGSL: textureWGSL, EntryPoint: "main"}, job)
			require.NoError(t, err)
			require.Len(t, out, 48+3*2*4+3*2*4)
			// The loads give the texels' bytes back.
			assert.Equal(t, src, out[:24])
			// textureDimensions(dst0).x * 10 + textureNumLevels(src) = 32.
			assert.Equal(t, []uint32{32, 32, 32, 32, 32, 32}, words(out[24:48]))
			// dst0: texel (x, y) = (x, y, 7, 200 + x), de-padded rows of 12 bytes.
			assert.Equal(t, []byte{0, 0, 7, 200, 1, 0, 7, 201, 2, 0, 7, 202, 0, 1, 7, 200, 1, 1, 7, 201, 2, 1, 7, 202}, out[48:72])
			// dst1: the ramp's texel id.x (10, 20, 30), sampled at its centre.
			assert.Equal(t, []uint32{10, 20, 30, 10, 20, 30}, words(out[72:]))
		})
	}
}

func TestRunTexturesRejectsInvalid(t *testing.T) {
	d := openDevice(t, lavapipe)
	k := Kernel{WGSL: textureWGSL, EntryPoint: "main"}
	for _, tc := range []struct {
		name string
		job  Dispatch
		want string
	}{
		{"unknown format", Dispatch{Workgroups: [3]uint32{1, 1, 1}, Textures: []TextureBinding{{Kind: TextureSampled, View: "2d", Format: "depth24plus"}}}, "format \"depth24plus\" is not one the harness uploads"},
		{"two samples", Dispatch{Workgroups: [3]uint32{1, 1, 1}, Textures: []TextureBinding{{Kind: TextureSampled, View: "2d", Format: "rgba8unorm", SampleCount: 2}}}, "sampleCount 2: a multisampled texture is a sampled 2d texture of 4 samples"},
		{"depth as storage", Dispatch{Workgroups: [3]uint32{1, 1, 1}, Textures: []TextureBinding{{Kind: TextureStorage, Access: "write-only", View: "2d", Format: "depth32float"}}}, "a depth32float texture binds as a single-sampled depth texture"},
		{"duplicate binding", Dispatch{Workgroups: [3]uint32{1, 1, 1}, Buffers: []BufferBinding{{Kind: BindingStorage, Data: le(0)}}, Samplers: []SamplerBinding{{}}}, "two bindings at @group(0) @binding(0)"},
		{"level too big", Dispatch{Workgroups: [3]uint32{1, 1, 1}, Textures: []TextureBinding{{Kind: TextureSampled, View: "2d", Format: "r8unorm", Width: 2, Data: [][]byte{{1, 2, 3}}}}}, "level 0 data is 3 bytes, more than its 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := d.Run(context.Background(), k, tc.job)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// storageAccessWGSL reads a read-only rgba16sint storage texture (a
// format WebGPU allows read-only access to, but not read-write) and
// increments a read-write r32uint one in place.
const storageAccessWGSL = `
@group(0) @binding(0) var ro: texture_storage_2d<rgba16sint, read>;
@group(0) @binding(1) var rw: texture_storage_2d<r32uint, read_write>;
@group(0) @binding(2) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(2, 1)
fn main(@builtin(local_invocation_id) id: vec3u) {
  let t = textureLoad(ro, id.xy);
  out[id.x] = t.x + t.y + t.z + t.w;
  textureStore(rw, id.xy, textureLoad(rw, id.xy) + vec4u(100u));
}
`

// TestRunReadOnlyAndReadWriteStorageTextures: WebGPU allows read-only
// storage textures of every storage format and read-write ones of r32uint
// (WebGPU §"Storage Texture Formats", WGSL language feature
// readonly_and_readwrite_storage_textures); wgpu-native refuses both
// unless the device has its native TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES,
// which the harness requests (wgpuext.DeviceFeatures). Before it did,
// both adapters refused the bind group layout.
func TestRunReadOnlyAndReadWriteStorageTextures(t *testing.T) {
	// Two rgba16sint texels: (1, 2, 3, 4) and (-5, 6, -7, 100), as
	// little-endian 16-bit pairs.
	ro := le(2<<16|1, 4<<16|3, 6<<16|0xfffb, 100<<16|0xfff9)
	for _, name := range []string{lavapipe, swiftshader} {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			job := Dispatch{
				Buffers: []BufferBinding{{Group: 0, Binding: 2, Kind: BindingStorage, Data: make([]byte, 8)}},
				Textures: []TextureBinding{
					{Group: 0, Binding: 0, Kind: TextureStorage, View: "2d", Format: "rgba16sint", Access: "read-only", Width: 2, Height: 1, Data: [][]byte{ro}},
					{Group: 0, Binding: 1, Kind: TextureStorage, View: "2d", Format: "r32uint", Access: "read-write", Width: 2, Height: 1, Data: [][]byte{le(7, 8)}},
				},
				Workgroups: [3]uint32{1, 1, 1},
			}
			out, err := d.Run(context.Background(), Kernel{WGSL: storageAccessWGSL, EntryPoint: "main"}, job)
			require.NoError(t, err)
			// out: 1+2+3+4 = 10 and -5+6-7+100 = 94; then the writable
			// storage texture's contents (a read-only one is not an
			// output): rw + 100.
			require.Len(t, out, 8+8)
			assert.Equal(t, []uint32{10, 94}, words(out[:8]))
			assert.Equal(t, []uint32{107, 108}, words(out[8:]))
		})
	}
}

// TestStorageFormatAnAdapterLacksIsUnsupported: wgpu's GL backend on
// llvmpipe has neither bgra8unorm-storage nor r8unorm storage (an
// adapter-specific format), so a storage texture of either is a kernel it
// cannot run (ErrUnsupported: the run is skipped), not a crash of the
// stack; lavapipe runs both.
func TestStorageFormatAnAdapterLacksIsUnsupported(t *testing.T) {
	k := Kernel{WGSL: "@compute @workgroup_size(1) fn main() {}", EntryPoint: "main"}
	for _, f := range []string{"bgra8unorm", "r8unorm"} {
		job := Dispatch{Workgroups: [3]uint32{1, 1, 1}, Textures: []TextureBinding{{Kind: TextureStorage, View: "2d", Format: f, Access: "write-only", Width: 1, Height: 1}}}
		_, err := openDevice(t, glLLVMpipe).Run(context.Background(), k, job)
		require.ErrorIs(t, err, ErrUnsupported, f)
		assert.Contains(t, err.Error(), "no "+f+" storage texture (@group(0) @binding(0))")
		_, err = openDevice(t, lavapipe).Run(context.Background(), k, job)
		require.NoError(t, err, f)
	}
}
