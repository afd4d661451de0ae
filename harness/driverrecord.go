package harness

import (
	"slices"
	"strings"
	"sync"
)

// DriverRecord is the driver identity of one adapter as gpudiff records it
// beside results (run's --report, the campaign journal's header, case
// files, baselines): plain data, JSON in snake_case.
type DriverRecord struct {
	Adapter     string `json:"adapter"`                       // the adapter's full name (AdapterInfo.Name)
	Driver      string `json:"driver"`                        // AdapterInfo.Driver
	Version     string `json:"driver_version"`                // AdapterInfo.DriverVersion; "" when unknown
	Info        string `json:"driver_info,omitempty"`         // AdapterInfo.DriverInfo
	Conformance string `json:"conformance_version,omitempty"` // AdapterInfo.DriverConformance (Vulkan)
	// Implementation and ImplementationVersion are the WebGPU
	// implementation that drove the adapter and its version
	// (AdapterInfo.Implementation, AdapterInfo.ImplementationVersion:
	// "wgpu", "wgpu 0.19.4 (naga 0.19.2)"): the shader compiler is half of
	// what a run tests. Absent in files written before gpudiff recorded
	// them; DriverChanges treats an absent version as unknown, not changed.
	Implementation        string `json:"implementation,omitempty"`
	ImplementationVersion string `json:"implementation_version,omitempty"`
}

// Record returns a's driver identity as a DriverRecord.
func (a AdapterInfo) Record() DriverRecord {
	return DriverRecord{Adapter: a.Name, Driver: a.Driver, Version: a.DriverVersion, Info: a.DriverInfo, Conformance: a.DriverConformance,
		Implementation: a.Implementation, ImplementationVersion: a.ImplementationVersion}
}

// Stack is the record's implementation version and driver as one phrase,
// "wgpu 0.19.4 (naga 0.19.2) on llvmpipe 22.3.6"; the driver alone
// ("llvmpipe 22.3.6") when the implementation's version is unknown (a
// record older than it), the implementation alone when the driver is.
func (r DriverRecord) Stack() string {
	drv := strings.TrimSpace(r.Driver + " " + r.Version)
	switch {
	case r.ImplementationVersion == "":
		return drv
	case drv == "":
		return r.ImplementationVersion
	}
	return r.ImplementationVersion + " on " + drv
}

// knownDrivers caches every adapter Adapters or AllAdapters listed in this
// process, by full name, for DriverRecords and Device.Info.
var knownDrivers struct {
	sync.Mutex
	byName map[string]DriverRecord
	listed bool // DriverRecords listed the adapters itself once
}

// remember records the driver identities of infos for DriverRecords.
func remember(infos []AdapterInfo) {
	rememberInfos(infos) // features.go
	knownDrivers.Lock()
	defer knownDrivers.Unlock()
	if knownDrivers.byName == nil {
		knownDrivers.byName = map[string]DriverRecord{}
	}
	for _, a := range infos {
		knownDrivers.byName[a.Name] = a.Record()
	}
}

// WithDriver returns a with its driver fields (Driver, DriverVersion,
// DriverInfo, DriverConformance) filled in from the adapters this process
// listed with Adapters or AllAdapters, listing them once if a was not among
// them (as DriverRecords does); a unchanged when no listing has it or it
// already names a driver version.
func WithDriver(a AdapterInfo) AdapterInfo { return withKnownDriver(a, true) }

// withKnownDriver is WithDriver; it lists the adapters only when list is
// set.
func withKnownDriver(a AdapterInfo, list bool) AdapterInfo {
	if a.DriverVersion != "" {
		return a
	}
	var r DriverRecord
	var ok bool
	if list {
		recs := DriverRecords([]string{a.Name})
		if ok = len(recs) == 1; ok {
			r = recs[0]
		}
	} else {
		knownDrivers.Lock()
		r, ok = knownDrivers.byName[a.Name]
		knownDrivers.Unlock()
	}
	if ok {
		a.Driver, a.DriverVersion, a.DriverInfo, a.DriverConformance = r.Driver, r.Version, r.Info, r.Conformance
		if a.ImplementationVersion == "" {
			a.ImplementationVersion = r.ImplementationVersion
		}
	}
	return a
}

// DriverRecords returns the driver identities of the adapters named (full
// names, as AdapterInfo.Name; duplicates and the interpreter's "interp" are
// skipped), sorted by adapter name, from the adapters AllAdapters listed in
// this process. When a name was never listed, it lists them itself (once per
// process: Dawn's listing starts node). A name no implementation lists
// (an adapter of another machine, a fake in tests) has no record. The
// result is empty, never nil.
func DriverRecords(names []string) []DriverRecord {
	out := []DriverRecord{}
	knownDrivers.Lock()
	missing := false
	for _, n := range names {
		if _, ok := knownDrivers.byName[n]; !ok && n != "interp" {
			missing = true
		}
	}
	relist := missing && !knownDrivers.listed
	knownDrivers.listed = knownDrivers.listed || relist
	knownDrivers.Unlock()
	if relist {
		AllAdapters() // remembers what it finds; errors leave names unrecorded
	}
	knownDrivers.Lock()
	defer knownDrivers.Unlock()
	for _, n := range names {
		if r, ok := knownDrivers.byName[n]; ok && !slices.ContainsFunc(out, func(o DriverRecord) bool { return o.Adapter == n }) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b DriverRecord) int {
		switch {
		case a.Adapter < b.Adapter:
			return -1
		case a.Adapter > b.Adapter:
			return 1
		}
		return 0
	})
	return out
}
