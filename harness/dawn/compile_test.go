package dawn

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// openValidator opens a Validator for the test and closes it at cleanup.
func openValidator(t *testing.T) *Validator {
	t.Helper()
	requireDawn(t)
	v, err := OpenValidator()
	require.NoError(t, err)
	t.Cleanup(v.Close)
	return v
}

// TestValidatorJudgesWholeModules: one request, many modules, one verdict
// each in order. Modules need no entry point; every enable-extension Dawn
// knows is allowed; const-expression and uniformity errors come back with
// Tint's diagnostics.
func TestValidatorJudgesWholeModules(t *testing.T) {
	v := openValidator(t)
	srcs := []string{
		"fn f(x: i32) -> i32 { return x * 2; }",
		"fn f() -> i32 { return 1 / 0; }",
		"enable f16;\nfn f(x: f16) -> f16 { return x * 2h; }",
		"enable dual_source_blending;\nenable subgroups;\nfn f(x: u32) -> u32 { return subgroupAdd(x); }",
		"var<private> g: i32;\nfn f() { if (g > 0) { workgroupBarrier(); } }",
		"",
		"fn f() { let x: u32 = 1.5; }",
	}
	errs, err := v.CompileWGSL(t.Context(), srcs...)
	require.NoError(t, err)
	require.Len(t, errs, len(srcs))
	want := []string{"", ":1:24 error: integer division by zero is invalid", "", "",
		"'workgroupBarrier' must only be called from uniform control flow", "",
		"cannot convert value of type 'abstract-float' to type 'u32'"}
	for i, w := range want {
		if w == "" {
			assert.NoError(t, errs[i], "module %d: %s", i, srcs[i])
			continue
		}
		var ce *harness.CompileError
		if assert.ErrorAs(t, errs[i], &ce, "module %d: %s", i, srcs[i]) {
			assert.Equal(t, harness.StageShaderModule, ce.Stage)
			assert.Contains(t, ce.Message, w)
			assert.NotContains(t, ce.Message, "While calling", "Dawn's call-site context is trimmed")
		}
	}
	assert.Equal(t, 1, v.d.starts)

	none, err := v.CompileWGSL(t.Context())
	assert.NoError(t, err)
	assert.Empty(t, none)
}

// TestCompileWGSLOnAnAdapter: on an opened adapter the device has WebGPU's
// core features only (SwiftShader offers no shader-f16), compile-only
// requests share the worker with Runs, and a ctx already done is refused
// before any work.
func TestCompileWGSLOnAnAdapter(t *testing.T) {
	d := openDevice(t, swiftshader)
	errs, err := d.CompileWGSL(t.Context(), tripleWGSL, "enable f16;\nfn f(x: f16) -> f16 { return x; }")
	require.NoError(t, err)
	require.Len(t, errs, 2)
	assert.NoError(t, errs[0])
	var ce *harness.CompileError
	require.ErrorAs(t, errs[1], &ce)
	assert.Contains(t, ce.Message, "f16")

	out, err := d.Run(t.Context(), harness.Kernel{WGSL: tripleWGSL, EntryPoint: "main"},
		harness.Dispatch{Input: le(2), OutputSize: 4, Invocations: 1})
	require.NoError(t, err)
	assert.Equal(t, []uint32{7}, words(out))
	assert.Equal(t, 1, d.starts)

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = d.CompileWGSL(ctx, tripleWGSL)
	assert.ErrorIs(t, err, context.Canceled)
}

// TestValidatorBatchOfManyModules: a thousand never-seen modules in one
// request all come back, the rejected ones where they were sent.
func TestValidatorBatchOfManyModules(t *testing.T) {
	v := openValidator(t)
	var srcs []string
	for i := range 1000 {
		body := "return x * " + strings.Repeat("1", 1+i%9) + ";"
		if i%7 == 3 {
			body = "return x / 0;"
		}
		srcs = append(srcs, "fn f"+strings.Repeat("g", i%5)+"(x: i32) -> i32 { "+body+" }")
	}
	errs, err := v.CompileWGSL(t.Context(), srcs...)
	require.NoError(t, err)
	require.Len(t, errs, len(srcs))
	for i, e := range errs {
		if i%7 == 3 {
			assert.ErrorContains(t, e, "integer division by zero", "module %d", i)
		} else {
			assert.NoError(t, e, "module %d", i)
		}
	}
}

// TestValidatorClose: Close ends the worker; later calls fail.
func TestValidatorClose(t *testing.T) {
	v := openValidator(t)
	w := v.d.w
	v.Close()
	assert.True(t, gone(w.pid()))
	_, err := v.CompileWGSL(t.Context(), "fn f() {}")
	assert.ErrorContains(t, err, "closed")
	v.Close()
}
