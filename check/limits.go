package check

import (
	"fmt"
	"os"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/shrink"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// Limits bounds what one input may cost, so a hostile or mistaken input
// gets a clear error (gpudiff's exit 2) instead of exhausting the machine.
// Every limit has a documented default (DefaultLimits) and a gpudiff flag
// to override it, which its errors name (README "Limits").
type Limits struct {
	SourceBytes int64 // bytes of a WGSL, case or --inputs file
	Statements  int   // statements in the kernel's call graph
	Invocations int   // invocations per kernel run
	Steps       int64 // interpreter steps per invocation
	Unroll      int   // flatten: total loop-body copies
	UnrollNodes int   // flatten: IR nodes unrolling may add (Loops auto keeps loops past it)
	BufferBytes int64 // bytes of one input or output storage buffer
}

// DefaultLimits are the limits no flag changed.
var DefaultLimits = Limits{
	SourceBytes: 4 << 20,
	Statements:  100_000,
	Invocations: 1 << 20,
	Steps:       interp.DefaultMaxSteps,
	Unroll:      flatten.DefaultMaxUnroll,
	UnrollNodes: flatten.DefaultMaxUnrollNodes,
	BufferBytes: 64 << 20,
}

// CheckSourceSize checks n bytes of the source file path against the
// source-size limit.
func (l Limits) CheckSourceSize(path string, n int64) error {
	if n > l.SourceBytes {
		return fmt.Errorf("%s: %d bytes exceeds the source limit of %d bytes (raise it with --max-source-bytes)", path, n, l.SourceBytes)
	}
	return nil
}

// ReadSource reads a source file (WGSL, case or --inputs JSON) within
// the source-size limit (LoadOptions.ReadFile).
func (l Limits) ReadSource(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("gpudiff: %v", err)
	}
	if err := l.CheckSourceSize(path, st.Size()); err != nil {
		return nil, err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("gpudiff: %v", err)
	}
	return src, nil
}

// CheckKernel checks the statement limit of kernel f in m and the
// invocation and buffer limits of running it n times
// (LoadOptions.CheckKernel).
func (l Limits) CheckKernel(m *ir.Module, f *ir.Func, n int) error {
	if s := shrink.Stmts(m, f.Name); s > l.Statements {
		return fmt.Errorf("%s:%d:%d: kernel %s has %d statements in its call graph, over the limit of %d (raise it with --max-statements)",
			m.File, f.Pos.Line, f.Pos.Col, f.Name, s, l.Statements)
	}
	if n > l.Invocations {
		return fmt.Errorf("gpudiff: %d invocations exceed the limit of %d (raise it with --max-invocations)", n, l.Invocations)
	}
	abi, err := ir.NewKernelABI(m, f.Name)
	if err != nil {
		return err
	}
	for _, b := range []struct {
		what   string
		stride int
	}{{"input", abi.InputStride}, {"output", abi.OutputStride}} {
		if size := int64(n) * int64(b.stride); size > l.BufferBytes {
			return fmt.Errorf("gpudiff: the %s buffer needs %d bytes (%d invocations × %d), over the limit of %d (raise it with --max-buffer-bytes)",
				b.what, size, n, b.stride, l.BufferBytes)
		}
	}
	return nil
}

// Interp is the interpreter's options under the limits.
func (l Limits) Interp() interp.Options { return interp.Options{MaxSteps: l.Steps} }
