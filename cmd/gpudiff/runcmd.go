package main

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/devices"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/oracle"
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
		Use:   "run",
		Short: "Run a campaign: generate programs, check original and twin on every path, shrink and save failures",
		Long: `run is the nightly job. It generates random well-typed, terminating programs
(deterministically from --seed), and for each one checks

  interp(original) == interp(twin) == GPU(original) == GPU(twin)

in WGSL and SPIR-V on every selected adapter. Every failure is attributed
(flatten, predication on a stack, gpudiff's SPIR-V, a vendor's driver, a stack
disagreeing with WGSL), shrunk, de-duplicated by signature and saved to the
corpus as a replayable case file (see 'gpudiff repro').

--stage fragment runs every GPU run of a generated function kernel as gpudiff's
@fragment twin of the kernel ABI's entry point (one fragment per invocation over
a full-screen triangle), --stage both in both stages; a fragment run that
disagrees where the compute run agrees is attributed to the stack's fragment
path (class "stage").

Program i of seed S is regenerated alone by its derived seed (in the report);
--shard I/N checks only the programs i with i % N == I, so N machines split one
seed without overlap. --jobs N runs N worker processes (devices) per adapter,
spreading programs and shrinking candidates over them; results, reports, case
files and journals are the same for any N (not recorded in the journal: a
resumed campaign may change it).

Exit codes: 0 no new failure; 1 a failure not in the --baseline; 2 usage error;
130 / 143 interrupted by SIGINT / SIGTERM (the report says "interrupted": true;
continue with --resume LOG).`,
		Example: `  gpudiff run --seed 1 --count 200
  gpudiff run --seed 42 --duration 2h --adapter all --corpus nightly/cases --report nightly.json --junit nightly.xml --html nightly.html
  gpudiff run --seed 42 --count 100000 --shard 3/16 --baseline nightly.json
  gpudiff run --seed 7 --count 20 --stage both --adapter vulkan`,
		Args: cobra.NoArgs,
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

func parseShard(s string) (int, int, error) {
	if s == "" {
		return 0, 1, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("--shard wants I/N with 0 ≤ I < N, got %q", s)
	}
	return i, n, nil
}

// readBaseline loads known failures from a previous JSON report (its
// failures' signatures) or from a text file with one signature or
// signature pattern per line (campaign.Baseline; a # that opens a line or
// follows a blank starts a comment).
// Errors name the file and line of a malformed pattern.
func readBaseline(file string) (*campaign.Baseline, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	b := &campaign.Baseline{}
	var rep struct {
		Failures []campaign.ProgramRecord `json:"failures"`
	}
	if json.Unmarshal(data, &rep) == nil {
		for _, f := range rep.Failures {
			if err := b.Add(f.Signature); err != nil {
				return nil, fmt.Errorf("%s: %v", file, err)
			}
		}
		return b, nil
	}
	if err := b.AddText(file, data, nil); err != nil {
		return nil, err
	}
	return b, nil
}

func runCampaign(ctx context.Context, g *globalFlags, fl runFlags, stdout, stderr io.Writer) error {
	if f := os.Getenv(flatten.FaultEnv); f != "" {
		fmt.Fprintf(stderr, "gpudiff run: warning: %s=%s breaks a flatten rule on purpose (testing only)\n", flatten.FaultEnv, f)
	}
	spec, err := campaignSpec(g, fl)
	if err != nil {
		return err
	}
	c := spec // the campaign: the command line's, or the resumed journal's
	var journal *campaign.Journal
	var prior []campaign.ProgramRecord
	if fl.resume != "" {
		if fl.log != "" {
			return usagef("gpudiff run: --resume appends to its own journal; do not also give --log")
		}
		j, h, recs, _, err := campaign.OpenJournal(fl.resume)
		if err != nil {
			return usagef("gpudiff run: --resume: %v", err)
		}
		defer j.Close()
		journal, prior = j, recs
		if c, err = resumeHeader(fl.resume, fl.changed, spec, h); err != nil {
			return err
		}
		if h.Tool != spec.Tool {
			fmt.Fprintf(stderr, "gpudiff run: warning: the campaign began with gpudiff %s, this is %s: records of a different build may differ\n", h.Tool, spec.Tool)
		}
	}
	mode, _ := wgsl.ParseMode(c.Mode)
	shard, shards, _ := parseShard(c.Shard)
	prof, err := gen.LookupProfile(c.Profile)
	if err != nil {
		return usagef("gpudiff run: --profile: %v", err)
	}
	g.lim.Steps, g.lim.Unroll = c.MaxSteps, c.MaxUnrollCopies
	g.whitelist = whitelistValue{names: c.Whitelist, set: c.Whitelist != nil}
	var baseline *campaign.Baseline
	if c.Baseline != "" {
		if sum, err := fileSHA256(c.Baseline); err != nil || sum != c.BaselineSHA256 {
			return usagef("gpudiff run: --resume: the baseline %s is not the one the campaign began with (changed or gone since); give that one with --baseline, or begin a new campaign", c.Baseline)
		}
		if baseline, err = readBaseline(c.Baseline); err != nil {
			return usagef("gpudiff run: --baseline: %v", err)
		}
	}
	var devs []check.Device
	var names []string
	if !c.NoGPU {
		var closeAll func()
		jobs := fl.jobs
		if !fl.changed["jobs"] {
			jobs = devices.AutoJobs
		}
		devs, closeAll, err = openDevicesJobs(c.Adapters, time.Duration(c.Timeout), jobs, stderr)
		if err != nil {
			return usagef("gpudiff run: %v", err)
		}
		defer closeAll()
		for _, d := range devs {
			names = append(names, d.Info().Name)
		}
		if journal != nil && strings.Join(names, ",") != strings.Join(c.Adapters, ",") {
			return usagef("gpudiff run: --resume: the campaign ran on %s, this machine gives %s", strings.Join(c.Adapters, ", "), strings.Join(names, ", "))
		}
		c.Adapters = names
		drivers := harness.DriverRecords(names)
		if journal != nil {
			noteDriverChange(stderr, c.Drivers, drivers)
		} else {
			c.Drivers = drivers
		}
	}
	if fl.log != "" {
		j, err := campaign.CreateJournal(fl.log, c)
		if err != nil {
			return usagef("gpudiff run: --log: %v (use --resume to continue an existing journal)", err)
		}
		defer j.Close()
		journal = j
	}
	stages, err := parseStages("run", cmp.Or(c.Stage, string(oracle.StageCompute)))
	if err != nil {
		return err
	}
	cfg := campaign.Config{
		Seed: c.Seed, Count: c.Count, Duration: time.Duration(c.Duration), Stages: stages,
		Gen:         gen.Config{Size: c.Size, Profile: prof},
		Invocations: c.Invocations, Devices: devs, Mode: mode, SPIRV: !c.NoSPIRV, Flatten: g.flattenOptions(), Interp: g.interpOptions(),
		Shard: shard, Shards: shards, Corpus: c.Corpus, Baseline: baseline,
		ShrinkAttempts: c.ShrinkAttempts, ToolVersion: version(), Prior: prior, Confirm: true,
	}
	bar := progressBar(stderr, c.Count, shard, shards)
	var lines []string
	var journalErr error
	cfg.OnProgram = func(r campaign.ProgramRecord) {
		if journal != nil && journalErr == nil {
			journalErr = journal.Append(r)
		}
		if bar != nil {
			_ = bar.Add(1)
		}
		if fl.verbose {
			lines = append(lines, fmt.Sprintf("  #%-6d seed %#016x  %s  %s %s", r.Index, r.Seed, r.Hash[:12], r.Verdict, check.JoinClasses(r.Classes, ",")))
		}
	}
	if journal != nil {
		journal.Begin()
		cfg.Spent = journal.Spent()
	}
	sum, err := campaign.RunCampaign(ctx, cfg)
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil {
		return usagef("gpudiff run: %v", err)
	}
	if journal != nil && journalErr == nil {
		journalErr = journal.Finish(!sum.Interrupted, sum.Interrupted)
	}
	if journalErr != nil {
		return usagef("gpudiff run: journal: %v", journalErr)
	}
	for _, l := range lines {
		fmt.Fprintln(stdout, l)
	}
	info := report.Campaign{Tool: "gpudiff " + version(), Seed: c.Seed, Count: c.Count, Shard: c.Shard, Size: c.Size,
		Profile: c.Profile, Mode: c.Mode, Duration: time.Duration(c.Duration), Adapters: names, Corpus: c.Corpus,
		Drivers: harness.DriverRecords(names)}
	if err := writeCampaignReports(stdout, c, info, sum); err != nil {
		return err
	}
	if note := baselineDriverNote(c.Baseline, info.Drivers); note != "" {
		fmt.Fprintln(stdout, note)
	}
	if sum.Interrupted {
		msg := fmt.Sprintf("gpudiff run: %s after %d programs: the campaign did not finish", interruptedBy(ctx), sum.Programs)
		if journal != nil {
			log := fl.log
			if log == "" {
				log = fl.resume
			}
			msg += "; continue it with: gpudiff run --resume " + log
		}
		return &exitError{code: interruptCode(ctx), msg: msg}
	}
	if sum.New > 0 {
		n, programs := campaign.BugCount(campaign.Bugs(sum.Failures), "new")
		return &exitError{code: exitFound, msg: "gpudiff run: " + campaign.CountPhrase(n, programs, "new")}
	}
	return nil
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

// writeCampaignReports prints the summary on stdout and writes the
// --report, --junit and --html files the campaign c names (atomically).
func writeCampaignReports(stdout io.Writer, c campaign.JournalHeader, info report.Campaign, sum *campaign.Summary) error {
	report.WriteCampaignSummary(stdout, info, sum)
	if c.Report != "" {
		if err := writeFile(c.Report, func(w io.Writer) error { return report.WriteCampaignJSON(w, info, sum) }); err != nil {
			return usagef("gpudiff run: --report: %v", err)
		}
	}
	if c.JUnit != "" {
		if err := writeFile(c.JUnit, func(w io.Writer) error { return report.WriteCampaignJUnit(w, info, sum) }); err != nil {
			return usagef("gpudiff run: --junit: %v", err)
		}
	}
	if c.HTML != "" {
		if err := writeFile(c.HTML, func(w io.Writer) error { return report.WriteCampaignHTML(w, info, sum) }); err != nil {
			return usagef("gpudiff run: --html: %v", err)
		}
	}
	return nil
}

// campaignSpec validates run's flags and returns the campaign they
// describe, in the form its journal records: defaults written out (count
// 200 without --duration, gen.DefaultSize, the shard as I/N), the
// baseline's digest, and Adapters resolved to full names when --adapter is
// given (nil otherwise: the devices opened decide). A numeric flag given a
// value that cannot mean what it says (--count 0, --duration -5s,
// --timeout 0s, --size 0) is exit 2 naming it.
func campaignSpec(g *globalFlags, fl runFlags) (campaign.JournalHeader, error) {
	h := campaign.JournalHeader{Tool: version(), Seed: fl.seed, Count: fl.count, Duration: campaign.JournalDuration(fl.duration),
		Size: fl.size, Invocations: fl.invocations, NoSPIRV: fl.noSPIRV, NoGPU: fl.noGPU, Timeout: campaign.JournalDuration(fl.timeout),
		MaxSteps: g.lim.Steps, MaxUnrollCopies: g.lim.Unroll, Whitelist: g.whitelist.Whitelist(), ShrinkAttempts: fl.shrinkMax,
		Baseline: fl.baseline, FlattenFault: os.Getenv(flatten.FaultEnv), WorkerFault: os.Getenv(worker.FaultEnv),
		Corpus: fl.corpus, Report: fl.report, JUnit: fl.junit, HTML: fl.html}
	mode, err := wgsl.ParseMode(fl.mode)
	if err != nil {
		return h, usagef("gpudiff run: --mode: %v", err)
	}
	h.Mode = string(mode)
	if _, err := parseStages("run", fl.stage); err != nil {
		return h, err
	}
	if fl.stage != string(oracle.StageCompute) {
		h.Stage = fl.stage // compute is journaled as before stages: absent
	}
	shard, shards, err := parseShard(fl.shard)
	if err != nil {
		return h, usagef("gpudiff run: %v", err)
	}
	h.Shard = fmt.Sprintf("%d/%d", shard, shards)
	prof, err := gen.LookupProfile(fl.profile)
	if err != nil {
		return h, usagef("gpudiff run: --profile: %v", err)
	}
	h.Profile = prof.Name
	if err := checkFlags("run", fl.changed,
		intAtLeast("count", int64(fl.count), 1), positiveDuration("duration", fl.duration),
		intAtLeast("size", int64(fl.size), 1), intAtLeast("invocations", int64(fl.invocations), 1), intAtLeast("jobs", int64(fl.jobs), 1),
		positiveDuration("timeout", fl.timeout)); err != nil {
		return h, err
	}
	if fl.invocations > g.lim.Invocations {
		return h, usagef("gpudiff run: --invocations %d exceeds the limit of %d (raise it with --max-invocations)", fl.invocations, g.lim.Invocations)
	}
	if !fl.changed["count"] && !fl.changed["duration"] {
		h.Count = 200
	}
	if h.Size == 0 {
		h.Size = gen.DefaultSize
	}
	if h.ShrinkAttempts <= 0 {
		h.ShrinkAttempts = -1 // 0 or negative: do not shrink
	}
	if fl.noGPU && fl.changed["adapter"] {
		return h, usagef("gpudiff run: --no-gpu and --adapter contradict each other (--no-gpu runs the interpreter alone)")
	}
	if h.NoGPU {
		h.Adapters = []string{}
	} else if fl.changed["adapter"] {
		if h.Adapters, err = adapterNames(fl.adapters); err != nil {
			return h, usagef("gpudiff run: %v", err)
		}
	}
	if h.Baseline != "" {
		if h.BaselineSHA256, err = fileSHA256(h.Baseline); err != nil {
			return h, usagef("gpudiff run: --baseline: %v", err)
		}
	}
	return h, nil
}

// campaignOptions are the options a campaign journal records, each with
// the run flag that sets it ($NAME: an environment variable) and the
// header field that holds it. A resume takes every one from the journal;
// one given on the command line must agree with it (exit 2 naming the
// flag otherwise), except the outputs (where case files, the report, the
// JUnit XML and the HTML page go), which a flag given on resume redirects.
var campaignOptions = []struct {
	flag   string
	output bool
	field  func(h *campaign.JournalHeader) any // a pointer to the field
}{
	{"seed", false, func(h *campaign.JournalHeader) any { return &h.Seed }},
	{"count", false, func(h *campaign.JournalHeader) any { return &h.Count }},
	{"duration", false, func(h *campaign.JournalHeader) any { return &h.Duration }},
	{"size", false, func(h *campaign.JournalHeader) any { return &h.Size }},
	{"profile", false, func(h *campaign.JournalHeader) any { return &h.Profile }},
	{"shard", false, func(h *campaign.JournalHeader) any { return &h.Shard }},
	{"mode", false, func(h *campaign.JournalHeader) any { return &h.Mode }},
	{"invocations", false, func(h *campaign.JournalHeader) any { return &h.Invocations }},
	{"no-spirv", false, func(h *campaign.JournalHeader) any { return &h.NoSPIRV }},
	{"stage", false, func(h *campaign.JournalHeader) any { return &h.Stage }},
	{"no-gpu", false, func(h *campaign.JournalHeader) any { return &h.NoGPU }},
	{"adapter", false, func(h *campaign.JournalHeader) any { return &h.Adapters }},
	{"timeout", false, func(h *campaign.JournalHeader) any { return &h.Timeout }},
	{"max-steps", false, func(h *campaign.JournalHeader) any { return &h.MaxSteps }},
	{"max-unroll-copies", false, func(h *campaign.JournalHeader) any { return &h.MaxUnrollCopies }},
	{"whitelist", false, func(h *campaign.JournalHeader) any { return &h.Whitelist }},
	{"shrink-attempts", false, func(h *campaign.JournalHeader) any { return &h.ShrinkAttempts }},
	{"baseline", false, func(h *campaign.JournalHeader) any { return &h.BaselineSHA256 }},
	{"baseline", true, func(h *campaign.JournalHeader) any { return &h.Baseline }},
	{"$" + flatten.FaultEnv, false, func(h *campaign.JournalHeader) any { return &h.FlattenFault }},
	{"$" + worker.FaultEnv, false, func(h *campaign.JournalHeader) any { return &h.WorkerFault }},
	{"corpus", true, func(h *campaign.JournalHeader) any { return &h.Corpus }},
	{"report", true, func(h *campaign.JournalHeader) any { return &h.Report }},
	{"junit", true, func(h *campaign.JournalHeader) any { return &h.JUnit }},
	{"html", true, func(h *campaign.JournalHeader) any { return &h.HTML }},
}

// resumeHeader returns the campaign that resuming the journal at path,
// whose header is h, continues: h, with the outputs given on the command
// line (changed) taken from spec (campaignSpec). An option given whose
// value differs from h's, or a fault-switch environment variable set
// differently, is exit 2 naming it.
func resumeHeader(path string, changed map[string]bool, spec, h campaign.JournalHeader) (campaign.JournalHeader, error) {
	c := h
	for _, o := range campaignOptions {
		env, isEnv := strings.CutPrefix(o.flag, "$")
		if !isEnv && !changed[o.flag] {
			continue
		}
		give := reflect.ValueOf(o.field(&spec)).Elem()
		if o.output {
			reflect.ValueOf(o.field(&c)).Elem().Set(give)
			continue
		}
		was := reflect.ValueOf(o.field(&h)).Elem()
		g, _ := json.Marshal(give.Interface())
		w, _ := json.Marshal(was.Interface())
		if bytes.Equal(g, w) {
			continue
		}
		if isEnv {
			return c, usagef("gpudiff run: %s=%s contradicts the resumed journal %s, whose campaign ran with %s=%s", env, give, path, env, was)
		}
		return c, usagef("gpudiff run: --%s=%v contradicts the resumed journal %s, whose campaign has --%s=%v (resume without the flag to continue it as it began)",
			o.flag, give, path, o.flag, was)
	}
	return c, nil
}

// adapterNames resolves --adapter selectors to the full names of the
// adapters they pick, without opening them.
func adapterNames(sels []string) ([]string, error) {
	all, err := harness.AllAdapters()
	if len(all) == 0 {
		return nil, err
	}
	picked, err := harness.Select(all, sels)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(picked))
	for i, a := range picked {
		names[i] = a.Name
	}
	return names, nil
}

// fileSHA256 is the hex SHA-256 of a file's bytes.
func fileSHA256(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}
