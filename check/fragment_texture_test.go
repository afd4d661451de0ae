package check

import (
	"context"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/oracle"
)

const checkerSample = "../shaders/textures/checker_sample.wgsl"

// renderDevice returns fixed attachment bytes: a stack that rendered them.
type renderDevice struct {
	out  []byte
	jobs *[]harness.Dispatch
}

func (d renderDevice) Info() harness.AdapterInfo {
	return harness.AdapterInfo{Name: "fake-render", Implementation: "fake"}
}
func (d renderDevice) Run(_ context.Context, _ harness.Kernel, job harness.Dispatch) ([]byte, error) {
	*d.jobs = append(*d.jobs, job)
	return d.out, nil
}

// renderOf is the attachments a stack renders when each pixel's outputs
// are the reference's values (midpoints) of res: two rgba32float
// attachments (checker_sample.wgsl's near and lin), row by row.
func renderOf(t *testing.T, res *Result) []byte {
	t.Helper()
	n := len(res.Reference)
	out := make([]byte, 2*16*n)
	for p, inv := range res.Reference {
		v := inv[0].Value
		require.Len(t, v.Elems, 2)
		for a, member := range v.Elems {
			for c, ch := range member.Elems {
				binary.LittleEndian.PutUint32(out[a*16*n+16*p+4*c:], ch.Bits)
			}
		}
	}
	return out
}

// TestFragmentTextureCaseLoads: a fragment entry point with textures and
// samplers takes them from the inputs file beside it (the compute path's
// reader), and without one (--fill) makes them up; it runs in quads.
func TestFragmentTextureCaseLoads(t *testing.T) {
	c := loadTex(t, checkerSample, testcase.LoadOptions{})
	require.Equal(t, testcase.KindFragment, c.Kind)
	require.NotNil(t, c.Textures["checker"])
	assert.Equal(t, 4, c.Textures["checker"].MipLevels)
	assert.Equal(t, "linear", c.Samplers["lin_s"].MinFilter)
	assert.Equal(t, "nearest", c.Samplers["near_s"].MipmapFilter)
	fc := c.Fragment()
	assert.Equal(t, c.Textures, fc.Textures)
	assert.True(t, usesQuads(c.Module, "main"))

	made := loadTex(t, checkerSample, testcase.LoadOptions{Fill: "random", Seed: new(uint64(7))})
	assert.Equal(t, testcase.FillRandom, made.Fill)
	require.NotNil(t, made.Textures["checker_l"])
	assert.NotEqual(t, c.Textures["checker"].Data[0], made.Textures["checker"].Data[0])
}

// TestFragmentLinearFilterOutsideIntervalIsAFinding is issue 24's
// fragment acceptance on the judging side: a stack whose linear sampler
// filters as nearest (its output is the reference's render of the same
// shader with lin_s made nearest) falls outside the linear filter's
// allowed interval: the verdict is mismatch, attributed to the stack, on
// the lin output only. The same stack rendering the reference's own
// midpoints passes, and the dispatch it gets binds both textures and
// both samplers.
func TestFragmentLinearFilterOutsideIntervalIsAFinding(t *testing.T) {
	c := loadTex(t, checkerSample, testcase.LoadOptions{Size: &[2]uint32{12, 10}})
	ref, err := Execute(context.Background(), c, Options{})
	require.NoError(t, err)
	require.Equal(t, oracle.Pass, ref.Verdict)

	var jobs []harness.Dispatch
	good := renderDevice{out: renderOf(t, ref), jobs: &jobs}
	res, err := Execute(context.Background(), c, Options{Devices: []Device{good}})
	require.NoError(t, err)
	assert.Equal(t, oracle.Pass, res.Verdict, "the reference's own midpoints pass")
	require.Len(t, jobs, 1)
	require.Len(t, jobs[0].Textures, 2)
	require.Len(t, jobs[0].Samplers, 2)
	assert.Equal(t, uint32(4), jobs[0].Textures[0].MipLevels)
	assert.Equal(t, "linear", jobs[0].Samplers[1].MagFilter)

	// The stack's render: lin_s filters as nearest.
	nc := *c.Fragment()
	nc.Samplers = map[string]*interp.Sampler{}
	for k, v := range c.Samplers {
		nc.Samplers[k] = v
	}
	s := *c.Samplers["lin_s"]
	s.MagFilter, s.MinFilter, s.MipmapFilter = "nearest", "nearest", "nearest"
	nc.Samplers["lin_s"] = &s
	nearest, err := Execute(context.Background(), (&nc).Case(), Options{})
	require.NoError(t, err)
	bad := renderDevice{out: renderOf(t, nearest), jobs: &jobs}
	res, err = Execute(context.Background(), c, Options{Devices: []Device{bad}})
	require.NoError(t, err)
	assert.Equal(t, oracle.Mismatch, res.Verdict)
	fs := Attribute(res)
	require.NotEmpty(t, fs)
	assert.Equal(t, ClassStack, fs[0].Class, "%+v", fs[0])
	assert.Equal(t, "fake-render", fs[0].Adapter)
	assert.Equal(t, []string{"fake-render main wgsl fragment"}, fs[0].Runs)
	t.Logf("%s: %s", fs[0].Class, fs[0].Implicates)

	// Only the linear samples are off: every leaf of near agrees.
	wrong := 0
	for _, r := range res.Runs {
		for _, inv := range r.Mismatches {
			for _, d := range r.Diffs[inv] {
				assert.Contains(t, d.Path, ".lin", "pixel %d: %+v", inv, d)
				wrong++
			}
		}
	}
	assert.Greater(t, wrong, 0)
	t.Logf("%d linear leaves outside the allowed interval", wrong)
}
