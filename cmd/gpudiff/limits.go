package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
)

// globalFlags are the values of the persistent flags every subcommand
// shares: the limits and --whitelist. newRoot creates one per command
// line and each subcommand captures it; a campaign resumed from its
// journal sets them from the journal's header.
type globalFlags struct {
	lim       check.Limits
	whitelist flatten.WhitelistFlag
	overrides wgsl.OverrideFlag
	strict    bool // --strict (addStrictFlag)
}

// addLimitFlags registers the limit flags on root, bound to g.lim.
func (g *globalFlags) addLimitFlags(root *cobra.Command) {
	lim := &g.lim
	f := root.PersistentFlags()
	f.Int64Var(&lim.SourceBytes, "max-source-bytes", check.DefaultLimits.SourceBytes, "limit: bytes of a WGSL, case or --inputs file")
	f.IntVar(&lim.Statements, "max-statements", check.DefaultLimits.Statements, "limit: statements in the kernel's call graph")
	f.IntVar(&lim.Invocations, "max-invocations", check.DefaultLimits.Invocations, "limit: invocations per kernel run")
	f.Int64Var(&lim.Steps, "max-steps", check.DefaultLimits.Steps, "limit: interpreter steps (statements and loop iterations) per invocation")
	f.IntVar(&lim.Unroll, "max-unroll-copies", check.DefaultLimits.Unroll, "limit: loop-body copies flatten may create (nesting multiplies)")
	f.Int64Var(&lim.BufferBytes, "max-buffer-bytes", check.DefaultLimits.BufferBytes, "limit: bytes of one input or output storage buffer")
}

// interpOptions and flattenOptions carry the limits, --whitelist and
// --strict into the passes.
func (g *globalFlags) interpOptions() interp.Options { return g.lim.Interp() }
func (g *globalFlags) flattenOptions() flatten.Options {
	return flatten.Options{MaxUnroll: g.lim.Unroll, Whitelist: g.whitelist.Whitelist(), Strict: g.strict}
}

// checkLimitFlags refuses a limit that is zero or negative (exit 2 naming
// its flag): no limit flag has a "no limit" spelling, and 0 must not
// silently mean the default or nothing at all.
func (g *globalFlags) checkLimitFlags() error {
	lim := &g.lim
	return checkFlags("", nil,
		intAtLeast("max-source-bytes", lim.SourceBytes, 1), intAtLeast("max-statements", int64(lim.Statements), 1),
		intAtLeast("max-invocations", int64(lim.Invocations), 1), intAtLeast("max-steps", lim.Steps, 1),
		intAtLeast("max-unroll-copies", int64(lim.Unroll), 1), intAtLeast("max-buffer-bytes", lim.BufferBytes, 1))
}

// flagCheck is one numeric flag's check: problem says why its value
// cannot mean what it says ("" when it can).
type flagCheck struct{ flag, problem string }

// intAtLeast checks that --flag's value v is at least min.
func intAtLeast(flag string, v, min int64) flagCheck {
	if v < min {
		return flagCheck{flag, fmt.Sprintf("--%s must be at least %d, got %d", flag, min, v)}
	}
	return flagCheck{flag: flag}
}

// positiveDuration checks that --flag's duration d is positive: no
// duration flag has a "no limit" spelling.
func positiveDuration(flag string, d time.Duration) flagCheck {
	if d <= 0 {
		return flagCheck{flag, fmt.Sprintf("--%s must be a positive duration such as 30s or 5m, got %v", flag, d)}
	}
	return flagCheck{flag: flag}
}

// checkFlags returns the first failed check of a flag given on the
// command line (changed; nil: every check counts, for flags whose
// defaults pass) as a usage error of the subcommand cmd ("" for the
// limit flags every subcommand shares).
func checkFlags(cmd string, changed map[string]bool, checks ...flagCheck) error {
	for _, c := range checks {
		if c.problem != "" && (changed == nil || changed[c.flag]) {
			if cmd == "" {
				return usagef("gpudiff: %s", c.problem)
			}
			return usagef("gpudiff %s: %s", cmd, c.problem)
		}
	}
	return nil
}

// changedFlags returns the names of cmd's flags given on the command line.
func changedFlags(cmd *cobra.Command) map[string]bool {
	changed := map[string]bool{}
	cmd.Flags().Visit(func(f *pflag.Flag) { changed[f.Name] = true })
	return changed
}
