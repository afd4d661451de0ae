//go:build glfw

package window

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain runs the tests with an X display: without one (DISPLAY unset)
// it runs this test binary again under `xvfb-run -a` (a virtual X server;
// Debian package xvfb, which `make deps` installs) and exits with its
// status.
func TestMain(m *testing.M) {
	if os.Getenv("XDG_RUNTIME_DIR") == "" { // wgpu's Wayland probe complains without one
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("gpudiff-xdg-%d", os.Getuid()))
		if os.MkdirAll(dir, 0o700) == nil {
			os.Setenv("XDG_RUNTIME_DIR", dir)
		}
	}
	if os.Getenv("DISPLAY") != "" {
		os.Exit(m.Run())
	}
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness/window tests need an X display: DISPLAY is not set and xvfb-run is missing (Debian package xvfb: run make deps)")
		os.Exit(1)
	}
	cmd := exec.Command(xvfb, append([]string{"-a", os.Args[0]}, os.Args[1:]...)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			os.Exit(ee.ExitCode())
		}
		fmt.Fprintln(os.Stderr, "xvfb-run:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// pattern is a w×h image whose every pixel has its own colour.
func pattern(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, color.RGBA{uint8(x * 7), uint8(y * 11), uint8(x*3 + y*5), 255})
		}
	}
	return img
}

// checkFrame checks every pixel of shot, a framebuffer showing img: inside
// Fit's viewport exactly img's pixel under it (nearest filtering at a
// whole factor, bytes unchanged), outside the letterbox grey.
func checkFrame(t *testing.T, shot, img *image.RGBA) {
	t.Helper()
	b := shot.Bounds()
	v := Fit(b.Dx(), b.Dy(), img.Bounds().Dx(), img.Bounds().Dy())
	k := v.W / v.ImgW
	require.Equal(t, v.W, k*v.ImgW, "a whole factor")
	bad := 0
	for y := 0; y < b.Dy() && bad < 10; y++ {
		for x := 0; x < b.Dx() && bad < 10; x++ {
			got := shot.RGBAAt(x, y)
			if ix, iy, ok := v.ImagePoint(float64(x)+0.5, float64(y)+0.5); ok {
				if want := img.RGBAAt(ix, iy); got != want {
					bad++
					t.Errorf("pixel (%d, %d) is %v, want image pixel (%d, %d) %v", x, y, got, ix, iy, want)
				}
				continue
			}
			if got.R < 127 || got.R > 128 || got.G != got.R || got.B != got.R || got.A != 255 {
				bad++
				t.Errorf("letterbox pixel (%d, %d) is %v, want mid grey", x, y, got)
			}
		}
	}
}

// A screenshot is the frame: the image enlarged by a whole factor with
// every byte kept, centred in grey; a second image of another size
// replaces the first.
func TestScreenshotShowsTheImage(t *testing.T) {
	img := pattern(37, 23)
	w, err := Open(Options{Title: "gpudiff window test", Width: 3*37 + 10, Height: 3*23 + 5, Hidden: true})
	require.NoError(t, err)
	defer w.Close()
	require.NoError(t, w.SetImage(img))
	shot, err := w.Screenshot()
	require.NoError(t, err)
	fw, fh := w.win.GetFramebufferSize()
	require.Equal(t, image.Rect(0, 0, fw, fh), shot.Bounds(), "the framebuffer's size")
	v := w.Viewport()
	require.Equal(t, 3*37, v.W, "factor 3: %+v", v)
	checkFrame(t, shot, img)

	// A sub-image (stride wider than its rows) of another size.
	big := pattern(60, 40)
	sub := big.SubImage(image.Rect(5, 7, 25, 17)).(*image.RGBA)
	require.NoError(t, w.SetImage(sub))
	shot, err = w.Screenshot()
	require.NoError(t, err)
	want := image.NewRGBA(image.Rect(0, 0, 20, 10))
	for y := 0; y < 10; y++ {
		for x := 0; x < 20; x++ {
			want.SetRGBA(x, y, big.RGBAAt(x+5, y+7))
		}
	}
	checkFrame(t, shot, want)
	assert.Equal(t, 20*6, w.Viewport().W, "factor 6 (⌊121/20⌋ < ⌊74/10⌋) for a 20×10 image in %d×%d", fw, fh)
	assert.NoError(t, w.Draw(), "presenting to the (unmapped) window")
}

// Without a display Open fails with an error saying how to get one, and
// never panics.
func TestOpenWithoutDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	_, err := Open(Options{Width: 10, Height: 10, Hidden: true})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "xvfb-run")
}
