package wgpuext

/*
#include <stdlib.h>
#include "wgpuext.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/cogentcore/webgpu/wgpu"
)

// Mapping is a pending map-for-reading of a buffer. Its state lives in C
// memory until Free.
type Mapping struct {
	state *C.gd_map_state
}

// MapRead starts mapping bytes [0, size) of buffer for reading
// (wgpuBufferMapAsync with WGPUMapMode_Read). The mapping completes during a
// later device Poll; check Done. An error caught at the call returns *Error.
// The caller must Free the Mapping once Done, or leak it if the device is
// abandoned with the map still pending.
func MapRead(device *wgpu.Device, buffer *wgpu.Buffer, size uint64) (*Mapping, error) {
	if err := ready(); err != nil {
		return nil, err
	}
	if device == nil || buffer == nil {
		return nil, errNil
	}
	m := &Mapping{state: (*C.gd_map_state)(C.calloc(1, C.size_t(unsafe.Sizeof(C.gd_map_state{}))))}
	var scope C.gd_error
	C.gd_buffer_map_read(C.WGPUDevice(deviceRef(device)), C.WGPUBuffer(bufferRef(buffer)), C.size_t(size), m.state, &scope)
	if err := scopeErr(&scope); err != nil {
		if m.Done() {
			m.Free()
		} // else the callback may still write the state: leak it.
		return nil, err
	}
	return m, nil
}

// Done reports whether the map callback has run. It may be called from any
// goroutine, also while another one polls the device.
func (m *Mapping) Done() bool { return C.gd_map_done(m.state) != 0 }

// Err is nil when the mapping succeeded, else an error naming the status.
// Only meaningful once Done.
func (m *Mapping) Err() error {
	if st := wgpu.BufferMapAsyncStatus(m.state.status); st != wgpu.BufferMapAsyncStatusSuccess {
		return fmt.Errorf("map buffer for reading: %v", st)
	}
	return nil
}

// Free releases the C state. Only call it once Done.
func (m *Mapping) Free() {
	C.free(unsafe.Pointer(m.state))
	m.state = nil
}

// Getenv calls C's getenv(3), so tests can check that os.Setenv reached the
// C environment that the Vulkan loader and EGL read.
func Getenv(name string) (string, bool) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	v := C.gd_getenv(cs)
	if v == nil {
		return "", false
	}
	return C.GoString(v), true
}
