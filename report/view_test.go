package report

import (
	"image"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// PictureCellAt inverts PictureCell: every pixel of cell i (its grid line
// included) is cell i, and the margins, the title and the grid's empty
// tail are no cell — for each cell size RunPicture uses.
func TestPictureCellAtInvertsPictureCell(t *testing.T) {
	for _, n := range []int{1, 5, 16, 300, 5000} {
		cols := PictureColumns(n)
		for i := 0; i < n; i++ {
			r := PictureCell(n, i)
			for _, p := range []image.Point{r.Min, {r.Max.X - 1, r.Max.Y - 1}, {r.Min.X, r.Max.Y - 1}, {(r.Min.X + r.Max.X) / 2, (r.Min.Y + r.Max.Y) / 2}} {
				got, ok := PictureCellAt(n, p.X, p.Y)
				require.True(t, ok, "n=%d cell %d pixel %v", n, i, p)
				require.Equal(t, i, got, "n=%d pixel %v", n, p)
			}
		}
		first, last := PictureCell(n, 0), PictureCell(n, cols-1)
		for _, p := range []image.Point{{0, 0}, {first.Min.X - 1, first.Min.Y}, {first.Min.X, first.Min.Y - 1}, {last.Max.X, last.Min.Y}} {
			_, ok := PictureCellAt(n, p.X, p.Y)
			assert.False(t, ok, "n=%d pixel %v is outside the grid", n, p)
		}
		if n%cols != 0 { // the last row's empty tail
			r := PictureCell(n, n-1)
			_, ok := PictureCellAt(n, r.Max.X, r.Min.Y)
			assert.False(t, ok, "n=%d: right of the last cell", n)
		}
		r := PictureCell(n, n-1)
		_, ok := PictureCellAt(n, r.Min.X, r.Max.Y)
		assert.False(t, ok, "n=%d: below the last row", n)
	}
}

// EntryPictureCellAt inverts EntryPictureCell over bindings whose rows
// wrap (70 leaves: two rows of EntryColumns) and a scalar binding.
func TestEntryPictureCellAtInvertsEntryPictureCell(t *testing.T) {
	arr := func(n int) ir.Value {
		es := make([]ir.Value, n)
		for i := range es {
			es[i] = ir.U32Val(uint32(i))
		}
		return ir.CompositeVal(ir.ArrayOf(ir.U32, n), es...)
	}
	res := &check.Result{Names: []string{"a", "b", "c"},
		Reference: [][]oracle.Expected{{{Value: arr(70)}, {Value: ir.U32Val(3)}, {Value: arr(2)}}}}
	for o, n := range []int{70, 1, 2} {
		for l := 0; l < n; l++ {
			r := EntryPictureCell(res, o, l)
			for _, p := range []image.Point{r.Min, {r.Max.X - 1, r.Max.Y - 1}} {
				go_, gl, ok := EntryPictureCellAt(res, p.X, p.Y)
				require.True(t, ok, "binding %d leaf %d pixel %v", o, l, p)
				require.Equal(t, [2]int{o, l}, [2]int{go_, gl}, "pixel %v", p)
			}
		}
	}
	// Right of a's second row (6 leaves) and of b's only leaf: no cell.
	r := EntryPictureCell(res, 0, 69)
	_, _, ok := EntryPictureCellAt(res, r.Max.X, r.Min.Y)
	assert.False(t, ok)
	r = EntryPictureCell(res, 1, 0)
	_, _, ok = EntryPictureCellAt(res, r.Max.X, r.Min.Y)
	assert.False(t, ok)
	_, _, ok = EntryPictureCellAt(res, 0, 0)
	assert.False(t, ok)
}

// views builds bare views on the viewer's axes (no pictures).
func views(specs ...[4]string) []View {
	out := make([]View, len(specs))
	for i, s := range specs {
		out[i] = View{Stage: s[0], Adapter: s[1], Function: s[2], Format: s[3], Label: s[1] + " " + s[2] + " " + s[3], Verdict: oracle.Pass}
	}
	return out
}

func at(v *Viewer) [4]string {
	c := v.Current()
	return [4]string{c.Stage, c.Adapter, c.Function, c.Format}
}

// The keys move along one axis each, within the shown stage (adapters)
// or the shown stage and adapter (function, format), keeping the other
// axes where the target has them.
func TestViewerKeys(t *testing.T) {
	c := StageCompute
	vs := views(
		[4]string{c, "interp", "k", "ir"}, [4]string{c, "interp", "k_flat", "ir"},
		[4]string{c, "lavapipe", "k", "wgsl"}, [4]string{c, "lavapipe", "k", "spirv"},
		[4]string{c, "lavapipe", "k_flat", "wgsl"}, [4]string{c, "lavapipe", "k_flat", "spirv"},
		[4]string{c, "swiftshader", "k", "wgsl"}, [4]string{c, "swiftshader", "k_flat", "wgsl"},
	)
	vs[0].Verdict = ""
	vs[5].Verdict = oracle.Mismatch
	v := NewViewer(vs)
	assert.Equal(t, [4]string{c, "lavapipe", "k_flat", "spirv"}, at(v), "the first disagreeing run first")

	steps := []struct {
		key  rune
		want [4]string
	}{
		{KeyFunction, [4]string{c, "lavapipe", "k", "spirv"}},
		{KeyFormat, [4]string{c, "lavapipe", "k", "wgsl"}},
		{KeyFormat, [4]string{c, "lavapipe", "k", "spirv"}},
		{KeyAdapter, [4]string{c, "swiftshader", "k", "wgsl"}}, // no SPIR-V there: the same function
		{KeyFunction, [4]string{c, "swiftshader", "k_flat", "wgsl"}},
		{KeyAdapter, [4]string{c, "interp", "k_flat", "ir"}}, // wraps, keeps the twin
		{KeyAdapterBack, [4]string{c, "swiftshader", "k_flat", "wgsl"}},
		{KeyAdapterBack, [4]string{c, "lavapipe", "k_flat", "wgsl"}}, // never shown: the first format
		{KeyFormat, [4]string{c, "lavapipe", "k_flat", "spirv"}},
		{KeyAdapterBack, [4]string{c, "interp", "k_flat", "ir"}},
		{KeyAdapter, [4]string{c, "lavapipe", "k_flat", "spirv"}}, // a undoes A: the SPIR-V run shown last
	}
	for _, s := range steps {
		r := v.Key(s.key)
		assert.True(t, r.Changed, "key %q", s.key)
		assert.False(t, r.Quit)
		assert.Equal(t, s.want, at(v), "after key %q", s.key)
	}
	r := v.Key(KeyStage)
	assert.False(t, r.Changed)
	assert.Equal(t, "only one stage: compute", r.Message)
	v.Key(KeyAdapter) // swiftshader
	require.Equal(t, "swiftshader", v.Current().Adapter)
	r = v.Key(KeyFormat)
	assert.False(t, r.Changed)
	assert.Equal(t, "only one format of swiftshader: wgsl", r.Message)
	r = v.Key('x')
	assert.False(t, r.Changed || r.Quit)
	assert.Contains(t, r.Message, ViewKeys)
	assert.True(t, v.Key(KeyQuit).Quit)
	assert.True(t, v.Key(KeyEscape).Quit)

	// A second stage: t moves to it, keeping the adapter where it can.
	vs = append(vs, views([4]string{"fragment", "interp", "fs", "ir"}, [4]string{"fragment", "lavapipe", "fs", "wgsl"})...)
	v = NewViewer(vs)
	v.Key(KeyFormat) // lavapipe k_flat wgsl
	require.True(t, v.Key(KeyStage).Changed)
	assert.Equal(t, [4]string{"fragment", "lavapipe", "fs", "wgsl"}, at(v))
	v.Key(KeyAdapter)
	assert.Equal(t, [4]string{"fragment", "interp", "fs", "ir"}, at(v), "adapters of the fragment stage only")
	v.Key(KeyStage)
	assert.Equal(t, [4]string{c, "interp", "k", "ir"}, at(v))
}

// Without a disagreement the viewer opens on the first GPU run, and with
// nothing but the interpreter on the reference.
func TestViewerFirstView(t *testing.T) {
	c := StageCompute
	v := NewViewer(views([4]string{c, "interp", "k", "ir"}, [4]string{c, "interp", "k_flat", "ir"}, [4]string{c, "lavapipe", "k", "wgsl"}))
	assert.Equal(t, "lavapipe", v.Current().Adapter)
	v = NewViewer(views([4]string{c, "interp", "k", "ir"}, [4]string{c, "interp", "k_flat", "ir"}))
	assert.Equal(t, [4]string{c, "interp", "k", "ir"}, at(v))
}

// Keys applies keys in order, printing each message, and stops at q.
func TestViewerKeysBeforeFirstFrame(t *testing.T) {
	c := StageCompute
	v := NewViewer(views([4]string{c, "interp", "k", "ir"}, [4]string{c, "interp", "k_flat", "ir"}, [4]string{c, "lavapipe", "k", "wgsl"}))
	var b strings.Builder
	assert.True(t, v.Keys("zfqf", &b))
	assert.Equal(t, [4]string{c, "lavapipe", "k", "wgsl"}, at(v), "f moves nowhere: one function on lavapipe; nothing after q")
	assert.Equal(t, "key 'z': key 'z' does nothing; keys: "+ViewKeys+"\n", b.String()[:len("key 'z': key 'z' does nothing; keys: "+ViewKeys+"\n")])
	b.Reset()
	assert.False(t, v.Keys("", &b))
	assert.Empty(t, b.String())
}

// A click on a cell of a function kernel's picture prints that
// invocation's arguments, the reference, the run's outputs and the
// difference; a click on the reference's picture prints no output line;
// a click outside the grid prints nothing.
func TestViewerClickInvocation(t *testing.T) {
	f := &ir.Func{Name: "k", Params: []*ir.Param{{Name: "x", T: ir.I32}, {Name: "y", T: ir.F32}}, Result: ir.I32}
	args := [][]ir.Value{{ir.I32Val(1), ir.F32Val(0.5)}, {ir.I32Val(-2), ir.F32Val(4)}, {ir.I32Val(3), ir.F32Val(-1)}}
	ref := [][]oracle.Expected{{{Value: ir.I32Val(10)}}, {{Value: ir.I32Val(20)}}, {{Value: ir.I32Val(30)}}}
	got := [][]oracle.Expected{{{Value: ir.I32Val(10)}}, {{Value: ir.I32Val(21)}}, {{Value: ir.I32Val(30)}}}
	names := []string{"ret"}
	runs, verdict := oracle.Judge(ref, names, []oracle.Run{{Adapter: "lavapipe", Function: "k", Format: oracle.FormatWGSL, Mode: "portable", Outputs: got}})
	res := &check.Result{ABI: &ir.KernelABI{Kernel: "k"}, Names: names, Reference: ref, Runs: runs, Verdict: verdict}

	v := NewViewer(ResultViews(f, args, res))
	require.Equal(t, "lavapipe k wgsl portable", v.Current().Label)
	img := v.Image()
	assert.Equal(t, RunPicture(res, 0).Pix, img.Pix, "the view's picture is RunPicture's")
	x, y := centre(PictureCell(3, 1))
	text, ok := v.Click(x, y)
	require.True(t, ok)
	assert.Equal(t, "invocation 1, lavapipe k wgsl portable\n"+
		"  arguments: x=-2, y=4\n"+
		"  reference: 20\n"+
		"  output:    21\n"+
		"  differs:   ret: reference 20i, got 21i\n", text)
	_, ok = v.Click(0, 0)
	assert.False(t, ok)

	v.Key(KeyAdapter) // the reference
	require.Equal(t, "interp k ir", v.Current().Label)
	x, y = centre(PictureCell(3, 2))
	text, ok = v.Click(x, y)
	require.True(t, ok)
	assert.Equal(t, "invocation 2, interp k ir\n  arguments: x=3, y=-1\n  reference: 30\n", text)
}

// A click on a leaf of an entry point's picture prints the leaf's path,
// its initial value, the reference and the run's value.
func TestViewerClickLeaf(t *testing.T) {
	arr := ir.ArrayOf(ir.U32, 3)
	val := func(xs ...uint32) ir.Value {
		var es []ir.Value
		for _, x := range xs {
			es = append(es, ir.U32Val(x))
		}
		return ir.CompositeVal(arr, es...)
	}
	ref := []oracle.Expected{{Value: val(4, 5, 6)}}
	runs, verdict := oracle.Judge([][]oracle.Expected{ref}, []string{"out"}, []oracle.Run{{Adapter: "swiftshader", Function: "main", Format: oracle.FormatWGSL, Outputs: [][]oracle.Expected{{{Value: val(4, 9, 6)}}}}})
	out := &ir.SharedVar{Name: "out", T: arr, Space: ir.SpaceStorage}
	in, err := ir.NewBuffer(arr, val(1, 2, 3))
	require.NoError(t, err)
	res := &check.Result{Names: []string{"out"}, Reference: [][]oracle.Expected{ref}, Runs: runs, Verdict: verdict,
		ComputeResult: check.ComputeResult{Bindings: []*ir.SharedVar{out}, Inputs: []ir.Buffer{in}}}
	c := &testcase.Case{Kind: testcase.KindCompute, Func: &ir.Func{Name: "main"}, Workgroups: [3]uint32{1, 1, 1}}
	v := NewViewer(EntryViews(c, res))
	require.Equal(t, "swiftshader main wgsl", v.Current().Label)
	x, y := centre(EntryPictureCell(res, 0, 1))
	text, ok := v.Click(x, y)
	require.True(t, ok)
	assert.Equal(t, "out[1], swiftshader main wgsl\n  initial:   2u\n  reference: 5u\n  output:    9u\n  differs:   reference 5u, got 9u\n", text)
	assert.Equal(t, EntryPicture(res, "main", 0).Pix, v.Image().Pix)
}

// TestViewLine: a view's line names its label and verdict, the reference's
// says so; the window's title is the shown view's line.
func TestViewLine(t *testing.T) {
	assert.Equal(t, "interp (reference)", View{Label: "interp"}.Line())
	assert.Equal(t, "wgpu-vulkan:llvmpipe k wgsl (mismatch)", View{Label: "wgpu-vulkan:llvmpipe k wgsl", Verdict: "mismatch"}.Line())
}

// Hover titles the window with the shown view's line and the first line
// of what a click there prints; off every cell, the line alone.
func TestViewerHover(t *testing.T) {
	arr := ir.ArrayOf(ir.U32, 3)
	val := func(xs ...uint32) ir.Value {
		var es []ir.Value
		for _, x := range xs {
			es = append(es, ir.U32Val(x))
		}
		return ir.CompositeVal(arr, es...)
	}
	ref := []oracle.Expected{{Value: val(4, 5, 6)}}
	runs, verdict := oracle.Judge([][]oracle.Expected{ref}, []string{"out"}, []oracle.Run{{Adapter: "swiftshader", Function: "main", Format: oracle.FormatWGSL, Outputs: [][]oracle.Expected{{{Value: val(4, 9, 6)}}}}})
	res := &check.Result{Names: []string{"out"}, Reference: [][]oracle.Expected{ref}, Runs: runs, Verdict: verdict,
		ComputeResult: check.ComputeResult{Bindings: []*ir.SharedVar{{Name: "out", T: arr, Space: ir.SpaceStorage}}, Inputs: []ir.Buffer{{Type: arr, Bytes: []byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}}}}}
	v := NewViewer(EntryViews(&testcase.Case{Kind: testcase.KindCompute, Func: &ir.Func{Name: "main"}, Workgroups: [3]uint32{1, 1, 1}}, res))
	x, y := centre(EntryPictureCell(res, 0, 1))
	assert.Equal(t, "gpudiff view: swiftshader main wgsl (mismatch) | out[1], swiftshader main wgsl", v.Hover(x, y))
	assert.Equal(t, v.Title(), v.Hover(0, 0))
	assert.Equal(t, v.Title(), v.Hover(-1, -1))
}
