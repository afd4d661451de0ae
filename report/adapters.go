package report

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"

	"github.com/gpudiff/gpudiff/harness"
)

// WriteAdapters writes gpudiff adapters' list of infos to w: a table with
// each wgpu adapter's alias (its name without "wgpu-"), its implementation
// and that implementation's version beside its driver and driver version,
// or with asJSON a JSON array (every key of harness.AdapterInfo, among
// them implementation_version).
func WriteAdapters(w io.Writer, infos []harness.AdapterInfo, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(infos)
	}
	t := table.NewWriter()
	t.SetOutputMirror(w)
	t.SetStyle(table.StyleLight)
	t.AppendHeader(table.Row{"name", "alias", "implementation", "implementation version", "backend", "device", "vendor", "type", "driver", "driver version"})
	for _, a := range infos {
		alias := ""
		if a.Implementation == "wgpu" {
			_, alias, _ = strings.Cut(a.Name, "wgpu-")
		}
		t.AppendRow(table.Row{a.Name, alias, a.Implementation, a.ImplementationVersion, a.Backend, a.Device, a.Vendor, a.Type, a.Driver, a.DriverVersion})
	}
	t.Render()
	return nil
}
