package report

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/campaign"
)

// TestPerformanceNotes: one line per adapter with slow compiles, in name
// order, with the count and the program indices (a GL adapter's names both
// limits: its compile ends at the first dispatch); nothing without any.
func TestPerformanceNotes(t *testing.T) {
	var b bytes.Buffer
	WritePerformanceNotes(&b, &campaign.Summary{})
	assert.Empty(t, b.String())
	WritePerformanceNotes(&b, &campaign.Summary{SlowCompiles: map[string][]int{"wgpu-vulkan:swiftshader": {7}, "wgpu-vulkan:llvmpipe": {12, 40}, "dawn-gles:llvmpipe": {3}}})
	assert.Equal(t, "performance note: dawn-gles:llvmpipe did not finish compiling and first running 1 program within --compile-timeout + --timeout (program 3; GL compiles at the first dispatch, and a second run agreed): slow compiles, not findings\n"+
		"performance note: wgpu-vulkan:llvmpipe did not finish compiling 2 programs within --compile-timeout (programs 12, 40): slow compiles, not findings\n"+
		"performance note: wgpu-vulkan:swiftshader did not finish compiling 1 program within --compile-timeout (program 7): slow compiles, not findings\n", b.String())
}
