package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/devices"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/report"
)

// runFlags are run's flags: the campaign.Spec they describe (the limits,
// --whitelist, --strict, the tool and the fault switches added by
// runCampaign), and what only this run does.
type runFlags struct {
	spec        campaign.Spec
	verbose     bool
	log, resume string
	changed     map[string]bool
	// compileTimeout bounds each dispatch's compile phase
	// (--compile-timeout; not journaled: it changes no record of a
	// program that compiles in time).
	compileTimeout time.Duration
}

func newRunCmd(g *globalFlags) *cobra.Command {
	var fl runFlags
	cmd := &cobra.Command{
		Use:     "run",
		Short:   "Run a campaign: generate programs, check original and twin on every path, shrink and save failures",
		Long:    helpText("run"),
		Example: helpText("run.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fl.changed = map[string]bool{}
			cmd.Flags().Visit(func(f *pflag.Flag) { fl.changed[f.Name] = true })
			return runCampaign(cmd.Context(), g, fl, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.Uint64Var(&fl.spec.Seed, "seed", 1, "campaign seed: the same seed generates byte-identical programs on any machine")
	f.IntVar(&fl.spec.Count, "count", 0, "number of programs, at least 1 (default 200 when --duration is not given)")
	f.DurationVar((*time.Duration)(&fl.spec.Duration), "duration", 0, "run until this much wall-clock time has passed (e.g. 30m, 2h); a resumed campaign runs for what is left of it")
	f.IntVar(&fl.spec.Size, "size", 0, "program size: drives statements, nesting and call depth (default 30)")
	f.StringVar(&fl.spec.Profile, "profile", "default", "generator profile: "+strings.Join(profileNames(), ", "))
	f.StringArrayVar(&fl.spec.Adapters, "adapter", nil, "adapter(s) to run on: short name, prefix, or all; repeatable (default: the first Vulkan adapter)")
	f.StringVar(&fl.spec.Mode, "mode", "portable", "emission mode: portable or raw")
	f.StringVar(&fl.spec.Corpus, "corpus", "gpudiff-cases", "directory where shrunk failures are saved as case files")
	f.StringVar(&fl.spec.Report, "report", "", "write a JSON report (one record per failure) to this file")
	f.StringVar(&fl.spec.JUnit, "junit", "", "write JUnit XML (one test case per program × adapter) to this file")
	f.StringVar(&fl.spec.HTML, "html", "", "write a self-contained HTML page to this file: the summary, each bug once with its attribution, programs, case file, replay command and pictures of its case")
	f.StringVar(&fl.spec.Shard, "shard", "", "I/N: check only programs i with i % N == I (0 ≤ I < N)")
	f.StringVar(&fl.spec.Baseline, "baseline", "", "known failures (a previous --report JSON, or one signature or pattern per line, e.g. vendor/wgpu-gl:llvmpipe/*): they do not fail the run")
	f.BoolVar(&fl.spec.ProjectFindings, "project-findings", true, "count the project's own findings (findings/known.txt, built in) as known failures besides --baseline; --project-findings=false makes every failure new")
	f.IntVar(&fl.spec.Invocations, "invocations", 16, "invocations per program")
	f.BoolVar(&fl.spec.NoSPIRV, "no-spirv", false, "skip gpudiff's SPIR-V runs (WGSL only)")
	f.StringVar(&fl.spec.Stage, "stage", "compute", stageFlagHelp+" (function kernels; compute entry points of --profile compute run in the compute stage)")
	f.BoolVar(&fl.spec.NoGPU, "no-gpu", false, "interpreter only: check flatten (interp(twin) == interp(original)) without a GPU")
	f.BoolVarP(&fl.verbose, "verbose", "v", false, "print one line per program (index, seed, hash, verdict)")
	f.IntVar(&fl.spec.ShrinkAttempts, "shrink-attempts", 400, "candidate executions per failure while shrinking (0 or negative: do not shrink)")
	f.DurationVar((*time.Duration)(&fl.spec.Timeout), "timeout", 30*time.Second, "time limit of each dispatch once its pipeline is compiled (the dispatch and its readback); one that exceeds it hangs: verdict timeout, a finding, and its worker is restarted")
	f.DurationVar(&fl.compileTimeout, "compile-timeout", worker.DefaultCompileTimeout, "time limit of each dispatch's compile phase (shader module and pipeline creation); one that exceeds it is verdict slow-compile, a performance note in the report, not a finding (its worker is restarted)")
	f.IntVar(&fl.spec.Jobs, "jobs", 0, "devices per adapter, each a worker process of its own: programs and shrink candidates are spread over them; results, reports, case files and journals are the same for any N, so a resumed campaign may change it (default: the number of CPUs, at most one per 256 MiB of available memory over all adapters)")
	f.StringVar(&fl.log, "log", "", "append one JSON line per program to this new journal, fsynced per record")
	g.addStrictFlag(f)
	f.StringVar(&fl.resume, "resume", "", "continue the campaign journaled in this file (after a crash, kill -9 or Ctrl-C): its header fixes every option that changes a result (no flag need be repeated; one that contradicts it is an error)")
	return cmd
}

func profileNames() []string {
	var out []string
	for _, p := range gen.Profiles() {
		out = append(out, p.Name)
	}
	return out
}

func runCampaign(ctx context.Context, g *globalFlags, fl runFlags, stdout, stderr io.Writer) error {
	started := time.Now() // --duration counts opening the devices too
	if f := os.Getenv(flatten.FaultEnv); f != "" {
		fmt.Fprintf(stderr, "gpudiff run: warning: %s=%s breaks a flatten rule on purpose (testing only)\n", flatten.FaultEnv, f)
	}
	spec := fl.spec
	spec.Tool, spec.MaxSteps, spec.MaxUnrollCopies, spec.Whitelist, spec.Strict = version(), g.lim.Steps, g.lim.Unroll, g.whitelist.Whitelist(), g.strict
	spec.MaxUnrollNodes = g.lim.UnrollNodes
	spec.FlattenFault, spec.WorkerFault = os.Getenv(flatten.FaultEnv), os.Getenv(worker.FaultEnv)
	if err := spec.Validate(fl.changed, g.lim.Invocations); err != nil {
		return usagef("gpudiff run: %v", err)
	}
	run, err := campaign.Open(spec, fl.changed, fl.resume, fl.log, stderr)
	if err != nil {
		return usagef("gpudiff run: %v", err)
	}
	defer run.Close()
	run.Started = started
	c := run.Spec // the campaign: the command line's, or the resumed journal's
	var devs []check.Device
	var names []string
	if !c.NoGPU {
		jobs := fl.spec.Jobs
		if !fl.changed["jobs"] {
			jobs = devices.AutoJobs
		}
		var closeAll func()
		// lavapipe's subgroup-size variants, where the profile generates
		// subgroup operations (check runs only those cases on them).
		prof, _ := gen.LookupProfile(c.Profile)
		if devs, closeAll, err = openDevicesLimits(c.Adapters, fl.compileTimeout, time.Duration(c.Timeout), jobs, prof.Subgroups > 0, stderr); err != nil {
			return usagef("gpudiff run: %v", err)
		}
		defer closeAll()
		if names, err = run.UseDevices(devs, stderr); err != nil {
			return usagef("gpudiff run: %v", err)
		}
	}
	bar := progressBar(stderr, c.ShardPrograms(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("programs"), progressbar.OptionSetDescription("checking"))
	var lines []string
	sum, err := run.Execute(ctx, devs, func(r campaign.ProgramRecord) {
		if bar != nil {
			_ = bar.Add(1)
		}
		if fl.verbose {
			lines = append(lines, fmt.Sprintf("  #%-6d seed %#016x  %s  %s %s", r.Index, r.Seed, r.Hash[:12], r.Verdict, check.JoinClasses(r.Classes, ",")))
		}
	})
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil {
		return usagef("gpudiff run: %v", err)
	}
	for _, l := range lines {
		fmt.Fprintln(stdout, l)
	}
	c = run.Spec // with the adapters opened (UseAdapters)
	ran := report.CampaignRun{Tool: "gpudiff " + version(), Drivers: harness.DriverRecords(names)}
	report.WriteCampaignSummary(stdout, c, ran, sum)
	if err := writeOutputs("run", report.CampaignOutputs(c, ran, sum)); err != nil {
		return err
	}
	if note := report.BaselineDriverNote(c.Baseline, campaign.BaselineDrivers(c.Baseline), ran.Drivers); note != "" {
		fmt.Fprintln(stdout, note)
	}
	if sum.Interrupted {
		msg := fmt.Sprintf("gpudiff run: %s after %d programs: the campaign did not finish", interruptedBy(ctx), sum.Programs)
		if run.Journal() != "" {
			msg += "; continue it with: gpudiff run --resume " + run.Journal()
		}
		return &exitError{code: interruptCode(ctx), msg: msg}
	}
	return newBugs("run", sum)
}

// newBugs is the exit of a campaign (command cmd) whose summary is sum:
// exit 1 naming the new bugs, nil when there are none.
func newBugs(cmd string, sum *campaign.Summary) error {
	if sum.New == 0 {
		return nil
	}
	n, programs := campaign.BugCount(campaign.Bugs(sum.Failures), "new")
	return &exitError{code: exitFound, msg: "gpudiff " + cmd + ": " + campaign.CountPhrase(n, programs, "new")}
}

// openDevicesLimits is openDevicesJobs with the compile phase's limit too
// (--compile-timeout; 0: worker.DefaultCompileTimeout): every dispatch may
// take compile to compile (shader modules and pipeline) and timeout to run
// after that.
func openDevicesLimits(sels []string, compile, timeout time.Duration, jobs int, variants bool, warn io.Writer) ([]check.Device, func(), error) {
	set, err := devices.Open(sels, devices.Options{Timeout: timeout, CompileTimeout: compile, Warn: warn, Jobs: jobs, Variants: variants})
	if err != nil {
		return nil, nil, err
	}
	devs := make([]check.Device, len(set))
	for i, d := range set {
		devs[i] = d
	}
	return devs, set.Close, nil
}
