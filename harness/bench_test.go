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
// Each in both stages: compute (a dispatch) and fragment (the tripler as
// a fragment entry point drawn over a 64×1 target, render.go).
//
// Compare the two within one run, never absolute numbers across runs.
func BenchmarkRun(b *testing.B) {
	b.Logf("MESA_SHADER_CACHE_DISABLE=%q", os.Getenv("MESA_SHADER_CACHE_DISABLE"))
	const n = 64
	jobs := map[ShaderStage]Dispatch{
		ComputeStage:  {Input: le(iota32(n)...), OutputSize: 4 * n, Invocations: n},
		FragmentStage: {Input: le(iota32(n)...), OutputSize: 4 * n, Invocations: n, Target: FragmentTarget(n), Attachments: []AttachmentFormat{R32Uint}},
	}
	sources := map[ShaderStage]string{ComputeStage: tripleWGSL, FragmentStage: tripleFragmentWGSL}
	for _, name := range cpuAdapters {
		for _, stage := range []ShaderStage{ComputeStage, FragmentStage} {
			b.Run(name+"/"+string(stage), func(b *testing.B) {
				benchRun(b, openDevice(b, name), stage, sources[stage], jobs[stage])
			})
		}
	}
}

// benchRun is BenchmarkRun's unique and repeated runs of the tripler src
// in stage on d.
func benchRun(b *testing.B, d *Device, stage ShaderStage, src string, job Dispatch) {
	for _, mode := range []string{"unique", "repeated"} {
		b.Run(mode, func(b *testing.B) {
			kernels, adds := make([]Kernel, b.N), make([]uint32, b.N)
			seed := rand.Uint32()
			for i := range kernels {
				adds[i] = 1
				if mode == "unique" {
					adds[i] = seed + uint32(i)
				}
				kernels[i] = Kernel{EntryPoint: "main", Stage: stage,
					WGSL: strings.Replace(src, "* 3u + 1u", fmt.Sprintf("* 3u + %du", adds[i]), 1)}
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
}
