package wgpuext

/*
#cgo linux LDFLAGS: -Wl,-undefined=wgpuAdapterGetLimits
#cgo linux LDFLAGS: -Wl,-undefined=wgpuAdapterRequestDevice
#cgo linux LDFLAGS: -Wl,-undefined=wgpuDeviceCreateShaderModule
#cgo linux LDFLAGS: -Wl,-undefined=wgpuDevicePushErrorScope
#cgo linux LDFLAGS: -Wl,-undefined=wgpuDevicePopErrorScope
#cgo linux LDFLAGS: -Wl,-undefined=wgpuBufferMapAsync
#cgo linux LDFLAGS: -Wl,-undefined=wgpuGenerateReport
#cgo linux LDFLAGS: -Wl,-undefined=wgpuSurfaceGetCurrentTexture
#include "wgpuext.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"

	// The binding links libwgpu_native.a, which defines the functions
	// wgpuext.c references weakly.
	_ "github.com/cogentcore/webgpu/wgpu"
)

// MissingSymbol returns the name of a wgpu-native function this package needs
// that the final link did not resolve, or "" when all are present.
func MissingSymbol() string {
	if s := C.gd_missing_symbol(); s != nil {
		return C.GoString(s)
	}
	return ""
}

// ready reports why this package cannot run in this process: a binding whose
// struct layout changed, or a wgpu-native function missing from the link.
var ready = sync.OnceValue(func() error {
	if err := layoutErr(); err != nil {
		return err
	}
	if s := MissingSymbol(); s != "" {
		return fmt.Errorf("wgpuext: wgpu-native function %s is not linked into this binary", s)
	}
	return nil
})

// errNil is returned for nil arguments.
var errNil = errors.New("wgpuext: nil argument")
