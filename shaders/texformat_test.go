package shaders

import (
	"testing"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
)

// TestHarnessFormatsAreIRs: harness depends on no other gpudiff package,
// so it keeps its own texel-size map; ir's format table (ir.TexFormats)
// is the one description of the formats. Format by format, the two list
// the same formats with the same texel size, and the bind group layout's
// sample type harness derives from a format's name (LayoutSampleType) is
// the one ir's columns give: "depth" for a depth format, "uint" or
// "sint" for an integer one, "float" for a filterable one, else
// "unfilterable-float".
func TestHarnessFormatsAreIRs(t *testing.T) {
	sizes := harness.TexelSizes()
	for _, fi := range ir.TexFormats[1:] {
		assert.Equal(t, fi.TexelSize(), sizes[fi.Name], "%s: harness's texel size", fi.Name)
		assert.Equal(t, fi.TexelSize(), harness.TexelSize(fi.Name), "%s: harness.TexelSize", fi.Name)
		want := "unfilterable-float"
		switch {
		case fi.Depth:
			want = "depth"
		case fi.Channel == ir.KindU32:
			want = "uint"
		case fi.Channel == ir.KindI32:
			want = "sint"
		case fi.Filterable:
			want = "float"
		}
		assert.Equal(t, want, harness.TextureBinding{Format: fi.Name}.LayoutSampleType(), "%s: sample type", fi.Name)
		delete(sizes, fi.Name)
	}
	assert.Empty(t, sizes, "formats harness uploads that ir's table lacks")
}
