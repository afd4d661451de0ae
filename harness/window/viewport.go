package window

// Viewport is where an image is drawn in a framebuffer: the rectangle
// [X, X+W) × [Y, Y+H) in framebuffer pixels (origin top left), showing an
// ImgW × ImgH image.
type Viewport struct {
	X, Y, W, H int
	ImgW, ImgH int
}

// Fit places an imgW × imgH image in an fbW × fbH framebuffer: scaled by
// the largest whole factor ≥ 1 that fits, or, when even factor 1 does not
// fit, shrunk to fit with its aspect ratio kept, and centred. An empty
// image or framebuffer gives an empty viewport.
func Fit(fbW, fbH, imgW, imgH int) Viewport {
	v := Viewport{ImgW: imgW, ImgH: imgH}
	if fbW <= 0 || fbH <= 0 || imgW <= 0 || imgH <= 0 {
		return v
	}
	if k := min(fbW/imgW, fbH/imgH); k >= 1 {
		v.W, v.H = imgW*k, imgH*k
	} else if fbW*imgH <= fbH*imgW { // the width binds
		v.W, v.H = fbW, max(1, imgH*fbW/imgW)
	} else {
		v.W, v.H = max(1, imgW*fbH/imgH), fbH
	}
	v.X, v.Y = (fbW-v.W)/2, (fbH-v.H)/2
	return v
}

// ImagePoint is the image pixel drawn at framebuffer point (x, y) (a
// cursor position, in framebuffer pixels), false outside the image. At a
// whole scale factor k, framebuffer pixel X+k·i+j (0 ≤ j < k) shows image
// column i, as the nearest-filtering sampler draws it.
func (v Viewport) ImagePoint(x, y float64) (int, int, bool) {
	if v.W <= 0 || v.H <= 0 || x < float64(v.X) || y < float64(v.Y) || x >= float64(v.X+v.W) || y >= float64(v.Y+v.H) {
		return 0, 0, false
	}
	ix := int((x - float64(v.X)) * float64(v.ImgW) / float64(v.W))
	iy := int((y - float64(v.Y)) * float64(v.ImgH) / float64(v.H))
	return min(ix, v.ImgW-1), min(iy, v.ImgH-1), true
}

// Largest window WindowSize proposes, in screen coordinates, and the
// largest whole factor it enlarges an image by.
const (
	MaxWidth  = 1280
	MaxHeight = 960
	MaxScale  = 4
)

// WindowSize is the size of a window for an imgW × imgH image: the image
// enlarged by the largest whole factor up to MaxScale that keeps it within
// MaxWidth × MaxHeight (at least 1: a larger image gets its own size,
// and Fit shrinks it into whatever framebuffer the window system gives).
func WindowSize(imgW, imgH int) (w, h int) {
	if imgW <= 0 || imgH <= 0 {
		return MaxWidth / 2, MaxHeight / 2
	}
	k := max(1, min(MaxScale, MaxWidth/imgW, MaxHeight/imgH))
	return imgW * k, imgH * k
}
