package worker

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// The test binary is its own worker: the default Options.Command re-executes
// it (with the argument "__worker", which TestMain never parses), and
// TestMain sees MarkerEnv and serves instead of testing.
func TestMain(m *testing.M) {
	if os.Getenv(MarkerEnv) == "1" {
		testWorkerMain()
	}
	if os.Getenv(parentEnv) == "1" {
		testParentMain()
	}
	os.Exit(m.Run())
}

// testModeEnv gives a test worker a start-up misbehaviour:
//
//   - "die:<file>": append a line to file, complain on stderr, exit 7;
//   - "die-after-first:<file>": append a line to file; the first worker
//     (the file had no lines) serves, every later one dies as above;
//   - "hang:<file>": append a line to file and sleep forever.
const testModeEnv = "GPUDIFF_WORKER_TEST_MODE"

// testWorkerMain runs this test binary as a worker and exits.
func testWorkerMain() {
	if mode := os.Getenv(testModeEnv); mode != "" {
		kind, file, _ := strings.Cut(mode, ":")
		f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			panic(err)
		}
		n := 0
		for sc := bufio.NewScanner(f); sc.Scan(); {
			n++
		}
		fmt.Fprintf(f, "start %d pid %d\n", n+1, os.Getpid())
		f.Close()
		if kind == "hang" {
			for {
				time.Sleep(time.Hour)
			}
		}
		if kind == "die" || (kind == "die-after-first" && n > 0) {
			fmt.Fprintf(os.Stderr, "test worker: refusing to start (start %d)\n", n+1)
			os.Exit(7)
		}
	}
	if err := Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "test worker:", err)
		os.Exit(ExitServeError)
	}
	os.Exit(0)
}

// The adapters every machine has after `make deps`, GPU or not.
const (
	lavapipe    = "wgpu-vulkan:llvmpipe"
	swiftshader = "wgpu-vulkan:swiftshader"
)

// startDevice starts a worker Device for the test and closes it at cleanup,
// asserting a clean exit. A missing adapter fails the test.
func startDevice(t testing.TB, adapter string, opts Options) *Device {
	t.Helper()
	d, err := Start(adapter, opts)
	var unknown *harness.UnknownAdapterError
	if errors.As(err, &unknown) {
		t.Fatalf("adapter %s not found (have %v): install the CPU adapters with `make deps`", adapter, unknown.Available)
	}
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, d.Shutdown()) })
	return d
}

// faultEnv is Options.Env injecting spec.
func faultEnv(spec string) []string { return []string{FaultEnv + "=" + spec} }

// tripleWGSL computes out[i] = in[i]*3 + ADD (wrapping u32 arithmetic) for
// every invocation below arrayLength(out), per the kernel ABI.
const tripleWGSL = `
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let i = gid.x;
	if (i >= arrayLength(&outp)) { return; }
	outp[i] = inp[i] * 3u + ADDu;
}
`

// tripler returns the tripler adding add, labelled label.
func tripler(add uint32, label string) harness.Kernel {
	return harness.Kernel{WGSL: strings.Replace(tripleWGSL, "ADD", strconv.FormatUint(uint64(add), 10), 1),
		EntryPoint: "main", Label: label}
}

// tripleCases are inputs with outputs of the tripler adding 1 worked out by
// hand, mod 2^32: 3*0x55555555 = 0xFFFFFFFF, +1 wraps to 0;
// 3*0x80000000 = 0x1_80000000; 3*0xFFFFFFFF = 0x2_FFFFFFFD.
var tripleCases = []struct{ in, out uint32 }{
	{0, 1}, {1, 4}, {2, 7}, {7, 22}, {100, 301},
	{0x55555555, 0}, {0x80000000, 0x80000001}, {0xFFFFFFFF, 0xFFFFFFFE},
}

// runTriple runs the tripler adding add on 0..n-1 and checks out[i] =
// 3i + add.
func runTriple(t testing.TB, d *Device, add uint32, n int, label string) {
	t.Helper()
	out, err := d.Run(context.Background(), tripler(add, label), harness.Dispatch{Input: le(iota32(n)...), OutputSize: 4 * n, Invocations: n})
	require.NoError(t, err, "dispatch %q", label)
	require.Len(t, out, 4*n)
	for i, got := range words(out) {
		if want := 3*uint32(i) + add; got != want {
			t.Fatalf("dispatch %q: out[%d] = %d, want %d", label, i, got, want)
		}
	}
}

// le encodes words as little-endian bytes (array<u32> in a storage buffer).
func le(w ...uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// words decodes little-endian bytes into words.
func words(b []byte) []uint32 {
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

// iota32 returns 0, 1, ..., n-1.
func iota32(n int) []uint32 {
	w := make([]uint32, n)
	for i := range w {
		w[i] = uint32(i)
	}
	return w
}

// workerPid returns the pid of d's live worker (0 when there is none).
func workerPid(d *Device) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.p == nil {
		return 0
	}
	return d.p.pid
}

// processGone reports whether no process of pid's process group exists
// (ESRCH); the workers lead their own groups.
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(-pid, 0), syscall.ESRCH)
}

// children lists the processes whose parent is this process, as
// "pid (comm) state", from /proc.
func children(t testing.TB) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var kids []string
	me := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue // exited meanwhile
		}
		// pid (comm) state ppid ...; comm may hold spaces, so cut at the last ')'.
		s := string(b)
		rp := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[rp+1:])
		if len(f) >= 2 {
			if ppid, _ := strconv.Atoi(f[1]); ppid == me {
				kids = append(kids, s[:rp+1]+" "+f[0])
			}
		}
	}
	return kids
}
