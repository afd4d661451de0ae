package harness

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tripleWGSL computes out[i] = in[i]*3 + 1 (wrapping, WGSL u32 arithmetic)
// for every invocation below arrayLength(out), per the kernel ABI.
const tripleWGSL = `
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let i = gid.x;
	if (i >= arrayLength(&outp)) { return; }
	outp[i] = inp[i] * 3u + 1u;
}
`

var triple = Kernel{WGSL: tripleWGSL, EntryPoint: "main"}

// tripleCases are inputs with outputs worked out by hand, mod 2^32:
// 3*0x55555555 = 0xFFFFFFFF, +1 wraps to 0; 3*0x80000000 = 0x1_80000000;
// 3*0xFFFFFFFF = 0x2_FFFFFFFD.
var tripleCases = []struct{ in, out uint32 }{
	{0, 1}, {1, 4}, {2, 7}, {7, 22}, {100, 301},
	{0x55555555, 0}, {0x80000000, 0x80000001}, {0xFFFFFFFF, 0xFFFFFFFE},
}

// checkTripleHandDerived runs k (a tripler) on tripleCases: 8 invocations,
// one partly idle workgroup.
func checkTripleHandDerived(t *testing.T, d *Device, k Kernel) {
	t.Helper()
	var in, want []uint32
	for _, c := range tripleCases {
		in, want = append(in, c.in), append(want, c.out)
	}
	out, err := d.Run(context.Background(), k, Dispatch{Input: le(in...), OutputSize: 4 * len(in), Invocations: len(in)})
	require.NoError(t, err)
	assert.Equal(t, want, words(out))
}

func TestRunTriple(t *testing.T) {
	for _, name := range cpuAdapters {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			t.Run("hand-derived", func(t *testing.T) { checkTripleHandDerived(t, d, triple) })
			// Counts around the workgroup size of 64: the last workgroup
			// runs idle invocations that the kernel's bounds check stops.
			for _, n := range []int{1, 63, 64, 65, 200} {
				t.Run(fmt.Sprintf("invocations=%d", n), func(t *testing.T) {
					out, err := d.Run(context.Background(), triple, Dispatch{Input: le(iota32(n)...), OutputSize: 4 * n, Invocations: n})
					require.NoError(t, err)
					require.Len(t, out, 4*n)
					for i, got := range words(out) {
						if want := uint32(3*i + 1); got != want {
							t.Fatalf("out[%d] = %d, want %d", i, got, want)
						}
					}
				})
			}
		})
	}
}

// TestRunEmptyInputBindsZeroedWord: with no input bytes the kernel still
// sees a one-element, zeroed input array.
func TestRunEmptyInputBindsZeroedWord(t *testing.T) {
	const probe = `
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let i = gid.x;
	if (i >= arrayLength(&outp)) { return; }
	outp[i] = arrayLength(&inp) * 100u + inp[0] + i;
}
`
	for _, name := range cpuAdapters {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			out, err := d.Run(context.Background(), Kernel{WGSL: probe, EntryPoint: "main"}, Dispatch{OutputSize: 12, Invocations: 3})
			require.NoError(t, err)
			assert.Equal(t, []uint32{100, 101, 102}, words(out)) // length 1, inp[0] = 0
		})
	}
}

// TestRunOutputSizeNotMultipleOf4: the device buffer is rounded up to whole
// words, Run returns exactly OutputSize bytes.
func TestRunOutputSizeNotMultipleOf4(t *testing.T) {
	d := openDevice(t, lavapipe)
	out, err := d.Run(context.Background(), triple, Dispatch{Input: le(0, 1), OutputSize: 6, Invocations: 2})
	require.NoError(t, err)
	assert.Equal(t, []byte{1, 0, 0, 0, 4, 0}, out)
}

// TestRunLargeBuffers: 64 MiB input and output buffers bind, because Open
// requests the adapter's own storage-binding limit.
func TestRunLargeBuffers(t *testing.T) {
	const size = 64 << 20
	const n = 64 * 1000 // invocations; arrayLength(out) is size/4, so only these write
	in := make([]byte, size)
	copy(in, le(iota32(n)...))
	copy(in[size-4:], le(0xFFFFFFFF))
	for _, name := range cpuAdapters {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			out, err := d.Run(context.Background(), triple, Dispatch{Input: in, OutputSize: size, Invocations: n})
			require.NoError(t, err)
			require.Len(t, out, size)
			w := words(out)
			assert.Equal(t, []uint32{1, 4, 7}, w[:3])
			assert.Equal(t, uint32(3*(n-1)+1), w[n-1])
			assert.Equal(t, uint32(0), w[n], "beyond the dispatched invocations the output stays zero")
			assert.Equal(t, uint32(0), w[len(w)-1])
		})
	}
}

func TestRunCompileErrorLeavesDeviceUsable(t *testing.T) {
	cases := []struct {
		name    string
		kernel  Kernel
		stage   string
		message string // a piece of naga's / wgpu's report
	}{
		{"wgsl-syntax", Kernel{WGSL: tripleWGSL + "fn broken() { let y = ; }", EntryPoint: "main"},
			StageShaderModule, "expected expression, found ';'"},
		{"wgsl-type", Kernel{WGSL: tripleWGSL + "fn broken() { let y: u32 = 1.5; }", EntryPoint: "main"},
			StageShaderModule, "the type of `y` is expected to be `u32`, but got `f32`"},
		{"spirv-garbage", Kernel{SPIRV: []uint32{0x07230203, 0x00010300, 0, 8, 0, 0}, EntryPoint: "main"},
			StageShaderModule, "invalid word count"},
		{"missing-entry-point", Kernel{WGSL: tripleWGSL, EntryPoint: "nope"},
			StagePipeline, "Unable to find entry point 'nope'"},
		{"abi-mismatch", Kernel{WGSL: strings.Replace(tripleWGSL, "var<storage, read> inp", "var<storage, read_write> inp", 1), EntryPoint: "main"},
			StagePipeline, "ResourceBinding { group: 0, binding: 0 } is not available in the pipeline layout"},
	}
	for _, name := range cpuAdapters {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					out, err := d.Run(context.Background(), c.kernel, Dispatch{Input: le(1), OutputSize: 4, Invocations: 1})
					var ce *CompileError
					require.ErrorAs(t, err, &ce, "got output %v", out)
					assert.Equal(t, c.stage, ce.Stage)
					assert.Contains(t, ce.Message, c.message)
					assert.NotContains(t, ce.Message, "wgpu.(*Device)", "the binding's prefix is stripped")
					checkTripleHandDerived(t, d, triple) // the next kernel still runs
				})
			}
		})
	}
}

func TestRunRejectsInvalidRequests(t *testing.T) {
	d := openDevice(t, lavapipe)
	maxWorkgroups := int(d.limits.MaxComputeWorkgroupsPerDimension)
	cases := []struct {
		name   string
		kernel Kernel
		job    Dispatch
	}{
		{"no-entry-point", Kernel{WGSL: tripleWGSL}, Dispatch{OutputSize: 4, Invocations: 1}},
		{"no-module", Kernel{EntryPoint: "main"}, Dispatch{OutputSize: 4, Invocations: 1}},
		{"both-modules", Kernel{WGSL: tripleWGSL, SPIRV: []uint32{0x07230203}, EntryPoint: "main"}, Dispatch{OutputSize: 4, Invocations: 1}},
		{"negative-output", triple, Dispatch{OutputSize: -4, Invocations: 1}},
		{"negative-invocations", triple, Dispatch{OutputSize: 4, Invocations: -1}},
		{"output-over-limit", triple, Dispatch{OutputSize: int(d.limits.MaxStorageBufferBindingSize) + 4, Invocations: 1}},
		{"workgroups-over-limit", triple, Dispatch{OutputSize: 4, Invocations: 64*maxWorkgroups + 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := d.Run(context.Background(), c.kernel, c.job)
			require.Error(t, err)
			var ce *CompileError
			var de *DeviceError
			assert.False(t, errors.As(err, &ce) || errors.As(err, &de), "a bad request is neither a compile nor a device error: %v", err)
		})
	}
	checkTripleHandDerived(t, d, triple)
}

// spinWGSL runs inp[0] rounds of an LCG per invocation, to keep the GPU
// busy. llvmpipe (lavapipe and GL) silently stops looping after about 65535
// iterations per invocation, all loops together, so the load comes from the
// number of invocations.
const spinWGSL = `
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let i = gid.x;
	if (i >= arrayLength(&outp)) { return; }
	var acc = i;
	for (var j = 0u; j < inp[0]; j++) { acc = acc * 1664525u + 1013904223u; }
	outp[i] = acc;
}
`

func TestRunContext(t *testing.T) {
	t.Run("done-on-entry", func(t *testing.T) {
		d := openDevice(t, lavapipe)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := d.Run(ctx, triple, Dispatch{Input: le(1), OutputSize: 4, Invocations: 1})
		require.ErrorIs(t, err, context.Canceled)
		checkTripleHandDerived(t, d, triple)
	})
	t.Run("cancellable-completes", func(t *testing.T) {
		d := openDevice(t, lavapipe)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		out, err := d.Run(ctx, triple, Dispatch{Input: le(2), OutputSize: 4, Invocations: 1})
		require.NoError(t, err)
		assert.Equal(t, []uint32{7}, words(out))
	})
	spin := Kernel{WGSL: spinWGSL, EntryPoint: "main"}
	// timeOut runs spin over n invocations (about 40 µs of lavapipe time
	// each) with a 50 ms deadline, far longer than compiling and submitting.
	timeOut := func(t *testing.T, d *Device, n int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := d.Run(ctx, spin, Dispatch{Input: le(65000), OutputSize: 4 * n, Invocations: n})
		var de *DeviceError
		require.ErrorAs(t, err, &de)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, "wait", de.Op)
		assert.True(t, de.Broken)
		_, err = d.Run(context.Background(), triple, Dispatch{Input: le(1), OutputSize: 4, Invocations: 1})
		assert.Same(t, de, err, "a broken Device refuses further work")
	}
	t.Run("deadline-breaks-device-close-drains", func(t *testing.T) {
		// Close waits for the timed-out work however long a loaded
		// machine makes it (about half a second alone, over ten seconds
		// under a load average of 10): the property is that it drains,
		// not how fast.
		old := closeDrainTimeout
		closeDrainTimeout = 5 * time.Minute
		defer func() { closeDrainTimeout = old }()
		before := kept(t)
		d := openDevice(t, lavapipe)
		timeOut(t, d, 64*200) // about half a second
		d.Close()
		assert.Equal(t, before, kept(t), "Close waited for the work and released everything")
		checkTripleHandDerived(t, openDevice(t, lavapipe), triple)
	})
	// Abandoning a device whose work outlives Close (closeDrainTimeout)
	// is not tested in-process: when the abandoned work later finishes,
	// wgpu-native may touch freed state and take the process down (seen
	// on a loaded machine). That path exists for last-resort cleanup;
	// campaigns isolate GPU work in harness/worker processes, whose tests
	// cover hangs by killing the worker.
}
