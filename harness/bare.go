package harness

import (
	"context"
	"errors"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/gpudiff/gpudiff/harness/internal/wgpuext"
)

// RunBare runs each kernel with its dispatch, in order, the thinnest way
// the WebGPU API allows: per kernel one shader module, one compute
// pipeline, one input upload, one dispatch, one copy to the readback
// buffer and one map; the input, output and readback buffers, sized for
// the largest dispatch, and their bind groups (one per distinct output
// size, which the kernel's arrayLength sees) are created once and reused.
// It returns each kernel's output bytes (job.OutputSize of them; the
// output buffer is not cleared between kernels) or error, classified as
// Run classifies them; after a Broken error the remaining kernels get it
// too.
//
// It is the driver floor: what the stack costs for exactly these modules
// with nothing of gpudiff's around them. Benchmarks measure gpudiff's
// throughput against it (fuzz's BenchmarkGpudiff); gpudiff itself runs
// kernels through Run.
func (d *Device) RunBare(ctx context.Context, ks []Kernel, jobs []Dispatch) ([][]byte, []error) {
	outs, errs := make([][]byte, len(ks)), make([]error, len(ks))
	fail := func(from int, err error) ([][]byte, []error) {
		for i := from; i < len(ks); i++ {
			errs[i] = err
		}
		return outs, errs
	}
	switch {
	case d.closed:
		return fail(0, errors.New("harness: RunBare on a closed Device"))
	case d.broken != nil:
		return fail(0, d.broken)
	case len(ks) != len(jobs):
		return fail(0, errors.New("harness: RunBare needs one dispatch per kernel"))
	}
	if err := d.takeEvents(); err != nil {
		return fail(0, err)
	}
	inMax, outMax := 4, 4
	for i, job := range jobs {
		if job.Buffers != nil {
			return fail(0, errors.New("harness: RunBare takes kernel ABI dispatches only, not Buffers dispatches"))
		}
		if err := d.checkRun(ks[i], job); err != nil {
			return fail(0, err)
		}
		inMax, outMax = max(inMax, bufferSize(len(job.Input))), max(outMax, bufferSize(job.OutputSize))
	}
	inBuf, err := d.dev.CreateBuffer(&wgpu.BufferDescriptor{Label: "input", Size: uint64(inMax),
		Usage: wgpu.BufferUsageStorage | wgpu.BufferUsageCopyDst})
	if err != nil {
		return fail(0, d.fail("buffer", err))
	}
	defer inBuf.Release()
	outBuf, err := d.dev.CreateBuffer(&wgpu.BufferDescriptor{Label: "output", Size: uint64(outMax),
		Usage: wgpu.BufferUsageStorage | wgpu.BufferUsageCopySrc})
	if err != nil {
		return fail(0, d.fail("buffer", err))
	}
	defer outBuf.Release()
	readBuf, err := d.dev.CreateBuffer(&wgpu.BufferDescriptor{Label: "readback", Size: uint64(outMax),
		Usage: wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst})
	if err != nil {
		return fail(0, d.fail("buffer", err))
	}
	defer readBuf.Release()
	groups := map[int]*wgpu.BindGroup{}
	defer func() {
		for _, g := range groups {
			g.Release()
		}
	}()
	input := make([]byte, inMax)
	for i, k := range ks {
		if err := ctx.Err(); err != nil {
			return fail(i, err)
		}
		inSize, outSize := bufferSize(len(jobs[i].Input)), bufferSize(jobs[i].OutputSize)
		bg := groups[outSize]
		if bg == nil {
			bg, err = d.dev.CreateBindGroup(&wgpu.BindGroupDescriptor{Layout: d.bgl, Entries: []wgpu.BindGroupEntry{
				{Binding: bindingInput, Buffer: inBuf, Size: uint64(inMax)},
				{Binding: bindingOutput, Buffer: outBuf, Size: uint64(outSize)},
			}})
			if err != nil {
				return fail(i, d.fail("bind-group", err))
			}
			groups[outSize] = bg
		}
		n := copy(input, jobs[i].Input)
		clear(input[n:inSize])
		if err := d.queue.WriteBuffer(inBuf, 0, input[:inSize]); err != nil {
			return fail(i, d.fail("buffer", err))
		}
		outs[i], errs[i] = d.runBare(ctx, k, bg, workgroups(jobs[i].Invocations), outBuf, readBuf, outSize, jobs[i].OutputSize)
		if evErr := d.takeEvents(); evErr != nil && (errs[i] == nil || d.broken != nil) {
			outs[i], errs[i] = nil, evErr
		}
		if d.broken != nil {
			return fail(i+1, d.broken)
		}
	}
	return outs, errs
}

// runBare compiles k and dispatches it with bind group bg.
func (d *Device) runBare(ctx context.Context, k Kernel, bg *wgpu.BindGroup, groups int,
	outBuf, readBuf *wgpu.Buffer, outSize, want int) ([]byte, error) {
	pipeline, err := d.createPipeline(k)
	if err != nil {
		return nil, err
	}
	defer pipeline.Release()
	Compiled(ctx)
	cmd, err := d.encode(pipeline, bg, groups, outBuf, readBuf, outSize)
	if err != nil {
		return nil, d.fail("encode", err)
	}
	defer cmd.Release()
	d.queue.Submit(cmd)
	mapping, err := wgpuext.MapRead(d.dev, readBuf, uint64(outSize))
	if err != nil {
		return nil, d.fail("readback", err)
	}
	if err := d.wait(ctx, mapping); err != nil {
		return nil, err
	}
	defer mapping.Free()
	if err := mapping.Err(); err != nil {
		return nil, d.fail("readback", err)
	}
	out := make([]byte, want)
	copy(out, readBuf.GetMappedRange(0, uint(outSize)))
	if err := readBuf.Unmap(); err != nil {
		return nil, d.fail("readback", err)
	}
	return out, nil
}
