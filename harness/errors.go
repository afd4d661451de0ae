package harness

import (
	"fmt"
	"regexp"
	"strings"
)

// Compile stages, the values of CompileError.Stage.
const (
	StageShaderModule = "shader-module" // WGSL or SPIR-V parsing and validation (naga in wgpu)
	StagePipeline     = "pipeline"      // entry point lookup, layout checks, backend translation, driver compile
)

// CompileError is returned by Device.Run when the stack rejects the kernel:
// creating its shader module or its compute pipeline failed. Message is the
// stack's own report (for wgpu: naga's parse or validation text, which spans
// several lines and quotes the source). The Device stays usable.
type CompileError struct {
	Stage   string // StageShaderModule or StagePipeline
	Message string
}

func (e *CompileError) Error() string {
	return fmt.Sprintf("harness: %s creation failed: %s", e.Stage, e.Message)
}

// DeviceError is returned by Open and Device.Run when the device, the
// dispatch or the readback fails rather than the kernel's compilation: a
// buffer or bind group the stack refused, a validation error while encoding
// or submitting, a failed buffer map, an error the device reported outside
// any error scope, a lost device, or a context that ended while the GPU was
// still working.
type DeviceError struct {
	Adapter string // short name of the adapter (AdapterInfo.Name)
	// Op is the step that failed: "open", "buffer", "bind-group",
	// "texture" (a fragment draw's attachments), "encode", "readback", "wait" (for the GPU to finish), or "device"
	// (an uncaptured error or device loss reported by callback).
	Op      string
	Message string // the stack's message, or a description of the failure
	// Broken reports that the Device can no longer be used (lost, or
	// abandoned with work in flight): every later Run fails. Close it and
	// Open the adapter again, preferably in a fresh process.
	Broken bool
	Err    error // the underlying cause, if any (e.g. context.DeadlineExceeded)
}

func (e *DeviceError) Error() string {
	s := fmt.Sprintf("harness: %s: %s failed: %s", e.Adapter, e.Op, e.Message)
	if e.Broken {
		s += " (device unusable)"
	}
	return s
}

// Unwrap returns Err, so errors.Is(err, context.DeadlineExceeded) works.
func (e *DeviceError) Unwrap() error { return e.Err }

// bindingPrefix matches the "wgpu.(*Device).CreateShaderModule(): " that the
// binding puts before wgpu-native's message.
var bindingPrefix = regexp.MustCompile(`^wgpu\.\(\*\w+\)\.\w+\(\): `)

// stackMessage strips the binding's prefix from an error, leaving the
// stack's own message.
func stackMessage(err error) string {
	return strings.TrimSpace(bindingPrefix.ReplaceAllString(err.Error(), ""))
}
