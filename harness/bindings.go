package harness

import (
	"context"
	"errors"
	"fmt"

	"github.com/cogentcore/webgpu/wgpu"
)

// BindingKind is how a module as written declares a binding (WGSL
// #address-spaces): var<storage, read>, var<storage, read_write> or
// var<uniform>.
type BindingKind uint8

// The binding kinds of a Buffers dispatch.
const (
	BindingReadOnly BindingKind = iota + 1 // var<storage, read> (or var<storage>)
	BindingStorage                         // var<storage, read_write>: read back after the dispatch
	BindingUniform                         // var<uniform>
)

func (k BindingKind) String() string {
	switch k {
	case BindingReadOnly:
		return "storage-read"
	case BindingStorage:
		return "storage-read_write"
	case BindingUniform:
		return "uniform"
	}
	return fmt.Sprintf("BindingKind(%d)", uint8(k))
}

// BufferBinding is one binding of a module as written: its @group and
// @binding, its kind, and the buffer's initial bytes in the binding's
// host-shareable layout (the caller encodes them; the harness never
// decodes). The device buffer is len(Data) rounded up to a multiple of 4
// (at least 4); the shader sees that size (arrayLength of a runtime-sized
// array counts it).
type BufferBinding struct {
	Group, Binding uint32
	Kind           BindingKind
	Data           []byte
}

// checkBindings validates a Buffers dispatch against the device's limits.
func (d *Device) checkBindings(job Dispatch) error {
	return CheckBindings(job, d.info.Name, uint64(d.limits.MaxComputeWorkgroupsPerDimension),
		min(d.limits.MaxStorageBufferBindingSize, d.limits.MaxBufferSize), uint64(d.limits.MaxUniformBufferBindingSize),
		uint64(d.limits.MaxBindGroups))
}

// CheckBindings validates a Buffers dispatch (Dispatch.Buffers, Workgroups)
// against an adapter's limits; implementations share it. It refuses a
// dispatch that also sets the kernel ABI's fields, two buffers
// at one group and binding, an unknown kind, a workgroup count of 0 or over
// maxWorkgroups, and a buffer over its kind's binding limit.
func CheckBindings(job Dispatch, adapter string, maxWorkgroups, maxStorage, maxUniform, maxGroups uint64) error {
	switch {
	case len(job.Input) > 0 || job.OutputSize != 0 || job.Invocations != 0:
		return errors.New("harness: a Buffers dispatch has no Input, OutputSize or Invocations")
	}
	for i, n := range job.Workgroups {
		if n == 0 || uint64(n) > maxWorkgroups {
			return fmt.Errorf("harness: %d workgroups along %c, want 1 to %s's limit of %d", n, "xyz"[i], adapter, maxWorkgroups)
		}
	}
	seen := map[[2]uint32]bool{}
	for _, b := range job.Buffers {
		key := [2]uint32{b.Group, b.Binding}
		if seen[key] {
			return fmt.Errorf("harness: two buffers at @group(%d) @binding(%d)", b.Group, b.Binding)
		}
		seen[key] = true
		if uint64(b.Group) >= maxGroups {
			return fmt.Errorf("harness: @group(%d) is over %s's limit of %d bind groups", b.Group, adapter, maxGroups)
		}
		limit := maxStorage
		switch b.Kind {
		case BindingReadOnly, BindingStorage:
		case BindingUniform:
			limit = maxUniform
		default:
			return fmt.Errorf("harness: @group(%d) @binding(%d) has kind %v", b.Group, b.Binding, b.Kind)
		}
		if uint64(bufferSize(len(b.Data))) > limit {
			return fmt.Errorf("harness: %v buffer of %d bytes at @group(%d) @binding(%d) exceeds %s's binding limit of %d bytes",
				b.Kind, len(b.Data), b.Group, b.Binding, adapter, limit)
		}
	}
	return checkTextures(job, seen, maxGroups)
}

// runBindings does the work of Run for a Buffers dispatch: a bind group
// layout per group from the buffers' kinds (groups without buffers get an
// empty one), the pipeline with that layout, one buffer per binding, the
// dispatch, and one copy of every BindingStorage buffer into a single
// readback buffer at 4-aligned offsets. Every object is released on return.
func (d *Device) runBindings(ctx context.Context, k Kernel, job Dispatch) ([]byte, error) {
	bgls, layout, release, err := d.bindingLayouts(job, job.Buffers, wgpu.ShaderStageCompute, false)
	if err != nil {
		return nil, err
	}
	defer release()
	module, err := d.createModule(k)
	if err != nil {
		return nil, err
	}
	defer module.Release()
	pipeline, err := d.dev.CreateComputePipeline(&wgpu.ComputePipelineDescriptor{
		Layout:  layout,
		Compute: wgpu.ProgrammableStageDescriptor{Module: module, EntryPoint: k.EntryPoint},
	})
	if err != nil {
		return nil, &CompileError{Stage: StagePipeline, Message: stackMessage(err)}
	}
	defer pipeline.Release()

	b, err := d.createBindings(job, job.Buffers, bgls)
	if err != nil {
		return nil, err
	}
	defer b.release()
	readSize := max(b.readSize, 4)
	readBuf, err := d.dev.CreateBuffer(&wgpu.BufferDescriptor{
		Label: "readback", Size: uint64(readSize), Usage: wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst,
	})
	if err != nil {
		return nil, d.fail("buffer", err)
	}
	defer readBuf.Release()
	if err := d.finishCompile(ctx, pipeline, b.groups, readBuf); err != nil {
		return nil, err
	}

	cmd, err := d.encodeBindings(pipeline, b, job, readBuf)
	if err != nil {
		return nil, d.fail("encode", err)
	}
	defer cmd.Release()
	return d.submitAndRead(ctx, cmd, readBuf, readSize, func(mapped []byte) []byte {
		out := []byte{}
		for i, bb := range job.Buffers {
			if bb.Kind == BindingStorage {
				out = append(out, mapped[b.offsets[i]:b.offsets[i]+len(bb.Data)]...)
			}
		}
		return b.tex.takeTextures(out, mapped, job)
	})
}

// encodeBindings records the dispatch of a Buffers dispatch and the copies
// of its BindingStorage buffers into readBuf.
func (d *Device) encodeBindings(pipeline *wgpu.ComputePipeline, bs *bindings, job Dispatch, readBuf *wgpu.Buffer) (*wgpu.CommandBuffer, error) {
	bindGroups, bufs, offsets := bs.groups, bs.bufs, bs.offsets
	enc, err := d.dev.CreateCommandEncoder(nil)
	if err != nil {
		return nil, err
	}
	defer enc.Release()
	pass := enc.BeginComputePass(nil)
	pass.SetPipeline(pipeline)
	for g, bg := range bindGroups {
		pass.SetBindGroup(uint32(g), bg, nil)
	}
	pass.DispatchWorkgroups(job.Workgroups[0], job.Workgroups[1], job.Workgroups[2])
	err = pass.End()
	pass.Release()
	if err != nil {
		return nil, err
	}
	for i, b := range job.Buffers {
		if b.Kind != BindingStorage {
			continue
		}
		if err := enc.CopyBufferToBuffer(bufs[i], 0, readBuf, uint64(offsets[i]), uint64(bufferSize(len(b.Data)))); err != nil {
			return nil, err
		}
	}
	if err := bs.tex.copyTextures(enc, job, readBuf); err != nil {
		return nil, err
	}
	return enc.Finish(nil)
}
