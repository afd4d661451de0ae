package check

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// pixelValue is leaf k of output 0 of pixel (x, y) of a w-wide reference,
// with its tolerance (0 when exact) and whether it is indeterminate.
func pixelValue(res *Result, w, x, y, k int) (v float64, tol float64, open bool) {
	e := res.Reference[y*w+x][0]
	if k < len(e.Tolerance) {
		tol = e.Tolerance[k]
	}
	return float64(e.Val().Elems[k].F32()), tol, e.Indeterminate != nil && e.Indeterminate[k]
}

// A fragment-only file reading @location(0) uv: vec2f is drawn after
// gpudiff's vertex module for it (testcase.FullscreenVertexFor): uv is
// (0, 1), (2, 1), (0, −1) at clip (−1, −1), (3, −1), (−1, 3), w 1. By
// hand, the barycentric weights at clip (x, y) are λ1 = (x + 1)/4, λ2 =
// (y + 1)/4, λ0 = 1 − λ1 − λ2, so u = 2λ1 = (x + 1)/2 and v = λ0 + λ1 −
// λ2 = (1 − y)/2 (perspective and linear agree, w being 1). On a 4×2
// target pixel (0, 0)'s centre is clip (2·0.5/4 − 1, 1 − 2·0.5/2) =
// (−0.75, 0.5): uv (0.125, 0.25); pixel (3, 1)'s is (0.75, −0.5): uv
// (0.875, 0.75). The reference holds them within its interpolation
// tolerance (‖∇f‖₁/32: 1/128 for u, 1/64 for v), lavapipe and SwiftShader
// agree (WGSL and gpudiff's SPIR-V, original and twin), and a value 0.1
// off differs.
func TestFullscreenDrawInterpolatesMadeUpVaryings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "uv.wgsl")
	require.NoError(t, os.WriteFile(path, []byte("@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {\n  return vec4f(uv, 0.0, 1.0);\n}\n"), 0o644))
	size := [2]uint32{4, 2}
	c, err := testcase.Load(path, testcase.LoadOptions{FragmentEntry: "main", Size: &size})
	require.NoError(t, err)
	require.Equal(t, testcase.KindDraw, c.Kind)
	assert.Equal(t, testcase.FullscreenVertexEntry, c.Vertex.Name)
	res, err := Execute(context.Background(), c, CaseOptions(c, Options{Devices: texGPUs(t), Flat: true, SPIRV: true}))
	require.NoError(t, err)
	assert.Equal(t, oracle.Pass, res.Verdict)
	for _, p := range []struct {
		x, y int
		uv   [2]float64
	}{{0, 0, [2]float64{0.125, 0.25}}, {3, 1, [2]float64{0.875, 0.75}}} {
		for k, want := range p.uv {
			v, tol, open := pixelValue(res, 4, p.x, p.y, k)
			assert.False(t, open, "pixel (%d, %d) uv[%d]: every centre is inside", p.x, p.y, k)
			assert.InDelta(t, want, v, 1e-6, "pixel (%d, %d) uv[%d]", p.x, p.y, k)
			// README "How a draw is judged": ‖∇f‖₁·δ for δ = 1/32 px plus a
			// few ULP; ∇u = (1/4, 0), ∇v = (0, 1/2) per pixel.
			grad := []float64{0.25, 0.5}[k]
			assert.InDelta(t, grad/32, tol, 1e-5, "pixel (%d, %d) uv[%d]: the interpolation tolerance", p.x, p.y, k)
		}
		off := ir.CompositeVal(ir.Vec(4, ir.F32), ir.F32Val(float32(p.uv[0]+0.1)), ir.F32Val(float32(p.uv[1])), ir.F32Val(0), ir.F32Val(1))
		o, _ := oracle.CompareInvocation(res.Reference[p.y*4+p.x], []oracle.Expected{{Value: off}}, res.Names)
		assert.Equal(t, oracle.Differ, o, "pixel (%d, %d): u 0.1 off", p.x, p.y)
	}
}

// webgpu-samples' computeBoids/sprite.wgsl on made-up attributes
// (testcase's spriteWGSL): a_particleVel and a_pos are (1/8, 1/8), so
// angle = −atan2(1/8, 1/8) = −π/4 and pos = (√2/8, 0); each corner of
// the first made-up triangle, framebuffer (2, 2), (2, 12), (7, 12) on the
// 16×16 target, moves √2/8 in clip x, √2 ≈ 1.414 px right: (3.41, 2),
// (3.41, 12), (8.41, 12). Pixel (4, 10) (centre (4.5, 10.5)) is inside it
// (4.5 − 3.41 ≤ (10.5 − 2)/2), pixel (1, 10) outside (the clear value).
// The colour, by hand: 1 − sin(1 − π/4) − 1/8 = 0.66203,
// 100·√2/8 − 1/8 + 0.1 = 17.65266, 1/8 + cos(1/2 − π/4) = 1.08455, 1.
func TestBoidsMadeUpDrawIsDetermined(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sprite.wgsl")
	require.NoError(t, os.WriteFile(path, []byte(spriteVertexWGSL), 0o644))
	c, err := testcase.Load(path, testcase.LoadOptions{})
	require.NoError(t, err)
	require.Equal(t, testcase.KindDraw, c.Kind)
	res, err := Execute(context.Background(), c, CaseOptions(c, Options{}))
	require.NoError(t, err)
	a := -math.Pi / 4
	want := []float64{1 - math.Sin(a+1) - 0.125, 100*math.Sqrt2/8 - 0.125 + 0.1, 0.125 + math.Cos(a+0.5), 1}
	for k, w := range want {
		v, tol, open := pixelValue(res, 16, 4, 10, k)
		assert.False(t, open, "pixel (4, 10) channel %d is inside the moved triangle", k)
		assert.InDelta(t, w, v, 1e-4+tol, "pixel (4, 10) channel %d", k)
		v, _, open = pixelValue(res, 16, 1, 10, k)
		assert.False(t, open, "pixel (1, 10) channel %d is outside", k)
		assert.Equal(t, 0.0, v, "pixel (1, 10) channel %d keeps the clear value", k)
	}
}

// spriteVertexWGSL is webgpu-samples' sample/computeBoids/sprite.wgsl.
const spriteVertexWGSL = `struct VertexOutput {
  @builtin(position) position : vec4f,
  @location(4) color : vec4f,
}

@vertex
fn vert_main(
  @location(0) a_particlePos : vec2f,
  @location(1) a_particleVel : vec2f,
  @location(2) a_pos : vec2f
) -> VertexOutput {
  let angle = -atan2(a_particleVel.x, a_particleVel.y);
  let pos = vec2(
    (a_pos.x * cos(angle)) - (a_pos.y * sin(angle)),
    (a_pos.x * sin(angle)) + (a_pos.y * cos(angle))
  );

  var output : VertexOutput;
  output.position = vec4(pos + a_particlePos, 0.0, 1.0);
  output.color = vec4(
    1.0 - sin(angle + 1.0) - a_particleVel.y,
    pos.x * 100.0 - a_particleVel.y + 0.1,
    a_particleVel.x + cos(angle + 0.5),
    1.0);
  return output;
}

@fragment
fn frag_main(@location(4) color : vec4f) -> @location(0) vec4f {
  return color;
}
`

// webgpu-samples' animometer.wgsl (its vertex stage) turns its made-up
// triangles by angle = 2π·fade, fade = 2·((scalarOffset +
// time·scalar/10) mod 1) where that is below 1/2. Made-up uniforms in
// eighths (time 1/8; scale 1/8, offsets 1/4 and 3/8, scalar 1/2,
// scalarOffset 1/8): fade = 2·(1/8 + 1/160) = 0.2625, an angle of 1.65,
// inside [−π, π] where WGSL bounds sin and cos — so every vertex has a
// bounded position and the draw is judged (with quarters, fade 0.55 and
// an angle past π: sin and cos any value, the draw refused).
func TestAnimometerMadeUpAngleIsBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "animometer.wgsl")
	require.NoError(t, os.WriteFile(path, []byte(`struct Time { value : f32, }
struct Uniforms { scale : f32, offsetX : f32, offsetY : f32, scalar : f32, scalarOffset : f32, }
@binding(0) @group(0) var<uniform> time : Time;
@binding(0) @group(1) var<uniform> uniforms : Uniforms;
struct VertexOutput { @builtin(position) Position : vec4f, @location(0) v_color : vec4f, }
@vertex
fn vert_main(@location(0) position : vec4f, @location(1) color : vec4f) -> VertexOutput {
  var fade = (uniforms.scalarOffset + time.value * uniforms.scalar / 10.0) % 1.0;
  if (fade < 0.5) { fade = fade * 2.0; } else { fade = (1.0 - fade) * 2.0; }
  var xpos = position.x * uniforms.scale;
  var ypos = position.y * uniforms.scale;
  var angle = 3.14159 * 2.0 * fade;
  var xrot = xpos * cos(angle) - ypos * sin(angle);
  var yrot = xpos * sin(angle) + ypos * cos(angle);
  xpos = xrot + uniforms.offsetX;
  ypos = yrot + uniforms.offsetY;
  var output : VertexOutput;
  output.v_color = vec4(fade, 1.0 - fade, 0.0, 1.0) + color;
  output.Position = vec4(xpos, ypos, 0.0, 1.0);
  return output;
}
@fragment fn frag_main(@location(0) v_color : vec4f) -> @location(0) vec4f { return v_color; }
`), 0o644))
	c, err := testcase.Load(path, testcase.LoadOptions{})
	require.NoError(t, err)
	u, err := c.Bindings["uniforms"].Value()
	require.NoError(t, err)
	assert.Equal(t, float32(0.125), u.Elems[4].F32(), "scalarOffset, leaf 4")
	res, err := Execute(context.Background(), c, CaseOptions(c, Options{}))
	require.NoError(t, err)
	assert.Equal(t, oracle.Pass, res.Verdict)
}
