package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// addOverrideFlags registers --override NAME=VALUE (repeatable;
// wgsl.OverrideFlag) on root, bound to g.overrides: every subcommand that
// reads a WGSL file (exec, emit, flatten, export-amber) parses it with
// these constants.
func (g *globalFlags) addOverrideFlags(root *cobra.Command) {
	root.PersistentFlags().AddFlag(&pflag.Flag{
		Name:  "override",
		Usage: "pipeline-overridable constant NAME=VALUE (an override's name or @id; repeatable): the value replaces the override's default (WebGPU GPUProgrammableStage.constants)",
		Value: &g.overrides,
	})
}
