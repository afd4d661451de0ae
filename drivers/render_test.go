package drivers_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/drivers"
	"github.com/gpudiff/gpudiff/report"
)

// The matrix's renderers live in report/; they are checked here, where the
// real matrix is built (drivers.ConformanceReport), and on a baselined row.

// TestConformanceReports renders the real matrix in every format
// (report.WriteDrivers*) and checks each against the report it came from.
func TestConformanceReports(t *testing.T) {
	rep := drivers.ConformanceReport(t)

	var txt bytes.Buffer
	report.WriteDriversText(&txt, rep, report.DriversTextOptions{})
	out := txt.String()
	for _, a := range rep.Adapters {
		impl, dev, _ := strings.Cut(a.Name, ":")
		assert.Regexp(t, impl+` +│[^\n]*\n│ +│[^\n]*`+dev, out, "two-line header of %s", a.Name)
	}
	assert.Regexp(t, `div_by_zero_i32 +│ differs +│`, out)
	assert.Regexp(t, `\n│ +│ \(wgsl, spirv\) +│`, out, "a long cell breaks before its runs")
	assert.Contains(t, out, "divergences per rule")
	assert.Contains(t, out, `spec: WGSL #arithmetic-expr (Arithmetic Expressions), "If e2 is zero ... Otherwise, e1."`)
	assert.Contains(t, out, "minimal repro: invocation 0 (a = 7, b = 0), reference 7")
	assert.Contains(t, out, fmt.Sprintf("%d divergences", len(rep.Divergences)))

	var h bytes.Buffer
	require.NoError(t, report.WriteDriversHTML(&h, rep))
	page := h.String()
	assert.True(t, strings.HasPrefix(page, "<!DOCTYPE html>"))
	for _, bad := range []string{"<script", "<link", "http://", "https://"} {
		assert.NotContains(t, page, bad, "self-contained")
	}
	assert.Equal(t, strings.Count(page, "src="), strings.Count(page, `<img src="data:image/png;base64,`),
		"self-contained: every picture a data: URI")
	assert.Contains(t, page, `<img src="data:image/png;base64,`, "the divergences' pictures")
	for _, cr := range rep.Cases {
		assert.Contains(t, page, `id="case-`+cr.Name+`"`)
		for _, c := range cr.Cells {
			assert.Contains(t, page, `href="#`+cellID(cr.Name, c.Adapter)+`"`, "every cell links to its case")
			assert.Contains(t, page, `id="`+cellID(cr.Name, c.Adapter)+`"`)
		}
	}
	assert.Contains(t, page, "fn div_by_zero_i32(a: i32, b: i32) -&gt; i32", "the source, escaped")
	assert.Equal(t, len(rep.Divergences), strings.Count(page, `<div class="div"><a href=`), "every divergence listed once")

	var j bytes.Buffer
	require.NoError(t, report.WriteDriversJUnit(&j, rep))
	var suites struct {
		Suites []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(j.Bytes(), &suites))
	require.Len(t, suites.Suites, len(rep.Adapters))
	failing := map[string]bool{}
	for _, d := range rep.Divergences {
		failing[d.Adapter+" "+d.Case] = true
	}
	for k, s := range suites.Suites {
		a := rep.Adapters[k].Name
		assert.Equal(t, len(rep.Cases), s.Tests)
		for _, c := range s.Cases {
			assert.Equal(t, failing[a+" "+c.Name], c.Failure != nil, "%s on %s", c.Name, a)
		}
	}
}

// cellID is the HTML id of a cell's details (report's idSafe is the
// identity on these names: letters, digits, '-', '_' and ':' → '_').
func cellID(caseName, adapter string) string {
	return "cell-" + caseName + "-" + strings.NewReplacer(":", "_", "#", "_", ".", "_").Replace(adapter)
}

func TestBaselinedText(t *testing.T) {
	rep := drivers.BaselinedRow(t)
	var b bytes.Buffer
	report.WriteDriversText(&b, rep, report.DriversTextOptions{})
	assert.Contains(t, b.String(), "new divergence: k on wgpu-vulkan:llvmpipe (wgsl)\n")
	assert.Contains(t, b.String(), "no longer diverges (in baseline): gone/wgpu-gl:llvmpipe/original/wgsl\n")
	assert.Contains(t, b.String(), "(1 new, 1 in baseline known.txt)")
}
