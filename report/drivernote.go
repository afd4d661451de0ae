package report

import (
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/harness"
)

// BaselineDriverNote is the summary line that says the baseline file was
// recorded (recorded: its driver identities) on other drivers than this
// run's ("" when the drivers are the same, or the baseline recorded none):
// its known failures may be fixed, and its absent ones new, because of the
// driver rather than the program.
func BaselineDriverNote(file string, recorded, now []harness.DriverRecord) string {
	ch := campaign.DriverChanges(recorded, now)
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
	ch := campaign.DriverChanges(recorded, now)
	if len(ch) == 0 {
		return ""
	}
	return fmt.Sprintf("gpudiff repro: note: the case was recorded on other drivers (%s)", strings.Join(ch, "; "))
}
