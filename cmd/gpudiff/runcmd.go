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
	"golang.org/x/term"

	"github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/devices"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/report"
)

type runFlags struct {
	seed        uint64
	count       int
	duration    time.Duration
	size        int
	profile     string
	adapters    []string
	mode        string
	corpus      string
	report      string
	junit       string
	html        string
	shard       string
	baseline    string
	invocations int
	noSPIRV     bool
	noGPU       bool
	stage       string // compute, fragment or both (stage.go)
	verbose     bool
	shrinkMax   int
	log         string
	resume      string
	timeout     time.Duration
	jobs        int
	changed     map[string]bool
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
	f.Uint64Var(&fl.seed, "seed", 1, "campaign seed: the same seed generates byte-identical programs on any machine")
	f.IntVar(&fl.count, "count", 0, "number of programs, at least 1 (default 200 when --duration is not given)")
	f.DurationVar(&fl.duration, "duration", 0, "run until this much wall-clock time has passed (e.g. 30m, 2h); a resumed campaign runs for what is left of it")
	f.IntVar(&fl.size, "size", 0, "program size: drives statements, nesting and call depth (default 30)")
	f.StringVar(&fl.profile, "profile", "default", "generator profile: "+strings.Join(profileNames(), ", "))
	f.StringArrayVar(&fl.adapters, "adapter", nil, "adapter(s) to run on: short name, prefix, or all; repeatable (default: the first Vulkan adapter)")
	f.StringVar(&fl.mode, "mode", "portable", "emission mode: portable or raw")
	f.StringVar(&fl.corpus, "corpus", "gpudiff-cases", "directory where shrunk failures are saved as case files")
	f.StringVar(&fl.report, "report", "", "write a JSON report (one record per failure) to this file")
	f.StringVar(&fl.junit, "junit", "", "write JUnit XML (one test case per program × adapter) to this file")
	f.StringVar(&fl.html, "html", "", "write a self-contained HTML page to this file: the summary, each bug once with its attribution, programs, case file, replay command and pictures of its case")
	f.StringVar(&fl.shard, "shard", "", "I/N: check only programs i with i % N == I (0 ≤ I < N)")
	f.StringVar(&fl.baseline, "baseline", "", "known failures (a previous --report JSON, or one signature or pattern per line, e.g. vendor/wgpu-gl:llvmpipe/*): they do not fail the run")
	f.IntVar(&fl.invocations, "invocations", 16, "invocations per program")
	f.BoolVar(&fl.noSPIRV, "no-spirv", false, "skip gpudiff's SPIR-V runs (WGSL only)")
	f.StringVar(&fl.stage, "stage", "compute", stageFlagHelp+" (function kernels; compute entry points of --profile compute run in the compute stage)")
	f.BoolVar(&fl.noGPU, "no-gpu", false, "interpreter only: check flatten (interp(twin) == interp(original)) without a GPU")
	f.BoolVarP(&fl.verbose, "verbose", "v", false, "print one line per program (index, seed, hash, verdict)")
	f.IntVar(&fl.shrinkMax, "shrink-attempts", 400, "candidate executions per failure while shrinking (0 or negative: do not shrink)")
	f.DurationVar(&fl.timeout, "timeout", 30*time.Second, "per-dispatch time limit; a dispatch that exceeds it gets verdict timeout and its worker is restarted")
	f.IntVar(&fl.jobs, "jobs", 0, "devices per adapter, each a worker process of its own: programs and shrink candidates are spread over them; results, reports, case files and journals are the same for any N, so a resumed campaign may change it (default: the number of CPUs, at most one per 256 MiB of available memory over all adapters)")
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
	if f := os.Getenv(flatten.FaultEnv); f != "" {
		fmt.Fprintf(stderr, "gpudiff run: warning: %s=%s breaks a flatten rule on purpose (testing only)\n", flatten.FaultEnv, f)
	}
	spec := campaign.Spec{Tool: version(), Seed: fl.seed, Count: fl.count, Duration: campaign.JournalDuration(fl.duration),
		Size: fl.size, Profile: fl.profile, Shard: fl.shard, Mode: fl.mode, Invocations: fl.invocations, NoSPIRV: fl.noSPIRV,
		NoGPU: fl.noGPU, Stage: fl.stage, Adapters: fl.adapters, Timeout: campaign.JournalDuration(fl.timeout),
		MaxSteps: g.lim.Steps, MaxUnrollCopies: g.lim.Unroll, Whitelist: g.whitelist.Whitelist(), Strict: g.strict, ShrinkAttempts: fl.shrinkMax,
		Baseline: fl.baseline, FlattenFault: os.Getenv(flatten.FaultEnv), WorkerFault: os.Getenv(worker.FaultEnv),
		Corpus: fl.corpus, Report: fl.report, JUnit: fl.junit, HTML: fl.html, Jobs: fl.jobs}
	if err := spec.Validate(fl.changed, g.lim.Invocations); err != nil {
		return usagef("gpudiff run: %v", err)
	}
	run, err := campaign.Open(spec, fl.changed, fl.resume, fl.log, stderr)
	if err != nil {
		return usagef("gpudiff run: %v", err)
	}
	defer run.Close()
	c := run.Spec // the campaign: the command line's, or the resumed journal's
	var devs []check.Device
	var names []string
	if !c.NoGPU {
		jobs := fl.jobs
		if !fl.changed["jobs"] {
			jobs = devices.AutoJobs
		}
		var closeAll func()
		if devs, closeAll, err = openDevicesJobs(c.Adapters, time.Duration(c.Timeout), jobs, stderr); err != nil {
			return usagef("gpudiff run: %v", err)
		}
		defer closeAll()
		for _, d := range devs {
			names = append(names, d.Info().Name)
		}
		if err := run.UseAdapters(names, harness.DriverRecords(names), stderr); err != nil {
			return usagef("gpudiff run: %v", err)
		}
	}
	shard, shards := c.Shards()
	bar := progressBar(stderr, c.Count, shard, shards)
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
	if err := writeCampaignFiles("run", c, ran, sum); err != nil {
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

// progressBar is run's progress bar on a terminal stderr (nil
// otherwise): the shard's share of count programs, or open-ended for a
// --duration campaign (count 0).
func progressBar(stderr io.Writer, count, shard, shards int) *progressbar.ProgressBar {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	total := -1
	if count > 0 {
		total = (count - shard + shards - 1) / shards
	}
	return progressbar.NewOptions(total, progressbar.OptionSetWriter(stderr), progressbar.OptionShowCount(),
		progressbar.OptionShowIts(), progressbar.OptionSetItsString("programs"), progressbar.OptionSetDescription("checking"),
		progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
}

// writeCampaignFiles writes the --report, --junit and --html files the
// campaign c names (atomically), run as ran; cmd is the command for
// errors.
func writeCampaignFiles(cmd string, c campaign.Spec, ran report.CampaignRun, sum *campaign.Summary) error {
	for _, out := range []struct {
		flag, file string
		write      func(io.Writer, campaign.Spec, report.CampaignRun, *campaign.Summary) error
	}{
		{"report", c.Report, report.WriteCampaignJSON},
		{"junit", c.JUnit, report.WriteCampaignJUnit},
		{"html", c.HTML, report.WriteCampaignHTML},
	} {
		if out.file == "" {
			continue
		}
		if err := writeFile(out.file, func(w io.Writer) error { return out.write(w, c, ran, sum) }); err != nil {
			return usagef("gpudiff %s: --%s: %v", cmd, out.flag, err)
		}
	}
	return nil
}
