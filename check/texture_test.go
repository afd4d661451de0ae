package check

import (
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/oracle"
)

const storeLoad = "../shaders/textures/store_load.wgsl"

func loadTex(t *testing.T, path string, o LoadOptions) *AnyCase {
	t.Helper()
	o.Command = "exec"
	c, err := Load(path, o)
	require.NoError(t, err)
	return c
}

// The inputs file's channel values become codes by round-to-nearest
// (0.2·255 = 51, 0.4·255 = 102, …), the sampler takes its address modes,
// and what the file does not give is the default.
func TestTextureInputsFile(t *testing.T) {
	c := loadTex(t, storeLoad, LoadOptions{})
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
	c := loadTex(t, storeLoad, LoadOptions{})
	out, err := c.Execute(context.Background(), c.Options(Options{}))
	require.NoError(t, err)
	res := out.Entry
	require.Equal(t, []string{"dst"}, res.Names)
	assert.Equal(t, oracle.Pass, res.Verdict)
	e := res.Reference[0]
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
	for _, row := range e.Value.Elems {
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
	c := loadTex(t, storeLoad, LoadOptions{})
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
		o, err := c.Execute(context.Background(), c.Options(Options{Devices: []Device{fakeTexDevice{out}}}))
		require.NoError(t, err)
		assert.Equal(t, tc.want, o.Entry.Verdict, "byte %d = %d", tc.at, tc.b)
		if tc.want == oracle.Mismatch {
			fs := AttributeEntry(c.Entry(), o.Entry)
			require.NotEmpty(t, fs)
		}
	}
}

// A case record holds the textures and samplers; parsing it gives them back.
func TestTextureCaseRecordRoundTrip(t *testing.T) {
	c := loadTex(t, storeLoad, LoadOptions{})
	raw := EntryInputsJSON(c.Entry())
	bufs, texs, smps, err := parseEntryInputs("rec: inputs", raw, c.Module)
	require.NoError(t, err)
	assert.Empty(t, bufs)
	for name, tex := range c.Textures {
		assert.Equal(t, tex, texs[name], name)
	}
	assert.Equal(t, c.Samplers, smps)
	// Made-up textures too (seeded random bytes, a float16 format).
	m := c.Module
	ft, fs, err := FillTextures(FillRandom, 7, m)
	require.NoError(t, err)
	ec := &EntryCase{Module: m, Entry: "main", Textures: ft, Samplers: fs}
	_, texs, smps, err = parseEntryInputs("rec", EntryInputsJSON(ec), m)
	require.NoError(t, err)
	assert.Equal(t, ft, texs)
	assert.Equal(t, fs, smps)
}

func TestTextureFillDeterministic(t *testing.T) {
	c := loadTex(t, storeLoad, LoadOptions{Given: map[string]bool{"fill": true, "seed": true}, Fill: "random", Seed: 3})
	d := loadTex(t, storeLoad, LoadOptions{Given: map[string]bool{"fill": true, "seed": true}, Fill: "random", Seed: 3})
	e := loadTex(t, storeLoad, LoadOptions{Given: map[string]bool{"fill": true, "seed": true}, Fill: "random", Seed: 4})
	assert.Equal(t, c.Textures, d.Textures)
	assert.NotEqual(t, c.Textures["src"].Data, e.Textures["src"].Data)
	assert.Equal(t, [3]int{16, 16, 1}, [3]int{c.Textures["src"].Width, c.Textures["src"].Height, c.Textures["src"].DepthOrLayers})
	assert.Equal(t, Fill("random"), c.Fill)
}

func TestF16RoundTrip(t *testing.T) {
	for _, x := range []float32{0, 1, -2, 0.25, 65504, 1.0 / 1024 / 16384, 3.140625} {
		assert.Equal(t, x, f16ToF32(f32ToF16(x)), "%v", x)
	}
	assert.Equal(t, uint16(0x3c00), f32ToF16(1+1.0/4096), "ties to even")
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
		_, err := Load(wgslPath, LoadOptions{Command: "exec", Inputs: in})
		require.Error(t, err, tc.json)
		assert.Contains(t, err.Error(), tc.want, tc.json)
		assert.True(t, strings.HasPrefix(err.Error(), in+": "), err.Error())
		_, usage := err.(*UsageError)
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
	c := loadTex(t, storeLoad, LoadOptions{})
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	copy(img.Pix, c.Textures["src"].Data[0])
	fh, err := os.Create(filepath.Join(dir, "src.png"))
	require.NoError(t, err)
	require.NoError(t, png.Encode(fh, img))
	require.NoError(t, fh.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "s.inputs.json"), []byte(`{"src": {"png": "src.png"}}`), 0o644))
	d := loadTex(t, wgslPath, LoadOptions{})
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
