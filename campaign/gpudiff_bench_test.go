package campaign

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jedib0t/go-pretty/v6/table"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/fuzz/shrink"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/internal/benchkit"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// BenchmarkGpudiff is `make bench`: one table of gpudiff's throughput
// against the driver floor, measured side by side in one run, as ratios
// (ARCHITECTURE.md "Measuring speed here"):
//
//	a. the driver floor per adapter: exactly the modules gpudiff submits for
//	   the programs (original and twin, WGSL and SPIR-V, one module per
//	   function and format, as Execute emits them), created, dispatched
//	   and read back by harness.Device.RunBare in this process: programs/s;
//	b. gpudiff end to end on the same programs per adapter — RunCampaign
//	   (generate, interpret original and twin, flatten, emit, GPU original
//	   and twin in WGSL and SPIR-V, judge) on a worker process, as `gpudiff
//	   run` runs, without shrinking: programs/s, and (b)/(a);
//	c. the campaign on two adapters at once against the two campaigns one
//	   after the other: (time A + time B) / time A∥B;
//	d. the interpreter: ns per executed IR operation (interp.CountOps) on a
//	   generated-like kernel, and its ratio to the same kernel in Go, both
//	   in thread CPU time, alternated;
//	e. flatten: time and output growth of one function of 1,000 and 10,000
//	   statements (flatten's own benchmark pattern).
//
// a, b and c run in rounds, alternating which goes first, and sum over
// them, so that a shared machine's load drifts into all of them alike.
// Shader caches: Mesa's on-disk cache makes a module compiled before ~8×
// cheaper (campaign programs are always new); the benchmark turns it off
// (MESA_SHADER_CACHE_DISABLE=true, set in TestMain unless the caller set
// it) and says so in its output: cold. SwiftShader has no such cache.
//
// Environment: GPUDIFF_BENCH_PROGRAMS (default 150: the batch tuner's first units try both ways, which a nightly run amortizes over thousands), GPUDIFF_BENCH_SEED (1),
// GPUDIFF_BENCH_ROUNDS (2), GPUDIFF_BENCH_ADAPTERS (comma-separated,
// default wgpu-vulkan:llvmpipe,wgpu-vulkan:swiftshader; c uses the first
// two), GPUDIFF_BENCH_BATCH (Config.BatchPrograms: 0 the default, 1 never batch).
func BenchmarkGpudiff(b *testing.B) {
	n := benchEnvInt("GPUDIFF_BENCH_PROGRAMS", 150)
	seed := uint64(benchEnvInt("GPUDIFF_BENCH_SEED", 1))
	rounds := benchEnvInt("GPUDIFF_BENCH_ROUNDS", 2)
	adapters := strings.Split(benchEnv("GPUDIFF_BENCH_ADAPTERS", "wgpu-vulkan:llvmpipe,wgpu-vulkan:swiftshader"), ",")
	prof, err := gen.LookupProfile("default")
	if err != nil {
		b.Fatal(err)
	}
	cfg := Config{Seed: seed, Count: n, Gen: gen.Config{Size: gen.DefaultSize, Profile: prof}, Invocations: 16,
		SPIRV: true, ShrinkAttempts: -1, ToolVersion: "bench", BatchPrograms: benchEnvInt("GPUDIFF_BENCH_BATCH", 0)}
	cache := "cold: MESA_SHADER_CACHE_DISABLE=" + os.Getenv("MESA_SHADER_CACHE_DISABLE") + ", every module compiled from scratch"
	if os.Getenv("MESA_SHADER_CACHE_DISABLE") != "true" {
		cache = "WARM: Mesa's shader cache is on (MESA_SHADER_CACHE_DISABLE is not true): repeated modules compile ~8× faster"
	}

	for range b.N {
		// The CPU-only measures first, before any driver is loaded: a
		// driver's idle thread pools (SwiftShader's spin before they
		// sleep) share the cores with the measuring thread.
		interpNs, nativeNs, ops := benchInterp(b)
		flat := benchFlatten(b)
		kernels, jobs := submittedModules(cfg, n)

		devs := map[string]*harness.Device{}
		workers := map[string]*worker.Device{}
		for _, a := range adapters {
			d, err := harness.Open(a)
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			devs[a] = d
			w, err := worker.Start(a, worker.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			workers[a] = w
		}
		floor := map[string]time.Duration{}
		e2e := map[string]time.Duration{}
		var both time.Duration
		var bothBusy, bothTotal uint64 // CPU ticks while both ran (/proc/stat)
		rejected := map[string]int{}
		campaign := func(ds ...check.Device) time.Duration {
			c := cfg
			c.Devices = ds
			t0 := time.Now()
			sum, err := RunCampaign(context.Background(), c)
			if err != nil {
				b.Fatal(err)
			}
			if sum.Programs != n {
				b.Fatalf("campaign checked %d programs, want %d", sum.Programs, n)
			}
			return time.Since(t0)
		}
		for r := 0; r < rounds; r++ {
			for _, a := range adapters {
				floorRun := func() {
					t0 := time.Now()
					_, errs := devs[a].RunBare(context.Background(), kernels, jobs)
					floor[a] += time.Since(t0)
					rejected[a] = 0
					for _, err := range errs {
						if err != nil {
							rejected[a]++
						}
					}
				}
				if r%2 == 0 {
					floorRun()
					e2e[a] += campaign(workers[a])
				} else {
					e2e[a] += campaign(workers[a])
					floorRun()
				}
			}
			if len(adapters) >= 2 {
				b0, t0 := cpuTicks()
				both += campaign(workers[adapters[0]], workers[adapters[1]])
				b1, t1 := cpuTicks()
				bothBusy += b1 - b0
				bothTotal += t1 - t0
			}
		}

		t := table.NewWriter()
		t.SetOutputMirror(os.Stdout)
		t.SetStyle(table.StyleLight)
		t.SetTitle("gpudiff bench — " + cache)
		t.AppendHeader(table.Row{"", "measure", "value", "target", "met"})
		rate := func(d time.Duration) float64 { return float64(n*rounds) / d.Seconds() }
		for _, a := range adapters {
			v := fmt.Sprintf("%.2f programs/s", rate(floor[a]))
			if rejected[a] > 0 {
				v += fmt.Sprintf(" (%d modules rejected)", rejected[a])
			}
			t.AppendRow(table.Row{"a", "driver floor, " + a, v, "", ""})
		}
		for _, a := range adapters {
			ratio := rate(e2e[a]) / rate(floor[a])
			t.AppendRow(table.Row{"b", "end to end, " + a, fmt.Sprintf("%.2f programs/s = %.2f × (a)", rate(e2e[a]), ratio),
				"≥ 0.9 × (a)", met(ratio >= 0.9)})
		}
		var speedup float64
		if len(adapters) >= 2 {
			a0, a1 := adapters[0], adapters[1]
			speedup = (e2e[a0] + e2e[a1]).Seconds() / both.Seconds()
			// Even with a core per adapter, the pair ends when the slower
			// campaign does: (A + B) / max(A, B) is the most it can be.
			bound := (e2e[a0] + e2e[a1]).Seconds() / max(e2e[a0], e2e[a1]).Seconds()
			// What bounds the pair is the slower driver: the parallel
			// campaign cannot end before that adapter's bare dispatches
			// of the same modules (its floor, (a)) do. both / that floor
			// near 1 says the remaining cost is the driver's, not
			// gpudiff's (issue 26 (c)).
			slow := a0
			if floor[a1] > floor[a0] {
				slow = a1
			}
			t.AppendRow(table.Row{"c", "two adapters in parallel, " + short(a0) + " ∥ " + short(a1),
				fmt.Sprintf("%.2f programs/s = %.2f× one after the other (at most %.2f× for these two without sharing the reference; the pair takes %.2f× %s's driver floor)",
					rate(both), speedup, bound, both.Seconds()/floor[slow].Seconds(), short(slow)), "≥ 1.7×", met(speedup >= 1.7)})
		}
		t.AppendRow(table.Row{"d", "interpreter, per executed IR operation",
			fmt.Sprintf("%.2f ns = %.1f× native Go (%.3f ns)", interpNs, interpNs/nativeNs, nativeNs), "≤ 10×", met(interpNs/nativeNs <= 10)})
		timeX := flat[1].cpu.Seconds() / flat[0].cpu.Seconds()
		wallX := flat[1].time.Seconds() / flat[0].time.Seconds()
		stmtsX := float64(flat[1].in) / float64(flat[0].in)
		grow0, grow1 := float64(flat[0].out)/float64(flat[0].in), float64(flat[1].out)/float64(flat[1].in)
		noGCX := flat[1].noGC.Seconds() / flat[0].noGC.Seconds()
		t.AppendRow(table.Row{"e", "flatten, 1k → 10k statements",
			fmt.Sprintf("CPU time ×%.1f (%v → %v; collector off ×%.1f; wall ×%.1f, %v → %v), allocations ×%.1f, for ×%.1f statements; output ×%.2f → ×%.2f", timeX,
				flat[0].cpu.Round(100*time.Microsecond), flat[1].cpu.Round(time.Millisecond), noGCX,
				wallX, flat[0].time.Round(100*time.Microsecond), flat[1].time.Round(time.Millisecond),
				float64(flat[1].allocs)/float64(flat[0].allocs), stmtsX, grow0, grow1),
			"linear", met(timeX/stmtsX <= 1.5 && grow1 <= 1.25*grow0)})
		t.SetCaption("%s", strings.Join([]string{
			fmt.Sprintf("%d programs of seed %d (size %d, %d invocations each; %d shader modules, original and twin in WGSL and SPIR-V), %d rounds alternating which goes first;",
				n, seed, gen.DefaultSize, cfg.Invocations, len(kernels), rounds),
			fmt.Sprintf("%d CPUs, load average %s (a shared machine: compare the ratios, not the rates, across runs).", runtime.NumCPU(), loadAverage()),
			"a: harness.Device.RunBare in this process, one module per function and format, buffers reused;",
			"b: RunCampaign on a worker process (gpudiff run's path) without shrinking: pipelined, programs batched per module where the device measures that it pays;",
			fmt.Sprintf("c: (time of b on %s + time of b on %s) / time of one campaign on both; the machine's CPUs were %.0f%% busy during it (/proc/stat, every process);",
				short(adapters[0]), short(adapters[min(1, len(adapters)-1)]), 100*float64(bothBusy)/float64(max(bothTotal, 1))),
			fmt.Sprintf("d: thread CPU time, median run, interp's BenchmarkInterp kernel, %d operations per run of 64 invocations (interp.CountOps);", ops),
			fmt.Sprintf("e: %d → %d and %d → %d statements (flatten's BenchmarkFlatten10kStatements pattern); linear: time per statement within 1.5× and growth within 1.25× from 1k to 10k; CPU time: the process's (getrusage, every thread, the collector's included), best run, judged rather than wall time, which on a shared machine holds other processes' time slices (a 10k run's always, a 1k run's rarely); allocations count the work independently of CPU caches (the 10k twin's working set outgrows L2); collector off: the same runs with Go's collector disabled (what remains is the algorithm and the memory hierarchy).",
				flat[0].in, flat[0].out, flat[1].in, flat[1].out),
		}, "\n"))
		t.Render()
	}
}

func met(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT MET"
}

func short(adapter string) string {
	if i := strings.IndexByte(adapter, ':'); i >= 0 {
		return adapter[i+1:]
	}
	return adapter
}

func benchEnv(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func benchEnvInt(key string, def int) int {
	v, err := strconv.Atoi(benchEnv(key, strconv.Itoa(def)))
	if err != nil || v < 1 {
		return def
	}
	return v
}

// cpuTicks reads the machine's busy and total CPU time from /proc/stat
// (clock ticks, all CPUs): busy is everything but idle and iowait.
func cpuTicks() (busy, total uint64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	for i, v := range f[1:] {
		x, _ := strconv.ParseUint(v, 10, 64)
		total += x
		if i != 3 && i != 4 { // idle, iowait
			busy += x
		}
	}
	return busy, total
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// benchInterp returns the interpreter's and native Go's thread CPU time
// per IR operation on benchkit.KernelWGSL (64 invocations per run, runs
// alternated until about a second of interpreter time; the median run of
// each), and the operations per run.
func benchInterp(b *testing.B) (interpNs, nativeNs float64, ops int64) {
	m, err := wgsl.Parse("bench.wgsl", []byte(benchkit.KernelWGSL))
	if err != nil {
		b.Fatal(err)
	}
	type in struct {
		a int32
		b uint32
		c float32
		v [4]float32
	}
	r := rand.New(rand.NewSource(1))
	var ins []in
	var args [][]ir.Value
	v4 := ir.Vec(4, ir.F32)
	for k := 0; k < 64; k++ {
		x := in{a: r.Int31() - 1<<30, b: r.Uint32(), c: float32(r.Intn(2000) - 1000)}
		vs := make([]ir.Value, 4)
		for j := range x.v {
			x.v[j] = float32(r.Intn(8000) - 4000)
			vs[j] = ir.F32Val(x.v[j])
		}
		ins = append(ins, x)
		args = append(args, []ir.Value{ir.I32Val(x.a), ir.U32Val(x.b), ir.F32Val(x.c), ir.CompositeVal(v4, vs...)})
	}
	p, err := interp.Compile(m, "k")
	if err != nil {
		b.Fatal(err)
	}
	invs, err := p.Run(args, interp.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for k, inv := range invs {
		want := benchkit.Native(ins[k].a, ins[k].b, ins[k].c, ins[k].v)
		for j := range want {
			if inv.Err != nil || inv.Outputs[0].Value.Elems[j].F32() != want[j] {
				b.Fatalf("interpreter and native Go disagree on invocation %d: %v vs %v", k, inv.Outputs[0], want)
			}
		}
	}
	if ops, err = interp.CountOps(m, "k", args); err != nil {
		b.Fatal(err)
	}
	now, release := benchkit.ThreadClock()
	defer release()
	var ti time.Duration
	var its, nts []time.Duration
	var sink float32
	for iters := 0; ti < time.Second || iters < 20; iters++ {
		t0 := now()
		if _, err := p.Run(args, interp.Options{}); err != nil {
			b.Fatal(err)
		}
		t1 := now()
		for _, x := range ins {
			r := benchkit.Native(x.a, x.b, x.c, x.v)
			sink += r[0]
		}
		t2 := now()
		ti += t1 - t0
		its, nts = append(its, t1-t0), append(nts, t2-t1)
	}
	_ = sink
	// The median run of each: a shared machine's interference (another
	// tenant, a GC cycle's assist) lands on some runs, not on the typical.
	median := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)/2].Nanoseconds())
	}
	return median(its) / float64(ops), median(nts) / float64(ops), ops
}

type flatMeasure struct {
	in, out int
	// cpu is the best process CPU time of a run (user + system, every
	// thread: the collector's workers included), the measure the row
	// judges: on a shared machine a run's wall time also holds the other
	// processes' time slices, which a 15 ms run often escapes and a
	// 200 ms one never does.
	cpu    time.Duration
	time   time.Duration // the best wall time of a run
	allocs uint64        // heap allocations of one run (runtime.MemStats.Mallocs)
	// noGC is the best process CPU time of a run with the collector off
	// (debug.SetGCPercent(-1)): the algorithm's cost without the
	// collector's, whose work per allocation grows with the live heap.
	noGC time.Duration
}

// processCPU is the process's CPU time so far (getrusage(RUSAGE_SELF):
// user + system, every thread).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchFlatten flattens one function of about 1,000 and of about 10,000
// statements (the best of 7 and of 5 runs, each from a collected heap) and
// counts the statements in and out.
func benchFlatten(b *testing.B) [2]flatMeasure {
	var out [2]flatMeasure
	parse := func(reps int) *ir.Module {
		m, err := wgsl.Parse("big.wgsl", []byte(bigKernelWGSL(reps)))
		if err != nil {
			b.Fatal(err)
		}
		return m
	}
	one, two := shrink.Stmts(parse(1), "big"), shrink.Stmts(parse(2), "big")
	per, base := two-one, 2*one-two
	for s, stmts := range []int{1000, 10000} {
		m := parse((stmts - base + per/2) / per)
		out[s].in = shrink.Stmts(m, "big")
		for rep := 0; rep < 7-2*s; rep++ {
			c := ir.CloneModule(m)
			runtime.GC() // every run starts from the same collected heap
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			c0, t0 := processCPU(), time.Now()
			tw, err := flatten.Function(c, "big", flatten.Options{})
			d, cd := time.Since(t0), processCPU()-c0
			runtime.ReadMemStats(&ms1)
			out[s].allocs = ms1.Mallocs - ms0.Mallocs
			if err != nil {
				b.Fatal(err)
			}
			if out[s].time == 0 || d < out[s].time {
				out[s].time = d
			}
			if out[s].cpu == 0 || cd < out[s].cpu {
				out[s].cpu = cd
			}
			out[s].out = shrink.Stmts(c, tw.Name)
			c = ir.CloneModule(m)
			runtime.GC()
			old := debug.SetGCPercent(-1)
			c0 = processCPU()
			_, err = flatten.Function(c, "big", flatten.Options{})
			d = processCPU() - c0
			debug.SetGCPercent(old)
			if err != nil {
				b.Fatal(err)
			}
			if out[s].noGC == 0 || d < out[s].noGC {
				out[s].noGC = d
			}
		}
	}
	return out
}

// bigKernelWGSL is flatten's BenchmarkFlatten10kStatements pattern as
// WGSL, repeated reps times:
// accumulations, an if/else writing in both arms, a write through a
// run-time index, a fixed loop, a switch, and an early return under a
// data-dependent condition.
func bigKernelWGSL(reps int) string {
	var sb strings.Builder
	sb.WriteString("fn big(x: f32, k: i32, a: array<i32, 8>) -> f32 {\n  var s = 0.0f; var t = 1.0f; var c = 0i; var hist: array<i32, 8>;\n")
	for rep := 0; rep < reps; rep++ {
		r := float32(rep%7) + 0.5
		fmt.Fprintf(&sb, "  s = s + x * %gf;\n", r)
		fmt.Fprintf(&sb, "  if (s > t) { t = s - t; c += 1i; } else { t = max(t, %gf); }\n", r)
		sb.WriteString("  hist[(k + c) & 7i] += 1i;\n")
		fmt.Fprintf(&sb, "  for (var i%d = 0i; i%d < 2i; i%d++) { c += a[i%d + %di]; }\n", rep, rep, rep, rep, rep%6)
		sb.WriteString("  switch (c & 3i) { case 0i: { s = s * 0.5f; } case 1i: { c -= 1i; } default: { } }\n")
		fmt.Fprintf(&sb, "  if (c > %di) { return s; }\n", 1000+rep)
	}
	sb.WriteString("  return s + t;\n}\n")
	return sb.String()
}

// submittedModules are the modules gpudiff submits for the first n
// programs of cfg, one per function and path, with their dispatches.
func submittedModules(cfg Config, n int) ([]harness.Kernel, []harness.Dispatch) {
	var kernels []harness.Kernel
	var jobs []harness.Dispatch
	for i := 0; i < n; i++ {
		pr := startProgram(cfg, i)
		if pr.done {
			continue
		}
		x := pr.x
		for f := range x.Functions() {
			for _, p := range x.Paths() {
				if k, err := x.Kernel(f, p); err == nil {
					kernels = append(kernels, k)
					jobs = append(jobs, x.Dispatch(f, p.Stage))
				}
			}
		}
	}
	return kernels, jobs
}
