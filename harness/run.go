package harness

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/gpudiff/gpudiff/harness/internal/wgpuext"
)

// Kernel ABI constants (ARCHITECTURE.md, "Kernel ABI").
const (
	// WorkgroupSize is the @workgroup_size every kernel entry point
	// declares; Run dispatches ceil(invocations/WorkgroupSize) workgroups.
	WorkgroupSize = 64
	bindingInput  = 0 // @group(0) @binding(0): read-only storage, inputs
	bindingOutput = 1 // @group(0) @binding(1): read-write storage, outputs
)

// Kernel is a shader module, the name of its entry point and the entry
// point's stage. Exactly one of WGSL and SPIRV is set.
type Kernel struct {
	WGSL  string   // WGSL source text
	SPIRV []uint32 // SPIR-V words (Vulkan 1.1 environment), magic number first
	// EntryPoint is the name of the entry point: a @compute entry point
	// (under the kernel ABI declared with @workgroup_size(64)), or a
	// @fragment one when Stage is FragmentStage.
	EntryPoint string
	// Stage is the entry point's stage: ComputeStage ("" too) or
	// FragmentStage (render.go: Run draws a full-screen triangle with the
	// harness's own vertex stage, VertexWGSL, or Dispatch.Draw with the
	// vertex stage below).
	Stage ShaderStage
	// The vertex stage of a fragment draw (draw.go), a module of its own
	// (WebGPU takes a module per stage, #GPURenderPipelineDescriptor: the
	// fragment module's text again when one module has both):
	// VertexEntryPoint names its @vertex entry point in exactly one of
	// VertexWGSL and VertexSPIRV (SPIR-V words, as SPIRV). All three
	// empty: the harness's own full-screen triangle (the const
	// VertexWGSL). A vertex stage of its own makes the draw a render
	// pipeline as written (Dispatch.AsWritten).
	VertexWGSL       string
	VertexSPIRV      []uint32
	VertexEntryPoint string
	// Label names the dispatch for reports and for fault injection in
	// worker processes (harness/worker matches it by prefix), e.g.
	// "p5/original/wgsl". The harness itself ignores it.
	Label string
}

// Dispatch is one run of a kernel: its input buffer contents and the sizes
// of the output and of the grid.
type Dispatch struct {
	// Input is the content of the input buffer, one record per invocation
	// in the ABI's layout. Empty input still binds a zeroed 4-byte buffer.
	Input []byte
	// OutputSize is the size of the output buffer in bytes (rounded up to
	// at least 4 and a multiple of 4 on the device; Run returns exactly
	// OutputSize bytes). The buffer starts zeroed.
	OutputSize int
	// Invocations is the number of invocations the kernel is meant to run;
	// Run dispatches ceil(Invocations/64) workgroups along x, so the last
	// workgroup may run past it and the kernel must bounds-check. At most
	// 64 × the adapter's maxComputeWorkgroupsPerDimension (65535 on the CPU
	// adapters: 4,194,240 invocations).
	Invocations int

	// Buffers, when set, makes this a dispatch of a module as written
	// (ARCHITECTURE.md "Entry points as written"; bindings.go) instead of
	// the kernel ABI: one buffer per binding, each with its initial bytes,
	// and Workgroups workgroups. Input, OutputSize and Invocations must
	// then be zero, and Run returns the final bytes of every BindingStorage
	// buffer, concatenated in Buffers order, each exactly len(Data) bytes.
	Buffers []BufferBinding
	// Workgroups is the dispatch size (X, Y, Z) of a Buffers dispatch;
	// each at least 1 and at most the adapter's
	// maxComputeWorkgroupsPerDimension.
	Workgroups [3]uint32
	// Textures and Samplers are the texture and sampler bindings of a
	// dispatch of a module as written (texture.go): textures uploaded per
	// mip level, samplers from their descriptors; Run returns every written
	// storage texture's texels after the BindingStorage buffers.
	Textures []TextureBinding
	Samplers []SamplerBinding

	// Target is the render target's width and height in pixels of a
	// fragment draw (Kernel.Stage FragmentStage), each 1 to the adapter's
	// maxTextureDimension2D; the kernel ABI's is FragmentTarget
	// (Invocations). Zero for a compute dispatch.
	Target [2]uint32
	// Attachments are the colour attachments of a fragment draw, at least
	// one: attachment i, a Target-sized texture of format Attachments[i]
	// cleared to zero (or to Draw.Clear[i]), receives the entry point's
	// @location(i) output.
	// After the storage output (OutputSize bytes, or every BindingStorage
	// buffer), Run returns each attachment's texels in order, row by row
	// from the top, width × texel size bytes a row (the readback's
	// 256-byte row padding removed).
	Attachments []AttachmentFormat
	// Entry marks a fragment draw of an entry point as written: its
	// bindings are Buffers (none at all when Buffers is empty), not the
	// kernel ABI's input and output buffers; Input, OutputSize and
	// Invocations are then zero, and Run returns the BindingStorage
	// buffers' bytes (if any) and the attachments' texels. A Draw or a
	// vertex stage of the Kernel's own implies it (AsWritten). In a draw
	// with a vertex stage of its own, the uniform and read-only storage
	// buffers, the textures (but write-only and read-write storage
	// textures) and the samplers are visible to the vertex and the
	// fragment stage (GPUShaderStage VERTEX | FRAGMENT); read_write
	// storage buffers and written storage textures to the fragment stage
	// only (WebGPU forbids them in the vertex stage).
	Entry bool
	// Draw is the draw call of a fragment draw (draw.go): vertex and
	// index buffers, counts, topology, culling and clear values. nil:
	// the full-screen triangle of the kernel ABI, cleared to zero.
	Draw *Draw
}

// Run compiles k, runs job on the device and returns the output buffer's
// OutputSize bytes (a fragment draw: then its attachments' texels, see
// Dispatch.Attachments). Each Run creates and releases its own shader module,
// pipeline, buffers, bind group and command buffer.
//
// Errors: *CompileError when the stack rejects the module or the pipeline
// (the Device stays usable); *DeviceError when buffers, encoding, the
// device or the readback fail (see DeviceError.Broken); other errors for
// an invalid Kernel or Dispatch (no entry point, both or neither of WGSL and
// SPIRV, negative or over-limit sizes), a closed Device, or a ctx already
// done on entry (ctx.Err()).
//
// ctx is checked on entry and bounds the wait for the GPU (compilation in the
// stack cannot be interrupted). When ctx ends first, Run returns within
// about a millisecond with a *DeviceError wrapping ctx.Err(), and the Device
// is broken because the work is still in flight (see Close). A running
// kernel cannot be stopped in-process: with a ctx that never ends, Run
// waits as long as the kernel runs, however long that is.
func (d *Device) Run(ctx context.Context, k Kernel, job Dispatch) ([]byte, error) {
	if d.closed {
		return nil, errors.New("harness: Run on a closed Device")
	}
	if d.broken != nil {
		return nil, d.broken
	}
	if err := d.checkRun(k, job); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := d.takeEvents(); err != nil {
		return nil, err
	}
	run := d.run
	switch {
	case k.Stage == FragmentStage:
		run = d.runFragment
	case job.Buffers != nil || job.Workgroups != [3]uint32{} || job.Textures != nil || job.Samplers != nil:
		// Workgroups too: an entry point without bindings has an empty
		// Buffers, which a worker receives as nil (gob sends no empty
		// slice).
		run = d.runBindings
	}
	out, err := run(ctx, k, job)
	if evErr := d.takeEvents(); evErr != nil && (err == nil || d.broken != nil) {
		err = evErr
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// checkRun validates k and job against the ABI and the device's limits.
func (d *Device) checkRun(k Kernel, job Dispatch) error {
	switch {
	case k.EntryPoint == "":
		return errors.New("harness: kernel has no entry point name")
	case (k.WGSL == "") == (len(k.SPIRV) == 0):
		return errors.New("harness: kernel must have exactly one of WGSL and SPIRV")
	case job.OutputSize < 0 || job.Invocations < 0:
		return fmt.Errorf("harness: negative dispatch size (output %d bytes, %d invocations)", job.OutputSize, job.Invocations)
	case k.Stage != "" && k.Stage != ComputeStage && k.Stage != FragmentStage:
		return fmt.Errorf("harness: unknown shader stage %q", k.Stage)
	case k.Stage == FragmentStage:
		if err := d.checkFragment(job); err != nil {
			return err
		}
		return CheckDraw(k, job, d.info.Name, d.drawLimits())
	case job.Target != [2]uint32{} || job.Attachments != nil || job.Draw != nil:
		return errors.New("harness: a compute dispatch has no Target, Attachments or Draw")
	case k.VertexWGSL != "" || len(k.VertexSPIRV) > 0 || k.VertexEntryPoint != "":
		return errors.New("harness: a compute dispatch has no vertex stage")
	}
	if job.Buffers != nil || job.Workgroups != [3]uint32{} || job.Textures != nil || job.Samplers != nil {
		return d.checkBindings(job)
	}
	maxBinding := min(d.limits.MaxStorageBufferBindingSize, d.limits.MaxBufferSize)
	for _, n := range []int{len(job.Input), job.OutputSize} {
		if uint64(bufferSize(n)) > maxBinding {
			return fmt.Errorf("harness: buffer of %d bytes exceeds %s's storage binding limit of %d bytes", n, d.info.Name, maxBinding)
		}
	}
	if wg := workgroups(job.Invocations); uint64(wg) > uint64(d.limits.MaxComputeWorkgroupsPerDimension) {
		return fmt.Errorf("harness: %d invocations need %d workgroups, over %s's limit of %d",
			job.Invocations, wg, d.info.Name, d.limits.MaxComputeWorkgroupsPerDimension)
	}
	return nil
}

// bufferSize is the device size of a buffer holding n bytes: at least 4, a
// multiple of 4 (WebGPU's copy and binding alignment).
func bufferSize(n int) int { return max(4, (n+3)&^3) }

func workgroups(invocations int) int { return (invocations + WorkgroupSize - 1) / WorkgroupSize }

// createPipeline compiles k into a compute pipeline of the kernel ABI's
// layout (the shader module is released once the pipeline holds it).
// Errors are *CompileError: StageShaderModule from createModule,
// StagePipeline here.
func (d *Device) createPipeline(k Kernel) (*wgpu.ComputePipeline, error) {
	module, err := d.createModule(k)
	if err != nil {
		return nil, err
	}
	defer module.Release()
	pipeline, err := d.dev.CreateComputePipeline(&wgpu.ComputePipelineDescriptor{
		Layout:  d.layout,
		Compute: wgpu.ProgrammableStageDescriptor{Module: module, EntryPoint: k.EntryPoint},
	})
	if err != nil {
		return nil, &CompileError{Stage: StagePipeline, Message: stackMessage(err)}
	}
	return pipeline, nil
}

// run does the work of Run; every object it creates is released on return.
func (d *Device) run(ctx context.Context, k Kernel, job Dispatch) ([]byte, error) {
	pipeline, err := d.createPipeline(k)
	if err != nil {
		return nil, err
	}
	defer pipeline.Release()

	inSize, outSize := bufferSize(len(job.Input)), bufferSize(job.OutputSize)
	input := make([]byte, inSize)
	copy(input, job.Input)
	inBuf, err := d.dev.CreateBufferInit(&wgpu.BufferInitDescriptor{
		Label: "input", Contents: input, Usage: wgpu.BufferUsageStorage,
	})
	if err != nil {
		return nil, d.fail("buffer", err)
	}
	defer inBuf.Release()
	outBuf, err := d.dev.CreateBuffer(&wgpu.BufferDescriptor{
		Label: "output", Size: uint64(outSize), Usage: wgpu.BufferUsageStorage | wgpu.BufferUsageCopySrc,
	})
	if err != nil {
		return nil, d.fail("buffer", err)
	}
	defer outBuf.Release()
	readBuf, err := d.dev.CreateBuffer(&wgpu.BufferDescriptor{
		Label: "readback", Size: uint64(outSize), Usage: wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst,
	})
	if err != nil {
		return nil, d.fail("buffer", err)
	}
	defer readBuf.Release()

	bindGroup, err := d.dev.CreateBindGroup(&wgpu.BindGroupDescriptor{
		Layout: d.bgl,
		Entries: []wgpu.BindGroupEntry{
			{Binding: bindingInput, Buffer: inBuf, Size: uint64(inSize)},
			{Binding: bindingOutput, Buffer: outBuf, Size: uint64(outSize)},
		},
	})
	if err != nil {
		return nil, d.fail("bind-group", err)
	}
	defer bindGroup.Release()
	if err := d.finishCompile(ctx, pipeline, []*wgpu.BindGroup{bindGroup}, readBuf); err != nil {
		return nil, err
	}

	cmd, err := d.encode(pipeline, bindGroup, workgroups(job.Invocations), outBuf, readBuf, outSize)
	if err != nil {
		return nil, d.fail("encode", err)
	}
	defer cmd.Release()
	return d.submitAndRead(ctx, cmd, readBuf, outSize, func(mapped []byte) []byte {
		out := make([]byte, job.OutputSize)
		copy(out, mapped)
		return out
	})
}

// submitAndRead submits cmd, maps the first size bytes of readBuf once
// the queue has run it (bounded by ctx and the device's timeout: d.wait),
// and returns take's copy of the mapped bytes (take must copy: the range
// is unmapped after it returns). Failures are DeviceErrors of the
// "readback" step; a timed-out mapping is not freed, as its callback may
// still come.
func (d *Device) submitAndRead(ctx context.Context, cmd *wgpu.CommandBuffer, readBuf *wgpu.Buffer, size int, take func(mapped []byte) []byte) ([]byte, error) {
	d.queue.Submit(cmd)
	mapping, err := wgpuext.MapRead(d.dev, readBuf, uint64(size))
	if err != nil {
		return nil, d.fail("readback", err)
	}
	if err := d.wait(ctx, mapping); err != nil {
		return nil, err // mapping is not freed: its callback may still come
	}
	defer mapping.Free()
	if err := mapping.Err(); err != nil {
		return nil, d.fail("readback", err)
	}
	out := take(readBuf.GetMappedRange(0, uint(size)))
	if err := readBuf.Unmap(); err != nil {
		return nil, d.fail("readback", err)
	}
	return out, nil
}

// createModule creates k's shader module from WGSL through the binding, or
// from SPIR-V through wgpuext (the binding passes a byte count where
// webgpu.h wants a word count). The stack's rejection is a *CompileError.
func (d *Device) createModule(k Kernel) (*wgpu.ShaderModule, error) {
	if len(k.SPIRV) > 0 {
		m, err := wgpuext.CreateShaderModuleSPIRV(d.dev, k.SPIRV)
		var scoped *wgpuext.Error
		if errors.As(err, &scoped) {
			return nil, &CompileError{Stage: StageShaderModule, Message: strings.TrimSpace(scoped.Message)}
		}
		return m, err // err: wgpuext cannot run in this binary
	}
	// The binding reports only errors its error scope caught.
	m, err := d.dev.CreateShaderModule(&wgpu.ShaderModuleDescriptor{
		WGSLDescriptor: &wgpu.ShaderModuleWGSLDescriptor{Code: k.WGSL},
	})
	if err != nil {
		return nil, &CompileError{Stage: StageShaderModule, Message: stackMessage(err)}
	}
	return m, nil
}

// encode records the dispatch and the copy of the output into the readback
// buffer.
func (d *Device) encode(pipeline *wgpu.ComputePipeline, bindGroup *wgpu.BindGroup, groups int,
	outBuf, readBuf *wgpu.Buffer, size int) (*wgpu.CommandBuffer, error) {
	enc, err := d.dev.CreateCommandEncoder(nil)
	if err != nil {
		return nil, err
	}
	defer enc.Release()
	pass := enc.BeginComputePass(nil)
	pass.SetPipeline(pipeline)
	pass.SetBindGroup(0, bindGroup, nil)
	pass.DispatchWorkgroups(uint32(groups), 1, 1)
	err = pass.End()
	pass.Release()
	if err != nil {
		return nil, err
	}
	if err := enc.CopyBufferToBuffer(outBuf, 0, readBuf, 0, uint64(size)); err != nil {
		return nil, err
	}
	return enc.Finish(nil)
}

// Polling the device. wgpu-native (wgpu-core 0.19.4) waits at most 5 s
// (CLEANUP_WAIT_MS) in a blocking poll (wgpuDevicePoll with wait = true,
// with or without a submission index), ignores the timeout, and then treats
// the submission it waited for as complete: it calls the map callbacks —
// the readback buffer is then read before the copy into it ran, all zeros
// or an earlier dispatch's bytes — recycles the submission's command buffer
// and frees the resources it used that were already released, all while
// the driver is still executing it. The driver's queue thread then writes
// into memory that new buffers reuse (wrong outputs in later dispatches) or
// crashes the process (SIGSEGV on a driver thread). Any dispatch that runs
// longer than 5 s does that: a long kernel, or lavapipe compiling a large
// kernel (it compiles at dispatch time) on a loaded machine. (wgpu issues
// #3601 and #4589, fixed upstream by wgpu pull request #7030 in 2025.)
//
// So the harness never blocks in wgpu-native: it polls without waiting,
// which retires only the submissions whose fence has really signalled,
// and sleeps between polls (in C: wgpuext.Sleep), pollDelayMin at first,
// growing by half up to pollDelayMax. That costs a dispatch the time
// between its end and the next poll, and every poll costs the driver some
// tens of microseconds on a loaded 2-core machine (a wake-up among its
// threads), so short dispatches are polled often and long ones (cold
// compiles: tens of milliseconds) about once a millisecond.
var (
	pollDelayMin = 20 * time.Microsecond
	pollDelayMax = time.Millisecond
)

// wait returns once the readback mapping m has called back, polling the
// device without blocking in the driver (see pollDelayMin). When ctx ends
// first (it is checked between polls), it returns with a Broken
// *DeviceError; the device is then broken, and a goroutine keeps polling
// until the GPU has finished all its work and then reports on d.inflight,
// which Close waits for.
func (d *Device) wait(ctx context.Context, m *wgpuext.Mapping) error {
	p := &mapPoller{d: d, m: m, delay: pollDelayMin}
	for {
		mapped, _, err := p.poll()
		if err != nil {
			d.broken = err
			return err
		}
		if mapped {
			return nil
		}
		if err := ctx.Err(); err != nil {
			inflight := make(chan *DeviceError, 1)
			go func() { inflight <- p.drain() }()
			d.inflight, d.pending = inflight, m // for Close
			d.broken = &DeviceError{
				Adapter: d.info.Name, Op: "wait", Broken: true, Err: err,
				Message: fmt.Sprintf("GPU work still running when the context ended: %v", err),
			}
			return d.broken
		}
		wgpuext.Sleep(p.next())
	}
}

// mapPoller polls a device until a readback mapping has called back. It
// touches nothing but d.dev, d.info and m, so it may outlive the Run that
// started it.
type mapPoller struct {
	d     *Device
	m     *wgpuext.Mapping
	idle  int           // polls that found the queue empty without the callback
	delay time.Duration // the next sleep between polls
}

// poll polls the device once, without waiting, and reports whether m has
// called back and whether the queue is empty (every submission retired:
// the GPU has finished). wgpu-native runs map callbacks inside the poll
// that finds the copy done, so a queue that is empty twice without the
// callback means it will never come: the returned error is Broken.
func (p *mapPoller) poll() (mapped, empty bool, err *DeviceError) {
	empty = p.d.dev.Poll(false, nil)
	if p.m.Done() {
		return true, empty, nil
	}
	if empty {
		p.idle++
		if p.idle >= 2 {
			return false, true, &DeviceError{Adapter: p.d.info.Name, Op: "readback", Broken: true,
				Message: "the queue is idle but the output buffer never mapped"}
		}
	}
	return false, empty, nil
}

// next returns the sleep before the next poll and grows the one after it
// by half, up to pollDelayMax.
func (p *mapPoller) next() time.Duration {
	d := p.delay
	p.delay = min(p.delay*3/2, pollDelayMax)
	return d
}

// drain polls until the GPU has finished all the device's work and m has
// called back, or the queue went idle without the callback. The callback
// alone does not mean the GPU is done: releasing the readback buffer, as a
// Run that gave up does, makes wgpu-native call it at once with an error.
func (p *mapPoller) drain() *DeviceError {
	for {
		mapped, empty, err := p.poll()
		if err != nil || mapped && empty {
			return err
		}
		wgpuext.Sleep(p.next())
	}
}

// fail wraps an error of a step after compilation.
func (d *Device) fail(op string, err error) error {
	return &DeviceError{Adapter: d.info.Name, Op: op, Message: stackMessage(err), Err: err}
}

// takeEvents turns what the device's callbacks reported since the last call
// into an error: a lost device breaks the Device, an uncaptured error fails
// the current Run only. Loss through Close is not reported (Close is not
// concurrent with Run).
func (d *Device) takeEvents() error {
	var err *DeviceError
	for _, ev := range d.sink.Drain() {
		e := &DeviceError{Adapter: d.info.Name, Op: "device", Message: ev.String()}
		if ev.Kind == wgpuext.Lost {
			e.Broken = true
			d.broken = e
		}
		if err == nil || e.Broken {
			err = e
		}
	}
	if err == nil {
		return nil
	}
	return err
}
