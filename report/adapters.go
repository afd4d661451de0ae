package report

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"

	"github.com/gpudiff/gpudiff/harness"
)

// WriteAdapters writes gpudiff adapters' list of infos to w: a table with
// each wgpu adapter's alias (its name without "wgpu-"), or with asJSON a
// JSON array.
func WriteAdapters(w io.Writer, infos []harness.AdapterInfo, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(infos)
	}
	t := table.NewWriter()
	t.SetOutputMirror(w)
	t.SetStyle(table.StyleLight)
	t.AppendHeader(table.Row{"name", "alias", "implementation", "backend", "device", "vendor", "type", "driver", "driver version"})
	for _, a := range infos {
		alias := ""
		if a.Implementation == "wgpu" {
			_, alias, _ = strings.Cut(a.Name, "wgpu-")
		}
		t.AppendRow(table.Row{a.Name, alias, a.Implementation, a.Backend, a.Device, a.Vendor, a.Type, a.Driver, a.DriverVersion})
	}
	t.Render()
	return nil
}
