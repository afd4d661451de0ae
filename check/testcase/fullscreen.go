package testcase

import (
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// A fragment entry point alone that reads what a fragment case does not
// give it — @location inputs (webgpu-samples keeps its fragment stages in
// files of their own), uniform or read-only storage buffers
// (GraphicsFuzz's shaders, Tint's test/tint/vk-gl-cts, read their
// constants from uniforms), front_facing — or that discards, is drawn as
// a draw case whose vertex stage gpudiff writes: its own full-screen
// triangle (a module of its own, recorded in the case file as a draw of
// two files: vertex_source is that module's WGSL, so a replay draws it
// exactly). The reference pipeline then gives the fragment its bindings,
// its front facing, its varyings and, where it discards, the clear value
// (check/draw.go). Its pixels are those of a fragment case: every pixel
// centre lies strictly inside the triangle, at depth 0 with w 1.
//
// Made-up varyings (README "Draws", "A fragment entry point alone"): the
// vertex module has one output per @location input of the fragment
// entry point (wgsl.StageInputs: a parameter or a struct member), at the
// same location, of the same type and with its @interpolate as written,
// so the two stages' interface matches (WebGPU
// #abstract-opdef-validating-inter-stage-interfaces). Its values at the
// triangle's vertices, clip (x, y) = (−1, −1), (3, −1), (−1, 3):
//
//   - a perspective or linear (every float input without @interpolate)
//     component c takes row c mod 4 of
//     u = (x + 1)/2:  0,  2,  0
//     v = (1 − y)/2:  1,  1, −1
//     1 − u:          1, −1,  1
//     1:              1,  1,  1
//     Each is linear in clip x and y and w is 1 at every vertex, so
//     perspective and linear interpolation agree: at the centre of
//     pixel (i, j) of a W×H target (clip x = 2(i + ½)/W − 1, y =
//     1 − 2(j + ½)/H; WebGPU #coordinate-systems) u = (i + ½)/W and
//     v = (j + ½)/H — the pixel's texture coordinates, 0 at the
//     target's left and top edges and 1 at its right and bottom ones,
//     strictly inside (0, 1) at every centre, as is 1 − u. A vec2 is
//     the target's uv, a vec4 a colour (u, v, 1 − u, 1).
//   - a flat one is the same at every vertex, so the provoking vertex
//     (first or either) does not matter: a float component c is
//     (1 + c mod 4)/4, an integer one 1 + c (never 0: a divisor, a
//     count, an index below 5).

// FullscreenVertexFile is the name the full-screen vertex module carries
// in messages and case files.
const FullscreenVertexFile = "gpudiff-fullscreen.wgsl"

// FullscreenVertexEntry is its entry point.
const FullscreenVertexEntry = "gpudiff_fullscreen"

// FullscreenVertexWGSL is the full-screen triangle: clip (−1, −1), (3, −1),
// (−1, 3) at z 0, w 1, for vertex_index 0, 1, 2 — a counter-clockwise
// triangle whose edges lie on the target's left and bottom sides (framebuffer
// x = 0 and y = height, half a pixel from every pixel centre) and far
// outside it. It is the vertex module of a fragment entry point alone that
// reads no @location input (FullscreenVertexFor).
const FullscreenVertexWGSL = `// gpudiff's full-screen triangle: the vertex stage of a fragment entry
// point drawn alone with bindings (check/testcase/fullscreen.go).
@vertex
fn gpudiff_fullscreen(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
  return vec4<f32>(select(-1.0, 3.0, i == 1u), select(-1.0, 3.0, i == 2u), 0.0, 1.0);
}
`

// madeVaryingRows are the rows of a perspective or linear varying's
// components (above), as WGSL expressions of u and v.
var madeVaryingRows = [4]string{"u", "v", "1.0 - u", "1.0"}

// FullscreenVertexFor returns the WGSL of the vertex module fragment
// entry point fs is drawn alone after: FullscreenVertexWGSL where fs
// reads no @location input, else the same triangle (entry point
// FullscreenVertexEntry) whose result is a struct of the position and
// one output per @location input of fs, with the made-up values of the
// file comment. fs's inputs are a fragment entry point's (numeric
// scalars and vectors of f32, i32, u32, each at most once per location:
// wgsl.DrawFragmentEntry).
func FullscreenVertexFor(fs *ir.Func) string {
	var ins []wgsl.StageIO
	for _, in := range wgsl.StageInputs(fs) {
		if in.Location >= 0 {
			ins = append(ins, in)
		}
	}
	if len(ins) == 0 {
		return FullscreenVertexWGSL
	}
	var b strings.Builder
	fmt.Fprintf(&b, `// gpudiff's full-screen triangle with made-up varyings: the vertex stage
// of fragment entry point %s drawn alone (check/testcase/fullscreen.go).
// u and v are the target's texture coordinates: at the centre of pixel
// (i, j) of a WxH target u = (i + 0.5) / W and v = (j + 0.5) / H.
struct GpudiffVaryings {
  @builtin(position) position: vec4<f32>,
`, fs.Name)
	for _, in := range ins {
		attr := ""
		if a := in.Interp.Attr(); a != "" {
			attr = " " + a
		}
		fmt.Fprintf(&b, "  @location(%d)%s loc%d: %s,\n", in.Location, attr, in.Location, in.T)
	}
	b.WriteString(`}

@vertex
fn gpudiff_fullscreen(@builtin(vertex_index) i: u32) -> GpudiffVaryings {
  let x = select(-1.0, 3.0, i == 1u);
  let y = select(-1.0, 3.0, i == 2u);
  let u = (x + 1.0) * 0.5;
  let v = (1.0 - y) * 0.5;
  var o: GpudiffVaryings;
  o.position = vec4<f32>(x, y, 0.0, 1.0);
`)
	for _, in := range ins {
		fmt.Fprintf(&b, "  o.loc%d = %s;\n", in.Location, madeVarying(in))
	}
	b.WriteString("  return o;\n}\n")
	return b.String()
}

// madeVarying is the WGSL expression of the made-up value of fragment
// input in at the vertex (the file comment's rule).
func madeVarying(in wgsl.StageIO) string {
	sc := in.T.Scalar()
	flat := in.Interp.Resolved(in.T).Type == ir.InterpFlat
	n := 1
	if in.T.Kind == ir.KindVec {
		n = in.T.Len
	}
	comps := make([]string, n)
	for c := range comps {
		switch {
		case sc.Kind == ir.KindF32 && !flat:
			comps[c] = madeVaryingRows[c%4]
		case sc.Kind == ir.KindF32:
			comps[c] = fmt.Sprintf("%g", float64(1+c%4)/4)
			if !strings.Contains(comps[c], ".") {
				comps[c] += ".0"
			}
		case sc.Kind == ir.KindU32:
			comps[c] = fmt.Sprintf("%du", 1+c)
		default:
			comps[c] = fmt.Sprintf("%di", 1+c)
		}
	}
	if n == 1 {
		return fmt.Sprintf("%s(%s)", in.T, comps[0])
	}
	return fmt.Sprintf("%s(%s)", in.T, strings.Join(comps, ", "))
}

// fullscreenDraw reports whether fragment entry point kernel ("" the
// module's) of m is drawn after the full-screen triangle: a fragment case
// cannot take it (wgsl.FragmentEntry refuses it: @location inputs,
// bindings, front_facing, discard) and a draw can
// (wgsl.DrawFragmentEntry).
func fullscreenDraw(m *ir.Module, kernel string) bool {
	if _, err := wgsl.FragmentEntry(m, kernel); err == nil {
		return false
	}
	_, err := wgsl.DrawFragmentEntry(m, kernel)
	return err == nil
}

// loadFullscreenDraw loads fragment entry point o.Kernel of the file at
// path as a draw of two files, the full-screen vertex module gpudiff
// writes for it (FullscreenVertexFor) first (loadDraw with o.Fragment =
// path).
func (c *Case) loadFullscreenDraw(path string, o LoadOptions) error {
	fs, err := wgsl.DrawFragmentEntry(c.Module, o.Kernel)
	if err != nil {
		return err // fullscreenDraw took it: not reached
	}
	src := FullscreenVertexFor(fs)
	vm, err := wgsl.Parse(FullscreenVertexFile, []byte(src))
	if err != nil {
		return fmt.Errorf("check: internal error: gpudiff's vertex module for %s: %v", fs.Name, err)
	}
	o.Fragment, o.FragmentEntry, o.Kernel = path, fs.Name, ""
	c.Module, c.Source = vm, []byte(src)
	return c.loadDraw(path, o, nil)
}
