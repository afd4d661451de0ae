package worker

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// TestDrawThroughWorker: a render pipeline as written crosses the worker
// protocol (the vertex stage in harness.Kernel, harness.Draw in
// harness.Dispatch). Hand-derived on a 4×4 target: the quad x ∈ [−1, 0],
// y ∈ [−1, 1] in NDC (pixel columns 0 and 1: the centres 0.5 and 1.5
// against the edge at framebuffer x = 2) is drawn indexed, two triangles
// at BaseVertex 1, for two instances whose instance-step offsets are
// (0, 0) and (+1, 0) (columns 2 and 3); the fragment paints a uniform's
// value plus the instance index. A Draw of zero fields is a draw of no
// vertices (the clear value), not the full-screen triangle a nil Draw is.
func TestDrawThroughWorker(t *testing.T) {
	d := startDevice(t, lavapipe, Options{})
	src := `
struct U { value: u32 }
@group(0) @binding(0) var<uniform> u: U;
struct V { @builtin(position) pos: vec4f, @location(0) inst: f32 }
@vertex fn vs(@location(0) p: vec2f, @location(1) off: vec2f, @builtin(instance_index) i: u32) -> V {
  return V(vec4f(p + off, 0.0, 1.0), f32(i));
}
@fragment fn fs(@location(0) inst: f32) -> @location(0) u32 { return u.value + u32(round(inst)); }
`
	f32s := func(fs ...float32) []byte {
		var b []byte
		for _, f := range fs {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
		return b
	}
	k := harness.Kernel{WGSL: src, EntryPoint: "fs", Stage: harness.FragmentStage, VertexWGSL: src, VertexEntryPoint: "vs", Label: "draw/wgsl"}
	job := harness.Dispatch{
		Target: [2]uint32{4, 4}, Attachments: []harness.AttachmentFormat{harness.R32Uint},
		Buffers: []harness.BufferBinding{{Kind: harness.BindingUniform, Data: le(42, 0, 0, 0)}},
		Draw: &harness.Draw{
			VertexBuffers: []harness.VertexBuffer{
				{Data: f32s(9, 9, -1, -1, 0, -1, 0, 1, -1, 1), Stride: 8, Attributes: []harness.VertexAttribute{{Format: "float32x2", ShaderLocation: 0}}},
				{Data: f32s(0, 0, 1, 0), Stride: 8, StepMode: "instance", Attributes: []harness.VertexAttribute{{Format: "float32x2", ShaderLocation: 1}}},
			},
			Index: &harness.IndexBuffer{Format: "uint16", Data: []byte{0, 0, 1, 0, 2, 0, 0, 0, 2, 0, 3, 0}},
			Count: 6, InstanceCount: 2, BaseVertex: 1, Clear: [][4]float64{{5, 0, 0, 0}},
		},
	}
	out, err := d.Run(context.Background(), k, job)
	require.NoError(t, err)
	var want []uint32
	for range 4 {
		want = append(want, 42, 42, 43, 43)
	}
	assert.Equal(t, want, words(out))

	paint := harness.Kernel{WGSL: `@fragment fn fs() -> @location(0) u32 { return 7u; }`, EntryPoint: "fs", Stage: harness.FragmentStage, Label: "paint/wgsl"}
	for _, c := range []struct {
		draw *harness.Draw
		want uint32
	}{{nil, 7}, {&harness.Draw{}, 0}} {
		out, err := d.Run(context.Background(), paint, harness.Dispatch{Entry: true, Target: [2]uint32{2, 2}, Attachments: []harness.AttachmentFormat{harness.R32Uint}, Draw: c.draw})
		require.NoError(t, err)
		assert.Equal(t, []uint32{c.want, c.want, c.want, c.want}, words(out), "Draw %+v", c.draw)
	}
}
