package main

import (
	"encoding/json"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/harness"
)

func newAdaptersCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "adapters",
		Short: "List the WebGPU adapters found on this machine, with their stable short names",
		Example: `  gpudiff adapters
  gpudiff adapters --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			infos, err := harness.Adapters()
			if err != nil {
				return &exitError{code: exitUsage, msg: "gpudiff adapters: " + err.Error()}
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(infos)
			}
			t := table.NewWriter()
			t.SetOutputMirror(cmd.OutOrStdout())
			t.SetStyle(table.StyleLight)
			t.AppendHeader(table.Row{"name", "implementation", "backend", "device", "vendor", "type"})
			for _, a := range infos {
				t.AppendRow(table.Row{a.Name, a.Implementation, a.Backend, a.Device, a.Vendor, a.Type})
			}
			t.Render()
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the adapters as a JSON array")
	return cmd
}
