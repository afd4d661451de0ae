package worker

import (
	"errors"

	"github.com/gpudiff/gpudiff/harness"
)

// The protocol: the parent writes requests to the worker's stdin and the
// worker writes one reply per request to its stdout, both as a single
// encoding/gob stream per worker process (gob frames each value itself).
// Requests are handled one at a time, in order; a reply carries the id of
// its request. Before the reply to a run, the worker writes a progress
// frame for it (Compiled set, nothing else) once the kernel's pipeline is
// created: the parent then stops timing the compile phase
// (Options.CompileTimeout) and times the dispatch (Options.Timeout). A run
// that fails to compile gets no progress frame. The worker writes nothing
// else to stdout (see Serve).

// Request operations.
const (
	opOpen = "open" // open Adapter (harness.Open) and reply with its AdapterInfo
	opRun  = "run"  // run Kernel with Dispatch on Adapter and reply with the output bytes
)

// request is one frame from the parent to the worker.
type request struct {
	ID       uint64
	Op       string // opOpen or opRun
	Adapter  string // adapter name as given to Start (harness.Open resolves it)
	Kernel   harness.Kernel
	Dispatch harness.Dispatch
}

// reply is one frame from the worker to the parent.
type reply struct {
	ID     uint64
	Info   harness.AdapterInfo // opOpen
	Output []byte              // opRun, on success
	Err    *wireError          // nil on success
	// Compiled marks a progress frame of an opRun (no other field set but
	// ID): the pipeline is created, the dispatch begins; the reply follows.
	Compiled bool
}

// Kinds of wireError, one per error type that keeps its type across the
// process boundary.
const (
	kindCompile = "compile"         // *harness.CompileError
	kindDevice  = "device"          // *harness.DeviceError
	kindUnknown = "unknown-adapter" // *harness.UnknownAdapterError
	kindAmbig   = "ambiguous"       // *harness.AmbiguousAdapterError
	kindUnsup   = "unsupported"     // *harness.UnsupportedError
	kindOther   = "other"           // anything else, as its text
)

// wireError is an error as plain data: the fields of the harness error
// types, tagged with which one it was.
type wireError struct {
	Kind string
	// *harness.CompileError
	Stage string
	// all kinds; for kindOther the error's text
	Message string
	// *harness.DeviceError (Adapter also *harness.UnsupportedError, whose
	// Reason travels as Message)
	Adapter string
	Op      string
	Broken  bool
	Cause   string // text of DeviceError.Err, "" when nil
	// *harness.UnknownAdapterError
	Selector  string
	Available []string
	// *harness.AmbiguousAdapterError
	Name    string
	Matches []string
}

// toWire converts err for a reply; nil stays nil.
func toWire(err error) *wireError {
	if err == nil {
		return nil
	}
	var ce *harness.CompileError
	var de *harness.DeviceError
	var ue *harness.UnknownAdapterError
	var ae *harness.AmbiguousAdapterError
	var un *harness.UnsupportedError
	switch {
	case errors.As(err, &ce):
		return &wireError{Kind: kindCompile, Stage: ce.Stage, Message: ce.Message}
	case errors.As(err, &de):
		w := &wireError{Kind: kindDevice, Adapter: de.Adapter, Op: de.Op, Message: de.Message, Broken: de.Broken}
		if de.Err != nil {
			w.Cause = de.Err.Error()
		}
		return w
	case errors.As(err, &ue):
		return &wireError{Kind: kindUnknown, Selector: ue.Selector, Available: ue.Available}
	case errors.As(err, &ae):
		return &wireError{Kind: kindAmbig, Name: ae.Name, Matches: ae.Matches}
	case errors.As(err, &un):
		return &wireError{Kind: kindUnsup, Adapter: un.Adapter, Message: un.Reason}
	}
	return &wireError{Kind: kindOther, Message: err.Error()}
}

// err converts w back into the error type it was sent as. A DeviceError's
// Err arrives as an error with the same text (its type does not cross).
func (w *wireError) err() error {
	if w == nil {
		return nil
	}
	switch w.Kind {
	case kindCompile:
		return &harness.CompileError{Stage: w.Stage, Message: w.Message}
	case kindDevice:
		de := &harness.DeviceError{Adapter: w.Adapter, Op: w.Op, Message: w.Message, Broken: w.Broken}
		if w.Cause != "" {
			de.Err = errors.New(w.Cause)
		}
		return de
	case kindUnknown:
		return &harness.UnknownAdapterError{Selector: w.Selector, Available: w.Available}
	case kindAmbig:
		return &harness.AmbiguousAdapterError{Name: w.Name, Matches: w.Matches}
	case kindUnsup:
		return &harness.UnsupportedError{Adapter: w.Adapter, Reason: w.Message}
	}
	return errors.New(w.Message)
}

// broken reports whether w is a DeviceError that left the worker's device
// unusable: the worker exits after sending it.
func (w *wireError) broken() bool { return w != nil && w.Kind == kindDevice && w.Broken }
