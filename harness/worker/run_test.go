package worker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// TestRunHandDerived runs the tripler (WGSL, and its SPIR-V twin from the
// harness's testdata) through one lavapipe worker and checks outputs worked
// out by hand; every dispatch reuses the one worker process.
func TestRunHandDerived(t *testing.T) {
	d := startDevice(t, lavapipe, Options{})
	assert.Equal(t, lavapipe, d.Info().Name)
	assert.Equal(t, "vulkan", d.Info().Backend)
	pid := workerPid(d)
	require.NotZero(t, pid)

	var in, want []uint32
	for _, c := range tripleCases {
		in, want = append(in, c.in), append(want, c.out)
	}
	job := harness.Dispatch{Input: le(in...), OutputSize: 4 * len(in), Invocations: len(in)}
	out, err := d.Run(context.Background(), tripler(1, "hand/wgsl"), job)
	require.NoError(t, err)
	assert.Equal(t, want, words(out))

	spirv := harness.Kernel{SPIRV: assembleSPIRV(t, "../testdata/triple.spvasm"), EntryPoint: "main", Label: "hand/spirv"}
	out, err = d.Run(context.Background(), spirv, job)
	require.NoError(t, err)
	assert.Equal(t, want, words(out), "SPIR-V words crossed the process boundary intact")

	// 1 Mi invocations: 4 MiB each way, far beyond a pipe's buffer.
	for _, n := range []int{1, 63, 64, 65, 200, 1 << 20} {
		runTriple(t, d, 1, n, fmt.Sprintf("hand/n=%d", n))
	}
	out, err = d.Run(context.Background(), tripler(1, "hand/empty"), harness.Dispatch{})
	require.NoError(t, err)
	assert.Equal(t, []byte{}, out, "OutputSize 0 gives an empty, non-nil slice as in-process")

	assert.Equal(t, pid, workerPid(d), "one worker served every dispatch")
	assert.Equal(t, 1, d.Starts())
}

// assembleSPIRV assembles a .spvasm file with spirv-as for Vulkan 1.1.
func assembleSPIRV(t *testing.T, path string) []uint32 {
	t.Helper()
	as, err := exec.LookPath("spirv-as")
	if err != nil {
		t.Fatalf("spirv-as not found: install spirv-tools (make deps)")
	}
	out := filepath.Join(t.TempDir(), "module.spv")
	if msg, err := exec.Command(as, "--target-env", "vulkan1.1", "-o", out, path).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as %s: %v\n%s", path, err, msg)
	}
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.NativeEndian.Uint32(b[4*i:])
	}
	return w
}

// TestRunKeepsHarnessErrors: what the worker's harness.Device.Run returns
// for a rejected kernel or an invalid request arrives with the same type
// and fields as in-process, and the worker stays up.
func TestRunKeepsHarnessErrors(t *testing.T) {
	d := startDevice(t, lavapipe, Options{})
	local, err := harness.Open(lavapipe)
	require.NoError(t, err)
	defer local.Close()
	pid := workerPid(d)

	job := harness.Dispatch{Input: le(1), OutputSize: 4, Invocations: 1}
	cases := []struct {
		name  string
		k     harness.Kernel
		stage string // "" for a non-compile error
	}{
		{"type-error", harness.Kernel{EntryPoint: "main", Label: "bad/type",
			WGSL: `@group(0) @binding(1) var<storage, read_write> outp: array<u32>;
@compute @workgroup_size(64) fn main() { outp[0] = 1.5f; }`}, harness.StageShaderModule},
		{"missing-entry-point", harness.Kernel{WGSL: tripler(1, "").WGSL, EntryPoint: "nosuch", Label: "bad/entry"}, harness.StagePipeline},
		{"no-entry-point-name", harness.Kernel{WGSL: tripler(1, "").WGSL, Label: "bad/noname"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, remote := d.Run(context.Background(), c.k, job)
			_, inproc := local.Run(context.Background(), c.k, job)
			require.Error(t, remote)
			require.Error(t, inproc)
			if c.stage == "" {
				var ce *harness.CompileError
				assert.False(t, errors.As(remote, &ce))
				assert.Equal(t, inproc.Error(), remote.Error())
				return
			}
			var rce, lce *harness.CompileError
			require.ErrorAs(t, remote, &rce)
			require.ErrorAs(t, inproc, &lce)
			assert.Equal(t, c.stage, rce.Stage)
			assert.Equal(t, lce.Message, rce.Message, "the stack's message arrives intact")
			assert.NotEmpty(t, rce.Message)
		})
	}
	runTriple(t, d, 5, 10, "after/errors")
	assert.Equal(t, pid, workerPid(d), "compile errors do not restart the worker")
	assert.Equal(t, 1, d.Starts())
}

// TestStartResolvesNames: Start takes what harness.Open takes (here the
// alias "vulkan:llvmpipe"), Info and errors carry the adapter's full name,
// and a name that designates no adapter comes back from Start as the
// worker's *harness.UnknownAdapterError, listing what the worker found.
func TestStartResolvesNames(t *testing.T) {
	d := startDevice(t, "vulkan:llvmpipe", Options{Env: faultEnv("exit@")})
	assert.Equal(t, lavapipe, d.Info().Name)
	_, err := d.Run(context.Background(), tripler(1, "x"), harness.Dispatch{Input: le(1), OutputSize: 4, Invocations: 1})
	var crash *CrashError
	require.ErrorAs(t, err, &crash)
	assert.Equal(t, lavapipe, crash.Adapter)
}

func TestStartUnknownAdapter(t *testing.T) {
	d, err := Start("vulkan:nonesuch", Options{})
	require.Nil(t, d)
	var ue *harness.UnknownAdapterError
	require.ErrorAs(t, err, &ue)
	assert.Equal(t, "vulkan:nonesuch", ue.Selector)
	assert.Contains(t, ue.Available, lavapipe)
	assert.Empty(t, children(t), "the worker that answered was waited for")
}

// TestTwoAdaptersConcurrently runs lavapipe and SwiftShader workers from
// two goroutines at once; each checks its own outputs.
func TestTwoAdaptersConcurrently(t *testing.T) {
	devs := []*Device{startDevice(t, lavapipe, Options{}), startDevice(t, swiftshader, Options{})}
	assert.NotEqual(t, workerPid(devs[0]), workerPid(devs[1]))
	var wg sync.WaitGroup
	errs := make([]error, len(devs))
	for i, d := range devs {
		wg.Go(func() {
			for j := range 20 {
				add := uint32(1000*i + j)
				n := 64 + j
				out, err := d.Run(context.Background(), tripler(add, fmt.Sprintf("%s/%d", d.Info().Name, j)),
					harness.Dispatch{Input: le(iota32(n)...), OutputSize: 4 * n, Invocations: n})
				if err != nil {
					errs[i] = err
					return
				}
				for k, got := range words(out) {
					if want := 3*uint32(k) + add; got != want {
						errs[i] = fmt.Errorf("%s dispatch %d: out[%d] = %d, want %d", d.Info().Name, j, k, got, want)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		assert.NoError(t, err, devs[i].Info().Name)
	}
	assert.Equal(t, swiftshader, devs[1].Info().Name)
	for _, d := range devs {
		assert.Equal(t, 1, d.Starts(), d.Info().Name)
	}
}

// TestConcurrentRunsOnOneDevice: Runs from several goroutines on one Device
// are serialized, and each gets its own outputs.
func TestConcurrentRunsOnOneDevice(t *testing.T) {
	d := startDevice(t, lavapipe, Options{})
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for g := range errs {
		wg.Go(func() {
			for j := range 5 {
				add := uint32(100*g + j)
				out, err := d.Run(context.Background(), tripler(add, "conc"), harness.Dispatch{Input: le(iota32(8)...), OutputSize: 32, Invocations: 8})
				if err == nil && words(out)[7] != 21+add {
					err = fmt.Errorf("goroutine %d dispatch %d: out[7] = %d, want %d", g, j, words(out)[7], 21+add)
				}
				if err != nil {
					errs[g] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		assert.NoError(t, err)
	}
}

// TestStdoutNoiseDoesNotBreakProtocol: a worker that writes to file
// descriptor 1 during a dispatch (as a chatty driver might) still answers
// correctly, because Serve moved the protocol off descriptor 1 — the noise
// arrives on the worker's stderr, which Options.Stderr receives a copy of.
func TestStdoutNoiseDoesNotBreakProtocol(t *testing.T) {
	var stderr bytes.Buffer
	d := startDevice(t, lavapipe, Options{Env: faultEnv("stdout@noisy/"), Stderr: &stderr})
	for i := range 3 {
		runTriple(t, d, uint32(i), 70, fmt.Sprintf("noisy/%d", i))
	}
	assert.Equal(t, 1, d.Starts(), "no dispatch broke the stream")
	require.NoError(t, d.Shutdown()) // the worker's stderr is complete once it has been waited for
	assert.Equal(t, 3, bytes.Count(stderr.Bytes(), []byte("gpudiff worker: injected noise on file descriptor 1\n")), "stderr:\n%s", stderr.String())
}

// TestCloseLeavesNoProcess: after Close every worker the Devices started —
// including ones replaced after a crash — has exited and been waited for,
// and Close reports the clean exit.
func TestCloseLeavesNoProcess(t *testing.T) {
	require.Empty(t, children(t), "no child processes before the test")
	a, err := Start(lavapipe, Options{Env: faultEnv("exit@die/")})
	require.NoError(t, err)
	b, err := Start(swiftshader, Options{})
	require.NoError(t, err)
	first := workerPid(a)
	runTriple(t, a, 1, 10, "ok/1")
	_, err = a.Run(context.Background(), tripler(1, "die/1"), harness.Dispatch{Input: le(1), OutputSize: 4, Invocations: 1})
	var crash *CrashError
	require.ErrorAs(t, err, &crash)
	runTriple(t, a, 2, 10, "ok/2")
	runTriple(t, b, 3, 10, "ok/3")
	pids := []int{first, workerPid(a), workerPid(b)}
	assert.Len(t, children(t), 2, "one live worker per Device")

	assert.NoError(t, a.Shutdown())
	b.Close()
	assert.NoError(t, a.Shutdown(), "twice")
	assert.Empty(t, children(t), "no worker left, not even a zombie")
	for _, pid := range pids {
		assert.True(t, processGone(pid), "worker %d gone", pid)
	}
	_, err = a.Run(context.Background(), tripler(1, "closed"), harness.Dispatch{Input: le(1), OutputSize: 4, Invocations: 1})
	assert.ErrorContains(t, err, "closed Device")
}

// parentEnv makes the test binary play a parent that starts a lavapipe
// worker, sends it a dispatch that hangs in C (so the worker will not
// notice its stdin closing), prints "worker <pid>" and waits to be killed;
// see TestWorkerDiesWithItsParent.
const parentEnv = "GPUDIFF_WORKER_TEST_PARENT"

func testParentMain() {
	d, err := Start(lavapipe, Options{Env: faultEnv("hang@")})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Printf("worker %d\n", workerPid(d))
	d.Run(context.Background(), tripler(1, "hang"), harness.Dispatch{Input: le(1), OutputSize: 4, Invocations: 1})
	fmt.Println("error: the hung dispatch returned")
	os.Exit(1)
}

// TestWorkerDiesWithItsParent: a parent killed with SIGKILL while its
// worker hangs in C — so neither Close nor the end of the worker's stdin
// can stop it — takes the worker with it, through the worker's
// parent-death signal. This test process makes itself the child subreaper
// for the while, so the orphaned worker becomes its child and can be
// waited for.
func TestWorkerDiesWithItsParent(t *testing.T) {
	const prSetChildSubreaper = 36
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	require.Zero(t, errno, "prctl(PR_SET_CHILD_SUBREAPER)")
	defer syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 0, 0)

	parent := exec.Command(os.Args[0])
	parent.Env = append(os.Environ(), parentEnv+"=1")
	out, err := parent.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, parent.Start())
	var pid int
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	_, err = fmt.Sscanf(line, "worker %d", &pid)
	require.NoError(t, err, "parent said %q", line)
	require.False(t, processGone(pid), "the worker runs while its parent does")

	require.NoError(t, parent.Process.Kill())
	parent.Wait() // the worker is this process's child from here on
	reaped := make(chan syscall.WaitStatus, 1)
	go func() {
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
		reaped <- ws
	}()
	select {
	case ws := <-reaped:
		assert.True(t, ws.Signaled() && ws.Signal() == syscall.SIGKILL, "worker ended by SIGKILL, not %v", ws)
	case <-time.After(30 * time.Second): // a bound for a broken build, not a measurement
		syscall.Kill(pid, syscall.SIGKILL)
		<-reaped
		t.Errorf("worker %d outlived its killed parent", pid)
	}
}

// TestRunFragmentThroughWorker: a fragment draw (Kernel.Stage, Target,
// Attachments) crosses the process boundary and comes back as the
// in-process harness draws it: out[i] = 2*in[i] at invocation i = 256*y + x,
// hand-derived, then the attachment's x + 1000*y per pixel.
func TestRunFragmentThroughWorker(t *testing.T) {
	d := startDevice(t, lavapipe, Options{})
	k := harness.Kernel{EntryPoint: "main", Label: "frag/wgsl", Stage: harness.FragmentStage, WGSL: `
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;
@fragment fn main(@builtin(position) p: vec4<f32>) -> @location(0) u32 {
	let i = u32(p.y) * 256u + u32(p.x);
	if (i < arrayLength(&outp)) { outp[i] = inp[i] * 2u; }
	return u32(p.x) + 1000u * u32(p.y);
}`}
	const n = 300 // two rows: 256, then 44 of 256
	job := harness.Dispatch{Input: le(iota32(n)...), OutputSize: 4 * n, Invocations: n, Target: harness.FragmentTarget(n),
		Attachments: []harness.AttachmentFormat{harness.R32Uint}}
	out, err := d.Run(context.Background(), k, job)
	require.NoError(t, err)
	require.Len(t, out, 4*n+4*256*2)
	for i, w := range words(out[:4*n]) {
		require.Equal(t, uint32(2*i), w, "out[%d]", i)
	}
	for p, w := range words(out[4*n:]) {
		require.Equal(t, uint32(p%256+1000*(p/256)), w, "pixel %d", p)
	}
}

// TestUnsupportedErrorCrosses: a *harness.UnsupportedError keeps its type,
// fields and ErrUnsupported across the wire.
func TestUnsupportedErrorCrosses(t *testing.T) {
	in := &harness.UnsupportedError{Adapter: "wgpu-gl:llvmpipe", Reason: "no writable storage buffers in the fragment stage"}
	back := toWire(in).err()
	var got *harness.UnsupportedError
	require.ErrorAs(t, back, &got)
	assert.Equal(t, in, got)
	assert.ErrorIs(t, back, harness.ErrUnsupported)
}
