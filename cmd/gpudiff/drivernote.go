package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/harness"
)

// baselineDrivers reads the driver identities a baseline file recorded: a
// run --report JSON's "drivers", or a drivers --json report's adapters
// (driver_name, driver_version). A text baseline, or a report written
// before drivers were recorded, has none (nil).
func baselineDrivers(file string) []harness.DriverRecord {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var rep struct {
		Drivers  []harness.DriverRecord `json:"drivers"`
		Adapters json.RawMessage        `json:"adapters"`
	}
	if json.Unmarshal(data, &rep) != nil {
		return nil
	}
	if len(rep.Drivers) > 0 {
		return rep.Drivers
	}
	var adapters []struct {
		Name          string `json:"name"`
		DriverName    string `json:"driver_name"`
		DriverVersion string `json:"driver_version"`
	}
	if json.Unmarshal(rep.Adapters, &adapters) != nil {
		return nil // run's adapters are a list of names
	}
	var out []harness.DriverRecord
	for _, a := range adapters {
		if a.DriverName != "" {
			out = append(out, harness.DriverRecord{Adapter: a.Name, Driver: a.DriverName, Version: a.DriverVersion})
		}
	}
	return out
}

// baselineDriverNote is the summary line that says a baseline was recorded
// on other drivers than this run's ("" when the drivers are the same, or
// the baseline recorded none): its known failures may be fixed, and its
// absent ones new, because of the driver rather than the program.
func baselineDriverNote(file string, now []harness.DriverRecord) string {
	if file == "" {
		return ""
	}
	ch := campaign.DriverChanges(baselineDrivers(file), now)
	if len(ch) == 0 {
		return ""
	}
	return fmt.Sprintf("note: the baseline %s was recorded on other drivers (%s): new and known failures compare across a driver change", file, strings.Join(ch, "; "))
}

// caseDriverNote is the note repro prints (on stderr) when a case file was
// recorded on other drivers than the devices it replays on: a failure that
// no longer reproduces may have been fixed by the driver, not by gpudiff.
// "" when the drivers agree or the case recorded none.
func caseDriverNote(recorded []harness.DriverRecord, devs []check.Device) string {
	var now []harness.DriverRecord
	for _, d := range devs {
		now = append(now, harness.WithDriver(d.Info()).Record())
	}
	ch := campaign.DriverChanges(recorded, now)
	if len(ch) == 0 {
		return ""
	}
	return fmt.Sprintf("gpudiff repro: note: the case was recorded on other drivers (%s)", strings.Join(ch, "; "))
}
