package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gpudiff/gpudiff/drivers"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/jstemmer/go-junit-report/v2/junit"
)

// WriteDriversJUnit writes the matrix as JUnit XML: one test suite per adapter
// ("gpudiff drivers <adapter>") and in it one test case per corpus case,
// named after the case (class name "gpudiff.drivers.<adapter>"). A case
// whose cell has a divergence outside the baseline fails, with each
// divergence's label and attribution in the failure; a cell whose
// divergences are all in the baseline is skipped ("known divergence").
func WriteDriversJUnit(w io.Writer, rep *drivers.Report) error {
	byCell := map[string][]*drivers.Divergence{}
	for _, d := range rep.Divergences {
		byCell[d.Case+"\x00"+d.Adapter] = append(byCell[d.Case+"\x00"+d.Adapter], d)
	}
	var suites junit.Testsuites
	for _, a := range rep.Adapters {
		suite := junit.Testsuite{Name: "gpudiff drivers " + a.Name, Time: "0"}
		addDriverProperties(&suite, harness.DriverRecord{Driver: a.DriverName, Version: a.DriverVersion, Info: a.DriverInfo,
			Implementation: a.Implementation, ImplementationVersion: a.ImplementationVersion})
		for _, cr := range rep.Cases {
			tc := junit.Testcase{Name: cr.Name, Classname: "gpudiff.drivers." + a.Name}
			ds := byCell[cr.Name+"\x00"+a.Name]
			var fresh, old []string
			failType := ""
			for _, d := range ds {
				l := fmt.Sprintf("%s: %s → %s", d.Label(), d.Outcome, d.Line())
				if d.Known {
					old = append(old, l)
				} else {
					fresh = append(fresh, l)
					if failType == "" {
						failType = string(d.Class)
					}
				}
			}
			switch {
			case len(fresh) > 0:
				msg := fresh[0]
				if len(fresh) > 1 {
					msg = fmt.Sprintf("%d new divergences; first: %s", len(fresh), fresh[0])
				}
				data := strings.Join(fresh, "\n")
				if cr.Rule != "" {
					data = "rule: " + cr.Rule + "\nspec: " + cr.Spec + "\n" + data
				}
				tc.Failure = &junit.Result{Message: msg, Type: failType, Data: data}
			case len(old) > 0:
				tc.Skipped = &junit.Result{Message: "known divergence: " + strings.Join(old, "; ")}
			default:
				if c := cellOf(cr, a.Name); c != nil && c.Outcome == drivers.Skipped {
					tc.Skipped = &junit.Result{Message: "not run here: " + c.Runs[0].Error}
				}
			}
			suite.AddTestcase(tc)
		}
		suites.AddSuite(suite)
	}
	return suites.WriteXML(w)
}

// cellOf is the case's cell on the named adapter, or nil.
func cellOf(cr *drivers.CaseResult, adapter string) *drivers.Cell {
	for _, c := range cr.Cells {
		if c.Adapter == adapter {
			return c
		}
	}
	return nil
}

// WriteDriversJSON writes the matrix as indented JSON and a newline (the
// Report's own fields; usable as drivers' --baseline). Errors are w's.
func WriteDriversJSON(w io.Writer, rep *drivers.Report) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// addDriverProperties adds the properties driver, driver_version,
// driver_info, implementation and implementation_version of d to a suite
// of one adapter, those that are known.
func addDriverProperties(suite *junit.Testsuite, d harness.DriverRecord) {
	for _, p := range [][2]string{{"driver", d.Driver}, {"driver_version", d.Version}, {"driver_info", d.Info},
		{"implementation", d.Implementation}, {"implementation_version", d.ImplementationVersion}} {
		if p[1] != "" {
			suite.AddProperty(p[0], p[1])
		}
	}
}
