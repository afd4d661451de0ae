package wgpuext

/*
#include <stdlib.h>
#include "wgpuext.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/cogentcore/webgpu/wgpu"
)

// Error is an error that a wgpu-native error scope caught, with the stack's
// own message (for shader modules: naga's parse or validation report).
type Error struct {
	Type    wgpu.ErrorType
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%v error: %s", e.Type, e.Message) }

// scopeErr converts (and frees) a gd_error; nil when no error was caught.
func scopeErr(e *C.gd_error) error {
	if e._type == C.WGPUErrorType_NoError {
		return nil
	}
	defer C.free(unsafe.Pointer(e.message))
	return &Error{Type: wgpu.ErrorType(e._type), Message: C.GoString(e.message)}
}

// CreateShaderModuleSPIRV creates a shader module from SPIR-V words (the
// module's 32-bit words in host order, magic number first), passing their
// count as webgpu.h requires. A module the stack rejects returns *Error with
// its message; the device stays usable.
func CreateShaderModuleSPIRV(device *wgpu.Device, words []uint32) (*wgpu.ShaderModule, error) {
	if err := ready(); err != nil {
		return nil, err
	}
	if device == nil {
		return nil, errNil
	}
	if len(words) == 0 {
		return nil, errors.New("wgpuext: empty SPIR-V module")
	}
	var scope C.gd_error
	ref := C.gd_create_shader_module_spirv(C.WGPUDevice(deviceRef(device)),
		(*C.uint32_t)(unsafe.Pointer(&words[0])), C.uint32_t(len(words)), &scope)
	m := wrapShaderModule(unsafe.Pointer(ref))
	if err := scopeErr(&scope); err != nil {
		if ref != nil {
			m.Release()
		}
		return nil, err
	}
	if ref == nil {
		return nil, errors.New("wgpuext: wgpuDeviceCreateShaderModule returned NULL without an error")
	}
	return m, nil
}
