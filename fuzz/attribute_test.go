package fuzz

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/fuzz/oracle"
	"github.com/gpudiff/gpudiff/ir"
)

// judged builds the original kernel's WGSL run on adapter, agreeing or
// not.
func judged(adapter string, agrees bool) oracle.Judged {
	j := oracle.Judged{Run: oracle.Run{Adapter: adapter, Function: "k", Format: "wgsl"}, Verdict: oracle.Pass}
	if !agrees {
		j.Verdict, j.Mismatches = oracle.Mismatch, []int{0}
	}
	return j
}

// The GPU(original) findings name what the matrix of adapters implicates:
// a driver when every implementation on it disagrees and other drivers
// agree; a WGSL compiler when another implementation agrees on the same
// driver.
func TestAttributeStackByDriverAndCompiler(t *testing.T) {
	res := func(runs ...oracle.Judged) *Result {
		return &Result{ABI: &ir.KernelABI{Kernel: "k"}, Runs: runs}
	}
	cases := []struct {
		name  string
		res   *Result
		class string
		says  []string
	}{
		{"driver", res(judged("wgpu-vulkan:llvmpipe", true), judged("wgpu-vulkan:swiftshader", false), judged("dawn-vulkan:swiftshader", false)),
			"vendor", []string{"driver vulkan:swiftshader", "not a WGSL compiler"}},
		{"compiler", res(judged("wgpu-vulkan:llvmpipe", true), judged("wgpu-gl:llvmpipe", false), judged("dawn-gl:llvmpipe", true), judged("dawn-gles:llvmpipe", true)),
			"vendor", []string{"naga", "dawn-gl:llvmpipe, dawn-gles:llvmpipe run", "same driver (gl:llvmpipe)"}},
		{"one adapter of several", res(judged("wgpu-vulkan:llvmpipe", false), judged("wgpu-vulkan:swiftshader", true)),
			"vendor", []string{"only wgpu-vulkan:llvmpipe disagrees"}},
		{"every adapter", res(judged("wgpu-vulkan:llvmpipe", false), judged("wgpu-vulkan:swiftshader", false)),
			"stack", []string{"every adapter disagrees"}},
		{"two drivers, one compiler, no peer", res(judged("wgpu-vulkan:llvmpipe", false), judged("wgpu-gl:llvmpipe", false), judged("dawn-vulkan:swiftshader", true)),
			"stack", []string{"the stack disagrees"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := Attribute(c.res)
			require.NotEmpty(t, fs)
			for _, f := range fs {
				assert.Equal(t, c.class, f.Class, f.Implicates)
				for _, s := range c.says {
					assert.Contains(t, f.Implicates, s)
				}
			}
		})
	}
}
