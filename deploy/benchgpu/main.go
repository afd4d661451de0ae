// Command benchgpu is the one check of a GPU machine (`make bench-gpu`,
// issue 25): on any machine with a vendor GPU it measures, and prints in one
// table,
//
//   - each vendor adapter's driver and version (gpudiff adapters);
//   - the driver floor of each of wgpu's vendor adapters on 1 thread and on
//     N (the CPUs): campaign's BenchmarkGPUFloor, the modules gpudiff
//     submits for the programs created, dispatched and read back with
//     nothing of gpudiff around them (programs/s);
//   - `gpudiff run --jobs J` for J in 1, 4, 8, N on the first vendor
//     adapter: programs/s, the ratio to --jobs 1, and the ratio of --jobs N
//     to the N-thread floor;
//   - `gpudiff run --adapter all`: programs/s;
//   - `gpudiff repro` of every case file under GPUDIFF_BENCH_CASES (the
//     cases an earlier GPU machine saved, ../shared/cases/h100) on the
//     chosen adapters of the stack that recorded it (wgpu-gl for a case of
//     wgpu-gl:nvidia-h100-…): reproduces, no longer reproduces, or fails
//     differently, per case, with repro's own verdict line;
//   - one campaign per generator profile on the vendor adapters, all at once
//     (each with N/profiles jobs), for a fixed time: programs and distinct
//     bugs (signatures), split as run's report splits them: new, known (in
//     the baseline run uses by default, if any) and unconfirmed.
//
// It stops by itself: the whole check is bounded by GPUDIFF_BENCH_BUDGET
// (default 8m); a phase that would not fit is skipped and says so, a run
// that overruns is interrupted (SIGINT: gpudiff writes its report) and its
// figures are marked. Shader disk caches are off (MESA_SHADER_CACHE_DISABLE,
// __GL_SHADER_DISK_CACHE=0), so every module is compiled cold.
//
// With no vendor GPU (a CPU-only machine, this project's own), it measures
// the CPU adapters instead (GPUDIFF_BENCH_FALLBACK, default
// wgpu-vulkan:llvmpipe) and the table's title says so.
//
// Environment (durations in Go syntax, "2m"):
//
//	GPUDIFF            the gpudiff binary (default bin/gpudiff)
//	GPUDIFF_BENCH_TEST the campaign test binary (default bin/campaign.test,
//	                   built by `go test -c ./campaign`)
//	GPUDIFF_BENCH_BUDGET     whole check (8m)
//	GPUDIFF_BENCH_ADAPTERS   adapters, comma-separated (default: vendor ones)
//	GPUDIFF_BENCH_FLOOR_PROGRAMS  programs per floor measurement (200)
//	GPUDIFF_BENCH_RUN_PROGRAMS    programs per run --jobs J (300)
//	GPUDIFF_BENCH_JOBS       job counts, space-separated ("1 4 8 N")
//	GPUDIFF_BENCH_CAMPAIGN   time per profile campaign (2m)
//	GPUDIFF_BENCH_PROFILES   profiles, space-separated (every profile)
//	GPUDIFF_BENCH_SEED       first seed (1)
//	GPUDIFF_BENCH_CASES      case directories (or files), space-separated,
//	                         replayed with gpudiff repro; those that do not
//	                         exist are ignored ("shared/cases/h100
//	                         ../shared/cases/h100")
//
// Exit status: 0 when every phase ran, 1 when one failed or was skipped, 2
// when nothing could be measured (no gpudiff, no adapter).
package main

import (
	"bufio"
	"bytes"
	"context"
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
	"sync"
	"syscall"
	"time"

	"github.com/jedib0t/go-pretty/v6/table"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/fuzz/gen"
)

// profiles are gpudiff's generator profiles (gpudiff run --profile), all
// of fuzz/gen's, as run knows them.
func profiles() string {
	var names []string
	for _, p := range gen.Profiles() {
		names = append(names, p.Name)
	}
	return strings.Join(names, " ")
}

func env(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func envInt(k string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(k)); err == nil && n > 0 {
		return n
	}
	return def
}

func envDur(k string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(k)); err == nil && d > 0 {
		return d
	}
	return def
}

// adapter is what `gpudiff adapters --json` says of one adapter.
type adapter struct {
	Name                  string `json:"name"`
	Implementation        string `json:"implementation"`
	ImplementationVersion string `json:"implementation_version"`
	Backend               string `json:"backend"`
	Device                string `json:"device"`
	Vendor                string `json:"vendor"`
	Type                  string `json:"type"`
	Driver                string `json:"driver"`
	DriverVersion         string `json:"driver_version"`
	DriverInfo            string `json:"driver_info"`
}

// runReport is the part of run's --report JSON read here.
type runReport struct {
	Programs    int     `json:"programs"`
	PerSecond   float64 `json:"programs_per_second"`
	ElapsedMS   int64   `json:"elapsed_ms"`
	Interrupted bool    `json:"interrupted"`
	NewBugs     int     `json:"new_bugs"`
	KnownBugs   int     `json:"known_bugs"`
	FlakyBugs   int     `json:"unconfirmed_bugs"`
	Bugs        []struct {
		Signature string `json:"signature"`
		State     string `json:"state"`
		Adapter   string `json:"adapter"`
	} `json:"bugs"`
}

type checker struct {
	gpudiff, test string
	dir           string
	deadline      time.Time
	failed        bool
	t             table.Writer
}

func main() {
	start := time.Now()
	budget := envDur("GPUDIFF_BENCH_BUDGET", 8*time.Minute)
	c := &checker{
		gpudiff:  env("GPUDIFF", "bin/gpudiff"),
		test:     env("GPUDIFF_BENCH_TEST", "bin/campaign.test"),
		deadline: start.Add(budget),
	}
	for _, k := range []string{"MESA_SHADER_CACHE_DISABLE=true", "__GL_SHADER_DISK_CACHE=0"} {
		name, val, _ := strings.Cut(k, "=")
		if _, set := os.LookupEnv(name); !set {
			os.Setenv(name, val)
		}
	}
	dir, err := os.MkdirTemp("", "gpudiff-bench-gpu-")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(dir)
	c.dir = dir

	all, err := c.adapters()
	if err != nil {
		fatal(err)
	}
	n := runtime.NumCPU()
	chosen, vendor := pickAdapters(all, os.Getenv("GPUDIFF_BENCH_ADAPTERS"), env("GPUDIFF_BENCH_FALLBACK", "wgpu-vulkan:llvmpipe"))
	if len(chosen) == 0 {
		fatal(fmt.Errorf("no adapter to measure among %d (GPUDIFF_BENCH_ADAPTERS)", len(all)))
	}
	seed := envInt("GPUDIFF_BENCH_SEED", 1)
	campaignDur := envDur("GPUDIFF_BENCH_CAMPAIGN", 2*time.Minute)
	profs := strings.Fields(env("GPUDIFF_BENCH_PROFILES", profiles()))
	// The campaigns run last; what comes before must leave them their time
	// and a margin for their reports.
	reserve := campaignDur + campaignDur/4 + 15*time.Second

	c.t = table.NewWriter()
	c.t.SetOutputMirror(os.Stdout)
	c.t.SetStyle(table.StyleLight)
	what := "vendor GPU"
	if !vendor {
		what = "NO vendor GPU here: CPU adapters"
	}
	c.t.SetTitle(fmt.Sprintf("gpudiff bench-gpu — %s, %d CPUs, cold shader caches", what, n))
	c.t.AppendHeader(table.Row{"", "measure", "value", "ratio"})
	for _, a := range all {
		if slices.ContainsFunc(chosen, func(x adapter) bool { return x.Name == a.Name }) {
			c.t.AppendRow(table.Row{"driver", a.Name, fmt.Sprintf("%s %s (%s; %s; %s)", a.Driver, a.DriverVersion, a.DriverInfo, a.Device, a.ImplementationVersion), ""})
		}
	}

	// 1. The driver floor, 1 and N threads, of wgpu's chosen adapters.
	var wgpuNames []string
	for _, a := range chosen {
		if a.Implementation == "wgpu" {
			wgpuNames = append(wgpuNames, a.Name)
		}
	}
	floorN := map[string]float64{}
	if len(wgpuNames) > 0 {
		floorN = c.floor(wgpuNames, envInt("GPUDIFF_BENCH_FLOOR_PROGRAMS", 200), n, seed, reserve)
	}

	// 2. run --jobs J on the first chosen adapter.
	first := chosen[0].Name
	runN := envInt("GPUDIFF_BENCH_RUN_PROGRAMS", 300)
	var jobs []int
	for _, f := range strings.Fields(env("GPUDIFF_BENCH_JOBS", "1 4 8 N")) {
		j, err := strconv.Atoi(f)
		if f == "N" {
			j, err = n, nil
		}
		if err == nil && j > 0 && !slices.Contains(jobs, j) {
			jobs = append(jobs, j)
		}
	}
	var rate1 float64
	for k, j := range jobs {
		r, note := c.run(fmt.Sprintf("jobs%d", j), reserve, "--seed", strconv.Itoa(seed+100+k), "--count", strconv.Itoa(runN),
			"--jobs", strconv.Itoa(j), "--adapter", first, "--shrink-attempts", "0")
		label := fmt.Sprintf("run --jobs %d, %s", j, first)
		if r == nil {
			c.t.AppendRow(table.Row{"run", label, note, ""})
			continue
		}
		ratio := ""
		if k == 0 {
			rate1 = r.PerSecond
		} else if rate1 > 0 {
			ratio = fmt.Sprintf("%.2f× --jobs %d", r.PerSecond/rate1, jobs[0])
		}
		if j == n && floorN[first] > 0 {
			ratio = strings.TrimPrefix(ratio+fmt.Sprintf("; %.2f× the %d-thread floor", r.PerSecond/floorN[first], n), "; ")
		}
		c.t.AppendRow(table.Row{"run", label, fmt.Sprintf("%.2f programs/s (%d programs)%s", r.PerSecond, r.Programs, note), ratio})
	}

	// 3. run --adapter all.
	if r, note := c.run("all", reserve, "--seed", strconv.Itoa(seed+200), "--count", strconv.Itoa(runN), "--adapter", "all", "--shrink-attempts", "0"); r != nil {
		ratio := ""
		if rate1 > 0 {
			ratio = fmt.Sprintf("%.2f× --jobs %d on %s", r.PerSecond/rate1, jobs[0], first)
		}
		c.t.AppendRow(table.Row{"run", "run --adapter all", fmt.Sprintf("%.2f programs/s (%d programs)%s", r.PerSecond, r.Programs, note), ratio})
	} else {
		c.t.AppendRow(table.Row{"run", "run --adapter all", note, ""})
	}

	// 4. The saved cases (GPUDIFF_BENCH_CASES): do they still reproduce?
	c.cases(caseFiles(env("GPUDIFF_BENCH_CASES", "shared/cases/h100 ../shared/cases/h100")), chosen, reserve)

	// 5. One campaign per profile, all at once, on the chosen adapters.
	c.campaigns(profs, chosen, campaignDur, max(1, n/max(1, len(profs))), seed+300)

	c.t.SetCaption("%s", strings.Join([]string{
		fmt.Sprintf("floor: campaign's BenchmarkGPUFloor (harness.Device.RunBare: the modules gpudiff submits, original and twin, WGSL and SPIR-V), %d programs per measurement, N = %d threads, one device each;", envInt("GPUDIFF_BENCH_FLOOR_PROGRAMS", 200), n),
		fmt.Sprintf("run: gpudiff run --count %d --shrink-attempts 0, seeds %d+; campaigns: gpudiff run --duration %v per profile, all profiles at once, each --jobs %d, interrupted (SIGINT) if they overrun;", runN, seed+100, campaignDur, max(1, n/max(1, len(profs)))),
		fmt.Sprintf("done in %v of a %v budget; MESA_SHADER_CACHE_DISABLE=%s __GL_SHADER_DISK_CACHE=%s.", time.Since(start).Round(time.Second), budget, os.Getenv("MESA_SHADER_CACHE_DISABLE"), os.Getenv("__GL_SHADER_DISK_CACHE")),
	}, "\n"))
	c.t.Render()
	if c.failed {
		os.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "bench-gpu:", err)
	os.Exit(2)
}

func (c *checker) adapters() ([]adapter, error) {
	out, err := exec.Command(c.gpudiff, "adapters", "--json").Output()
	if err != nil {
		return nil, fmt.Errorf("%s adapters --json: %v (run make build)", c.gpudiff, err)
	}
	var all []adapter
	return all, json.Unmarshal(out, &all)
}

// pickAdapters returns the adapters named in list (comma-separated), else
// the vendor (non-CPU) adapters, else those of fallback; vendor reports
// whether they are vendor adapters.
func pickAdapters(all []adapter, list, fallback string) ([]adapter, bool) {
	var out []adapter
	if list != "" {
		for _, name := range strings.Split(list, ",") {
			for _, a := range all {
				if a.Name == strings.TrimSpace(name) {
					out = append(out, a)
				}
			}
		}
		return out, slices.ContainsFunc(out, func(a adapter) bool { return a.Type != "cpu" })
	}
	for _, a := range all {
		if a.Type == "discrete-gpu" || a.Type == "integrated-gpu" {
			out = append(out, a)
		}
	}
	if len(out) > 0 {
		return out, true
	}
	for _, name := range strings.Split(fallback, ",") {
		for _, a := range all {
			if a.Name == name {
				out = append(out, a)
			}
		}
	}
	return out, false
}

// left is the time left before the deadline, less reserve.
func (c *checker) left(reserve time.Duration) time.Duration {
	return time.Until(c.deadline) - reserve
}

// command runs name with args, interrupted by SIGINT when limit passes
// (killed 20 s later), and returns its output and whether it overran.
func command(limit time.Duration, extraEnv []string, name string, args ...string) ([]byte, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	cmd.WaitDelay = 20 * time.Second
	cmd.Env = append(os.Environ(), extraEnv...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.Bytes(), ctx.Err() != nil, err
}

// floor runs BenchmarkGPUFloor and adds its rows; it returns the N-thread
// floor per adapter (programs/s).
func (c *checker) floor(names []string, programs, n, seed int, reserve time.Duration) map[string]float64 {
	rates := map[string]float64{}
	limit := c.left(reserve)
	if limit < 10*time.Second {
		c.failed = true
		c.t.AppendRow(table.Row{"floor", strings.Join(names, ", "), "SKIPPED: no time left in the budget", ""})
		return rates
	}
	out, overran, err := command(limit, []string{
		"GPUDIFF_BENCH_ADAPTERS=" + strings.Join(names, ","), "GPUDIFF_BENCH_PROGRAMS=" + strconv.Itoa(programs),
		"GPUDIFF_BENCH_THREADS=" + strconv.Itoa(n), "GPUDIFF_BENCH_SEED=" + strconv.Itoa(seed),
	}, c.test, "-test.run", "^$", "-test.bench", "^BenchmarkGPUFloor$", "-test.benchtime", "1x")
	one := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 6 || f[0] != "floor" {
			continue
		}
		threads, _ := strconv.Atoi(f[2])
		progs, _ := strconv.Atoi(f[3])
		secs, _ := strconv.ParseFloat(f[4], 64)
		if secs <= 0 {
			continue
		}
		rate := float64(progs) / secs
		v := fmt.Sprintf("%.2f programs/s", rate)
		if f[5] != "0" {
			v += " (" + f[5] + " modules rejected)"
		}
		ratio := ""
		if threads == 1 {
			one[f[1]] = rate
		} else {
			rates[f[1]] = rate
			if one[f[1]] > 0 {
				ratio = fmt.Sprintf("%.2f× 1 thread", rate/one[f[1]])
			}
		}
		c.t.AppendRow(table.Row{"floor", fmt.Sprintf("driver floor, %s, %d thread(s)", f[1], threads), v, ratio})
	}
	if err != nil || overran || len(one) == 0 {
		c.failed = true
		msg := fmt.Sprintf("FAILED: %v", err)
		if overran {
			msg = "INTERRUPTED: past the budget"
		}
		c.t.AppendRow(table.Row{"floor", strings.Join(names, ", "), msg + ": " + lastLine(out), ""})
	}
	return rates
}

func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}

// run runs gpudiff run with args and --report, within what the budget
// leaves, and returns its report; when there is none, nil and why.
func (c *checker) run(tag string, reserve time.Duration, args ...string) (*runReport, string) {
	limit := c.left(reserve)
	if limit < 5*time.Second {
		c.failed = true
		return nil, "SKIPPED: no time left in the budget"
	}
	path := filepath.Join(c.dir, tag+".json")
	out, overran, err := command(limit, nil, c.gpudiff, append([]string{"run", "--report", path}, args...)...)
	r, rerr := readReport(path)
	if rerr != nil {
		c.failed = true
		return nil, fmt.Sprintf("FAILED: %v: %s", err, lastLine(out))
	}
	note := ""
	if overran || r.Interrupted {
		c.failed = true
		note = " INTERRUPTED at the budget"
	}
	return r, note
}

func readReport(path string) (*runReport, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r runReport
	return &r, json.Unmarshal(data, &r)
}

// campaigns runs one campaign per profile, all at once, and adds a row
// each.
func (c *checker) campaigns(profs []string, adapters []adapter, d time.Duration, jobs, seed int) {
	limit := min(d+d/4+10*time.Second, time.Until(c.deadline))
	if limit < d {
		c.failed = true
		c.t.AppendRow(table.Row{"campaign", strings.Join(profs, ", "), fmt.Sprintf("SKIPPED: %v left, campaigns need %v", time.Until(c.deadline).Round(time.Second), d), ""})
		return
	}
	type result struct {
		r    *runReport
		note string
	}
	results := make([]result, len(profs))
	var wg sync.WaitGroup
	for i, p := range profs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := filepath.Join(c.dir, "campaign-"+p+".json")
			args := []string{"run", "--report", path, "--seed", strconv.Itoa(seed + i), "--duration", d.String(),
				"--profile", p, "--jobs", strconv.Itoa(jobs)}
			for _, a := range adapters {
				args = append(args, "--adapter", a.Name)
			}
			out, overran, err := command(limit, nil, c.gpudiff, args...)
			r, rerr := readReport(path)
			switch {
			case rerr != nil:
				results[i] = result{note: fmt.Sprintf("FAILED: %v: %s", err, lastLine(out))}
			case overran:
				results[i] = result{r, " (INTERRUPTED: ran past its time, its report is the interrupted one)"}
			default:
				results[i] = result{r, ""}
			}
		}()
	}
	wg.Wait()
	total := map[string]bool{}
	for i, p := range profs {
		res := results[i]
		label := fmt.Sprintf("campaign --profile %s, %v", p, d)
		if res.r == nil {
			c.failed = true
			c.t.AppendRow(table.Row{"campaign", label, res.note, ""})
			continue
		}
		var sigs []string
		for _, b := range res.r.Bugs {
			total[b.Signature] = true
			if len(sigs) < 3 {
				sigs = append(sigs, b.Signature)
			}
		}
		more := ""
		if len(res.r.Bugs) > len(sigs) {
			more = fmt.Sprintf(", … %d more", len(res.r.Bugs)-len(sigs))
		}
		bugs := fmt.Sprintf("%d distinct bugs (%d new, %d known, %d unconfirmed)", len(res.r.Bugs), res.r.NewBugs, res.r.KnownBugs, res.r.FlakyBugs)
		if len(sigs) > 0 {
			bugs += ": " + strings.Join(sigs, ", ") + more
		}
		c.t.AppendRow(table.Row{"campaign", label, fmt.Sprintf("%d programs, %s%s", res.r.Programs, bugs, res.note),
			fmt.Sprintf("%.2f programs/s", res.r.PerSecond)})
	}
	c.t.AppendRow(table.Row{"campaign", "all profiles", fmt.Sprintf("%d distinct bugs", len(total)), ""})
}

// caseFiles returns the case files (*.wgsl, not README) under each of the
// space-separated directories or files in list, sorted, ignoring those
// that do not exist.
func caseFiles(list string) []string {
	var files []string
	for _, root := range strings.Fields(list) {
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".wgsl") {
				files = append(files, path)
			}
			return nil
		})
	}
	slices.Sort(files)
	return slices.Compact(files)
}

// replayAdapters returns the adapters of chosen that a case recorded on
// the adapters recorded should be replayed on: those of the same stack
// (the part of the name before ':', "wgpu-gl" for
// "wgpu-gl:nvidia-h100-80gb-hbm3-pcie-sse2"), else all of chosen.
func replayAdapters(recorded []string, chosen []adapter) []string {
	stacks := map[string]bool{}
	for _, r := range recorded {
		s, _, _ := strings.Cut(r, ":")
		stacks[s] = true
	}
	var same, all []string
	for _, a := range chosen {
		all = append(all, a.Name)
		if s, _, _ := strings.Cut(a.Name, ":"); stacks[s] {
			same = append(same, a.Name)
		}
	}
	if len(same) > 0 {
		return same
	}
	return all
}

// reproOutcome is what gpudiff repro's exit status says (README "Exit
// codes"): 0 no longer reproduces, 1 reproduces, 4 fails differently, 2
// the case is unreadable.
func reproOutcome(code int) string {
	switch code {
	case 0:
		return "no longer reproduces"
	case 1:
		return "REPRODUCES"
	case 4:
		return "fails differently"
	case 2:
		return "FAILED: unreadable case"
	}
	return fmt.Sprintf("FAILED: exit %d", code)
}

// cases replays each case file with gpudiff repro (bounded by what the
// budget leaves before reserve) and adds a row per case and a total.
func (c *checker) cases(files []string, chosen []adapter, reserve time.Duration) {
	if len(files) == 0 {
		return
	}
	counts := map[string]int{}
	for _, f := range files {
		label := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		limit := c.left(reserve)
		if limit < 10*time.Second {
			c.failed = true
			c.t.AppendRow(table.Row{"case", label, "SKIPPED: no time left in the budget", ""})
			counts["skipped"]++
			continue
		}
		var recorded []string
		if src, err := os.ReadFile(f); err == nil {
			if _, _, rec, err := testcase.ParseCaseFile(f, src); err == nil {
				for _, fr := range rec.Findings {
					recorded = append(recorded, fr.Adapter)
				}
			}
		}
		targets := replayAdapters(recorded, chosen)
		args := []string{"repro", f}
		for _, a := range targets {
			args = append(args, "--adapter", a)
		}
		out, overran, err := command(min(limit, 2*time.Minute), nil, c.gpudiff, args...)
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			code = -1
		}
		outcome := reproOutcome(code)
		if overran {
			outcome = "INTERRUPTED: ran past its time"
		}
		if strings.HasPrefix(outcome, "FAILED") || overran {
			c.failed = true
		}
		counts[outcome]++
		c.t.AppendRow(table.Row{"case", label, fmt.Sprintf("%s on %s: %s", outcome, strings.Join(targets, ", "), lastLine(out)), ""})
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
	}
	c.t.AppendRow(table.Row{"case", fmt.Sprintf("%d saved cases", len(files)), strings.Join(parts, ", "), ""})
}
