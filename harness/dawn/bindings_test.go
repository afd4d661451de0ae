package dawn

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// bindingsWGSL is an entry point as written with a uniform, a read-only
// and three read_write storage buffers in two bind groups with an empty
// group between them, a 3-dimensional dispatch and a workgroup size that
// is not the kernel ABI's 64.
const bindingsWGSL = `
struct P { scale: u32, bias: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(3) var<storage, read> src: array<u32>;
@group(2) @binding(0) var<storage, read_write> dst: array<u32>;
@group(2) @binding(2) var<storage, read_write> count: atomic<u32>;
@group(2) @binding(5) var<storage, read_write> tail: array<u32>;

@compute @workgroup_size(2)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = g.x + 4u * (g.y + 2u * g.z);
  dst[i] = src[i] * p.scale + p.bias;
  atomicAdd(&count, 1u);
  if (i == 0u) {
    tail[arrayLength(&tail) - 1u] = 0xAABBCCDDu;
  }
}
`

// bindingsJob is bindingsWGSL's dispatch: 2×2×2 workgroups of 2
// invocations (i = 0..15), scale 3, bias 5, src[i] = i, dst 17 words
// whose last starts at 99, count 0, and tail 10 bytes 1..10 (a buffer
// of 12: arrayLength(&tail) is 3).
func bindingsJob() harness.Dispatch {
	src := make([]uint32, 16)
	for i := range src {
		src[i] = uint32(i)
	}
	dst := make([]uint32, 17)
	dst[16] = 99
	return harness.Dispatch{
		Buffers: []harness.BufferBinding{
			{Group: 2, Binding: 2, Kind: harness.BindingStorage, Data: le(0)},
			{Group: 0, Binding: 0, Kind: harness.BindingUniform, Data: le(3, 5)},
			{Group: 2, Binding: 5, Kind: harness.BindingStorage, Data: []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
			{Group: 0, Binding: 3, Kind: harness.BindingReadOnly, Data: le(src...)},
			{Group: 2, Binding: 0, Kind: harness.BindingStorage, Data: le(dst...)},
		},
		Workgroups: [3]uint32{2, 2, 2},
	}
}

// bindingsWant is bindingsJob's output, derived by hand: the read_write
// buffers in Buffers order, each its own length — count = 16 (one add per
// invocation); tail = its first 10 bytes: 1..8, then the low two bytes of
// 0xAABBCCDD little-endian (DD, CC) that invocation 0 stored in word 2;
// dst[i] = 3i + 5 for i = 0..15 and dst[16] still 99 (no invocation has
// i = 16).
func bindingsWant() []byte {
	out := le(16)
	out = append(out, 1, 2, 3, 4, 5, 6, 7, 8, 0xDD, 0xCC)
	dst := make([]uint32, 17)
	for i := range 16 {
		dst[i] = 3*uint32(i) + 5
	}
	dst[16] = 99
	return append(out, le(dst...)...)
}

// TestRunBindingsDispatchesAsWritten: a module as written runs on every
// Dawn adapter with the hand-derived result (bindingsWant), and the bytes
// are exactly what wgpu's harness.Device.Run returns for the same dispatch
// on lavapipe (an independent implementation and driver).
func TestRunBindingsDispatchesAsWritten(t *testing.T) {
	k := harness.Kernel{WGSL: bindingsWGSL, EntryPoint: "main"}
	want := bindingsWant()
	require.Len(t, want, 4+10+17*4)

	lavapipe, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err, "lavapipe is needed for the cross-check (make deps)")
	defer lavapipe.Close()
	wgpuOut, err := lavapipe.Run(t.Context(), k, bindingsJob())
	require.NoError(t, err)
	assert.Equal(t, want, wgpuOut, "lavapipe (wgpu)")

	for _, name := range runAdapters {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			out, err := d.Run(t.Context(), k, bindingsJob())
			require.NoError(t, err)
			assert.Equal(t, want, out, "hand-derived")
			assert.Equal(t, wgpuOut, out, "byte for byte what wgpu's runBindings returns on lavapipe")
		})
	}
}

// TestRunBindingsErrors: the bindings path reports as the kernel path
// does: invalid dispatches are argument errors that never reach the
// worker; a WGSL error is a shader-module CompileError with Tint's text,
// a binding the shader declares but the dispatch lacks a pipeline
// CompileError, and the worker stays up; an entry point without bindings
// runs and reads back nothing; the kernel ABI still runs on the same
// worker.
func TestRunBindingsErrors(t *testing.T) {
	d := openDevice(t, swiftshader)
	pid := d.w.pid()
	k := harness.Kernel{WGSL: bindingsWGSL, EntryPoint: "main"}
	one := [3]uint32{1, 1, 1}
	all := bindingsJob().Buffers
	for name, job := range map[string]harness.Dispatch{
		"abi fields":      {Buffers: all, Workgroups: one, Invocations: 4},
		"zero z":          {Buffers: all, Workgroups: [3]uint32{1, 1, 0}},
		"over the limit":  {Buffers: all, Workgroups: [3]uint32{65536, 1, 1}},
		"duplicate":       {Buffers: append([]harness.BufferBinding{all[1]}, all...), Workgroups: one},
		"unknown kind":    {Buffers: []harness.BufferBinding{{Group: 0, Binding: 0}}, Workgroups: one},
		"large uniform":   {Buffers: []harness.BufferBinding{{Kind: harness.BindingUniform, Data: make([]byte, 1<<20)}}, Workgroups: one},
		"too many groups": {Buffers: []harness.BufferBinding{{Group: 9, Kind: harness.BindingStorage, Data: le(1)}}, Workgroups: one},
	} {
		_, err := d.Run(t.Context(), k, job)
		var ce *harness.CompileError
		var de *harness.DeviceError
		if assert.Error(t, err, name) {
			assert.False(t, errors.As(err, &ce) || errors.As(err, &de), "%s: %v is an argument error", name, err)
		}
	}
	assert.Equal(t, 1, d.starts, "argument errors never touch the worker")

	bad := strings.Replace(bindingsWGSL, "dst[i] = src[i] * p.scale + p.bias;", "dst[i] = src[i] * p.scale + 1.5;", 1)
	_, err := d.Run(t.Context(), harness.Kernel{WGSL: bad, EntryPoint: "main"}, bindingsJob())
	var ce *harness.CompileError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, harness.StageShaderModule, ce.Stage)
	assert.Contains(t, ce.Message, "dst[i] = src[i] * p.scale + 1.5;", "Tint's diagnostic quotes the source")

	_, err = d.Run(t.Context(), k, harness.Dispatch{Buffers: all[1:], Workgroups: one})
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, harness.StagePipeline, ce.Stage, "count (@group(2) @binding(2)) is not bound")

	// An entry point without bindings runs with none and reads back
	// nothing; the same empty dispatch of a module with bindings fails
	// creating the pipeline.
	empty := harness.Dispatch{Buffers: []harness.BufferBinding{}, Workgroups: one}
	out, err := d.Run(t.Context(), harness.Kernel{EntryPoint: "main",
		WGSL: "var<private> x: u32;\n@compute @workgroup_size(1)\nfn main() {\n  x = x + 1u;\n}\n"}, empty)
	require.NoError(t, err)
	assert.NotNil(t, out)
	assert.Empty(t, out)
	_, err = d.Run(t.Context(), k, empty)
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, harness.StagePipeline, ce.Stage)

	out, err = d.Run(t.Context(), harness.Kernel{WGSL: tripleWGSL, EntryPoint: "main"},
		harness.Dispatch{Input: le(7), OutputSize: 4, Invocations: 1})
	require.NoError(t, err)
	assert.Equal(t, []uint32{22}, words(out))
	assert.Equal(t, pid, d.w.pid(), "compile errors keep the worker")
	assert.Equal(t, 1, d.starts)
}

// spinBindingsWGSL loops n times (a uniform) in its one invocation:
// 2³²−1 LCG steps take minutes on SwiftShader.
const spinBindingsWGSL = `
@group(0) @binding(0) var<uniform> n: vec4<u32>;
@group(0) @binding(1) var<storage, read_write> out: u32;

@compute @workgroup_size(1)
fn main() {
  var x = 1u;
  for (var j = 0u; j < n.x; j++) { x = x * 1664525u + 1013904223u; }
  out = x;
}
`

// TestRunBindingsTimeout: a dispatch as written still running when ctx
// ends is a DeviceError wrapping the deadline, as for the kernel ABI; the
// worker is killed and the next Run starts one that works.
func TestRunBindingsTimeout(t *testing.T) {
	d := openDevice(t, swiftshader)
	pid := d.w.pid()
	k := harness.Kernel{WGSL: spinBindingsWGSL, EntryPoint: "main"}
	job := func(n uint32) harness.Dispatch {
		return harness.Dispatch{Buffers: []harness.BufferBinding{
			{Group: 0, Binding: 0, Kind: harness.BindingUniform, Data: le(n, 0, 0, 0)},
			{Group: 0, Binding: 1, Kind: harness.BindingStorage, Data: le(0)},
		}, Workgroups: [3]uint32{1, 1, 1}}
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	_, err := d.Run(ctx, k, job(0xFFFFFFFF))
	var de *harness.DeviceError
	require.ErrorAs(t, err, &de)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, "wait", de.Op)
	assert.True(t, gone(pid), "worker %d still exists", pid)

	out, err := d.Run(t.Context(), k, job(2))
	require.NoError(t, err)
	s := func(x uint32) uint32 { return x*1664525 + 1013904223 }
	assert.Equal(t, []uint32{s(s(1))}, words(out))
	assert.Equal(t, 2, d.starts)
}
