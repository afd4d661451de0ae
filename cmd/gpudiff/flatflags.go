package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// addFlattenFlags registers the flags that change how every subcommand
// flattens (exec, run, drivers, repro, export-amber and flatten itself).
// Its value is g.whitelist (flatten.WhitelistFlag).
func (g *globalFlags) addFlattenFlags(root *cobra.Command) {
	root.PersistentFlags().AddFlag(&pflag.Flag{
		Name:  "whitelist",
		Usage: "comma-separated builtin names flatten keeps as leaves (default: the pure math, bit and logic builtins of the subset; an empty list allows none)",
		Value: &g.whitelist,
	})
}

// addStrictFlag registers --strict on f, the flag set of a subcommand that
// builds a twin (exec, view, emit, flatten, repro, export-amber, drivers,
// run): flatten's residual check (flatten.Options.Strict, a campaign's
// Spec.Strict), the same meaning on every subcommand.
func (g *globalFlags) addStrictFlag(f *pflag.FlagSet) {
	f.BoolVar(&g.strict, "strict", false, "fail on residuals the folds should have removed (constant-condition select, unfolded identity, all-constant call, !const)")
}
