package report

import (
	"fmt"
	"image"
	"io"
	"strings"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// The viewer's model (issue 16 item 3, `gpudiff view`): one case's
// pictures (RunPicture, EntryPicture), one shown at a time, chosen along
// four axes — stage, adapter, function (the kernel or its twin) and
// format — and the text a click on a cell of the shown picture prints.
// It draws pictures but shows nothing: package harness/window puts the
// picture on a screen and reports keys and clicks in its pixels.

// StageCompute is the stage of a view whose run names none: the
// reference's, and compute runs — a function kernel behind the kernel
// ABI's @compute entry point (ARCHITECTURE.md "Kernel ABI"), or a compute
// entry point as written (WGSL #compute-shader-workgroups). A fragment
// run's view has its run's stage, "fragment".
const StageCompute = "compute"

// A View is one run's picture in the viewer: its place on the viewer's
// axes, its label, and how to draw it and read its cells. A stage that
// produces pictures of its own makes Views of its own with the same axes.
type View struct {
	Stage    string // the shader stage the run executed (StageCompute)
	Adapter  string // "interp" (the reference interpreter) or an adapter name
	Function string // the kernel or entry point, or its _flat twin
	Format   string // "ir" (the interpreter), "wgsl" or "spirv" (oracle.Format)
	// Shows is what the picture shows: ShowsBindings (the run's outputs),
	// or one of an entry point's texture pictures (a texture binding's
	// name, "NAME input" for a written one's initial contents).
	Shows string
	// Label names the run as pictures do (RunLabel).
	Label string
	// Verdict is the run's judgement; "" for the reference itself.
	Verdict oracle.Verdict
	// Picture draws the run's picture.
	Picture func() *image.RGBA
	// Cell describes the cell of the picture at pixel (x, y) — for a
	// function kernel the invocation's arguments, the reference and the
	// run's outputs; for an entry point the leaf's initial value, the
	// reference and the run's value — and false where (x, y) is no cell.
	Cell func(x, y int) (string, bool)
}

// ResultViews returns the views of a function kernel's result res (kernel
// f run on args[invocation][param]): the reference's, then each judged
// run's in res.Runs order.
func ResultViews(f *ir.Func, args [][]ir.Value, res *check.Result) []View {
	n := len(res.Reference)
	view := func(k int) View {
		run, j := pictureRun(res, k)
		stage := StageCompute
		if run.Stage != "" {
			stage = string(run.Stage)
		}
		v := View{Stage: stage, Adapter: run.Adapter, Function: run.Function, Format: string(run.Format), Shows: ShowsBindings, Label: RunLabel(run),
			Picture: func() *image.RGBA { return RunPicture(res, k) },
			Cell: func(x, y int) (string, bool) {
				i, ok := PictureCellAt(n, x, y)
				if !ok {
					return "", false
				}
				return invocationText(f, args, res, k, i), true
			}}
		if j != nil {
			v.Verdict = j.Verdict
		}
		return v
	}
	out := []View{view(-1)}
	for k := range res.Runs {
		out = append(out, view(k))
	}
	return out
}

// EntryViews returns the views of a compute entry point's result res for
// case c: the reference's, then each judged run's (skipped runs have no
// picture); each run's picture of its buffer leaves is followed by its
// texture pictures (TexturePicture), one view each.
func EntryViews(c *testcase.Case, res *check.Result) []View {
	specs := texturePictureSpecs(res, c.Module, c.Func.Name)
	view := func(k int) []View {
		run := oracle.Run{Adapter: "interp", Function: c.Func.Name, Format: oracle.FormatIR}
		var verdict oracle.Verdict
		if k >= 0 {
			run, verdict = res.Runs[k].Run, res.Runs[k].Verdict
		}
		base := View{Stage: stageName(c.Module, c.Func.Name), Adapter: run.Adapter, Function: run.Function, Format: string(run.Format), Shows: ShowsBindings, Label: RunLabel(run), Verdict: verdict,
			Picture: func() *image.RGBA { return EntryPicture(res, c.Func.Name, k) },
			Cell: func(x, y int) (string, bool) {
				o, l, ok := EntryPictureCellAt(res, x, y)
				if !ok {
					return "", false
				}
				var j *oracle.Judged
				if k >= 0 {
					j = &res.Runs[k]
				}
				return leafDescription(res, run, j, o, l), true
			}}
		return append([]View{base}, textureViews(texRuns{res.Runs, res.Reference[0]}, c.Func.Name, specs, base, k)...)
	}
	out := view(-1)
	for k := range res.Runs {
		out = append(out, view(k)...)
	}
	return out
}

// stageName is the stage of entry point entry of m as WGSL's attribute
// names it (WGSL #entry-point-decl).
func stageName(m *ir.Module, entry string) string {
	if m == nil {
		return StageCompute
	}
	if f := m.Func(entry); f != nil && f.Stage != ir.StageCompute {
		return fmt.Sprintf("stage %d", f.Stage)
	}
	return StageCompute
}

// PictureCellAt is the invocation whose cell holds pixel (x, y) of
// RunPicture's image of a result with n invocations (grid lines included),
// and false where no cell is: the inverse of PictureCell.
func PictureCellAt(n, x, y int) (int, bool) {
	side, cols := cellSide(n), PictureColumns(n)
	col, row, ok := gridAt(x, y, side)
	if !ok || col >= cols {
		return 0, false
	}
	if i := row*cols + col; i < n {
		return i, true
	}
	return 0, false
}

// EntryPictureCellAt is the binding o (in res.Names order) and leaf l
// whose cell holds pixel (x, y) of EntryPicture's image, and false where
// no cell is: the inverse of EntryPictureCell.
func EntryPictureCellAt(res *check.Result, x, y int) (o, l int, ok bool) {
	counts := make([]int, len(res.Reference[0]))
	total := 0
	for i, ref := range res.Reference[0] {
		var c pcell
		appendLeaves(&c, ref.Val())
		counts[i] = len(c.vals)
		total += counts[i]
	}
	col, row, ok := gridAt(x, y, cellSide(total))
	if !ok || col >= EntryColumns {
		return 0, 0, false
	}
	top := 0
	for o, n := range counts {
		rows := max(1, (n+EntryColumns-1)/EntryColumns)
		if row < top+rows {
			if l := (row-top)*EntryColumns + col; l < n {
				return o, l, true
			}
			return 0, 0, false
		}
		top += rows
	}
	return 0, 0, false
}

// gridAt is the column and row of the grid cell (side pixels square) at
// pixel (x, y) of a picture, false above or left of the grid.
func gridAt(x, y, side int) (col, row int, ok bool) {
	x0, y0 := x-picMargin, y-picMargin-2*picLine
	if x0 < 0 || y0 < 0 {
		return 0, 0, false
	}
	return x0 / side, y0 / side, true
}

// invocationText describes invocation i of run k (k < 0: the reference):
// its arguments, the reference's outputs and the run's, and how they
// compare.
func invocationText(f *ir.Func, args [][]ir.Value, res *check.Result, k, i int) string {
	run, j := pictureRun(res, k)
	var b strings.Builder
	fmt.Fprintf(&b, "invocation %d, %s\n", i, RunLabel(run))
	if i < len(args) {
		parts := make([]string, len(args[i]))
		for p, a := range args[i] {
			parts[p] = oracle.Human(oracle.Expected{Value: a})
			if p < len(f.Params) {
				parts[p] = f.Params[p].Name + "=" + parts[p]
			}
		}
		fmt.Fprintf(&b, "  arguments: %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "  reference: %s\n", oracle.HumanOutputs(res.Reference[i], res.Names))
	for o, e := range res.Reference[i] {
		if e.Why != "" {
			fmt.Fprintf(&b, "  reference %s indeterminate: %s\n", res.Names[o], e.Why)
		}
	}
	if i < len(res.ReferenceErr) && res.ReferenceErr[i] != "" {
		fmt.Fprintf(&b, "  reference did not finish: %s\n", firstLine(res.ReferenceErr[i]))
	}
	if j == nil {
		return b.String()
	}
	switch {
	case j.Failed != "":
		fmt.Fprintf(&b, "  output:    none (%s: %s)\n", j.Failed, firstLine(j.Message))
	case i < len(run.Outputs):
		fmt.Fprintf(&b, "  output:    %s\n", oracle.HumanOutputs(run.Outputs[i], res.Names))
	default:
		fmt.Fprintf(&b, "  output:    none\n")
	}
	for _, d := range j.Diffs[i] {
		fmt.Fprintf(&b, "  differs:   %s: reference %s, got %s\n", d.Path, d.Want, d.Got)
	}
	for _, x := range j.Indeterminate {
		if x == i {
			fmt.Fprintf(&b, "  not compared: indeterminate in the reference\n")
		}
	}
	return b.String()
}

// leafDescription describes leaf l of read_write binding o in run (judged as j;
// nil: run is the reference) of an entry point's result: the leaf's
// initial value, the reference's final value and the run's, and how they
// compare.
func leafDescription(res *check.Result, run oracle.Run, j *oracle.Judged, o, l int) string {
	name := res.Names[o]
	ref := leafStrings(res.Reference[0][o], name)
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s\n", ref[l].path, RunLabel(run))
	for bi, bv := range res.Bindings {
		if bv.Name == name && bi < len(res.Inputs) {
			if in := leafStrings(oracle.Expected{Buffer: res.Inputs[bi]}, name); l < len(in) {
				fmt.Fprintf(&b, "  initial:   %s\n", in[l].s)
			}
		}
	}
	r := ref[l].s
	if ref[l].ind {
		r = "indeterminate"
		if why := res.Reference[0][o].Why; why != "" {
			r += " (" + why + ")"
		}
	}
	fmt.Fprintf(&b, "  reference: %s\n", r)
	if j == nil {
		return b.String()
	}
	switch {
	case j.Failed != "":
		fmt.Fprintf(&b, "  output:    none (%s: %s)\n", j.Failed, firstLine(j.Message))
	case len(j.Outputs) == 1 && o < len(j.Outputs[0]):
		if got := leafStrings(j.Outputs[0][o], name); l < len(got) {
			fmt.Fprintf(&b, "  output:    %s\n", got[l].s)
		}
	default:
		fmt.Fprintf(&b, "  output:    none\n")
	}
	for _, d := range j.Diffs[0] {
		if d.Output == o && d.Leaf == l {
			fmt.Fprintf(&b, "  differs:   reference %s, got %s\n", d.Want, d.Got)
		}
	}
	return b.String()
}

// ViewKeys is the viewer's key map, as its help prints it.
const ViewKeys = "a/A next/previous adapter, f function (original/twin), s format (WGSL/SPIR-V), t stage, p/P next/previous picture (bindings, each texture), q or Esc quit; click a cell or texel to print it"

// Keys a Viewer takes (Viewer.Key).
const (
	KeyAdapter     = 'a'
	KeyAdapterBack = 'A'
	KeyFunction    = 'f'
	KeyFormat      = 's'
	KeyStage       = 't'
	KeyPicture     = 'p'
	KeyPictureBack = 'P'
	KeyQuit        = 'q'
	KeyEscape      = 0x1b
)

// A Viewer is the state of `gpudiff view`: its views and the one shown.
type Viewer struct {
	views []View
	cur   int
	imgs  map[int]*image.RGBA
	shown []int // when each view was last shown (0: never), for ties
	clock int
}

// NewViewer returns a viewer of views (at least one) showing the first
// run that disagrees with the reference, else the first GPU run (adapter
// other than "interp"), else the first view.
func NewViewer(views []View) *Viewer {
	v := &Viewer{views: views, cur: -1, imgs: map[int]*image.RGBA{}}
	for i, w := range views {
		if w.Verdict == oracle.Mismatch {
			v.cur = i
			break
		}
	}
	for i, w := range views {
		if v.cur < 0 && w.Adapter != "interp" {
			v.cur = i
		}
	}
	v.cur = max(v.cur, 0)
	v.shown = make([]int, len(views))
	v.show(v.cur)
	return v
}

func (v *Viewer) show(i int) {
	v.clock++
	v.cur, v.shown[i] = i, v.clock
}

// Current is the view shown.
func (v *Viewer) Current() View { return v.views[v.cur] }

// Title is the window's title for the shown view.
func (v *Viewer) Title() string { return "gpudiff view: " + v.Current().Line() }

// Line names a view and its verdict, as `gpudiff view` prints it:
// "LABEL (VERDICT)", or "LABEL (reference)" for the reference.
func (w View) Line() string {
	if w.Verdict == "" {
		return w.Label + " (reference)"
	}
	return w.Label + " (" + string(w.Verdict) + ")"
}

// Image is the shown view's picture (drawn once per view).
func (v *Viewer) Image() *image.RGBA {
	img, ok := v.imgs[v.cur]
	if !ok {
		img = v.views[v.cur].Picture()
		v.imgs[v.cur] = img
	}
	return img
}

// Click describes the cell at pixel (x, y) of Image, false where no cell
// is.
func (v *Viewer) Click(x, y int) (string, bool) { return v.views[v.cur].Cell(x, y) }

// Hover is the window's title with the pointer at pixel (x, y) of Image:
// Title, then the first line of what a click there would print (a
// texel's binding, coordinates, level and layer; an invocation; a leaf),
// or Title alone off every cell.
func (v *Viewer) Hover(x, y int) string {
	text, ok := v.Click(x, y)
	if !ok {
		return v.Title()
	}
	line, _, _ := strings.Cut(text, "\n")
	return v.Title() + " | " + line
}

// KeyResult is what a key did.
type KeyResult struct {
	Quit    bool   // q or Esc: close the viewer
	Changed bool   // another view is shown
	Message string // when nothing changed: why (one value on that axis, an unknown key)
}

// The viewer's axes, outermost first. Adapter keys move within the shown
// stage, function and format keys within the shown stage and adapter;
// the view chosen on the new value keeps as many of the other axes as it
// can, outer ones first.
const (
	axisStage = iota
	axisAdapter
	axisFunction
	axisFormat
	axisPicture
	numAxes
)

var axisNames = [numAxes]string{"stage", "adapter", "function", "format", "picture"}

// axisRank orders the axes for scoping: function and format are peers;
// pictures move within one run.
var axisRank = [numAxes]int{0, 1, 2, 2, 3}

func (w View) axis(a int) string {
	switch a {
	case axisStage:
		return w.Stage
	case axisAdapter:
		return w.Adapter
	case axisFunction:
		return w.Function
	case axisPicture:
		return w.Shows
	}
	return w.Format
}

// Key applies key r (KeyAdapter, KeyAdapterBack, KeyFunction, KeyFormat,
// KeyStage, KeyPicture, KeyPictureBack, KeyQuit, KeyEscape; anything
// else only says what the keys are).
func (v *Viewer) Key(r rune) KeyResult {
	switch r {
	case KeyQuit, KeyEscape:
		return KeyResult{Quit: true}
	case KeyAdapter:
		return v.move(axisAdapter, 1)
	case KeyAdapterBack:
		return v.move(axisAdapter, -1)
	case KeyFunction:
		return v.move(axisFunction, 1)
	case KeyFormat:
		return v.move(axisFormat, 1)
	case KeyStage:
		return v.move(axisStage, 1)
	case KeyPicture:
		return v.move(axisPicture, 1)
	case KeyPictureBack:
		return v.move(axisPicture, -1)
	}
	return KeyResult{Message: fmt.Sprintf("key %q does nothing; keys: %s", r, ViewKeys)}
}

// Keys applies keys in order, as typed before the first frame, writing
// each one's message to w as `key 'x': …`; it stops at a quitting key and
// reports whether one came.
func (v *Viewer) Keys(keys string, w io.Writer) (quit bool) {
	for _, k := range keys {
		r := v.Key(k)
		if r.Message != "" {
			fmt.Fprintf(w, "key %q: %s\n", k, r.Message)
		}
		if r.Quit {
			return true
		}
	}
	return false
}

// move shows the next (dir 1) or previous (dir -1) value of axis a among
// the views that share the shown one's outer axes: of those with that
// value, the one that keeps most of the other axes, outer ones first, and
// among equals the one shown last (so A undoes a).
func (v *Viewer) move(a, dir int) KeyResult {
	cur := v.views[v.cur]
	var scope []int
	var values []string
	seen := map[string]bool{}
	for i, w := range v.views {
		inScope := true
		for b := range numAxes {
			if axisRank[b] < axisRank[a] && w.axis(b) != cur.axis(b) {
				inScope = false
			}
		}
		if !inScope {
			continue
		}
		scope = append(scope, i)
		if x := w.axis(a); !seen[x] {
			seen[x] = true
			values = append(values, x)
		}
	}
	if len(values) < 2 {
		where := ""
		if axisRank[a] > 0 {
			where = " of " + cur.Adapter
			if a == axisAdapter {
				where = " in stage " + cur.Stage
			}
			if a == axisPicture {
				where = " of " + cur.Label
			}
		}
		return KeyResult{Message: fmt.Sprintf("only one %s%s: %s", axisNames[a], where, cur.axis(a))}
	}
	at := 0
	for i, x := range values {
		if x == cur.axis(a) {
			at = i
		}
	}
	next := values[(at+dir+len(values))%len(values)]
	best, bestScore := -1, -1
	for _, i := range scope {
		w := v.views[i]
		if w.axis(a) != next {
			continue
		}
		score := 0
		for b := range numAxes {
			if b != a {
				score <<= 1
				if w.axis(b) == cur.axis(b) {
					score |= 1
				}
			}
		}
		if score > bestScore || score == bestScore && v.shown[i] > v.shown[best] {
			best, bestScore = i, score
		}
	}
	v.show(best)
	return KeyResult{Changed: true}
}
