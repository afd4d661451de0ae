package flatten_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// keptLoops returns the loops of the twin with the names of the vars
// each one's body assigns at its top level.
func keptLoops(twin *ir.Func) []map[string]bool {
	var out []map[string]bool
	ir.Inspect(twin.Body, func(n ir.Node) bool {
		if lp, ok := n.(*ir.Loop); ok {
			set := map[string]bool{}
			for _, s := range lp.Body.Stmts {
				if a, ok := s.(*ir.Assign); ok {
					if id, ok := a.LHS.(*ir.Ident); ok {
						set[id.Name] = true
					}
				}
			}
			out = append(out, set)
		}
		return true
	})
	return out
}

// TestKeptLoopThatNeverExits: a loop none of whose exits can fire once
// entered (`break if !(true)`, vk-gl-cts' unreachable-loops and
// similar-nested-ifs) is kept with its mask update, which the fold used
// to drop as the self-assignment it folds to (inloop = inloop), leaving
// an internal error: "loop … is not a kept loop: its mask inloop is
// never cleared in the body". The twin runs forever exactly where the
// source does (y < 0: both stop at the step limit) and returns what it
// does elsewhere (1, by hand).
func TestKeptLoopThatNeverExits(t *testing.T) {
	m := parse(t, `fn f(y: f32) -> f32 { if (y < 0.0) { loop { continuing { break if !(true); } } } return 1.0; }
`)
	twin, err := flatten.Function(m, "f", flatten.Options{VerifyPasses: true, Strict: true})
	require.NoError(t, err)
	loops := keptLoops(twin)
	require.Len(t, loops, 1, ir.PrintFunc(twin))
	assert.Len(t, loops[0], 1, "the body assigns its mask, and only it:\n%s", ir.PrintFunc(twin))

	args := [][]ir.Value{{ir.F32Val(0)}, {ir.F32Val(2.5)}, {ir.F32Val(-1)}, {ir.F32Val(-0.25)}}
	for _, name := range []string{"f", twin.Name} {
		res, err := interp.Run(m, name, args, interp.Options{MaxSteps: 10000})
		require.NoError(t, err)
		for i, r := range res {
			if args[i][0].F32() < 0 {
				assert.Error(t, r.Err, "%s(%v) never returns", name, args[i][0].F32())
				continue
			}
			require.NoError(t, r.Err, "%s(%v)", name, args[i][0].F32())
			assert.Equal(t, float32(1), r.Outputs[0].Value.F32(), "%s(%v)", name, args[i][0].F32())
		}
	}
}

// TestFragmentLoopThatNeverExits: vk-gl-cts unreachable-loops' shape in a
// fragment entry point — under a condition on a uniform, a loop whose
// break-if folds to true and one whose only break is in a dead else
// (`if (true) {} else { break; }`, function-with-uniform-return) — draws
// what the original draws: red where the condition fails (by hand), and
// no result (the step limit) in either where it holds.
func TestFragmentLoopThatNeverExits(t *testing.T) {
	m, twin := fragmentTwin(t, `struct U { a: f32, b: f32 }
@group(0) @binding(0) var<uniform> u: U;
var<private> c: vec4f;
@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
  c = vec4f(1.0, 0.0, 0.0, 1.0);
  if (u.a > u.b) {
    loop { continuing { break if !(false); } }
    loop {
      if (true) { } else { break; }
      c = vec4f(0.0, p.x, 0.0, 1.0);
    }
  }
  return c;
}
`)
	require.NotEmpty(t, keptLoops(twin), ir.PrintFunc(twin))
	for _, lp := range keptLoops(twin) {
		assert.NotEmpty(t, lp, "each kept loop assigns its mask:\n%s", ir.PrintFunc(twin))
	}
	ut := m.SharedVar("u").T
	var q interp.Quad
	for l := range q {
		q[l].Args = []ir.Value{ir.CompositeVal(ir.Vec(4, ir.F32), ir.F32Val(float32(l&1)+0.5), ir.F32Val(float32(l>>1)+0.5), ir.F32Val(0), ir.F32Val(1))}
	}
	for _, hangs := range []bool{false, true} {
		a, b := float32(0), float32(1)
		if hangs {
			a, b = 1, 0
		}
		uval := ir.CompositeVal(ut, ir.F32Val(a), ir.F32Val(b))
		for _, name := range []string{"fs", twin.Name} {
			p, err := interp.CompileBindings(m, name, map[string]ir.Value{"u": uval})
			require.NoError(t, err)
			res, err := p.RunQuadList([]interp.Quad{q}, interp.Options{MaxSteps: 10000})
			require.NoError(t, err)
			for l, r := range res[0] {
				if hangs {
					assert.Error(t, r.Err, "%s lane %d never returns", name, l)
					continue
				}
				require.NoError(t, r.Err, "%s lane %d", name, l)
				out := r.Outputs[0].Value
				for k, w := range []float32{1, 0, 0, 1} {
					assert.Equal(t, w, out.Elems[k].F32(), "%s lane %d component %d", name, l, k)
				}
			}
		}
	}
}
