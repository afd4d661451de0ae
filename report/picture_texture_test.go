package report

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/oracle"
)

// storeLoad runs shaders/textures/store_load.wgsl (with its inputs file:
// src a 2×2 rgba8unorm texture, dst a written 2×2 rgba8unorm storage
// texture) on the reference and on lavapipe.
func storeLoad(t *testing.T) (*testcase.Case, *check.Result) {
	t.Helper()
	c, err := testcase.Load("../shaders/textures/store_load.wgsl", testcase.LoadOptions{})
	require.NoError(t, err)
	d, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	t.Cleanup(d.Close)
	o, err := check.Execute(context.Background(), c, check.Options{Devices: []check.Device{d}})
	require.NoError(t, err)
	require.NotNil(t, o)
	require.Len(t, o.Runs, 1)
	return c, o
}

func decodePNGBytes(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	return img
}

func rgbaAt(img image.Image, p image.Point) color.RGBA {
	r, g, b, a := img.At(p.X, p.Y).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

func centreOf(r image.Rectangle) image.Point {
	return image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
}

// exec --png's texture pictures, decoded: every texel of the input
// texture src shows its bytes (store_load.inputs.json's channel values
// ×255, rounded: unorm is drawn as is), the written texture dst shows
// each run's codes, the texels whose reference is a set of two codes
// (dst's b = src's g × 0.5, odd codes halved) are hatched on their
// lower-right half, and a texel a run disagrees on is framed red.
func TestTexturePicturesShowTexelsAndMarks(t *testing.T) {
	c, o := storeLoad(t)
	res := o
	pics := CasePictures(o)
	byFile := map[string][]byte{}
	for _, p := range pics {
		byFile[p.File] = p.PNG
	}
	run := res.Runs[0].Run
	for _, f := range []string{"interp-main-ir-src.png", "interp-main-ir-dst.png", TexturePictureFile(run, "src"), TexturePictureFile(run, "dst")} {
		require.Contains(t, byFile, f)
	}
	tvs := res.TextureViews(c.Module, "main")
	require.Len(t, tvs, 2)
	src, dst := tvs[0], tvs[1]
	require.Equal(t, "src", src.Var.Name)
	require.Equal(t, -1, src.Output)
	require.Equal(t, "dst", dst.Var.Name)

	// src's texels, from the inputs file: [0,1,0], [1,0.2,0], [0.4,0.6,0], [0.8,1,0].
	want := [][3]uint8{{0, 255, 0}, {255, 51, 0}, {102, 153, 0}, {204, 255, 0}}
	img := decodePNGBytes(t, byFile[TexturePictureFile(run, "src")])
	for i, w := range want {
		r, ok := TexturePictureTexel(src, true, 0, 0, i%2, i/2)
		require.True(t, ok)
		assert.Equal(t, TextureScale(2, 2), r.Dx(), "a texel is TextureScale pixels wide")
		for _, p := range []image.Point{r.Min, centreOf(r), r.Max.Sub(image.Pt(1, 1))} {
			assert.Equal(t, color.RGBA{w[0], w[1], w[2], 255}, rgbaAt(img, p), "src texel %d pixel %v", i, p)
		}
		got, ok := TexturePictureTexelAt(src, true, r.Min.X, r.Min.Y)
		require.True(t, ok)
		assert.Equal(t, Texel{0, 0, i % 2, i / 2}, got)
	}
	_, ok := TexturePictureTexelAt(src, true, 0, 0)
	assert.False(t, ok, "the title is no texel")

	// dst in the lavapipe run: its centre pixel is the run's codes (r, g, b);
	// texel 1's b (src's g 0.2 × 0.5 = 0.1, 25.5 codes) may be 25 or 26:
	// its lower-right corner is hatched, its upper-left corner is not.
	codes := leafCodes(res.Runs[0].Outputs[0][dst.Output].Value)
	img = decodePNGBytes(t, byFile[TexturePictureFile(run, "dst")])
	for i := 0; i < 4; i++ {
		r, _ := TexturePictureTexel(dst, false, 0, 0, i%2, i/2)
		assert.Equal(t, color.RGBA{uint8(codes[4*i]), uint8(codes[4*i+1]), uint8(codes[4*i+2]), 255}, rgbaAt(img, r.Min.Add(image.Pt(1, 1))), "dst texel %d", i)
	}
	r1, _ := TexturePictureTexel(dst, false, 0, 0, 1, 0)
	assert.Contains(t, HatchColors[:], rgbaAt(img, r1.Max.Sub(image.Pt(1, 1))), "texel 1's reference is a set of two codes")
	assert.True(t, res.Reference[0][dst.Output].Indeterminate[4*1+2], "the reference agrees: texel 1's b is a set")

	// A run that stored 7 into texel (1, 1)'s red: framed red there only.
	bad := res.Runs[0].Run
	v := bad.Outputs[0][dst.Output].Value.Clone()
	v.Elems[1].Elems[1].Elems[0].Bits = 7
	outs := append([]oracle.Expected(nil), bad.Outputs[0]...)
	outs[dst.Output] = oracle.Expected{Value: v}
	bad.Outputs = [][]oracle.Expected{outs}
	res.Runs, res.Verdict = oracle.Judge(res.Reference, res.Names, []oracle.Run{bad})
	require.Equal(t, oracle.Mismatch, res.Verdict)
	img = decodePNG(t, TexturePicture(res, "main", dst, false, 0))
	for i := 0; i < 4; i++ {
		r, _ := TexturePictureTexel(dst, false, 0, 0, i%2, i/2)
		corner := rgbaAt(img, r.Min)
		if i == 3 {
			assert.Equal(t, MismatchColor, corner, "the disagreeing texel is framed")
			assert.Equal(t, color.RGBA{7, uint8(codes[13]), uint8(codes[14]), 255}, rgbaAt(img, r.Min.Add(image.Pt(6, 6))), "inside the frame: the run's value")
		} else {
			assert.NotEqual(t, MismatchColor, corner, "texel %d agrees", i)
		}
	}
}

// The display mapping the legend names, per format kind.
func TestTextureDisplayMapping(t *testing.T) {
	for _, c := range []struct {
		format string
		v      float64
		name   string
		want   uint8
	}{
		{"rgba8unorm", 0.2, "unorm: value as is", 51},
		{"rgba8snorm", 0, "snorm: (v+1)/2", 128},
		{"rgba16float", 3.5, "float: clamped to [0, 1]", 255},
		{"rgba16float", -1, "float: clamped to [0, 1]", 0},
		{"r32uint", 15, "uint: [10, 20] to [0, 255]", 128},
	} {
		name, m := displayMapping(c.format, 10, 20)
		assert.Equal(t, c.name, name)
		assert.Equal(t, c.want, m(c.v), "%s %v", c.format, c.v)
	}
	// bgra8unorm's bytes B, G, R, A are drawn as the colour they stand for.
	_, m := displayMapping("bgra8unorm", 0, 1)
	col, ok := texelColor("bgra8unorm", []uint32{255, 0, 0, 255}, m)
	assert.True(t, ok)
	assert.Equal(t, color.RGBA{0, 0, 255, 255}, col)
	// A NaN float is magenta.
	col, ok = texelColor("r32float", []uint32{0x7fc00000}, m)
	assert.False(t, ok)
	assert.Equal(t, NonFiniteColor, col)
}

// exec --png writes the texture pictures beside the runs' own.
func TestWriteTexturePictures(t *testing.T) {
	_, o := storeLoad(t)
	dir := t.TempDir()
	require.NoError(t, WritePictures(dir, CasePictures(o)))
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	assert.Equal(t, "interp-main-ir-dst.png interp-main-ir-src.png interp-main-ir.png "+
		"wgpu_vulkan_llvmpipe-main-wgsl-portable-dst.png wgpu_vulkan_llvmpipe-main-wgsl-portable-src.png wgpu_vulkan_llvmpipe-main-wgsl-portable.png",
		strings.Join(names, " "))
	b, err := os.ReadFile(filepath.Join(dir, "interp-main-ir-src.png"))
	require.NoError(t, err)
	decodePNGBytes(t, b)
}

// The viewer steps through a run's pictures with p/P (its buffer leaves,
// then each texture), keeps the picture when the adapter changes, and a
// click on a texel prints its place and values: an input's channels
// (store_load.inputs.json's src texel (1, 0) is [1, 0.2, 0, 1]), a
// written texel's reference — dst (1, 0) = (src.r, src(0, 0).r, src.g ×
// 0.5, 1) = (1, 0, 0.1, 1), where 0.1 is 25.5 codes: WGSL allows 25 or 26
// — and the run's value.
func TestViewerTexturePictures(t *testing.T) {
	c, o := storeLoad(t)
	res := o
	v := NewViewer(CaseViews(o))
	label := "wgpu-vulkan:llvmpipe main wgsl portable"
	require.Equal(t, label, v.Current().Label)
	require.Equal(t, ShowsBindings, v.Current().Shows)
	tvs := res.TextureViews(c.Module, "main")
	src, dst := tvs[0], tvs[1]

	require.True(t, v.Key(KeyPicture).Changed)
	require.Equal(t, "src", v.Current().Shows)
	assert.Equal(t, label+" src", v.Current().Label)
	assert.Equal(t, TexturePicture(res, "main", src, true, 0).Pix, v.Image().Pix)
	r, _ := TexturePictureTexel(src, true, 0, 0, 1, 0)
	text, ok := v.Click(centre(r))
	require.True(t, ok)
	assert.Equal(t, "src texel (1, 0) level 0 layer 0, "+label+"\n"+
		"  input:     r 1 (code 255), g 0.2 (code 51), b 0 (code 0), a 1 (code 255) (rgba8unorm, the same in every run)\n", text)
	_, ok = v.Click(0, 0)
	assert.False(t, ok)

	require.True(t, v.Key(KeyPicture).Changed)
	require.Equal(t, "dst", v.Current().Shows)
	r, _ = TexturePictureTexel(dst, false, 0, 0, 1, 0)
	text, ok = v.Click(centre(r))
	require.True(t, ok)
	codes := leafCodes(res.Runs[0].Outputs[0][dst.Output].Value)
	assert.Equal(t, "dst texel (1, 0) level 0 layer 0, "+label+"\n"+
		"  reference: r 1 (code 255), g 0 (code 0), b one of 0.0980392 (code 25) or 0.101961 (code 26), a 1 (code 255)\n"+
		"  output:    r 1 (code 255), g 0 (code 0), b "+channelText("rgba8unorm", codes[6])+", a 1 (code 255)\n", text)
	assert.Contains(t, []uint32{25, 26}, codes[6], "lavapipe stored one of the allowed codes")

	require.True(t, v.Key(KeyAdapter).Changed)
	assert.Equal(t, [4]string{StageCompute, "interp", "main", "ir"}, at(v))
	assert.Equal(t, "dst", v.Current().Shows, "the adapter key keeps the picture")
	assert.Equal(t, TexturePicture(res, "main", dst, false, -1).Pix, v.Image().Pix)
	require.True(t, v.Key(KeyPictureBack).Changed)
	assert.Equal(t, "src", v.Current().Shows)
	require.True(t, v.Key(KeyPictureBack).Changed)
	assert.Equal(t, ShowsBindings, v.Current().Shows)
	require.True(t, v.Key(KeyPictureBack).Changed)
	assert.Equal(t, "dst", v.Current().Shows, "P wraps")
}

// A fragment entry point's pictures (shaders/textures/checker_sample.wgsl
// on lavapipe, 16×16 target): each attachment is drawn as the image it is —
// pixel (x, y)'s colour is invocation 16y + x's output channels as bytes
// (f32 clamped to [0, 1], ×255, rounded) — the sampled checker texture's
// every level is drawn from its bytes, a pixel the run differs on is
// framed red, and the viewer's view of an attachment prints the pixel's
// invocation when clicked.
func TestFragmentPictures(t *testing.T) {
	c, err := testcase.Load("../shaders/textures/checker_sample.wgsl", testcase.LoadOptions{})
	require.NoError(t, err)
	require.Equal(t, testcase.KindFragment, c.Kind)
	d, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	t.Cleanup(d.Close)
	o, err := check.Execute(context.Background(), c, check.Options{Devices: []check.Device{d}})
	require.NoError(t, err)
	res := o
	require.Len(t, res.Runs, 1)
	files := map[string][]byte{}
	for _, p := range CasePictures(o) {
		files[p.File] = p.PNG
	}
	run := res.Runs[0].Run
	for _, f := range []string{"target_near", "target_lin", "checker", "checker_l"} {
		require.Contains(t, files, TexturePictureFile(run, f))
		require.Contains(t, files, TexturePictureFile(ReferenceRun(res), f))
	}
	to8 := func(bits uint32) uint8 {
		return uint8(math.Round(255 * math.Max(0, math.Min(1, float64(math.Float32frombits(bits))))))
	}
	tv := fragmentTarget("near @location(0)", "rgba32float", 16, 16)
	img := decodePNGBytes(t, files[TexturePictureFile(run, "target_near")])
	for _, i := range []int{0, 17, 35, 255} {
		r, ok := TexturePictureTexel(tv, false, 0, 0, i%16, i/16)
		require.True(t, ok)
		cs := leafCodes(res.Runs[0].Outputs[i][0].Value)[:4]
		assert.Equal(t, color.RGBA{to8(cs[0]), to8(cs[1]), to8(cs[2]), 255}, rgbaAt(img, r.Min.Add(image.Pt(2, 2))), "pixel %d", i)
	}
	tvs, err := check.TextureViews(c)
	require.NoError(t, err)
	require.Len(t, tvs, 2)
	checker := tvs[0]
	require.Equal(t, "checker", checker.Var.Name)
	img = decodePNGBytes(t, files[TexturePictureFile(run, "checker")])
	for level := 0; level < 4; level++ {
		codes := testcase.TextureCodes(checker.Texture, level)
		r, ok := TexturePictureTexel(checker, true, level, 0, 1, 0)
		require.True(t, ok, "level %d", level)
		assert.Equal(t, color.RGBA{uint8(codes[4]), uint8(codes[5]), uint8(codes[6]), 255}, rgbaAt(img, centreOf(r)), "level %d texel (1, 0)", level)
	}

	// A run whose pixel (3, 2) red is off: that pixel, only, is framed.
	bad := res.Runs[0].Run
	bad.Outputs = append([][]oracle.Expected(nil), bad.Outputs...)
	v := bad.Outputs[35][0].Value.Clone()
	v.Elems[0].Elems[0].Bits = math.Float32bits(0.123)
	bad.Outputs[35] = []oracle.Expected{{Value: v}}
	res.Runs, res.Verdict = oracle.Judge(res.Reference, res.Names, []oracle.Run{bad})
	require.Equal(t, oracle.Mismatch, res.Verdict)
	atts := fragmentAttachments(res)
	require.Len(t, atts, 2)
	img = decodePNG(t, attachmentPicture(res, atts[0], 16, 16, 0))
	for _, i := range []int{34, 35, 36} {
		r, _ := TexturePictureTexel(tv, false, 0, 0, i%16, i/16)
		assert.Equal(t, i == 35, rgbaAt(img, r.Min) == MismatchColor, "pixel %d framed", i)
	}
	img = decodePNG(t, attachmentPicture(res, atts[1], 16, 16, 0))
	r, _ := TexturePictureTexel(tv, false, 0, 0, 3, 2)
	assert.NotEqual(t, MismatchColor, rgbaAt(img, r.Min), "lin agrees at pixel (3, 2)")

	vw := NewViewer(CaseViews(o))
	require.Equal(t, oracle.Mismatch, vw.Current().Verdict)
	require.True(t, vw.Key(KeyPicture).Changed)
	assert.Equal(t, "target near @location(0)", vw.Current().Shows)
	r, _ = TexturePictureTexel(tv, false, 0, 0, 3, 2)
	text, ok := vw.Click(centreOf(r).X, centreOf(r).Y)
	require.True(t, ok)
	assert.True(t, strings.HasPrefix(text, "pixel (3, 2): invocation 35, "+RunLabel(bad)+"\n"), text)
	assert.Contains(t, text, "differs:   ret.near[0]: reference")
}

// An entry point whose made-up inputs are out of its domain (the
// reference stops at the step limit: nothing is compared) still gets its
// texture pictures: the written texture with no texels ("no output").
func TestTexturePicturesOutOfDomain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dom.wgsl")
	require.NoError(t, os.WriteFile(path, []byte(`@group(0) @binding(0) var<storage, read_write> n: array<u32, 1>;
@group(0) @binding(1) var dst: texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(1) fn main() {
  var i = 0u;
  loop { if (i == n[0]) { break; } i += 1u; }
  textureStore(dst, vec2u(0u), vec4f(f32(i)));
}
`), 0o644))
	c, err := testcase.Load(path, testcase.LoadOptions{Fill: "random", Seed: new(uint64(1))})
	require.NoError(t, err)
	o, err := check.Execute(context.Background(), c, check.CaseOptions(c, check.Options{}))
	require.NoError(t, err)
	require.Equal(t, oracle.OutOfDomain, o.Verdict)
	pics := CasePictures(o)
	require.Len(t, pics, 2)
	assert.Equal(t, "interp-main-ir-dst.png", pics[1].File)
	tv := o.TextureViews(c.Module, "main")[0]
	r, _ := TexturePictureTexel(tv, false, 0, 0, 0, 0)
	assert.Equal(t, MissingColor, rgbaAt(decodePNGBytes(t, pics[1].PNG), centreOf(r)))
	v := NewViewer(CaseViews(o))
	v.Key(KeyPicture)
	text, ok := v.Click(centreOf(r).X, centreOf(r).Y)
	require.True(t, ok)
	assert.Equal(t, "dst texel (0, 0) level 0 layer 0, interp main ir\n", text)
}
