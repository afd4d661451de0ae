package dawn

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// TestPhasesAreTimedApart (issue 41): the worker reports each dispatch
// compiled before it replies (harness.Compiled is called once, before Run
// returns); a compile limit too short for any compile (1 ms) is a
// TimeoutError of the compile phase, a slow compile; a kernel that spins
// for minutes on SwiftShader after compiling is a TimeoutError of the
// dispatch phase after the dispatch limit (2 s), not the compile limit
// (60 s); after each the worker is replaced and the next Run works.
func TestPhasesAreTimedApart(t *testing.T) {
	d := openDevice(t, swiftshader)
	k := harness.Kernel{WGSL: spinWGSL, EntryPoint: "main"}
	small := harness.Dispatch{Input: le(0, 1, 2), OutputSize: 12, Invocations: 3}
	s := func(x uint32) uint32 { return x*1664525 + 1013904223 }

	calls := 0
	out, err := d.Run(harness.WithCompiled(t.Context(), func() { calls++ }), k, small)
	require.NoError(t, err)
	assert.Equal(t, []uint32{0, s(1), s(s(2))}, words(out))
	assert.Equal(t, 1, calls, "the compile phase ended once, before the reply")

	// Dawn keeps the pipelines it made by content, so a second compile of k
	// is a lookup that can beat even 1 ms: the slow compile is of a module
	// it has not seen, 1,024 dependent statements long (about 200 ms on
	// SwiftShader, far past 1 ms on any machine).
	d.SetTimeouts(time.Millisecond, 0)
	_, err = d.Run(t.Context(), harness.Kernel{WGSL: longWGSL(1024), EntryPoint: "main"}, small)
	var te *TimeoutError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, PhaseCompile, te.Phase)
	assert.True(t, te.SlowCompile())
	assert.Equal(t, time.Millisecond, te.After)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Nil(t, d.w, "the worker was killed")

	d.SetTimeouts(0, 2*time.Second)
	in := make([]uint32, 64)
	for i := range in {
		in[i] = 0xFFFFFFFF
	}
	t0 := time.Now()
	_, err = d.Run(t.Context(), k, harness.Dispatch{Input: le(in...), OutputSize: 4 * 64, Invocations: 64})
	require.ErrorAs(t, err, &te)
	assert.Equal(t, PhaseDispatch, te.Phase)
	assert.False(t, te.SlowCompile())
	assert.Equal(t, 2*time.Second, te.After)
	assert.Less(t, time.Since(t0), 30*time.Second, "cut at the dispatch limit")

	out, err = d.Run(t.Context(), k, small)
	require.NoError(t, err)
	assert.Equal(t, []uint32{0, s(1), s(s(2))}, words(out))
	assert.Equal(t, 3, d.starts)
}

// longWGSL is a kernel of n dependent multiply-adds on each invocation's
// input, every one with its own constant, so no compiler folds them away.
func longWGSL(n int) string {
	var b strings.Builder
	b.WriteString(`@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
	let i = id.x;
	if (i >= arrayLength(&outp)) { return; }
	var x = inp[i];
`)
	for j := range n {
		fmt.Fprintf(&b, "\tx = x * %du + (x >> %du);\n", 2*j+3, j%31+1)
	}
	b.WriteString("\toutp[i] = x;\n}\n")
	return b.String()
}

// TestGLFirstDispatchHasBothLimits: on a GL backend (Mesa compiles a GL
// pipeline at its first dispatch, and GL skips a zero-workgroup dispatch,
// so the compile cannot be finished before it) the phase after the
// worker's "compiled" line has both limits together (50 ms + 100 ms) and
// is a timeout of the first-dispatch phase, claiming neither a hang nor a
// slow compile; on Vulkan the same exchange is a dispatch-phase timeout
// after the dispatch limit. (Measured on the exchange with a worker that
// reports the compile and then never replies: no kernel hangs a real
// worker on llvmpipe, which bounds its loops — a 2³¹-step dependent loop
// returned in 30 ms on dawn-gl and 75 ms on dawn-vulkan here.)
func TestGLFirstDispatchHasBothLimits(t *testing.T) {
	for _, c := range []struct {
		backend, phase string
		after          time.Duration
	}{{"gl", PhaseFirstDispatch, 150 * time.Millisecond}, {"gles", PhaseFirstDispatch, 150 * time.Millisecond}, {"vulkan", PhaseDispatch, 100 * time.Millisecond}} {
		lines := make(chan []byte, 1)
		lines <- []byte(`{"id":1,"progress":"compiled"}`)
		d := &Device{info: harness.AdapterInfo{Name: "dawn-" + c.backend + ":test", Backend: c.backend},
			w: &worker{stdin: nopWriteCloser{}, lines: lines, output: &tail{max: 100}}}
		d.SetTimeouts(50*time.Millisecond, 100*time.Millisecond)
		t0 := time.Now()
		var rep reply
		err := d.exchange(t.Context(), []byte("{}\n"), &rep)
		var te *TimeoutError
		require.ErrorAs(t, err, &te, c.backend)
		assert.Equal(t, c.phase, te.Phase, c.backend)
		assert.False(t, te.SlowCompile(), c.backend)
		assert.Equal(t, c.after, te.After, c.backend)
		assert.GreaterOrEqual(t, time.Since(t0), c.after, c.backend)
		if c.phase == PhaseFirstDispatch {
			assert.Contains(t, te.Error(), harness.FirstDispatchTimeout)
		}
	}
}

type nopWriteCloser struct{}

func (nopWriteCloser) Write(p []byte) (int, error) { return len(p), nil }
func (nopWriteCloser) Close() error                { return nil }
