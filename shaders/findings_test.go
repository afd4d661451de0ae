package shaders

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz"
	"github.com/gpudiff/gpudiff/fuzz/oracle"
	"github.com/gpudiff/gpudiff/harness/worker"
)

// findingsReference is each finding's reference, derived by hand in
// findings/README.md (not copied from the interpreter): the interpreter
// must agree with it.
var findingsReference = map[string][]string{
	"lavapipe_loop_exit_wrap.wgsl": {`2`},
	"lavapipe_switch_in_loop.wgsl": {`{"ret": 0, "g0": 1}`},
}

// TestFindings checks the stack bugs kept under findings/ (top level): the
// reference is the hand-derived one, the flattened twin agrees with it
// in the interpreter and on every adapter (predication sidesteps the
// bug), and every run on SwiftShader — which the findings do not
// implicate — agrees. Whether lavapipe still gets the original wrong is
// logged, not asserted: a Mesa update that fixes it should not break CI.
func TestFindings(t *testing.T) {
	files, err := filepath.Glob("../findings/*.wgsl")
	require.NoError(t, err)
	require.Len(t, files, len(findingsReference), "every finding has a hand-derived reference here")
	lvp, err := worker.Start("wgpu-vulkan:llvmpipe", worker.Options{})
	require.NoError(t, err, "lavapipe is needed: install mesa-vulkan-drivers (make deps)")
	defer lvp.Close()
	ss, err := worker.Start("wgpu-vulkan:swiftshader", worker.Options{})
	require.NoError(t, err, "SwiftShader is needed: install chromium, which ships its Vulkan ICD (make deps)")
	defer ss.Close()
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			want, ok := findingsReference[name]
			require.True(t, ok, "no hand-derived reference for %s", name)
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			c, rec, err := fuzz.ParseCase(path, src)
			require.NoError(t, err)
			mode, err := wgsl.ParseMode(rec.Mode)
			require.NoError(t, err)
			res, err := fuzz.Execute(t.Context(), c, fuzz.Options{Devices: []fuzz.Device{lvp, ss}, Flat: true, SPIRV: true, Mode: mode})
			require.NoError(t, err)
			require.Len(t, res.Reference, len(want))
			for i, w := range want {
				assert.JSONEq(t, w, string(bytes.TrimSpace(oracle.InvocationJSON(res.Reference[i], res.Names))), "reference of invocation %d", i)
			}
			require.NotEmpty(t, res.Twin)
			for _, r := range res.Runs {
				label := r.Adapter + " " + r.Function + " " + r.Format
				switch {
				case r.Function == res.Twin || strings.Contains(r.Adapter, "swiftshader"):
					assert.Equal(t, oracle.Pass, r.Verdict, "%s: %s %v", label, r.Message, r.Diffs)
				default:
					t.Logf("%s: %s (the finding; %d of %d invocations differ)", label, r.Verdict, len(r.Mismatches), len(res.Reference))
				}
			}
		})
	}
}
