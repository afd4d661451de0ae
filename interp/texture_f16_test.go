package interp

import (
	"math"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
)

// TestF16Neighbours: the codes a store of x to a float16 texel may
// leave, by hand (binary16: 1 = 0x3C00, fraction steps of 2^-10 there;
// 65504 = 0x7BFF the largest finite; 2^-24 = 0x0001): x's two neighbours
// in magnitude with x's sign, one code when x is a binary16 value, any
// (ok false) beyond 65504, and +0's code for a zero of either sign.
func TestF16Neighbours(t *testing.T) {
	for _, c := range []struct {
		x      float32
		lo, hi uint16
		ok     bool
	}{
		{1, 0x3C00, 0x3C00, true},
		{1 + 0x1p-11, 0x3C00, 0x3C01, true},
		{1 + 3*0x1p-11, 0x3C01, 0x3C02, true},
		{-(1 + 0x1p-11), 0xBC00, 0xBC01, true},
		{0.1, 0x2E66, 0x2E67, true},
		{65504, 0x7BFF, 0x7BFF, true},
		{65503, 0x7BFE, 0x7BFF, true},
		{65505, 0, 0, false},
		{float32(math.Inf(-1)), 0, 0, false},
		{0x1p-24, 0x0001, 0x0001, true},
		{0x1p-26, 0x0000, 0x0001, true},
		{-0x1p-26, 0x8000, 0x8001, true},
		{3 * 0x1p-26, 0x0000, 0x0001, true},
		{0, 0, 0, true},
		{float32(math.Copysign(0, -1)), 0, 0, true},
	} {
		lo, hi, ok := f16Neighbours(c.x)
		assert.Equal(t, c.ok, ok, "%g", c.x)
		if ok {
			assert.Equal(t, [2]uint16{c.lo, c.hi}, [2]uint16{lo, hi}, "%g", c.x)
		}
	}
}

// TestParseTexFormatReadsIRsTable: every format of ir's table parses to
// its row (the 16-bit normalized formats, which the old name parser
// accepted, are not in it: WebGPU core has none, and no GPU run could
// upload them), and a format the table lacks is refused.
func TestParseTexFormatReadsIRsTable(t *testing.T) {
	for _, fi := range ir.TexFormats[1:] {
		f, err := parseTexFormat(fi.Name)
		if assert.NoError(t, err, fi.Name) {
			assert.Equal(t, texFormat{name: fi.Name, channels: fi.Channels, bits: 8 * fi.Bytes, kind: fi.ChannelType(), bgra: fi.BGRA}, f)
		}
	}
	f, _ := parseTexFormat("bgra8unorm")
	assert.Equal(t, texFormat{name: "bgra8unorm", channels: 4, bits: 8, kind: "unorm", bgra: true}, f)
	f, _ = parseTexFormat("depth16unorm")
	assert.Equal(t, texFormat{name: "depth16unorm", channels: 1, bits: 16, kind: "unorm"}, f)
	for _, s := range []string{"r16unorm", "rgba16snorm", "depth24plus", "rgb8unorm"} {
		_, err := parseTexFormat(s)
		assert.Error(t, err, s)
	}
}
