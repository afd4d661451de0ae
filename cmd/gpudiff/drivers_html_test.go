package main

import (
	"bytes"
	"encoding/base64"
	"html"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDriversHTMLPictures is issue 16 item 2's last part: the drivers page
// embeds, next to each divergence, the picture of the diverging run, and
// once per case the reference's, as data:image/png URIs; a matrix without
// divergences has no picture. findings/lavapipe_loop_exit_wrap.wgsl
// diverges on lavapipe (WGSL and gpudiff's SPIR-V alike).
func TestDriversHTMLPictures(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus")
	require.NoError(t, os.MkdirAll(corpus, 0o755))
	src, err := os.ReadFile(repo("findings/lavapipe_loop_exit_wrap.wgsl"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(corpus, "lavapipe_loop_exit_wrap.wgsl"), src, 0o644))
	page := filepath.Join(dir, "page.html")
	code, _, errOut := gpudiffMine(t, "drivers", "--corpus", corpus, "--html", page)
	require.Equal(t, 1, code, "the finding diverges: %s", errOut)
	raw, err := os.ReadFile(page)
	require.NoError(t, err)
	text := html.UnescapeString(string(raw))
	assert.NotRegexp(t, `(?i)(src|href)="(https?:)?//`, string(raw), "no external resources")

	img := `<img src="data:image/png;base64,([A-Za-z0-9+/=]+)" alt="([^"]+)">`
	imgs := regexp.MustCompile(img).FindAllStringSubmatch(text, -1)
	require.NotEmpty(t, imgs)
	alts := map[string]bool{}
	for _, m := range imgs {
		b, err := base64.StdEncoding.DecodeString(m[1])
		require.NoError(t, err)
		assert.Equal(t, "image/png", http.DetectContentType(b), m[2])
		pic, err := png.Decode(bytes.NewReader(b))
		require.NoError(t, err, m[2])
		assert.Positive(t, pic.Bounds().Dx())
		alts[m[2]] = true
	}
	assert.True(t, alts["interp kernel ir"], "the reference's picture: %v", alts)
	// The diverging run's picture is inside its divergence's line.
	next := regexp.MustCompile(`<div class="div"><code>wgpu-vulkan:llvmpipe</code> wgsl original: differs[^<]*(?:<[^i/][^>]*>[^<]*</[^>]+>[^<]*)*<br><figure>` + img)
	m := next.FindStringSubmatch(text)
	require.NotNil(t, m, "a picture next to the lavapipe WGSL divergence")
	assert.Equal(t, "wgpu-vulkan:llvmpipe kernel wgsl raw", m[2])
	assert.Len(t, imgs, len(alts), "each picture once")
	for a := range alts {
		assert.Regexp(t, `^(interp|wgpu-vulkan:llvmpipe) `, a, "the reference and the diverging runs only")
	}

	// No divergence, no picture.
	quiet := filepath.Join(dir, "quiet")
	require.NoError(t, os.MkdirAll(quiet, 0o755))
	src, err = os.ReadFile(repo("shaders/examples/bit_twiddle.wgsl"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(quiet, "bit_twiddle.wgsl"), src, 0o644))
	code, _, errOut = gpudiffMine(t, "drivers", "--corpus", quiet, "--html", page)
	require.Equal(t, 0, code, errOut)
	raw, err = os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(raw), "<h2>Divergences</h2>\n<p>None.</p>")
	assert.NotContains(t, string(raw), "<img")
}
