package harness

import "context"

// A dispatch has two phases, each with its own time limit where a
// process boundary enforces one (harness/worker, harness/dawn): compiling
// (the shader modules and the pipeline: the stack's compiler, and on
// lavapipe LLVM, tens of seconds for a large module) and running (the
// buffers, the dispatch or draw and its readback). Run tells a caller that
// compiling is over through a function the caller puts in ctx
// (WithCompiled).

type compiledKey struct{}

// WithCompiled returns a copy of ctx carrying f, which Device.Run calls
// once, on its own goroutine, when the kernel's pipeline has been created
// (the shader modules and the pipeline compiled) and before any buffer of
// the dispatch is made: the end of the compile phase. A Run that fails
// while compiling (a *CompileError) does not call it. f must not call back
// into the Device.
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
