package check

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
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
		class Class
		says  []string
	}{
		{"driver", res(judged("wgpu-vulkan:llvmpipe", true), judged("wgpu-vulkan:swiftshader", false), judged("dawn-vulkan:swiftshader", false)),
			"vendor", []string{"driver vulkan:swiftshader", "not a WGSL compiler"}},
		{"compiler", res(judged("wgpu-vulkan:llvmpipe", true), judged("wgpu-gl:llvmpipe", false), judged("dawn-gl:llvmpipe", true), judged("dawn-gles:llvmpipe", true)),
			"vendor", []string{"naga", "dawn-gl:llvmpipe, dawn-gles:llvmpipe run", "same driver (gl:llvmpipe)"}},
		{"one adapter of several", res(judged("wgpu-vulkan:llvmpipe", false), judged("wgpu-vulkan:swiftshader", true)),
			"vendor", []string{"only wgpu-vulkan:llvmpipe disagrees"}},
		{"every adapter", res(judged("wgpu-vulkan:llvmpipe", false), judged("wgpu-vulkan:swiftshader", false)),
			"stack", []string{"every adapter disagrees", "the shared WGSL compiler (naga)"}},
		{"every Dawn adapter", res(judged("dawn-gl:llvmpipe", false), judged("dawn-gles:llvmpipe", false)),
			"stack", []string{"every adapter disagrees", "the shared WGSL compiler (Tint)"}},
		{"every adapter of two implementations", res(judged("wgpu-vulkan:llvmpipe", false), judged("dawn-vulkan:swiftshader", false)),
			"stack", []string{"every adapter disagrees", "a rule every WGSL compiler among them gets wrong"}},
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

// A stack's error is identified past wgpu's wrapper lines, and its
// positions and generated numbers do not count (MessageKey); another
// error is another key.
func TestMessageKeyIgnoresPositions(t *testing.T) {
	wrap := func(line string) string {
		return "Validation Error\n\nCaused by:\n    In wgpuDeviceCreateComputePipeline\n    " + line + "\n0:31(2): error: value of type bool cannot be assigned to variable of type bvec4"
	}
	a := wrap("Internal error: 0:31(18): error: LHS of `||' must be scalar boolean")
	b := wrap("Internal error: 0:256(49): error: LHS of `||' must be scalar boolean")
	other := wrap("Internal error: 0:31(18): error: LHS of `&&' must be scalar boolean")
	assert.Equal(t, "Internal error: 0:31(18): error: LHS of `||' must be scalar boolean", errorLine(a))
	assert.Equal(t, "Internal error: N:N(N): error: LHS of `||' must be scalar boolean", MessageKey(a))
	assert.Equal(t, MessageKey(a), MessageKey(b))
	assert.NotEqual(t, MessageKey(a), MessageKey(other))
}
