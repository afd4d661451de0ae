package drivers

import "github.com/gpudiff/gpudiff/harness"

// DriverRecords are the driver identities of the report's adapters, as a
// baseline, a journal or a case file records them (harness.DriverRecord).
func (r *Report) DriverRecords() []harness.DriverRecord {
	var out []harness.DriverRecord
	for _, a := range r.Adapters {
		out = append(out, harness.DriverRecord{Adapter: a.Name, Driver: a.DriverName, Version: a.DriverVersion,
			Implementation: a.Implementation, ImplementationVersion: a.ImplementationVersion})
	}
	return out
}
