package campaign

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness"
)

// BenchmarkGPUFloor is the driver floor of deploy/benchgpu (`make
// bench-gpu`, issue 25): for each adapter, the modules gpudiff submits for
// GPUDIFF_BENCH_PROGRAMS programs (original and twin, WGSL and SPIR-V, as
// BenchmarkGpudiff's (a)) created, dispatched and read back by
// harness.Device.RunBare, first on 1 thread (one device), then on
// GPUDIFF_BENCH_THREADS threads (one device each, the programs dealt out
// round-robin). Each measurement uses programs of its own seed, so no
// module is compiled twice (Mesa's and NVIDIA's disk caches aside: the
// caller turns those off). It prints one line per measurement,
//
//	floor ADAPTER THREADS PROGRAMS SECONDS REJECTED
//
// (programs/s = PROGRAMS / SECONDS; REJECTED counts modules the stack
// refused), which deploy/benchgpu reads, and reports the rates as metrics.
//
// Environment: GPUDIFF_BENCH_ADAPTERS (comma-separated full names, default
// wgpu-vulkan:llvmpipe; wgpu's adapters only), GPUDIFF_BENCH_PROGRAMS
// (default 100), GPUDIFF_BENCH_THREADS (default the number of CPUs),
// GPUDIFF_BENCH_SEED (default 1).
func BenchmarkGPUFloor(b *testing.B) {
	n := benchEnvInt("GPUDIFF_BENCH_PROGRAMS", 100)
	threads := benchEnvInt("GPUDIFF_BENCH_THREADS", runtime.NumCPU())
	seed := uint64(benchEnvInt("GPUDIFF_BENCH_SEED", 1))
	adapters := strings.Split(benchEnv("GPUDIFF_BENCH_ADAPTERS", "wgpu-vulkan:llvmpipe"), ",")
	prof, err := gen.LookupProfile("default")
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		for ai, a := range adapters {
			for ti, t := range []int{1, threads} {
				cfg := Config{Seed: seed + uint64(2*ai+ti)*1000003, Count: n, Gen: gen.Config{Size: gen.DefaultSize, Profile: prof},
					Invocations: 16, SPIRV: true, ShrinkAttempts: -1, ToolVersion: "bench"}
				secs, rejected := floorThreads(b, a, cfg, n, t)
				fmt.Fprintf(os.Stdout, "floor %s %d %d %.3f %d\n", a, t, n, secs, rejected)
				b.ReportMetric(float64(n)/secs, fmt.Sprintf("%s-%dthreads-programs/s", a, t))
			}
		}
	}
}

// floorThreads runs the modules of cfg's first n programs on t devices of
// adapter a at once, program i on device i mod t, and returns the wall time
// from the first dispatch to the last readback (devices opened before) and
// how many modules were rejected.
func floorThreads(b *testing.B, a string, cfg Config, n, t int) (float64, int) {
	type work struct {
		ks   []harness.Kernel
		jobs []harness.Dispatch
	}
	per := make([]work, t)
	for i := range n {
		ks, jobs := submittedModulesOf(cfg, i)
		per[i%t].ks = append(per[i%t].ks, ks...)
		per[i%t].jobs = append(per[i%t].jobs, jobs...)
	}
	devs := make([]*harness.Device, t)
	for i := range devs {
		d, err := harness.Open(a)
		if err != nil {
			b.Fatal(err)
		}
		defer d.Close()
		devs[i] = d
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	rejected := 0
	t0 := time.Now()
	for i, d := range devs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs := d.RunBare(context.Background(), per[i].ks, per[i].jobs)
			mu.Lock()
			defer mu.Unlock()
			for _, err := range errs {
				if err != nil {
					rejected++
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(t0).Seconds(), rejected
}

// submittedModulesOf are the modules gpudiff submits for program i of cfg
// (submittedModules for one program).
func submittedModulesOf(cfg Config, i int) ([]harness.Kernel, []harness.Dispatch) {
	var kernels []harness.Kernel
	var jobs []harness.Dispatch
	pr := startProgram(cfg, i)
	if pr.done {
		return nil, nil
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
	return kernels, jobs
}
