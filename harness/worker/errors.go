package worker

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/gpudiff/gpudiff/harness"
)

// CrashError is returned by Device.Run when the worker process died during
// the dispatch — killed by a signal, aborted, exited, closed its end of the
// protocol, or lost its device — and by Start (inside a *StartError) when
// workers die before they have opened the adapter. The next Run starts a
// fresh worker.
type CrashError struct {
	Adapter string // the adapter's harness.AdapterInfo.Name (the name given to Start before it opened)
	Op      string // what the worker was doing: OpDispatch or OpStart
	Label   string // the dispatch's Kernel.Label
	// Status is the worker's exit as the os package words it: "exit status
	// 2", "signal: aborted", "signal: killed" (with GOTRACEBACK=crash a
	// fatal signal ends as "signal: aborted" or "signal: quit").
	Status string
	// Signal is the fatal signal, "SIGSEGV", "SIGABRT", ...: the one the
	// Go runtime reported catching before it exited with status 2 (a
	// segfault in C code, e.g. in the driver, ends that way), or else the
	// one that killed the process. "" when no signal was involved.
	Signal string
	// StderrTail is the last 2 KiB (StderrTailSize) of the worker's stderr,
	// cut at a line start. When the Go runtime reported a fatal signal, its
	// dump of goroutine stacks and registers is replaced by the names of
	// the functions on the crashing goroutine's stack, so the tail keeps
	// what the driver printed before it crashed.
	StderrTail string
	// Detail is what the parent saw beyond the exit, if anything: a broken
	// protocol stream, or a worker that closed its output and had to be
	// killed.
	Detail string
	// Err is the cause: the Broken *harness.DeviceError the worker replied
	// with before exiting (a lost device), or else a Broken
	// *harness.DeviceError with Op "worker" describing the death. Unwrap
	// returns it, so callers that classify errors by *harness.DeviceError
	// see every crash as a broken device.
	Err error
}

func (e *CrashError) Error() string {
	s := fmt.Sprintf("worker: %s: %s crashed the worker process (%s", e.Adapter, opText(e.Op, e.Label), e.Status)
	if e.Signal != "" && !strings.HasPrefix(e.Status, "signal:") {
		s += ", " + e.Signal
	}
	s += ")"
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	var de *harness.DeviceError
	if e.Err != nil && !(errors.As(e.Err, &de) && de.Op == opWorker) {
		s += ": " + e.Err.Error() // what the worker reported
	}
	return s
}

// Unwrap returns Err.
func (e *CrashError) Unwrap() error { return e.Err }

// TimeoutError is returned by Device.Run when a dispatch did not compile
// within Options.CompileTimeout or did not finish running within
// Options.Timeout, and inside a *StartError when a worker did not open the
// adapter within Options.StartTimeout. The worker was killed (its whole
// process group, SIGKILL); the next Run starts a fresh one.
// errors.Is(err, context.DeadlineExceeded) holds.
type TimeoutError struct {
	Adapter string // as CrashError.Adapter
	Op      string // what the worker was doing: OpDispatch or OpStart
	// Phase is the phase of a dispatch that ran out of time: PhaseCompile
	// (the worker had not reported the pipeline created: a slow shader
	// compiler) or PhaseDispatch (it had: the dispatch or its readback
	// hung). "" for OpStart.
	Phase      string
	Label      string        // the dispatch's Kernel.Label
	After      time.Duration // the time limit that passed (Options.CompileTimeout, Timeout or StartTimeout; a Duration counts nanoseconds)
	StderrTail string        // as CrashError.StderrTail
}

func (e *TimeoutError) Error() string {
	what := ""
	switch e.Phase {
	case PhaseCompile:
		what = " compiling (shader module and pipeline creation)"
	case PhaseDispatch:
		what = " running, after it compiled"
	case PhaseFirstDispatch:
		what = " " + harness.FirstDispatchTimeout
	}
	return fmt.Sprintf("worker: %s: %s timed out%s after %v (worker killed)", e.Adapter, opText(e.Op, e.Label), what, e.After)
}

// SlowCompile reports whether e is a compile-phase timeout: the stack's
// compiler took longer than the limit, which says nothing about the
// kernel's result.
func (e *TimeoutError) SlowCompile() bool { return e.Phase == PhaseCompile }

// Unwrap returns context.DeadlineExceeded.
func (e *TimeoutError) Unwrap() error { return context.DeadlineExceeded }

// Values of CrashError.Op and TimeoutError.Op.
const (
	OpStart    = "start"    // starting the worker and opening the adapter in it
	OpDispatch = "dispatch" // running a dispatch (Device.Run)
)

// Values of TimeoutError.Phase: the phases of a dispatch.
const (
	PhaseCompile  = "compile"  // creating the shader modules and the pipeline
	PhaseDispatch = "dispatch" // the buffers, the dispatch or draw, and the readback
	// PhaseFirstDispatch replaces PhaseDispatch on a backend that compiles
	// at the first dispatch (harness.CompilesAtFirstDispatch: GL): the
	// rest of the compile and the run, under CompileTimeout + Timeout.
	PhaseFirstDispatch = "first-dispatch"
)

func opText(op, label string) string {
	switch {
	case op == OpStart:
		return "starting the worker"
	case label != "":
		return fmt.Sprintf("dispatch %q", label)
	}
	return "dispatch"
}

// StartError is returned by Start, and by every Run after it, when
// Options.MaxStarts workers in a row died (or timed out) before opening the
// adapter. The Device has given up: Close it; a new Start tries again.
type StartError struct {
	Adapter  string
	Attempts int   // workers started in a row without one opening the adapter
	Err      error // the last attempt's *CrashError or *TimeoutError (or the error starting the process)
}

func (e *StartError) Error() string {
	if e.Attempts == 0 {
		return fmt.Sprintf("worker: %s: cannot start a worker: %v", e.Adapter, e.Err)
	}
	return fmt.Sprintf("worker: %s: giving up after %d workers in a row failed to start: %v", e.Adapter, e.Attempts, e.Err)
}

// Unwrap returns Err.
func (e *StartError) Unwrap() error { return e.Err }

// StderrTailSize is the most bytes of a worker's stderr that CrashError and
// TimeoutError carry.
const StderrTailSize = 2048

// signalNames names the signals that end workers.
var signalNames = map[syscall.Signal]string{
	syscall.SIGSEGV: "SIGSEGV", syscall.SIGABRT: "SIGABRT", syscall.SIGBUS: "SIGBUS",
	syscall.SIGILL: "SIGILL", syscall.SIGFPE: "SIGFPE", syscall.SIGKILL: "SIGKILL",
	syscall.SIGTERM: "SIGTERM", syscall.SIGTRAP: "SIGTRAP", syscall.SIGSYS: "SIGSYS",
	syscall.SIGPIPE: "SIGPIPE", syscall.SIGQUIT: "SIGQUIT", syscall.SIGINT: "SIGINT",
}

func signalName(s syscall.Signal) string {
	if n, ok := signalNames[s]; ok {
		return n
	}
	return fmt.Sprintf("signal %d", int(s))
}

var (
	// goFatalSignal matches the header of the Go runtime's report of a
	// fatal signal (runtime/signal_unix.go: "SIGSEGV: segmentation
	// violation" then "PC=...").
	goFatalSignal = regexp.MustCompile(`(?m)^(SIG[A-Z0-9]+): [^\n]*\nPC=`)
	// goPanicSignal matches the signal line of a Go panic caused by a
	// signal ("[signal SIGSEGV: segmentation violation code=...").
	goPanicSignal = regexp.MustCompile(`(?m)^\[signal (SIG[A-Z0-9]+):`)
	// goFrameArgs matches the argument list that ends a function line of a
	// Go traceback: "(0x...", "({...", "(...)", "()", or "(_, ..." / "(_)"
	// where the runtime no longer has the first argument (a method's
	// receiver, when its frame passes a large struct).
	goFrameArgs = regexp.MustCompile(`\((0x|\{|\.\.\.|\)|_[,)])[^\n]*$`)
)

// reportedSignal returns the fatal signal the Go runtime reported first in
// stderr, or "". The first report is the cause: with GOTRACEBACK=crash the
// runtime then signals every other thread (SIGQUIT) and reports those too.
func reportedSignal(stderr string) string {
	for _, re := range []*regexp.Regexp{goFatalSignal, goPanicSignal} {
		if m := re.FindStringSubmatch(stderr); m != nil {
			return m[1]
		}
	}
	return ""
}

// condense replaces everything after the header of the first Go runtime
// fatal-signal report in stderr — the goroutine and register dumps — by
// the function names of the crashing goroutine's stack.
func condense(stderr string) string {
	loc := goFatalSignal.FindStringIndex(stderr)
	if loc == nil {
		return stderr
	}
	start := loc[0]
	rest := stderr[start:]
	header, dump, ok := strings.Cut(rest, "\n\n")
	if !ok {
		return stderr
	}
	var b strings.Builder
	b.WriteString(stderr[:start])
	b.WriteString(header)
	b.WriteString("\n")
	first, _, _ := strings.Cut(dump, "\n\n") // the crashing goroutine
	lines := strings.Split(first, "\n")
	if len(lines) > 0 && strings.HasPrefix(lines[0], "goroutine ") {
		b.WriteString("crashing goroutine, innermost call first:\n")
		for _, l := range lines[1:] {
			if loc := goFrameArgs.FindStringIndex(l); loc != nil && !strings.HasPrefix(l, "\t") {
				b.WriteString("  " + l[:loc[0]] + "\n") // the function's name without its argument words
			}
		}
	}
	b.WriteString("[Go runtime's goroutine and register dump omitted]\n")
	return b.String()
}

// tail returns the last StderrTailSize bytes of the condensed stderr,
// starting at a line start when the cut falls inside a line.
func tail(stderr string) string {
	s := condense(stderr)
	if len(s) <= StderrTailSize {
		return s
	}
	s = s[len(s)-StderrTailSize:]
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < len(s)-1 {
		s = s[i+1:]
	}
	return s
}

// opWorker is the DeviceError.Op of the cause a CrashError carries when
// the worker reported none.
const opWorker = "worker"

// deathError is the cause a CrashError carries when the worker reported
// none.
func deathError(adapter, status, detail string) *harness.DeviceError {
	msg := "worker process died: " + status
	if detail != "" {
		msg += ": " + detail
	}
	return &harness.DeviceError{Adapter: adapter, Op: opWorker, Message: msg, Broken: true}
}
