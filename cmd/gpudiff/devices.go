package main

import (
	"io"
	"time"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/harness/devices"
)

// openDevices opens the adapters that sels select (harness/devices.Open:
// none selects the first Vulkan adapter; wgpu adapters in worker
// processes) with timeout per dispatch, warnings and wgpu's log to warn,
// and returns them as the campaign's devices with a function closing them.
func openDevices(sels []string, timeout time.Duration, warn io.Writer) ([]check.Device, func(), error) {
	set, err := devices.Open(sels, devices.Options{Timeout: timeout, Warn: warn})
	if err != nil {
		return nil, nil, err
	}
	devs := make([]check.Device, len(set))
	for i, d := range set {
		devs[i] = d
	}
	return devs, set.Close, nil
}
