package campaign

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jedib0t/go-pretty/v6/table"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness/devices"
)

// BenchmarkGpudiffJobs is `make bench`'s worker-pool row (issue 15 item
// 2): gpudiff end to end (RunCampaign as `gpudiff run` runs it, without
// shrinking) on one adapter with --jobs 1 and --jobs 2 (1 and 2 worker
// processes, harness/devices.Options.Jobs), measured in one run, in
// rounds alternating which goes first, and the ratio of their programs/s
// (target ≥ 1.6× on lavapipe on a 2-core machine). Cold, as
// BenchmarkGpudiff: Mesa's shader cache off (TestMain). It reports
// jobs1-programs/s, jobs2-programs/s and jobs2/jobs1 (b.ReportMetric),
// the ratio of the summed times and the min and median of the per-round
// ratios.
//
// Environment: GPUDIFF_BENCH_PROGRAMS (default 90 programs per campaign),
// GPUDIFF_BENCH_SEED (1), GPUDIFF_BENCH_ROUNDS (default 3),
// GPUDIFF_BENCH_JOBS_ADAPTER (wgpu-vulkan:llvmpipe), GPUDIFF_BENCH_JOBS (the
// larger N, default 2).
func BenchmarkGpudiffJobs(b *testing.B) {
	n := benchEnvInt("GPUDIFF_BENCH_PROGRAMS", 90)
	seed := uint64(benchEnvInt("GPUDIFF_BENCH_SEED", 1))
	rounds := benchEnvInt("GPUDIFF_BENCH_ROUNDS", 3)
	adapter := benchEnv("GPUDIFF_BENCH_JOBS_ADAPTER", "wgpu-vulkan:llvmpipe")
	jobs := benchEnvInt("GPUDIFF_BENCH_JOBS", 2)
	prof, err := gen.LookupProfile("default")
	if err != nil {
		b.Fatal(err)
	}
	cache := "cold: MESA_SHADER_CACHE_DISABLE=" + os.Getenv("MESA_SHADER_CACHE_DISABLE")
	if os.Getenv("MESA_SHADER_CACHE_DISABLE") != "true" {
		cache = "WARM: Mesa's shader cache is on (MESA_SHADER_CACHE_DISABLE is not true)"
	}
	for range b.N {
		var sets [2]devices.Set
		for k, j := range []int{1, jobs} {
			s, err := devices.Open([]string{adapter}, devices.Options{Jobs: j})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			sets[k] = s
		}
		campaign := func(d check.Device, round int) time.Duration {
			// Every round its own programs: a round never meets a
			// module an earlier one compiled (whatever the caches).
			cfg := Config{Seed: seed + uint64(round), Count: n, Gen: gen.Config{Size: gen.DefaultSize, Profile: prof},
				Invocations: 16, SPIRV: true, ShrinkAttempts: -1, ToolVersion: "bench", Devices: []check.Device{d}}
			t0 := time.Now()
			sum, err := RunCampaign(context.Background(), cfg)
			if err != nil {
				b.Fatal(err)
			}
			if sum.Programs != n {
				b.Fatalf("campaign checked %d programs, want %d", sum.Programs, n)
			}
			return time.Since(t0)
		}
		// Warm-up (not measured): each device's first dispatches cost
		// extra, and the pair of runs below should start alike.
		campaign(sets[0][0], -1)
		campaign(sets[1][0], -2)
		var total [2]time.Duration
		var ratios []float64
		for r := range rounds {
			var d [2]time.Duration
			order := []int{0, 1}
			if r%2 == 1 {
				order = []int{1, 0}
			}
			for _, k := range order {
				d[k] = campaign(sets[k][0], r)
			}
			total[0] += d[0]
			total[1] += d[1]
			ratios = append(ratios, d[0].Seconds()/d[1].Seconds())
		}
		sort.Float64s(ratios)
		rate := func(d time.Duration) float64 { return float64(n*rounds) / d.Seconds() }
		ratio := total[0].Seconds() / total[1].Seconds()
		b.ReportMetric(rate(total[0]), "jobs1-programs/s")
		b.ReportMetric(rate(total[1]), fmt.Sprintf("jobs%d-programs/s", jobs))
		b.ReportMetric(ratio, fmt.Sprintf("jobs%d/jobs1", jobs))
		b.ReportMetric(ratios[0], "min-round-ratio")
		b.ReportMetric(ratios[len(ratios)/2], "median-round-ratio")

		t := table.NewWriter()
		t.SetOutputMirror(os.Stdout)
		t.SetStyle(table.StyleLight)
		t.SetTitle("gpudiff bench, worker pools — " + cache)
		t.AppendHeader(table.Row{"", "measure", "value", "target", "met"})
		t.AppendRow(table.Row{"f", "--jobs 1, " + adapter, fmt.Sprintf("%.2f programs/s", rate(total[0])), "", ""})
		t.AppendRow(table.Row{"g", fmt.Sprintf("--jobs %d, %s", jobs, adapter),
			fmt.Sprintf("%.2f programs/s = %.2f× --jobs 1 (rounds: min %.2f×, median %.2f×)", rate(total[1]), ratio, ratios[0], ratios[len(ratios)/2]),
			"≥ 1.6× (2 jobs, 2 CPUs)", met(ratio >= 1.6)})
		t.SetCaption("%s", strings.Join([]string{
			fmt.Sprintf("%d programs per campaign (seed %d + round), %d rounds alternating which goes first, after one unmeasured campaign each; RunCampaign without shrinking on 1 and %d worker processes of %s (devices.Open with Jobs);",
				n, seed, rounds, jobs, adapter),
			fmt.Sprintf("%d CPUs, load average %s (a shared machine: compare the ratio, not the rates, across runs).", runtime.NumCPU(), loadAverage()),
		}, "\n"))
		t.Render()
	}
}
