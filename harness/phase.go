package harness

import (
	"context"

	"github.com/cogentcore/webgpu/wgpu"
)

// A dispatch has two phases, each with its own time limit where a
// process boundary enforces one (harness/worker, harness/dawn): compiling
// (the shader modules and the pipeline: the stack's compiler, and on
// lavapipe LLVM, tens of seconds for a large module) and running (the
// buffers, the dispatch or draw and its readback). Run tells a caller that
// compiling is over through a function the caller puts in ctx
// (WithCompiled).

type compiledKey struct{}

// WithCompiled returns a copy of ctx carrying f, which Device.Run calls
// once per dispatch, on its own goroutine, when the kernel is compiled:
// its pipeline created and, for a compute dispatch on Vulkan, run once on
// zero workgroups (finishCompile: lavapipe compiles at a pipeline's first
// dispatch), before the dispatch itself: the end of the compile phase. A
// Run that fails while compiling (a *CompileError) does not call it. f
// must not call back into the Device.
func WithCompiled(ctx context.Context, f func()) context.Context {
	return context.WithValue(ctx, compiledKey{}, f)
}

// Compiled calls the function WithCompiled put in ctx, if any: the
// compile phase of a dispatch is over. Runners other than Device (Dawn's
// worker, harness/dawn) call it when their worker reports the pipeline
// created.
func Compiled(ctx context.Context) {
	if f, ok := ctx.Value(compiledKey{}).(func()); ok && f != nil {
		f()
	}
}

// timed reports whether ctx carries a WithCompiled function: someone times
// the phases of this dispatch.
func timed(ctx context.Context) bool {
	f, ok := ctx.Value(compiledKey{}).(func())
	return ok && f != nil
}

// finishCompile ends the compile phase of a compute dispatch whose phases
// are timed (WithCompiled): on Vulkan it first runs the pipeline on zero
// workgroups with the dispatch's bind groups — nothing executes, no buffer
// changes — and waits for it, because lavapipe runs LLVM at a pipeline's
// first dispatch, not when the pipeline is created (measured on Mesa 22: a
// 3,000-branch kernel's pipeline in 0.9 s, then 2.3 s more at its first
// dispatch, zero workgroups or not; SwiftShader compiles at creation);
// then it calls Compiled. readBuf is the dispatch's readback buffer (at
// least 4 bytes, CopyDst): clearing its first word in the same submission
// is what the wait waits for (the readback copies over it later). Mesa's
// GL skips a dispatch of zero workgroups, so on GL llvmpipe's deferred
// compile stays in the dispatch phase. Untimed dispatches skip all this.
func (d *Device) finishCompile(ctx context.Context, pipeline *wgpu.ComputePipeline, groups []*wgpu.BindGroup, readBuf *wgpu.Buffer) error {
	if !timed(ctx) {
		return nil
	}
	if d.info.Backend == "vulkan" {
		enc, err := d.dev.CreateCommandEncoder(nil)
		if err != nil {
			return d.fail("encode", err)
		}
		pass := enc.BeginComputePass(nil)
		pass.SetPipeline(pipeline)
		for g, bg := range groups {
			pass.SetBindGroup(uint32(g), bg, nil)
		}
		pass.DispatchWorkgroups(0, 1, 1)
		err = pass.End()
		pass.Release()
		if err == nil {
			err = enc.ClearBuffer(readBuf, 0, 4)
		}
		var cmd *wgpu.CommandBuffer
		if err == nil {
			cmd, err = enc.Finish(nil)
		}
		enc.Release()
		if err != nil {
			return d.fail("encode", err)
		}
		defer cmd.Release()
		if _, err := d.submitAndRead(ctx, cmd, readBuf, 4, func([]byte) []byte { return nil }); err != nil {
			return err
		}
	}
	Compiled(ctx)
	return nil
}

// CompilesAtFirstDispatch reports whether a backend (AdapterInfo.Backend)
// leaves part of a pipeline's compile to its first dispatch, where no
// zero-workgroup dispatch can force it (finishCompile): on OpenGL and
// OpenGL ES, Mesa's llvmpipe runs LLVM on a compute or fragment shader
// at its first dispatch or draw, and GL skips a dispatch of zero
// workgroups. On such a backend the phase after the compile phase is
// PhaseFirstDispatch: the compile's end and the run together, under the
// sum of both limits.
func CompilesAtFirstDispatch(backend string) bool { return backend == "gl" || backend == "gles" }

// FirstDispatchTimeout is what the message of a timeout of the
// first-dispatch phase (CompilesAtFirstDispatch) says in place of "running,
// after it compiled": the stack ran out of the compile and dispatch limits
// together, and whether it was compiling or running cannot be told. A
// campaign whose second run of the same modules agrees records such a
// timeout as a slow compile (a performance note), not as a flaky stack.
const FirstDispatchTimeout = "compiling or running (this backend compiles at the first dispatch: the two cannot be told apart)"
