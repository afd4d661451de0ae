package testcase

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// varyingsFragment reads a struct of inputs of every kind the made-up
// varyings rule tells apart: a perspective vec4 (by default), a flat u32,
// a linear f32, a flat-either vec2 and a flat vec3<i32>, at locations out
// of declaration order.
const varyingsFragment = `struct In {
  @builtin(position) p: vec4f,
  @location(2) c: vec4f,
  @location(0) @interpolate(flat) id: u32,
  @location(1) @interpolate(linear) s: f32,
  @location(3) @interpolate(flat, either) f: vec2f,
  @location(4) @interpolate(flat) k: vec3i,
}
@fragment fn fs(in: In) -> @location(0) vec4f {
  return in.c * in.s + vec4f(f32(in.id), in.f, f32(in.k.z));
}
`

// The vertex module gpudiff writes for a fragment entry point alone that
// reads @location inputs has one output per input, at its location, of
// its type and interpolation (the interface checks), and the values of
// fullscreen.go's rule, read off its text: a float component c is row
// c mod 4 of (u, v, 1 − u, 1) with u = (x + 1)/2, v = (1 − y)/2; a flat
// float (1 + c)/4; a flat integer 1 + c.
func TestFullscreenVertexForVaryings(t *testing.T) {
	fm, err := wgsl.Parse("f.wgsl", []byte(varyingsFragment))
	require.NoError(t, err)
	fs := fm.Func("fs")
	src := FullscreenVertexFor(fs)
	vm, err := wgsl.Parse(FullscreenVertexFile, []byte(src))
	require.NoError(t, err, src)
	vs, err := wgsl.VertexEntry(vm, FullscreenVertexEntry)
	require.NoError(t, err)
	require.NoError(t, wgsl.CheckInterface(vs, fs))
	outs := map[int]wgsl.StageIO{}
	for _, o := range wgsl.StageOutputs(vs) {
		if o.Location >= 0 {
			outs[o.Location] = o
		}
	}
	assert.Len(t, outs, 5)
	assert.Equal(t, ir.Interpolation{Type: ir.InterpFlat, Sampling: ir.SamplingEither}, outs[3].Interp)
	assert.Equal(t, ir.Interpolation{Type: ir.InterpLinear}, outs[1].Interp)
	assert.True(t, outs[2].Interp.IsZero(), "none written on the input, none on the output")
	for _, line := range []string{
		"  let u = (x + 1.0) * 0.5;",
		"  let v = (1.0 - y) * 0.5;",
		"  o.loc2 = vec4<f32>(u, v, 1.0 - u, 1.0);",
		"  o.loc0 = u32(1u);",
		"  o.loc1 = f32(u);",
		"  o.loc3 = vec2<f32>(0.25, 0.5);",
		"  o.loc4 = vec3<i32>(1i, 2i, 3i);",
	} {
		assert.Contains(t, strings.Split(src, "\n"), line)
	}
	// No @location input: the plain triangle.
	pm, err := wgsl.Parse("p.wgsl", []byte("@group(0) @binding(0) var<uniform> u: vec4f;\n@fragment fn f(@builtin(position) p: vec4f) -> @location(0) vec4f { return p * u; }\n"))
	require.NoError(t, err)
	assert.Equal(t, FullscreenVertexWGSL, FullscreenVertexFor(pm.Func("f")))
}

// A fragment-only file whose entry point reads @location inputs loads as
// a draw of two modules — gpudiff's vertex module first, recorded as
// VertexSource — with its own name, --kernel or --fragment (the module
// has no vertex entry point, so --fragment names the fragment entry point
// drawn alone); --fragment beside a --kernel naming another function is a
// flag error.
func TestLoadFragmentAloneWithVaryings(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"uv.wgsl": "@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f { return vec4f(uv, 0.0, 1.0); }\n",
		"st.wgsl": varyingsFragment,
		"two.wgsl": "@fragment fn a(@location(0) uv: vec2f) -> @location(0) vec4f { return vec4f(uv, 0.0, 1.0); }\n" +
			"@fragment fn b(@builtin(position) p: vec4f) -> @location(0) vec4f { return p; }\n",
	})
	for _, tc := range []struct {
		file string
		o    LoadOptions
		fs   string
	}{
		{"uv.wgsl", LoadOptions{}, "main"},
		{"uv.wgsl", LoadOptions{FragmentEntry: "main"}, "main"},
		{"st.wgsl", LoadOptions{FragmentEntry: "fs"}, "fs"},
		{"st.wgsl", LoadOptions{Kernel: "fs"}, "fs"},
		{"two.wgsl", LoadOptions{FragmentEntry: "a"}, "a"},
	} {
		t.Run(tc.file+"/"+tc.fs, func(t *testing.T) {
			c, err := Load(filepath.Join(dir, tc.file), tc.o)
			require.NoError(t, err)
			require.Equal(t, KindDraw, c.Kind)
			assert.Equal(t, FullscreenVertexEntry, c.Vertex.Name)
			assert.Equal(t, tc.fs, c.Func.Name)
			assert.True(t, c.TwoModules())
			assert.Equal(t, FullscreenVertexFile, c.VertexModule.File)
			assert.Equal(t, FullscreenVertexFor(c.Func), string(c.VertexSource))
			assert.Equal(t, uint32(3), c.Draw.Count)
			assert.Empty(t, c.VertexInputs, "gpudiff's vertex stage reads no attribute")
		})
	}
	// --fragment b of two.wgsl: b takes only the position, a fragment
	// case as --kernel b is.
	c, err := Load(filepath.Join(dir, "two.wgsl"), LoadOptions{FragmentEntry: "b"})
	require.NoError(t, err)
	assert.Equal(t, KindFragment, c.Kind)
	assert.Equal(t, "b", c.Func.Name)
	_, err = Load(filepath.Join(dir, "two.wgsl"), LoadOptions{FragmentEntry: "a", Kernel: "b"})
	var fe *FlagError
	require.ErrorAs(t, err, &fe)
	assert.Contains(t, fe.Msg, "--kernel b and --fragment a name two entry points")
}

// spriteWGSL is webgpu-samples' sample/computeBoids/sprite.wgsl (vertex
// stage as written): the position is a_pos rotated by
// -atan2(a_particleVel.x, a_particleVel.y), plus a_particlePos.
const spriteWGSL = `struct VertexOutput {
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

// Made-up attributes of boids: all three feed the position; the first
// (a_particlePos) holds madeTriangles' corners (x, y: corner 1 (2, 12)
// is (−0.75, −0.5)), the other two (1/8, 1/8) at every vertex — so the
// rotation is by −atan2(1/8, 1/8) = −π/4, defined, where a zero velocity
// left it indeterminate.
func TestMadeAttributesFeedingThePositionAreNotZero(t *testing.T) {
	dir := writeFiles(t, map[string]string{"sprite.wgsl": spriteWGSL})
	c, err := Load(filepath.Join(dir, "sprite.wgsl"), LoadOptions{})
	require.NoError(t, err)
	require.Equal(t, KindDraw, c.Kind)
	require.Len(t, c.VertexInputs, 3)
	assert.Equal(t, uint32(6), c.Draw.Count)
	vec2 := func(v ir.Value) [2]float32 { return [2]float32{v.Elems[0].F32(), v.Elems[1].F32()} }
	pos, vel, apos := c.VertexInputs[0], c.VertexInputs[1], c.VertexInputs[2]
	assert.Equal(t, "a_particlePos", pos.Name)
	assert.Equal(t, [2]float32{-0.75, -0.5}, vec2(pos.Values[1]))
	for v := 0; v < 6; v++ {
		assert.Equal(t, [2]float32{0.125, 0.125}, vec2(vel.Values[v]), "a_particleVel at vertex %d", v)
		assert.Equal(t, [2]float32{0.125, 0.125}, vec2(apos.Values[v]), "a_pos at vertex %d", v)
	}
}

// Made-up uniforms of a draw are never 0 in f32: GraphicsFuzz's
// resolution (the first two leaves) is (1/8, 1/4), the next leaves 3/8
// and 1/2, then 1/8 again ((1 + k mod 4)/8); an i32 leaf 1 + k mod 16, k
// counting every non-matrix leaf.
func TestMadeUniformsAreNotZero(t *testing.T) {
	dir := writeFiles(t, map[string]string{"gf.wgsl": `struct buf0 { resolution: vec2f, x: f32, y: f32, z: f32, n: i32 }
@group(0) @binding(0) var<uniform> u: buf0;
@fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f {
  let q = p.xy / u.resolution;
  return vec4f(q, u.x + u.y + u.z, f32(u.n));
}
`})
	c, err := Load(filepath.Join(dir, "gf.wgsl"), LoadOptions{})
	require.NoError(t, err)
	require.Equal(t, KindDraw, c.Kind)
	u, err := c.Bindings["u"].Value()
	require.NoError(t, err)
	assert.Equal(t, [2]float32{0.125, 0.25}, [2]float32{u.Elems[0].Elems[0].F32(), u.Elems[0].Elems[1].F32()})
	assert.Equal(t, []float32{0.375, 0.5, 0.125}, []float32{u.Elems[1].F32(), u.Elems[2].F32(), u.Elems[3].F32()})
	assert.Equal(t, int32(6), u.Elems[4].I32())
}
