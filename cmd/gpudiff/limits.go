package main

import (
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
	// subgroupSize is --subgroup-size: the size of the linear partition
	// the reference uses where no device observed one.
	subgroupSize int
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
	f.IntVar(&lim.UnrollNodes, "max-unroll-nodes", check.DefaultLimits.UnrollNodes, "limit: IR nodes flatten's unrolling may add to a twin; with --loops auto, loops past it stay loops of the twin (the one that adds the most first)")
	f.Int64Var(&lim.BufferBytes, "max-buffer-bytes", check.DefaultLimits.BufferBytes, "limit: bytes of one input or output storage buffer")
	f.IntVar(&g.subgroupSize, "subgroup-size", interp.DefaultSubgroupSize, "the reference's subgroup size (a power of two in [4, 128]; subgroup k of a workgroup is local invocations k·N to k·N+N-1) for a shader with subgroup operations; a device's run is judged under the partition it observed instead")
}

// interpOptions and flattenOptions carry the limits, --whitelist and
// --strict into the passes.
func (g *globalFlags) interpOptions() interp.Options {
	o := g.lim.Interp()
	o.SubgroupSize = g.subgroupSize
	return o
}
func (g *globalFlags) flattenOptions() flatten.Options {
	return flatten.Options{MaxUnroll: g.lim.Unroll, MaxUnrollNodes: g.lim.UnrollNodes, Whitelist: g.whitelist.Whitelist(), Strict: g.strict}
}

// checkLimitFlags refuses a limit that is zero or negative (exit 2 naming
// its flag: check.Limits.Check).
func (g *globalFlags) checkLimitFlags() error {
	if err := g.lim.Check(); err != nil {
		return usagef("gpudiff: %v", err)
	}
	if s := g.subgroupSize; s < 4 || s > 128 || s&(s-1) != 0 {
		return usagef("gpudiff: --subgroup-size %d: a subgroup size is a power of two in [4, 128] (WGSL #subgroups)", s)
	}
	return nil
}

// checkFlags returns the first failed check of a flag given on the
// command line (check.FirstProblem; changed nil: every check counts) as a
// usage error of the subcommand cmd.
func checkFlags(cmd string, changed map[string]bool, checks ...check.FlagCheck) error {
	if err := check.FirstProblem(changed, checks...); err != nil {
		return usagef("gpudiff %s: %v", cmd, err)
	}
	return nil
}

// changedFlags returns the names of cmd's flags given on the command line.
func changedFlags(cmd *cobra.Command) map[string]bool {
	changed := map[string]bool{}
	cmd.Flags().Visit(func(f *pflag.Flag) { changed[f.Name] = true })
	return changed
}
