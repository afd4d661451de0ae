package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDriverOfGroupsImplementationsOnOneDriver(t *testing.T) {
	assert.Equal(t, "vulkan:swiftshader", DriverOf("wgpu-vulkan:swiftshader"))
	assert.Equal(t, "vulkan:swiftshader", DriverOf("dawn-vulkan:swiftshader"))
	assert.Equal(t, "gl:llvmpipe", DriverOf("dawn-gles:llvmpipe"))
	assert.Equal(t, "gl:llvmpipe", DriverOf("wgpu-gl:llvmpipe"))
	assert.Equal(t, "vulkan:nvidia-rtx-4090", DriverOf("wgpu-vulkan:nvidia-rtx-4090#2"))
	assert.Equal(t, "vulkan:llvmpipe", DriverOf("vulkan:llvmpipe"), "an alias is its own driver")
	impl, backend, device, ok := NameParts("dawn-gles:llvmpipe")
	assert.True(t, ok)
	assert.Equal(t, []string{"dawn", "gles", "llvmpipe"}, []string{impl, backend, device})
	assert.Equal(t, "naga", CompilerOf("wgpu"))
	assert.Equal(t, "Tint", CompilerOf("dawn"))
}
