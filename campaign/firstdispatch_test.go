package campaign

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/oracle"
)

// TestSlowFirstDispatchIsANote (issue 41): a program whose only failures
// are timeouts, the first of them of a GL first dispatch (the compile and
// the run together: the message harness/worker writes for
// PhaseFirstDispatch), is a slow compile of that adapter when a second run
// agrees — verdict slow-compile, a performance note, no finding — while a
// timeout after a compile that did end (Vulkan), or a program with another
// failure or a Vulkan timeout beside, stays what it was.
func TestSlowFirstDispatchIsANote(t *testing.T) {
	msg := (&worker.TimeoutError{Adapter: "wgpu-gl:llvmpipe", Op: worker.OpDispatch, Phase: worker.PhaseFirstDispatch, Label: "p16/kernel_flat/wgsl"}).Error()
	assert.Contains(t, msg, harness.FirstDispatchTimeout)
	gl := check.Finding{Class: check.ClassTimeout, Adapter: "wgpu-gl:llvmpipe", Message: msg}
	rec := ProgramRecord{Index: 16, Verdict: string(oracle.Timeout), Classes: []check.Class{check.ClassTimeout, check.ClassTimeout},
		Adapters: []string{"wgpu-gl:llvmpipe"}, Implicates: "it does not finish", SlowCompiles: []string{"deno-vulkan:llvmpipe"}}
	assert.True(t, slowFirstDispatch(rec, gl))
	got := noteSlowFirstDispatch(rec, gl)
	assert.Equal(t, string(oracle.SlowCompile), got.Verdict)
	assert.Empty(t, got.Classes)
	assert.Empty(t, got.Adapters)
	assert.Empty(t, got.Signature)
	assert.False(t, got.Flaky)
	assert.Equal(t, []string{"deno-vulkan:llvmpipe", "wgpu-gl:llvmpipe"}, got.SlowCompiles)

	vk := check.Finding{Class: check.ClassTimeout, Adapter: "wgpu-vulkan:llvmpipe",
		Message: (&worker.TimeoutError{Adapter: "wgpu-vulkan:llvmpipe", Op: worker.OpDispatch, Phase: worker.PhaseDispatch}).Error()}
	assert.False(t, slowFirstDispatch(rec, vk), "a hang after a finished compile")
	mixed := rec
	mixed.Classes = []check.Class{check.ClassTimeout, check.ClassVendor}
	assert.False(t, slowFirstDispatch(mixed, gl), "another failure beside")
	beside := rec
	beside.Adapters = []string{"wgpu-gl:llvmpipe", "wgpu-vulkan:llvmpipe"}
	assert.False(t, slowFirstDispatch(beside, gl), "a Vulkan timeout beside")
	crash := gl
	crash.Class = check.ClassCrash
	assert.False(t, slowFirstDispatch(rec, crash))
}
