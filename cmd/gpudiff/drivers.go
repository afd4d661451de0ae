package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/drivers"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/report"
)

type driversFlags struct {
	drivers.Settings // what to run and how (Validate checks them)
	adapters         []string
	html, json       string
	junit            string
	noTwin, noSPIRV  bool
}

func newDriversCmd(g *globalFlags) *cobra.Command {
	var fl driversFlags
	cmd := &cobra.Command{
		Use:     "drivers",
		Short:   "Run a corpus on every adapter and print the driver matrix: who disagrees with WGSL, with whom, on which rule",
		Long:    helpText("drivers"),
		Example: helpText("drivers.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fl.Given, fl.MaxInvocations = changedFlags(cmd), g.lim.Invocations
			return runDrivers(cmd.Context(), g, fl, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&fl.Corpora, "corpus", nil, "directory of .wgsl kernels (with NAME.inputs.json) or case files; repeatable")
	f.IntVar(&fl.Generated, "generated", 0, "also run this many generated programs (program i of --seed, as 'gpudiff run' generates it)")
	f.Uint64Var(&fl.Seed, "seed", 1, "campaign seed of the generated programs")
	f.IntVar(&fl.Size, "size", 0, "size of the generated programs (default 30)")
	f.StringVar(&fl.Profile, "profile", "default", "generator profile of the generated programs: "+strings.Join(profileNames(), ", "))
	f.IntVar(&fl.Invocations, "invocations", 16, "invocations per generated program")
	f.StringVar(&fl.Mode, "mode", "raw", "emission mode: raw (operators as written: the stack must implement WGSL's rules) or portable")
	f.StringArrayVar(&fl.adapters, "adapter", []string{"all"}, "adapter(s): short name, prefix, or all; repeatable")
	f.StringVar(&fl.Baseline, "baseline", "", "known divergences: a previous --json report, or one key case/adapter/function/format (or key pattern, e.g. */wgpu-gl:llvmpipe/*/spirv) per line")
	f.StringVar(&fl.html, "html", "", "write a self-contained HTML report to this file")
	f.StringVar(&fl.json, "json", "", "write the matrix and every divergence as JSON to this file (usable as --baseline)")
	f.StringVar(&fl.junit, "junit", "", "write JUnit XML (one test case per case × adapter) to this file")
	f.DurationVar(&fl.Timeout, "timeout", 30*time.Second, "per-dispatch time limit")
	f.BoolVar(&fl.noTwin, "no-twin", false, "skip the flattened twins")
	g.addStrictFlag(f)
	f.BoolVar(&fl.noSPIRV, "no-spirv", false, "skip gpudiff's SPIR-V (WGSL only)")
	f.StringVar(&fl.Stage, "stage", "compute", stageFlagHelp+" (function kernels; compute entry points run in the compute stage)")
	return cmd
}

func runDrivers(ctx context.Context, g *globalFlags, fl driversFlags, stdout, stderr io.Writer) error {
	r, err := fl.Validate()
	if err != nil {
		return usagef("gpudiff drivers: %v", err)
	}
	// The same limits as exec and repro, per corpus file; an entry point's
	// dispatch or draw has exec's limits (a fragment case is 16x16 pixels).
	cases, err := drivers.LoadCorpora(fl.Corpora, func(c *drivers.Case) error {
		if err := g.lim.CheckSourceSize(c.Path, int64(len(c.Source))); err != nil || c.Case.Kind != testcase.KindKernel {
			return err
		}
		return g.lim.CheckKernel(c.Case.Module, c.Case.Func, len(c.Case.Args))
	})
	if err != nil {
		return inputErr(err)
	}
	if fl.Generated > 0 {
		cases = append(cases, drivers.Generated(fl.Seed, fl.Generated, fl.Invocations, gen.Config{Size: fl.Size, Profile: r.Profile})...)
	}
	sels := fl.adapters
	if len(sels) == 0 {
		sels = []string{"all"}
	}
	devs, closeAll, err := openDevicesJobs(sels, fl.Timeout, 1, false, stderr)
	if err != nil {
		return usagef("gpudiff drivers: --adapter: %v", err)
	}
	defer closeAll()

	opts := drivers.Options{Mode: r.Mode, NoTwin: fl.noTwin, NoSPIRV: fl.noSPIRV, Stages: r.Stages, Timeout: 2 * fl.Timeout, Tool: "gpudiff " + version(),
		Interp: g.interpOptions(), Flatten: g.flattenOptions()}
	if bar := progressBar(stderr, len(cases)*len(devs), progressbar.OptionSetDescription("cases × adapters")); bar != nil {
		opts.Progress = func(int, int) { _ = bar.Add(1) }
		defer bar.Finish()
	}
	useColor := colorOn(stdout)
	rep := drivers.Run(ctx, cases, devs, opts)
	if ctx.Err() != nil {
		return usagef("gpudiff drivers: interrupted")
	}
	if r.Known != nil {
		rep.ApplyBaseline(fl.Baseline, r.Known)
	}
	report.WriteDriversText(stdout, rep, report.DriversTextOptions{Color: useColor})
	if note := report.BaselineDriverNote(fl.Baseline, campaign.BaselineDrivers(fl.Baseline), rep.DriverRecords()); note != "" {
		fmt.Fprintln(stdout, note)
	}
	if r.Known == nil && len(rep.Divergences) > 0 {
		fmt.Fprintf(stdout, "no baseline: every divergence counts as new (write one with --json known.json, then run with --baseline known.json)\n")
	}
	if err := writeOutputs("drivers", report.DriversOutputs(rep, fl.json, fl.html, fl.junit)); err != nil {
		return err
	}
	if len(rep.New()) > 0 {
		return errFound
	}
	return nil
}
