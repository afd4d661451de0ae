package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompileWGSL: a whole module without an entry point is judged by the
// stack's shader-module step alone (naga for wgpu), a rejection is a
// *CompileError with naga's message, and the device keeps running kernels.
func TestCompileWGSL(t *testing.T) {
	for _, name := range cpuAdapters {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			assert.NoError(t, d.CompileWGSL("fn f(x: i32) -> i32 { return x * 2; }\nstruct S { a: u32 }"))
			assert.NoError(t, d.CompileWGSL(tripleWGSL))

			err := d.CompileWGSL("fn f() { let y: u32 = 1.5; }")
			var ce *CompileError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, StageShaderModule, ce.Stage)
			assert.Contains(t, ce.Message, "the type of `y` is expected to be `u32`, but got `f32`")
			assert.NotContains(t, ce.Message, "wgpu.(*Device)", "the binding's prefix is stripped")

			// A module-level error naga finds after parsing (validation).
			require.ErrorAs(t, d.CompileWGSL("fn f() -> i32 { loop { return 1; } }"), &ce)
			assert.Contains(t, ce.Message, "Function [1] 'f' is invalid")

			checkTripleHandDerived(t, d, triple)
		})
	}
}

// TestCompileWGSLRefusals: empty text (the binding would crash on it) and
// a closed device are argument errors, not verdicts.
func TestCompileWGSLRefusals(t *testing.T) {
	d := openDevice(t, lavapipe)
	var ce *CompileError
	err := d.CompileWGSL("")
	require.Error(t, err)
	assert.NotErrorAs(t, err, &ce)
	d.Close()
	err = d.CompileWGSL("fn f() {}")
	require.ErrorContains(t, err, "closed")
}
