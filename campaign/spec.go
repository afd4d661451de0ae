package campaign

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gpudiff/gpudiff/baseline"
	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/findings"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/oracle"
)

// Spec is the one description of a campaign: every option that changes
// what the campaign checks or how (a resumed run must check the same
// programs the same way), plus where its outputs go. It is serialized as
// the journal's first line (journal.go), so a journal's header is the
// campaign it continues; gpudiff run maps its flags onto a Spec
// (cmd/gpudiff/runcmd.go), Validate checks it and writes its defaults
// out, Resume continues a journaled one, and Open begins a run of it.
type Spec struct {
	Journal string `json:"journal"` // JournalFormat
	// Tool is the gpudiff that began the campaign (its version string).
	Tool string `json:"tool"`
	Seed uint64 `json:"seed"`
	// Count is the number of programs across all shards (0: Duration
	// decides).
	Count int `json:"count"`
	// Duration is the campaign's wall-clock budget (0: Count decides).
	Duration JournalDuration `json:"duration"`
	Size     int             `json:"size"` // generator size (never 0: gen.DefaultSize is written out)
	Profile  string          `json:"profile"`
	Shard    string          `json:"shard"` // "I/N"
	Mode     string          `json:"mode"`  // wgsl.Mode
	// Invocations per program.
	Invocations int  `json:"invocations"`
	NoSPIRV     bool `json:"no_spirv"`
	NoGPU       bool `json:"no_gpu"`
	// Stage is run's --stage when it is not "compute": "fragment" or
	// "both" (Config.Stages); "" (absent) is compute, as every campaign
	// journaled before stages. Before Validate it is the flag as given.
	Stage string `json:"stage,omitempty"`
	// Adapters are the adapters' full names (empty with NoGPU). Before
	// Validate they are the --adapter selectors as given.
	Adapters []string `json:"adapters"`
	// Drivers names each adapter's driver and version when the campaign
	// began (harness.DriverRecords); absent with NoGPU and in journals
	// written before drivers were recorded. Shards of one campaign may
	// differ here (merge keeps the first shard's).
	Drivers []harness.DriverRecord `json:"drivers,omitempty"`
	// Timeout bounds each GPU dispatch.
	Timeout JournalDuration `json:"timeout"`
	// MaxSteps, MaxUnrollCopies and MaxUnrollNodes are the interpreter's
	// and flatten's limits (README "Limits"); MaxUnrollNodes absent (0):
	// flatten's default, as in journals written before it existed.
	MaxSteps        int64 `json:"max_steps"`
	MaxUnrollCopies int   `json:"max_unroll_copies"`
	MaxUnrollNodes  int   `json:"max_unroll_nodes,omitempty"`
	// Whitelist is flatten's builtin whitelist; null: flatten's default.
	Whitelist []string `json:"whitelist"`
	// Strict is flatten's residual check (--strict; absent: off, as every
	// campaign journaled before it).
	Strict bool `json:"strict,omitempty"`
	// ShrinkAttempts bounds the candidate executions per failure
	// (negative: failures are not shrunk).
	ShrinkAttempts int `json:"shrink_attempts"`
	// Baseline is the baseline file as given ("" none) and BaselineSHA256
	// the hex SHA-256 of its bytes when the campaign began: a resume reads
	// the file again and refuses one that changed.
	Baseline       string `json:"baseline"`
	BaselineSHA256 string `json:"baseline_sha256"`
	// ProjectFindings counts the project's own findings (findings.Known,
	// findings/known.txt embedded in the binary) as known failures besides
	// Baseline (--project-findings, on by default for a new campaign;
	// absent in a journal: off, as every campaign journaled before it ran).
	ProjectFindings bool `json:"project_findings,omitempty"`
	// FlattenFault and WorkerFault are the test-only fault switches
	// (GPUDIFF_FLATTEN_FAULT, GPUDIFF_WORKER_FAULT) the campaign ran with.
	FlattenFault string `json:"flatten_fault"`
	WorkerFault  string `json:"worker_fault"`
	// Corpus, Report and JUnit are where case files, the JSON report and
	// the JUnit XML go ("" none); a resume writes there too unless told
	// otherwise.
	Corpus string `json:"corpus"`
	Report string `json:"report"`
	JUnit  string `json:"junit"`
	// HTML is where the HTML page goes ("" none), like Report.
	HTML string `json:"html,omitempty"`

	// Jobs is how many devices (worker processes) per adapter this run
	// opens (0: the caller's default). It changes no result and is not
	// journaled: a resumed campaign may change it.
	Jobs int `json:"-"`
}

// DefaultCount is a campaign's Count when neither a count nor a duration
// is given.
const DefaultCount = 200

// Validate checks a Spec made from a command line and writes its
// defaults out, in the form its journal records: Mode and Profile
// canonical, Stage "" for compute, Shard "I/N" (ParseShard; "" is "0/1"),
// Count DefaultCount when neither count nor duration is given, Size
// gen.DefaultSize when 0, ShrinkAttempts -1 when not positive (do not
// shrink), Adapters empty with NoGPU and, when the adapter option is
// given, its selectors resolved to the full names of the adapters they
// pick (harness.Select over harness.AllAdapters, without opening them;
// nil otherwise: the devices opened decide), and BaselineSHA256 the baseline file's
// digest. given names the options given on the command line (by gpudiff
// run's flag names: "count", "duration", "adapter", …): a numeric one
// whose value cannot mean what it says (count 0, a duration of -5s, a
// timeout of 0s, size 0) is an error naming its flag, as is more
// invocations than maxInvocations. Errors read as gpudiff run's usage
// errors without the command's name ("--mode: …").
func (s *Spec) Validate(given map[string]bool, maxInvocations int) error {
	mode, err := wgsl.ParseMode(s.Mode)
	if err != nil {
		return fmt.Errorf("--mode: %v", err)
	}
	s.Mode = string(mode)
	if _, err := check.ParseStages(s.Stage); err != nil {
		return fmt.Errorf("--stage: %v", err)
	}
	if s.Stage == string(oracle.StageCompute) {
		s.Stage = "" // compute is journaled as before stages: absent
	}
	if s.Shard == "" {
		s.Shard = "0/1"
	}
	shard, shards, err := ParseShard(s.Shard)
	if err != nil {
		return fmt.Errorf("--shard wants I/N with 0 ≤ I < N, got %q", s.Shard)
	}
	s.Shard = fmt.Sprintf("%d/%d", shard, shards)
	prof, err := gen.LookupProfile(s.Profile)
	if err != nil {
		return fmt.Errorf("--profile: %v", err)
	}
	s.Profile = prof.Name
	if err := check.FirstProblem(given, check.AtLeast("count", int64(s.Count), 1), check.Positive("duration", time.Duration(s.Duration)),
		check.AtLeast("size", int64(s.Size), 1), check.AtLeast("invocations", int64(s.Invocations), 1),
		check.AtLeast("jobs", int64(s.Jobs), 1), check.Positive("timeout", time.Duration(s.Timeout))); err != nil {
		return err
	}
	if s.Invocations > maxInvocations {
		return fmt.Errorf("--invocations %d exceeds the limit of %d (raise it with --max-invocations)", s.Invocations, maxInvocations)
	}
	if !given["count"] && !given["duration"] {
		s.Count = DefaultCount
	}
	if s.Size == 0 {
		s.Size = gen.DefaultSize
	}
	if s.ShrinkAttempts <= 0 {
		s.ShrinkAttempts = -1 // 0 or negative: do not shrink
	}
	if s.NoGPU && given["adapter"] {
		return fmt.Errorf("--no-gpu and --adapter contradict each other (--no-gpu runs the interpreter alone)")
	}
	switch {
	case s.NoGPU:
		s.Adapters = []string{}
	case given["adapter"]:
		if s.Adapters, err = adapterNames(s.Adapters); err != nil {
			return err
		}
	default:
		s.Adapters = nil
	}
	if s.Baseline != "" {
		if s.BaselineSHA256, err = baseline.FileSHA256(s.Baseline); err != nil {
			return fmt.Errorf("--baseline: %v", err)
		}
	}
	return nil
}

// adapterNames resolves adapter selectors to the full names of the
// adapters they pick, without opening them. With no selectors (the
// default adapter, wgpu's first Vulkan adapter of the system's drivers)
// only this process's wgpu adapters are listed, as harness/devices does:
// no node, deno or driver-set process starts for `gpudiff run`'s default.
func adapterNames(sels []string) ([]string, error) {
	list := harness.AllAdapters
	if len(sels) == 0 {
		list = harness.LocalAdapters
	}
	all, err := list()
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

// ParseShard parses a shard "I/N" (gpudiff run --shard, a journal's
// Shard): the run checks the program indices i with i % N == I. Errors:
// not two integers with 0 ≤ I < N.
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("shard %q is not I/N with 0 ≤ I < N", s)
	}
	return i, n, nil
}

// Resume returns the campaign that resuming the journal at path, whose
// header is h, continues: h, with the outputs (corpus, report, junit, html
// and the baseline's path) that given names taken from s, the Spec of the
// command line (validated). An option given whose value differs from h's,
// or a fault switch (GPUDIFF_FLATTEN_FAULT, GPUDIFF_WORKER_FAULT) set
// differently, is an error naming it.
func (s Spec) Resume(path string, given map[string]bool, h Spec) (Spec, error) {
	c := h
	c.Jobs = s.Jobs
	// The options a resume takes from the journal, each with the flag that
	// sets it (env: a fault switch's variable, compared whether given or
	// not): one given must agree with the journal.
	for _, o := range []struct {
		flag, env string
		give, was any
	}{
		{"seed", "", s.Seed, h.Seed},
		{"count", "", s.Count, h.Count},
		{"duration", "", s.Duration, h.Duration},
		{"size", "", s.Size, h.Size},
		{"profile", "", s.Profile, h.Profile},
		{"shard", "", s.Shard, h.Shard},
		{"mode", "", s.Mode, h.Mode},
		{"invocations", "", s.Invocations, h.Invocations},
		{"no-spirv", "", s.NoSPIRV, h.NoSPIRV},
		{"stage", "", s.Stage, h.Stage},
		{"no-gpu", "", s.NoGPU, h.NoGPU},
		{"adapter", "", s.Adapters, h.Adapters},
		{"timeout", "", s.Timeout, h.Timeout},
		{"max-steps", "", s.MaxSteps, h.MaxSteps},
		{"max-unroll-copies", "", s.MaxUnrollCopies, h.MaxUnrollCopies},
		{"max-unroll-nodes", "", s.MaxUnrollNodes, h.MaxUnrollNodes},
		{"whitelist", "", s.Whitelist, h.Whitelist},
		{"strict", "", s.Strict, h.Strict},
		{"shrink-attempts", "", s.ShrinkAttempts, h.ShrinkAttempts},
		{"baseline", "", s.BaselineSHA256, h.BaselineSHA256},
		{"project-findings", "", s.ProjectFindings, h.ProjectFindings},
		{"", flatten.FaultEnv, s.FlattenFault, h.FlattenFault},
		{"", worker.FaultEnv, s.WorkerFault, h.WorkerFault},
	} {
		if o.env == "" && !given[o.flag] {
			continue
		}
		g, _ := json.Marshal(o.give)
		w, _ := json.Marshal(o.was)
		if string(g) == string(w) {
			continue
		}
		if o.env != "" {
			return c, fmt.Errorf("%s=%s contradicts the resumed journal %s, whose campaign ran with %s=%s", o.env, o.give, path, o.env, o.was)
		}
		return c, fmt.Errorf("--%s=%v contradicts the resumed journal %s, whose campaign has --%s=%v (resume without the flag to continue it as it began)",
			o.flag, o.give, path, o.flag, o.was)
	}
	// The outputs: a flag given on resume redirects them.
	for _, o := range []struct {
		flag      string
		give, was *string
	}{
		{"baseline", &s.Baseline, &c.Baseline},
		{"corpus", &s.Corpus, &c.Corpus},
		{"report", &s.Report, &c.Report},
		{"junit", &s.JUnit, &c.JUnit},
		{"html", &s.HTML, &c.HTML},
	} {
		if given[o.flag] {
			*o.was = *o.give
		}
	}
	return c, nil
}

// Shards returns the validated Spec's shard: I and N of its "I/N".
func (s Spec) Shards() (shard, shards int) {
	shard, shards, _ = ParseShard(s.Shard)
	return shard, shards
}

// ShardPrograms is how many programs the validated Spec's shard checks
// (its share of Count); -1 when that is open-ended (a --duration
// campaign).
func (s Spec) ShardPrograms() int {
	if s.Count <= 0 {
		return -1
	}
	shard, shards := s.Shards()
	return (s.Count - shard + shards - 1) / shards
}

// Stages returns the pipeline stages of the validated Spec's GPU runs.
func (s Spec) Stages() []oracle.Stage {
	st := s.Stage
	if st == "" {
		st = string(oracle.StageCompute)
	}
	stages, _ := check.ParseStages(st)
	return stages
}

// Flatten and Interp are the options of flatten and the reference
// interpreter the campaign runs with (its limits, whitelist and --strict).
func (s Spec) Flatten() flatten.Options {
	return flatten.Options{MaxUnroll: s.MaxUnrollCopies, MaxUnrollNodes: s.MaxUnrollNodes, Whitelist: s.Whitelist, Strict: s.Strict}
}
func (s Spec) Interp() interp.Options { return interp.Options{MaxSteps: s.MaxSteps} }

// Run is one run of a campaign: its Spec (the command line's, or the
// resumed journal's), its known failures, and its journal, from Open to
// Close.
type Run struct {
	// Spec is the campaign this run continues or begins.
	Spec Spec
	// Baseline is the Spec's baseline, read (nil: none).
	Baseline *baseline.Set
	tool     string // the gpudiff of this run (the command line's Spec.Tool)
	journal  *Journal
	path     string // the journal's file ("" none)
	resumed  bool
	log      string // a new journal to create before the campaign starts
	prior    []ProgramRecord
	// Started is when the command began (zero: when Execute does): the
	// time from it to Execute — opening the devices, a few seconds for
	// every adapter's workers — counts against a Duration, so that the
	// command holds its --duration, not only the campaign.
	Started time.Time
}

// Open begins a run of the validated campaign spec: with resume (a
// journal's path) it continues the campaign journaled there (Resume: the
// campaign is then the journal's, its records are not checked again; a
// journal begun by another gpudiff version is warned about on warn), and
// with log it will journal a new campaign there (Execute creates it; one
// of the two at most). It reads the baseline, which a resumed campaign
// must find unchanged. Close the Run when done.
func Open(spec Spec, given map[string]bool, resume, log string, warn io.Writer) (*Run, error) {
	r := &Run{Spec: spec, tool: spec.Tool, log: log, path: log}
	if resume != "" {
		if log != "" {
			return nil, fmt.Errorf("--resume appends to its own journal; do not also give --log")
		}
		j, h, recs, _, err := OpenJournal(resume)
		if err != nil {
			return nil, fmt.Errorf("--resume: %v", err)
		}
		r.journal, r.prior, r.path, r.resumed = j, recs, resume, true
		if r.Spec, err = spec.Resume(resume, given, h); err != nil {
			r.Close()
			return nil, err
		}
		if h.Tool != spec.Tool {
			fmt.Fprintf(warn, "gpudiff run: warning: the campaign began with gpudiff %s, this is %s: records of a different build may differ\n", h.Tool, spec.Tool)
		}
	}
	c := r.Spec
	if _, err := gen.LookupProfile(c.Profile); err != nil {
		r.Close()
		return nil, fmt.Errorf("--profile: %v", err)
	}
	if c.Baseline != "" {
		if sum, err := baseline.FileSHA256(c.Baseline); err != nil || sum != c.BaselineSHA256 {
			r.Close()
			return nil, fmt.Errorf("--resume: the baseline %s is not the one the campaign began with (changed or gone since); give that one with --baseline, or begin a new campaign", c.Baseline)
		}
		b, err := baseline.ReadSignatures(c.Baseline)
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("--baseline: %v", err)
		}
		r.Baseline = b
	}
	if c.ProjectFindings {
		if r.Baseline == nil {
			r.Baseline = &baseline.Set{}
		}
		if err := r.Baseline.AddText(findings.KnownFile, findings.Known, nil); err != nil {
			r.Close()
			return nil, fmt.Errorf("internal error: %v", err) // the embedded list is checked by campaign's tests
		}
	}
	return r, nil
}

// UseAdapters records the adapters the campaign's devices were opened on
// (their full names, in order) and their drivers (harness.DriverRecords):
// a resumed campaign must run on the adapters it began with, and a driver
// changed since is noted on warn (its records then mix two driver
// versions); a new campaign records both.
func (r *Run) UseAdapters(names []string, drivers []harness.DriverRecord, warn io.Writer) error {
	if r.resumed && strings.Join(names, ",") != strings.Join(r.Spec.Adapters, ",") {
		return fmt.Errorf("--resume: the campaign ran on %s, this machine gives %s", strings.Join(r.Spec.Adapters, ", "), strings.Join(names, ", "))
	}
	r.Spec.Adapters = names
	if r.resumed {
		if ch := DriverChanges(r.Spec.Drivers, drivers); len(ch) > 0 {
			fmt.Fprintf(warn, "gpudiff run: note: the drivers changed since the campaign began (%s): the programs checked from now on run on the new ones\n", strings.Join(ch, "; "))
		}
	} else {
		r.Spec.Drivers = drivers
	}
	return nil
}

// UseDevices is UseAdapters for the devices the run opened: their names,
// with the drivers harness.DriverRecords lists for them. It returns the
// names.
func (r *Run) UseDevices(devs []check.Device, warn io.Writer) ([]string, error) {
	var names []string
	for _, d := range devs {
		names = append(names, d.Info().Name)
	}
	return names, r.UseAdapters(names, harness.DriverRecords(names), warn)
}

// DriverChanges lists, one phrase each, the adapters whose driver, driver
// version or WebGPU implementation version differs between before and now
// (records of harness.DriverRecords, by adapter), e.g.
// "wgpu-vulkan:llvmpipe: llvmpipe 22.3.6 → llvmpipe 23.0.1", or with a new
// implementation "wgpu-vulkan:llvmpipe: wgpu 0.19.4 (naga 0.19.2) → wgpu
// 29.0.1 (naga 29.0.3)" (both: harness.DriverRecord.Stack on each side).
// An implementation version absent on either side (a record written before
// gpudiff recorded it) is unknown, not a change. Adapters in only one of
// the lists are not changes (the adapter lists are compared elsewhere); nil
// when none.
func DriverChanges(before, now []harness.DriverRecord) []string {
	old := map[string]harness.DriverRecord{}
	for _, d := range before {
		old[d.Adapter] = d
	}
	var out []string
	for _, d := range now {
		o, ok := old[d.Adapter]
		if !ok {
			continue
		}
		driver := o.Driver != d.Driver || o.Version != d.Version
		impl := o.ImplementationVersion != "" && d.ImplementationVersion != "" && o.ImplementationVersion != d.ImplementationVersion
		switch {
		case driver && impl:
			out = append(out, fmt.Sprintf("%s: %s → %s", d.Adapter, o.Stack(), d.Stack()))
		case driver:
			out = append(out, fmt.Sprintf("%s: %s %s → %s %s", d.Adapter, o.Driver, o.Version, d.Driver, d.Version))
		case impl:
			out = append(out, fmt.Sprintf("%s: %s → %s", d.Adapter, o.ImplementationVersion, d.ImplementationVersion))
		}
	}
	return out
}

// BaselineDrivers reads the driver identities a baseline file recorded: a
// run --report JSON's "drivers", or a drivers --json report's adapters
// (driver_name, driver_version, implementation_version), for
// report.BaselineDriverNote. A text baseline, or a report written before
// drivers were recorded, has none (nil).
func BaselineDrivers(file string) []harness.DriverRecord {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var rep struct {
		Drivers  []harness.DriverRecord `json:"drivers"`
		Adapters json.RawMessage        `json:"adapters"`
	}
	if json.Unmarshal(data, &rep) != nil {
		return nil
	}
	if len(rep.Drivers) > 0 {
		return rep.Drivers
	}
	var adapters []struct {
		Name                  string `json:"name"`
		DriverName            string `json:"driver_name"`
		DriverVersion         string `json:"driver_version"`
		Implementation        string `json:"implementation"`
		ImplementationVersion string `json:"implementation_version"`
	}
	if json.Unmarshal(rep.Adapters, &adapters) != nil {
		return nil // run's adapters are a list of names
	}
	var out []harness.DriverRecord
	for _, a := range adapters {
		if a.DriverName != "" {
			out = append(out, harness.DriverRecord{Adapter: a.Name, Driver: a.DriverName, Version: a.DriverVersion,
				Implementation: a.Implementation, ImplementationVersion: a.ImplementationVersion})
		}
	}
	return out
}

// Journal is the file the run journals to ("" none): the new journal or
// the resumed one.
func (r *Run) Journal() string { return r.path }

// Execute runs the campaign (RunCampaign) on devs (nil with NoGPU),
// journaling each program's record when the run has a journal (creating a
// new one first), and hands each record to onProgram (nil: none). Errors:
// the journal cannot be created ("--log: …") or written ("journal: …"), or
// RunCampaign's setup failed.
func (r *Run) Execute(ctx context.Context, devs []check.Device, onProgram func(ProgramRecord)) (*Summary, error) {
	c := r.Spec
	if r.log != "" {
		j, err := CreateJournal(r.log, c)
		if err != nil {
			return nil, fmt.Errorf("--log: %v (use --resume to continue an existing journal)", err)
		}
		r.journal, r.log = j, ""
	}
	mode, _ := wgsl.ParseMode(c.Mode)
	shard, shards := c.Shards()
	prof, _ := gen.LookupProfile(c.Profile)
	cfg := Config{
		Seed: c.Seed, Count: c.Count, Duration: time.Duration(c.Duration), Stages: c.Stages(),
		Gen:         gen.Config{Size: c.Size, Profile: prof},
		Invocations: c.Invocations, Devices: devs, Mode: mode, SPIRV: !c.NoSPIRV, Flatten: c.Flatten(), Interp: c.Interp(),
		Shard: shard, Shards: shards, Corpus: c.Corpus, Baseline: r.Baseline,
		ShrinkAttempts: c.ShrinkAttempts, ToolVersion: r.tool, Prior: r.prior, Confirm: true,
	}
	var journalErr error
	cfg.OnProgram = func(rec ProgramRecord) {
		if r.journal != nil && journalErr == nil {
			journalErr = r.journal.Append(rec)
		}
		if onProgram != nil {
			onProgram(rec)
		}
	}
	if r.journal != nil {
		r.journal.Begin()
		cfg.Spent = r.journal.Spent()
	}
	if !r.Started.IsZero() {
		cfg.Spent += time.Since(r.Started)
	}
	sum, err := RunCampaign(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if r.journal != nil && journalErr == nil {
		journalErr = r.journal.Finish(!sum.Interrupted, sum.Interrupted)
	}
	if journalErr != nil {
		return nil, fmt.Errorf("journal: %v", journalErr)
	}
	return sum, nil
}

// Close closes the run's journal, if any.
func (r *Run) Close() {
	if r.journal != nil {
		r.journal.Close()
		r.journal = nil
	}
}
