//go:build glfw

package main

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/oracle"
	"github.com/gpudiff/gpudiff/report"
)

// The viewer (issue 16 items 3 and 4): `gpudiff view` of README's
// examples, run as the built binary (this test binary, which
// testscript.Main puts on PATH as gpudiff, built with -tags glfw) under a
// virtual X server (xvfb-run -a), its screenshots decoded and checked pixel
// by pixel. `make test-viewer` runs these tests.

// viewDir is a work directory holding copies of the directories README's
// view examples name.
func viewDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"shaders/examples", "shaders/textures", "findings"} {
		require.NoError(t, os.CopyFS(filepath.Join(dir, d), os.DirFS(repo(d))))
	}
	return dir
}

// xvfbGpudiff runs `xvfb-run -a gpudiff ARGS` in dir and returns gpudiff's
// exit code and output. It fails the test, saying what to install, when
// xvfb-run is missing.
func xvfbGpudiff(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		t.Fatalf("xvfb-run is missing: the viewer's tests run gpudiff view under a virtual X server (Debian package xvfb; make deps installs it)")
	}
	return runGpudiffBinary(t, dir, nil, xvfb, append([]string{"-a", gpudiffBinary(t)}, args...)...)
}

// gpudiffBinary is the gpudiff on PATH: this test binary.
func gpudiffBinary(t *testing.T) string {
	t.Helper()
	gd, err := exec.LookPath("gpudiff")
	require.NoError(t, err, "testscript.Main puts this test binary on PATH as gpudiff")
	return gd
}

func runGpudiffBinary(t *testing.T, dir string, env []string, prog string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		require.True(t, errors.As(err, &ee), "%s: %v", prog, err)
		code = ee.ExitCode()
	}
	return code, out.String(), errb.String()
}

// decodePNGFile decodes a PNG file (by decoding, never by bytes) as RGBA.
func decodePNGFile(t *testing.T, path string) *image.RGBA {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err, path)
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Bounds(), img, img.Bounds().Min, draw.Src)
	return rgba
}

// enlargement checks that shot is pic enlarged by a whole factor k: shot's
// pixel (x, y) is pic's pixel (x/k, y/k), every one. It returns k.
func enlargement(t *testing.T, shot, pic *image.RGBA) int {
	t.Helper()
	sw, sh, pw, ph := shot.Bounds().Dx(), shot.Bounds().Dy(), pic.Bounds().Dx(), pic.Bounds().Dy()
	k := sw / pw
	require.True(t, k >= 1 && sw == k*pw && sh == k*ph, "a %d×%d screenshot of a %d×%d picture: not a whole enlargement", sw, sh, pw, ph)
	bad := 0
	for y := 0; y < sh && bad < 10; y++ {
		for x := 0; x < sw && bad < 10; x++ {
			if got, want := shot.RGBAAt(x, y), pic.RGBAAt(x/k, y/k); got != want {
				bad++
				t.Errorf("screenshot pixel (%d, %d) is %v, the picture's (%d, %d) %v", x, y, got, x/k, y/k, want)
			}
		}
	}
	return k
}

// at is the screenshot pixel at the centre of the k×k block showing
// picture pixel (x, y).
func at(shot *image.RGBA, k, x, y int) color.RGBA { return shot.RGBAAt(k*x+k/2, k*y+k/2) }

func assertNear(t *testing.T, want [3]int, got color.RGBA, what string) {
	t.Helper()
	have := [3]int{int(got.R), int(got.G), int(got.B)}
	for i := range want {
		assert.InDelta(t, want[i], have[i], 2, "%s: %v, want %v", what, have, want)
	}
}

// execPicture runs gpudiff ARGS --png DIR in-process (exit code want) and
// decodes the picture it drew of run.
func execPicture(t *testing.T, want int, run oracle.Run, args ...string) *image.RGBA {
	t.Helper()
	pics := t.TempDir()
	code, _, errOut := gpudiff(t, append(args, "--png", pics)...)
	require.Equal(t, want, code, errOut)
	return decodePNGFile(t, filepath.Join(pics, report.PictureFile(run)))
}

var wroteRE = regexp.MustCompile(`(?m)^wrote (\S+): (\S+) (\S+) (\S+) (\S+) \((\S+)\), (\d+)×(\d+)$`)

// README's acceptance: `xvfb-run gpudiff view shaders/examples/shade.wgsl
// --screenshot out.png` writes a PNG of the output grid. It is exec
// --png's picture of the run shown (the first GPU run: every run agrees)
// enlarged by a whole factor, byte for byte; the cells of the largest
// and smallest reference values, 2e30 (invocation 14, 1e30 doubled) and
// -1e30 (invocation 15, left as it is), are the colour map's ends, white
// and black, and no cell is framed red.
func TestViewScreenshotShade(t *testing.T) {
	dir := viewDir(t)
	code, out, errOut := xvfbGpudiff(t, dir, "view", "shaders/examples/shade.wgsl", "--screenshot", "out.png")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Contains(t, out, "verdict: pass", "exec's table first")
	m := wroteRE.FindStringSubmatch(out)
	require.NotNil(t, m, out)
	assert.Equal(t, []string{"out.png", "shade", "wgsl", "portable", "pass"}, []string{m[1], m[3], m[4], m[5], m[6]}, m[0])
	adapter := m[2]
	assert.NotEqual(t, "interp", adapter, "the first GPU run is shown")

	shot := decodePNGFile(t, filepath.Join(dir, "out.png"))
	w, _ := strconv.Atoi(m[7])
	h, _ := strconv.Atoi(m[8])
	assert.Equal(t, image.Rect(0, 0, w, h), shot.Bounds())

	pic := execPicture(t, 0, oracle.Run{Adapter: adapter, Function: "shade", Format: oracle.FormatWGSL, Mode: "portable"},
		"exec", filepath.Join(dir, "shaders/examples/shade.wgsl"), "--adapter", adapter)
	k := enlargement(t, shot, pic)
	assert.GreaterOrEqual(t, k, 2, "a small picture is enlarged")

	for i, want := range map[int][3]int{14: {255, 255, 255}, 15: {0, 0, 0}} {
		r := report.PictureCell(16, i)
		assertNear(t, want, at(shot, k, (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2), "centre of cell "+strconv.Itoa(i))
	}
	for i := 0; i < 16; i++ {
		r := report.PictureCell(16, i)
		y := (r.Min.Y + r.Max.Y) / 2
		assert.Equal(t, at(shot, k, (r.Min.X+r.Max.X)/2, y), at(shot, k, r.Min.X, y), "cell %d is one colour to its left edge: no red frame", i)
	}
}

// findings/lavapipe_loop_exit_wrap.wgsl (lavapipe returns 1 where WGSL
// gives 2; the flattened twin agrees): view opens on the disagreeing run,
// whose only cell is framed red (report.MismatchColor) around the colour
// of 1 — below the reference's range [2, 2], so the map's bottom, black;
// --keys f shows the twin's run, the same cell unframed. The exit code is
// exec's: 1, a run disagrees.
func TestViewScreenshotMismatch(t *testing.T) {
	dir := viewDir(t)
	code, out, errOut := xvfbGpudiff(t, dir, "view", "findings/lavapipe_loop_exit_wrap.wgsl", "--screenshot", "mismatch.png")
	require.Equal(t, 1, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	m := wroteRE.FindStringSubmatch(out)
	require.NotNil(t, m, out)
	assert.Equal(t, "mismatch.png: wgpu-vulkan:llvmpipe kernel wgsl portable (mismatch)", strings.Join(m[1:2], "")+": "+strings.Join(m[2:6], " ")+" ("+m[6]+")")
	shot := decodePNGFile(t, filepath.Join(dir, "mismatch.png"))
	finding := filepath.Join(dir, "findings/lavapipe_loop_exit_wrap.wgsl")
	lavapipe := oracle.Run{Adapter: "wgpu-vulkan:llvmpipe", Function: "kernel", Format: oracle.FormatWGSL, Mode: "portable"}
	k := enlargement(t, shot, execPicture(t, 1, lavapipe, "exec", finding, "--adapter", lavapipe.Adapter))
	r := report.PictureCell(1, 0)
	cy := (r.Min.Y + r.Max.Y) / 2
	assert.Equal(t, report.MismatchColor, at(shot, k, r.Min.X, cy), "the left edge of the disagreeing cell")
	assert.Equal(t, report.MismatchColor, at(shot, k, r.Min.X+1, r.Min.Y), "its top edge")
	assertNear(t, [3]int{0, 0, 0}, at(shot, k, (r.Min.X+r.Max.X)/2, cy), "its centre: 1, below the range")

	code, out, errOut = xvfbGpudiff(t, dir, "view", "findings/lavapipe_loop_exit_wrap.wgsl", "--keys", "f", "--screenshot", "twin.png")
	require.Equal(t, 1, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Contains(t, out, "wrote twin.png: wgpu-vulkan:llvmpipe kernel_flat wgsl portable (pass)")
	shot = decodePNGFile(t, filepath.Join(dir, "twin.png"))
	lavapipe.Function = "kernel_flat"
	enlargement(t, shot, execPicture(t, 1, lavapipe, "exec", finding, "--adapter", lavapipe.Adapter, "--flat"))
	centre := at(shot, k, (r.Min.X+r.Max.X)/2, cy)
	assertNear(t, [3]int{0, 0, 0}, centre, "the twin's cell: 2, the range's bottom")
	assert.Equal(t, centre, at(shot, k, r.Min.X, cy), "the twin's cell has no frame")
}

// A texture picture in the window (issue 24 point 7): with --keys p the
// viewer steps from lavapipe's run of shaders/textures/store_load.wgsl to
// that run's picture of its input texture src, and the screenshot is exec
// --png's picture of it (report.TexturePictureFile) enlarged by a whole
// factor, pixel for pixel.
func TestViewScreenshotTexture(t *testing.T) {
	dir := viewDir(t)
	code, out, errOut := xvfbGpudiff(t, dir, "view", "shaders/textures/store_load.wgsl", "--keys", "p", "--screenshot", "tex.png")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Regexp(t, `(?m)^wrote tex.png: wgpu-vulkan:llvmpipe main wgsl portable src \(pass\), \d+×\d+$`, out)
	shot := decodePNGFile(t, filepath.Join(dir, "tex.png"))
	pics := t.TempDir()
	code, _, errOut = gpudiff(t, "exec", filepath.Join(dir, "shaders/textures/store_load.wgsl"), "--adapter", "wgpu-vulkan:llvmpipe", "--png", pics)
	require.Equal(t, 0, code, errOut)
	run := oracle.Run{Adapter: "wgpu-vulkan:llvmpipe", Function: "main", Format: oracle.FormatWGSL, Mode: "portable"}
	enlargement(t, shot, decodePNGFile(t, filepath.Join(pics, report.TexturePictureFile(run, "src"))))
}

// README's window examples, closed by a q in --keys once the window has
// presented its first frame (a window left open would wait for a person).
func TestViewWindowPresents(t *testing.T) {
	dir := viewDir(t)
	// README: gpudiff view shaders/examples/shade.wgsl --flat --spirv
	code, out, errOut := xvfbGpudiff(t, dir, "view", "shaders/examples/shade.wgsl", "--flat", "--spirv", "--keys", "fsq")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Regexp(t, `(?m)^showing wgpu-vulkan:\S+ shade_flat spirv portable \(pass\)$`, out)
	assert.Contains(t, out, "keys: "+report.ViewKeys)

	// README: gpudiff view findings/lavapipe_loop_exit_wrap.wgsl
	code, out, errOut = xvfbGpudiff(t, dir, "view", "findings/lavapipe_loop_exit_wrap.wgsl", "--keys", "tq")
	require.Equal(t, 1, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Contains(t, out, "key 't': only one stage: compute")
	assert.Contains(t, out, "showing wgpu-vulkan:llvmpipe kernel wgsl portable (mismatch)")
	assert.Empty(t, errOut)
}

// With no display view exits 2 (after exec's table) saying how to get
// one, and writes no file.
func TestViewWithoutDisplay(t *testing.T) {
	dir := viewDir(t)
	code, out, errOut := runGpudiffBinary(t, dir, []string{"DISPLAY=", "WAYLAND_DISPLAY="}, gpudiffBinary(t), "view", "shaders/examples/shade.wgsl", "--no-gpu", "--screenshot", "out.png")
	assert.Equal(t, 2, code)
	assert.Contains(t, out, "verdict: pass")
	assert.Equal(t, "gpudiff view: window: no display (DISPLAY is not set): run on a desktop, or under a virtual X server: xvfb-run -a gpudiff …\n", errOut)
	assert.NoFileExists(t, filepath.Join(dir, "out.png"))

	code, _, errOut = runGpudiffBinary(t, dir, nil, gpudiffBinary(t), "view", "shaders/examples/shade.wgsl", "--screenshot", "no/such/dir/out.png")
	assert.Equal(t, 2, code)
	assert.Equal(t, "gpudiff view: --screenshot no/such/dir/out.png: no directory no/such/dir\n", errOut)
}
