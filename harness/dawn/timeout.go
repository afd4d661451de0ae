package dawn

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gpudiff/gpudiff/harness"
)

// Defaults of a Device's time limits (SetTimeouts), as harness/worker's.
const (
	DefaultTimeout        = 30 * time.Second
	DefaultCompileTimeout = 60 * time.Second
)

// Phases of a dispatch (TimeoutError.Phase), as harness/worker's.
const (
	PhaseCompile  = "compile"  // creating the shader modules and the pipeline
	PhaseDispatch = "dispatch" // the buffers, the dispatch or draw, and the readback
	// PhaseFirstDispatch replaces PhaseDispatch on a backend that compiles
	// at the first dispatch (harness.CompilesAtFirstDispatch: Dawn's and
	// Deno's GL and GLES on Mesa): the rest of the compile and the run,
	// under both limits together.
	PhaseFirstDispatch = "first-dispatch"
)

// TimeoutError is returned by Device.Run when the worker did not report
// the kernel compiled within the compile limit (Phase PhaseCompile: the
// shader modules and the pipeline, with Tint and the driver) or did not
// reply within the dispatch limit after that (Phase PhaseDispatch: a
// hang; on GL, within both limits together, Phase PhaseFirstDispatch: a
// slow compile or a hang). The worker was killed; the next Run starts a new one.
// errors.Is(err, context.DeadlineExceeded) holds.
type TimeoutError struct {
	Adapter string
	Phase   string
	After   time.Duration // the limit that passed (a Duration counts nanoseconds)
	Output  string        // the end of the worker's stdout and stderr
}

func (e *TimeoutError) Error() string {
	what := "compiling (shader module and pipeline creation)"
	switch e.Phase {
	case PhaseDispatch:
		what = "running, after it compiled"
	case PhaseFirstDispatch:
		what = harness.FirstDispatchTimeout
	}
	return fmt.Sprintf("dawn: %s: dispatch timed out %s after %v (worker killed)", e.Adapter, what, e.After)
}

// Unwrap returns context.DeadlineExceeded.
func (e *TimeoutError) Unwrap() error { return context.DeadlineExceeded }

// SlowCompile reports whether e is a compile-phase timeout: the stack's
// compiler took longer than the limit, which says nothing about the
// kernel's result.
func (e *TimeoutError) SlowCompile() bool { return e.Phase == PhaseCompile }

// SetTimeouts sets the limits of every later Run: compile bounds its
// compile phase (from sending the request to the worker's progress line
// saying the pipeline is created), dispatch the rest (to the reply). Zero
// keeps DefaultCompileTimeout (60 s) or DefaultTimeout (30 s).
// harness/devices calls it with gpudiff's --compile-timeout and --timeout.
func (d *Device) SetTimeouts(compile, dispatch time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.compileTimeout, d.timeout = compile, dispatch
}

// limits are the Device's time limits, defaults filled in.
func (d *Device) limits() (compile, dispatch time.Duration) {
	compile, dispatch = d.compileTimeout, d.timeout
	if compile <= 0 {
		compile = DefaultCompileTimeout
	}
	if dispatch <= 0 {
		dispatch = DefaultTimeout
	}
	return compile, dispatch
}

// exchange sends one request line to the worker and decodes its reply
// into rep, past the progress line that ends the request's compile phase
// (which it passes on to harness.Compiled(ctx)). It returns ctx.Err() when
// ctx ends first, errDied when the worker is gone, and a *TimeoutError
// when a phase's limit passes (the caller kills the worker in every
// error case).
func (d *Device) exchange(ctx context.Context, req []byte, rep *reply) error {
	compile, dispatch := d.limits()
	phase, limit := PhaseCompile, compile
	timer := time.NewTimer(limit)
	defer timer.Stop()
	w := d.w
	written := make(chan error, 1)
	go func() {
		_, err := w.stdin.Write(req)
		written <- err
	}()
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				return errDied
			}
			var progress struct {
				Progress string `json:"progress"`
			}
			if json.Unmarshal(line, &progress) == nil && progress.Progress == "compiled" {
				if phase == PhaseCompile {
					phase, limit = PhaseDispatch, dispatch
					if harness.CompilesAtFirstDispatch(d.info.Backend) {
						phase, limit = PhaseFirstDispatch, compile+dispatch
					}
					timer.Reset(limit)
					harness.Compiled(ctx)
				}
				continue
			}
			if err := json.Unmarshal(line, rep); err != nil {
				return fmt.Errorf("bad reply %.200q: %w", line, err)
			}
			if werr := <-written; werr != nil {
				return fmt.Errorf("writing the request: %w", werr)
			}
			return nil
		case <-timer.C:
			return &TimeoutError{Adapter: d.info.Name, Phase: phase, After: limit, Output: w.output.String()}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
