package main

import (
	"encoding/json"
	"os"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/report"
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

// baselineDriverNote is report.BaselineDriverNote for the baseline file
// ("" when there is none).
func baselineDriverNote(file string, now []harness.DriverRecord) string {
	if file == "" {
		return ""
	}
	return report.BaselineDriverNote(file, baselineDrivers(file), now)
}

// caseDriverNote is report.CaseDriverNote for the devices a case replays on.
func caseDriverNote(recorded []harness.DriverRecord, devs []check.Device) string {
	var now []harness.DriverRecord
	for _, d := range devs {
		now = append(now, harness.WithDriver(d.Info()).Record())
	}
	return report.CaseDriverNote(recorded, now)
}
