package flatten_test

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
)

// twinShape counts what a twin must not have and its selects.
type twinShape struct {
	controlFlow, calls, returns, selects int
	returnLast                           bool
}

func shapeOf(f *ir.Func) twinShape {
	var s twinShape
	ir.Inspect(f.Body, func(n ir.Node) bool {
		switch n.(type) {
		case *ir.If, *ir.Loop, *ir.Switch, *ir.Break, *ir.Continue:
			s.controlFlow++
		case *ir.Call:
			s.calls++
		case *ir.Return:
			s.returns++
		case *ir.Select:
			s.selects++
		}
		return true
	})
	if n := len(f.Body.Stmts); n > 0 {
		_, s.returnLast = f.Body.Stmts[n-1].(*ir.Return)
	}
	return s
}

// TestCapabilityTiers: every kernel of shaders/tiers/TIER/*.wgsl (one
// directory per capability: if/else, helpers, fixed loops, break/continue,
// switch, bounded loops, vectors/structs/arrays, void+globals, calls in
// conditions; one kernel per file) flattens to a twin with no control flow and no call, one
// final return when it has a result, and — where the file's "expect:"
// line gives one — exactly the hand-counted number of selects. (That the
// twins compute what the originals do is TestFlattenPreservesSemanticsOnShaders.)
func TestCapabilityTiers(t *testing.T) {
	files, err := filepath.Glob("../shaders/tiers/*/*.wgsl")
	require.NoError(t, err)
	tiers := map[string]bool{}
	for _, f := range files {
		tiers[filepath.Base(filepath.Dir(f))] = true
	}
	require.GreaterOrEqual(t, len(tiers), 9, "one directory per capability tier")
	for _, path := range files {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		expect := map[string]int{} // kernel → selects (-1: not counted)
		for _, line := range strings.Split(string(src), "\n") {
			rest, ok := strings.CutPrefix(line, "// expect: ")
			if !ok {
				continue
			}
			f := strings.Fields(rest)
			expect[f[0]] = -1
			if len(f) > 1 {
				n, err := strconv.Atoi(strings.TrimPrefix(f[1], "selects="))
				require.NoError(t, err, line)
				expect[f[0]] = n
			}
		}
		m, err := wgsl.Parse(filepath.Base(path), src)
		require.NoError(t, err)
		kernels := m.Kernels()
		var listed []string
		for k := range expect {
			listed = append(listed, k)
		}
		sort.Strings(listed)
		sorted := append([]string(nil), kernels...)
		sort.Strings(sorted)
		require.Equal(t, sorted, listed, "%s: expect: lines name every kernel", path)
		for _, k := range kernels {
			t.Run(filepath.Base(filepath.Dir(path))+"/"+k, func(t *testing.T) {
				twin, err := flatten.Function(m, k, flatten.Options{Strict: true, VerifyPasses: true})
				require.NoError(t, err)
				s := shapeOf(twin)
				assert.Zero(t, s.controlFlow, "control flow left")
				assert.Zero(t, s.calls, "calls left")
				if twin.Result.IsVoid() {
					assert.Zero(t, s.returns)
				} else {
					assert.Equal(t, 1, s.returns)
					assert.True(t, s.returnLast, "return is last")
				}
				if n := expect[k]; n >= 0 {
					assert.Equal(t, n, s.selects, "selects in\n%s", ir.PrintFunc(twin))
				}
			})
		}
	}
}
