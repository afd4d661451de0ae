package dawn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gpudiff/gpudiff/harness"
)

// BenchmarkColdKernels compares Dawn with wgpu-native on the same driver:
// one Run of a small kernel (64 invocations, 256-byte buffers) — shader
// module, compute pipeline, buffers, bind group, dispatch, readback — on
// an opened device, reporting programs/s. Dawn's cost includes the JSON
// round trip to its node worker.
//
//   - unique: every iteration submits a program never seen before (the
//     tripler with a fresh additive constant, seeded per process), so no
//     cache helps (Mesa's on-disk cache for llvmpipe, Dawn's in-device
//     shader-module and pipeline caches): the cold cost campaigns pay.
//   - repeated: the same program every iteration.
//
// Pairs: SwiftShader through Vulkan (the comparison that matters: one
// driver, two implementations) and llvmpipe through GL (wgpu's GL backend
// is OpenGL ES; Dawn offers both). Compare within one run, never absolute
// numbers across runs; set MESA_SHADER_CACHE_DISABLE=true for llvmpipe (make
// bench does).
func BenchmarkColdKernels(b *testing.B) {
	b.Logf("MESA_SHADER_CACHE_DISABLE=%q", os.Getenv("MESA_SHADER_CACHE_DISABLE"))
	requireDawn(b)
	const n = 64
	in := make([]uint32, n)
	for i := range in {
		in[i] = uint32(i)
	}
	job := harness.Dispatch{Input: le(in...), OutputSize: 4 * n, Invocations: n}
	for _, name := range []string{
		"dawn-vulkan:swiftshader", "wgpu-vulkan:swiftshader",
		"dawn-gles:llvmpipe", "dawn-gl:llvmpipe", "wgpu-gl:llvmpipe",
	} {
		b.Run(name, func(b *testing.B) {
			r, err := harness.OpenAny(name)
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			for _, mode := range []string{"unique", "repeated"} {
				b.Run(mode, func(b *testing.B) {
					kernels, adds := make([]harness.Kernel, b.N), make([]uint32, b.N)
					seed := rand.Uint32()
					for i := range kernels {
						adds[i] = 1
						if mode == "unique" {
							adds[i] = seed + uint32(i)
						}
						kernels[i] = harness.Kernel{EntryPoint: "main",
							WGSL: strings.Replace(tripleWGSL, "* 3u + 1u", fmt.Sprintf("* 3u + %du", adds[i]), 1)}
					}
					b.ResetTimer()
					for i := range b.N {
						out, err := r.Run(context.Background(), kernels[i], job)
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
