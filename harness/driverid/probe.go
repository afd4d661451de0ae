//go:build linux && cgo

package driverid

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "probe.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

func probeVulkan() ([]Vulkan, error) {
	const max = 64
	devs := (*[max]C.gpudiff_vk_device)(C.calloc(max, C.size_t(unsafe.Sizeof(C.gpudiff_vk_device{}))))
	defer C.free(unsafe.Pointer(devs))
	var errBuf [256]C.char
	n := int(C.gpudiff_probe_vulkan(&devs[0], max, &errBuf[0], C.int(len(errBuf))))
	if n < 0 {
		return nil, errors.New("driverid: vulkan: " + C.GoString(&errBuf[0]))
	}
	out := make([]Vulkan, n)
	for i := range out {
		d := &devs[i]
		out[i] = Vulkan{
			DeviceName:    C.GoString(&d.device_name[0]),
			VendorID:      uint32(d.vendor_id),
			DeviceID:      uint32(d.device_id),
			APIVersion:    uint32(d.api_version),
			DriverVersion: uint32(d.driver_version),
			DriverID:      int32(d.driver_id),
			DriverName:    C.GoString(&d.driver_name[0]),
			DriverInfo:    C.GoString(&d.driver_info[0]),
		}
		if c := d.conformance; c != [4]C.uint8_t{} {
			out[i].Conformance = fmt.Sprintf("%d.%d.%d.%d", c[0], c[1], c[2], c[3])
		}
	}
	return out, nil
}

func probeGLES() (GL, error) {
	var info C.gpudiff_gl_info
	var errBuf [256]C.char
	if C.gpudiff_probe_gles(&info, &errBuf[0], C.int(len(errBuf))) != 0 {
		return GL{}, errors.New("driverid: gles: " + C.GoString(&errBuf[0]))
	}
	return GL{
		Version:  C.GoString(&info.version[0]),
		Renderer: C.GoString(&info.renderer[0]),
		Vendor:   C.GoString(&info.vendor[0]),
	}, nil
}
