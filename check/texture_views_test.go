package check

import (
	"math"
	"testing"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/stretchr/testify/assert"
)

// ChannelValue follows WebGPU's and Vulkan's conversions (Vulkan
// "Fixed-Point Data Conversions": unorm c/(2^b−1); snorm
// max(c/(2^(b−1)−1), −1), so −128 and −127 are both −1; float16 the
// binary16 value; sint sign-extended).
func TestChannelValue(t *testing.T) {
	for _, c := range []struct {
		format string
		code   uint32
		want   float64
	}{
		{"rgba8unorm", 51, 0.2}, {"rgba8unorm", 255, 1}, {"rg16uint", 65535, 65535},
		{"rgba8snorm", 0x81, -1}, {"rgba8snorm", 0x80, -1}, {"rgba8snorm", 0x7f, 1},
		{"rgba16float", 0x3c00, 1}, {"rgba16float", 0xc100, -2.5}, {"r32float", math.Float32bits(0.1), float64(float32(0.1))},
		{"rgba8sint", 0xfe, -2}, {"r32sint", 0xffffffff, -1}, {"bgra8unorm", 0, 0},
	} {
		assert.InDelta(t, c.want, testcase.ChannelValue(c.format, c.code), 1e-12, "%s %#x", c.format, c.code)
	}
	assert.True(t, math.IsNaN(testcase.ChannelValue("depth24plus", 0)), "a format gpudiff does not upload")
	ch, bits, kind, bgra, ok := testcase.TextureFormat("bgra8unorm")
	assert.Equal(t, []any{4, 8, "unorm", true, true}, []any{ch, bits, kind, bgra, ok})
	assert.Nil(t, testcase.TextureCodes(nil, 0))
}
