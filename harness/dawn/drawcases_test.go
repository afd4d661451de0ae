package dawn

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// Draws of render pipelines as written, with hand-derived pictures.
//
// Geometry: on a W×H target, framebuffer point (fx, fy) (pixels, y down,
// pixel (x, y)'s centre at (x + ½, y + ½)) is NDC (2·fx/W − 1, 1 − 2·fy/H)
// (WebGPU #coordinate-systems, the viewport covering the target). The
// triangles are corner(ox, oy, n): A = (ox + ¼, oy + ¼), B = A + (n, 0),
// C = A + (0, n). A pixel centre is inside iff x + ½ > ox + ¼, y + ½ > oy +
// ¼ and (x + ½ − ox − ¼) + (y + ½ − oy − ¼) < n, that is x ≥ ox, y ≥ oy and
// (x − ox) + (y − oy) ≤ n − 1; every centre is at least ¼ px from the legs
// and ½/√2 ≈ 0.35 px from the hypotenuse, well past the 1/16 px where
// coverage is implementation-defined (WebGPU #rasterization: no fill rule).
// In NDC (y up) A→B→C runs clockwise (A top left, B to its right, C below
// it: the signed area ½·((B−A)×(C−A)) = ½·(n·(−n)) < 0 in NDC units'
// orientation), so A, B, C is back-facing under frontFace "ccw" and A, C,
// B front-facing.

// drawTarget is the tests' target size.
const drawTarget = 8

// corner returns the framebuffer corners A, B, C of corner(ox, oy, n).
func corner(ox, oy, n float32) [3][2]float32 {
	a := [2]float32{ox + 0.25, oy + 0.25}
	return [3][2]float32{a, {a[0] + n, a[1]}, {a[0], a[1] + n}}
}

// ndc converts framebuffer points on the drawTarget² target to NDC
// float32x2 vertex data (exact: every coordinate is a multiple of 1/16).
func ndc(points ...[2]float32) []byte {
	var b []byte
	for _, p := range points {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(2*p[0]/drawTarget-1))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(1-2*p[1]/drawTarget))
	}
	return b
}

// f32le encodes float32s little-endian.
func f32le(fs ...float32) []byte {
	var b []byte
	for _, f := range fs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return b
}

// picture is an r32uint target's expected texels.
type picture []uint32

func newPicture(clear uint32) picture {
	p := make(picture, drawTarget*drawTarget)
	for i := range p {
		p[i] = clear
	}
	return p
}

// paint sets the pixels corner(ox, oy, n) covers (see above) to v.
func (p picture) paint(ox, oy, n int, v uint32) picture {
	for y := oy; y < drawTarget; y++ {
		for x := ox; x < drawTarget; x++ {
			if (x-ox)+(y-oy) <= n-1 {
				p[y*drawTarget+x] = v
			}
		}
	}
	return p
}

// rect sets the pixels x0 ≤ x ≤ x1, y0 ≤ y ≤ y1 to v.
func (p picture) rect(x0, y0, x1, y1 int, v uint32) picture {
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			p[y*drawTarget+x] = v
		}
	}
	return p
}

func (p picture) String() string {
	var sb strings.Builder
	for y := 0; y < drawTarget; y++ {
		for x := 0; x < drawTarget; x++ {
			fmt.Fprintf(&sb, "%3d", p[y*drawTarget+x])
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// drawVS places @location(0) as the position; drawFS paints 7.
const drawVS = `
@vertex fn vs(@location(0) p: vec2f) -> @builtin(position) vec4f { return vec4f(p, 0.0, 1.0); }
`
const drawFS = `
@fragment fn fs() -> @location(0) u32 { return 7u; }
`

// drawKernel is a kernel whose vertex and fragment stages are in src.
func drawKernel(src string) harness.Kernel {
	return harness.Kernel{WGSL: src, EntryPoint: "fs", Stage: harness.FragmentStage, VertexWGSL: src, VertexEntryPoint: "vs"}
}

// positions is a vertex buffer of float32x2 positions at @location(0).
func positions(data []byte) harness.VertexBuffer {
	return harness.VertexBuffer{Data: data, Stride: 8, Attributes: []harness.VertexAttribute{{Format: "float32x2", ShaderLocation: 0}}}
}

// drawCase is one draw and its picture.
type drawCase struct {
	name  string
	k     harness.Kernel
	job   harness.Dispatch
	want  picture // r32uint texels, or
	wantB []byte  // the attachment's bytes
	// knownBad names adapters whose stack is known to draw c otherwise
	// (or to fail on it), with the reason; there the test asserts that it
	// still does not draw the picture (a fixed stack fails it, so the
	// entry goes).
	knownBad map[string]string
}

func r32(d *harness.Draw) harness.Dispatch {
	return harness.Dispatch{Target: [2]uint32{drawTarget, drawTarget}, Attachments: []harness.AttachmentFormat{harness.R32Uint}, Draw: d}
}

// drawCases are the hand-derived draws every adapter runs: the harness
// package's (harness/draw_test.go), with the known failures of Dawn's and
// Deno's stacks.
func drawCases() []drawCase {
	t := corner(1, 1, 6)
	a, b, c := t[0], t[1], t[2]
	front := ndc(a, c, b) // counter-clockwise in NDC
	back := ndc(a, b, c)
	big := newPicture(5).paint(1, 1, 6, 7) // 21 pixels of 7 on the clear value 5
	clear5 := [][4]float64{{5, 0, 0, 0}}
	tri := func(data []byte, cull, face string) *harness.Draw {
		return &harness.Draw{VertexBuffers: []harness.VertexBuffer{positions(data)}, Count: 3, CullMode: cull, FrontFace: face, Clear: clear5}
	}
	k := drawKernel(drawVS + drawFS)

	// The quad v0..v3 of (1¼, 1¼)–(5¼, 5¼): pixels 1..4 × 1..4; its two
	// triangles share the diagonal v1–v3, fx + fy = 6.5, which no centre
	// (x + y + 1, an integer) is within ½/√2 px of.
	v0, v1, v2, v3 := [2]float32{1.25, 1.25}, [2]float32{5.25, 1.25}, [2]float32{5.25, 5.25}, [2]float32{1.25, 5.25}
	quad := newPicture(0).rect(1, 1, 4, 4, 7)
	junk := ndc([2]float32{-1, -1}, [2]float32{20, -1}, [2]float32{-1, 20}, [2]float32{-1, -1}) // covers every pixel
	u16 := func(is ...uint16) []byte {
		var b []byte
		for _, i := range is {
			b = binary.LittleEndian.AppendUint16(b, i)
		}
		return b
	}
	u32 := func(is ...uint32) []byte { return le(is...) }

	// Instancing: corner(0, 0, 3) moved by the instance-step offset
	// (float32x2, NDC) of instances 1 and 2 — (+4 px, 0) and (0, +4 px) —
	// painting 10 + instance_index; instance 0's offset is never read.
	c0, c5 := corner(0, 0, 3), corner(5, 5, 3)
	small := ndc(c0[0], c0[2], c0[1])
	instVS := `
struct V { @builtin(position) pos: vec4f, @location(0) inst: f32 }
@vertex fn vs(@location(0) p: vec2f, @location(1) off: vec2f, @builtin(instance_index) i: u32) -> V {
  return V(vec4f(p + off, 0.0, 1.0), f32(i));
}
@fragment fn fs(@location(0) inst: f32) -> @location(0) u32 { return 10u + u32(round(inst)); }
`
	uniform := `
struct U { offset: vec2f, value: u32 }
@group(0) @binding(0) var<uniform> u: U;
@vertex fn vs(@location(0) p: vec2f) -> @builtin(position) vec4f { return vec4f(p + u.offset, 0.0, 1.0); }
@fragment fn fs() -> @location(0) u32 { return u.value; }
`
	uniformJob := r32(&harness.Draw{VertexBuffers: []harness.VertexBuffer{positions(small)}, Count: 3})
	// offset (+2 px, +3 px) = NDC (0.5, −0.75); value 42. U's layout: offset
	// at 0, value at 8, size 16 (WGSL #alignment-and-size: align 8).
	uniformJob.Buffers = []harness.BufferBinding{{Group: 0, Binding: 0, Kind: harness.BindingUniform, Data: append(f32le(0.5, -0.75), le(42, 0)...)}}

	// rgba8unorm: a fragment's (0.25, 1/3, 1.5, −0.5) is round-to-nearest
	// of clamp(v, 0, 1)·255: 63.75 → 64, 85.0000017 → 85, 255, 0; the clear
	// value (0.6, 0, 1, 0.2) → 153.0000061 → 153, 0, 255, 51.0000007 → 51.
	unormKernel := drawKernel(drawVS + `
@fragment fn fs() -> @location(0) vec4f { return vec4f(0.25, 1.0 / 3.0, 1.5, -0.5); }
`)
	unormJob := harness.Dispatch{Target: [2]uint32{drawTarget, drawTarget}, Attachments: []harness.AttachmentFormat{harness.RGBA8Unorm},
		Draw: &harness.Draw{VertexBuffers: []harness.VertexBuffer{positions(front)}, Count: 3, Clear: [][4]float64{{0.6, 0, 1, 0.2}}}}
	var unormWant []byte
	for _, v := range newPicture(0).paint(1, 1, 6, 1) {
		if v == 1 {
			unormWant = append(unormWant, 64, 85, 255, 0)
		} else {
			unormWant = append(unormWant, 153, 0, 255, 51)
		}
	}

	// Vertex pulling: the vertex stage reads corner(3, 2, 3)'s positions
	// from a read-only storage buffer by vertex_index, the fragment stage
	// its value (9) from the same buffer, past the positions.
	storageSrc := `
@group(1) @binding(2) var<storage, read> data: array<vec2f>;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f { return vec4f(data[i], 0.0, 1.0); }
@fragment fn fs() -> @location(0) u32 { return bitcast<u32>(data[3].x); }
`
	c3 := corner(3, 2, 3)
	storageJob := r32(&harness.Draw{Count: 3})
	storageJob.Buffers = []harness.BufferBinding{{Group: 1, Binding: 2, Kind: harness.BindingReadOnly, Data: append(ndc(c3[0], c3[2], c3[1]), le(9, 0)...)}}

	// A texture and a sampler in both stages: the vertex stage offsets
	// corner(0, 0, 3) by textureSampleLevel's (r, g) of a 1×1 rgba32float
	// texture holding (0.5, −0.75, 11, 0) — (+2 px, +3 px) — and the
	// fragment stage paints textureLoad's b.
	textureSrc := `
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var smp: sampler;
@vertex fn vs(@location(0) p: vec2f) -> @builtin(position) vec4f {
  return vec4f(p + textureSampleLevel(tex, smp, vec2f(0.5), 0.0).xy, 0.0, 1.0);
}
@fragment fn fs() -> @location(0) u32 { return u32(textureLoad(tex, vec2i(0, 0), 0).z); }
`
	textureJob := r32(&harness.Draw{VertexBuffers: []harness.VertexBuffer{positions(small)}, Count: 3})
	textureJob.Textures = []harness.TextureBinding{{Binding: 0, Kind: harness.TextureSampled, View: "2d", Format: "rgba32float", Data: [][]byte{f32le(0.5, -0.75, 11, 0)}}}
	textureJob.Samplers = []harness.SamplerBinding{{Binding: 1}}

	return []drawCase{
		{name: "triangle", k: k, job: r32(tri(front, "", "")), want: big},
		{name: "triangle/back-facing-no-cull", k: k, job: r32(tri(back, "none", "ccw")), want: big},
		{name: "cull/back-culled", k: k, job: r32(tri(back, "back", "ccw")), want: newPicture(5)},
		{name: "cull/back-cw-drawn", k: k, job: r32(tri(back, "back", "cw")), want: big},
		{name: "cull/front-culled", k: k, job: r32(tri(front, "front", "ccw")), want: newPicture(5)},
		{name: "cull/front-back-facing-drawn", k: k, job: r32(tri(back, "front", "ccw")), want: big},
		{name: "instanced", k: drawKernel(instVS), job: r32(&harness.Draw{
			VertexBuffers: []harness.VertexBuffer{positions(small), {Data: f32le(9, 9, 1, 0, 0, -1), Stride: 8, StepMode: "instance",
				Attributes: []harness.VertexAttribute{{Format: "float32x2", ShaderLocation: 1}}}},
			Count: 3, InstanceCount: 2, FirstInstance: 1}),
			want: newPicture(0).paint(4, 0, 3, 11).paint(0, 4, 3, 12)},
		{name: "indexed/base-vertex", k: k, job: r32(&harness.Draw{
			VertexBuffers: []harness.VertexBuffer{positions(append(junk, ndc(v0, v1, v2, v3)...))},
			Index:         &harness.IndexBuffer{Format: "uint16", Data: u16(3, 3, 0, 1, 3, 1, 2, 3)},
			Count:         6, FirstIndex: 2, BaseVertex: 4}),
			want: quad},
		{name: "indexed/negative-base-vertex", k: k, job: r32(&harness.Draw{
			VertexBuffers: []harness.VertexBuffer{positions(append(ndc(v0, v1, v2, v3), junk...))},
			Index:         &harness.IndexBuffer{Format: "uint32", Data: u32(4, 5, 7, 5, 6, 7)},
			Count:         6, BaseVertex: -4}),
			want: quad,
			knownBad: map[string]string{
				glLLVMpipe:   "Dawn's GL backend aborts the node process (SIGABRT) on drawIndexed with a negative baseVertex",
				glesLLVMpipe: "Dawn's GLES backend aborts the node process (SIGABRT) on drawIndexed with a negative baseVertex",
			}},
		// The strip v0, v1, v3, v2 is the triangles (v0, v1, v3) and
		// (v1, v2, v3) (WebGPU #primitive-assembly: odd triangles keep
		// their winding), both clockwise in NDC: drawn with cullMode back
		// under frontFace cw.
		{name: "strip", k: k, job: r32(&harness.Draw{VertexBuffers: []harness.VertexBuffer{positions(ndc(v0, v1, v3, v2))}, Count: 4,
			Topology: "triangle-strip", CullMode: "back", FrontFace: "cw"}), want: quad},
		// Indexed strip with primitive restart: the quad, then 0xFFFFFFFF,
		// then corner(5, 5, 3) alone (vertices 4–6).
		{name: "strip/indexed-restart", k: k, job: r32(&harness.Draw{
			VertexBuffers: []harness.VertexBuffer{positions(append(ndc(v0, v1, v3, v2), ndc(c5[0], c5[1], c5[2])...))},
			Index:         &harness.IndexBuffer{Format: "uint32", Data: u32(0, 1, 2, 3, 0xFFFFFFFF, 4, 5, 6)},
			Count:         8, Topology: "triangle-strip"}),
			want: newPicture(0).rect(1, 1, 4, 4, 7).paint(5, 5, 3, 7),
			knownBad: map[string]string{denoGL: "wgpu 29's GL backend (Deno) ignores primitive restart, as wgpu 0.19.4's does " +
				"(the strip goes on through the index 0xFFFFFFFF, read as vertex (0, 0, 0, 0), and paints pixel (5, 4))"}},
		{name: "uniform-both-stages", k: drawKernel(uniform), job: uniformJob, want: newPicture(0).paint(2, 3, 3, 42)},
		{name: "texture-both-stages", k: drawKernel(textureSrc), job: textureJob, want: newPicture(0).paint(2, 3, 3, 11)},
		{name: "storage-both-stages", k: drawKernel(storageSrc), job: storageJob, want: newPicture(0).paint(3, 2, 3, 9)},
		{name: "rgba8unorm", k: unormKernel, job: unormJob, wantB: unormWant},
	}
}

// checkDraw runs c on r (the adapter named adapter) and compares its
// attachment with the picture.
func checkDraw(t *testing.T, r harness.Runner, adapter string, c drawCase) {
	t.Helper()
	out, err := r.Run(context.Background(), c.k, c.job)
	if why, ok := c.knownBad[adapter]; ok {
		if err != nil {
			t.Logf("known (%s): %v", why, err)
			return
		}
		assert.NotEqual(t, c.want, picture(words(out)), "known: %s", why)
		return
	}
	require.NoError(t, err)
	if c.wantB != nil {
		assert.Equal(t, c.wantB, out)
		return
	}
	require.Len(t, out, 4*drawTarget*drawTarget)
	got := picture(words(out))
	assert.Equal(t, c.want, got, "want\n%vgot\n%v", c.want, got)
}

// formatCase is one vertex format's attribute bytes and the vec4<u32>
// bits the vertex stage reads (missing components 0), derived from the
// WebGPU #vertex-formats table: uint/sint zero- or sign-extended; unorm
// c / (2^b − 1) and snorm max(c / (2^(b−1) − 1), −1) (norm: within 1 ULP
// of that quotient rounded to f32, Vulkan's conversion being exact only
// at 0 and ±1); float16 widened exactly; unorm10-10-10-2 r in bits 0–9,
// g 10–19, b 20–29, a 30–31; unorm8x4-bgra's bytes b, g, r, a read as (r,
// g, b, a).
type formatCase struct {
	format string
	bytes  []byte
	want   [4]uint32
	norm   bool
}

func fbits(f float64) uint32 { return math.Float32bits(float32(f)) }

func formatCases() []formatCase {
	i32 := func(v int32) uint32 { return uint32(v) }
	return []formatCase{
		{"uint8", []byte{200}, [4]uint32{200}, false},
		{"uint8x2", []byte{1, 255}, [4]uint32{1, 255}, false},
		{"uint8x4", []byte{0, 1, 128, 255}, [4]uint32{0, 1, 128, 255}, false},
		{"sint8", []byte{0xFE}, [4]uint32{i32(-2)}, false},
		{"sint8x2", []byte{0x80, 0x7F}, [4]uint32{i32(-128), 127}, false},
		{"sint8x4", []byte{0xFF, 0x01, 0x80, 0x00}, [4]uint32{i32(-1), 1, i32(-128), 0}, false},
		{"unorm8", []byte{51}, [4]uint32{fbits(51.0 / 255)}, true},
		{"unorm8x2", []byte{0, 255}, [4]uint32{fbits(0), fbits(1)}, true},
		{"unorm8x4", []byte{0, 255, 51, 128}, [4]uint32{fbits(0), fbits(1), fbits(51.0 / 255), fbits(128.0 / 255)}, true},
		{"snorm8", []byte{0x81}, [4]uint32{fbits(-1)}, true},
		{"snorm8x2", []byte{0x80, 0x7F}, [4]uint32{fbits(-1), fbits(1)}, true},
		{"snorm8x4", []byte{0x80, 0x00, 0x40, 0xC0}, [4]uint32{fbits(-1), fbits(0), fbits(64.0 / 127), fbits(-64.0 / 127)}, true},
		{"uint16", []byte{0x34, 0x12}, [4]uint32{0x1234}, false},
		{"uint16x2", []byte{0x34, 0x12, 0xFF, 0xFF}, [4]uint32{0x1234, 65535}, false},
		{"uint16x4", []byte{1, 0, 2, 0, 0, 0x80, 0xFF, 0xFF}, [4]uint32{1, 2, 0x8000, 65535}, false},
		{"sint16", []byte{0xFF, 0xFF}, [4]uint32{i32(-1)}, false},
		{"sint16x2", []byte{0x00, 0x80, 0xFF, 0x7F}, [4]uint32{i32(-32768), 32767}, false},
		{"sint16x4", []byte{0xFE, 0xFF, 3, 0, 0, 0x80, 0, 0}, [4]uint32{i32(-2), 3, i32(-32768), 0}, false},
		{"unorm16", []byte{0x00, 0x80}, [4]uint32{fbits(32768.0 / 65535)}, true},
		{"unorm16x2", []byte{0, 0, 0xFF, 0xFF}, [4]uint32{fbits(0), fbits(1)}, true},
		{"unorm16x4", []byte{0xFF, 0xFF, 0, 0, 0x00, 0x80, 0x01, 0x00}, [4]uint32{fbits(1), fbits(0), fbits(32768.0 / 65535), fbits(1.0 / 65535)}, true},
		{"snorm16", []byte{0x00, 0x80}, [4]uint32{fbits(-1)}, true},
		{"snorm16x2", []byte{0x01, 0x80, 0xFF, 0x7F}, [4]uint32{fbits(-1), fbits(1)}, true},
		{"snorm16x4", []byte{0, 0x40, 0, 0, 0x00, 0xC0, 0xFF, 0x7F}, [4]uint32{fbits(16384.0 / 32767), fbits(0), fbits(-16384.0 / 32767), fbits(1)}, true},
		{"float16", []byte{0x00, 0x3C}, [4]uint32{fbits(1)}, false},
		{"float16x2", []byte{0x00, 0x3C, 0x00, 0xC0}, [4]uint32{fbits(1), fbits(-2)}, false},
		{"float16x4", []byte{0xFF, 0x7B, 0x55, 0x35, 0x00, 0xBC, 0x00, 0x00}, [4]uint32{fbits(65504), fbits(0.333251953125), fbits(-1), 0}, false},
		{"float32", f32le(1.5), [4]uint32{fbits(1.5)}, false},
		{"float32x2", f32le(-2.25, 1e-3), [4]uint32{fbits(-2.25), math.Float32bits(1e-3)}, false},
		{"float32x3", f32le(3, 0.5, -7), [4]uint32{fbits(3), fbits(0.5), fbits(-7)}, false},
		{"float32x4", f32le(1, 2, 3, 65536), [4]uint32{fbits(1), fbits(2), fbits(3), fbits(65536)}, false},
		{"uint32", le(0xDEADBEEF), [4]uint32{0xDEADBEEF}, false},
		{"uint32x2", le(1, 0xFFFFFFFF), [4]uint32{1, 0xFFFFFFFF}, false},
		{"uint32x3", le(7, 8, 9), [4]uint32{7, 8, 9}, false},
		{"uint32x4", le(10, 20, 30, 40), [4]uint32{10, 20, 30, 40}, false},
		{"sint32", le(i32(-5)), [4]uint32{i32(-5)}, false},
		{"sint32x2", le(i32(-2147483648), 2147483647), [4]uint32{i32(-2147483648), 2147483647}, false},
		{"sint32x3", le(i32(-1), 0, 1), [4]uint32{i32(-1), 0, 1}, false},
		{"sint32x4", le(i32(-4), i32(-3), 2, 1), [4]uint32{i32(-4), i32(-3), 2, 1}, false},
		// r = 1023, g = 0, b = 511, a = 1: 1023 | 511 << 20 | 1 << 30.
		{"unorm10-10-10-2", le(1023 | 511<<20 | 1<<30), [4]uint32{fbits(1), fbits(0), fbits(511.0 / 1023), fbits(1.0 / 3)}, true},
		{"unorm8x4-bgra", []byte{0, 255, 51, 128}, [4]uint32{fbits(51.0 / 255), fbits(1), fbits(0), fbits(128.0 / 255)}, true},
	}
}

// formatCase4f32 is formatCases' float32x4.
func formatCase4f32() formatCase {
	cs := formatCases()
	return cs[slices.IndexFunc(cs, func(c formatCase) bool { return c.format == "float32x4" })]
}

// formatShape returns the WGSL type a vertex input of format has (its
// components' count and f32, u32 or i32) and its component count.
func formatShape(format string) (string, int) {
	n := 1
	switch {
	case format == "unorm10-10-10-2" || format == "unorm8x4-bgra":
		n = 4
	case strings.Contains(format, "x"):
		n = int(format[len(format)-1] - '0')
	}
	scalar := "f32"
	if strings.HasPrefix(format, "uint") {
		scalar = "u32"
	} else if strings.HasPrefix(format, "sint") {
		scalar = "i32"
	}
	if n == 1 {
		return scalar, 1
	}
	return fmt.Sprintf("vec%d<%s>", n, scalar), n
}

// formatKernel reads the attribute at @location(3) and passes its bits
// through a flat varying to an rgba32uint attachment, over the
// full-screen triangle of vertex_index.
func formatKernel(format string) harness.Kernel {
	typ, n := formatShape(format)
	bits := map[int]string{1: "vec4u(bitcast<u32>(a), 0u, 0u, 0u)", 2: "vec4u(bitcast<vec2u>(a), 0u, 0u)",
		3: "vec4u(bitcast<vec3u>(a), 0u)", 4: "bitcast<vec4u>(a)"}[n]
	src := fmt.Sprintf(`
struct V { @builtin(position) pos: vec4f, @location(0) @interpolate(flat) bits: vec4u }
@vertex fn vs(@builtin(vertex_index) i: u32, @location(3) a: %s) -> V {
  return V(vec4f(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.0, 1.0), %s);
}
@fragment fn fs(@location(0) @interpolate(flat) bits: vec4u) -> @location(0) vec4u { return bits; }
`, typ, bits)
	return drawKernel(src)
}

// formatJob draws c's attribute at offset 4 of a stride-padded element
// (filler 0xAA before it), the same bytes for the triangle's three
// vertices, or — stride0 — one element of stride 0 read by all three.
func formatJob(c formatCase, stride0 bool) harness.Dispatch {
	size := harness.VertexFormatSize(c.format)
	stride := 4 + (size+3)&^3
	elem := make([]byte, stride)
	for i := range 4 {
		elem[i] = 0xAA
	}
	copy(elem[4:], c.bytes)
	data := slices.Repeat(elem, 3)
	vb := harness.VertexBuffer{Data: data, Stride: uint64(stride), Attributes: []harness.VertexAttribute{{Format: c.format, Offset: 4, ShaderLocation: 3}}}
	if stride0 {
		vb.Data, vb.Stride = elem, 0
	}
	return harness.Dispatch{Target: [2]uint32{2, 2}, Attachments: []harness.AttachmentFormat{harness.RGBA32Uint}, Draw: &harness.Draw{VertexBuffers: []harness.VertexBuffer{vb}, Count: 3}}
}

// checkFormat draws c on r and checks every pixel's four words.
func checkFormat(t *testing.T, r harness.Runner, c formatCase, stride0 bool) {
	t.Helper()
	out, err := r.Run(context.Background(), formatKernel(c.format), formatJob(c, stride0))
	require.NoError(t, err)
	require.Len(t, out, 4*16)
	for p := range 4 {
		got := words(out[16*p : 16*p+16])
		for i, w := range c.want {
			if want := math.Float32frombits(w); c.norm && want != 0 && want != 1 && want != -1 {
				g := math.Float32frombits(got[i])
				assert.LessOrEqual(t, math.Abs(float64(g-want)), float64(ulp(want)),
					"pixel %d component %d: got %v, want %v within 1 ULP", p, i, g, want)
			} else {
				assert.Equal(t, w, got[i], "pixel %d component %d: got %#x, want %#x", p, i, got[i], w)
			}
		}
	}
}

// ulp is the distance from |f| to the next float32 up.
func ulp(f float32) float32 {
	a := float32(math.Abs(float64(f)))
	return math.Nextafter32(a, float32(math.Inf(1))) - a
}
