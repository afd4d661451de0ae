package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/report"
)

// Exit codes of repro (README "gpudiff repro").
const (
	reproFixed     = 0 // the recorded failure no longer occurs: every run agrees
	reproStill     = 1 // the recorded failure (same class on the same kind of path) reproduces
	reproDifferent = 4 // something fails, but not as recorded
)

func newReproCmd(g *globalFlags) *cobra.Command {
	var (
		adapters []string
		asJSON   bool
		timeout  time.Duration
	)
	cmd := &cobra.Command{
		Use:   "repro CASE.wgsl",
		Short: "Replay a saved case and report whether its recorded failure still reproduces",
		Long: `repro re-runs a case file (as saved by 'gpudiff run') with the recorded kernel,
inputs, emission mode, flattening and SPIR-V choice, on the selected adapters
(default: the first Vulkan adapter), and compares the outcome with the recorded
findings.

Exit codes:
  0  the recorded failure no longer reproduces (every run agrees)
  1  it reproduces: a finding of the recorded class occurs again
  4  something fails, but differently from the record
  2  the case file is unreadable or invalid (file:line:col: …)`,
		Example: `  gpudiff repro findings/lavapipe_loop_exit_wrap.wgsl
  gpudiff repro shaders/regress/value_array_index.wgsl --adapter all --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFlags("repro", nil, positiveDuration("timeout", timeout)); err != nil {
				return err
			}
			return runRepro(cmd.Context(), g, args[0], adapters, timeout, asJSON, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringArrayVar(&adapters, "adapter", nil, "adapter(s) to replay on: short name, prefix, or all (default: the first Vulkan adapter)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print exec's JSON object for the replay")
	cmd.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "per-dispatch time limit")
	return cmd
}

func runRepro(ctx context.Context, g *globalFlags, path string, sels []string, timeout time.Duration, asJSON bool, stdout, stderr io.Writer) error {
	src, err := g.readSource(path)
	if err != nil {
		return err
	}
	c, ec, rec, err := check.ParseCaseFile(path, src)
	if err != nil {
		return inputErr(err)
	}
	mode, err := wgsl.ParseMode(rec.Mode)
	if err != nil {
		return usagef("%s: case record: %v", path, err)
	}
	devs, closeAll, err := openDevices(sels, timeout, stderr)
	if err != nil {
		return usagef("gpudiff repro: %v", err)
	}
	defer closeAll()
	if note := caseDriverNote(rec.Drivers, devs); note != "" {
		fmt.Fprintln(stderr, note)
	}
	if ec != nil {
		return reproEntry(ctx, ec, rec, check.Options{Devices: devs, Flat: rec.Flat, SPIRV: rec.SPIRV, Mode: mode, Fill: check.Fill(rec.Fill), Interp: g.interpOptions(), Flatten: g.flattenOptions()}, asJSON, stdout)
	}
	if err := g.checkKernelLimits(c.Module, c.Module.Func(c.Kernel), len(c.Args)); err != nil {
		return err
	}
	opts := check.Options{Devices: devs, Flat: rec.Flat, SPIRV: rec.SPIRV, Stages: rec.Stages, Mode: mode, Fill: check.Fill(rec.Fill), Interp: g.interpOptions(), Flatten: g.flattenOptions()}
	res, err := check.Execute(ctx, c, opts)
	if err != nil {
		return inputErr(err)
	}
	out := check.JudgeReplay(rec, check.ReplayFindings(res, rec))
	f := c.Module.Func(c.Kernel)
	if asJSON {
		if err := report.WriteExecJSON(stdout, f, c.Args, res, &out); err != nil {
			return err
		}
	} else {
		report.WriteExecTable(stdout, f, c.Args, res, report.ExecOptions{Color: colorOut(stdout)})
		fmt.Fprintln(stdout, out.Message)
	}
	switch out.Outcome {
	case check.ReplayFixed:
		return nil
	case check.ReplayReproduces:
		return &exitError{code: reproStill}
	}
	return &exitError{code: reproDifferent}
}

// reproEntry replays a compute entry point's case: its dispatch with the
// recorded bindings and workgroups (check.ExecuteEntry), judged against
// the record as a function kernel's replay is.
func reproEntry(ctx context.Context, ec *check.EntryCase, rec *check.CaseRecord, opts check.Options, asJSON bool, stdout io.Writer) error {
	res, err := check.ExecuteEntry(ctx, ec, opts)
	if err != nil {
		return inputErr(err)
	}
	r := res.AsResult(ec.Entry)
	if res.Domain != "" {
		r.ReferenceErr = []string{res.Domain} // the loop, for the out-of-domain finding
	}
	out := check.JudgeReplay(rec, check.ReplayFindings(r, rec))
	if asJSON {
		if err := report.WriteDispatchJSON(stdout, ec, res); err != nil {
			return err
		}
	} else {
		report.WriteDispatchTable(stdout, ec, res, report.ExecOptions{Color: colorOut(stdout)})
		fmt.Fprintln(stdout, out.Message)
	}
	switch out.Outcome {
	case check.ReplayFixed:
		return nil
	case check.ReplayReproduces:
		return &exitError{code: reproStill}
	}
	return &exitError{code: reproDifferent}
}
