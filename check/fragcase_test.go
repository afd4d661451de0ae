package check

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/oracle"
)

// TestFragmentCaseRoundTrip: a fragment entry point's case file (size,
// textures, samplers, reference per pixel) reads back as the same case —
// the module, the entry point, the size, every texel code and sampler
// field — and its replay in the interpreter gives the same reference,
// pixel for pixel (no GPU here: cmd/gpudiff's fragment_case script
// replays it on lavapipe). The record refuses what cannot be a fragment
// case, positioned by file.
func TestFragmentCaseRoundTrip(t *testing.T) {
	c := loadTex(t, checkerSample, testcase.LoadOptions{Size: &[2]uint32{6, 3}})
	x, err := Execute(context.Background(), c, CaseOptions(c, Options{}))
	require.NoError(t, err)
	rec := x.Record("test")
	require.NotNil(t, rec)
	assert.Equal(t, []uint32{6, 3}, rec.Size)
	assert.Equal(t, 18, rec.Invocations)
	require.Len(t, rec.Reference, 18)

	path := filepath.Join(t.TempDir(), "ck.case.wgsl")
	require.NoError(t, testcase.WriteCase(path, c.Module, rec))
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(src), "// fragment entry point main, 6x3 pixels; replay: gpudiff repro THIS_FILE\n")

	back, err := LoadReplay(path, testcase.LoadOptions{})
	require.NoError(t, err)
	require.Equal(t, testcase.KindFragment, back.Kind)
	assert.Equal(t, "main", back.Func.Name)
	assert.Equal(t, [2]uint32{6, 3}, back.Size)
	require.Len(t, back.Textures, len(c.Textures))
	for name, tex := range c.Textures {
		require.Contains(t, back.Textures, name)
		assert.Equal(t, tex.Format, back.Textures[name].Format, name)
		assert.Equal(t, tex.MipLevels, back.Textures[name].MipLevels, name)
		assert.Equal(t, tex.Data, back.Textures[name].Data, "%s: every texel code", name)
	}
	for name, s := range c.Samplers {
		assert.Equal(t, *s, *back.Samplers[name], name)
	}
	bx, err := Execute(context.Background(), back, CaseOptions(back, Options{}))
	require.NoError(t, err)
	for i := range x.Reference {
		assert.Equal(t, string(oracle.InvocationJSON(x.Reference[i], x.Names)), string(oracle.InvocationJSON(bx.Reference[i], bx.Names)), "pixel %d", i)
	}
	out := bx.Replay(back.Record)
	assert.Equal(t, ReplayFixed, out.Outcome, "a pass replays as a pass: %s", out.Message)

	_, _, _, err = testcase.ParseCaseFile("ck.wgsl", src)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ck.wgsl: the case of fragment entry point main (6x3 pixels) is a render")
	bad := []struct{ from, to, want string }{
		{`"size": [6,3]`, `"size": [6,4]`, "size 6x4 with 18 invocations"},
		{`"size": [6,3]`, `"size": [6,0]`, "size [6 0]: want [width, height]"},
		{`"size": [6,3]`, `"size": [6,3], "workgroups": [1]`, "both workgroups"},
		{`"inputs": {`, `"inputs": {"nope": 1, `, `no storage or uniform binding named "nope"`},
	}
	for _, b := range bad {
		require.Contains(t, string(src), b.from)
		bad := bytes.Replace(src, []byte(b.from), []byte(b.to), 1)
		_, err := testcase.Load("ck.wgsl", testcase.LoadOptions{ReadFile: func(string) ([]byte, error) { return bad, nil }})
		require.Error(t, err, b.to)
		assert.Contains(t, err.Error(), b.want)
		assert.True(t, strings.HasPrefix(err.Error(), "ck.wgsl"), "positioned: %v", err)
	}
}
