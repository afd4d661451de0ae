package testcase

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// drawModule is one file with both stages: a position through a uniform
// matrix and a colour varying, as webgpu-samples' basic.vert.wgsl and
// vertexPositionColor.frag.wgsl.
const drawModule = `struct U { mvp: mat4x4f, tint: vec4f }
@group(0) @binding(0) var<uniform> u: U;
struct VOut { @builtin(position) pos: vec4f, @location(0) color: vec4f }
@vertex fn vs(@location(0) position: vec4f, @location(1) color: vec4f) -> VOut {
  var o: VOut;
  o.pos = u.mvp * position;
  o.color = color * u.tint;
  return o;
}
@fragment fn fs(@location(0) color: vec4f) -> @location(0) vec4f { return color; }
`

func writeFiles(t *testing.T, files map[string]string) string {
	dir := t.TempDir()
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	return dir
}

func vec4f(v ir.Value) [4]float32 {
	return [4]float32{v.Elems[0].F32(), v.Elems[1].F32(), v.Elems[2].F32(), v.Elems[3].F32()}
}

// TestLoadDrawMadeUp: a module with a vertex and a fragment entry point
// loads as a draw whose made-up inputs draw two triangles: the position
// attribute (it feeds @builtin(position) through u.mvp) holds
// madeTriangles' corners in clip space, x = px/8 − 1, y = 1 − py/8, w 1 —
// corner 0 (2, 2) is (−0.75, 0.75), corner 4 (14, 14) is (0.75, −0.75);
// the colour (which does not) leaf k is (k mod 5)/4, so vertex 1 reads
// leaves 4…7: (1, 0, 0.25, 0.5); the matrix is the identity, tint's f32
// leaves (1 + k mod 4)/8, k counting the non-matrix leaves from 0:
// (0.125, 0.25, 0.375, 0.5). Both attributes in one vertex-step buffer, interleaved: offsets
// 0 and 16, stride 32.
func TestLoadDrawMadeUp(t *testing.T) {
	dir := writeFiles(t, map[string]string{"d.wgsl": drawModule})
	c, err := Load(filepath.Join(dir, "d.wgsl"), LoadOptions{})
	require.NoError(t, err)
	require.Equal(t, KindDraw, c.Kind)
	assert.Equal(t, "vs", c.Vertex.Name)
	assert.Equal(t, "fs", c.Func.Name)
	assert.Same(t, c.Module, c.VertexModuleOrModule())
	assert.False(t, c.TwoModules())
	assert.Equal(t, DefaultFragmentSize, c.Size)
	assert.Equal(t, []harness.AttachmentFormat{harness.RGBA32Float}, c.Attachments)
	assert.Equal(t, 256, c.Invocations())
	d := c.Draw
	require.NotNil(t, d)
	assert.Equal(t, uint32(6), d.Count)
	assert.Equal(t, uint32(1), d.InstanceCount)
	require.Len(t, d.VertexBuffers, 1)
	vb := d.VertexBuffers[0]
	assert.Equal(t, "vertex", vb.StepMode)
	assert.Equal(t, uint64(32), vb.Stride)
	assert.Equal(t, []harness.VertexAttribute{{Format: "float32x4", Offset: 0, ShaderLocation: 0}, {Format: "float32x4", Offset: 16, ShaderLocation: 1}}, vb.Attributes)
	assert.Len(t, vb.Data, 6*32)
	// Vertex 4's x in the buffer's bytes: 0.75.
	assert.Equal(t, float32(0.75), math.Float32frombits(binary.LittleEndian.Uint32(vb.Data[4*32:])))
	require.Len(t, c.VertexInputs, 2)
	pos, col := c.VertexInputs[0], c.VertexInputs[1]
	assert.Equal(t, "position", pos.Name)
	assert.Equal(t, []int{0}, pos.Path)
	assert.Equal(t, [4]float32{-0.75, 0.75, 0.25, 1}, vec4f(pos.Values[0]))
	assert.Equal(t, [4]float32{0.75, -0.75, 0.5, 1}, vec4f(pos.Values[4]))
	assert.Equal(t, [4]float32{1, 0, 0.25, 0.5}, vec4f(col.Values[1]))
	assert.Equal(t, []int{1}, col.Path)
	u, err := c.Bindings["u"].Value()
	require.NoError(t, err)
	for col := 0; col < 4; col++ {
		for row := 0; row < 4; row++ {
			want := float32(0)
			if col == row {
				want = 1
			}
			assert.Equal(t, want, u.Elems[0].Elems[col].Elems[row].F32(), "mvp[%d][%d]", col, row)
		}
	}
	assert.Equal(t, [4]float32{0.125, 0.25, 0.375, 0.5}, vec4f(u.Elems[1]))
}

// TestMadeTrianglesClearPixelCentres checks madeTriangles' claim: on the
// 16×16 default target every pixel centre is at least 1/8 px from every
// edge (derived: at least ½/√5 ≈ 0.2236 px), and both triangles cover
// pixels (the right triangles of legs 5 and 10 px cover about 25 each).
func TestMadeTrianglesClearPixelCentres(t *testing.T) {
	nearest := math.Inf(1)
	for tri := 0; tri < 2; tri++ {
		covered := 0
		p := madeTriangles[3*tri : 3*tri+3]
		for y := 0; y < 16; y++ {
			for x := 0; x < 16; x++ {
				cx, cy := float64(x)+0.5, float64(y)+0.5
				inside, sign := true, 0.0
				for e := 0; e < 3; e++ {
					ax, ay := float64(p[e][0]), float64(p[e][1])
					bx, by := float64(p[(e+1)%3][0]), float64(p[(e+1)%3][1])
					cross := (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
					nearest = math.Min(nearest, math.Abs(cross)/math.Hypot(bx-ax, by-ay))
					if sign == 0 {
						sign = math.Copysign(1, cross)
					}
					inside = inside && cross*sign > 0
				}
				if inside {
					covered++
				}
			}
		}
		assert.Greater(t, covered, 10, "triangle %d", tri)
	}
	assert.InDelta(t, 0.5/math.Sqrt(5), nearest, 1e-12)
	assert.GreaterOrEqual(t, nearest, 0.125)
}

// TestLoadDrawTwoFiles: exec VERT.wgsl FRAG.wgsl — both modules name
// their entry point main (webgpu-samples' triangle.vert.wgsl and
// red.frag.wgsl); the vertex stage places its vertices from a table of 6
// indexed by vertex_index, so the draw has 6 vertices and no buffers.
func TestLoadDrawTwoFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"v.wgsl": `@vertex fn main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  var pos = array<vec2f, 6>(vec2(0.0, 0.5), vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(0.0, 0.5), vec2(-0.5, -0.5), vec2(0.5, -0.5));
  return vec4f(pos[i], 0.0, 1.0);
}`,
		"f.wgsl": "@fragment fn main() -> @location(0) vec4f { return vec4(1.0, 0.0, 0.0, 1.0); }\n",
	})
	c, err := Load(filepath.Join(dir, "v.wgsl"), LoadOptions{Fragment: filepath.Join(dir, "f.wgsl")})
	require.NoError(t, err)
	assert.Equal(t, KindDraw, c.Kind)
	assert.True(t, c.TwoModules())
	assert.Equal(t, filepath.Join(dir, "f.wgsl"), c.Module.File)
	assert.Equal(t, filepath.Join(dir, "v.wgsl"), c.VertexModule.File)
	assert.Equal(t, "main", c.Vertex.Name)
	assert.Equal(t, ir.StageVertex, c.Vertex.Stage)
	assert.Equal(t, ir.StageFragment, c.Func.Stage)
	assert.Equal(t, uint32(6), c.Draw.Count)
	assert.Empty(t, c.Draw.VertexBuffers)
	assert.Contains(t, string(c.VertexSource), "vertex_index")
	assert.Contains(t, string(c.Source), "@fragment")

	// The case file: the fragment module, the vertex one in the record.
	rec := testRecord(c)
	data, err := MarshalCase(c.Module, rec)
	require.NoError(t, err)
	pc, prec, err := parseCase("case.wgsl", data)
	require.NoError(t, err)
	dc := pc.(*Case)
	assert.True(t, prec.IsDraw())
	assert.False(t, prec.IsFragment())
	assert.True(t, dc.TwoModules())
	assert.Equal(t, "main", dc.Vertex.Name)
	assert.Equal(t, uint32(6), dc.Draw.Count)
}

// testRecord is a record of c as check.NewCaseRecord fills it, without
// results.
func testRecord(c *Case) *CaseRecord {
	rec := &CaseRecord{Format: CaseFormat, Verdict: "pass", Hash: "0123456789abcdef", Mode: "portable"}
	rec.SetDraw(c)
	return rec
}

// TestDrawInputsFile reads a draw's inputs file: a unorm8x4 colour given
// as the values the shader reads, 0, 1, 128/255, 1/255, is the bytes 0,
// 255, 128, 1 and reads them back exactly (WebGPU #vertex-formats:
// unorm8 c/255); an instance-step attribute in a buffer of its own; a
// uint16 index buffer with base_vertex 1 (indices 0, 1, 2 fetch vertices
// 1, 2, 3); a triangle strip, back culling, cw; an rgba8unorm target
// cleared to (0, 0, 1, 1); size 8×4.
func TestDrawInputsFile(t *testing.T) {
	mod := `@vertex fn vs(@location(0) p: vec2f, @location(1) c: vec4f, @location(2) off: vec2f) -> @builtin(position) vec4f {
  return vec4f(p + off + c.xy * 0.0, 0.5, 1.0);
}
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); }
`
	inputs := `{
  "vertices": {
    "p": {"values": [[0, 0], [-0.5, -0.5], [0.5, -0.5], [0, 0.5]]},
    "c": {"format": "unorm8x4", "values": [[0, 0, 0, 0], [0, 1, 0.5019607843137255, 0.00392156862745098], [1, 1, 1, 1], [0, 0, 0, 1]]},
    "off": {"format": "float32x2", "step_mode": "instance", "values": [[0.25, 0], [0, 0.25]]}
  },
  "indices": {"format": "uint16", "values": [0, 1, 2]},
  "draw": {"base_vertex": 1},
  "topology": "triangle-strip", "cull_mode": "back", "front_face": "cw",
  "targets": [{"format": "rgba8unorm", "clear": [0, 0, 1, 1]}],
  "size": [8, 4]
}`
	dir := writeFiles(t, map[string]string{"d.wgsl": mod, "d.inputs.json": inputs})
	c, err := Load(filepath.Join(dir, "d.wgsl"), LoadOptions{})
	require.NoError(t, err)
	d := c.Draw
	assert.Equal(t, [2]uint32{8, 4}, c.Size)
	assert.Equal(t, []harness.AttachmentFormat{harness.RGBA8Unorm}, c.Attachments)
	assert.Equal(t, [][4]float64{{0, 0, 1, 1}}, d.Clear)
	assert.Equal(t, "triangle-strip", d.Topology)
	assert.Equal(t, "back", d.CullMode)
	assert.Equal(t, "cw", d.FrontFace)
	assert.Equal(t, uint32(3), d.Count, "the indices")
	assert.Equal(t, uint32(2), d.InstanceCount, "the instance-step buffer's elements")
	assert.Equal(t, int32(1), d.BaseVertex)
	require.NotNil(t, d.Index)
	assert.Equal(t, []byte{0, 0, 1, 0, 2, 0}, d.Index.Data)
	require.Len(t, d.VertexBuffers, 2)
	vb := d.VertexBuffers[0]
	// p float32x2 at 0, c unorm8x4 at 8: stride 12.
	assert.Equal(t, uint64(12), vb.Stride)
	assert.Equal(t, []byte{0, 255, 128, 1}, vb.Data[12+8:12+12], "vertex 1's colour bytes")
	col := c.VertexInputs[1]
	assert.Equal(t, "unorm8x4", col.Format)
	assert.Equal(t, [4]float32{0, 1, float32(128.0 / 255), float32(1.0 / 255)}, vec4f(col.Values[1]))
	ib := d.VertexBuffers[1]
	assert.Equal(t, "instance", ib.StepMode)
	assert.Equal(t, uint64(8), ib.Stride)
	off := c.VertexInputs[2]
	assert.Equal(t, "instance", off.StepMode)
	assert.Equal(t, float32(0.25), off.Values[1].Elems[1].F32())

	// The record's inputs are the file's form: parsed back, the same draw.
	data, err := MarshalCase(c.Module, testRecord(c))
	require.NoError(t, err)
	pc, _, err := parseCase("case.wgsl", data)
	require.NoError(t, err)
	back := pc.(*Case)
	assert.Equal(t, c.Draw, back.Draw)
	assert.Equal(t, c.Attachments, back.Attachments)
	assert.Equal(t, c.Size, back.Size)
	for i := range c.VertexInputs {
		for k := range c.VertexInputs[i].Values {
			assert.True(t, ir.Equal(c.VertexInputs[i].Values[k], back.VertexInputs[i].Values[k]), "%s[%d]", c.VertexInputs[i].Name, k)
		}
	}
	// Loaded from the case file (exec CASE.wgsl), the recorded draw.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "case.wgsl"), data, 0o644))
	lc, err := Load(filepath.Join(dir, "case.wgsl"), LoadOptions{})
	require.NoError(t, err)
	assert.Equal(t, KindDraw, lc.Kind)
	assert.Equal(t, c.Draw, lc.Draw)
	assert.NotNil(t, lc.Record)
}

// TestDrawInputErrors: every error in a draw's inputs file is positioned
// at the value it is about (file:line:col) and is a usage error, as are
// the v1 refusals (depth/stencil state, lines).
func TestDrawInputErrors(t *testing.T) {
	for _, tc := range []struct{ name, inputs, want string }{
		{"format", "{\"vertices\": {\"position\":\n  {\"format\": \"uint8x4\", \"values\": []}}}", "d.inputs.json:2:14: vertices: position: vertex format uint8x4 feeds a u32 or vecN<u32> input, not vec4<f32>"},
		{"unorm", `{"vertices": {"color": {"format": "unorm8x4", "values": [[0, 0, 2, 0]]}}}`, "d.inputs.json:1:58: vertices: color: values[0]: component 2 is 2, outside unorm8x4's range [0, 1]"},
		{"depth", `{"depth_stencil": {}}`, "d.inputs.json:1:19: depth_stencil: depth/stencil state is outside gpudiff's v1 draws"},
		{"lines", `{"topology": "line-list"}`, `d.inputs.json:1:14: topology "line-list": lines and points are outside gpudiff's v1 draws`},
		{"unknown", `{"u": {"mvp": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]], "tint": [1,1,1,1]}, "vertexes": 1}`, `d.inputs.json:1:90: "vertexes" is neither a binding the draw's stages use (have u) nor a draw key`},
		{"input", `{"vertices": {"normal": {"values": []}}}`, `d.inputs.json:1:25: vertices: "normal" is no @location input of the vertex entry point (have position (@location(0)), color (@location(1)))`},
		{"index", `{"vertices": {"position": {"values": [[0,0,0.5,1]]}, "color": {"values": [[0,0,0,1]]}}, "indices": {"values": [0, 1]}}`, "d.inputs.json:1:115: indices: index 1 (1) with base_vertex 0 fetches vertex 1, past the 1 vertices"},
		{"counts", `{"vertices": {"position": {"values": [[0,0,0.5,1]]}, "color": {"values": [[0,0,0,1], [0,0,0,1]]}}}`, "d.inputs.json:1:63: vertices: color has 2 values and position 1: the vertex-step attributes share one vertex buffer"},
		{"target", `{"targets": [{"format": "r32float"}]}`, "d.inputs.json:1:25: targets[0]: format r32float does not hold output ret of type vec4<f32> (rgba32float does)"},
		{"syntax", "{\"size\": [1,\n 2,]}", "d.inputs.json:2:4:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"d.wgsl": drawModule, "d.inputs.json": tc.inputs})
			_, err := Load(filepath.Join(dir, "d.wgsl"), LoadOptions{})
			require.Error(t, err)
			var ue *UsageError
			assert.ErrorAs(t, err, &ue)
			assert.Contains(t, err.Error(), filepath.Join(dir, tc.want))
		})
	}
}

// TestDrawEntryPoints: a module with two vertex and two fragment entry
// points is ambiguous, the error listing them at the first; --fragment
// picks the vertex entry point whose outputs its inputs match when only
// one does; --vertex and --fragment name them; --kernel naming a
// fragment entry point is --fragment; a fragment input no vertex output
// feeds is refused at the input (wgsl.CheckInterfaceIn).
func TestDrawEntryPoints(t *testing.T) {
	mod := `struct A { @builtin(position) p: vec4f, @location(0) a: vec4f }
struct B { @builtin(position) p: vec4f, @location(1) b: f32 }
@vertex fn va(@builtin(vertex_index) i: u32) -> A { return A(vec4f(f32(i), 0.0, 0.5, 1.0), vec4f(1.0)); }
@vertex fn vb(@builtin(vertex_index) i: u32) -> B { return B(vec4f(f32(i), 0.0, 0.5, 1.0), 1.0); }
@fragment fn fa(@location(0) a: vec4f) -> @location(0) vec4f { return a; }
@fragment fn fb(@location(1) b: f32) -> @location(0) f32 { return b; }
`
	dir := writeFiles(t, map[string]string{"m.wgsl": mod})
	path := filepath.Join(dir, "m.wgsl")
	_, err := Load(path, LoadOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), path+":5:1: check: ambiguous entry point: the module has 2 fragment entry points: fa (5:1), fb (6:1) (name one: --fragment)")
	c, err := Load(path, LoadOptions{FragmentEntry: "fb"})
	require.NoError(t, err)
	assert.Equal(t, "vb", c.Vertex.Name)
	assert.Equal(t, []harness.AttachmentFormat{harness.R32Float}, c.Attachments)
	c, err = Load(path, LoadOptions{Kernel: "fa"})
	require.NoError(t, err)
	assert.Equal(t, "va", c.Vertex.Name)
	assert.Equal(t, "fa", c.Func.Name)
	_, err = Load(path, LoadOptions{VertexEntry: "va", FragmentEntry: "fb"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), path+":6:17: check: fragment input b at @location(1) of fb has no vertex output of va at that location")
	_, err = Load(path, LoadOptions{Kernel: "fa", FragmentEntry: "fb"})
	var fe *FlagError
	require.ErrorAs(t, err, &fe)
	_, err = Load(path, LoadOptions{FragmentEntry: "fa", Workgroups: &[3]uint32{2, 1, 1}})
	require.ErrorAs(t, err, &fe)
	assert.Contains(t, fe.Msg, "--workgroups is for kernels and compute entry points")
	assert.Equal(t, KindDraw, KindOf(c.Module, ""))
	assert.Equal(t, KindDraw, KindOf(c.Module, "vb"))
}

// Several vertex entry points fit a fragment entry point: the one named
// like it is its pair (pairByName), as webgpu-samples' generateMipmap
// (vs_2d … fs_2d) and wireframe (vsIndexedU32 with fs,
// vsIndexedU32BarycentricCoordinateBasedLines with
// fsBarycentricCoordinateBasedLines) pair them; a tie is no pair.
func TestPairByName(t *testing.T) {
	fns := func(names ...string) []*ir.Func {
		var out []*ir.Func
		for _, n := range names {
			out = append(out, &ir.Func{Name: n})
		}
		return out
	}
	mip := fns("vs_2d", "vs_2d_array", "vs_cube", "vs_cube_array")
	assert.Equal(t, "vs_2d", pairByName("fs_2d", mip))
	assert.Equal(t, "vs_2d_array", pairByName("fs_2d_array", mip))
	assert.Equal(t, "vs_cube_array", pairByName("fs_cube_array", mip))
	wire := fns("vsIndexedU32", "vsIndexedU32BarycentricCoordinateBasedLines")
	assert.Equal(t, "vsIndexedU32", pairByName("fs", wire))
	assert.Equal(t, "vsIndexedU32BarycentricCoordinateBasedLines", pairByName("fsBarycentricCoordinateBasedLines", wire))
	assert.Equal(t, "", pairByName("fs_main", fns("vs_a", "vs_b")), "a tie")
}
