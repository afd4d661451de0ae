package check

import (
	"context"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

const storeLoad = "../shaders/textures/store_load.wgsl"

func loadTex(t *testing.T, path string, o testcase.LoadOptions) *testcase.Case {
	t.Helper()
	c, err := testcase.Load(path, o)
	require.NoError(t, err)
	return c
}

// The inputs file's channel values become codes by round-to-nearest
// (0.2·255 = 51, 0.4·255 = 102, …), the sampler takes its address modes,
// and what the file does not give is the default.
func TestTextureInputsFile(t *testing.T) {
	c := loadTex(t, storeLoad, testcase.LoadOptions{})
	src := c.Textures["src"]
	require.NotNil(t, src)
	assert.Equal(t, "rgba8unorm", src.Format)
	assert.Equal(t, []byte{0, 255, 0, 255, 255, 51, 0, 255, 102, 153, 0, 255, 204, 255, 0, 255}, src.Data[0])
	assert.Equal(t, "repeat", c.Samplers["samp"].AddressModeU)
	assert.Equal(t, "nearest", c.Samplers["samp"].MagFilter)
	assert.Equal(t, make([]byte, 16), c.Textures["dst"].Data[0])
}

// The reference's stored texels are the hand-derived ones
// (shaders/textures/store_load.wgsl): invocation (x, y) stores
// (t.x, s.x, t.y/2, 1) at (x, y), t its own texel, s the texel to its
// right (repeat); a value between two codes allows both.
func TestTextureReferenceHandDerived(t *testing.T) {
	c := loadTex(t, storeLoad, testcase.LoadOptions{})
	out, err := Execute(context.Background(), c, CaseOptions(c, Options{}))
	require.NoError(t, err)
	res := out
	require.Equal(t, []string{"dst"}, res.Names)
	assert.Equal(t, oracle.Pass, res.Verdict)
	e := res.Reference[0][0]
	// [y][x][channel] leaves in order; nil: exact.
	want := []struct {
		code    uint32
		allowed []uint32
	}{
		{0, nil}, {255, nil}, {127, []uint32{127, 128}}, {255, nil}, // (0,0): t=(0,1), s=src(1,0).x=1
		{255, nil}, {0, nil}, {25, []uint32{25, 26}}, {255, nil}, // (1,0): t=(1,.2), s=src(0,0).x=0
		{102, []uint32{101, 102, 103}}, {204, []uint32{203, 204, 205}}, {76, []uint32{76, 77}}, {255, nil}, // (0,1): t=(.4,.6), s=src(1,1).x=.8
		{204, []uint32{203, 204, 205}}, {102, []uint32{101, 102, 103}}, {127, []uint32{127, 128}}, {255, nil}, // (1,1): t=(.8,1), s=src(0,1).x=.4
	}
	var leaves []uint32
	for _, row := range e.Val().Elems {
		for _, texel := range row.Elems {
			for _, ch := range texel.Elems {
				leaves = append(leaves, ch.Bits)
			}
		}
	}
	require.Len(t, leaves, len(want))
	for i, w := range want {
		if w.allowed == nil {
			assert.False(t, e.Indeterminate != nil && e.Indeterminate[i], "leaf %d exact", i)
			assert.Equal(t, w.code, leaves[i], "leaf %d", i)
			continue
		}
		assert.True(t, e.Indeterminate != nil && e.Indeterminate[i], "leaf %d has an allowed set", i)
		assert.ElementsMatch(t, w.allowed, e.Set(i).Values, "leaf %d", i)
	}
}

// fakeTexDevice returns the reference's bytes with one byte changed.
type fakeTexDevice struct{ out []byte }

func (f fakeTexDevice) Info() harness.AdapterInfo {
	return harness.AdapterInfo{Name: "fake", Implementation: "fake"}
}
func (f fakeTexDevice) Run(context.Context, harness.Kernel, harness.Dispatch) ([]byte, error) {
	return f.out, nil
}

// A read-back texel outside the reference's codes is a mismatch; one
// within the allowed set passes.
func TestTextureMismatchJudged(t *testing.T) {
	c := loadTex(t, storeLoad, testcase.LoadOptions{})
	good := []byte{0, 255, 128, 255, 255, 0, 26, 255, 101, 205, 76, 255, 203, 103, 127, 255}
	for _, tc := range []struct {
		at   int
		b    byte
		want oracle.Verdict
	}{{-1, 0, oracle.Pass}, {2, 129, oracle.Mismatch}, {3, 254, oracle.Mismatch}} {
		out := append([]byte(nil), good...)
		if tc.at >= 0 {
			out[tc.at] = tc.b
		}
		o, err := Execute(context.Background(), c, CaseOptions(c, Options{Devices: []Device{fakeTexDevice{out}}}))
		require.NoError(t, err)
		assert.Equal(t, tc.want, o.Verdict, "byte %d = %d", tc.at, tc.b)
		if tc.want == oracle.Mismatch {
			fs := o.Findings()
			require.NotEmpty(t, fs)
		}
	}
}

func TestTextureFillDeterministic(t *testing.T) {
	c := loadTex(t, storeLoad, testcase.LoadOptions{Fill: "random", Seed: new(uint64(3))})
	d := loadTex(t, storeLoad, testcase.LoadOptions{Fill: "random", Seed: new(uint64(3))})
	e := loadTex(t, storeLoad, testcase.LoadOptions{Fill: "random", Seed: new(uint64(4))})
	assert.Equal(t, c.Textures, d.Textures)
	assert.NotEqual(t, c.Textures["src"].Data, e.Textures["src"].Data)
	assert.Equal(t, [3]int{16, 16, 1}, [3]int{c.Textures["src"].Width, c.Textures["src"].Height, c.Textures["src"].DepthOrLayers})
	assert.Equal(t, testcase.Fill("random"), c.Fill)
}

// Errors name the file and the key, exit 2 (UsageError) or are
// positioned.
func TestTextureInputErrors(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(storeLoad)
	require.NoError(t, err)
	wgslPath := filepath.Join(dir, "s.wgsl")
	require.NoError(t, os.WriteFile(wgslPath, src, 0o644))
	for _, tc := range []struct{ json, want string }{
		{`{"dst": {"format": "rgba8uint"}}`, `dst: format rgba8uint, but dst is declared texture_storage_2d<rgba8unorm, write>`},
		{`{"src": {"format": "r32uint"}}`, `src: format r32uint gives u32 values, but src is declared texture_2d<f32>`},
		{`{"src": {"format": "rgba8unorm", "size": [1, 1], "levels": [[[2, 0, 0, 0]]]}}`, `src: levels[0][0][0]: 2 is outside a unorm channel's [0, 1]`},
		{`{"src": {"size": [1, 1], "levels": [[[0, 0, 0]]]}}`, `src: levels[0][0]: 3 channel values, rgba8unorm has 4`},
		{`{"src": {"size": [4, 4], "mipLevels": 4}}`, `src: mipLevels 4: want 1 to 3`},
		{`{"src": {"png": "nope.png"}}`, `src: png: open`},
		{`{"src": {"colour": 1}}`, `src: want {"format"`},
		{`{"samp": {"magFilter": "cubic"}}`, `samp: magFilter: "cubic" is not one of nearest, linear`},
		{`{"samp": {"compare": "less"}}`, `samp: compare: samp is a sampler, not a sampler_comparison`},
		{`{"sam": {}}`, `no storage, uniform, texture or sampler binding named "sam" (have src, samp, dst)`},
	} {
		in := filepath.Join(dir, "in.json")
		require.NoError(t, os.WriteFile(in, []byte(tc.json), 0o644))
		_, err := testcase.Load(wgslPath, testcase.LoadOptions{Inputs: in})
		require.Error(t, err, tc.json)
		assert.Contains(t, err.Error(), tc.want, tc.json)
		assert.True(t, strings.HasPrefix(err.Error(), in+": "), err.Error())
		_, usage := err.(*testcase.UsageError)
		assert.True(t, usage, "%T", err)
	}
}

// A PNG gives an 8-bit texture's level 0.
func TestTexturePNG(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(storeLoad)
	require.NoError(t, err)
	wgslPath := filepath.Join(dir, "s.wgsl")
	require.NoError(t, os.WriteFile(wgslPath, src, 0o644))
	c := loadTex(t, storeLoad, testcase.LoadOptions{})
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	copy(img.Pix, c.Textures["src"].Data[0])
	fh, err := os.Create(filepath.Join(dir, "src.png"))
	require.NoError(t, err)
	require.NoError(t, png.Encode(fh, img))
	require.NoError(t, fh.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "s.inputs.json"), []byte(`{"src": {"png": "src.png"}}`), 0o644))
	d := loadTex(t, wgslPath, testcase.LoadOptions{})
	assert.Equal(t, c.Textures["src"], d.Textures["src"])
}

// driverDevice names its driver, so WithDriver keeps it.
type driverDevice struct{ fakeTexDevice }

func (driverDevice) Info() harness.AdapterInfo {
	return harness.AdapterInfo{Name: "fake", Driver: "d", DriverVersion: "1.2"}
}

// DeviceDrivers records each device's driver, in order.
func TestDeviceDrivers(t *testing.T) {
	assert.Empty(t, DeviceDrivers(nil))
	assert.Equal(t, []harness.DriverRecord{{Adapter: "fake", Driver: "d", Version: "1.2"}, {Adapter: "fake", Driver: "d", Version: "1.2"}},
		DeviceDrivers([]Device{driverDevice{}, driverDevice{}}))
}

const (
	depthMSLoad  = "../shaders/textures/depth/depth_ms_load.wgsl"
	depthCompare = "../shaders/textures/depth/depth_compare.wgsl"
)

// refLeaves flattens the reference's leaves of output k: each leaf's
// value as a float64 (u32 leaves as integers) and its tolerance.
func refLeaves(t *testing.T, e oracle.Expected) (vals, tols []float64) {
	t.Helper()
	var walk func(v ir.Value)
	walk = func(v ir.Value) {
		if v.Elems != nil {
			for _, x := range v.Elems {
				walk(x)
			}
			return
		}
		switch v.Type.Kind {
		case ir.KindF32:
			vals = append(vals, float64(math.Float32frombits(v.Bits)))
		default:
			vals = append(vals, float64(v.Bits))
		}
	}
	walk(e.Val())
	tols = make([]float64, len(vals))
	for i := range tols {
		if e.Tolerance != nil && i < len(e.Tolerance) {
			tols[i] = e.Tolerance[i]
		}
	}
	return vals, tols
}

// The reference reads depth and multisampled inputs as the inputs file
// gives them (shaders/textures/depth/depth_ms_load.wgsl): depth32float
// texels exactly (level 0: 0, 0.25, 0.5, 1; level 1: 0.75), depth16unorm
// texels as code/65535 within the unorm conversion's tolerance (0.2 is
// code 13107 = 65535/5, so within 2^-16 of 0.2), each sample of texel
// (x, y) as entry (y·w + x)·4 + s (r32float samples 1…8; rgba8uint
// samples (4s+1, …, 4s+4)), and textureNumSamples is 4.
func TestDepthMultisampledHandDerived(t *testing.T) {
	c := loadTex(t, depthMSLoad, testcase.LoadOptions{})
	require.Equal(t, 4, c.Textures["ms"].SampleCount)
	require.Equal(t, "depth32float", c.Textures["d"].Format)
	out, err := Execute(context.Background(), c, CaseOptions(c, Options{}))
	require.NoError(t, err)
	res := out
	require.Equal(t, []string{"o", "u", "n"}, res.Names)
	o, otol := refLeaves(t, res.Reference[0][0])
	want := []float64{0, 0.25, 0.5, 1, 0.75, 0, 0.2, 0.4, 0.6, 0.8, 1, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8}
	require.Len(t, o, len(want))
	for i, w := range want {
		if i >= 5 && i < 13 { // depth16unorm
			assert.InDelta(t, w, o[i], 1.0/65536, "o[%d]", i)
			assert.LessOrEqual(t, otol[i], 1.0/32768, "o[%d] tolerance", i)
			continue
		}
		assert.Equal(t, w, o[i], "o[%d]", i)
		assert.Zero(t, otol[i], "o[%d] exact", i)
	}
	u, _ := refLeaves(t, res.Reference[0][1])
	for i := range u {
		assert.Equal(t, float64(i+1), u[i], "u leaf %d", i)
	}
	n, _ := refLeaves(t, res.Reference[0][2])
	assert.Equal(t, []float64{4, 4}, n)
}

// The reference's depth comparisons (shaders/textures/depth/depth_compare.wgsl,
// texels 0.2, 0.4, 0.6, 0.8, "less": depth_ref < texel passes): nearest
// at the texel centres with 0.5 is 0, 0, 1, 1 exactly; linear is exactly
// 1 with 0.1 and 0 with 0.9 (the whole footprint passes or fails);
// linear at the centre with 0.5 is any value in [0, 1] (two pass, two
// fail); the gather at the centre is 1, 1, 0, 0 exactly (footprint order
// (0,1), (1,1), (1,0), (0,0), WGSL #texturegathercompare).
func TestDepthCompareHandDerived(t *testing.T) {
	c := loadTex(t, depthCompare, testcase.LoadOptions{})
	out, err := Execute(context.Background(), c, CaseOptions(c, Options{}))
	require.NoError(t, err)
	res := out
	o, otol := refLeaves(t, res.Reference[0][0])
	want := []float64{0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}
	require.Len(t, o, 13)
	for i, w := range want {
		assert.Equal(t, w, o[i], "o[%d]", i)
		assert.Zero(t, otol[i], "o[%d] exact", i)
	}
	assert.Equal(t, 0.5, o[12])
	assert.GreaterOrEqual(t, otol[12], 0.5, "o[12] covers [0, 1]")
	g, gtol := refLeaves(t, res.Reference[0][1])
	assert.Equal(t, []float64{1, 1, 0, 0}, g)
	assert.Equal(t, []float64{0, 0, 0, 0}, gtol)
}

// Depth and multisampled cases pass on lavapipe and SwiftShader, original
// and flattened twin, from WGSL: the harness uploads depth32float and
// multisampled textures by render passes (harness/render_upload.go) and
// depth16unorm by a copy, and every leaf read back is within the
// reference (the hand-derived values above). gpudiff's SPIR-V is left
// out: wgpu 0.19.4's SPIR-V reader (naga 0.19.2) refuses a depth OpImageFetch
// whose vec4 result is then indexed, and has no OpImageDrefGather
// (both spirv-val clean); multisampled loads pass in SPIR-V
// (TestMultisampledSPIRVOnGPUs).
func TestDepthMultisampledCasesOnGPUs(t *testing.T) {
	devs := texGPUs(t)
	for _, f := range []string{depthMSLoad, depthCompare} {
		t.Run(filepath.Base(f), func(t *testing.T) {
			c := loadTex(t, f, testcase.LoadOptions{Flat: new(true)})
			out, err := Execute(context.Background(), c, CaseOptions(c, Options{Devices: devs}))
			require.NoError(t, err)
			assert.Equal(t, oracle.Pass, out.Verdict)
			assert.Len(t, out.Runs, 1+2*2, "interp twin + 2 adapters × {original, twin}")
			for _, r := range out.Runs {
				assert.Empty(t, r.Message, "%s %s %s", r.Adapter, r.Function, r.Format)
				assert.Empty(t, r.Mismatches, "%s %s %s", r.Adapter, r.Function, r.Format)
			}
		})
	}
}

// texGPUs opens lavapipe and SwiftShader (closed when the test ends).
func texGPUs(t *testing.T) []Device {
	var devs []Device
	for _, a := range []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader"} {
		d, err := harness.Open(a)
		require.NoError(t, err)
		t.Cleanup(d.Close)
		devs = append(devs, d)
	}
	return devs
}

// A multisampled texture made up by --fill (rgba8unorm, 16×16, 4
// samples: small values, leaf k (1 + k mod 16)·15) and read sample by
// sample passes in WGSL and gpudiff's SPIR-V on lavapipe and SwiftShader:
// the render-pass upload puts every sample where textureLoad's sample
// index finds it.
func TestMultisampledSPIRVOnGPUs(t *testing.T) {
	dir := t.TempDir()
	src := `@group(0) @binding(0) var ms: texture_multisampled_2d<f32>;
@group(0) @binding(1) var<storage, read_write> o: array<vec4f, 1024>;
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let p = vec2i(i32(id.x % 16u), i32(id.x / 16u));
  o[id.x * 4u + id.y] = textureLoad(ms, p, i32(id.y));
}
`
	path := filepath.Join(dir, "ms.wgsl")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	c, err := testcase.Load(path, testcase.LoadOptions{SPIRV: new(true), Fill: "small", Workgroups: &[3]uint32{64, 4, 1}})
	require.NoError(t, err)
	require.Equal(t, [3]uint32{64, 4, 1}, c.Workgroups)
	out, err := Execute(context.Background(), c, CaseOptions(c, Options{Devices: texGPUs(t), SPIRV: true}))
	require.NoError(t, err)
	assert.Equal(t, oracle.Pass, out.Verdict)
	assert.Len(t, out.Runs, 2*2, "2 adapters × {WGSL, SPIR-V}")
	for _, r := range out.Runs {
		assert.Empty(t, r.Message, "%s %s %s", r.Adapter, r.Function, r.Format)
	}
}

// Depth and multisampled inputs outside what WebGPU can hold are input
// errors naming the key: a depth32float texel outside [0, 1] (frag_depth
// is clamped to the viewport's depth range) or subnormal (a depth write
// may flush it), a colour format on a depth
// binding, a format WebGPU cannot multisample, a sample count other than
// 4.
func TestDepthMultisampledInputErrors(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(depthMSLoad)
	require.NoError(t, err)
	wgslPath := filepath.Join(dir, "s.wgsl")
	require.NoError(t, os.WriteFile(wgslPath, src, 0o644))
	for _, tc := range []struct{ json, want string }{
		{`{"d": {"size": [1, 1], "levels": [[[1.5]]]}}`, `d: levels[0][0][0]: 1.5 is outside a depth texel's [0, 1]`},
		{`{"d": {"size": [1, 1], "levels": [[[1e-40]]]}}`, `d: levels[0][0][0]: 1e-40 is subnormal as an f32`},
		{`{"d": {"format": "r32float"}}`, `d: format r32float, but d is declared texture_depth_2d: want depth32float or depth16unorm`},
		{`{"ms": {"format": "depth32float"}}`, `ms: format depth32float is a depth format`},
		{`{"ms": {"format": "rgba32float"}}`, `ms: format rgba32float cannot be multisampled`},
		{`{"ms": {"format": "r32float", "sampleCount": 2}}`, `ms: sampleCount 2: texture_multisampled_2d<f32> takes 4`},
	} {
		in := filepath.Join(dir, "in.json")
		require.NoError(t, os.WriteFile(in, []byte(tc.json), 0o644))
		_, err := testcase.Load(wgslPath, testcase.LoadOptions{Inputs: in})
		require.Error(t, err, tc.json)
		assert.Contains(t, err.Error(), tc.want, tc.json)
		_, usage := err.(*testcase.UsageError)
		assert.True(t, usage, "%T", err)
	}
}
