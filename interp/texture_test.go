package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

func texDispatch(t *testing.T, src string, opts Options, wg [3]uint32) *DispatchResult {
	t.Helper()
	m, err := wgsl.Parse("tex.wgsl", []byte(src))
	require.NoError(t, err)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	res, err := d.Run(nil, wg, opts)
	require.NoError(t, err)
	return res
}

// A 2x2 rgba8unorm texture loaded texel by texel into a storage buffer:
// the values are c/255 (Vulkan "Fixed-Point Data Conversions"), within
// one ULP where not 0 or 1; an out-of-bounds load is any value.
func TestTextureLoadRGBA8Unorm(t *testing.T) {
	src := `
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<vec4f, 5>;
@group(0) @binding(2) var<storage, read_write> dims: vec2u;
@compute @workgroup_size(5)
fn main(@builtin(local_invocation_index) i: u32) {
  out[i] = textureLoad(tex, vec2u(i % 2u, i / 2u), 0);
  dims = textureDimensions(tex);
}
`
	data := []byte{0, 255, 128, 255, 1, 2, 3, 4, 51, 102, 153, 204, 255, 0, 0, 0}
	res := texDispatch(t, src, Options{Textures: map[string]*Texture{"tex": {Format: "rgba8unorm", Width: 2, Height: 2, DepthOrLayers: 1, MipLevels: 1, Data: [][]byte{data}}}}, [3]uint32{1, 1, 1})
	out := res.Buffers["out"]
	for i := 0; i < 16; i++ {
		v := math.Float32frombits(out.Value.Elems[i/4].Elems[i%4].Bits)
		assert.Equal(t, float32(float64(data[i])/255), v, "leaf %d", i)
		tol := 0.0
		if out.Tolerance != nil {
			tol = out.Tolerance[i]
		}
		if data[i] == 0 || data[i] == 255 {
			assert.Zero(t, tol, "leaf %d is exact", i)
		} else {
			assert.Equal(t, ulp(float64(v)), tol, "leaf %d: one ULP", i)
		}
	}
	for i := 16; i < 20; i++ {
		assert.True(t, out.Indeterminate[i], "invocation 4 reads (0, 2): out of bounds")
	}
	assert.Equal(t, []uint32{2, 2}, []uint32{res.Buffers["dims"].Value.Elems[0].Bits, res.Buffers["dims"].Value.Elems[1].Bits})
}

// textureStore to an rgba8unorm storage texture: 0.5*255 = 127.5 may be
// stored as 127 or 128 (Vulkan: one of the two closest), here any value;
// 0.2*255 = 51 exactly... as f32 0.2 is 0.200000003, 51.0000007: either
// 51 or 52 is allowed; values exactly representable after scaling are
// exact: 0 → 0, 1 → 255, -3 → 0 (clamped), 2 → 255.
func TestTextureStoreRGBA8Unorm(t *testing.T) {
	src := `
@group(0) @binding(0) var dst: texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) {
    textureStore(dst, vec2u(0u, 0u), vec4f(0.0, 1.0, -3.0, 2.0));
  } else {
    textureStore(dst, vec2u(1u, 0u), vec4f(0.5, 0.2, 1.0, 0.0));
    textureStore(dst, vec2u(5u, 0u), vec4f(1.0));
  }
}
`
	prior := make([]byte, 2*1*4)
	for i := range prior {
		prior[i] = 7
	}
	res := texDispatch(t, src, Options{Textures: map[string]*Texture{"dst": {Format: "rgba8unorm", Width: 2, Height: 1, DepthOrLayers: 1, MipLevels: 1, Data: [][]byte{prior}}}}, [3]uint32{1, 1, 1})
	o := res.Textures["dst"]
	require.Len(t, o.Levels, 1)
	// The out-of-bounds store may land on any texel: every texel is any value.
	require.NotNil(t, o.Any[0])
	for i := range o.Any[0] {
		assert.True(t, o.Any[0][i])
	}
	// Without it, texel 0 is exact.
	src2 := src[:len(src)-len("    textureStore(dst, vec2u(5u, 0u), vec4f(1.0));\n  }\n}\n")] + "  }\n}\n"
	res = texDispatch(t, src2, Options{Textures: map[string]*Texture{"dst": {Format: "rgba8unorm", Width: 2, Height: 1, DepthOrLayers: 1, MipLevels: 1, Data: [][]byte{prior}}}}, [3]uint32{1, 1, 1})
	o = res.Textures["dst"]
	assert.Equal(t, []uint32{0, 255, 0, 255}, o.Levels[0][:4])
	assert.Nil(t, o.Any[0], "every stored channel is fixed or a small set")
	assert.Equal(t, map[int][]uint32{4: {127, 128}, 5: {51, 52}}, o.Allowed[0], "0.5*255 = 127.5 → 127 or 128; 0.2f*255 = 51.0000007 → 51 or 52")
	assert.Equal(t, []uint32{255, 0}, o.Levels[0][6:8], "1 → 255, 0 → 0 exactly")
	assert.Equal(t, []byte{0, 255, 0, 255}, o.Bytes(0)[:4])
}

// textureSampleLevel with a nearest sampler: repeat and mirror-repeat
// address modes pick the texel whose cell holds the wrapped coordinate.
func TestTextureSampleLevelNearest(t *testing.T) {
	fsrc := `
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@group(0) @binding(2) var<storage, read_write> out: array<f32, 4>;
@compute @workgroup_size(1)
fn main() {
  out[0] = textureSampleLevel(tex, s, vec2f(0.3, 0.5), 0.0).x;   // x = 1.2 → texel 1
  out[1] = textureSampleLevel(tex, s, vec2f(1.3, 0.5), 0.0).x;   // repeat: 5.2 → 1; mirror: 5.2 → 8-1-5 = 2
  out[2] = textureSampleLevel(tex, s, vec2f(-0.1, 0.5), 0.0).x;  // repeat: -0.4 → -1 → 3; mirror: -1 → 0
  out[3] = textureSampleLevel(tex, s, vec2f(0.5, 0.5), 0.0).x;   // x = 2.0: a texel edge, either neighbour
}
`
	data := []byte{10, 20, 30, 40} // r8unorm texels
	run := func(mode string) Output {
		return texDispatch(t, fsrc, Options{
			Textures: map[string]*Texture{"tex": {Format: "r8unorm", Width: 4, Height: 1, DepthOrLayers: 1, MipLevels: 1, Data: [][]byte{data}}},
			Samplers: map[string]*Sampler{"s": {AddressModeU: mode, AddressModeV: mode}},
		}, [3]uint32{1, 1, 1}).Buffers["out"]
	}
	val := func(o Output, i int) float32 { return math.Float32frombits(o.Value.Elems[i].Bits) }
	o := run("repeat")
	assert.Equal(t, float32(20.0/255), val(o, 0))
	assert.Equal(t, float32(20.0/255), val(o, 1))
	assert.Equal(t, float32(40.0/255), val(o, 2))
	// At a texel edge either neighbour (20 or 30) may be chosen: the
	// value's bound covers both.
	assert.InDelta(t, 25.0/255, float64(val(o, 3)), 1e-6)
	assert.GreaterOrEqual(t, o.Tolerance[3], 5.0/255)
	o = run("mirror-repeat")
	assert.Equal(t, float32(20.0/255), val(o, 0))
	assert.Equal(t, float32(30.0/255), val(o, 1))
	assert.Equal(t, float32(10.0/255), val(o, 2))
	o = run("")
	assert.Equal(t, float32(40.0/255), val(o, 1), "clamp-to-edge")
	assert.Equal(t, float32(10.0/255), val(o, 2), "clamp-to-edge")
}

func TestTextureFormatConversion(t *testing.T) {
	f, err := parseTexFormat("rgba16float")
	require.NoError(t, err)
	b, _ := f.decode(0x3c00)
	assert.Equal(t, float32(1), math.Float32frombits(b))
	b, _ = f.decode(0xc000)
	assert.Equal(t, float32(-2), math.Float32frombits(b))
	cs, ok := f.encode(math.Float32bits(1.0 / 3))
	require.True(t, ok)
	assert.Equal(t, []uint32{0x3555, 0x3556}, cs, "1/3 lies between two binary16 values")
	_, ok = f.encode(math.Float32bits(70000))
	assert.False(t, ok, "overflow: any value")
	sn, _ := parseTexFormat("rgba8snorm")
	b, _ = sn.decode(0x80) // -128 → max(-128/127, -1) = -1
	assert.Equal(t, float32(-1), math.Float32frombits(b))
	cs, _ = sn.encode(math.Float32bits(-1))
	assert.Equal(t, []uint32{0x81}, cs, "-1 → -127")
	_, err = parseTexFormat("depth24plus")
	assert.Error(t, err)
}

// Linear filtering: a 2-texel r8unorm ramp (0, 255). At u = 0.5 of the
// texture α = 0.5, a multiple of 2^-4 that every sub-texel precision ≥ 4
// bits keeps: 0.5 within the filter's 2^-8; at u = 0.15 (α = 0.1, off the
// grid) α may be anywhere in [0.1 − 1/16, 0.1 + 1/16]. Mip levels: level
// 1 (one texel, 100) at lod 1 — with a linear mipmap filter the last level
// still passes the blend stage, whose rounding (2^-8 of the range) adds to
// the filter's; lod 0.5 blends the levels half and half (δ = 0.5 is on the
// grid too).
func TestTextureSampleLevelLinear(t *testing.T) {
	fsrc := `
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@group(0) @binding(2) var<storage, read_write> out: array<f32, 5>;
@compute @workgroup_size(1)
fn main() {
  out[0] = textureSampleLevel(tex, s, vec2f(0.5, 0.5), 0.0).x;
  out[1] = textureSampleLevel(tex, s, vec2f(0.25, 0.5), 0.0).x;
  out[2] = textureSampleLevel(tex, s, vec2f(0.25, 0.5), 1.0).x;
  out[3] = textureSampleLevel(tex, s, vec2f(0.25, 0.5), 0.5).x;
  out[4] = textureSampleLevel(tex, s, vec2f(0.3, 0.5), 0.0).x;
}
`
	res := texDispatch(t, fsrc, Options{
		Textures: map[string]*Texture{"tex": {Format: "r8unorm", Width: 2, Height: 1, DepthOrLayers: 1, MipLevels: 2, Data: [][]byte{{0, 255}, {100}}}},
		Samplers: map[string]*Sampler{"s": {MagFilter: "linear", MinFilter: "linear", MipmapFilter: "linear"}},
	}, [3]uint32{1, 1, 1})
	o := res.Buffers["out"]
	val := func(i int) float64 { return float64(math.Float32frombits(o.Value.Elems[i].Bits)) }
	within := func(i int, lo, hi, maxTol float64) {
		t.Helper()
		assert.LessOrEqual(t, val(i)-o.Tolerance[i], lo, "leaf %d lower bound", i)
		assert.GreaterOrEqual(t, val(i)+o.Tolerance[i], hi, "leaf %d upper bound", i)
		assert.LessOrEqual(t, o.Tolerance[i], maxTol, "leaf %d bound stays tight", i)
	}
	for i := range o.Indeterminate {
		require.False(t, o.Indeterminate[i], o.Why)
	}
	within(0, 0.5, 0.5, 1.0/256+1e-6)
	within(1, 0, 0, 1.0/256+1e-6)
	within(2, 100.0/255, 100.0/255, 2.0/256+1e-6) // the last level, blended with itself: the blend stage rounds too
	within(3, 50.0/255, 50.0/255, 2.0/256+1e-6)   // two filtering stages
	// 0.3f * 2 - 0.5 = 0.1000000238: α ∈ [0.0375, 0.1625] (255 → 1.0).
	within(4, 0.0375, 0.1625, 1.0/16+1.0/4096+1.0/256+1e-6)
	assert.InDelta(t, 0.1, val(4), 1e-6)
}

// Derivatives in 2×2 quads (quad.go), hand-derived: at pixel (x, y) the
// position is (x + 0.5, y + 0.5); v = X² + 3Y; the quad's columns are
// 2qx and 2qx + 1, so dpdxFine(v) = (2qx + 1.5)² − (2qx + 0.5)² = 4qx + 2,
// dpdyFine(v) = 3, dpdx(X) = 1 and fwidth(2Y) = 0 + 2; dpdxCoarse(X·Y)
// is either row's difference: Y of the quad's top or bottom row
// (2qy + 0.5 or 2qy + 1.5), an allowed range of [2qy + 0.5, 2qy + 1.5].
func TestQuadDerivatives(t *testing.T) {
	src := `
@fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f {
  let v = p.x * p.x + 3.0 * p.y;
  return vec4f(dpdxFine(v), dpdyFine(v) + dpdx(p.x), fwidth(p.y * 2.0), dpdxCoarse(p.x * p.y));
}
`
	m, err := wgsl.Parse("q.wgsl", []byte(src))
	require.NoError(t, err)
	p, err := Compile(m, "main")
	require.NoError(t, err)
	const W, H = 5, 3 // odd: helper invocations past the edge
	invs, err := p.RunQuads(func(x, y int) []ir.Value {
		return []ir.Value{ir.CompositeVal(ir.Vec(4, ir.F32), ir.F32Val(float32(x)+0.5), ir.F32Val(float32(y)+0.5), ir.F32Val(0), ir.F32Val(1))}
	}, W, H, Options{})
	require.NoError(t, err)
	require.Len(t, invs, W*H)
	for i, inv := range invs {
		x, y := i%W, i/W
		require.NoError(t, inv.Err)
		o := inv.Outputs[0]
		leaf := func(j int) float64 { return float64(math.Float32frombits(o.Value.Elems[j].Bits)) }
		for j := 0; j < 4; j++ {
			require.False(t, o.Indeterminate != nil && o.Indeterminate[j], "pixel (%d, %d) leaf %d: %s", x, y, j, o.Why)
		}
		qx, qy := float64(x/2*2)/2, float64(y/2*2)
		assert.Equal(t, 4*qx+2, leaf(0), "dpdxFine at (%d, %d)", x, y)
		assert.Equal(t, 4.0, leaf(1), "dpdyFine + dpdx at (%d, %d)", x, y)
		assert.Equal(t, 2.0, leaf(2), "fwidth at (%d, %d)", x, y)
		lo, hi := qy+0.5, qy+1.5
		assert.LessOrEqual(t, leaf(3)-o.Tolerance[3], lo, "dpdxCoarse lower at (%d, %d)", x, y)
		assert.GreaterOrEqual(t, leaf(3)+o.Tolerance[3], hi, "dpdxCoarse upper at (%d, %d)", x, y)
		assert.Less(t, o.Tolerance[3], 0.6)
	}
	// Outside a quad, a derivative still stops the invocation.
	inv, err := p.Run([][]ir.Value{{ir.CompositeVal(ir.Vec(4, ir.F32), ir.F32Val(0.5), ir.F32Val(0.5), ir.F32Val(0), ir.F32Val(1))}}, Options{})
	require.NoError(t, err)
	require.Error(t, inv[0].Err)
}

// textureGather returns the bilinear footprint's texels in WGSL's order
// (umin, vmax), (umax, vmax), (umax, vmin), (umin, vmin); textureSampleGrad
// with gradients of one level-0 texel samples level 0, of two texels
// level 1 (nearest mipmap filter: λ = 1 ± 2^-4 rounds to 1).
func TestTextureGatherAndGrad(t *testing.T) {
	src := `
@group(0) @binding(0) var tu: texture_2d<u32>;
@group(0) @binding(1) var tf: texture_2d<f32>;
@group(0) @binding(2) var s: sampler;
@group(0) @binding(3) var<storage, read_write> out: array<vec4f, 4>;
@group(0) @binding(4) var<storage, read_write> outu: vec4u;
@compute @workgroup_size(1)
fn main() {
  outu = textureGather(0, tu, s, vec2f(0.5, 0.5));
  out[0] = textureGather(1, tf, s, vec2f(0.5, 0.5));
  out[1] = textureSampleGrad(tf, s, vec2f(0.3, 0.3), vec2f(0.25, 0.0), vec2f(0.0, 0.25));
  out[2] = textureSampleGrad(tf, s, vec2f(0.3, 0.3), vec2f(0.5, 0.0), vec2f(0.0, 0.5));
}
`
	// tu: 4x4 r32uint, texel (x, y) = 10y + x.
	tu := make([]byte, 4*16)
	for i := 0; i < 16; i++ {
		tu[4*i] = byte(10*(i/4) + i%4)
	}
	// tf: 4x4 rg8unorm level 0 (g = 16(10y + x)), level 1 2x2 all 200.
	tf0 := make([]byte, 2*16)
	for i := 0; i < 16; i++ {
		tf0[2*i], tf0[2*i+1] = 7, byte(16*(i%4)+64*(i/4))
	}
	tf1 := []byte{200, 200, 200, 200, 200, 200, 200, 200}
	res := texDispatch(t, src, Options{
		Textures: map[string]*Texture{
			"tu": {Format: "r32uint", Width: 4, Height: 4, DepthOrLayers: 1, MipLevels: 1, Data: [][]byte{tu}},
			"tf": {Format: "rg8unorm", Width: 4, Height: 4, DepthOrLayers: 1, MipLevels: 2, Data: [][]byte{tf0, tf1}},
		},
	}, [3]uint32{1, 1, 1})
	// (0.5, 0.5) of 4 texels: x = 1.5 → footprint columns 1, 2 and rows 1, 2.
	u := res.Buffers["outu"].Value
	assert.Equal(t, []uint32{21, 22, 12, 11}, []uint32{u.Elems[0].Bits, u.Elems[1].Bits, u.Elems[2].Bits, u.Elems[3].Bits})
	o := res.Buffers["out"]
	f := func(i, j int) float64 { return float64(math.Float32frombits(o.Value.Elems[i].Elems[j].Bits)) }
	for j, texel := range [][2]int{{1, 2}, {2, 2}, {2, 1}, {1, 1}} {
		assert.InDelta(t, float64(16*texel[0]+64*texel[1])/255, f(0, j), 1e-6)
	}
	// Grad of 1 texel: level 0; (0.3, 0.3) → texel (1, 1) with nearest.
	assert.InDelta(t, float64(16+64)/255, f(1, 1), 1e-6)
	assert.InDelta(t, 200.0/255, f(2, 1), 1e-6)
}
