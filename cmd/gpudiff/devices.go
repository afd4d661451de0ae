package main

import (
	"io"
	"time"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/harness/devices"
)

// openDevicesJobs opens the adapters that sels select (harness/devices.Open:
// none selects the first Vulkan adapter; wgpu adapters in worker processes)
// with timeout per dispatch, jobs devices (worker processes) per adapter,
// each adapter's as one pool (devices.Options.Jobs; devices.AutoJobs:
// DefaultJobs), warnings and wgpu's log to warn, and returns them as
// check's devices with a function closing them. It is cmd's one way to
// open adapters (exec, view, repro, drivers, run). With variants it also
// opens the selected adapters' variants (harness.Variants: lavapipe at
// other subgroup sizes), for cases that use subgroup operations: check
// runs only those on a variant.
func openDevicesJobs(sels []string, timeout time.Duration, jobs int, variants bool, warn io.Writer) ([]check.Device, func(), error) {
	set, err := devices.Open(sels, devices.Options{Timeout: timeout, Warn: warn, Jobs: jobs, Variants: variants})
	if err != nil {
		return nil, nil, err
	}
	devs := make([]check.Device, len(set))
	for i, d := range set {
		devs[i] = d
	}
	return devs, set.Close, nil
}
