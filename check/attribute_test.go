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

// A fragment-stage run that disagrees where the compute run of the same
// function and format on the same adapter agrees is a stage
// disagreement, named with its stage; one whose compute run disagrees too
// is the compute run's finding alone; with no compute runs, the fragment
// runs are compared as the compute runs would be.
func TestAttributeStage(t *testing.T) {
	run := func(adapter, format string, stage oracle.Stage, agrees bool) oracle.Judged {
		j := judged(adapter, agrees)
		j.Format, j.Stage = oracle.Format(format), stage
		return j
	}
	res := func(runs ...oracle.Judged) *Result { return &Result{ABI: &ir.KernelABI{Kernel: "k"}, Runs: runs} }
	const lp, ss = "wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader"

	fs := Attribute(res(run(lp, "wgsl", oracle.StageCompute, true), run(lp, "spirv", oracle.StageCompute, true),
		run(lp, "wgsl", oracle.StageFragment, false), run(lp, "spirv", oracle.StageFragment, true)))
	require.Len(t, fs, 1)
	assert.Equal(t, ClassStage, fs[0].Class)
	assert.Equal(t, lp, fs[0].Adapter)
	assert.Equal(t, []string{lp + " k wgsl fragment"}, fs[0].Runs)
	assert.Contains(t, fs[0].Implicates, "compute entry point agrees on this adapter")

	fs = Attribute(res(run(lp, "wgsl", oracle.StageCompute, false), run(lp, "wgsl", oracle.StageFragment, false),
		run(ss, "wgsl", oracle.StageCompute, true), run(ss, "wgsl", oracle.StageFragment, true)))
	require.Len(t, fs, 1)
	assert.Equal(t, ClassVendor, fs[0].Class)
	assert.Equal(t, []string{lp + " k wgsl"}, fs[0].Runs)

	fs = Attribute(res(run(lp, "wgsl", oracle.StageFragment, false), run(ss, "wgsl", oracle.StageFragment, true)))
	require.Len(t, fs, 1)
	assert.Equal(t, ClassVendor, fs[0].Class, "fragment runs alone compare as compute runs do")
	assert.Equal(t, []string{lp + " k wgsl fragment"}, fs[0].Runs)

	// A run recorded before stages (no Stage) is a compute run.
	fs = Attribute(res(run(lp, "wgsl", "", true), run(lp, "wgsl", oracle.StageFragment, false)))
	require.Len(t, fs, 1)
	assert.Equal(t, ClassStage, fs[0].Class)
}

// naga's validation errors all begin "Shader validation error:" and a
// source diagram; their key is the root cause naga gives last (the
// message is naga 0.19.2's for findings/compute/naga_spv_in_num_layers.wgsl),
// so two different validation errors get two keys and one error met by
// two programs (other expression numbers) one.
func TestMessageKeyOfNagaValidationErrors(t *testing.T) {
	naga := func(fn, root string) string {
		return "Validation Error\n\nCaused by:\n    In wgpuDeviceCreateShaderModule\n    \nShader validation error: \n  ┌─ :1:1\n  │\n1 │ \n  │  \n  │ \n  │ naga::Expression [9]\n  │ naga::Function [1]\n\n\n    Function [1] '" + fn + "' is invalid\n    Expression [9] is invalid\n    Type resolution failed\n    " + root
	}
	a := naga("", "Index 2 is out of bounds for expression [8]")
	assert.Equal(t, "Index 2 is out of bounds for expression [8]", errorLine(a))
	assert.Equal(t, MessageKey(a), MessageKey(naga("main_flat", "Index 2 is out of bounds for expression [13]")))
	assert.NotEqual(t, MessageKey(a), MessageKey(naga("", "Expression [8] is not a composite type")))
}
