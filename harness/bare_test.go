package harness

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunBareEqualsRun: RunBare's outputs are Run's, kernel by kernel,
// with dispatches of different sizes sharing its buffers; a rejected
// kernel gets Run's compile error and the next ones still run.
func TestRunBareEqualsRun(t *testing.T) {
	for _, name := range []string{lavapipe, swiftshader} {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			var ks []Kernel
			var jobs []Dispatch
			for i, n := range []int{64, 3, 130, 1, 64} {
				k := Kernel{EntryPoint: "main", WGSL: strings.Replace(tripleWGSL, "* 3u + 1u", fmt.Sprintf("* 3u + %du", i+1), 1)}
				if i == 3 {
					k.WGSL = strings.Replace(k.WGSL, "outp[i] =", "outp[i] = true +", 1) // invalid
				}
				ks = append(ks, k)
				jobs = append(jobs, Dispatch{Input: le(iota32(n)...), OutputSize: 4 * n, Invocations: n})
			}
			outs, errs := d.RunBare(context.Background(), ks, jobs)
			require.Len(t, outs, len(ks))
			for i := range ks {
				want, wantErr := d.Run(context.Background(), ks[i], jobs[i])
				if wantErr != nil {
					var ce *CompileError
					require.True(t, errors.As(errs[i], &ce), "kernel %d: %v", i, errs[i])
					assert.Equal(t, wantErr.Error(), errs[i].Error())
					continue
				}
				require.NoError(t, errs[i], "kernel %d", i)
				assert.Equal(t, want, outs[i], "kernel %d", i)
			}
		})
	}
}
