package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/report"
)

func newReproCmd(g *globalFlags) *cobra.Command {
	var (
		adapters []string
		asJSON   bool
		timeout  time.Duration
	)
	cmd := &cobra.Command{
		Use:     "repro CASE.wgsl",
		Short:   "Replay a saved case and report whether its recorded failure still reproduces",
		Long:    helpText("repro"),
		Example: helpText("repro.example"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFlags("repro", nil, check.Positive("timeout", timeout)); err != nil {
				return err
			}
			return runRepro(cmd.Context(), g, args[0], adapters, timeout, asJSON, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringArrayVar(&adapters, "adapter", nil, "adapter(s) to replay on: short name, prefix, or all (default: the first Vulkan adapter)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print exec's JSON object for the replay")
	cmd.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "per-dispatch time limit")
	g.addStrictFlag(cmd.Flags())
	return cmd
}

func runRepro(ctx context.Context, g *globalFlags, path string, sels []string, timeout time.Duration, asJSON bool, stdout, stderr io.Writer) error {
	c, err := check.LoadReplay(path, g.moduleOptions())
	if err != nil {
		return inputErr(err)
	}
	rec := c.Record
	devs, closeAll, err := openDevicesJobs(sels, timeout, 1, c.Module.UsesSubgroups(c.Func.Name), stderr)
	if err != nil {
		return usagef("gpudiff repro: %v", err)
	}
	defer closeAll()
	if note := report.CaseDriverNote(rec.Drivers, check.DeviceDrivers(devs)); note != "" {
		fmt.Fprintln(stderr, note)
	}
	if c.Kind == testcase.KindKernel {
		if err := g.lim.CheckKernel(c.Module, c.Func, len(c.Args)); err != nil {
			return inputErr(err)
		}
	}
	x, err := check.Execute(ctx, c, check.CaseOptions(c, check.Options{Devices: devs, Interp: g.interpOptions(), Flatten: g.flattenOptions()}))
	if err != nil {
		return inputErr(err)
	}
	out := x.Replay(rec)
	if err := report.WriteReplay(stdout, x, out, asJSON, report.ExecOptions{Color: colorOn(stdout)}); err != nil {
		return err
	}
	if code := exitOfReplay[out.Outcome]; code != exitOK {
		return &exitError{code: code}
	}
	return nil
}
