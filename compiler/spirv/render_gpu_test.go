package spirv

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
)

// drawSrc is the render pipeline TestRenderDraws draws, both stages as
// gpudiff's SPIR-V.
const drawSrc = `
struct V {
  @builtin(position) pos: vec4f,
  @location(0) @interpolate(flat) id: vec2u,
  @location(1) @interpolate(flat) tag: u32,
  @location(2) @interpolate(linear) lin: f32,
  @location(3) pers: vec2f,
}

@vertex
fn vs(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32, @location(0) xy: vec2f, @location(1) tag: u32) -> V {
  return V(vec4f(xy, 0.5, 1.0), vec2u(vi, ii), tag, 0.25, vec2f(0.5, 0.75));
}

struct F {
  @location(0) @interpolate(flat) id: vec2u,
  @builtin(front_facing) front: bool,
}

@fragment
fn fs(@builtin(position) p: vec4f, f: F, @location(1) @interpolate(flat) tag: u32, @location(2) @interpolate(linear) lin: f32,
      @location(3) pers: vec2f) -> @location(0) vec4u {
  let x = u32(p.x);
  let y = u32(p.y);
  if ((x + y) % 3u == 1u) {
    discard;
  }
  let interpolated = 10u * u32(4.0 * lin + 0.5) + 1000u * u32(4.0 * pers.x + 0.5) + 10000u * u32(4.0 * pers.y + 0.5);
  return vec4u(f.id.x * 1000u + f.id.y, tag + interpolated, select(0u, 1u, f.front), y * 8u + x);
}
`

// drawSize is TestRenderDraws' target: drawSize × drawSize pixels.
const drawSize = 8

// TestRenderDraws draws drawSrc with both stages emitted by gpudiff (the
// fragment stage under DiscardKill: wgpu's SPIR-V front end refuses the
// demote capability, NagaGap), and with either stage beside the other's
// WGSL (compiler/wgsl.EmitStage), on every CPU adapter that takes SPIR-V,
// and checks each texel of the rgba32uint target against a picture
// derived by hand.
//
// Geometry (WebGPU #coordinate-systems: framebuffer (fx, fy), y down, is
// NDC (2fx/8 − 1, 1 − 2fy/8)): the triangle A = (¼, ¼), C = (¼, 6¼),
// B = (6¼, ¼) in framebuffer pixels covers the pixel centres (x + ½, y +
// ½) with x + y ≤ 5, each at least ½/√2 px from an edge; in NDC (y up)
// A → C → B runs counter-clockwise, front-facing under frontFace "ccw".
// It is vertices 5, 6, 7 of an 8-vertex buffer, drawn with firstVertex 5
// and firstInstance 2 (one instance), and an instance-step buffer tags
// instances 0, 1, 2 with 100, 200, 300.
//
// A covered pixel that does not discard ((x + y) % 3 ≠ 1) is (v·1000 + 2,
// 32310, front, 8y + x): vertex_index v and instance_index 2 of the flat
// varying's provoking vertex; the instance's tag 300 plus 10·1 + 1000·2 +
// 10000·3 from a linear varying 0.25 and a perspective one (0.5, 0.75),
// the same at every vertex, so any interpolation rounds back to 4× them
// (WGSL #interpolation gives no accuracy; these are within ½ of an
// integer after ×4 for any weights within 10% of a partition of unity);
// front_facing 1 under
// "ccw" and 0 under "cw". The varying is flat (sampling first: WGSL
// #interpolation, the first vertex, v = 5; wgpu 0.19.4's WGSL front end
// does not parse flat, either): on Vulkan v is 5, the provoking vertex
// being the first (Vulkan §28.11 "Flat Shading", without
// VK_EXT_provoking_vertex). wgpu's GL backend takes the last, v = 7 (GL's
// default convention; GLES has no glProvokingVertex, which is why
// WebGPU's compatibility mode allows only flat, either): the stack's
// deviation, whichever language the stages are in, accepted there.
// Every other pixel keeps the clear value (7, 7, 7, 7): discarded ones
// wrote nothing. Culling "back" under "cw" removes the triangle: all
// clear.
func TestRenderDraws(t *testing.T) {
	kernelsOf := func(src string) map[string]harness.Kernel {
		m := parseRender(t, src)
		vs := emitValid(t, m, "vs", DefaultOptions())
		fs := emitValid(t, m, "fs", Options{Mode: Portable, Discard: DiscardKill})
		require.Empty(t, NagaGap(vs))
		require.Empty(t, NagaGap(fs))
		vsWGSL, err := wgsl.EmitStage(m, "vs", wgsl.EmitOptions{})
		require.NoError(t, err)
		fsWGSL, err := wgsl.EmitStage(m, "fs", wgsl.EmitOptions{})
		require.NoError(t, err)
		// Each stage in gpudiff's SPIR-V, and each beside the other
		// stage in WGSL: the adapter then matches a SPIR-V interface
		// with a WGSL one (wgpu compares the two stages'
		// interpolations).
		return map[string]harness.Kernel{
			"spirv":            {SPIRV: fs, EntryPoint: "fs", Stage: harness.FragmentStage, VertexSPIRV: vs, VertexEntryPoint: "vs"},
			"wgsl-vs/spirv-fs": {SPIRV: fs, EntryPoint: "fs", Stage: harness.FragmentStage, VertexWGSL: vsWGSL, VertexEntryPoint: "vs"},
			"spirv-vs/wgsl-fs": {WGSL: fsWGSL, EntryPoint: "fs", Stage: harness.FragmentStage, VertexSPIRV: vs, VertexEntryPoint: "vs"},
		}
	}
	linear := kernelsOf(drawSrc)
	// The variant without @interpolate(linear) (perspective, by default:
	// not written, since wgpu 0.19.4's WGSL front end leaves the sampling
	// of an explicit @interpolate(perspective) unset where its SPIR-V
	// front end, like WGSL, says center, and then refuses the mixed
	// pipelines: "Input sampling doesn't match provided Some(Center)").
	perspective := kernelsOf(strings.ReplaceAll(drawSrc, "@interpolate(linear) ", ""))
	// noLinear names the adapters that refuse a linear varying, with the
	// reason; they draw the perspective variant (the same picture: the
	// varying is the same at every vertex), and the test asserts that the
	// linear one is still refused there (a fixed stack fails it, so the
	// entry goes).
	noLinear := map[string]string{
		"wgpu-gl:llvmpipe": "NOPERSPECTIVE_QUALIFIER", // wgpu 0.19.4's GL backend: "The selected version doesn't support Features(NOPERSPECTIVE_QUALIFIER)"
	}

	ndc := func(fx, fy float32) []float32 { return []float32{2*fx/drawSize - 1, 1 - 2*fy/drawSize} }
	var pos []float32
	for i := 0; i < 5; i++ {
		pos = append(pos, 9, 9) // vertices 0-4: never drawn
	}
	pos = append(pos, ndc(0.25, 0.25)...)
	pos = append(pos, ndc(0.25, 6.25)...)
	pos = append(pos, ndc(6.25, 0.25)...)
	tags := leU32(100, 200, 300)
	draw := func(front, cull string) *harness.Draw {
		return &harness.Draw{
			VertexBuffers: []harness.VertexBuffer{
				{Data: leF32(pos...), Stride: 8, Attributes: []harness.VertexAttribute{{Format: "float32x2", ShaderLocation: 0}}},
				{Data: tags, Stride: 4, StepMode: "instance", Attributes: []harness.VertexAttribute{{Format: "uint32", ShaderLocation: 1}}},
			},
			Count: 3, InstanceCount: 1, FirstVertex: 5, FirstInstance: 2,
			FrontFace: front, CullMode: cull,
			Clear: [][4]float64{{7, 7, 7, 7}},
		}
	}
	picture := func(provoking, front uint32, drawn bool) [][4]uint32 {
		p := make([][4]uint32, drawSize*drawSize)
		for y := 0; y < drawSize; y++ {
			for x := 0; x < drawSize; x++ {
				v := [4]uint32{7, 7, 7, 7}
				if drawn && x+y <= 5 && (x+y)%3 != 1 {
					v = [4]uint32{provoking*1000 + 2, 32310, front, uint32(8*y + x)}
				}
				p[y*drawSize+x] = v
			}
		}
		return p
	}
	cases := []struct {
		name, front, cull string
		front1, drawn     bool
	}{
		{"ccw", "ccw", "none", true, true},
		{"cw", "cw", "none", false, true},
		{"cw-cull-back", "cw", "back", false, false},
	}
	provoking := map[string][]uint32{ // the vertices each adapter may take as the provoking one
		"wgpu-vulkan:llvmpipe": {5}, "wgpu-vulkan:swiftshader": {5}, "wgpu-gl:llvmpipe": {5, 7},
	}
	for _, name := range []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader", "wgpu-gl:llvmpipe"} {
		t.Run(name, func(t *testing.T) {
			d, err := harness.Open(name)
			require.NoError(t, err, "install the CPU adapters (make deps)")
			defer d.Close()
			kernels := linear
			if reason, ok := noLinear[name]; ok {
				_, err := d.Run(context.Background(), linear["spirv"], harness.Dispatch{
					Target: [2]uint32{drawSize, drawSize}, Attachments: []harness.AttachmentFormat{harness.RGBA32Uint},
					Entry: true, Draw: draw("ccw", "none"),
				})
				require.Error(t, err, "%s takes a linear varying now: drop it from noLinear", name)
				assert.Contains(t, err.Error(), reason)
				kernels = perspective
			}
			for kname, k := range kernels {
				for _, c := range cases {
					out, err := d.Run(context.Background(), k, harness.Dispatch{
						Target: [2]uint32{drawSize, drawSize}, Attachments: []harness.AttachmentFormat{harness.RGBA32Uint},
						Entry: true, Draw: draw(c.front, c.cull),
					})
					require.NoError(t, err, "%s %s", kname, c.name)
					require.Len(t, out, 16*drawSize*drawSize, c.name)
					got := make([][4]uint32, drawSize*drawSize)
					for i := range got {
						for j := 0; j < 4; j++ {
							got[i][j] = binary.LittleEndian.Uint32(out[16*i+4*j:])
						}
					}
					front := uint32(0)
					if c.front1 {
						front = 1
					}
					want := picture(provoking[name][0], front, c.drawn)
					for _, v := range provoking[name][1:] {
						if got[0][0] == v*1000+2 { // pixel (0, 0) is covered and kept
							want = picture(v, front, c.drawn)
						}
					}
					assert.Equal(t, want, got, "%s %s: want\n%sgot\n%s", kname, c.name, drawPicture(want), drawPicture(got))
				}
			}
		})
	}
}

func leU32(ws ...uint32) []byte {
	var b []byte
	for _, w := range ws {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

func leF32(fs ...float32) []byte {
	var b []byte
	for _, f := range fs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return b
}

// drawPicture prints a picture's first two channels, a row a line.
func drawPicture(p [][4]uint32) string {
	var b strings.Builder
	for y := 0; y < drawSize; y++ {
		for x := 0; x < drawSize; x++ {
			v := p[y*drawSize+x]
			fmt.Fprintf(&b, " %4d/%d/%d", v[0], v[1], v[2])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestWgpuRefusesDemote: NagaGap's demote gap is still there — wgpu
// refuses the fragment module drawSrc emits under DiscardDemote (its
// SPIR-V front end does not take the DemoteToHelperInvocation
// capability) while it draws the DiscardKill one (TestRenderDraws). An
// upgrade that takes it fails this test: then the gap goes.
func TestWgpuRefusesDemote(t *testing.T) {
	m := parseRender(t, drawSrc)
	vs := emitValid(t, m, "vs", DefaultOptions())
	fs := emitValid(t, m, "fs", DefaultOptions())
	require.NotEmpty(t, NagaGap(fs))
	d, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err, "install the CPU adapters (make deps)")
	defer d.Close()
	_, err = d.Run(context.Background(),
		harness.Kernel{SPIRV: fs, EntryPoint: "fs", Stage: harness.FragmentStage, VertexSPIRV: vs, VertexEntryPoint: "vs"},
		harness.Dispatch{Target: [2]uint32{drawSize, drawSize}, Attachments: []harness.AttachmentFormat{harness.RGBA32Uint}, Entry: true,
			Draw: &harness.Draw{VertexBuffers: []harness.VertexBuffer{
				{Data: leF32(0, 0, 1, 0, 0, 1), Stride: 8, Attributes: []harness.VertexAttribute{{Format: "float32x2", ShaderLocation: 0}}},
				{Data: leU32(1), Stride: 4, StepMode: "instance", Attributes: []harness.VertexAttribute{{Format: "uint32", ShaderLocation: 1}}},
			}, Count: 3}})
	var ce *harness.CompileError
	require.ErrorAs(t, err, &ce, "wgpu takes OpDemoteToHelperInvocation now: drop NagaGap's demote gap")
	assert.Contains(t, err.Error(), "DemoteToHelperInvocation")
}
