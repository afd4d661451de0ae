package harness

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spinRounds is the LCG rounds per invocation of the long dispatches below:
// just under llvmpipe's loop limit of 65535 iterations per invocation.
const spinRounds = 65000

// spinWant returns what spinWGSL computes for invocation i with rounds
// rounds: the LCG x -> x*1664525 + 1013904223 applied rounds times to i,
// which is x -> a*x + c for the a and c of the composed map.
func spinWant(rounds int) func(i uint32) uint32 {
	a, c := uint32(1), uint32(0)
	for range rounds {
		a, c = a*1664525, c*1664525+1013904223
	}
	return func(i uint32) uint32 { return a*i + c }
}

// checkSpin checks every invocation of a spinWGSL dispatch of spinRounds
// rounds and returns how many were wrong.
func checkSpin(t *testing.T, out []byte, n int) int {
	t.Helper()
	require.Len(t, out, 4*n)
	want := spinWant(spinRounds)
	wrong := 0
	for i, got := range words(out) {
		if got != want(uint32(i)) {
			if wrong < 3 {
				t.Errorf("invocation %d: got %#x, want %#x", i, got, want(uint32(i)))
			}
			wrong++
		}
	}
	return wrong
}

// TestRunLongerThanWgpuWaitLimit runs one dispatch that keeps lavapipe busy
// for well over 5 s on the project's machines (2 cores; about 15 s idle,
// more under load), then a short one on the same Device.
//
// wgpu-native (wgpu 0.19.4) waits at most 5 s in a blocking device poll, then
// treats the submission as complete: it maps the readback buffer before
// the copy into it (zeros) and recycles the command buffer and resources
// the driver is still executing, so later dispatches of the Device return
// wrong bytes or the process dies of SIGSEGV on a driver thread. The
// harness must never block in wgpu-native (run.go, pollDelayMin); before
// it stopped, this test failed with every output zero and then crashed.
// Cold compiles of large generated kernels on a loaded machine (lavapipe
// compiles at dispatch time) took over 5 s the same way, which is how
// campaigns saw rare all-zero or garbage outputs that a re-run did not
// reproduce.
//
// The test does not time anything: the workload is sized for this class of
// machine; on a much faster one the dispatch may finish within 5 s, and the
// test then passes without reaching the limit.
func TestRunLongerThanWgpuWaitLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("a 15-second dispatch")
	}
	d := openDevice(t, lavapipe)
	spin := Kernel{WGSL: spinWGSL, EntryPoint: "main"}
	const n = 64 * 4000 // about 60 µs of lavapipe time each on 2 cores
	out, err := d.Run(context.Background(), spin, Dispatch{Input: le(spinRounds), OutputSize: 4 * n, Invocations: n})
	require.NoError(t, err)
	assert.Zero(t, checkSpin(t, out, n), "wrong invocations of %d", n)

	// What a premature completion breaks shows in the next dispatches too.
	for range 3 {
		checkTripleHandDerived(t, d, triple)
		const m = 64 * 20
		out, err := d.Run(context.Background(), spin, Dispatch{Input: le(spinRounds), OutputSize: 4 * m, Invocations: m})
		require.NoError(t, err)
		assert.Zero(t, checkSpin(t, out, m), "wrong invocations of %d", m)
	}
}
