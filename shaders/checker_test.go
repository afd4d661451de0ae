package shaders

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// checkerWGSL samples a mipmapped checker texture with implicit
// derivatives: once magnified or barely minified (0.9 texels a pixel),
// once minified about 3.6 times (λ ≈ 1.85, between levels 1 and 2).
const checkerWGSL = `
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f {
  let uv = p.xy * vec2f(0.056, 0.05) + vec2f(0.013, 0.021);
  let a = textureSample(t, s, uv);
  let b = textureSample(t, s, uv * 4.0);
  return vec4f(a.x, a.y, b.x, b.y);
}
`

// checkerLevels: a 16x16 rgba8unorm texture, 4 levels; level 0 a checker
// of 2x2-texel cells (green 0 or 255), every level's red its own value
// (40, 100, 160, 220) so that the level selection shows.
func checkerLevels() [][]byte {
	var levels [][]byte
	for l, w := 0, 16; w >= 2; l, w = l+1, w/2 {
		b := make([]byte, w*w*4)
		for y := 0; y < w; y++ {
			for x := 0; x < w; x++ {
				i := 4 * (y*w + x)
				b[i] = byte(40 + 60*l)
				if (x/2+y/2)%2 == 0 {
					b[i+1] = 255
				}
				b[i+3] = 255
			}
		}
		levels = append(levels, b)
	}
	return levels
}

// TestCheckerTextureSampleAgreesWithGPUs: a fragment shader sampling a
// mipmapped checker texture with textureSample (implicit derivatives from
// the 2×2 quad), with nearest and with linear filtering: every channel
// lavapipe and SwiftShader render (WGSL and SPIR-V) lies in the
// reference's bounds (interp.RunQuads).
func TestCheckerTextureSampleAgreesWithGPUs(t *testing.T) {
	m, err := wgsl.Parse("checker.wgsl", []byte(checkerWGSL))
	require.NoError(t, err)
	p, err := interp.Compile(m, "main")
	require.NoError(t, err)
	levels := checkerLevels()
	const W, H = 12, 10
	src, err := wgsl.EmitFragment(m, "main", wgsl.EmitOptions{})
	require.NoError(t, err)
	words, err := spirv.Emit(m, "main", spirv.Options{})
	if err != nil {
		t.Logf("SPIR-V: %v (WGSL only)", err)
	}
	for _, filter := range []string{"nearest", "linear"} {
		ref, err := p.RunQuads(func(x, y int) []ir.Value {
			return []ir.Value{ir.CompositeVal(ir.Vec(4, ir.F32), ir.F32Val(float32(x)+0.5), ir.F32Val(float32(y)+0.5), ir.F32Val(0), ir.F32Val(1))}
		}, W, H, interp.Options{
			Textures: map[string]*interp.Texture{"t": {Format: "rgba8unorm", Width: 16, Height: 16, DepthOrLayers: 1, MipLevels: 4, Data: levels}},
			Samplers: map[string]*interp.Sampler{"s": {AddressModeU: "repeat", AddressModeV: "repeat", MagFilter: filter, MinFilter: filter, MipmapFilter: filter}},
		})
		require.NoError(t, err)
		determinate := 0
		for _, inv := range ref {
			require.NoError(t, inv.Err)
			o := inv.Outputs[0]
			ok := true
			for j := range o.Indeterminate {
				ok = ok && !o.Indeterminate[j]
			}
			if ok {
				determinate++
			} else {
				t.Logf("%s: %s", filter, o.Why)
			}
		}
		assert.Equal(t, W*H, determinate, "every pixel has bounds")
		tight := 0
		for _, inv := range ref {
			for _, tol := range inv.Outputs[0].Tolerance {
				if tol < 0.05 {
					tight++
				}
			}
		}
		t.Logf("%s: %d of %d channels bounded within 0.05", filter, tight, 4*W*H)
		assert.Greater(t, tight, 2*W*H, "the bounds are tight enough to see a wrong filter")
		job := harness.Dispatch{Entry: true, Target: [2]uint32{W, H}, Attachments: []harness.AttachmentFormat{harness.RGBA32Float},
			Textures: []harness.TextureBinding{{Group: 0, Binding: 0, Kind: harness.TextureSampled, View: "2d", Format: "rgba8unorm", Width: 16, Height: 16, MipLevels: 4, Data: levels}},
			Samplers: []harness.SamplerBinding{{Group: 0, Binding: 1, AddressModeU: "repeat", AddressModeV: "repeat", MagFilter: filter, MinFilter: filter, MipmapFilter: filter}},
		}
		kernels := []harness.Kernel{{WGSL: src, EntryPoint: "main", Stage: harness.FragmentStage}}
		if words != nil {
			kernels = append(kernels, harness.Kernel{SPIRV: words, EntryPoint: "main", Stage: harness.FragmentStage})
		}
		for _, adapter := range []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader"} {
			t.Run(filter+"/"+adapter, func(t *testing.T) {
				dev, err := harness.Open(adapter)
				require.NoError(t, err)
				defer dev.Close()
				for _, k := range kernels {
					got, err := dev.Run(context.Background(), k, job)
					require.NoError(t, err)
					require.Len(t, got, W*H*16)
					for i, inv := range ref {
						o := inv.Outputs[0]
						for j := 0; j < 4; j++ {
							g := float64(math.Float32frombits(binary.LittleEndian.Uint32(got[16*i+4*j:])))
							w := float64(math.Float32frombits(o.Value.Elems[j].Bits))
							assert.LessOrEqual(t, math.Abs(g-w), o.Tolerance[j], "pixel (%d, %d) leaf %d: GPU %v, reference %v ± %v", i%W, i/W, j, g, w, o.Tolerance[j])
						}
					}
				}
				if filter == "linear" {
					// A stack that filtered with nearest instead: found.
					wrong := job
					wrong.Samplers = []harness.SamplerBinding{{Group: 0, Binding: 1, AddressModeU: "repeat", AddressModeV: "repeat"}}
					got, err := dev.Run(context.Background(), kernels[0], wrong)
					require.NoError(t, err)
					outside := 0
					for i, inv := range ref {
						o := inv.Outputs[0]
						for j := 0; j < 4; j++ {
							g := float64(math.Float32frombits(binary.LittleEndian.Uint32(got[16*i+4*j:])))
							if math.Abs(g-float64(math.Float32frombits(o.Value.Elems[j].Bits))) > o.Tolerance[j] {
								outside++
							}
						}
					}
					t.Logf("nearest render: %d of %d channels outside the linear reference", outside, 4*W*H)
					assert.Greater(t, outside, W*H/4, "a nearest filter is outside the linear reference")
				}
			})
		}
	}
}
