// Command instructions is `make bench-instructions`: rows (d) and (e) of
// `make bench` counted in machine instructions and simulated cache misses
// rather than timed, under Valgrind's cachegrind. The counts are the same
// on every run of the same binaries, so an interpreter or flatten change
// can be judged on a shared machine whose timings drift by ±5% from one
// minute to the next. They are a proxy: at equal counts, time still
// depends on branch prediction and on how many instructions the core
// retires per cycle, so a change is confirmed with `make bench`.
//
// Usage:
//
//	instructions -interp bin/interp.test -flatten bin/flatten.test
//
// where the binaries are `go test -c` of ./interp and ./flatten. Each
// benchmark runs twice with different b.N under cachegrind, and every
// figure is the difference of the two runs divided by the difference of
// their b.N: the per-run cost, without the process's start, the parse
// and the compilation.
//
//   - (d): interp's BenchmarkInterpRowD (benchkit.KernelWGSL, 64
//     invocations per run, alternated with benchkit.Native): instructions
//     per executed IR operation of the interpreter (every instruction of
//     the run but benchkit.Native's) and of native Go (benchkit.Native's),
//     their ratio, and the source lines that execute the most of the
//     interpreter's (code inlined into execAt counted at its own line).
//   - (e): flatten's BenchmarkFlatten1kStatements and
//     BenchmarkFlatten10kStatements: instructions, first-level data-cache
//     misses and last-level misses per input statement, with the last
//     level simulated as this machine's L2 (sysfs cpu0 cache index2; the
//     level the 10k twin's working set outgrows), and each one's growth
//     from 1k to 10k statements (linear: ×1.0).
//
// Exit status: 0 when it measured, 1 when a run failed, 2 for a usage
// error or when valgrind is missing (Debian package valgrind).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
)

func main() {
	interpBin := flag.String("interp", "", "`go test -c ./interp` binary")
	flattenBin := flag.String("flatten", "", "`go test -c ./flatten` binary")
	flag.Parse()
	if *interpBin == "" || *flattenBin == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: instructions -interp INTERP_TEST_BINARY -flatten FLATTEN_TEST_BINARY")
		os.Exit(2)
	}
	for _, bin := range []string{*interpBin, *flattenBin} {
		if _, err := os.Stat(bin); err != nil {
			fmt.Fprintf(os.Stderr, "instructions: %v (build it with go test -c)\n", err)
			os.Exit(2)
		}
	}
	if _, err := exec.LookPath("valgrind"); err != nil {
		fmt.Fprintln(os.Stderr, "instructions: valgrind is missing: install the Debian package valgrind (make bench-instructions does)")
		os.Exit(2)
	}
	dir, err := os.MkdirTemp("", "gpudiff-instructions")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)

	t := table.NewWriter()
	t.SetOutputMirror(os.Stdout)
	t.AppendHeader(table.Row{"row", "what", "instructions (cachegrind)"})

	// (d)
	lo, hi := 100, 300
	d0, err := run(dir, *interpBin, "^BenchmarkInterpRowD$", lo, nil)
	if err != nil {
		fail(err)
	}
	d1, err := run(dir, *interpBin, "^BenchmarkInterpRowD$", hi, nil)
	if err != nil {
		fail(err)
	}
	ops, err := metric(d1.stdout, "IR-ops/run")
	if err != nil {
		fail(err)
	}
	runs := float64(hi - lo)
	isNative := func(fn string) bool { return strings.HasSuffix(fn, "benchkit.Native") }
	native := (d1.sumFn(isNative) - d0.sumFn(isNative)) / runs
	interp := (d1.total[0]-d0.total[0])/runs - native
	t.AppendRow(table.Row{"d", "per executed IR operation",
		fmt.Sprintf("interpreter %.1f, native Go %.1f: %.1f× (%.0f operations per run)", interp/ops, native/ops, interp/native, ops)})
	type share struct {
		at fileLine
		ir float64
	}
	var shares []share
	for at, v := range d1.byLine {
		if isNative(at.fn) {
			continue
		}
		if x := (v - d0.byLine[at]) / runs; x > 0 {
			shares = append(shares, share{at, x})
		}
	}
	slices.SortFunc(shares, func(a, b share) int {
		if a.ir != b.ir {
			if a.ir > b.ir {
				return -1
			}
			return 1
		}
		return strings.Compare(a.at.String(), b.at.String())
	})
	var top []string
	for _, s := range shares[:min(12, len(shares))] {
		top = append(top, fmt.Sprintf("%4.1f%%  %s  %s", 100*s.ir/interp, s.at, sourceLine(s.at.file, s.at.line)))
	}
	t.AppendRow(table.Row{"d", "the interpreter's, by source line\n(inlined code at its own line)", strings.Join(top, "\n")})

	// (e)
	llSize, llWays := l2()
	cacheArgs := []string{"--cache-sim=yes"}
	llDesc := "cachegrind's own choice"
	if llSize > 0 {
		cacheArgs = append(cacheArgs, fmt.Sprintf("--LL=%d,%d,64", llSize, llWays))
		llDesc = fmt.Sprintf("this machine's L2, %d KiB %d-way", llSize>>10, llWays)
	}
	type flat struct{ ir, d1, ll, stmts float64 }
	var fl [2]flat
	// b.N so that the difference holds about 35 MB of allocation (the
	// 1k twin's 1.8 MB a run, the 10k twin's 20 MB): several collector
	// cycles either way, whose work lands in whole cycles.
	for k, fb := range []struct {
		bench  string
		lo, hi int
	}{{"^BenchmarkFlatten1kStatements$", 4, 24}, {"^BenchmarkFlatten10kStatements$", 2, 4}} {
		a, err := run(dir, *flattenBin, fb.bench, fb.lo, cacheArgs)
		if err != nil {
			fail(err)
		}
		b, err := run(dir, *flattenBin, fb.bench, fb.hi, cacheArgs)
		if err != nil {
			fail(err)
		}
		n, err := statements(b.stdout)
		if err != nil {
			fail(err)
		}
		diff := func(ev ...string) float64 {
			x := 0.0
			for _, e := range ev {
				x += b.event(e) - a.event(e)
			}
			return x / float64(fb.hi-fb.lo)
		}
		fl[k] = flat{ir: diff("Ir"), d1: diff("D1mr", "D1mw"), ll: diff("DLmr", "DLmw"), stmts: n}
	}
	per := func(f flat, x float64) float64 { return x / f.stmts }
	grow := func(get func(flat) float64) string {
		return fmt.Sprintf("%.0f → %.0f (×%.2f per statement)", per(fl[0], get(fl[0])), per(fl[1], get(fl[1])),
			per(fl[1], get(fl[1]))/per(fl[0], get(fl[0])))
	}
	t.AppendRow(table.Row{"e", fmt.Sprintf("flatten, %.0f → %.0f statements: instructions per statement", fl[0].stmts, fl[1].stmts), grow(func(f flat) float64 { return f.ir })})
	t.AppendRow(table.Row{"e", "first-level data-cache misses per statement", grow(func(f flat) float64 { return f.d1 })})
	t.AppendRow(table.Row{"e", "last-level misses per statement (" + llDesc + ")", grow(func(f flat) float64 { return f.ll })})
	t.SetCaption("%s", "valgrind --tool=cachegrind; each figure: (run with the larger b.N) − (run with the smaller), per run (d: b.N 300 and 100; e: 24 and 4 at 1k statements, 4 and 2 at 10k).\n"+
		"d: every instruction of interp's BenchmarkInterpRowD but benchkit.Native's (the interpreter: Program.Run, its outputs, the thread clock) and benchkit.Native's, per interp.CountOps operation.\n"+
		"e: flatten's BenchmarkFlatten{1k,10k}Statements (the collector's work included); linear is ×1.00 per statement.")
	t.Render()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "instructions:", err)
	os.Exit(1)
}

// l2 is cpu0's level-2 cache size (bytes) and associativity from sysfs,
// or 0, 0.
func l2() (size, ways int) {
	read := func(name string) string {
		b, _ := os.ReadFile("/sys/devices/system/cpu/cpu0/cache/index2/" + name)
		return strings.TrimSpace(string(b))
	}
	if read("level") != "2" {
		return 0, 0
	}
	s := read("size")
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"):
		s, mult = strings.TrimSuffix(s, "K"), 1<<10
	case strings.HasSuffix(s, "M"):
		s, mult = strings.TrimSuffix(s, "M"), 1<<20
	}
	n, err1 := strconv.Atoi(s)
	w, err2 := strconv.Atoi(read("ways_of_associativity"))
	if err1 != nil || err2 != nil || n <= 0 || w <= 0 {
		return 0, 0
	}
	return n * mult, w
}

// profile is one cachegrind run: its events, the program's totals, the
// instructions (the first event, Ir) per source line, and the
// benchmark's standard output.
type profile struct {
	events []string
	total  []float64
	byLine map[fileLine]float64
	stdout []byte
}

// fileLine is a source line, and the function its instructions ran in.
type fileLine struct {
	file, fn string
	line     int
}

func (l fileLine) String() string { return fmt.Sprintf("%s:%d", filepath.Base(l.file), l.line) }

// sourceLine is line n of file, its spaces trimmed and cut to 70
// characters ("" when unreadable).
func sourceLine(file string, n int) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	lines := strings.Split(string(b), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	l := strings.Join(strings.Fields(lines[n-1]), " ")
	if r := []rune(l); len(r) > 70 {
		l = string(r[:69]) + "…"
	}
	return l
}

// event is the program's total of the named event (0 when not recorded).
func (p *profile) event(name string) float64 {
	if i := slices.Index(p.events, name); i >= 0 && i < len(p.total) {
		return p.total[i]
	}
	return 0
}

// sumFn sums the instructions of the functions keep accepts.
func (p *profile) sumFn(keep func(string) bool) float64 {
	x := 0.0
	for k, v := range p.byLine {
		if keep(k.fn) {
			x += v
		}
	}
	return x
}

// run runs benchmark bench of test binary bin with b.N = n under
// cachegrind (extra: more cachegrind options; none: instructions only)
// on one P (-test.cpu 1) and reads its output file.
func run(dir, bin, bench string, n int, extra []string) (*profile, error) {
	out := filepath.Join(dir, fmt.Sprintf("cachegrind.%d", n))
	args := []string{"--tool=cachegrind", "--cachegrind-out-file=" + out}
	if extra == nil {
		args = append(args, "--cache-sim=no")
	}
	args = append(args, extra...)
	args = append(args, bin, "-test.run", "^$", "-test.bench", bench, "-test.benchtime", fmt.Sprintf("%dx", n), "-test.cpu", "1", "-test.v")
	cmd := exec.Command("valgrind", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("valgrind %s: %v\n%s%s", strings.Join(args, " "), err, stdout.Bytes(), stderr.Bytes())
	}
	f, err := os.Open(out)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := parseProfile(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", out, err)
	}
	p.stdout = stdout.Bytes()
	return p, nil
}

// parseProfile reads a cachegrind output file (valgrind 3.19's format:
// "events:", "fl=" and "fn=" lines, "LINE COUNT…" lines, "summary:").
func parseProfile(r io.Reader) (*profile, error) {
	p := &profile{byLine: map[fileLine]float64{}}
	var cur fileLine
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "events:"):
			p.events = strings.Fields(strings.TrimPrefix(line, "events:"))
		case strings.HasPrefix(line, "summary:"):
			p.total = numbers(strings.Fields(strings.TrimPrefix(line, "summary:")))
		case strings.HasPrefix(line, "fl="):
			cur.file = strings.TrimPrefix(line, "fl=")
		case strings.HasPrefix(line, "fn="):
			cur.fn = strings.TrimPrefix(line, "fn=")
		case line != "" && line[0] >= '0' && line[0] <= '9':
			fs := strings.Fields(line)
			if n, err := strconv.Atoi(fs[0]); err == nil && len(fs) > 1 {
				cur.line = n
				p.byLine[cur] += numbers(fs[1:2])[0]
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(p.total) == 0 || len(p.events) == 0 {
		return nil, fmt.Errorf("no events or summary line (not a cachegrind output file?)")
	}
	return p, nil
}

func numbers(fs []string) []float64 {
	out := make([]float64, len(fs))
	for i, f := range fs {
		out[i], _ = strconv.ParseFloat(f, 64)
	}
	return out
}

// metric reads a benchmark metric (the number before unit) from go
// test's output.
func metric(out []byte, unit string) (float64, error) {
	m := regexp.MustCompile(`([0-9.e+]+) ` + regexp.QuoteMeta(unit) + `\b`).FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("no %q metric in the benchmark's output:\n%s", unit, out)
	}
	return strconv.ParseFloat(string(m[1]), 64)
}

// statements reads the input's statement count that flatten's benchmarks
// log ("input: N statements").
func statements(out []byte) (float64, error) {
	m := regexp.MustCompile(`input: (\d+) statements`).FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("no \"input: N statements\" line in the benchmark's output:\n%s", out)
	}
	return strconv.ParseFloat(string(m[1]), 64)
}
