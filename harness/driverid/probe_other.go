//go:build !linux || !cgo

package driverid

import "errors"

var errUnsupported = errors.New("driverid: driver probes are implemented for Linux (cgo) only")

func probeVulkan() ([]Vulkan, error) { return nil, errUnsupported }

func probeGLES() (GL, error) { return GL{}, errUnsupported }
