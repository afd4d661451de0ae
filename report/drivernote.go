package report

import (
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/harness"
)

// DriverChanges lists, one phrase each, the adapters whose driver or
// driver version differs between before and now (records of
// harness.DriverRecords, by adapter), e.g. "wgpu-vulkan:llvmpipe: llvmpipe
// 22.3.6 → llvmpipe 23.0.1". Adapters in only one of the lists are not
// changes (the adapter lists are compared elsewhere); nil when none.
func DriverChanges(before, now []harness.DriverRecord) []string {
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

// ResumeDriverNote is the warning of a resumed campaign whose drivers are
// not those its journal recorded (its records then mix two driver
// versions); "" when they are.
func ResumeDriverNote(journaled, now []harness.DriverRecord) string {
	ch := DriverChanges(journaled, now)
	if len(ch) == 0 {
		return ""
	}
	return fmt.Sprintf("gpudiff run: note: the drivers changed since the campaign began (%s): the programs checked from now on run on the new ones", strings.Join(ch, "; "))
}

// BaselineDriverNote is the summary line that says the baseline file was
// recorded (recorded: its driver identities) on other drivers than this
// run's ("" when the drivers are the same, or the baseline recorded none):
// its known failures may be fixed, and its absent ones new, because of the
// driver rather than the program.
func BaselineDriverNote(file string, recorded, now []harness.DriverRecord) string {
	ch := DriverChanges(recorded, now)
	if len(ch) == 0 {
		return ""
	}
	return fmt.Sprintf("note: the baseline %s was recorded on other drivers (%s): new and known failures compare across a driver change", file, strings.Join(ch, "; "))
}

// CaseDriverNote is the note repro prints when a case file was recorded on
// other drivers than the adapters it replays on: a failure that no longer
// reproduces may have been fixed by the driver, not by gpudiff. "" when the
// drivers agree or the case recorded none.
func CaseDriverNote(recorded, now []harness.DriverRecord) string {
	ch := DriverChanges(recorded, now)
	if len(ch) == 0 {
		return ""
	}
	return fmt.Sprintf("gpudiff repro: note: the case was recorded on other drivers (%s)", strings.Join(ch, "; "))
}
