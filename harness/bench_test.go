package harness

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// BenchmarkRun measures one Device.Run of a small kernel (64 invocations,
// 256-byte buffers): shader module, compute pipeline, buffers, bind group,
// dispatch and readback, everything but Open. It reports programs/s.
//
//   - unique: every iteration submits a program never seen before (the
//     tripler with a fresh additive constant, seeded per process), so Mesa's
//     on-disk shader cache cannot help: the cold cost campaigns pay. This is
//     the base of the "driver floor" benchmark (ARCHITECTURE.md, "Measuring speed
//     here").
//   - repeated: the same program every iteration, warm in Mesa's cache.
//
// Compare the two within one run, never absolute numbers across runs.
func BenchmarkRun(b *testing.B) {
	b.Logf("MESA_SHADER_CACHE_DISABLE=%q", os.Getenv("MESA_SHADER_CACHE_DISABLE"))
	const n = 64
	job := Dispatch{Input: le(iota32(n)...), OutputSize: 4 * n, Invocations: n}
	for _, name := range cpuAdapters {
		b.Run(name, func(b *testing.B) {
			d := openDevice(b, name)
			for _, mode := range []string{"unique", "repeated"} {
				b.Run(mode, func(b *testing.B) {
					kernels, adds := make([]Kernel, b.N), make([]uint32, b.N)
					seed := rand.Uint32()
					for i := range kernels {
						adds[i] = 1
						if mode == "unique" {
							adds[i] = seed + uint32(i)
						}
						kernels[i] = Kernel{EntryPoint: "main",
							WGSL: strings.Replace(tripleWGSL, "* 3u + 1u", fmt.Sprintf("* 3u + %du", adds[i]), 1)}
					}
					b.ResetTimer()
					for i := range b.N {
						out, err := d.Run(context.Background(), kernels[i], job)
						if err != nil {
							b.Fatal(err)
						}
						if got, want := words(out[4:8])[0], 3+adds[i]; got != want { // in[1] = 1
							b.Fatalf("out[1] = %d, want %d", got, want)
						}
					}
					b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "programs/s")
				})
			}
		})
	}
}
