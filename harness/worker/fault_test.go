package worker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

var oneJob = harness.Dispatch{Input: le(7), OutputSize: 4, Invocations: 1}

// TestFaultsAreCrashesAndTheNextDispatchWorks injects each fatal fault into
// dispatch k ("bad/..."), checks the CrashError says what happened, and
// checks that dispatch k+1 on the same Device gets correct outputs from a
// fresh worker.
func TestFaultsAreCrashesAndTheNextDispatchWorks(t *testing.T) {
	cases := []struct {
		kind, status, signal string
		tail                 []string // substrings of StderrTail
	}{
		{"crash", "exit status 2", "SIGSEGV", []string{"SIGSEGV: segmentation violation", "signal arrived during cgo execution", "_Cfunc_gd_segfault"}},
		{"abort", "exit status 2", "SIGABRT", []string{"SIGABRT: abort", "_Cfunc_gd_abort"}},
		{"exit", "exit status 3", "", nil},
		{"kill", "signal: killed", "SIGKILL", nil},
		{"lose", "exit status 4", "", []string{"device lost (injected fault lose@bad/)"}},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			d := startDevice(t, lavapipe, Options{Env: faultEnv(c.kind + "@bad/")})
			runTriple(t, d, 1, 5, "good/0")
			pid := workerPid(d)

			_, err := d.Run(context.Background(), tripler(1, "bad/p1/wgsl"), oneJob)
			var crash *CrashError
			require.ErrorAs(t, err, &crash)
			assert.Equal(t, lavapipe, crash.Adapter)
			assert.Equal(t, OpDispatch, crash.Op)
			assert.Equal(t, "bad/p1/wgsl", crash.Label)
			assert.Equal(t, c.status, crash.Status)
			assert.Equal(t, c.signal, crash.Signal)
			assert.Contains(t, crash.StderrTail, "injecting fault "+c.kind+"@bad/ into dispatch \"bad/p1/wgsl\"")
			for _, s := range c.tail {
				assert.Contains(t, crash.StderrTail, s)
			}
			assert.LessOrEqual(t, len(crash.StderrTail), StderrTailSize)
			var de *harness.DeviceError
			require.ErrorAs(t, err, &de, "a crash is a broken device to callers classifying by DeviceError")
			assert.True(t, de.Broken)
			if c.kind == "lose" {
				assert.Equal(t, "device", de.Op, "the worker's own lost-device error is the cause")
			} else {
				assert.Equal(t, opWorker, de.Op)
			}
			assert.False(t, errors.Is(err, context.DeadlineExceeded))
			var te *TimeoutError
			assert.False(t, errors.As(err, &te))
			assert.True(t, processGone(pid), "the crashed worker was waited for")

			runTriple(t, d, 9, 100, "good/1")
			assert.NotEqual(t, pid, workerPid(d))
			assert.Equal(t, 2, d.Starts())
		})
	}
}

// TestCrashErrorTailIsCondensed: after a real segfault in C, the tail has
// the fault's announcement, the signal and the crashing goroutine's
// functions, but not the Go runtime's register dump.
func TestCrashErrorTailIsCondensed(t *testing.T) {
	d := startDevice(t, lavapipe, Options{Env: faultEnv("crash@")})
	_, err := d.Run(context.Background(), tripler(1, "p0"), oneJob)
	var crash *CrashError
	require.ErrorAs(t, err, &crash)
	assert.Contains(t, crash.StderrTail, "[Go runtime's goroutine and register dump omitted]")
	assert.Contains(t, crash.StderrTail, "\n  github.com/gpudiff/gpudiff/harness/worker.(*server).run\n", "function names without argument words")
	assert.NotContains(t, crash.StderrTail, "\nrax ", "registers are not in the tail")
	assert.Equal(t, `worker: wgpu-vulkan:llvmpipe: dispatch "p0" crashed the worker process (exit status 2, SIGSEGV)`, crash.Error())
}

// TestCrashSignalWithGOTRACEBACKCrash: with GOTRACEBACK=crash the Go
// runtime relays SIGQUIT through the process so every thread dumps its
// stack, then re-raises the fatal signal as SIGABRT. The process ends by
// whichever of the two lands first on a thread that cannot handle it (a
// driver thread may take the SIGQUIT: about 1 run in 30 here), so the exit
// status is either; Signal still names the segfault the runtime reported.
func TestCrashSignalWithGOTRACEBACKCrash(t *testing.T) {
	d := startDevice(t, lavapipe, Options{Env: append(faultEnv("crash@"), "GOTRACEBACK=crash")})
	_, err := d.Run(context.Background(), tripler(1, "p0"), oneJob)
	var crash *CrashError
	require.ErrorAs(t, err, &crash)
	assert.Contains(t, []string{"signal: aborted", "signal: aborted (core dumped)", "signal: quit", "signal: quit (core dumped)"}, crash.Status)
	assert.Equal(t, "SIGSEGV", crash.Signal)
	assert.Contains(t, crash.StderrTail, "_Cfunc_gd_segfault")
}

// goReport is the shape of the Go runtime's report of a segfault in C code.
const goReport = `SIGSEGV: segmentation violation
PC=0x48b834 m=0 sigcode=1 addr=0x0
signal arrived during cgo execution

goroutine 1 gp=0x363b624c41e0 m=0 mp=0x55de40 [syscall]:
runtime.cgocall(0x48b810, 0x363b62510f28)
	/usr/local/go/src/runtime/cgocall.go:167 +0x4b fp=0x363b62510f00 sp=0x363b62510ec8 pc=0x4778cb
github.com/cogentcore/webgpu/wgpu._Cfunc_wgpuDevicePoll(0x7f0, 0x1, 0x0)
	_cgo_gotypes.go:56 +0x3a fp=0x363b62510f28 sp=0x363b62510f00 pc=0x48b6ba
github.com/cogentcore/webgpu/wgpu.(*Device).Poll(...)
	/root/go/pkg/mod/github.com/cogentcore/webgpu@v0.23.0/wgpu/device.go:1 +0x5f

goroutine 2 gp=0x363b624c4780 m=nil [force gc (idle)]:
`

// TestTailKeepsWhatTheDriverSaid: the 2 KiB tail of a stderr holding 1.5 KiB
// of driver output and a Go runtime report with a long dump keeps all the
// driver output, the report's header and the crashing call; without a
// report it is the last 2 KiB, from a line start.
func TestTailKeepsWhatTheDriverSaid(t *testing.T) {
	var driver strings.Builder
	for i := 0; driver.Len() < 1500; i++ {
		fmt.Fprintf(&driver, "driver: message %03d\n", i)
	}
	dump := strings.Repeat("runtime.gopark(0x0)\n\t/usr/local/go/src/runtime/proc.go:435 +0xce\n", 100) + "\nrax    0x0\nrbx    0x1\n"
	got := tail(driver.String() + goReport + dump)
	assert.LessOrEqual(t, len(got), StderrTailSize)
	assert.True(t, strings.HasPrefix(got, "driver: message 000\n"), "all the driver output is kept:\n%s", got)
	assert.Contains(t, got, "SIGSEGV: segmentation violation\nPC=0x48b834 m=0 sigcode=1 addr=0x0\nsignal arrived during cgo execution\n")
	assert.Contains(t, got, "  github.com/cogentcore/webgpu/wgpu._Cfunc_wgpuDevicePoll\n  github.com/cogentcore/webgpu/wgpu.(*Device).Poll\n")
	assert.NotContains(t, got, "rax")
	assert.NotContains(t, got, "gopark")
	assert.Equal(t, "SIGSEGV", reportedSignal(driver.String()+goReport+dump))

	long := strings.Repeat("0123456789abcdef\n", 200) // 3400 bytes, no report
	got = tail(long)
	assert.LessOrEqual(t, len(got), StderrTailSize)
	assert.Greater(t, len(got), StderrTailSize-17)
	assert.True(t, strings.HasSuffix(long, got))
	assert.True(t, strings.HasPrefix(got, "0123456789abcdef\n"), "cut at a line start")

	panicked := "panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a]\n\ngoroutine 1 [running]:\nmain.main()\n"
	assert.Equal(t, "SIGSEGV", reportedSignal(panicked))
	assert.Equal(t, panicked, tail(panicked), "a Go panic's trace is kept whole")
	assert.Equal(t, "", reportedSignal("driver: all fine\n"))
}

// TestHangTimesOut: a dispatch that hangs in the worker ends with a
// TimeoutError after the configured 2 s (the worker is killed), and the next
// dispatch gets correct outputs from a fresh worker.
func TestHangTimesOut(t *testing.T) {
	d := startDevice(t, lavapipe, Options{Timeout: 2 * time.Second, Env: faultEnv("hang@slow/")})
	pid := workerPid(d)
	_, err := d.Run(context.Background(), tripler(1, "slow/p3"), oneJob)
	var te *TimeoutError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, 2*time.Second, te.After)
	assert.Equal(t, "slow/p3", te.Label)
	assert.Equal(t, OpDispatch, te.Op)
	assert.Contains(t, te.StderrTail, `injecting fault hang@slow/ into dispatch "slow/p3"`)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	var crash *CrashError
	assert.False(t, errors.As(err, &crash))
	assert.True(t, processGone(pid), "the hung worker was killed and waited for")

	runTriple(t, d, 4, 65, "fast/p4")
	assert.Equal(t, 2, d.Starts())
}

// spinForeverWGSL loops about 2^64 times per invocation (SwiftShader has no
// loop limit), so its dispatch hangs in the driver for real.
const spinForeverWGSL = `
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let i = gid.x;
	if (i >= arrayLength(&outp)) { return; }
	var acc = 0u;
	for (var a = 0u; a < inp[0]; a++) {
		for (var b = 0u; b < inp[0]; b++) {
			acc = acc * 1664525u + 1013904223u;
		}
	}
	outp[i] = acc;
}
`

// TestRealDriverHangTimesOut: a kernel that runs (practically) forever on
// SwiftShader is a TimeoutError, with no fault injected: the worker blocked
// in the driver is killed, and the next dispatch works.
func TestRealDriverHangTimesOut(t *testing.T) {
	d := startDevice(t, swiftshader, Options{Timeout: 3 * time.Second})
	_, err := d.Run(context.Background(), harness.Kernel{WGSL: spinForeverWGSL, EntryPoint: "main", Label: "spin"},
		harness.Dispatch{Input: le(0xFFFFFFFF), OutputSize: 4, Invocations: 1})
	var te *TimeoutError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, 3*time.Second, te.After)
	runTriple(t, d, 8, 100, "after/spin")
}

// TestCallerContextKillsWorker: when the caller's ctx ends during a
// dispatch, Run returns its error (not a TimeoutError: Options.Timeout has
// not passed), the worker is killed, and the next dispatch works. A ctx
// done on entry starts nothing.
func TestCallerContextKillsWorker(t *testing.T) {
	d := startDevice(t, lavapipe, Options{Env: faultEnv("hang@stuck")})
	pid := workerPid(d)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := d.Run(ctx, tripler(1, "stuck"), oneJob)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	var te *TimeoutError
	assert.False(t, errors.As(err, &te), "the caller's deadline is not the dispatch's timeout")
	assert.True(t, processGone(pid))

	canceled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	_, err = d.Run(canceled, tripler(1, "never"), oneJob)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, d.Starts(), "a ctx done on entry starts no worker")

	runTriple(t, d, 6, 3, "next")
	assert.Equal(t, 2, d.Starts())
}

// countLines returns the number of lines in file (0 when it is missing).
func countLines(t *testing.T, file string) int {
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return 0
	}
	require.NoError(t, err)
	return strings.Count(string(b), "\n")
}

// TestRestartsAreBounded: workers that die before opening the adapter are
// started at most MaxStarts times in a row, then the Device gives up with a
// StartError — at Start, and after a crash — and starts nothing more.
func TestRestartsAreBounded(t *testing.T) {
	t.Run("at-start", func(t *testing.T) {
		starts := filepath.Join(t.TempDir(), "starts")
		d, err := Start(lavapipe, Options{Env: []string{testModeEnv + "=die:" + starts}})
		require.Nil(t, d)
		var se *StartError
		require.ErrorAs(t, err, &se)
		assert.Equal(t, DefaultMaxStarts, se.Attempts)
		var crash *CrashError
		require.ErrorAs(t, err, &crash)
		assert.Equal(t, OpStart, crash.Op)
		assert.Equal(t, "exit status 7", crash.Status)
		assert.Contains(t, crash.StderrTail, "test worker: refusing to start (start 3)")
		assert.Equal(t, DefaultMaxStarts, countLines(t, starts))
		assert.Empty(t, children(t))
	})
	t.Run("after-crash", func(t *testing.T) {
		starts := filepath.Join(t.TempDir(), "starts")
		d := startDevice(t, lavapipe, Options{MaxStarts: 2,
			Env: append(faultEnv("crash@boom"), testModeEnv+"=die-after-first:"+starts)})
		runTriple(t, d, 1, 4, "fine")
		_, err := d.Run(context.Background(), tripler(1, "boom"), oneJob)
		var crash *CrashError
		require.ErrorAs(t, err, &crash)

		_, err = d.Run(context.Background(), tripler(1, "fine/again"), oneJob)
		var se *StartError
		require.ErrorAs(t, err, &se)
		assert.Equal(t, 2, se.Attempts)
		assert.Equal(t, 1+2, countLines(t, starts))

		_, err2 := d.Run(context.Background(), tripler(1, "fine/later"), oneJob)
		var se2 *StartError
		require.ErrorAs(t, err2, &se2)
		assert.Same(t, se, se2, "the same StartError")
		assert.Equal(t, 1+2, countLines(t, starts), "a Device that gave up starts no more workers")
		assert.Empty(t, children(t))
	})
	t.Run("start-timeout", func(t *testing.T) {
		starts := filepath.Join(t.TempDir(), "starts")
		_, err := Start(lavapipe, Options{MaxStarts: 2, StartTimeout: time.Second, Env: []string{testModeEnv + "=hang:" + starts}})
		var se *StartError
		require.ErrorAs(t, err, &se)
		assert.Equal(t, 2, se.Attempts)
		var te *TimeoutError
		require.ErrorAs(t, err, &te)
		assert.Equal(t, OpStart, te.Op)
		assert.Equal(t, time.Second, te.After)
		assert.Equal(t, 2, countLines(t, starts))
		assert.Empty(t, children(t), "hung workers were killed and waited for")
	})
	t.Run("bad-fault-spec", func(t *testing.T) {
		_, err := Start(lavapipe, Options{Env: faultEnv("explode@x")})
		var se *StartError
		require.ErrorAs(t, err, &se)
		var crash *CrashError
		require.ErrorAs(t, err, &crash)
		assert.Equal(t, "exit status 4", crash.Status)
		assert.Contains(t, crash.StderrTail, `unknown fault kind "explode"`)
	})
}
