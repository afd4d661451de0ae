package flatten_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// TestRenderTwinsFlatten: every vertex and fragment entry point of the
// hand-written draws (compiler/wgsl/testdata/render) gets a twin of its
// own stage and IO (Strict: branchless but for the one demote guard),
// which verifies and round-trips through the WGSL emitter.
func TestRenderTwinsFlatten(t *testing.T) {
	files, err := filepath.Glob("../compiler/wgsl/testdata/render/*.wgsl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			m, err := wgsl.Parse(filepath.Base(path), src)
			require.NoError(t, err)
			for _, e := range m.EntryPoints() {
				twin, err := flatten.Function(m, e.Name, flatten.Options{VerifyPasses: true, Strict: true})
				require.NoError(t, err, e.Name)
				assert.Equal(t, e.Stage, twin.Stage)
				assert.Equal(t, e.ResultBuiltin, twin.ResultBuiltin)
				assert.Equal(t, wgsl.StageInputs(e), wgsl.StageInputs(twin), "the twin's inputs are the original's")
				assert.Equal(t, wgsl.StageOutputs(e), wgsl.StageOutputs(twin), "the twin's outputs are the original's")
				require.NoError(t, ir.Verify(m))
				text, err := wgsl.EmitStage(m, twin.Name, wgsl.EmitOptions{Mode: wgsl.Raw})
				require.NoError(t, err)
				m2, err := wgsl.Parse("re.wgsl", []byte(text))
				require.NoError(t, err, text)
				assert.Equal(t, ir.PrintFunc(twin), ir.PrintFunc(m2.Func(twin.Name)))
			}
		})
	}
}

const demoteSrc = `fn helper(x: f32) -> f32 {
  if (x > 3.0) {
    discard;
  }
  return x * 2.0;
}

@fragment
fn fs(@builtin(position) p: vec4<f32>, @location(0) v: f32) -> @location(0) vec4<f32> {
  var acc = 0.0;
  for (var i = 0; i < 3; i++) {
    if (v + f32(i) > 4.0) {
      discard;
    }
    acc += v;
  }
  let h = helper(p.x);
  return vec4(acc, h, dpdx(v), 1.0);
}
`

// TestDemoteMask: the twin of a fragment that discards in a loop and in
// a callee is branchless with one demote guard at its end, and demotes
// exactly where the original does, computing the same outputs (a helper
// keeps running). By hand, for (p.x, v): (1, 1) never discards
// (v + i ≤ 3, 1 ≤ 3): acc 3, h 2; (1, 2.5) discards at i = 2 (4.5 > 4)
// and still runs on: acc 7.5, h 2; (3.5, 0) discards in helper: acc 0,
// h 7.
func TestDemoteMask(t *testing.T) {
	m := parse(t, demoteSrc)
	twin, err := flatten.Function(m, "fs", flatten.Options{VerifyPasses: true, Strict: true})
	require.NoError(t, err)
	guards := 0
	ir.Inspect(twin.Body, func(n ir.Node) bool {
		if _, ok := n.(*ir.Discard); ok {
			guards++
		}
		return true
	})
	assert.Equal(t, 1, guards, "one discard, in the final guard:\n%s", ir.PrintFunc(twin))
	stmts := twin.Body.Stmts
	guard, ok := stmts[len(stmts)-2].(*ir.If)
	require.True(t, ok, "the demote guard precedes the return:\n%s", ir.PrintFunc(twin))
	assert.IsType(t, &ir.Discard{}, guard.Then.Stmts[0])

	v4 := ir.Vec(4, ir.F32)
	pos := func(x float32) ir.Value {
		return ir.CompositeVal(v4, ir.F32Val(x), ir.F32Val(0.5), ir.F32Val(0), ir.F32Val(1))
	}
	args := [][]ir.Value{{pos(1), ir.F32Val(1)}, {pos(1), ir.F32Val(2.5)}, {pos(3.5), ir.F32Val(0)}}
	want := []struct {
		discarded bool
		acc, h    float32
	}{{false, 3, 2}, {true, 7.5, 2}, {true, 0, 7}}
	for _, name := range []string{"fs", twin.Name} {
		p, err := interp.Compile(m, name)
		require.NoError(t, err)
		// dpdx needs a quad: run each argument as the top-left lane of one.
		for i, a := range args {
			q := interp.Quad{{Args: a}, {Args: a}, {Args: a}, {Args: a}}
			res, err := p.RunQuadList([]interp.Quad{q}, interp.Options{})
			require.NoError(t, err)
			inv := res[0][0].Invocation
			require.NoError(t, inv.Err)
			assert.Equal(t, want[i].discarded, inv.Discarded, "%s invocation %d", name, i)
			out := inv.Outputs[0].Value
			assert.Equal(t, want[i].acc, out.Elems[0].F32(), "%s invocation %d acc", name, i)
			assert.Equal(t, want[i].h, out.Elems[1].F32(), "%s invocation %d h", name, i)
			assert.False(t, math.IsNaN(float64(out.Elems[2].F32())))
		}
	}
}

// TestDiscardOutsideAFragmentTwinIsRefused: a function flattened on its
// own may hold a discard (the front end allows it in a function only a
// fragment entry point calls); its twin is no fragment, so flatten
// refuses it, positioned.
func TestDiscardOutsideAFragmentTwinIsRefused(t *testing.T) {
	m := parse(t, demoteSrc)
	_, err := flatten.Function(m, "helper", flatten.Options{})
	require.Error(t, err)
	assert.True(t, flatten.IsRefusal(err), "%v", err)
	assert.Contains(t, err.Error(), "test.wgsl:3:5: flatten: discard outside a fragment entry point")
}
