package shaders

import (
	"bufio"
	"cmp"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/harness"
	_ "github.com/gpudiff/gpudiff/harness/dawn" // registers Dawn and Deno with harness
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/oracle"
)

// updateFindings rewrites findings/reproduces.txt and the README's
// findings table from what TestFindings observed, instead of failing when
// they differ: `go test ./shaders -run TestFindings -update-findings`.
var updateFindings = flag.Bool("update-findings", false, "rewrite findings/reproduces.txt and README's findings table from this run")

// findingAdapters are the adapters TestFindings runs every finding on: the
// stacks of 2022–2024 that the findings were made on (wgpu 0.19.4 with
// naga 0.19.2; Mesa 22.3.6) and today's (naga 29 through Deno; Mesa 25
// from bookworm-backports; Dawn; SwiftShader), all present on every
// machine after `make deps`. A fixed list, not every adapter present, so
// the record means the same on a machine with a GPU.
var findingAdapters = []struct{ name, install string }{
	{"wgpu-vulkan:llvmpipe", "install mesa-vulkan-drivers (make deps)"},
	{"wgpu-vulkan:swiftshader", "install chromium, which ships SwiftShader's Vulkan ICD (make deps)"},
	{"wgpu-gl:llvmpipe", "install libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri (make deps)"},
	{"dawn-vulkan:swiftshader", "run make deps (npm ci installs Dawn's node binding; chromium ships SwiftShader)"},
	{"dawn-gl:llvmpipe", "run make deps (npm ci installs Dawn's node binding; libegl-dev, libegl-mesa0 and libgl1-mesa-dri give it llvmpipe GL)"},
	{"deno-vulkan:llvmpipe", "run make deps (npm ci installs the npm package deno)"},
	{"deno-vulkan:swiftshader", "run make deps (npm ci installs the npm package deno; chromium ships SwiftShader)"},
	{"deno-gl:llvmpipe", "run make deps (npm ci installs the npm package deno)"},
	{"wgpu-vulkan:llvmpipe-mesa25", "run make deps (it unpacks Mesa 25 from bookworm-backports into build/mesa25)"},
	{"wgpu-gl:llvmpipe-mesa25", "run make deps (it unpacks Mesa 25 from bookworm-backports into build/mesa25)"},
	{"dawn-vulkan:llvmpipe-mesa25", "run make deps (Mesa 25 in build/mesa25, Dawn's node binding)"},
	{"dawn-gl:llvmpipe-mesa25", "run make deps (Mesa 25 in build/mesa25, Dawn's node binding)"},
	{"deno-vulkan:llvmpipe-mesa25", "run make deps (Mesa 25 in build/mesa25, the npm package deno)"},
	{"deno-gl:llvmpipe-mesa25", "run make deps (Mesa 25 in build/mesa25, the npm package deno)"},
}

// legacyAdapters are the five adapters each finding's implicates function
// was derived on: there every run it does not implicate must still pass.
var legacyAdapters = map[string]bool{
	"wgpu-vulkan:llvmpipe": true, "wgpu-vulkan:swiftshader": true, "wgpu-gl:llvmpipe": true,
	"dawn-vulkan:swiftshader": true, "dawn-gl:llvmpipe": true,
}

// currentStack reports whether an adapter is a current release end to end:
// a current WGSL compiler (Tint through Dawn, naga 29 through Deno) on a
// current driver (Mesa 25, SwiftShader).
func currentStack(adapter string) bool {
	impl, _, device, _ := harness.NameParts(adapter)
	return (impl == "dawn" || impl == "deno") && (strings.HasSuffix(device, "-mesa25") || device == "swiftshader")
}

// openFindingDevices opens findingAdapters: wgpu's in worker processes,
// Dawn's and Deno's through their own workers. A missing adapter fails the
// test with how to install it.
func openFindingDevices(t *testing.T) []check.Device {
	var devs []check.Device
	for _, a := range findingAdapters {
		var d check.Device
		var closer func()
		if strings.HasPrefix(a.name, "wgpu-") {
			w, err := worker.Start(a.name, worker.Options{})
			require.NoError(t, err, "%s is needed: %s", a.name, a.install)
			d, closer = w, w.Close
		} else {
			r, err := harness.OpenAny(a.name)
			require.NoError(t, err, "%s is needed: %s", a.name, a.install)
			d, closer = r, r.Close
		}
		require.Equal(t, a.name, d.Info().Name)
		t.Cleanup(closer)
		devs = append(devs, d)
	}
	return devs
}

// reproRun is one run of a finding that does not pass: the adapter, the
// format (wgsl or spirv) and whether it ran the original or the twin.
type reproRun struct {
	adapter, format, function string
}

func (r reproRun) String() string { return r.adapter + " " + r.format + " " + r.function }

// observations collects, per finding (its path under findings/), the runs
// that did not pass.
type observations struct {
	mu   sync.Mutex
	runs map[string][]reproRun
	seen map[string]bool
}

func newObservations() *observations {
	return &observations{runs: map[string][]reproRun{}, seen: map[string]bool{}}
}

// add records the runs of finding (e.g. "compute/x.wgsl") that did not
// pass: every verdict but pass, indeterminate (nothing differed) and
// unsupported (nothing was tested).
func (o *observations) add(finding string, runs []oracle.Judged, twin string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seen[finding] = true
	for _, r := range runs {
		if r.Adapter == "interp" || r.Verdict == oracle.Pass || r.Verdict == oracle.VIndeterminate || r.Verdict == oracle.Unsupported {
			continue
		}
		fn := "original"
		if r.Function == twin {
			fn = "twin"
		}
		o.runs[finding] = append(o.runs[finding], reproRun{r.Adapter, string(r.Format), fn})
	}
}

const reproducesFile = "../findings/reproduces.txt"

// readRecord parses findings/reproduces.txt: per line, a finding, an
// adapter, a format and original or twin; # comments.
func readRecord(t *testing.T) map[string][]reproRun {
	f, err := os.Open(reproducesFile)
	if os.IsNotExist(err) && *updateFindings {
		return map[string][]reproRun{}
	}
	require.NoError(t, err)
	defer f.Close()
	out := map[string][]reproRun{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		require.Len(t, fs, 4, "%s:%d: want FINDING ADAPTER FORMAT original|twin", reproducesFile, n)
		out[fs[0]] = append(out[fs[0]], reproRun{fs[1], fs[2], fs[3]})
	}
	require.NoError(t, sc.Err())
	return out
}

func sortRuns(rs []reproRun) []reproRun {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b reproRun) int {
		return cmp.Or(cmp.Compare(a.adapter, b.adapter), cmp.Compare(a.format, b.format), cmp.Compare(a.function, b.function))
	})
	return slices.Compact(rs)
}

// check compares what was observed with findings/reproduces.txt: a
// finding that stops reproducing somewhere, or starts, fails until the
// record says so (or, with -update-findings, rewrites it and README's
// table).
func (o *observations) check(t *testing.T) {
	rec := readRecord(t)
	var findingsSeen []string
	for f := range o.seen {
		findingsSeen = append(findingsSeen, f)
	}
	slices.Sort(findingsSeen)
	if *updateFindings {
		writeRecord(t, findingsSeen, o.runs)
		writeREADMETable(t, findingsSeen, o.runs)
		return
	}
	for f := range rec {
		require.True(t, o.seen[f], "%s records %s, which TestFindings did not run", reproducesFile, f)
	}
	for _, f := range findingsSeen {
		got, want := sortRuns(o.runs[f]), sortRuns(rec[f])
		if slices.Equal(got, want) {
			continue
		}
		var gone, started []string
		for _, r := range want {
			if !slices.Contains(got, r) {
				gone = append(gone, r.String())
			}
		}
		for _, r := range got {
			if !slices.Contains(want, r) {
				started = append(started, r.String())
			}
		}
		t.Errorf("%s: where it reproduces changed (the record is %s; if this is the stacks changing, "+
			"update it with `go test ./shaders -run TestFindings -update-findings` and say so in findings/README.md):\n"+
			"  no longer fails: %v\n  now fails: %v", f, reproducesFile, gone, started)
	}
	require.NoError(t, checkREADMETable(findingsSeen, rec), "README's findings table (go test ./shaders -run TestFindings -update-findings rewrites it)")
}

func writeRecord(t *testing.T, findings []string, runs map[string][]reproRun) {
	var b strings.Builder
	b.WriteString(`# Where each finding under findings/ reproduces: one line per run that does
# not pass (FINDING ADAPTER FORMAT original|twin), on the adapters
# TestFindings opens (shaders/findings_record_test.go: the stacks the
# findings were made on, wgpu 0.19.4 / naga 0.19.2 and Mesa 22.3.6, and
# today's: naga 29 through Deno, Mesa 25, Dawn, SwiftShader). A finding
# with no line passes everywhere. TestFindings fails when a run leaves or
# joins this list; rewrite it with
#   go test ./shaders -run TestFindings -update-findings
# and say why in findings/README.md.
`)
	for _, f := range findings {
		for _, r := range sortRuns(runs[f]) {
			fmt.Fprintf(&b, "%s %s %s %s\n", f, r.adapter, r.format, r.function)
		}
	}
	require.NoError(t, os.WriteFile(reproducesFile, []byte(b.String()), 0o644))
}

const (
	readmeFile       = "../README.md"
	tableBegin       = "<!-- findings-status: generated by go test ./shaders -run TestFindings -update-findings -->"
	tableEnd         = "<!-- findings-status end -->"
	readmeTableTitle = "| finding | on today's stacks | where the original still fails |"
)

// findingsTable renders the README's table: per finding whether it still
// reproduces on a current release (currentStack) and where its original
// fails.
func findingsTable(findings []string, runs map[string][]reproRun) string {
	var b strings.Builder
	b.WriteString(readmeTableTitle + "\n|---|---|---|\n")
	for _, f := range findings {
		var where []string
		current, spirvOnly := false, len(runs[f]) > 0
		for _, r := range sortRuns(runs[f]) {
			if r.function != "original" {
				continue
			}
			where = append(where, r.adapter+" "+r.format)
			current = current || currentStack(r.adapter)
			spirvOnly = spirvOnly && r.format == "spirv"
		}
		where = slices.Compact(where)
		status := "passes on every adapter (see findings/README.md)"
		switch {
		case current:
			status = "**still present**"
		case spirvOnly:
			status = "not testable on naga 29 (gpudiff's SPIR-V: Deno takes WGSL only)"
		case len(where) > 0:
			status = "not on today's stacks (Dawn or naga 29 on Mesa 25 / SwiftShader)"
		}
		if len(where) == 0 {
			where = []string{"—"}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f, status, strings.Join(where, ", "))
	}
	return b.String()
}

func readmeParts() (before, table, after string, err error) {
	b, err := os.ReadFile(readmeFile)
	if err != nil {
		return "", "", "", err
	}
	s := string(b)
	i, j := strings.Index(s, tableBegin), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		return "", "", "", fmt.Errorf("%s has no %q … %q block", readmeFile, tableBegin, tableEnd)
	}
	return s[:i+len(tableBegin)], s[i+len(tableBegin) : j], s[j:], nil
}

func writeREADMETable(t *testing.T, findings []string, runs map[string][]reproRun) {
	before, _, after, err := readmeParts()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(readmeFile, []byte(before+"\n"+findingsTable(findings, runs)+after), 0o644))
}

func checkREADMETable(findings []string, rec map[string][]reproRun) error {
	_, table, _, err := readmeParts()
	if err != nil {
		return err
	}
	if want := findingsTable(findings, rec); strings.TrimSpace(table) != strings.TrimSpace(want) {
		return fmt.Errorf("README's findings table is not the record's:\n%s", want)
	}
	return nil
}

// TestCurrentStack pins which adapters count as today's releases in the
// README's findings table.
func TestCurrentStack(t *testing.T) {
	for name, want := range map[string]bool{
		"deno-vulkan:llvmpipe-mesa25": true, "deno-vulkan:swiftshader": true, "dawn-gl:llvmpipe-mesa25": true,
		"dawn-vulkan:swiftshader": true, "deno-vulkan:llvmpipe": false, "wgpu-vulkan:llvmpipe-mesa25": false,
		"wgpu-vulkan:swiftshader": false, "dawn-gl:llvmpipe": false,
	} {
		if currentStack(name) != want {
			t.Errorf("currentStack(%s) = %v, want %v", name, !want, want)
		}
	}
}
