package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/baseline"
	"github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/drivers"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/report"
)

type driversFlags struct {
	corpora     []string
	generated   int
	seed        uint64
	size        int
	profile     string
	invocations int
	mode        string
	adapters    []string
	baseline    string
	html        string
	json        string
	junit       string
	timeout     time.Duration
	changed     map[string]bool // flags given on the command line
	noTwin      bool
	noSPIRV     bool
	stage       string // compute, fragment or both (stage.go)
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
			fl.changed = changedFlags(cmd)
			return runDrivers(cmd.Context(), g, fl, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&fl.corpora, "corpus", nil, "directory of .wgsl kernels (with NAME.inputs.json) or case files; repeatable")
	f.IntVar(&fl.generated, "generated", 0, "also run this many generated programs (program i of --seed, as 'gpudiff run' generates it)")
	f.Uint64Var(&fl.seed, "seed", 1, "campaign seed of the generated programs")
	f.IntVar(&fl.size, "size", 0, "size of the generated programs (default 30)")
	f.StringVar(&fl.profile, "profile", "default", "generator profile of the generated programs: "+strings.Join(profileNames(), ", "))
	f.IntVar(&fl.invocations, "invocations", 16, "invocations per generated program")
	f.StringVar(&fl.mode, "mode", "raw", "emission mode: raw (operators as written: the stack must implement WGSL's rules) or portable")
	f.StringArrayVar(&fl.adapters, "adapter", []string{"all"}, "adapter(s): short name, prefix, or all; repeatable")
	f.StringVar(&fl.baseline, "baseline", "", "known divergences: a previous --json report, or one key case/adapter/function/format (or key pattern, e.g. */wgpu-gl:llvmpipe/*/spirv) per line")
	f.StringVar(&fl.html, "html", "", "write a self-contained HTML report to this file")
	f.StringVar(&fl.json, "json", "", "write the matrix and every divergence as JSON to this file (usable as --baseline)")
	f.StringVar(&fl.junit, "junit", "", "write JUnit XML (one test case per case × adapter) to this file")
	f.DurationVar(&fl.timeout, "timeout", 30*time.Second, "per-dispatch time limit")
	f.BoolVar(&fl.noTwin, "no-twin", false, "skip the flattened twins")
	g.addStrictFlag(f)
	f.BoolVar(&fl.noSPIRV, "no-spirv", false, "skip gpudiff's SPIR-V (WGSL only)")
	f.StringVar(&fl.stage, "stage", "compute", stageFlagHelp+" (function kernels; compute entry points run in the compute stage)")
	return cmd
}

func runDrivers(ctx context.Context, g *globalFlags, fl driversFlags, stdout, stderr io.Writer) error {
	mode, err := wgsl.ParseMode(fl.mode)
	if err != nil {
		return usagef("gpudiff drivers: --mode: %v", err)
	}
	if len(fl.corpora) == 0 && fl.generated <= 0 {
		return usagef("gpudiff drivers: nothing to run: give --corpus DIR and/or --generated N")
	}
	if fl.generated < 0 || fl.size < 0 || fl.invocations < 1 {
		return usagef("gpudiff drivers: --generated and --size must be ≥ 0 and --invocations ≥ 1")
	}
	stages, err := parseStages("drivers", fl.stage)
	if err != nil {
		return err
	}
	if err := checkFlags("drivers", fl.changed, intAtLeast("size", int64(fl.size), 1), positiveDuration("timeout", fl.timeout)); err != nil {
		return err
	}
	if fl.invocations > g.lim.Invocations {
		return usagef("gpudiff drivers: --invocations %d exceeds the limit of %d (raise it with --max-invocations)", fl.invocations, g.lim.Invocations)
	}
	prof, err := gen.LookupProfile(fl.profile)
	if err != nil {
		return usagef("gpudiff drivers: --profile: %v", err)
	}
	var known *baseline.Set
	if fl.baseline != "" {
		if known, err = baseline.ReadKeys(fl.baseline); err != nil {
			return usagef("gpudiff drivers: --baseline: %v", err)
		}
	}
	// The same limits as exec and repro, per corpus file; an entry point's
	// dispatch or draw has exec's limits (a fragment case is 16x16 pixels).
	cases, err := drivers.LoadCorpora(fl.corpora, func(c *drivers.Case) error {
		if err := g.lim.CheckSourceSize(c.Path, int64(len(c.Source))); err != nil || c.Case == nil {
			return err
		}
		return g.lim.CheckKernel(c.Case.Module, c.Case.Module.Func(c.Case.Kernel), len(c.Case.Args))
	})
	if err != nil {
		return inputErr(err)
	}
	if fl.generated > 0 {
		cases = append(cases, drivers.Generated(fl.seed, fl.generated, fl.invocations, gen.Config{Size: fl.size, Profile: prof})...)
	}
	sels := fl.adapters
	if len(sels) == 0 {
		sels = []string{"all"}
	}
	devs, closeAll, err := openDevicesJobs(sels, fl.timeout, 1, stderr)
	if err != nil {
		return usagef("gpudiff drivers: --adapter: %v", err)
	}
	defer closeAll()

	opts := drivers.Options{Mode: mode, NoTwin: fl.noTwin, NoSPIRV: fl.noSPIRV, Stages: stages, Timeout: 2 * fl.timeout, Tool: "gpudiff " + version(),
		Interp: g.interpOptions(), Flatten: g.flattenOptions()}
	if bar := progressBar(stderr, len(cases)*len(devs), progressbar.OptionSetDescription("cases × adapters")); bar != nil {
		opts.Progress = func(int, int) { _ = bar.Add(1) }
		defer bar.Finish()
	}
	color := colorOut(stdout)
	rep := drivers.Run(ctx, cases, devs, opts)
	if ctx.Err() != nil {
		return usagef("gpudiff drivers: interrupted")
	}
	if known != nil {
		rep.ApplyBaseline(fl.baseline, known)
	}
	report.WriteDriversText(stdout, rep, report.DriversTextOptions{Color: color})
	if note := report.BaselineDriverNote(fl.baseline, campaign.BaselineDrivers(fl.baseline), rep.DriverRecords()); note != "" {
		fmt.Fprintln(stdout, note)
	}
	if known == nil && len(rep.Divergences) > 0 {
		fmt.Fprintf(stdout, "no baseline: every divergence counts as new (write one with --json known.json, then run with --baseline known.json)\n")
	}
	if err := writeOutputs("drivers", output{"json", fl.json, func(w io.Writer) error { return report.WriteDriversJSON(w, rep) }},
		output{"html", fl.html, func(w io.Writer) error { return report.WriteDriversHTML(w, rep) }},
		output{"junit", fl.junit, func(w io.Writer) error { return report.WriteDriversJUnit(w, rep) }}); err != nil {
		return err
	}
	if len(rep.New()) > 0 {
		return errFound
	}
	return nil
}
