package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"html"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/flatten"
)

// TestRunHTMLPage: with one flatten rule broken on purpose, `run --html`
// writes one self-contained page naming each bug of the --report once,
// with its case file, the command that replays it and pictures of the case
// as data: URIs that decode to PNG images; without a corpus the page says
// there is no picture.
func TestRunHTMLPage(t *testing.T) {
	t.Setenv(flatten.FaultEnv, "retest-else")
	dir := t.TempDir()
	corpus, page, report := filepath.Join(dir, "cases"), filepath.Join(dir, "page.html"), filepath.Join(dir, "r.json")
	code, out, errOut := gpudiff(t, "run", "--seed", "1", "--count", "30", "--no-gpu", "--corpus", corpus, "--html", page, "--report", report)
	require.Equal(t, 1, code, "the broken rule is found:\n%s\n%s", out, errOut)

	var rep struct {
		Programs int `json:"programs"`
		Bugs     []struct {
			Signature string `json:"signature"`
			Case      string `json:"case"`
		} `json:"bugs"`
	}
	data, err := os.ReadFile(report)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &rep))
	require.NotEmpty(t, rep.Bugs)

	raw, err := os.ReadFile(page)
	require.NoError(t, err)
	text := html.UnescapeString(string(raw))
	assert.NotRegexp(t, `(?i)(src|href)="(https?:)?//`, string(raw), "no external resources")
	assert.Contains(t, text, "gpudiff run --seed 1: 30 programs")
	assert.Regexp(t, `<th>programs</th><td[^>]*>30</td>`, text)
	for _, b := range rep.Bugs {
		assert.Equal(t, 1, strings.Count(text, "<code>"+b.Signature+"</code>"), "each bug once: %s", b.Signature)
		require.NotEmpty(t, b.Case, "a new bug's case is saved")
		assert.Contains(t, text, "gpudiff repro "+filepath.Join(corpus, b.Case))
	}
	imgs := regexp.MustCompile(`<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"`).FindAllStringSubmatch(text, -1)
	require.GreaterOrEqual(t, len(imgs), len(rep.Bugs), "at least the reference's picture per bug")
	for _, m := range imgs {
		b, err := base64.StdEncoding.DecodeString(m[1])
		require.NoError(t, err)
		img, err := png.Decode(bytes.NewReader(b))
		require.NoError(t, err)
		assert.Positive(t, img.Bounds().Dx())
	}

	// No corpus: the bugs are there, their pictures are not.
	code, _, _ = gpudiff(t, "run", "--seed", "1", "--count", "30", "--no-gpu", "--corpus", "", "--html", page)
	require.Equal(t, 1, code)
	raw, err = os.ReadFile(page)
	require.NoError(t, err)
	text = html.UnescapeString(string(raw))
	assert.Contains(t, text, "<code>"+rep.Bugs[0].Signature+"</code>")
	assert.NotContains(t, text, "<img")
	assert.Contains(t, text, "no case file was saved for this bug")
}
