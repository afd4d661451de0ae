package report

import (
	"fmt"
	"image"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Pictures of a fragment entry point's render target and textures (issue
// 24 point 7). RunPicture draws a fragment run as its grid of invocations
// coloured by value; beside it, per run (the reference's too), each
// colour attachment (@location output) is drawn as the image it is: one
// texel per pixel of the target, pixel (x, y) the invocation y·width + x,
// scaled and coloured as texture pictures are (f32 channels clamped to
// [0, 1], integer ones normalized over the reference's range; one
// channel grey, two red and green, three or four red, green and blue). A
// pixel the run differs on is framed red; one the reference leaves any
// value is hatched, one whose reference is a set or an interval (a
// linear filter's result, an accuracy bound) half hatched. Each texture
// the entry point samples is drawn as a compute entry point's input is.

// fragAttachment is one colour attachment: output o of each invocation,
// leaves [first, first+n) of it.
type fragAttachment struct {
	name     string // "NAME @location(L)"
	file     string // "target_NAME" ("target" for a bare output)
	o        int
	first, n int
	kind     ir.Kind
}

// fragmentAttachments are the render target's attachments, from the
// reference's first invocation: a struct output's @location members, else
// the output itself (@location(0)).
func fragmentAttachments(res *check.Result) []fragAttachment {
	if len(res.Reference) == 0 {
		return nil
	}
	var out []fragAttachment
	for o, e := range res.Reference[0] {
		t := e.Value.Type
		if t != nil && t.Kind == ir.KindStruct {
			first := 0
			for fi, f := range t.Struct.Fields {
				var c pcell
				appendLeaves(&c, e.Value.Elems[fi])
				if f.HasLocation {
					out = append(out, fragAttachment{fmt.Sprintf("%s @location(%d)", f.Name, f.Location), "target_" + f.Name, o, first, len(c.vals), scalarKind(f.Type)})
				}
				first += len(c.vals)
			}
			continue
		}
		var c pcell
		appendLeaves(&c, e.Value)
		out = append(out, fragAttachment{"@location(0)", "target", o, 0, len(c.vals), scalarKind(t)})
	}
	return out
}

func scalarKind(t *ir.Type) ir.Kind {
	for t != nil && t.Elem != nil {
		t = t.Elem
	}
	if t == nil {
		return ir.KindF32
	}
	return t.Kind
}

// attachmentFormat is the texel format a picture reads an attachment's
// leaves as (their bits are the codes): 32-bit float, uint or sint, with
// 1, 2 or 4 channels (a vec3 is drawn as 4, alpha 1).
func (a fragAttachment) format() (string, int) {
	ch := map[int]int{1: 1, 2: 2, 3: 4, 4: 4}[a.n]
	kind := map[ir.Kind]string{ir.KindU32: "uint", ir.KindI32: "sint", ir.KindBool: "uint"}[a.kind]
	if kind == "" {
		kind = "float"
	}
	return map[int]string{1: "r", 2: "rg", 4: "rgba"}[max(ch, 1)] + "32" + kind, max(ch, 1)
}

// attachmentCodes are attachment a's leaves' bits of every invocation of
// outs (nil where a run has none), padded to the format's channels.
func (a fragAttachment) codes(outs [][]oracle.Expected, pixels, ch int) []uint32 {
	if len(outs) < pixels {
		return nil
	}
	one := ir.F32Val(1).Bits
	codes := make([]uint32, 0, pixels*ch)
	for i := 0; i < pixels; i++ {
		if a.o >= len(outs[i]) {
			return nil
		}
		cs := leafCodes(outs[i][a.o].Value)
		if a.first+a.n > len(cs) {
			return nil
		}
		codes = append(codes, cs[a.first:a.first+a.n]...)
		for c := a.n; c < ch; c++ {
			codes = append(codes, one)
		}
	}
	return codes
}

// fragmentTarget is the texture view an attachment of a w×h target is
// laid out as.
func fragmentTarget(name, format string, w, h int) check.TextureView {
	return check.TextureView{Var: &ir.TextureVar{Name: name}, Texture: &interp.Texture{Format: format, Width: w, Height: h, DepthOrLayers: 1, MipLevels: 1}, Output: 0}
}

// attachmentPicture draws attachment a of a fragment result res (target
// w×h) in run k (k < 0: the reference).
func attachmentPicture(res *check.Result, a fragAttachment, w, h, k int) *image.RGBA {
	format, ch := a.format()
	pixels := w * h
	d := texData{format: format, channels: ch}
	refCodes := a.codes(res.Reference, pixels, ch)
	d.lo, d.hi = codeRange(format, ch, [][]uint32{refCodes})
	run, j := pictureRun(res, k)
	got := refCodes
	if j != nil {
		got = nil
		if j.Failed == "" {
			got = a.codes(run.Outputs, pixels, ch)
		}
	}
	d.codes = [][]uint32{got}
	d.mark, d.anyVal, d.someVal = make([]cellMark, pixels), make([]bool, pixels), make([]bool, pixels)
	for i := 0; i < pixels && i < len(res.Reference); i++ {
		if a.o >= len(res.Reference[i]) {
			continue
		}
		e := res.Reference[i][a.o]
		for l := a.first; l < a.first+a.n; l++ {
			switch {
			case l < len(e.Indeterminate) && e.Indeterminate[l] && e.Set(l).IsAny():
				d.anyVal[i] = true
			case l < len(e.Indeterminate) && e.Indeterminate[l], l < len(e.Tolerance) && e.Tolerance[l] > 0:
				d.someVal[i] = true
			}
		}
	}
	differ := 0
	if j != nil {
		for i := 0; i < pixels; i++ {
			for _, df := range j.Diffs[i] {
				if df.Output == a.o && df.Leaf >= a.first && df.Leaf < a.first+a.n && d.mark[i] != markDiffer {
					d.mark[i] = markDiffer
					differ++
				}
			}
		}
	}
	d.title = fmt.Sprintf("render target %s, %dx%d: %s", a.name, w, h, RunLabel(run))
	switch {
	case j == nil:
		d.subtitle = "reference"
	case j.Failed != "":
		d.subtitle = runSubtitle(j, false, "", 0)
	default:
		d.subtitle = fmt.Sprintf("%s, %d of %d pixels differ", j.Verdict, differ, pixels)
	}
	return drawTexture(textureLayout(fragmentTarget(a.name, format, w, h), false), d, true)
}

// fragmentPicture is one of a fragment run's extra pictures: an
// attachment or an input texture.
type fragmentPicture struct {
	name string // the view's Shows
	file string // the picture file's suffix
	draw func(k int) *image.RGBA
	// at is the texel under a pixel of the picture.
	at func(x, y int) (Texel, bool)
	// text describes a texel of run k.
	text func(k int, t Texel) string
}

// fragmentPictures are a fragment case's extra pictures per run: each
// attachment ("target NAME"), then each texture it samples.
func fragmentPictures(c *testcase.Case, res *check.Result) []fragmentPicture {
	w, h := int(c.Size[0]), int(c.Size[1])
	var out []fragmentPicture
	for _, a := range fragmentAttachments(res) {
		format, _ := a.format()
		tv := fragmentTarget(a.name, format, w, h)
		out = append(out, fragmentPicture{name: "target " + a.name, file: a.file,
			draw: func(k int) *image.RGBA { return attachmentPicture(res, a, w, h, k) },
			at:   func(x, y int) (Texel, bool) { return TexturePictureTexelAt(tv, false, x, y) },
			text: func(k int, t Texel) string { return pixelDescription(c, res, k, t) }})
	}
	tvs, err := check.TextureViews(c)
	if err != nil {
		return out
	}
	runs := texRuns{runs: res.Runs}
	for _, tv := range tvs {
		out = append(out, fragmentPicture{name: tv.Var.Name, file: tv.Var.Name,
			draw: func(k int) *image.RGBA { return texturePicture(runs, c.Func.Name, tv, true, k) },
			at:   func(x, y int) (Texel, bool) { return TexturePictureTexelAt(tv, true, x, y) },
			text: func(k int, t Texel) string { return texelDescription(runs, c.Func.Name, tv, true, k, t) }})
	}
	return out
}

// pixelDescription describes pixel t of the target: the invocation's
// text (invocationText), which the pixel is.
func pixelDescription(c *testcase.Case, res *check.Result, k int, t Texel) string {
	i := t.Y*int(c.Size[0]) + t.X
	return fmt.Sprintf("pixel (%d, %d): ", t.X, t.Y) + invocationText(c.Func, c.Args, res, k, i)
}

// FragmentPictures returns a fragment case's extra pictures (render
// target attachments, sampled textures) of the reference, then of each
// judged run, named as TexturePictureFile names them.
func FragmentPictures(c *testcase.Case, res *check.Result) []NamedPicture {
	pics := fragmentPictures(c, res)
	var out []NamedPicture
	for k := -1; k < len(res.Runs); k++ {
		r, _ := pictureRun(res, k)
		for _, p := range pics {
			out = append(out, NamedPicture{TexturePictureFile(r, p.file), RunLabel(r) + " " + p.name, PNGBytes(p.draw(k))})
		}
	}
	return out
}

// fragmentViews are run k's extra views on base's axes.
func fragmentViews(pics []fragmentPicture, base View, k int) []View {
	var out []View
	for _, p := range pics {
		v := base
		v.Shows, v.Label = p.name, base.Label+" "+p.name
		v.Picture = func() *image.RGBA { return p.draw(k) }
		v.Cell = func(x, y int) (string, bool) {
			t, ok := p.at(x, y)
			if !ok {
				return "", false
			}
			return p.text(k, t), true
		}
		out = append(out, v)
	}
	return out
}
