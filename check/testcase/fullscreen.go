package testcase

import (
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// A fragment entry point alone that reads what a fragment case does not
// give it — uniform or read-only storage buffers (GraphicsFuzz's shaders,
// Tint's test/tint/vk-gl-cts, read their constants from uniforms),
// front_facing — or that discards, is drawn as a draw case whose vertex
// stage is gpudiff's own full-screen triangle (FullscreenVertexWGSL, a
// module of its own, recorded in the case file as a draw of two files):
// the reference pipeline then gives it its bindings, its front facing
// and, where it discards, the clear value (check/draw.go). Its pixels are
// those of a fragment case: every pixel centre lies strictly inside the
// triangle, at depth 0 with w 1.

// FullscreenVertexFile is the name the full-screen vertex module carries
// in messages and case files.
const FullscreenVertexFile = "gpudiff-fullscreen.wgsl"

// FullscreenVertexEntry is its entry point.
const FullscreenVertexEntry = "gpudiff_fullscreen"

// FullscreenVertexWGSL is the full-screen triangle: clip (−1, −1), (3, −1),
// (−1, 3) at z 0, w 1, for vertex_index 0, 1, 2 — a counter-clockwise
// triangle whose edges lie on the target's left and bottom sides (framebuffer
// x = 0 and y = height, half a pixel from every pixel centre) and far
// outside it.
const FullscreenVertexWGSL = `// gpudiff's full-screen triangle: the vertex stage of a fragment entry
// point drawn alone with bindings (check/testcase/fullscreen.go).
@vertex
fn gpudiff_fullscreen(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
  return vec4<f32>(select(-1.0, 3.0, i == 1u), select(-1.0, 3.0, i == 2u), 0.0, 1.0);
}
`

// fullscreenDraw reports whether fragment entry point kernel ("" the
// module's) of m is drawn after the full-screen triangle: a fragment case
// cannot take it (wgsl.FragmentEntry refuses it: bindings, front_facing,
// discard), a draw can (wgsl.DrawFragmentEntry), and it reads no
// @location input (no vertex stage of the module's own feeds one).
func fullscreenDraw(m *ir.Module, kernel string) bool {
	if _, err := wgsl.FragmentEntry(m, kernel); err == nil {
		return false
	}
	fs, err := wgsl.DrawFragmentEntry(m, kernel)
	if err != nil {
		return false
	}
	for _, in := range wgsl.StageInputs(fs) {
		if in.Location >= 0 {
			return false
		}
	}
	return true
}

// loadFullscreenDraw loads fragment entry point o.Kernel of the file at
// path as a draw of two files, gpudiff's full-screen vertex module first
// (loadDraw with o.Fragment = path).
func (c *Case) loadFullscreenDraw(path string, o LoadOptions) error {
	vm, err := wgsl.Parse(FullscreenVertexFile, []byte(FullscreenVertexWGSL))
	if err != nil {
		return err // the constant parses: a gpudiff bug
	}
	read := o.ReadFile
	o.Fragment, o.FragmentEntry, o.Kernel = path, o.Kernel, ""
	o.ReadFile = read
	c.Module, c.Source = vm, []byte(FullscreenVertexWGSL)
	return c.loadDraw(path, o, nil)
}
