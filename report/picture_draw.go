package report

import (
	"fmt"
	"image"
	"image/draw"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/oracle"
)

// Pictures of a draw case (testcase.KindDraw, issue 39 Deliver 5): per
// colour attachment (the fragment entry point's @location outputs, in
// location order: check.Result.Names), the reference's image and each
// judged run's, as the attachment's texels — one square per pixel of the
// target, row 0 on top (WebGPU #coordinate-systems: framebuffer y points
// down) — coloured as texture pictures are (report/picture_texture.go:
// float channels clamped to [0, 1], rgba8unorm's codes as the unorm value
// they stand for, integer channels normalized over the reference's range;
// one channel grey, two red and green, four red, green and blue, alpha
// not drawn).
//
// Marks, the same on every run's picture since they are the reference's:
// a pixel the draw leaves open (check/draw.go: an edge within the
// rasterizer's latitude, a fragment that may be discarded, flat either's
// provoking vertex, an ambiguous facing) is hatched — fully where the
// reference allows any value, on its lower-right half where it allows a
// set or an interval of values; a pixel exact within a bound (the
// interpolation tolerance) is not marked, since nearly every covered
// pixel has one. A pixel a judged run differs on is framed red (filled
// red when a pixel is under 4 picture pixels). The legend under the image
// says so.

// drawAttachment is attachment i of a draw case's result: its output and
// the texel format the picture reads its leaves as.
type drawAttachment struct {
	i      int
	name   string // "NAME @location(L)"
	file   string // "target_NAME" ("target" for a bare output)
	format harness.AttachmentFormat
}

// drawAttachments are res's colour attachments: the fragment entry
// point's outputs with their formats (the case's Attachments, else each
// output's 32-bit format, check.FragmentAttachment); nil when res is not
// a draw case's.
func drawAttachments(res *check.Result) []drawAttachment {
	c := res.Case
	if c == nil || c.Func == nil || len(res.Reference) == 0 {
		return nil
	}
	outs := wgsl.FragmentOutputs(c.Func)
	var out []drawAttachment
	for i, o := range outs {
		if i >= len(res.Reference[0]) {
			break
		}
		format := harness.AttachmentFormat("")
		if i < len(c.Attachments) {
			format = c.Attachments[i]
		} else if f, err := check.FragmentAttachment(o.T); err == nil {
			format = f
		}
		file := "target"
		if o.Member >= 0 {
			file += "_" + o.Name
		}
		out = append(out, drawAttachment{i: i, name: fmt.Sprintf("%s @location(%d)", o.Name, o.Location), file: file, format: format})
	}
	return out
}

// DrawAttachmentPicture draws colour attachment a (its index among
// res.Names) of a draw case's result res in run k (k < 0: the
// reference): the target's pixels with the marks the package comment
// above describes. It returns nil when res has no attachment a.
func DrawAttachmentPicture(res *check.Result, a, k int) *image.RGBA {
	as := drawAttachments(res)
	if a < 0 || a >= len(as) {
		return nil
	}
	return drawAttachmentPicture(res, as[a], k)
}

func drawAttachmentPicture(res *check.Result, a drawAttachment, k int) *image.RGBA {
	c := res.Case
	w, h := int(c.Size[0]), int(c.Size[1])
	pixels := w * h
	format := string(a.format)
	ch := 4
	switch a.format.TexelSize() {
	case 4:
		if a.format != harness.RGBA8Unorm {
			ch = 1
		}
	case 8:
		ch = 2
	}
	codes := func(outs [][]oracle.Expected) []uint32 {
		if len(outs) < pixels {
			return nil
		}
		out := make([]uint32, 0, pixels*ch)
		for p := 0; p < pixels; p++ {
			if a.i >= len(outs[p]) {
				return nil
			}
			cs := leafCodes(outs[p][a.i].Value)
			if len(cs) != ch {
				return nil
			}
			out = append(out, cs...)
		}
		return out
	}
	d := texData{format: format, channels: ch}
	refCodes := codes(res.Reference)
	d.lo, d.hi = codeRange(format, ch, [][]uint32{refCodes})
	run, j := drawRun(res, k)
	got := refCodes
	if j != nil {
		got = nil
		if j.Failed == "" {
			got = codes(run.Outputs)
		}
	}
	d.codes = [][]uint32{got}
	d.mark, d.anyVal, d.someVal = make([]cellMark, pixels), make([]bool, pixels), make([]bool, pixels)
	open := 0
	for p := 0; p < pixels && p < len(res.Reference); p++ {
		if a.i >= len(res.Reference[p]) {
			continue
		}
		e := res.Reference[p][a.i]
		for l, indet := range e.Indeterminate {
			if !indet {
				continue
			}
			if e.Set(l).IsAny() {
				d.anyVal[p] = true
			} else {
				d.someVal[p] = true
			}
		}
		if d.anyVal[p] || d.someVal[p] {
			open++
		}
	}
	differ := 0
	if j != nil {
		for _, p := range j.Mismatches {
			if p >= pixels {
				continue
			}
			mine, located := false, false
			for _, df := range j.Diffs[p] {
				if df.Path != "invocation" {
					located = true
					mine = mine || df.Output == a.i
				}
			}
			if mine || !located { // a pixel with no value at all differs in every attachment
				d.mark[p] = markDiffer
				differ++
			}
		}
	}
	d.title = fmt.Sprintf("draw %s + %s, attachment %s %s, %dx%d: %s", drawVertexName(res), c.Func.Name, a.name, format, w, h, RunLabel(run))
	switch {
	case j == nil:
		d.subtitle = fmt.Sprintf("reference, %d of %d pixels open", open, pixels)
	case j.Failed != "":
		d.subtitle = runSubtitle(j, false, "", 0)
	default:
		d.subtitle = fmt.Sprintf("%s, %d of %d pixels differ", j.Verdict, differ, pixels)
	}
	img := drawTexture(textureLayout(fragmentTarget(a.name, format, w, h), false), d, true)
	return withLegendLine(img, "hatched: the draw leaves the pixel open (an edge, a maybe-discarded fragment, flat either, facing)")
}

// drawVertexName is the vertex entry point a draw result's case runs.
func drawVertexName(res *check.Result) string {
	if res.Case != nil && res.Case.Vertex != nil {
		return res.Case.Vertex.Name
	}
	return "?"
}

// drawRun is run k of res (k < 0: the reference, named by its fragment
// entry point, as a draw's GPU runs are).
func drawRun(res *check.Result, k int) (oracle.Run, *oracle.Judged) {
	if k < 0 {
		r := oracle.Run{Adapter: "interp", Function: res.Case.Func.Name, Format: oracle.FormatIR, Outputs: res.Reference}
		return r, nil
	}
	return res.Runs[k].Run, &res.Runs[k]
}

// withLegendLine is img with one more legend line of text below it.
func withLegendLine(img *image.RGBA, line string) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, max(b.Dx(), 2*picMargin+7*len([]rune(line))), b.Dy()+picLine))
	fill(out, out.Bounds(), backColor)
	draw.Draw(out, b, img, b.Min, draw.Src)
	drawText(out, picMargin, b.Dy()-picMargin, line)
	return out
}

// DrawPictures returns a draw case's pictures (exec --png): for the
// reference, then each judged run in res.Runs order, one picture per
// colour attachment (DrawAttachmentPicture), named as TexturePictureFile
// names an attachment ("…-target_NAME.png") and labelled "RUN target NAME
// @location(L)". It returns nil for a result that is not a draw's.
func DrawPictures(o *check.Result) []NamedPicture {
	as := drawAttachments(o)
	if len(as) == 0 {
		return nil
	}
	var out []NamedPicture
	for k := -1; k < len(o.Runs); k++ {
		r, _ := drawRun(o, k)
		for _, a := range as {
			out = append(out, NamedPicture{TexturePictureFile(r, a.file), RunLabel(r) + " target " + a.name, PNGBytes(drawAttachmentPicture(o, a, k))})
		}
	}
	return out
}
