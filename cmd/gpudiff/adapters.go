package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/harness"
)

func newAdaptersCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "adapters",
		Short:   "List the WebGPU adapters found on this machine, with their stable names",
		Long:    helpText("adapters"),
		Example: helpText("adapters.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			infos, err := harness.AllAdapters()
			if len(infos) == 0 {
				return &exitError{code: exitUsage, msg: "gpudiff adapters: " + err.Error()}
			}
			if err != nil {
				// An implementation that cannot run here (e.g. Dawn without
				// its npm package): say why, list the others.
				fmt.Fprintf(cmd.ErrOrStderr(), "gpudiff adapters: note: %v\n", err)
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(infos)
			}
			t := table.NewWriter()
			t.SetOutputMirror(cmd.OutOrStdout())
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
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the adapters as a JSON array")
	return cmd
}
