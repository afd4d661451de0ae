package check

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// halfTarget draws one triangle over the lower-left half of an 8×8
// target: clip (−1, −1), (1, −1), (−1, 1) are framebuffer (0, 8), (8, 8),
// (0, 0) (WebGPU #coordinate-systems: y down), whose edges are the
// target's left and bottom sides and the diagonal y = x. Every vertex
// passes c = 0.25, so the fragment's colour (c, 1 − c, 0, 1) is the same
// everywhere it is drawn.
const halfTarget = `struct Out {
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

// drawCase is the draw of halfTarget with the vertices' positions.
func drawCase(t *testing.T, src string, pos [][2]float32, c []float32) *testcase.Case {
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

// The reference of a draw, pixel by pixel against the hand derivation of
// halfTarget: below the diagonal (y > x) the fragment's colour, above it
// (y < x) the clear value, on it (the centre (x + ½, x + ½) lies on the
// edge, where WebGPU defines no fill rule) either.
func TestDrawReferenceHalfTarget(t *testing.T) {
	c := drawCase(t, halfTarget, [][2]float32{{-1, -1}, {1, -1}, {-1, 1}}, []float32{0.25, 0.25, 0.25})
	res, err := Execute(context.Background(), c, Options{})
	require.NoError(t, err)
	require.Len(t, res.Reference, 64)
	colour := []float32{0.25, 0.75, 0, 1}
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			e := res.Reference[y*8+x][0]
			got := e.Val()
			switch {
			case y > x:
				assert.Nil(t, e.Indeterminate, "pixel (%d, %d) is inside", x, y)
				for k, want := range colour {
					assert.InDelta(t, want, got.Elems[k].F32(), 1e-6, "pixel (%d, %d) channel %d", x, y, k)
				}
			case y < x:
				assert.Nil(t, e.Indeterminate, "pixel (%d, %d) is outside", x, y)
				for k := range colour {
					assert.Equal(t, float32(0), got.Elems[k].F32(), "pixel (%d, %d) keeps the clear value", x, y)
				}
			default:
				require.NotNil(t, e.Indeterminate, "pixel (%d, %d) lies on the edge", x, y)
				for k, want := range colour {
					if want == 0 {
						assert.False(t, e.Indeterminate[k], "pixel (%d, %d) channel %d: 0 in the clear value and the colour", x, y, k)
						continue
					}
					assert.True(t, e.Indeterminate[k], "pixel (%d, %d) channel %d is open", x, y, k)
					assert.True(t, oracle.Contains(e.Allowed[k], ir.F32Val(0), 0), "the clear value is allowed at (%d, %d)", x, y)
					assert.True(t, oracle.Contains(e.Allowed[k], ir.F32Val(want), 0), "the colour is allowed at (%d, %d)", x, y)
				}
			}
		}
	}
	// A pixel's value that is neither is a difference.
	bad := []oracle.Expected{{Value: ir.CompositeVal(ir.Vec(4, ir.F32), ir.F32Val(0.5), ir.F32Val(0.5), ir.F32Val(0), ir.F32Val(1))}}
	o, _ := oracle.CompareInvocation(res.Reference[3*8+3], bad, res.Names)
	assert.Equal(t, oracle.Differ, o, "on the edge only the clear value or the colour")
}

// The draw as written on lavapipe and SwiftShader (WGSL and gpudiff's
// SPIR-V, original and twins) agrees with the reference.
func TestDrawOnGPUs(t *testing.T) {
	c := drawCase(t, halfTarget, [][2]float32{{-1, -1}, {1, -1}, {-1, 1}}, []float32{0.25, 0.25, 0.25})
	res, err := Execute(context.Background(), c, Options{Devices: texGPUs(t), Flat: true, SPIRV: true})
	require.NoError(t, err)
	assert.Equal(t, oracle.Pass, res.Verdict, "%v", res)
	formats := map[string]int{}
	for _, r := range res.Runs {
		formats[r.Adapter+" "+string(r.Format)]++
		assert.Empty(t, r.Mismatches, "%s %s %s: %s", r.Adapter, r.Function, r.Format, r.Message)
		assert.Empty(t, r.Message, "%s %s %s", r.Adapter, r.Function, r.Format)
	}
	assert.Equal(t, map[string]int{"interp ir": 1, "wgpu-vulkan:llvmpipe wgsl": 2, "wgpu-vulkan:llvmpipe spirv": 2,
		"wgpu-vulkan:swiftshader wgsl": 2, "wgpu-vulkan:swiftshader spirv": 2}, formats, "every pair drawn in both formats")
}

// A draw case's record (NewCaseRecord) is a case file that loads back as
// the same draw (entry points, target, vertex data, counts) and replays
// as recorded.
func TestDrawCaseFileRoundTrip(t *testing.T) {
	c := drawCase(t, halfTarget, [][2]float32{{-1, -1}, {1, -1}, {-1, 1}}, []float32{0.25, 0.5, 0.75})
	res, err := Execute(context.Background(), c, Options{Flat: true})
	require.NoError(t, err)
	rec := res.Record("test")
	assert.Equal(t, "fs", rec.Kernel)
	assert.Equal(t, 64, rec.Invocations)
	path := filepath.Join(t.TempDir(), "half.case.wgsl")
	require.NoError(t, testcase.WriteCase(path, c.Module, rec))
	back, err := testcase.Load(path, testcase.LoadOptions{})
	require.NoError(t, err)
	require.Equal(t, testcase.KindDraw, back.Kind)
	assert.Equal(t, "vs", back.Vertex.Name)
	assert.Equal(t, "fs", back.Func.Name)
	assert.Equal(t, c.Size, back.Size)
	assert.Equal(t, c.Draw.Count, back.Draw.Count)
	require.Len(t, back.VertexInputs, 2)
	for i, vi := range c.VertexInputs {
		assert.Equal(t, vi.Location, back.VertexInputs[i].Location)
		assert.Equal(t, vi.Values, back.VertexInputs[i].Values, "attribute %s", vi.Name)
	}
	again, err := Execute(context.Background(), back, CaseOptions(back, Options{}))
	require.NoError(t, err)
	assert.Equal(t, res.Reference, again.Reference, "the replayed reference is the recorded one")
	assert.Equal(t, ReplayFixed, again.Replay(rec).Outcome, "a pass replays as a pass")
}

// A fragment entry point alone that reads a uniform and discards is drawn
// after gpudiff's full-screen triangle (testcase.FullscreenVertexWGSL):
// every pixel is covered (no ambiguity), a discarded pixel keeps the clear
// value exactly, the others the fragment's value — WGSL #discard-statement,
// by hand: x = px + ½ > 8 discards columns 8 to 15.
func TestFullscreenDrawDiscardsToClear(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fsu.wgsl")
	require.NoError(t, os.WriteFile(path, []byte(`struct U { c: vec4<f32>, }
@group(0) @binding(0) var<uniform> u: U;
@fragment fn main(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
  if (p.x > 8.0) { discard; }
  return vec4<f32>(p.x, p.y, 0.0, 1.0) + u.c * 0.0;
}
`), 0o644))
	c, err := testcase.Load(path, testcase.LoadOptions{})
	require.NoError(t, err)
	require.Equal(t, testcase.KindDraw, c.Kind)
	assert.Equal(t, testcase.FullscreenVertexEntry, c.Vertex.Name)
	res, err := Execute(context.Background(), c, CaseOptions(c, Options{Devices: texGPUs(t), Flat: true, SPIRV: true}))
	require.NoError(t, err)
	assert.Equal(t, oracle.Pass, res.Verdict)
	w := int(c.Size[0])
	for y := 0; y < int(c.Size[1]); y++ {
		for x := 0; x < w; x++ {
			e := res.Reference[y*w+x][0]
			require.Nil(t, e.Indeterminate, "pixel (%d, %d): every centre is inside the full-screen triangle", x, y)
			v := e.Val()
			if x >= 8 {
				assert.Equal(t, []float32{0, 0, 0, 0}, []float32{v.Elems[0].F32(), v.Elems[1].F32(), v.Elems[2].F32(), v.Elems[3].F32()}, "pixel (%d, %d) discarded", x, y)
			} else {
				assert.Equal(t, []float32{float32(x) + 0.5, float32(y) + 0.5, 0, 1}, []float32{v.Elems[0].F32(), v.Elems[1].F32(), v.Elems[2].F32(), v.Elems[3].F32()}, "pixel (%d, %d)", x, y)
			}
		}
	}
}

// A draw whose reference runs past the step limit on made-up inputs (a
// loop bounded by a uniform that never ends: u.x < u.y forever) is out
// of domain, never a pass, and no device draws it (every pixel is
// unfinished); README "Limits".
func TestDrawPastTheStepLimitIsOutOfDomain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "loop.wgsl")
	require.NoError(t, os.WriteFile(path, []byte(`@group(0) @binding(0) var<uniform> u: vec4i;
@fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f {
  var a = u.x;
  loop { if a < u.y { } else { break; } }
  return vec4f(1.0);
}
`), 0o644))
	c, err := testcase.Load(path, testcase.LoadOptions{Size: &[2]uint32{4, 4}})
	require.NoError(t, err)
	require.Equal(t, testcase.KindDraw, c.Kind)
	require.NotEmpty(t, c.Fill, "the uniform is made up")
	res, err := Execute(context.Background(), c, CaseOptions(c, Options{Devices: texGPUs(t), Interp: interp.Options{MaxSteps: 10000}}))
	require.NoError(t, err)
	assert.Equal(t, oracle.OutOfDomain, res.Verdict)
	require.Len(t, res.ReferenceErr, 16)
	assert.Contains(t, res.ReferenceErr[5], "step limit")
	assert.Empty(t, res.Runs, "no device draws what the reference could not finish")
	// Given inputs instead, the same draw is an error.
	c.Fill = ""
	res, err = Execute(context.Background(), c, CaseOptions(c, Options{Interp: interp.Options{MaxSteps: 10000}}))
	require.NoError(t, err)
	assert.Equal(t, oracle.Error, res.Verdict)
}

// A draw stopped has no verdict: the stop is the caller's. (The case this
// guards, a stop while the twin's reference runs after the original's has
// finished, gave a flatten finding on a SIGTERM'd vk-gl-cts shader; a stop
// before either runs is what this test can make happen deterministically.)
func TestDrawStoppedHasNoVerdict(t *testing.T) {
	c := drawCase(t, halfTarget, [][2]float32{{-1, -1}, {1, -1}, {-1, 1}}, []float32{0.25, 0.25, 0.25})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Execute(ctx, c, Options{Flat: true, Interp: interp.Options{Context: ctx}})
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
}
