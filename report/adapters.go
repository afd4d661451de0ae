package report

import (
	"encoding/json"
	"fmt"
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
	t.AppendHeader(table.Row{"name", "alias", "implementation", "implementation version", "backend", "device", "vendor", "type", "driver", "driver version", "f16 / subgroups"})
	for _, a := range infos {
		alias := ""
		if a.Implementation == "wgpu" {
			_, alias, _ = strings.Cut(a.Name, "wgpu-")
		}
		t.AppendRow(table.Row{a.Name, alias, a.Implementation, a.ImplementationVersion, a.Backend, a.Device, a.Vendor, a.Type, a.Driver, a.DriverVersion, extensionsCell(a)})
	}
	t.Render()
	return nil
}

// extensionsCell is what an adapter offers of WGSL's f16 and subgroups
// extensions: "f16" where its features have shader-f16 (WebGPU
// #dom-gpufeaturename-shader-f16), "subgroups N" (or "N–M") where they
// have subgroups, with its subgroup size range (GPUAdapterInfo
// subgroupMinSize, subgroupMaxSize), "-" for neither — each only where
// the stack also takes it (harness.Lacks: wgpu-native's naga 0.19 takes
// neither, though lavapipe lists shader-f16 there).
func extensionsCell(a harness.AdapterInfo) string {
	var parts []string
	takes := func(k harness.NeedKind) bool { return harness.Lacks(a, harness.Need{Kind: k}) == "" }
	if a.HasFeature(harness.FeatureShaderF16) && takes(harness.NeedF16) {
		parts = append(parts, "f16")
	}
	if a.HasFeature(harness.FeatureSubgroups) && takes(harness.NeedSubgroups) {
		s := "subgroups"
		switch {
		case a.SubgroupMinSize != 0 && a.SubgroupMinSize == a.SubgroupMaxSize:
			s += fmt.Sprintf(" %d", a.SubgroupMinSize)
		case a.SubgroupMinSize != 0:
			s += fmt.Sprintf(" %d–%d", a.SubgroupMinSize, a.SubgroupMaxSize)
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}
