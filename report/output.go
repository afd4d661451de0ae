package report

import (
	"bytes"
	"fmt"
	"io"

	"github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/drivers"
)

// Output is one file a command writes: its flag, its path ("" none) and
// what renders it.
type Output struct {
	Flag, Path string
	Render     func(io.Writer) error
}

// WriteOutputs renders each output given into its file atomically
// (testcase.WriteFileAtomic: a render or write failure leaves no partial
// file behind), stopping at the first failure; its error names the
// output's flag ("--json: …").
func WriteOutputs(outs ...Output) error {
	for _, o := range outs {
		if o.Path == "" {
			continue
		}
		var b bytes.Buffer
		err := o.Render(&b)
		if err == nil {
			err = testcase.WriteFileAtomic(o.Path, b.Bytes())
		}
		if err != nil {
			return fmt.Errorf("--%s: %v", o.Flag, err)
		}
	}
	return nil
}

// CampaignOutputs are the --report, --junit and --html files campaign c
// names, run as ran with summary sum.
func CampaignOutputs(c campaign.Spec, ran CampaignRun, sum *campaign.Summary) []Output {
	return []Output{
		{"report", c.Report, func(w io.Writer) error { return WriteCampaignJSON(w, c, ran, sum) }},
		{"junit", c.JUnit, func(w io.Writer) error { return WriteCampaignJUnit(w, c, ran, sum) }},
		{"html", c.HTML, func(w io.Writer) error { return WriteCampaignHTML(w, c, ran, sum) }},
	}
}

// DriversOutputs are the driver matrix rep's --json, --html and --junit
// files at those paths ("" none).
func DriversOutputs(rep *drivers.Report, json, html, junit string) []Output {
	return []Output{
		{"json", json, func(w io.Writer) error { return WriteDriversJSON(w, rep) }},
		{"html", html, func(w io.Writer) error { return WriteDriversHTML(w, rep) }},
		{"junit", junit, func(w io.Writer) error { return WriteDriversJUnit(w, rep) }},
	}
}
