package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/shrink"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// limits bounds what one input may cost, so a hostile or mistaken input
// gets a clear error (exit 2) instead of exhausting the machine. Every
// limit has a documented default and a flag to override it (README
// "Limits").
type limits struct {
	SourceBytes int64 // bytes of a WGSL, case or --inputs file
	Statements  int   // statements in the kernel's call graph
	Invocations int   // invocations per kernel run
	Steps       int64 // interpreter steps per invocation
	Unroll      int   // flatten: total loop-body copies
	BufferBytes int64 // bytes of one input or output storage buffer
}

var defaultLimits = limits{
	SourceBytes: 4 << 20,
	Statements:  100_000,
	Invocations: 1 << 20,
	Steps:       interp.DefaultMaxSteps,
	Unroll:      flatten.DefaultMaxUnroll,
	BufferBytes: 64 << 20,
}

// globalFlags are the values of the persistent flags every subcommand
// shares: the limits and --whitelist. newRoot creates one per command
// line and each subcommand captures it; a campaign resumed from its
// journal sets them from the journal's header.
type globalFlags struct {
	lim       limits
	whitelist whitelistValue
	overrides overrideValue
	strict    bool // --strict (addStrictFlag)
}

// addLimitFlags registers the limit flags on root, bound to g.lim.
func (g *globalFlags) addLimitFlags(root *cobra.Command) {
	lim := &g.lim
	f := root.PersistentFlags()
	f.Int64Var(&lim.SourceBytes, "max-source-bytes", defaultLimits.SourceBytes, "limit: bytes of a WGSL, case or --inputs file")
	f.IntVar(&lim.Statements, "max-statements", defaultLimits.Statements, "limit: statements in the kernel's call graph")
	f.IntVar(&lim.Invocations, "max-invocations", defaultLimits.Invocations, "limit: invocations per kernel run")
	f.Int64Var(&lim.Steps, "max-steps", defaultLimits.Steps, "limit: interpreter steps (statements and loop iterations) per invocation")
	f.IntVar(&lim.Unroll, "max-unroll-copies", defaultLimits.Unroll, "limit: loop-body copies flatten may create (nesting multiplies)")
	f.Int64Var(&lim.BufferBytes, "max-buffer-bytes", defaultLimits.BufferBytes, "limit: bytes of one input or output storage buffer")
}

// checkSourceSize checks n bytes of the source file path against the
// source-size limit.
func (g *globalFlags) checkSourceSize(path string, n int64) error {
	if n > g.lim.SourceBytes {
		return usagef("%s: %d bytes exceeds the source limit of %d bytes (raise it with --max-source-bytes)", path, n, g.lim.SourceBytes)
	}
	return nil
}

// readSource reads a source file (WGSL, case or --inputs JSON) within
// the source-size limit.
func (g *globalFlags) readSource(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, usagef("gpudiff: %v", err)
	}
	if err := g.checkSourceSize(path, st.Size()); err != nil {
		return nil, err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("gpudiff: %v", err)
	}
	return src, nil
}

// checkKernelLimits checks the statement limit of kernel f in m and the
// invocation and buffer limits of running it n times.
func (g *globalFlags) checkKernelLimits(m *ir.Module, f *ir.Func, n int) error {
	lim := &g.lim
	if s := shrink.Stmts(m, f.Name); s > lim.Statements {
		return usagef("%s:%d:%d: kernel %s has %d statements in its call graph, over the limit of %d (raise it with --max-statements)",
			m.File, f.Pos.Line, f.Pos.Col, f.Name, s, lim.Statements)
	}
	if n > lim.Invocations {
		return usagef("gpudiff: %d invocations exceed the limit of %d (raise it with --max-invocations)", n, lim.Invocations)
	}
	abi, err := ir.NewKernelABI(m, f.Name)
	if err != nil {
		return inputErr(err)
	}
	for _, b := range []struct {
		what   string
		stride int
	}{{"input", abi.InputStride}, {"output", abi.OutputStride}} {
		if size := int64(n) * int64(b.stride); size > lim.BufferBytes {
			return usagef("gpudiff: the %s buffer needs %d bytes (%d invocations × %d), over the limit of %d (raise it with --max-buffer-bytes)",
				b.what, size, n, b.stride, lim.BufferBytes)
		}
	}
	return nil
}

// interpOptions and flattenOptions carry the limits, --whitelist and
// --strict into the passes.
func (g *globalFlags) interpOptions() interp.Options { return interp.Options{MaxSteps: g.lim.Steps} }
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
