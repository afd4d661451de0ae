package shaders

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// TestCoreWGSLOnLavapipe dispatches every shaders/compute/core_*.wgsl
// (the constructs of issue 24 item 6 that Tint's corpus uses: struct
// member @align/@size, modf/frexp, ptr parameters, barriers in helpers,
// ...) on lavapipe, original and twin, WGSL and gpudiff's SPIR-V, with
// NAME.inputs.json: every run must agree with the reference, whose values
// TestComputeShadersMatchHandDerivedExpectations checks against the
// hand-derived NAME.expected.json. A layout the harness, the WGSL a stack
// compiles and gpudiff's SPIR-V disagree on, or a construct one emitter
// spells wrongly, is a mismatch here.
func TestCoreWGSLOnLavapipe(t *testing.T) {
	files, err := filepath.Glob("compute/core_*.wgsl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	dev, err := worker.Start("wgpu-vulkan:llvmpipe", worker.Options{})
	require.NoError(t, err, "lavapipe is needed: install mesa-vulkan-drivers (make deps)")
	defer dev.Close()
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".wgsl"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			m, err := wgsl.Parse(path, src)
			require.NoError(t, err)
			f, err := wgsl.Entry(m, "")
			require.NoError(t, err)
			b, err := os.ReadFile(strings.TrimSuffix(path, ".wgsl") + ".inputs.json")
			require.NoError(t, err)
			var in map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(b, &in))
			c := &testcase.ComputeCase{Module: m, Entry: f.Name, Buffers: map[string]ir.Buffer{}}
			require.NoError(t, json.Unmarshal(in["workgroups"], &c.Workgroups))
			for _, v := range m.Shared {
				if raw, ok := in[v.Name]; ok {
					buf, err := ir.NewBuffer(v.T, computeValue(t, v.T, raw))
					require.NoError(t, err)
					c.Buffers[v.Name] = buf
				}
			}
			res, err := check.Execute(t.Context(), c.Case(), check.Options{Devices: []check.Device{dev}, Flat: true, SPIRV: true})
			require.NoError(t, err)
			assert.Equal(t, 1+4, len(res.Runs)+len(res.Skipped), "the twin in the interpreter, then WGSL and SPIR-V, original and twin")
			for _, r := range res.Skipped { // only what wgpu cannot read: atomics in SPIR-V (spirv.NagaGap)
				assert.Equal(t, oracle.FormatSPIRV, r.Format, "%s %s: %s", r.Function, r.Format, r.Message)
				assert.Contains(t, r.Message, "reads no atomic instructions")
			}
			for _, r := range res.Runs {
				assert.Equal(t, oracle.Pass, r.Verdict, "%s %s %s: %s %v", r.Adapter, r.Function, r.Format, r.Message, r.Diffs)
			}
		})
	}
}
