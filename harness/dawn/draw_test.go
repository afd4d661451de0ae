package dawn

import (
	"testing"
)

// TestDrawHandDerived draws every drawCase (drawcases_test.go, the
// harness package's hand-derived draws) on every Dawn and Deno CPU
// adapter, one worker each.
func TestDrawHandDerived(t *testing.T) {
	for _, name := range runAdapters {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			for _, c := range drawCases() {
				t.Run(c.name, func(t *testing.T) { checkDraw(t, d, name, c) })
			}
		})
	}
}

// TestDrawVertexFormats reads an attribute of every GPUVertexFormat
// through a flat varying on the Vulkan adapters of Dawn and Deno, once
// with stride 0: both take them all (the formats wgpu-native lacks
// included).
func TestDrawVertexFormats(t *testing.T) {
	for _, name := range []string{swiftshader, denoLavapipe} {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			for _, c := range formatCases() {
				t.Run(c.format, func(t *testing.T) { checkFormat(t, d, c, false) })
			}
			t.Run("stride0", func(t *testing.T) { checkFormat(t, d, formatCase4f32(), true) })
		})
	}
}
