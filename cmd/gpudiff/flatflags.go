package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpudiff/gpudiff/ir"
)

// whitelistValue is the --whitelist flag: the builtins flatten keeps as
// leaves (flatten.Options.Whitelist). Unset, it is nil and flatten takes
// flatten.DefaultWhitelist(); given, it is the exact list (an empty value
// allows no builtin). Every name must be a builtin the IR knows (WGSL
// "Built-in Functions"): an unknown name is a usage error, not a silently
// ignored entry.
type whitelistValue struct {
	names []string
	set   bool
}

func (w *whitelistValue) String() string { return strings.Join(w.names, ",") }
func (w *whitelistValue) Type() string   { return "builtins" }

func (w *whitelistValue) Set(s string) error {
	names := []string{}
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if _, ok := ir.LookupBuiltin(n); !ok {
			return fmt.Errorf("--whitelist: %q is not a WGSL builtin gpudiff knows", n)
		}
		names = append(names, n)
	}
	w.names, w.set = names, true
	return nil
}

// Whitelist is the flag's value for flatten.Options.Whitelist: nil when
// the flag was not given.
func (w *whitelistValue) Whitelist() []string {
	if !w.set {
		return nil
	}
	return w.names
}

// addFlattenFlags registers the flags that change how every subcommand
// flattens (exec, run, drivers, repro, export-amber and flatten itself).
// Its value is g.whitelist.
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
