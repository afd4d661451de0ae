package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpudiff/gpudiff/harness"
)

// driverChanges lists, one phrase each, the adapters whose driver or
// driver version differs between before and now (records of
// harness.DriverRecords, by adapter), e.g. "wgpu-vulkan:llvmpipe: llvmpipe
// 22.3.6 → llvmpipe 23.0.1". Adapters in only one of the lists are not
// changes (the adapter lists are compared elsewhere); nil when none.
func driverChanges(before, now []harness.DriverRecord) []string {
	old := map[string]harness.DriverRecord{}
	for _, d := range before {
		old[d.Adapter] = d
	}
	var out []string
	for _, d := range now {
		o, ok := old[d.Adapter]
		if !ok || o.Driver == d.Driver && o.Version == d.Version {
			continue
		}
		out = append(out, fmt.Sprintf("%s: %s %s → %s %s", d.Adapter, o.Driver, o.Version, d.Driver, d.Version))
	}
	return out
}

// noteDriverChange warns on w when a resumed campaign's drivers are not
// those its journal recorded: its records then mix two driver versions.
func noteDriverChange(w io.Writer, journaled, now []harness.DriverRecord) {
	if ch := driverChanges(journaled, now); len(ch) > 0 {
		fmt.Fprintf(w, "gpudiff run: note: the drivers changed since the campaign began (%s): its results mix both versions\n", strings.Join(ch, "; "))
	}
}
