// Command findrate is `make bench-find` (issue 41): gpudiff's finding
// rate, the figure changes to the generators are judged by. For each
// generator profile it runs, one after another,
//
//	gpudiff run --seed S --duration D --adapter all --jobs J --profile P --report R --corpus C
//
// on every adapter present (--adapter all), with the project's own
// findings (findings/known.txt) as the known set, and prints one table:
//
//   - per profile: programs, the CPU time the campaign took (user + system
//     of gpudiff and of every worker process it started and waited for:
//     wait4's rusage, in CPU-seconds), its wall time, and its distinct
//     bugs (signatures, campaign.Bugs) split new / known / unconfirmed;
//   - per stack (the adapter a signature names; "gpudiff" for flatten's
//     and the reference's own classes) and per bug class (campaign's
//     BugClassTable: the classes a new signature's programs exercise):
//     new signatures;
//   - in total: new-to-the-project signatures (distinct over all
//     profiles) per CPU-hour, and programs per CPU-hour.
//
// Fixed seed, fixed budget: the same seed and duration on the same machine
// check the same programs as far as the budget reaches, so two builds of
// gpudiff (before and after a generator change) compare by the figure.
// GPUDIFF_BENCH_FIND_OUT writes the figures as JSON; with
// GPUDIFF_BENCH_FIND_BASE naming such a file from an earlier run, the
// table shows the change against it.
//
// Environment (durations in Go syntax):
//
//	GPUDIFF                      the gpudiff binary (bin/gpudiff)
//	GPUDIFF_BENCH_FIND_SEED      campaign seed (2028)
//	GPUDIFF_BENCH_FIND_DURATION  budget per profile (90s)
//	GPUDIFF_BENCH_FIND_PROFILES  profiles, space-separated (every profile but
//	                             refusal, whose programs leave flatten's
//	                             subset on purpose)
//	GPUDIFF_BENCH_FIND_JOBS      --jobs (the CPUs)
//	GPUDIFF_BENCH_FIND_ADAPTERS  --adapter values, space-separated (all)
//	GPUDIFF_BENCH_FIND_OUT       write the figures here as JSON
//	GPUDIFF_BENCH_FIND_BASE      compare with figures written before
//
// Exit status: 0 when every campaign ran and reported, 1 when one failed
// to (its row says why), 2 for a usage error (no gpudiff binary).
package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jedib0t/go-pretty/v6/table"

	campaignpkg "github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/fuzz/gen"
)

func env(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// report is the part of run's --report JSON read here.
type report struct {
	Programs    int   `json:"programs"`
	ElapsedMS   int64 `json:"elapsed_ms"`
	Interrupted bool  `json:"interrupted"`
	Bugs        []bug `json:"bugs"`
	// Classes is the report's per-bug-class table.
	Classes []classRow `json:"bug_classes"`
	// Failures are the failed programs' records: their bug classes.
	Failures []struct {
		Index      int      `json:"index"`
		BugClasses []string `json:"bug_classes"`
	} `json:"failures"`
	SlowCompiles []json.RawMessage `json:"slow_compiles"`
}

type bug struct {
	Signature string `json:"signature"`
	State     string `json:"state"`
	Class     string `json:"class"`
	Adapter   string `json:"adapter"`
	Programs  []int  `json:"programs"`
	Case      string `json:"case"`
}

type classRow struct {
	Class    string `json:"class"`
	Programs int    `json:"programs"`
}

// Figures is what one bench-find run measured (GPUDIFF_BENCH_FIND_OUT).
type Figures struct {
	Date     string          `json:"date"`
	Seed     int             `json:"seed"`
	Duration string          `json:"duration_per_profile"`
	Profiles []ProfileResult `json:"profiles"`
	// New are the distinct new signatures over every profile, and the
	// rates per CPU-hour.
	New             []string       `json:"new_signatures"`
	CPUSeconds      float64        `json:"cpu_seconds"`
	NewPerCPUHour   float64        `json:"new_per_cpu_hour"`
	ProgramsPerHour float64        `json:"programs_per_cpu_hour"`
	ByStack         map[string]int `json:"new_by_stack"`
	ByClass         map[string]int `json:"new_by_class"`
	ProgramsByClass map[string]int `json:"programs_by_class"`
}

// ProfileResult is one profile's campaign.
type ProfileResult struct {
	Profile      string   `json:"profile"`
	Programs     int      `json:"programs"`
	CPUSeconds   float64  `json:"cpu_seconds"`
	WallSeconds  float64  `json:"wall_seconds"`
	New          []string `json:"new"`
	Known        int      `json:"known"`
	Unconfirmed  int      `json:"unconfirmed"`
	SlowCompiles int      `json:"slow_compiles"`
	Error        string   `json:"error,omitempty"`
}

// stackOf is the stack a signature blames: its adapter (the second part),
// or "gpudiff" for a class with none (flatten's, the reference's).
func stackOf(b bug) string {
	if b.Adapter != "" {
		return b.Adapter
	}
	parts := strings.Split(b.Signature, "/")
	if len(parts) > 2 && strings.Contains(parts[1], ":") {
		return parts[1]
	}
	return "gpudiff"
}

// bugClassesOf returns the bug classes of b: those of its shrunk program,
// the case file the campaign saved under corpus (campaign.BugClasses of
// the case's kernel), else the union of the classes of its failed
// programs' records.
func bugClassesOf(r *report, corpus string, b bug) []string {
	if b.Case != "" {
		c, err := testcase.Load(filepath.Join(corpus, b.Case), testcase.LoadOptions{CaseFileOnly: true})
		if err == nil && c.Func != nil {
			return campaignpkg.BugClasses(c.Module, c.Func.Name)
		}
	}
	progs := map[int]bool{}
	for _, p := range b.Programs {
		progs[p] = true
	}
	set := map[string]bool{}
	for _, f := range r.Failures {
		if progs[f.Index] {
			for _, c := range f.BugClasses {
				set[c] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// campaign runs one profile's campaign and returns its report and CPU
// time.
func campaign(gpudiff, dir, profile string, seed int, d time.Duration, jobs int, adapters []string) (*report, float64, float64, error) {
	rep := filepath.Join(dir, profile+".json")
	args := []string{"run", "--seed", strconv.Itoa(seed), "--duration", d.String(), "--profile", profile,
		"--jobs", strconv.Itoa(jobs), "--report", rep, "--corpus", filepath.Join(dir, "corpus-"+profile)}
	for _, a := range adapters {
		args = append(args, "--adapter", a)
	}
	cmd := exec.Command(gpudiff, args...)
	cmd.Stdout, cmd.Stderr = nil, os.Stderr
	start := time.Now()
	// A campaign that finds bugs exits 1; only a missing report is a
	// failure here.
	runErr := cmd.Run()
	wall := time.Since(start).Seconds()
	cpu := 0.0
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru != nil {
		cpu = float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
	}
	data, err := os.ReadFile(rep)
	if err != nil {
		return nil, cpu, wall, fmt.Errorf("no report (%v): %v", runErr, err)
	}
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, cpu, wall, fmt.Errorf("%s: %v", rep, err)
	}
	return &r, cpu, wall, nil
}

func defaultProfiles() string {
	var names []string
	for _, p := range gen.Profiles() {
		if p.Name != "refusal" {
			names = append(names, p.Name)
		}
	}
	return strings.Join(names, " ")
}

func main() {
	gpudiff := env("GPUDIFF", "bin/gpudiff")
	if _, err := os.Stat(gpudiff); err != nil {
		fmt.Fprintf(os.Stderr, "bench-find: %v (run make build)\n", err)
		os.Exit(2)
	}
	seed, err := strconv.Atoi(env("GPUDIFF_BENCH_FIND_SEED", "2028"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench-find: GPUDIFF_BENCH_FIND_SEED: %v\n", err)
		os.Exit(2)
	}
	d, err := time.ParseDuration(env("GPUDIFF_BENCH_FIND_DURATION", "90s"))
	if err != nil || d <= 0 {
		fmt.Fprintf(os.Stderr, "bench-find: GPUDIFF_BENCH_FIND_DURATION: %v\n", err)
		os.Exit(2)
	}
	jobs, err := strconv.Atoi(env("GPUDIFF_BENCH_FIND_JOBS", strconv.Itoa(runtime.NumCPU())))
	if err != nil || jobs < 1 {
		fmt.Fprintf(os.Stderr, "bench-find: GPUDIFF_BENCH_FIND_JOBS: want a positive count\n")
		os.Exit(2)
	}
	profiles := strings.Fields(env("GPUDIFF_BENCH_FIND_PROFILES", defaultProfiles()))
	for _, p := range profiles {
		if _, err := gen.LookupProfile(p); err != nil {
			fmt.Fprintf(os.Stderr, "bench-find: GPUDIFF_BENCH_FIND_PROFILES: %v\n", err)
			os.Exit(2)
		}
	}
	adapters := strings.Fields(env("GPUDIFF_BENCH_FIND_ADAPTERS", "all"))
	var base *Figures
	if p := os.Getenv("GPUDIFF_BENCH_FIND_BASE"); p != "" {
		data, err := os.ReadFile(p)
		if err == nil {
			base = new(Figures)
			err = json.Unmarshal(data, base)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench-find: GPUDIFF_BENCH_FIND_BASE: %v\n", err)
			os.Exit(2)
		}
	}
	dir, err := os.MkdirTemp("", "gpudiff-bench-find-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-find:", err)
		os.Exit(2)
	}
	defer os.RemoveAll(dir)

	fig := Figures{Date: time.Now().UTC().Format(time.RFC3339), Seed: seed, Duration: d.String(),
		ByStack: map[string]int{}, ByClass: map[string]int{}, ProgramsByClass: map[string]int{}}
	failed := false
	newSet := map[string]bool{}
	programs := 0
	for _, p := range profiles {
		fmt.Fprintf(os.Stderr, "bench-find: --profile %s, %v ...\n", p, d)
		r, cpu, wall, err := campaign(gpudiff, dir, p, seed, d, jobs, adapters)
		res := ProfileResult{Profile: p, CPUSeconds: cpu, WallSeconds: wall}
		fig.CPUSeconds += cpu
		if err != nil {
			failed = true
			res.Error = err.Error()
			fig.Profiles = append(fig.Profiles, res)
			continue
		}
		res.Programs, res.SlowCompiles = r.Programs, len(r.SlowCompiles)
		programs += r.Programs
		for _, c := range r.Classes {
			fig.ProgramsByClass[c.Class] += c.Programs
		}
		for _, b := range r.Bugs {
			switch b.State {
			case "new":
				res.New = append(res.New, b.Signature)
				if !newSet[b.Signature] {
					newSet[b.Signature] = true
					fig.ByStack[stackOf(b)]++
					for _, c := range bugClassesOf(r, filepath.Join(dir, "corpus-"+p), b) {
						fig.ByClass[c]++
					}
				}
			case "known":
				res.Known++
			default:
				res.Unconfirmed++
			}
		}
		fig.Profiles = append(fig.Profiles, res)
	}
	fig.New = slices.Sorted(maps.Keys(newSet))
	if hours := fig.CPUSeconds / 3600; hours > 0 {
		fig.NewPerCPUHour = float64(len(fig.New)) / hours
		fig.ProgramsPerHour = float64(programs) / hours
	}
	render(&fig, base)
	if out := os.Getenv("GPUDIFF_BENCH_FIND_OUT"); out != "" {
		data, _ := json.MarshalIndent(fig, "", "  ")
		if err := os.WriteFile(out, append(data, '\n'), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "bench-find:", err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

// change is " (was B)" for a figure that differs from its base value.
func change[T cmp.Ordered](base *Figures, now T, was func(*Figures) T) string {
	if base == nil {
		return ""
	}
	if b := was(base); b != now {
		return fmt.Sprintf(" (was %v)", b)
	}
	return " (same)"
}

func render(fig *Figures, base *Figures) {
	t := table.NewWriter()
	t.SetOutputMirror(os.Stdout)
	t.SetStyle(table.StyleLight)
	t.SetTitle(fmt.Sprintf("gpudiff bench-find — seed %d, %s per profile, %d CPUs", fig.Seed, fig.Duration, runtime.NumCPU()))
	t.AppendHeader(table.Row{"", "", "programs", "CPU-s", "wall-s", "new", "known", "unconfirmed", "slow compiles"})
	baseProfile := func(p string) *ProfileResult {
		if base == nil {
			return nil
		}
		for i := range base.Profiles {
			if base.Profiles[i].Profile == p {
				return &base.Profiles[i]
			}
		}
		return nil
	}
	for _, p := range fig.Profiles {
		if p.Error != "" {
			t.AppendRow(table.Row{"profile", p.Profile, "FAILED: " + p.Error})
			continue
		}
		newCell := strconv.Itoa(len(p.New))
		if b := baseProfile(p.Profile); b != nil {
			newCell += fmt.Sprintf(" (was %d)", len(b.New))
		}
		t.AppendRow(table.Row{"profile", p.Profile, p.Programs, fmt.Sprintf("%.0f", p.CPUSeconds), fmt.Sprintf("%.0f", p.WallSeconds),
			newCell, p.Known, p.Unconfirmed, p.SlowCompiles})
	}
	t.AppendSeparator()
	for _, s := range slices.Sorted(maps.Keys(fig.ByStack)) {
		t.AppendRow(table.Row{"stack", s, "", "", "", strconv.Itoa(fig.ByStack[s]) + change(base, fig.ByStack[s], func(b *Figures) int { return b.ByStack[s] })})
	}
	t.AppendSeparator()
	classes := map[string]bool{}
	for c := range fig.ProgramsByClass {
		classes[c] = true
	}
	for c := range fig.ByClass {
		classes[c] = true
	}
	for _, c := range slices.Sorted(maps.Keys(classes)) {
		t.AppendRow(table.Row{"class", c, fig.ProgramsByClass[c], "", "",
			strconv.Itoa(fig.ByClass[c]) + change(base, fig.ByClass[c], func(b *Figures) int { return b.ByClass[c] })})
	}
	t.AppendSeparator()
	t.AppendRow(table.Row{"total", "new signatures (distinct)", "", fmt.Sprintf("%.0f", fig.CPUSeconds), "",
		strconv.Itoa(len(fig.New)) + change(base, len(fig.New), func(b *Figures) int { return len(b.New) })})
	t.AppendRow(table.Row{"total", "new per CPU-hour", "", "", "",
		fmt.Sprintf("%.1f", fig.NewPerCPUHour) + change(base, fmt.Sprintf("%.1f", fig.NewPerCPUHour), func(b *Figures) string { return fmt.Sprintf("%.1f", b.NewPerCPUHour) })})
	t.AppendRow(table.Row{"total", "programs per CPU-hour", fmt.Sprintf("%.0f", fig.ProgramsPerHour) +
		change(base, fmt.Sprintf("%.0f", fig.ProgramsPerHour), func(b *Figures) string { return fmt.Sprintf("%.0f", b.ProgramsPerHour) })})
	t.SetCaption("new: signatures the project's findings (findings/known.txt) do not know; CPU-s: user+system time of gpudiff and its workers (wait4); a class row counts programs that exercised it and new signatures whose programs exercised it.")
	t.Render()
	for _, s := range fig.New {
		fmt.Println("new:", s)
	}
}
