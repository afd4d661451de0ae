package wgpuext

/*
#include <stdlib.h>
#include "wgpuext.h"
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/cogentcore/webgpu/wgpu"
)

// EventKind says which device callback reported an Event.
type EventKind int

const (
	// Uncaptured is an error no error scope caught (webgpu.h
	// uncapturedErrorCallbackInfo); Event.Code is a wgpu.ErrorType.
	Uncaptured EventKind = 1
	// Lost is the device-lost callback; Event.Code is a
	// wgpu.DeviceLostReason (2 = destroyed, which Close itself causes).
	Lost EventKind = 2
)

// Event is one report from a device callback, with wgpu-native's message.
type Event struct {
	Kind    EventKind
	Code    uint32
	Message string
}

func (e Event) String() string {
	switch e.Kind {
	case Uncaptured:
		return fmt.Sprintf("uncaptured %v error: %s", wgpu.ErrorType(e.Code), e.Message)
	case Lost:
		return fmt.Sprintf("device lost (%v): %s", wgpu.DeviceLostReason(e.Code), e.Message)
	}
	return fmt.Sprintf("event %d/%d: %s", e.Kind, e.Code, e.Message)
}

// Sink collects the Events of one device. Callbacks may run on any thread,
// during any wgpu-native call on the device or when it is finally dropped.
type Sink struct {
	id     uintptr
	mu     sync.Mutex
	events []Event
}

// Drain returns the events collected since the last Drain, oldest first.
func (s *Sink) Drain() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	ev := s.events
	s.events = nil
	return ev
}

// Close unregisters the sink; later callbacks for its device are dropped.
func (s *Sink) Close() {
	sinksMu.Lock()
	delete(sinks, s.id)
	sinksMu.Unlock()
}

// sinks maps the id wgpu-native carries as callback userdata to its Sink.
// Ids are never reused, so a callback that arrives after Close finds
// nothing instead of another device's sink.
var (
	sinksMu    sync.Mutex
	sinks      = map[uintptr]*Sink{}
	nextSinkID uintptr
)

//export gdDeviceEvent
func gdDeviceEvent(kind C.int, code C.uint32_t, message *C.char, id C.uintptr_t) {
	sinksMu.Lock()
	s := sinks[uintptr(id)]
	sinksMu.Unlock()
	if s == nil {
		return
	}
	ev := Event{Kind: EventKind(kind), Code: uint32(code), Message: C.GoString(message)}
	s.mu.Lock()
	s.events = append(s.events, ev)
	s.mu.Unlock()
}

// DeviceFeatures returns the features of have (an adapter's) that
// RequestDevice enables: every WebGPU optional feature (WebGPU §3.6
// "Optional Capabilities", e.g. "bgra8unorm-storage", "float32-filterable"),
// so that a shader needing one runs where the adapter has it, as Dawn's
// adapters do; and wgpu's native TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES,
// without which wgpu-native (wgpu 0.19.4) refuses every read-only and read-write
// storage texture binding ("Read-write and read-only storage textures are
// not allowed by webgpu"), although WebGPU allows read-only access to every
// storage format and read-write access to r32float, r32sint and r32uint
// (WGSL language feature readonly_and_readwrite_storage_textures). Other
// native features (push constants, vertex writable storage, …) are left
// off: no kernel gpudiff runs needs them.
func DeviceFeatures(have []wgpu.FeatureName) []wgpu.FeatureName {
	var out []wgpu.FeatureName
	for _, f := range have {
		// webgpu.h numbers WebGPU's features below 0x00030000, where
		// wgpu-native's own begin (wgpu.h WGPUNativeFeature).
		if f < 0x00030000 || f == wgpu.NativeFeatureTextureAdapterSpecificFormatFeatures {
			out = append(out, f)
		}
	}
	return out
}

// RequestDevice opens a device on adapter with the adapter's own supported
// limits (so storage buffers may be as large as the adapter allows, e.g.
// 128 MiB on lavapipe), the features DeviceFeatures chooses, and with
// uncaptured-error and device-lost callbacks
// that report to the returned Sink instead of aborting the process. The
// caller releases the device with its Release method, then closes the Sink.
func RequestDevice(adapter *wgpu.Adapter) (*wgpu.Device, *Sink, error) {
	if err := ready(); err != nil {
		return nil, nil, err
	}
	if adapter == nil {
		return nil, nil, errNil
	}
	sinksMu.Lock()
	nextSinkID++
	s := &Sink{id: nextSinkID}
	sinks[s.id] = s
	sinksMu.Unlock()

	var msg *C.char
	features := DeviceFeatures(adapter.EnumerateFeatures())
	var fp *C.WGPUFeatureName
	if len(features) > 0 {
		fp = (*C.WGPUFeatureName)(C.malloc(C.size_t(len(features)) * C.size_t(unsafe.Sizeof(C.WGPUFeatureName(0)))))
		defer C.free(unsafe.Pointer(fp))
		copy(unsafe.Slice((*wgpu.FeatureName)(unsafe.Pointer(fp)), len(features)), features)
	}
	ref := C.gd_request_device(C.WGPUAdapter(adapterRef(adapter)), C.uintptr_t(s.id), fp, C.size_t(len(features)), &msg)
	if ref == nil {
		s.Close()
		defer C.free(unsafe.Pointer(msg))
		return nil, nil, fmt.Errorf("request device: %s", C.GoString(msg))
	}
	return wrapDevice(unsafe.Pointer(ref)), s, nil
}
