package harness

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bindingsWGSL uses two bind groups, a uniform, a read-only and two
// read_write storage buffers, a 3-dimensional dispatch and a workgroup
// size that is not the kernel ABI's 64.
const bindingsWGSL = `
struct P { scale: u32, bias: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(3) var<storage, read> src: array<u32>;
@group(1) @binding(0) var<storage, read_write> dst: array<u32>;
@group(1) @binding(2) var<storage, read_write> count: atomic<u32>;

@compute @workgroup_size(2)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
  let i = g.x + 4u * (g.y + 2u * g.z);
  dst[i] = src[i] * p.scale + p.bias;
  atomicAdd(&count, 1u);
}
`

// TestRunBindingsDispatchesAsWritten: 2×2×2 workgroups of 2 invocations
// write dst[i] = src[i]*3 + 5 for i = 0..15 and count 16; the read-only
// and uniform buffers come back nowhere, the read_write ones in Buffers
// order with their exact lengths (dst's 17th word, past the invocations,
// keeps its initial 99).
func TestRunBindingsDispatchesAsWritten(t *testing.T) {
	for _, name := range []string{lavapipe, swiftshader} {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			src := iota32(16)
			dstInit := make([]uint32, 17)
			dstInit[16] = 99
			out, err := d.Run(context.Background(), Kernel{WGSL: bindingsWGSL, EntryPoint: "main"}, Dispatch{
				Buffers: []BufferBinding{
					{Group: 1, Binding: 2, Kind: BindingStorage, Data: le(0)},
					{Group: 0, Binding: 0, Kind: BindingUniform, Data: le(3, 5)},
					{Group: 0, Binding: 3, Kind: BindingReadOnly, Data: le(src...)},
					{Group: 1, Binding: 0, Kind: BindingStorage, Data: le(dstInit...)},
				},
				Workgroups: [3]uint32{2, 2, 2},
			})
			require.NoError(t, err)
			want := []uint32{16}
			for i := range 16 {
				want = append(want, uint32(i)*3+5)
			}
			want = append(want, 99)
			assert.Equal(t, want, words(out))
		})
	}
}

// TestRunBindingsRejectsInvalidDispatches: mixing the kernel ABI's fields
// in, a zero workgroup count and a duplicate binding are errors before
// anything runs; a binding the shader declares but the dispatch lacks is
// the stack's pipeline CompileError, and the device stays usable.
func TestRunBindingsRejectsInvalidDispatches(t *testing.T) {
	d := openDevice(t, lavapipe)
	k := Kernel{WGSL: bindingsWGSL, EntryPoint: "main"}
	one := [3]uint32{1, 1, 1}
	buf := func(g, b uint32, kind BindingKind) BufferBinding {
		return BufferBinding{Group: g, Binding: b, Kind: kind, Data: le(1, 2)}
	}
	all := []BufferBinding{buf(0, 0, BindingUniform), buf(0, 3, BindingReadOnly), buf(1, 0, BindingStorage), buf(1, 2, BindingStorage)}
	for name, job := range map[string]Dispatch{
		"abi fields":   {Buffers: all, Workgroups: one, Invocations: 4},
		"zero z":       {Buffers: all, Workgroups: [3]uint32{1, 1, 0}},
		"duplicate":    {Buffers: append([]BufferBinding{buf(0, 0, BindingUniform)}, all...), Workgroups: one},
		"unknown kind": {Buffers: []BufferBinding{{Group: 0, Binding: 0}}, Workgroups: one},
	} {
		_, err := d.Run(context.Background(), k, job)
		assert.Error(t, err, name)
		var ce *CompileError
		assert.NotErrorAs(t, err, &ce, name)
	}
	_, err := d.Run(context.Background(), k, Dispatch{Buffers: all[1:], Workgroups: one})
	var ce *CompileError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, StagePipeline, ce.Stage)
	out, err := d.Run(context.Background(), k, Dispatch{Buffers: all, Workgroups: one})
	require.NoError(t, err)
	// dst = src*1 + 2 = [3, 4]; count = 1 + 2 invocations, its second word untouched.
	assert.Equal(t, []uint32{3, 4, 3, 2}, words(out))

	// An entry point without bindings runs with none (its pipeline is
	// what is tested) and reads nothing back — Workgroups alone makes it
	// a Buffers dispatch, as check sends it (a nil Buffers; gob drops an
	// empty one on the way to a worker anyway); the same dispatch of a
	// module that declares bindings fails creating the pipeline.
	empty := Dispatch{Workgroups: one}
	out, err = d.Run(context.Background(), Kernel{WGSL: "var<private> x: u32;\n@compute @workgroup_size(1)\nfn main() {\n  x = x + 1u;\n}\n", EntryPoint: "main"}, empty)
	require.NoError(t, err)
	assert.Empty(t, out)
	_, err = d.Run(context.Background(), k, empty)
	require.ErrorAs(t, err, &ce)
}
