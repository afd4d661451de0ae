package report

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// A picture shows one run's outputs (or the reference's) as a grid of
// cells coloured by value, with the cells that disagree with the
// reference marked and a legend below (issue 16, "Pictures").
//
// Function kernels (RunPicture): one cell per invocation, laid out
// row-major in a near-square grid (PictureColumns columns); a cell is
// split into vertical stripes, one per output leaf in ABI and
// ir.Type.ComponentTypes order, at most MaxStripes (the first ones). An
// invocation the run disagrees on has a red border (a red cell when cells
// are too small for one); one whose differences are all indeterminate in
// the reference is hatched grey.
//
// Compute entry points (EntryPicture): one row of cells per read_write
// binding, one cell per leaf of its final contents (a row longer than
// EntryColumns wraps); a leaf the run disagrees on is marked red, a leaf
// the reference leaves indeterminate (a race, an order-dependent atomic
// result) is hatched grey.
//
// Colours come from gonum's Kindlmann colour map (moreland.Kindlmann:
// luminance rises linearly from black at the smallest value to white at
// the largest), over the range of the reference's finite determinate
// leaves, so that a run's picture and the reference's share one scale; a
// value outside the range takes the nearer end, a NaN or infinity is
// magenta, a leaf a run has no value for is dark grey. Booleans are 0 and
// 1, integers their value. The same input always gives the same bytes.

// Picture geometry, in pixels.
const (
	// MaxStripes is how many output leaves a function kernel's cell shows.
	MaxStripes = 4
	// EntryColumns is the widest row of an entry point's binding.
	EntryColumns = 64
	picMargin    = 4
	picLine      = 15 // one line of basicfont.Face7x13 text
	legendWidth  = 360
	gradientW    = 256
	gradientH    = 10
)

// Colours of a picture's marks.
var (
	// MismatchColor marks a cell (or leaf) the run disagrees on.
	MismatchColor = color.RGBA{255, 0, 0, 255}
	// NonFiniteColor is a NaN or infinite leaf.
	NonFiniteColor = color.RGBA{255, 0, 255, 255}
	// HatchColors are the two greys of an indeterminate cell's stripes.
	HatchColors = [2]color.RGBA{{128, 128, 128, 255}, {192, 192, 192, 255}}
	// MissingColor is a leaf the run has no value for (a failed run).
	MissingColor = color.RGBA{48, 48, 48, 255}
	backColor    = color.RGBA{255, 255, 255, 255}
	gridColor    = color.RGBA{224, 224, 224, 255}
	textColor    = color.RGBA{0, 0, 0, 255}
)

// cellMark is what a cell (or leaf) says about the run's comparison.
type cellMark uint8

const (
	markNone cellMark = iota
	markDiffer
	markIndeterminate
)

// pcell is one cell: its grid position, its leaves' values (NaN: non-finite)
// and which of them exist.
type pcell struct {
	col, row int
	vals     []float64
	finite   []bool
	missing  bool
	mark     cellMark
}

// picture is a laid-out grid before drawing.
type picture struct {
	title      string
	subtitle   string
	cells      []pcell
	cols, rows int
	cell       int // cell side in pixels
	lo, hi     float64
}

// PictureColumns is the number of columns of a function kernel's grid of
// n invocations: ⌈√n⌉.
func PictureColumns(n int) int {
	c := int(math.Ceil(math.Sqrt(float64(n))))
	if c < 1 {
		c = 1
	}
	return c
}

// cellSide is the side of a cell in a grid of n cells.
func cellSide(n int) int {
	switch {
	case n <= 256:
		return 24
	case n <= 4096:
		return 8
	}
	return 4
}

// PictureCell returns the rectangle of cell i (function kernels: invocation
// i) in the picture RunPicture draws of a result with n invocations.
func PictureCell(n, i int) image.Rectangle {
	cols := PictureColumns(n)
	return cellRect(i%cols, i/cols, cellSide(n))
}

func cellRect(col, row, side int) image.Rectangle {
	x0 := picMargin + col*side
	y0 := picMargin + 2*picLine + row*side
	return image.Rect(x0, y0, x0+side, y0+side)
}

// RunLabel names a run as pictures and file names do:
// adapter/function/format[/fragment][/mode] (a compute run's stage is not
// named).
func RunLabel(r oracle.Run) string {
	s := r.Adapter + " " + r.Function + " " + string(r.Format)
	if r.Stage == oracle.StageFragment {
		s += " " + string(r.Stage)
	}
	if r.Mode != "" {
		s += " " + r.Mode
	}
	return s
}

// PictureFile is the file name of run r's picture: its adapter, function
// and format (and "fragment" for a fragment-stage run, and mode) joined by
// '-', every character outside [A-Za-z0-9._] replaced by '_', with ".png".
func PictureFile(r oracle.Run) string {
	parts := []string{r.Adapter, r.Function, string(r.Format)}
	if r.Stage == oracle.StageFragment {
		parts = append(parts, string(r.Stage))
	}
	if r.Mode != "" {
		parts = append(parts, r.Mode)
	}
	for i, p := range parts {
		parts[i] = sanitize(p)
	}
	return strings.Join(parts, "-") + ".png"
}

// ReferenceRun is the reference as a run, for RunLabel and PictureFile.
func ReferenceRun(res *check.Result) oracle.Run {
	kernel := ""
	if res.ABI != nil {
		kernel = res.ABI.Kernel
	}
	return oracle.Run{Adapter: "interp", Function: kernel, Format: oracle.FormatIR}
}

// RunPicture draws run k of res (k < 0: the reference itself) as a
// function kernel's invocation grid.
func RunPicture(res *check.Result, k int) *image.RGBA {
	n := len(res.Reference)
	p := &picture{cols: PictureColumns(n), cell: cellSide(n)}
	p.rows = (n + p.cols - 1) / p.cols
	p.lo, p.hi = valueRange(res.Reference)
	run, j := pictureRun(res, k)
	p.title, p.subtitle = RunLabel(run), runSubtitle(j, k < 0, "invocations", n)
	var mism, indet map[int]bool
	if j != nil {
		mism, indet = intSet(j.Mismatches), intSet(j.Indeterminate)
	}
	for i := 0; i < n; i++ {
		c := pcell{col: i % p.cols, row: i / p.cols}
		switch {
		case k < 0 && refIndeterminate(res.Reference[i]):
			c.mark = markIndeterminate
		case mism[i]:
			c.mark = markDiffer
		case indet[i]:
			c.mark = markIndeterminate
		}
		if i < len(run.Outputs) {
			for _, o := range run.Outputs[i] {
				appendLeaves(&c, o.Val())
			}
			if len(c.vals) > MaxStripes {
				c.vals, c.finite = c.vals[:MaxStripes], c.finite[:MaxStripes]
			}
		} else {
			c.missing = true
		}
		p.cells = append(p.cells, c)
	}
	return p.draw()
}

// EntryPicture draws run k of an entry point's result (k < 0: the
// reference) as one row of leaves per read_write binding.
func EntryPicture(res *check.Result, entry string, k int) *image.RGBA {
	p := &picture{}
	p.lo, p.hi = valueRange([][]oracle.Expected{res.Reference[0]})
	var run oracle.Run
	var j *oracle.Judged
	if k < 0 {
		run = oracle.Run{Adapter: "interp", Function: entry, Format: oracle.FormatIR, Outputs: [][]oracle.Expected{res.Reference[0]}}
	} else {
		j = &res.Runs[k]
		run = j.Run
	}
	differ := map[[2]int]bool{}
	if j != nil {
		for _, d := range j.Diffs[0] {
			differ[[2]int{d.Output, d.Leaf}] = true
		}
	}
	total, row := 0, 0
	for o, ref := range res.Reference[0] {
		var got pcell
		if len(run.Outputs) > 0 && o < len(run.Outputs[0]) {
			appendLeaves(&got, run.Outputs[0][o].Val())
		}
		var want pcell
		appendLeaves(&want, ref.Val())
		total += len(want.vals)
		for l := range want.vals {
			c := pcell{col: l % EntryColumns, row: row + l/EntryColumns}
			if l < len(got.vals) {
				c.vals, c.finite = got.vals[l:l+1], got.finite[l:l+1]
			} else {
				c.missing = true
			}
			switch {
			case differ[[2]int{o, l}]:
				c.mark = markDiffer
			case ref.Indeterminate != nil && l < len(ref.Indeterminate) && ref.Indeterminate[l]:
				c.mark = markIndeterminate
			}
			if c.col+1 > p.cols {
				p.cols = c.col + 1
			}
			p.cells = append(p.cells, c)
		}
		row += max(1, (len(want.vals)+EntryColumns-1)/EntryColumns)
	}
	p.rows = row
	p.cell = cellSide(total)
	p.title = RunLabel(run)
	p.subtitle = runSubtitle(j, k < 0, "leaves of "+strings.Join(res.Names, ", "), total)
	return p.draw()
}

// EntryPictureCell is the rectangle of leaf l of binding o (0-based, in
// res.Names order) in EntryPicture's image.
func EntryPictureCell(res *check.Result, o, l int) image.Rectangle {
	row, total := 0, 0
	for i, ref := range res.Reference[0] {
		var c pcell
		appendLeaves(&c, ref.Val())
		total += len(c.vals)
		if i < o {
			row += max(1, (len(c.vals)+EntryColumns-1)/EntryColumns)
		}
	}
	return cellRect(l%EntryColumns, row+l/EntryColumns, cellSide(total))
}

// WritePNG encodes img as PNG (image/png) to w.
func WritePNG(w io.Writer, img image.Image) error { return png.Encode(w, img) }

// PNGBytes returns img encoded as PNG.
func PNGBytes(img image.Image) []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, img) // an *image.RGBA into a buffer cannot fail
	return b.Bytes()
}

// ColorMap returns the colour map of pictures over [lo, hi]: gonum's
// moreland.Kindlmann. An empty range (lo == hi) is widened to [lo, lo+1],
// so every value in it is the map's bottom colour (black).
func ColorMap(lo, hi float64) palette.ColorMap {
	m := moreland.Kindlmann()
	if !(hi > lo) {
		hi = lo + 1
	}
	m.SetMax(hi)
	m.SetMin(lo)
	return m
}

func pictureRun(res *check.Result, k int) (oracle.Run, *oracle.Judged) {
	if k < 0 {
		r := ReferenceRun(res)
		r.Outputs = res.Reference
		return r, nil
	}
	return res.Runs[k].Run, &res.Runs[k]
}

func runSubtitle(j *oracle.Judged, ref bool, what string, n int) string {
	switch {
	case ref:
		return fmt.Sprintf("reference, %d %s", n, what)
	case j.Failed != "":
		msg := j.Message
		if len(msg) > 40 {
			msg = msg[:40] + "…"
		}
		return fmt.Sprintf("%s: %s", j.Verdict, msg)
	}
	s := fmt.Sprintf("%s, %d %s", j.Verdict, n, what)
	if len(j.Mismatches) > 0 {
		s += fmt.Sprintf(", %d differ", len(j.Mismatches))
	}
	return s
}

func intSet(xs []int) map[int]bool {
	m := make(map[int]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func refIndeterminate(outs []oracle.Expected) bool {
	for _, o := range outs {
		for _, b := range o.Indeterminate {
			if b {
				return true
			}
		}
	}
	return false
}

// leafValue is a scalar leaf as a number (false: not finite).
func leafValue(v ir.Value) (float64, bool) {
	switch v.Type.Kind {
	case ir.KindF32:
		f := float64(v.F32())
		return f, !math.IsNaN(f) && !math.IsInf(f, 0)
	case ir.KindBool:
		if v.Bool() {
			return 1, true
		}
		return 0, true
	case ir.KindI32:
		return float64(v.I32()), true
	}
	return float64(v.Bits), true
}

// appendLeaves appends v's scalar leaves in component order.
func appendLeaves(c *pcell, v ir.Value) {
	if len(v.Elems) > 0 {
		for _, e := range v.Elems {
			appendLeaves(c, e)
		}
		return
	}
	if v.Type == nil || v.Type.Kind == ir.KindVoid {
		return
	}
	f, ok := leafValue(v)
	c.vals = append(c.vals, f)
	c.finite = append(c.finite, ok)
}

// valueRange is the range of the finite determinate leaves of ref (0, 1
// when there are none).
func valueRange(ref [][]oracle.Expected) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, outs := range ref {
		for _, o := range outs {
			var c pcell
			appendLeaves(&c, o.Val())
			for l, f := range c.vals {
				if !c.finite[l] || o.Indeterminate != nil && l < len(o.Indeterminate) && o.Indeterminate[l] {
					continue
				}
				lo, hi = math.Min(lo, f), math.Max(hi, f)
			}
		}
	}
	if lo > hi {
		return 0, 1
	}
	return lo, hi
}

// valueColor is f's colour in cm (clamped to its range).
func valueColor(cm palette.ColorMap, f float64) color.RGBA {
	f = math.Max(cm.Min(), math.Min(cm.Max(), f))
	c, err := cm.At(f)
	if err != nil {
		return MissingColor
	}
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}
}

func (p *picture) draw() *image.RGBA {
	cm := ColorMap(p.lo, p.hi)
	gridW, gridH := p.cols*p.cell, p.rows*p.cell
	w := max(gridW, legendWidth) + 2*picMargin
	legendTop := picMargin + 2*picLine + gridH + picMargin
	h := legendTop + gradientH + 2*picLine + 2*picLine + picMargin
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(backColor), image.Point{}, draw.Src)
	drawText(img, picMargin, picMargin, p.title)
	drawText(img, picMargin, picMargin+picLine, p.subtitle)
	if gridW > 0 {
		fill(img, image.Rect(picMargin, picMargin+2*picLine, picMargin+gridW, picMargin+2*picLine+gridH), gridColor)
	}
	for _, c := range p.cells {
		r := cellRect(c.col, c.row, p.cell)
		p.drawCell(img, cm, r, c)
	}
	// Legend: the colour scale, then the marks.
	y := legendTop
	for x := 0; x < gradientW; x++ {
		v := p.lo + (p.hi-p.lo)*float64(x)/float64(gradientW-1)
		fill(img, image.Rect(picMargin+x, y, picMargin+x+1, y+gradientH), valueColor(cm, v))
	}
	y += gradientH
	drawText(img, picMargin, y, number(p.lo))
	hiText := number(p.hi)
	drawText(img, picMargin+gradientW-7*len(hiText), y, hiText)
	y += picLine
	drawText(img, picMargin, y, "value (reference range; outside: nearer end)")
	y += picLine
	x := picMargin
	swatch := func(label string, paint func(r image.Rectangle)) {
		paint(image.Rect(x, y+1, x+12, y+13))
		drawText(img, x+15, y, label)
		x += 15 + 7*len(label) + 10
	}
	swatch("differs", func(r image.Rectangle) { fill(img, r, gridColor); border(img, r, 2) })
	swatch("indeterminate", func(r image.Rectangle) { hatch(img, r) })
	swatch("NaN/inf", func(r image.Rectangle) { fill(img, r, NonFiniteColor) })
	swatch("no output", func(r image.Rectangle) { fill(img, r, MissingColor) })
	return img
}

func (p *picture) drawCell(img *image.RGBA, cm palette.ColorMap, r image.Rectangle, c pcell) {
	inner := r
	if p.cell >= 8 {
		inner = image.Rect(r.Min.X, r.Min.Y, r.Max.X-1, r.Max.Y-1) // a 1px grid line
	}
	switch {
	case c.missing || len(c.vals) == 0:
		fill(img, inner, MissingColor)
	default:
		n := len(c.vals)
		for s := range n {
			x0 := inner.Min.X + inner.Dx()*s/n
			x1 := inner.Min.X + inner.Dx()*(s+1)/n
			col := NonFiniteColor
			if c.finite[s] {
				col = valueColor(cm, c.vals[s])
			}
			fill(img, image.Rect(x0, inner.Min.Y, x1, inner.Max.Y), col)
		}
	}
	switch c.mark {
	case markIndeterminate:
		hatch(img, inner)
	case markDiffer:
		if p.cell < 8 {
			fill(img, inner, MismatchColor)
		} else {
			border(img, inner, 2)
		}
	}
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// border draws a MismatchColor frame w pixels wide inside r.
func border(img *image.RGBA, r image.Rectangle, w int) {
	fill(img, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+w), MismatchColor)
	fill(img, image.Rect(r.Min.X, r.Max.Y-w, r.Max.X, r.Max.Y), MismatchColor)
	fill(img, image.Rect(r.Min.X, r.Min.Y, r.Min.X+w, r.Max.Y), MismatchColor)
	fill(img, image.Rect(r.Max.X-w, r.Min.Y, r.Max.X, r.Max.Y), MismatchColor)
}

// hatch paints r with diagonal grey stripes, 2 pixels each.
func hatch(img *image.RGBA, r image.Rectangle) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, HatchColors[((x+y)/2)%2])
		}
	}
}

// drawText draws s with basicfont.Face7x13, its top-left corner at (x, y).
func drawText(img *image.RGBA, x, y int, s string) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(textColor), Face: basicfont.Face7x13,
		Dot: fixed.P(x, y+basicfont.Face7x13.Ascent+1)}
	d.DrawString(s)
}

// number formats a range end compactly.
func number(f float64) string {
	return fmt.Sprintf("%.4g", f)
}

// NamedPicture is one run's picture: its file name (PictureFile), its
// label (RunLabel) and its PNG bytes.
type NamedPicture struct {
	File  string
	Label string
	PNG   []byte
}

// ResultPictures returns the reference's picture, then each judged run's,
// in res.Runs order.
func ResultPictures(res *check.Result) []NamedPicture {
	ref := ReferenceRun(res)
	out := []NamedPicture{{PictureFile(ref), RunLabel(ref), PNGBytes(RunPicture(res, -1))}}
	for k := range res.Runs {
		r := res.Runs[k].Run
		out = append(out, NamedPicture{PictureFile(r), RunLabel(r), PNGBytes(RunPicture(res, k))})
	}
	return out
}

// EntryPictures returns an entry point's pictures: the reference's, then
// each judged run's (skipped runs have none).
func EntryPictures(res *check.Result, entry string) []NamedPicture {
	ref := oracle.Run{Adapter: "interp", Function: entry, Format: oracle.FormatIR}
	out := []NamedPicture{{PictureFile(ref), RunLabel(ref), PNGBytes(EntryPicture(res, entry, -1))}}
	for k := range res.Runs {
		r := res.Runs[k].Run
		out = append(out, NamedPicture{PictureFile(r), RunLabel(r), PNGBytes(EntryPicture(res, entry, k))})
	}
	return out
}
