package harness

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness/internal/wgpuext"
)

// rssKiB returns the process's resident set size (VmRSS of
// /proc/self/status) in KiB.
func rssKiB(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			require.NoError(t, err)
			return kib
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// TestRunReleasesEverything runs 1,000 kernels on one Device and checks that
// nothing accumulates between kernel 200 and kernel 1,000: neither wgpu
// objects the harness still holds (wgpu-native's registry report, exact),
// nor resident memory (coarse), and that Close leaves nothing behind.
//
// What it catches, checked by deleting each Release in turn: a shader
// module, pipeline, buffer or bind group not released (registry counts; the
// buffers are 256 KiB each, so a leaked buffer also grows RSS by 200 MiB and
// a leaked pipeline by about 100 MiB); an encoder or compute pass not
// released (each holds a device reference, so the device outlives Close).
// It cannot see a command buffer not released after submission or a
// Mapping not freed: under a KiB per run, below the RSS noise of a few
// hundred KiB.
func TestRunReleasesEverything(t *testing.T) {
	const (
		runs      = 1000
		warmup    = 200
		bufBytes  = 256 << 10
		rssBound  = 32 << 10 // KiB of growth tolerated over the last 800 runs
		invocated = 256
	)
	keptBefore := kept(t)
	d := openDevice(t, lavapipe)
	in := make([]byte, bufBytes)
	copy(in, le(iota32(invocated)...))
	job := Dispatch{Input: in, OutputSize: bufBytes, Invocations: invocated}
	var rssWarm int64
	var keptWarm map[string]uint64
	for i := 1; i <= runs; i++ {
		out, err := d.Run(context.Background(), triple, job)
		require.NoError(t, err, "run %d", i)
		if got := words(out[4*(invocated-1):][:4])[0]; got != 3*(invocated-1)+1 {
			t.Fatalf("run %d: out[%d] = %d", i, invocated-1, got)
		}
		if i == warmup {
			rssWarm = rssKiB(t)
			keptWarm = kept(t)
		}
	}
	rssEnd, keptEnd := rssKiB(t), kept(t)
	t.Logf("VmRSS after run %d: %d KiB; after run %d: %d KiB (growth %+d KiB, bound %d KiB)",
		warmup, rssWarm, runs, rssEnd, rssEnd-rssWarm, rssBound)
	assert.Equal(t, keptWarm, keptEnd, "wgpu objects still held by the harness grew between run %d and run %d", warmup, runs)
	assert.Less(t, rssEnd-rssWarm, int64(rssBound), "resident memory keeps growing")

	// Encoders and compute passes hold a reference to the device in the
	// binding: one not released keeps the device alive after Close.
	d.Close()
	assert.Equal(t, keptBefore, kept(t), "wgpu objects still held after Close")
}

// kept returns the non-zero counts of wgpu objects the application holds.
func kept(t *testing.T) map[string]uint64 {
	t.Helper()
	k, err := wgpuext.Kept(instance())
	require.NoError(t, err)
	for key, n := range k {
		if n == 0 {
			delete(k, key)
		}
	}
	return k
}
