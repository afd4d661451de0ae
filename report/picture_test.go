package report

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// labToSRGB converts CIE L*a*b* (D65 white) to 8-bit sRGB by the
// textbook formulas (CIE 15; IEC 61966-2-1), independently of the colour
// map's own code.
func labToSRGB(L, a, b float64) [3]float64 {
	fy := (L + 16) / 116
	fx, fz := fy+a/500, fy-b/200
	inv := func(t float64) float64 {
		if t > 6.0/29 {
			return t * t * t
		}
		return 3 * (6.0 / 29) * (6.0 / 29) * (t - 4.0/29)
	}
	x, y, z := 0.95047*inv(fx), inv(fy), 1.08883*inv(fz)
	lin := [3]float64{
		3.2406*x - 1.5372*y - 0.4986*z,
		-0.9689*x + 1.8758*y + 0.0415*z,
		0.0557*x - 0.2040*y + 1.0570*z,
	}
	var out [3]float64
	for i, v := range lin {
		v = math.Max(0, math.Min(1, v))
		if v > 0.0031308 {
			v = 1.055*math.Pow(v, 1/2.4) - 0.055
		} else {
			v *= 12.92
		}
		out[i] = 255 * v
	}
	return out
}

func assertColorNear(t *testing.T, want [3]float64, got color.Color, tol float64, what string) {
	t.Helper()
	r, g, b, _ := got.RGBA()
	have := [3]float64{float64(r >> 8), float64(g >> 8), float64(b >> 8)}
	for i := range want {
		assert.InDelta(t, want[i], have[i], tol, "%s: channel %d of %v, want %v", what, i, have, want)
	}
}

func decodePNG(t *testing.T, img image.Image) image.Image {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, WritePNG(&b, img))
	out, err := png.Decode(&b)
	require.NoError(t, err)
	return out
}

func centre(r image.Rectangle) (int, int) { return (r.Min.X + r.Max.X) / 2, (r.Min.Y + r.Max.Y) / 2 }

// A 4-invocation kernel whose GPU run differs at invocation 3: the decoded
// PNG has the red mark on that cell's border and nowhere on the agreeing
// cells, whose centres have the Kindlmann colours of their values (black at
// the reference's minimum, white at its maximum, and the map's sixth control
// point, Lab(52.73, -19.06, -25.56), at its scalar 0.5273).
func TestRunPictureMarksTheMismatchingInvocation(t *testing.T) {
	const mid = 0.5273108089333358 // moreland.Kindlmann's control scalar
	ref := [][]oracle.Expected{{{Value: ir.F32Val(0)}}, {{Value: ir.F32Val(mid)}}, {{Value: ir.F32Val(1)}}, {{Value: ir.F32Val(0.25)}}}
	got := [][]oracle.Expected{{{Value: ir.F32Val(0)}}, {{Value: ir.F32Val(mid)}}, {{Value: ir.F32Val(1)}}, {{Value: ir.F32Val(7)}}}
	names := []string{"ret"}
	runs, verdict := oracle.Judge(ref, names, []oracle.Run{{Adapter: "lavapipe", Function: "k", Format: oracle.FormatWGSL, Mode: "portable", Outputs: got}})
	require.Equal(t, oracle.Mismatch, verdict)
	res := &check.Result{ABI: &ir.KernelABI{Kernel: "k"}, Names: names, Reference: ref, Runs: runs, Verdict: verdict}

	img := decodePNG(t, RunPicture(res, 0))
	red := [3]float64{255, 0, 0}
	bad := PictureCell(4, 3)
	_, cy := centre(bad)
	assertColorNear(t, red, img.At(bad.Min.X, cy), 0, "left border of the mismatching cell")
	assertColorNear(t, red, img.At(bad.Min.X+1, bad.Min.Y), 0, "top border of the mismatching cell")
	for i, want := range [][3]float64{{0, 0, 0}, labToSRGB(52.73108089333358, -19.064976357731634, -25.558178073848147), {255, 255, 255}} {
		r := PictureCell(4, i)
		x, y := centre(r)
		assertColorNear(t, want, img.At(x, y), 2, "centre of agreeing cell")
		rr, _, _, _ := img.At(r.Min.X, y).RGBA()
		_, gg, _, _ := img.At(r.Min.X, y).RGBA()
		assert.False(t, rr>>8 == 255 && gg>>8 == 0, "agreeing cell %d has no red border", i)
	}

	// The reference's picture has no mark at all; the same input gives the
	// same bytes.
	refImg := decodePNG(t, RunPicture(res, -1))
	assert.Equal(t, refImg.At(centre(bad)), refImg.At(bad.Min.X, cy), "the reference's cell 3 is one colour to its border")
	assert.NotEqual(t, color.RGBA{255, 0, 0, 255}, refImg.At(bad.Min.X, cy))
	assert.Equal(t, PNGBytes(RunPicture(res, 0)), PNGBytes(RunPicture(res, 0)))
	assert.Equal(t, "lavapipe-k-wgsl-portable.png", PictureFile(res.Runs[0].Run))
}

// An entry point's binding of four leaves: the leaf the run differs on is
// marked red, the leaf the reference leaves indeterminate is hatched in the
// two greys, the others take their values' colours.
func TestEntryPictureMarksLeaves(t *testing.T) {
	arr := ir.ArrayOf(ir.U32, 4)
	val := func(xs ...uint32) ir.Value {
		var es []ir.Value
		for _, x := range xs {
			es = append(es, ir.U32Val(x))
		}
		return ir.CompositeVal(arr, es...)
	}
	ref := []oracle.Expected{{Value: val(0, 10, 5, 3), Indeterminate: []bool{false, false, false, true}}}
	runs, verdict := oracle.Judge([][]oracle.Expected{ref}, []string{"out"}, []oracle.Run{{Adapter: "swiftshader", Function: "main", Format: oracle.FormatWGSL, Outputs: [][]oracle.Expected{{{Value: val(0, 10, 9, 4)}}}}})
	require.Equal(t, oracle.Mismatch, verdict)
	res := &check.Result{Names: []string{"out"}, Reference: [][]oracle.Expected{ref}, Runs: runs, Verdict: verdict}

	img := decodePNG(t, EntryPicture(res, "main", 0))
	bad := EntryPictureCell(res, 0, 2)
	_, cy := centre(bad)
	assertColorNear(t, [3]float64{255, 0, 0}, img.At(bad.Min.X, cy), 0, "border of the differing leaf")
	ind := EntryPictureCell(res, 0, 3)
	greys := map[color.RGBA]bool{}
	for x := ind.Min.X; x < ind.Max.X-1; x++ {
		r, g, b, a := img.At(x, ind.Min.Y+3).RGBA()
		greys[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}] = true
	}
	assert.Equal(t, map[color.RGBA]bool{HatchColors[0]: true, HatchColors[1]: true}, greys, "the indeterminate leaf is hatched")
	x, y := centre(EntryPictureCell(res, 0, 0))
	assertColorNear(t, [3]float64{0, 0, 0}, img.At(x, y), 2, "leaf 0 is the minimum: black")
	x, y = centre(EntryPictureCell(res, 0, 1))
	assertColorNear(t, [3]float64{255, 255, 255}, img.At(x, y), 2, "leaf 1 is the maximum: white")
}

// WritePictures writes each picture under its file name, none without a
// directory, and stops at a file it cannot write.
func TestWritePictures(t *testing.T) {
	dir := t.TempDir()
	pics := []NamedPicture{{File: "a.png", PNG: []byte("A")}, {File: "b.png", PNG: []byte("B")}}
	require.NoError(t, WritePictures(dir, pics))
	for _, p := range pics {
		data, err := os.ReadFile(filepath.Join(dir, p.File))
		require.NoError(t, err)
		assert.Equal(t, p.PNG, data)
	}
	require.NoError(t, WritePictures("", pics))
	assert.Error(t, WritePictures(filepath.Join(dir, "a.png"), pics), "a file is no directory")
}

// WriteOutputs writes each output given, skips those without a path,
// and names the flag of one that fails, leaving no file behind.
func TestWriteOutputs(t *testing.T) {
	dir := t.TempDir()
	text := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	fail := func(io.Writer) error { return os.ErrInvalid }
	require.NoError(t, WriteOutputs(Output{"json", filepath.Join(dir, "a"), text("A")}, Output{"html", "", fail}))
	data, err := os.ReadFile(filepath.Join(dir, "a"))
	require.NoError(t, err)
	assert.Equal(t, "A", string(data))
	assert.EqualError(t, WriteOutputs(Output{"junit", filepath.Join(dir, "b"), fail}), "--junit: invalid argument")
	assert.NoFileExists(t, filepath.Join(dir, "b"))
}
