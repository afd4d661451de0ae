package report

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"

	xdraw "golang.org/x/image/draw"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Pictures of a compute entry point's textures (issue 24 point 7), beside
// EntryPicture's grid of buffer leaves. Per run (the reference's too),
// TexturePictures draws each texture binding the entry point uses:
//
//   - a texture it only reads (sampled, read-only storage): its contents
//     as dispatched — the same in every run — every mip level (columns,
//     level 0 leftmost) and every array layer, cube face or 3d depth
//     slice (rows), each tile labelled "level L layer Z";
//   - a storage texture it may write: the run's final level 0 (the level
//     gpudiff reads back and judges), one tile per layer, with the texels
//     the run disagrees on framed red (filled red when a texel is under 4
//     pixels), the texels the reference leaves any value hatched grey,
//     and the texels whose reference is a set of allowed codes (a store
//     with two nearest codes) hatched on their lower-right half; a
//     read_write one's initial contents also as an input picture.
//
// A texel is a square of TextureScale pixels (nearest-neighbour scaling by
// golang.org/x/image/draw). Colours: one channel is grey, two are red and
// green, three or four are red, green and blue (alpha is not drawn; the
// viewer's text gives it); bgra8unorm is shown as the colour it stands
// for. A channel's value (testcase.ChannelValue: what the shader reads) maps
// to 0–255 by its format's kind, as the legend says: unorm as is, snorm
// (v+1)/2, float clamped to [0, 1], uint and sint normalized over the
// smallest and largest colour-channel value of the texture in the picture
// (an output's: in the reference). A NaN or infinity is magenta, a texel a
// failed run has no value for dark grey.

// TextureScale is the side in pixels of one texel of a texture whose level
// 0 is w×h texels: 256/max(w, h), within [1, 32].
func TextureScale(w, h int) int {
	return min(32, max(1, 256/max(w, h, 1)))
}

// texTile is one mip level and layer of a texture picture.
type texTile struct {
	level, layer int
	w, h         int             // texels
	at           image.Rectangle // the texels' pixels
	label        string
}

// texLayout is a texture picture's tiles.
type texLayout struct {
	scale  int
	tiles  []texTile
	right  int // the tiles' right edge, in pixels
	bottom int // the tiles' bottom edge
}

// textureLayout lays out tv's tiles: every level when input, else level
// 0 only (a written storage texture's judged contents).
func textureLayout(tv check.TextureView, input bool) texLayout {
	t := tv.Texture
	lay := texLayout{scale: TextureScale(t.Width, t.Height)}
	levels := t.MipLevels
	if !input {
		levels = 1
	}
	dim := texDim(tv)
	word := "layer"
	switch dim {
	case ir.Tex3D:
		word = "slice"
	case ir.TexCube:
		word = "face"
	}
	top := picMargin + 2*picLine
	x := picMargin
	lay.bottom = top
	for l := 0; l < max(levels, 1); l++ {
		w, h, d := texLevelSize(tv, l)
		colW := w * lay.scale
		y := top
		for z := 0; z < d; z++ {
			label := fmt.Sprintf("level %d", l)
			if t.DepthOrLayers > 1 || dim.Arrayed() || dim == ir.TexCube {
				label += fmt.Sprintf(" %s %d", word, z)
			}
			colW = max(colW, 7*len(label))
			at := image.Rect(x, y+picLine, x+w*lay.scale, y+picLine+h*lay.scale)
			lay.tiles = append(lay.tiles, texTile{level: l, layer: z, w: w, h: h, at: at, label: label})
			y = at.Max.Y + picMargin
			lay.bottom = max(lay.bottom, y)
		}
		x += colW + 2*picMargin
		lay.right = max(lay.right, x)
	}
	return lay
}

// texLevelSize is level l's width, height and layers (a 3d texture's
// depth halves with the level; array layers do not).
func texLevelSize(tv check.TextureView, l int) (w, h, d int) {
	t := tv.Texture
	w, h, d = max(1, t.Width>>l), max(1, t.Height>>l), max(1, t.DepthOrLayers)
	if texDim(tv) == ir.Tex3D {
		d = max(1, t.DepthOrLayers>>l)
	}
	return w, h, d
}

// texDim is tv's dimension (2d for a render target, which has no
// binding).
func texDim(tv check.TextureView) ir.TexDim {
	if tv.Var == nil || tv.Var.T == nil || tv.Var.T.Tex == nil {
		return ir.Tex2D
	}
	return tv.Var.T.Tex.Dim
}

// TexturePictureTexel is the rectangle of texel (x, y) of mip level and
// layer in the picture TexturePicture draws of tv (input: its input
// picture), and false where the picture has no such texel.
func TexturePictureTexel(tv check.TextureView, input bool, level, layer, x, y int) (image.Rectangle, bool) {
	lay := textureLayout(tv, input)
	for _, t := range lay.tiles {
		if t.level == level && t.layer == layer && x >= 0 && y >= 0 && x < t.w && y < t.h {
			p := t.at.Min.Add(image.Pt(x*lay.scale, y*lay.scale))
			return image.Rectangle{Min: p, Max: p.Add(image.Pt(lay.scale, lay.scale))}, true
		}
	}
	return image.Rectangle{}, false
}

// A Texel names one texel of a texture picture.
type Texel struct {
	Level, Layer, X, Y int
}

// TexturePictureTexelAt is the texel whose square holds pixel (px, py) of
// the picture TexturePicture draws of tv, and false where none does: the
// inverse of TexturePictureTexel.
func TexturePictureTexelAt(tv check.TextureView, input bool, px, py int) (Texel, bool) {
	lay := textureLayout(tv, input)
	p := image.Pt(px, py)
	for _, t := range lay.tiles {
		if p.In(t.at) {
			return Texel{t.level, t.layer, (px - t.at.Min.X) / lay.scale, (py - t.at.Min.Y) / lay.scale}, true
		}
	}
	return Texel{}, false
}

// texData is what a texture picture shows: per tile, channel codes (nil:
// the run has none), and per texel of level 0 its marks.
type texData struct {
	format   string
	channels int
	codes    [][]uint32 // per level: layer, row, texel, channel
	mark     []cellMark // per level-0 texel (outputs): differ
	anyVal   []bool     // the reference allows any value
	someVal  []bool     // the reference allows a set of codes
	lo, hi   float64    // uint/sint display range
	title    string
	subtitle string
}

// textureData gathers what run k (k < 0: the reference) shows of tv.
func textureData(res texRuns, entry string, tv check.TextureView, input bool, k int) texData {
	t := tv.Texture
	ch, _, _, _, _ := testcase.TextureFormat(t.Format)
	d := texData{format: t.Format, channels: max(ch, 1)}
	run := oracle.Run{Adapter: "interp", Function: entry, Format: oracle.FormatIR}
	var j *oracle.Judged
	if k >= 0 {
		j = &res.runs[k]
		run = j.Run
	}
	dims := fmt.Sprintf("%dx%d", t.Width, t.Height)
	if t.DepthOrLayers > 1 {
		dims += fmt.Sprintf("x%d", t.DepthOrLayers)
	}
	if input {
		for l := 0; l < t.MipLevels; l++ {
			d.codes = append(d.codes, testcase.TextureCodes(t, l))
		}
		d.lo, d.hi = codeRange(t.Format, d.channels, d.codes)
		d.title = fmt.Sprintf("%s input, %s %s, %d level(s)", tv.Var.Name, t.Format, dims, t.MipLevels)
		d.subtitle = "as dispatched to every run; " + RunLabel(run)
		return d
	}
	var ref oracle.Expected // none where the reference did not run (out of domain)
	if tv.Output < len(res.reference) {
		ref = res.reference[tv.Output]
	}
	refCodes := leafCodes(ref.Value)
	d.lo, d.hi = codeRange(t.Format, d.channels, [][]uint32{refCodes})
	var got []uint32
	switch {
	case j == nil:
		got = refCodes
	case len(run.Outputs) == 1 && tv.Output < len(run.Outputs[0]):
		got = leafCodes(run.Outputs[0][tv.Output].Value)
	}
	d.codes = [][]uint32{got}
	n := len(refCodes) / d.channels
	d.mark, d.anyVal, d.someVal = make([]cellMark, n), make([]bool, n), make([]bool, n)
	for l := range refCodes {
		if l < len(ref.Indeterminate) && ref.Indeterminate[l] {
			if len(ref.Set(l).Values) == 0 && !ref.Set(l).HasRange {
				d.anyVal[l/d.channels] = true
			} else {
				d.someVal[l/d.channels] = true
			}
		}
	}
	differ := 0
	if j != nil {
		for _, df := range j.Diffs[0] {
			if df.Output == tv.Output && df.Leaf/d.channels < n && d.mark[df.Leaf/d.channels] != markDiffer {
				d.mark[df.Leaf/d.channels] = markDiffer
				differ++
			}
		}
	}
	d.title = fmt.Sprintf("%s final level 0, %s %s: %s", tv.Var.Name, t.Format, dims, RunLabel(run))
	switch {
	case j == nil:
		d.subtitle = "reference"
	case j.Failed != "":
		d.subtitle = runSubtitle(j, false, "", 0)
	default:
		d.subtitle = fmt.Sprintf("%s, %d of %d texels differ", j.Verdict, differ, n)
	}
	return d
}

// leafCodes is a texture output value's channel codes in leaf order.
func leafCodes(v ir.Value) []uint32 {
	if v.Type == nil {
		return nil
	}
	var out []uint32
	var walk func(v ir.Value)
	walk = func(v ir.Value) {
		if len(v.Elems) > 0 {
			for _, e := range v.Elems {
				walk(e)
			}
			return
		}
		out = append(out, v.Bits)
	}
	walk(v)
	return out
}

// codeRange is the smallest and largest finite colour-channel value of
// codes (the first three channels).
func codeRange(format string, channels int, codes [][]uint32) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, cs := range codes {
		for i, c := range cs {
			if i%channels >= 3 {
				continue
			}
			v := testcase.ChannelValue(format, c)
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo > hi {
		return 0, 1
	}
	return lo, hi
}

// displayMapping says how format's channel values map to 0–255 (the
// legend's line) and maps one.
func displayMapping(format string, lo, hi float64) (string, func(float64) uint8) {
	_, _, kind, _, _ := testcase.TextureFormat(format)
	to8 := func(f float64) uint8 { return uint8(math.Round(255 * math.Max(0, math.Min(1, f)))) }
	switch kind {
	case "unorm":
		return "unorm: value as is", to8
	case "snorm":
		return "snorm: (v+1)/2", func(f float64) uint8 { return to8((f + 1) / 2) }
	case "float":
		return "float: clamped to [0, 1]", to8
	}
	if !(hi > lo) {
		hi = lo + 1
	}
	return fmt.Sprintf("%s: [%s, %s] to [0, 255]", kind, number(lo), number(hi)),
		func(f float64) uint8 { return to8((f - lo) / (hi - lo)) }
}

// texelColor is the colour of a texel's codes cs (memory order), and
// false when a colour channel is NaN or infinite.
func texelColor(format string, cs []uint32, m func(float64) uint8) (color.RGBA, bool) {
	_, _, _, bgra, _ := testcase.TextureFormat(format)
	v := make([]float64, len(cs))
	for i, c := range cs {
		v[i] = testcase.ChannelValue(format, c)
		if i < 3 && (math.IsNaN(v[i]) || math.IsInf(v[i], 0)) {
			return NonFiniteColor, false
		}
	}
	if bgra && len(v) == 4 {
		v[0], v[2] = v[2], v[0]
	}
	switch len(v) {
	case 1:
		g := m(v[0])
		return color.RGBA{g, g, g, 255}, true
	case 2:
		return color.RGBA{m(v[0]), m(v[1]), 0, 255}, true
	case 0:
		return MissingColor, true
	}
	return color.RGBA{m(v[0]), m(v[1]), m(v[2]), 255}, true
}

// TexturePicture draws texture binding tv of an entry point's result in
// run k (k < 0: the reference): with input, its contents as dispatched
// (every level and layer), else a written storage texture's final level
// 0 with the texels the run disagrees on and those the reference leaves
// open marked (the package comment above says how).
func TexturePicture(res *check.Result, entry string, tv check.TextureView, input bool, k int) *image.RGBA {
	return texturePicture(texRuns{res.Runs, res.Reference[0]}, entry, tv, input, k)
}

// texRuns are the judged runs (and, for a written texture's pictures, the
// reference's outputs) a texture picture is drawn from.
type texRuns struct {
	runs      []oracle.Judged
	reference []oracle.Expected
}

func texturePicture(res texRuns, entry string, tv check.TextureView, input bool, k int) *image.RGBA {
	return drawTexture(textureLayout(tv, input), textureData(res, entry, tv, input, k), !input)
}

// drawTexture draws d's tiles laid out as lay, with the marks and their
// legend when marks.
func drawTexture(lay texLayout, d texData, marks bool) *image.RGBA {
	input := !marks
	mapping, m := displayMapping(d.format, d.lo, d.hi)
	chans := [...]string{"", "one channel: grey", "r, g: red, green", "r, g, b", "r, g, b (alpha not drawn)"}[min(d.channels, 4)]
	legend := []string{"display " + mapping, chans}
	w := lay.right
	for _, s := range append(legend, d.title, d.subtitle) {
		w = max(w, 2*picMargin+7*len(s))
	}
	w = max(w, legendWidth+2*picMargin)
	h := lay.bottom + picMargin + 3*picLine + picMargin
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(img, img.Bounds(), backColor)
	drawText(img, picMargin, picMargin, d.title)
	drawText(img, picMargin, picMargin+picLine, d.subtitle)
	for _, t := range lay.tiles {
		drawText(img, t.at.Min.X, t.at.Min.Y-picLine, t.label)
		var codes []uint32 // none: drawn as missing
		if t.level < len(d.codes) {
			codes = d.codes[t.level]
		}
		base := t.layer * t.w * t.h
		small := image.NewRGBA(image.Rect(0, 0, t.w, t.h))
		for y := 0; y < t.h; y++ {
			for x := 0; x < t.w; x++ {
				i := base + y*t.w + x
				c := MissingColor
				if (i+1)*d.channels <= len(codes) {
					c, _ = texelColor(d.format, codes[i*d.channels:(i+1)*d.channels], m)
				}
				small.SetRGBA(x, y, c)
			}
		}
		xdraw.NearestNeighbor.Scale(img, t.at, small, small.Bounds(), xdraw.Src, nil)
		if input {
			continue
		}
		for y := 0; y < t.h; y++ {
			for x := 0; x < t.w; x++ {
				i := base + y*t.w + x
				if i >= len(d.mark) {
					continue
				}
				r := image.Rect(t.at.Min.X+x*lay.scale, t.at.Min.Y+y*lay.scale, t.at.Min.X+(x+1)*lay.scale, t.at.Min.Y+(y+1)*lay.scale)
				switch {
				case d.anyVal[i]:
					hatch(img, r)
				case d.someVal[i]:
					halfHatch(img, r)
				}
				if d.mark[i] == markDiffer {
					if lay.scale < 4 {
						fill(img, r, MismatchColor)
					} else {
						border(img, r, max(1, lay.scale/8))
					}
				}
			}
		}
	}
	y := lay.bottom + picMargin
	for _, s := range legend {
		drawText(img, picMargin, y, s)
		y += picLine
	}
	x := picMargin
	swatch := func(label string, paint func(r image.Rectangle)) {
		paint(image.Rect(x, y+1, x+12, y+13))
		drawText(img, x+15, y, label)
		x += 15 + 7*len(label) + 10
	}
	if !input {
		swatch("differs", func(r image.Rectangle) { fill(img, r, gridColor); border(img, r, 2) })
		swatch("any value", func(r image.Rectangle) { hatch(img, r) })
		swatch("set/interval", func(r image.Rectangle) { fill(img, r, gridColor); halfHatch(img, r) })
	}
	swatch("NaN/inf", func(r image.Rectangle) { fill(img, r, NonFiniteColor) })
	if !input {
		swatch("no output", func(r image.Rectangle) { fill(img, r, MissingColor) })
	}
	return img
}

// halfHatch hatches r's lower-right half (below its anti-diagonal).
func halfHatch(img *image.RGBA, r image.Rectangle) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if (x-r.Min.X)+(y-r.Min.Y) >= r.Dx()-1 {
				img.SetRGBA(x, y, HatchColors[((x+y)/2)%2])
			}
		}
	}
}

// texturePictureSpec is one texture picture of a run: the binding and
// whether it shows the input.
type texturePictureSpec struct {
	tv    check.TextureView
	input bool
}

// texturePictureSpecs are the texture pictures of each run, in order: per
// binding in module order, a read texture's input; a written one's final
// contents, then (read_write) its input.
func texturePictureSpecs(res *check.Result, m *ir.Module, entry string) []texturePictureSpec {
	var out []texturePictureSpec
	for _, tv := range res.TextureViews(m, entry) {
		if tv.Output < 0 {
			out = append(out, texturePictureSpec{tv, true})
			continue
		}
		out = append(out, texturePictureSpec{tv, false})
		if tv.Var.T.Tex.Access == ir.TexReadWrite {
			out = append(out, texturePictureSpec{tv, true})
		}
	}
	return out
}

// name is the picture's suffix: the binding's name, "-input" added for a
// written texture's input.
func (s texturePictureSpec) name() string {
	if s.input && s.tv.Output >= 0 {
		return s.tv.Var.Name + " input"
	}
	return s.tv.Var.Name
}

// TexturePictureFile is the file of run r's picture of texture picture
// name (a binding's name, or "NAME input"): PictureFile(r) without ".png",
// '-', the name with every character outside [A-Za-z0-9._] replaced by
// '_', ".png".
func TexturePictureFile(r oracle.Run, name string) string {
	return strings.TrimSuffix(PictureFile(r), ".png") + "-" + sanitize(name) + ".png"
}

func sanitize(s string) string {
	return strings.Map(func(c rune) rune {
		if c == '.' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			return c
		}
		return '_'
	}, s)
}

// EntryTexturePictures returns the texture pictures of an entry point's
// result: for the reference, then each judged run, one per texture the
// entry point reads (its input) and per storage texture it writes (its
// final level 0; a read_write one's input too).
func EntryTexturePictures(res *check.Result, m *ir.Module, entry string) []NamedPicture {
	specs := texturePictureSpecs(res, m, entry)
	var out []NamedPicture
	for k := -1; k < len(res.Runs); k++ {
		r := oracle.Run{Adapter: "interp", Function: entry, Format: oracle.FormatIR}
		if k >= 0 {
			r = res.Runs[k].Run
		}
		for _, s := range specs {
			out = append(out, NamedPicture{TexturePictureFile(r, s.name()), RunLabel(r) + " " + s.name(),
				PNGBytes(TexturePicture(res, entry, s.tv, s.input, k))})
		}
	}
	return out
}
