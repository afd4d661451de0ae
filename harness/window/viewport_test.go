package window

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Fit scales by the largest whole factor that fits and centres; a
// framebuffer smaller than the image shrinks it with its aspect ratio.
func TestFit(t *testing.T) {
	for _, c := range []struct {
		fbW, fbH, imgW, imgH int
		want                 Viewport
	}{
		{736, 416, 368, 208, Viewport{0, 0, 736, 416, 368, 208}},
		{800, 500, 368, 208, Viewport{32, 42, 736, 416, 368, 208}},           // factor 2, centred
		{1200, 416, 368, 208, Viewport{232, 0, 736, 416, 368, 208}},          // the height binds
		{368, 208, 368, 208, Viewport{0, 0, 368, 208, 368, 208}},             // factor 1
		{184, 300, 368, 208, Viewport{0, 98, 184, 104, 368, 208}},            // shrunk, the width binds
		{400, 104, 368, 208, Viewport{108, 0, 184, 104, 368, 208}},           // shrunk, the height binds
		{0, 104, 368, 208, Viewport{ImgW: 368, ImgH: 208}},                   // minimised
		{100, 100, 0, 0, Viewport{ImgW: 0, ImgH: 0}},                         // no image
		{1000, 1000, 3, 1, Viewport{0, 333, 999, 333, 3, 1}},                 // factor 333
		{10, 10, 1000, 1, Viewport{0, 4, 10, 1, 1000, 1}},                    // at least a pixel high
		{10, 10, 1, 1000, Viewport{4, 0, 1, 10, 1, 1000}},                    // at least a pixel wide
		{37, 21, 5, 5, Viewport{(37 - 20) / 2, (21 - 20) / 2, 20, 20, 5, 5}}, // factor 4
	} {
		assert.Equal(t, c.want, Fit(c.fbW, c.fbH, c.imgW, c.imgH), "Fit(%d, %d, %d, %d)", c.fbW, c.fbH, c.imgW, c.imgH)
	}
}

// ImagePoint inverts the scaling: at factor 2 with a (32, 42) offset,
// framebuffer pixels 32 and 33 show column 0, 34 column 1; the borders
// and the letterbox are outside.
func TestImagePoint(t *testing.T) {
	v := Fit(800, 500, 368, 208)
	for _, c := range []struct {
		x, y   float64
		ix, iy int
		ok     bool
	}{
		{32, 42, 0, 0, true},
		{33.9, 43.9, 0, 0, true},
		{34, 44, 1, 1, true},
		{32 + 736 - 0.5, 42 + 416 - 0.5, 367, 207, true},
		{31.9, 50, 0, 0, false},
		{50, 41.9, 0, 0, false},
		{32 + 736, 50, 0, 0, false},
		{50, 42 + 416, 0, 0, false},
	} {
		ix, iy, ok := v.ImagePoint(c.x, c.y)
		assert.Equal(t, c.ok, ok, "(%v, %v)", c.x, c.y)
		if c.ok {
			assert.Equal(t, [2]int{c.ix, c.iy}, [2]int{ix, iy}, "(%v, %v)", c.x, c.y)
		}
	}
	_, _, ok := Viewport{}.ImagePoint(0, 0)
	assert.False(t, ok, "an empty viewport has no pixel")
}

// WindowSize enlarges by a whole factor up to MaxScale within MaxWidth ×
// MaxHeight, never below the image's own size.
func TestWindowSize(t *testing.T) {
	for _, c := range []struct{ imgW, imgH, w, h int }{
		{368, 208, 1104, 624}, // factor 3: 4 would be 1472 wide
		{100, 100, 400, 400},  // MaxScale
		{700, 100, 700, 100},  // factor 1
		{2000, 50, 2000, 50},  // larger than MaxWidth: its own size
		{0, 10, MaxWidth / 2, MaxHeight / 2},
	} {
		w, h := WindowSize(c.imgW, c.imgH)
		assert.Equal(t, [2]int{c.w, c.h}, [2]int{w, h}, "WindowSize(%d, %d)", c.imgW, c.imgH)
	}
}
