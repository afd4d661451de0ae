package report

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// drawHalfTarget draws one triangle over the lower-left half of an 8×8
// target (check/draw_test.go's halfTarget): clip (−1, −1), (1, −1),
// (−1, 1) are framebuffer (0, 8), (8, 8), (0, 0) (WebGPU
// #coordinate-systems: y down), whose edges are the target's left and
// bottom sides and the diagonal y = x. Every vertex passes c = 0.25, so
// the fragment's colour (c, 1 − c, 0, 1) is the same everywhere it is
// drawn.
const drawHalfTarget = `struct Out {
  @builtin(position) pos: vec4<f32>,
  @location(0) c: f32,
}

@vertex fn vs(@location(0) p: vec2<f32>, @location(1) c: f32) -> Out {
  return Out(vec4<f32>(p, 0.5, 1.0), c);
}

@fragment fn fs(@location(0) c: f32) -> @location(0) vec4<f32> {
  return vec4<f32>(c, 1.0 - c, 0.0, 1.0);
}
`

// halfTargetCase is the draw of src (the vertex entry point vs, the
// fragment entry point fs, halfTarget's inputs) with the vertices'
// positions pos and values c (a copy of check/draw_test.go's drawCase).
func halfTargetCase(t *testing.T, src string, pos [][2]float32, c []float32) *testcase.Case {
	t.Helper()
	m, err := wgsl.Parse("half.wgsl", []byte(src))
	require.NoError(t, err)
	var data []byte
	var ps, cs []ir.Value
	for i, p := range pos {
		for _, x := range []float32{p[0], p[1], c[i]} {
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(x))
		}
		ps = append(ps, ir.CompositeVal(ir.Vec(2, ir.F32), ir.F32Val(p[0]), ir.F32Val(p[1])))
		cs = append(cs, ir.F32Val(c[i]))
	}
	return &testcase.Case{Kind: testcase.KindDraw, Module: m, Func: m.Func("fs"), VertexModule: m, Vertex: m.Func("vs"),
		Draw: &harness.Draw{Count: uint32(len(pos)), VertexBuffers: []harness.VertexBuffer{{Data: data, Stride: 12, Attributes: []harness.VertexAttribute{
			{Format: "float32x2", Offset: 0, ShaderLocation: 0}, {Format: "float32", Offset: 8, ShaderLocation: 1}}}}},
		VertexInputs: []testcase.VertexInput{
			{Name: "p", Path: []int{0}, Location: 0, Format: "float32x2", StepMode: "vertex", Values: ps},
			{Name: "c", Path: []int{1}, Location: 1, Format: "float32", StepMode: "vertex", Values: cs},
		},
		Size: [2]uint32{8, 8}}
}

func halfTargetResult(t *testing.T) *check.Result {
	t.Helper()
	c := halfTargetCase(t, drawHalfTarget, [][2]float32{{-1, -1}, {1, -1}, {-1, 1}}, []float32{0.25, 0.25, 0.25})
	res, err := check.Execute(context.Background(), c, check.Options{})
	require.NoError(t, err)
	return res
}

func isHatch(c color.Color) bool {
	return c == color.Color(HatchColors[0]) || c == color.Color(HatchColors[1])
}

// The reference's picture of the half-target draw: the pixels below the
// diagonal (y > x) are the fragment's colour (0.25, 0.75, 0) drawn as
// round(255·v) = (64, 191, 0), those above it the clear value (black),
// and the hatched pixels are exactly the diagonal (y = x: a centre on the
// edge, where WebGPU defines no fill rule, so the reference allows the
// clear value or the colour) — the interpolation bound of the covered
// pixels is no mark.
func TestDrawPictureHatchesTheDiagonal(t *testing.T) {
	res := halfTargetResult(t)
	pics := DrawPictures(res)
	require.Len(t, pics, 1, "the reference's picture of the one attachment, no runs")
	assert.Equal(t, "interp-fs-ir-target.png", pics[0].File)
	assert.Equal(t, "interp fs ir target ret @location(0)", pics[0].Label)
	img, err := png.Decode(bytes.NewReader(pics[0].PNG))
	require.NoError(t, err)
	tv := fragmentTarget("ret @location(0)", "rgba32float", 8, 8)
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			r, ok := TexturePictureTexel(tv, false, 0, 0, x, y)
			require.True(t, ok)
			corner := img.At(r.Max.X-1, r.Max.Y-1) // in the lower-right half a set's hatch covers
			top := img.At(r.Min.X, r.Min.Y)        // outside it
			if x == y {
				assert.True(t, isHatch(corner), "pixel (%d, %d) on the diagonal is hatched", x, y)
				continue
			}
			assert.False(t, isHatch(corner), "pixel (%d, %d) off the diagonal is not hatched", x, y)
			want := color.RGBA{0, 0, 0, 255}
			if y > x {
				want = color.RGBA{64, 191, 0, 255}
			}
			assert.Equal(t, color.Color(want), corner, "pixel (%d, %d)", x, y)
			assert.Equal(t, color.Color(want), top, "pixel (%d, %d)", x, y)
		}
	}
}

// A run that differs at one pixel inside the triangle, (1, 5), is framed
// there and nowhere else; a run of the reference's own values has no
// frame; both keep the reference's hatches.
func TestDrawPictureFramesTheDisagreement(t *testing.T) {
	res := halfTargetResult(t)
	colour := func(r, g, b, a float32) oracle.Expected {
		return oracle.Expected{Value: ir.CompositeVal(ir.Vec(4, ir.F32), ir.F32Val(r), ir.F32Val(g), ir.F32Val(b), ir.F32Val(a))}
	}
	outs := func(bad int) [][]oracle.Expected {
		o := make([][]oracle.Expected, 64)
		for p := range o {
			x, y := p%8, p/8
			switch {
			case p == bad:
				o[p] = []oracle.Expected{colour(0.5, 0.5, 0, 1)}
			case y > x:
				o[p] = []oracle.Expected{colour(0.25, 0.75, 0, 1)}
			default:
				o[p] = []oracle.Expected{colour(0, 0, 0, 0)}
			}
		}
		return o
	}
	runs := []oracle.Run{
		{Adapter: "good", Function: "fs", Format: oracle.FormatWGSL, Stage: oracle.StageFragment, Outputs: outs(-1)},
		{Adapter: "bad", Function: "fs", Format: oracle.FormatWGSL, Stage: oracle.StageFragment, Outputs: outs(5*8 + 1)},
	}
	var verdict oracle.Verdict
	res.Runs, verdict = oracle.Judge(res.Reference, res.Names, runs)
	require.Equal(t, oracle.Mismatch, verdict)
	require.Equal(t, oracle.Pass, res.Runs[0].Verdict)
	require.Equal(t, []int{5*8 + 1}, res.Runs[1].Mismatches)

	pics := DrawPictures(res)
	require.Len(t, pics, 3, "the reference's, then each run's")
	assert.Equal(t, "good-fs-wgsl-fragment-target.png", pics[1].File)
	tv := fragmentTarget("ret @location(0)", "rgba32float", 8, 8)
	for k, pic := range pics[1:] {
		img, err := png.Decode(bytes.NewReader(pic.PNG))
		require.NoError(t, err)
		for y := 0; y < 8; y++ {
			for x := 0; x < 8; x++ {
				r, _ := TexturePictureTexel(tv, false, 0, 0, x, y)
				framed := img.At(r.Min.X, r.Min.Y) == color.Color(MismatchColor)
				assert.Equal(t, k == 1 && x == 1 && y == 5, framed, "run %d pixel (%d, %d)", k, x, y)
				if x == y {
					assert.True(t, isHatch(img.At(r.Max.X-2, r.Max.Y-5)), "run %d pixel (%d, %d) keeps the reference's hatch", k, x, y)
				}
			}
		}
	}
	assert.Nil(t, DrawAttachmentPicture(res, 1, 0), "no second attachment")
}

// An rgba8unorm attachment is drawn from its codes: a fragment writing
// (1, 0, 0, 1) is code (255, 0, 0, 255), drawn red, and the diagonal is
// hatched.
func TestDrawPictureRGBA8Unorm(t *testing.T) {
	src := `@vertex fn vs(@location(0) p: vec2<f32>, @location(1) c: f32) -> @builtin(position) vec4<f32> {
  return vec4<f32>(p, 0.5, 1.0);
}

@fragment fn fs() -> @location(0) vec4<f32> {
  return vec4<f32>(1.0, 0.0, 0.0, 1.0);
}
`
	c := halfTargetCase(t, src, [][2]float32{{-1, -1}, {1, -1}, {-1, 1}}, []float32{0, 0, 0})
	c.Attachments = []harness.AttachmentFormat{harness.RGBA8Unorm}
	res, err := check.Execute(context.Background(), c, check.Options{})
	require.NoError(t, err)
	img := DrawAttachmentPicture(res, 0, -1)
	require.NotNil(t, img)
	tv := fragmentTarget("ret @location(0)", "rgba8unorm", 8, 8)
	for _, p := range []image.Point{{1, 5}, {5, 1}, {3, 3}} {
		r, _ := TexturePictureTexel(tv, false, 0, 0, p.X, p.Y)
		at := img.At(r.Max.X-1, r.Max.Y-1)
		switch {
		case p.X == p.Y:
			assert.True(t, isHatch(at), "%v", p)
		case p.Y > p.X:
			assert.Equal(t, color.Color(color.RGBA{255, 0, 0, 255}), at, "%v", p)
		default:
			assert.Equal(t, color.Color(color.RGBA{0, 0, 0, 255}), at, "%v", p)
		}
	}
}
