package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/report"
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
			return report.WriteAdapters(cmd.OutOrStdout(), infos, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the adapters as a JSON array")
	return cmd
}
