package worker

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/gpudiff/gpudiff/harness"
)

// BenchmarkDispatch compares one dispatch of a cold program through a
// worker process with the same kind of dispatch on an in-process
// harness.Device of the same adapter, interleaved so that the noise of a
// shared machine hits both alike: each iteration runs one never-seen
// tripler (a fresh additive constant, seeded per process; 64 invocations,
// 256-byte buffers) on each, alternating which goes first, and times each.
// It reports both rates in programs/s and their ratio; the difference is
// the protocol's cost (two gob frames over pipes, a context switch each
// way). Run it with MESA_SHADER_CACHE_DISABLE=true too (it logs the
// setting); compare within one run.
func BenchmarkDispatch(b *testing.B) {
	b.Logf("MESA_SHADER_CACHE_DISABLE=%q", os.Getenv("MESA_SHADER_CACHE_DISABLE"))
	const n = 64
	job := harness.Dispatch{Input: le(iota32(n)...), OutputSize: 4 * n, Invocations: n}
	for _, adapter := range []string{lavapipe, swiftshader, "wgpu-gl:llvmpipe"} {
		b.Run(adapter, func(b *testing.B) {
			w := startDevice(b, adapter, Options{})
			local, err := harness.Open(adapter)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(local.Close)
			runners := []interface {
				Run(context.Context, harness.Kernel, harness.Dispatch) ([]byte, error)
			}{local, w}
			var spent [2]time.Duration
			seed := rand.Uint32()
			b.ResetTimer()
			for i := range b.N {
				for j := range 2 {
					side := (i + j) % 2 // alternate which side goes first
					add := seed + uint32(2*i+side)
					k := tripler(add, fmt.Sprintf("bench/%d/%d", i, side))
					t0 := time.Now()
					out, err := runners[side].Run(context.Background(), k, job)
					spent[side] += time.Since(t0)
					if err != nil {
						b.Fatal(err)
					}
					if got, want := words(out[4:8])[0], 3+add; got != want { // in[1] = 1
						b.Fatalf("out[1] = %d, want %d", got, want)
					}
				}
			}
			inproc := float64(b.N) / spent[0].Seconds()
			worker := float64(b.N) / spent[1].Seconds()
			b.ReportMetric(inproc, "in-process-programs/s")
			b.ReportMetric(worker, "worker-programs/s")
			b.ReportMetric(worker/inproc, "worker/in-process")
		})
	}
}

// BenchmarkCrashRecovery measures what a crash costs: each iteration is a
// dispatch that kills the worker (fault exit) followed by a dispatch that
// starts a fresh worker, opens the adapter and runs (the same warm
// program every time). It reports recoveries/s.
func BenchmarkCrashRecovery(b *testing.B) {
	const n = 64
	job := harness.Dispatch{Input: le(iota32(n)...), OutputSize: 4 * n, Invocations: n}
	for _, adapter := range []string{lavapipe, swiftshader} {
		b.Run(adapter, func(b *testing.B) {
			d := startDevice(b, adapter, Options{Env: faultEnv("exit@die")})
			die, ok := tripler(1, "die"), tripler(1, "ok")
			b.ResetTimer()
			for range b.N {
				_, err := d.Run(context.Background(), die, job)
				var crash *CrashError
				if !errors.As(err, &crash) {
					b.Fatalf("want a CrashError, got %v", err)
				}
				if _, err := d.Run(context.Background(), ok, job); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "recoveries/s")
		})
	}
}

// BenchmarkProtocolRoundTrip measures the protocol alone: a request the
// worker's harness rejects before touching the GPU (a kernel without an
// entry point name; 256-byte input) and its error reply.
func BenchmarkProtocolRoundTrip(b *testing.B) {
	d := startDevice(b, lavapipe, Options{})
	k := harness.Kernel{WGSL: tripler(1, "").WGSL, Label: "roundtrip"}
	job := harness.Dispatch{Input: le(iota32(64)...), OutputSize: 256, Invocations: 64}
	b.ResetTimer()
	for range b.N {
		if _, err := d.Run(context.Background(), k, job); err == nil {
			b.Fatal("want the harness's error")
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "round-trips/s")
}
