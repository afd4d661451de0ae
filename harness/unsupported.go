package harness

import "errors"

// ErrUnsupported is returned (possibly wrapped) by an implementation's Run
// for a kernel it cannot take at all — e.g. a SPIR-V module given to an
// implementation that only accepts WGSL. Callers drop such runs instead of
// reporting a verdict: nothing about the kernel was tested.
var ErrUnsupported = errors.New("harness: kernel format not supported by this implementation")
