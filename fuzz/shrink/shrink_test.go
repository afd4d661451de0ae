package shrink_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/fuzz/shrink"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func parse(t testing.TB, src string) *ir.Module {
	t.Helper()
	m, err := wgsl.Parse("test.wgsl", []byte(src))
	require.NoError(t, err)
	require.NoError(t, ir.Normalize(m))
	return m
}

// remByParam is the synthetic failure: the kernel's call graph holds an
// i32 `%` whose divisor is a parameter.
func remByParam(c shrink.Case) bool {
	for _, f := range c.Module.CallGraph(c.Kernel) {
		if ir.Any(f.Body, func(n ir.Node) bool {
			b, ok := n.(*ir.Binary)
			if !ok || b.Op != ir.OpRem || b.T.Kind != ir.KindI32 {
				return false
			}
			id, ok := b.Y.(*ir.Ident)
			return ok && id.Ref == ir.RefParam
		}) {
			return true
		}
	}
	return false
}

const remProgram = `
var<private> total: i32;

fn helper(a: i32, b: u32) -> i32 {
  var s: i32 = a;
  for (var i: i32 = 0i; i < 4i; i += 1i) {
    if (b > 3u) {
      s += i;
    } else {
      s -= 1i;
    }
  }
  return s;
}

fn kernel(p: i32, q: u32, r: f32) -> i32 {
  var acc: i32 = helper(p, q);
  total = acc;
  if (q != 0u) {
    switch (p & 3i) {
      case 0i, 1i: {
        acc = acc + (helper(acc, q) + 7i) % p;
      }
      default: {
        acc = acc - 1i;
      }
    }
  }
  let v = vec2<f32>(r, 1.0f);
  if (v.x > 0.0f) {
    return acc;
  }
  return acc * 2i;
}
`

// TestShrinkReachesHandDerivedMinimum: the % sits in `acc = acc + (…) % p`
// under an if and a switch, in a kernel returning i32. The minimum by hand:
// the % must stay in some statement, and no edit moves an expression from
// one statement into another (so `return 0i % p;` is out of reach); the
// kernel needs its return. Best is the assignment turned into a phony
// assignment, every operand at its smallest (0i), and `return 0i;`: 2
// statements, with the unused parameters, the helper and the global gone
// and the first invocation alone left.
func TestShrinkReachesHandDerivedMinimum(t *testing.T) {
	m := parse(t, remProgram)
	args := [][]ir.Value{
		{ir.I32Val(5), ir.U32Val(4), ir.F32Val(1)},
		{ir.I32Val(-3), ir.U32Val(0), ir.F32Val(-2)},
		{ir.I32Val(7), ir.U32Val(9), ir.F32Val(0)},
	}
	c := shrink.Case{Module: m, Kernel: "kernel", Args: args}
	require.True(t, remByParam(c))
	before := ir.Print(m)
	out := shrink.Minimize(c, remByParam, 0)
	assert.Equal(t, before, ir.Print(m), "Minimize does not mutate its input")
	want := "fn kernel(p: i32) -> i32 {\n  _ = 0i % p;\n  return 0i;\n}\n"
	assert.Equal(t, want, ir.Print(out.Module))
	assert.Equal(t, 2, shrink.Stmts(out.Module, out.Kernel))
	assert.Equal(t, [][]ir.Value{{ir.I32Val(5)}}, out.Args, "first invocation, parameter column p only")
	assert.True(t, remByParam(out))
}

func TestShrinkGeneratedProgramsToTinyCases(t *testing.T) {
	n := 0
	for seed := uint64(0); seed < 300 && n < 15; seed++ {
		p := gen.Generate(seed, gen.Config{})
		c := shrink.Case{Module: p.Module, Kernel: p.Kernel, Args: gen.Inputs(seed, p.Module.Func(p.Kernel).Params, 4)}
		if !remByParam(c) {
			continue
		}
		n++
		out := shrink.Minimize(c, remByParam, 0)
		require.True(t, remByParam(out))
		// The % needs the statement holding it (`_ = 0i % p` at best) and
		// the kernel's return; when the divisor is a helper's parameter
		// the helper stays (inlining turns parameters into lets), with
		// its return, and the kernel needs a statement calling it.
		assert.LessOrEqual(t, shrink.Stmts(out.Module, out.Kernel), 4, "seed %d:\n%s", seed, ir.Print(out.Module))
		assert.Len(t, out.Args, 1)
	}
	require.Greater(t, n, 5, "programs with an i32 % by a parameter")
}

func TestMinimizeNeverReturnsAPassingCase(t *testing.T) {
	// Deterministic but irregular predicates: the failure "survives" an
	// edit for reasons unrelated to the edit.
	preds := map[string]func(shrink.Case) bool{
		"hash": func(c shrink.Case) bool {
			h := ir.Hash(ir.Print(c.Module))
			return h[0]%3 != 0 || h[1]%2 == 0
		},
		"has a loop": func(c shrink.Case) bool {
			for _, f := range c.Module.CallGraph(c.Kernel) {
				if ir.Any(f.Body, func(n ir.Node) bool { _, ok := n.(*ir.Loop); return ok }) {
					return true
				}
			}
			return false
		},
		"two invocations and a call": func(c shrink.Case) bool {
			return len(c.Args) >= 2 && len(c.Module.CallGraph(c.Kernel)) >= 2
		},
	}
	for name, pred := range preds {
		t.Run(name, func(t *testing.T) {
			checked := 0
			for seed := uint64(0); seed < 40; seed++ {
				p := gen.Generate(seed, gen.Config{})
				c := shrink.Case{Module: p.Module, Kernel: p.Kernel, Args: gen.Inputs(seed, p.Module.Func(p.Kernel).Params, 3)}
				if !pred(c) {
					continue
				}
				checked++
				out := shrink.Minimize(c, pred, 200)
				require.True(t, pred(out), "seed %d", seed)
				require.NoError(t, ir.Verify(out.Module))
			}
			require.Greater(t, checked, 3)
		})
	}
}

func TestMinimizeStopsAtTheAttemptBudget(t *testing.T) {
	p := gen.Generate(3, gen.Config{})
	c := shrink.Case{Module: p.Module, Kernel: p.Kernel}
	calls := 0
	out := shrink.Minimize(c, func(shrink.Case) bool { calls++; return false }, 7)
	assert.Equal(t, 7, calls)
	assert.Same(t, c.Module, out.Module, "nothing failed: the input comes back")
}

// TestMinimizeParallelIsMinimize: with 2, 3 or 5 candidates evaluated at
// once, MinimizeParallel returns exactly Minimize's case (program text and
// arguments) under an irregular predicate, for budgets from a handful of
// attempts to none, so it counts attempts as Minimize does; with nothing
// failing it calls the predicate exactly the budget's number of times.
func TestMinimizeParallelIsMinimize(t *testing.T) {
	pred := func(c shrink.Case) bool {
		h := ir.Hash(ir.Print(c.Module) + fmt.Sprint(c.Args))
		return h[0]%3 != 0 || h[1]%2 == 0
	}
	checked := 0
	for seed := uint64(0); seed < 12; seed++ {
		p := gen.Generate(seed, gen.Config{})
		c := shrink.Case{Module: p.Module, Kernel: p.Kernel, Args: gen.Inputs(seed, p.Module.Func(p.Kernel).Params, 3)}
		if !pred(c) {
			continue
		}
		checked++
		for _, budget := range []int{5, 13, 40, 0} {
			want := shrink.Minimize(c, pred, budget)
			for _, workers := range []int{2, 3, 5} {
				got := shrink.MinimizeParallel(c, pred, budget, workers)
				require.Equal(t, ir.Print(want.Module), ir.Print(got.Module), "seed %d budget %d workers %d", seed, budget, workers)
				require.Equal(t, want.Args, got.Args, "seed %d budget %d workers %d", seed, budget, workers)
			}
		}
	}
	require.Greater(t, checked, 3)

	p := gen.Generate(3, gen.Config{})
	var mu sync.Mutex
	calls := 0
	out := shrink.MinimizeParallel(shrink.Case{Module: p.Module, Kernel: p.Kernel}, func(shrink.Case) bool {
		mu.Lock()
		calls++
		mu.Unlock()
		return false
	}, 7, 3)
	assert.Equal(t, 7, calls)
	assert.Same(t, p.Module, out.Module)
}

func TestCandidatesAreDeterministic(t *testing.T) {
	for seed := uint64(0); seed < 5; seed++ {
		p := gen.Generate(seed, gen.Config{Size: 15})
		c := shrink.Case{Module: p.Module, Kernel: p.Kernel, Args: gen.Inputs(seed, p.Module.Func(p.Kernel).Params, 3)}
		a, b := shrink.Candidates(c), shrink.Candidates(c)
		require.Equal(t, len(a), len(b))
		require.NotEmpty(t, a)
		for i := range a {
			require.Equal(t, ir.Print(a[i].Module), ir.Print(b[i].Module), "candidate %d", i)
			require.Equal(t, a[i].Args, b[i].Args, "candidate %d", i)
		}
	}
}

func TestFirstCandidatesKeepOneInvocation(t *testing.T) {
	p := gen.Generate(1, gen.Config{})
	args := gen.Inputs(1, p.Module.Func(p.Kernel).Params, 5)
	cs := shrink.Candidates(shrink.Case{Module: p.Module, Kernel: p.Kernel, Args: args})
	require.Greater(t, len(cs), 7)
	for i := 0; i < 5; i++ {
		assert.Equal(t, args[i:i+1], cs[i].Args, "candidate %d keeps invocation %d", i, i)
		assert.Equal(t, ir.Print(p.Module), ir.Print(cs[i].Module))
	}
	assert.Equal(t, args[:2], cs[5].Args)
	assert.Equal(t, args[2:], cs[6].Args)
}

// TestCandidatesTerminateAndRunInInterp runs every candidate of generated
// programs (inside the subset and with a deliberate unbounded loop) in the
// interpreter: none may exceed the step limit. Candidates may leave the
// exact float domain (that is for the predicate to judge), so only
// termination is asserted.
func TestCandidatesTerminateAndRunInInterp(t *testing.T) {
	refusal, err := gen.LookupProfile("refusal")
	require.NoError(t, err)
	programs := 0
	for seed := uint64(0); seed < 40 && programs < 12; seed++ {
		cfg := gen.Config{Size: 12}
		if seed%2 == 1 {
			cfg.Profile = refusal
		}
		p := gen.Generate(seed, cfg)
		if p.OutsideSubset == gen.OutsideRecursion {
			continue
		}
		programs++
		c := shrink.Case{Module: p.Module, Kernel: p.Kernel, Args: gen.Inputs(seed, p.Module.Func(p.Kernel).Params, 2)}
		for i, cand := range shrink.Candidates(c) {
			invs, err := interp.Run(cand.Module, cand.Kernel, cand.Args, interp.Options{MaxSteps: 1_000_000})
			require.NoError(t, err, "seed %d candidate %d:\n%s", seed, i, ir.Print(cand.Module))
			for _, inv := range invs {
				require.NoError(t, inv.Err, "seed %d candidate %d:\n%s", seed, i, ir.Print(cand.Module))
			}
		}
	}
	require.GreaterOrEqual(t, programs, 10)
}

func TestDropUnusedParameterDropsItsArgumentColumn(t *testing.T) {
	m := parse(t, `
fn kernel(a: i32, unused: u32, b: i32) -> i32 {
  return a - b;
}`)
	args := [][]ir.Value{{ir.I32Val(1), ir.U32Val(2), ir.I32Val(3)}, {ir.I32Val(4), ir.U32Val(5), ir.I32Val(6)}}
	var found bool
	for _, c := range shrink.Candidates(shrink.Case{Module: m, Kernel: "kernel", Args: args}) {
		if len(c.Module.Func("kernel").Params) == 2 && len(c.Args) == 2 {
			found = true
			assert.Equal(t, "fn kernel(a: i32, b: i32) -> i32 {\n  return a - b;\n}\n", ir.Print(c.Module))
			assert.Equal(t, [][]ir.Value{{ir.I32Val(1), ir.I32Val(3)}, {ir.I32Val(4), ir.I32Val(6)}}, c.Args)
		}
	}
	assert.True(t, found, "a candidate drops the unused parameter")
}

func TestDropUnusedStructMemberRewritesTypesAndArguments(t *testing.T) {
	m := parse(t, `
struct Inner { x: vec2<f32>, unused: u32, y: i32 }
struct Outer { a: array<Inner, 2>, n: i32 }
var<private> g: Outer = Outer(array<Inner, 2>(Inner(vec2<f32>(1.0f, 2.0f), 3u, 4i), Inner(vec2<f32>(5.0f, 6.0f), 7u, 8i)), 9i);

fn kernel(s: Inner) -> i32 {
  g.a[1].y = s.y;
  return s.y + g.a[0].y + i32(g.a[1].x.y) + g.n;
}`)
	inner := m.Struct("Inner")
	argT := ir.StructType(inner)
	args := [][]ir.Value{{ir.CompositeVal(argT, ir.CompositeVal(ir.Vec(2, ir.F32), ir.F32Val(1), ir.F32Val(2)), ir.U32Val(3), ir.I32Val(4))}}
	var found *shrink.Case
	for _, c := range shrink.Candidates(shrink.Case{Module: m, Kernel: "kernel", Args: args}) {
		if len(c.Module.Struct("Inner").Fields) == 2 {
			c := c
			found = &c
			break
		}
	}
	require.NotNil(t, found, "a candidate drops Inner.unused")
	require.NoError(t, ir.Verify(found.Module))
	out := ir.Print(found.Module)
	assert.Contains(t, out, "struct Inner {\n  x: vec2<f32>,\n  y: i32,\n}")
	assert.Contains(t, out, "Inner(vec2<f32>(1.0f, 2.0f), 4i), Inner(vec2<f32>(5.0f, 6.0f), 8i)")
	assert.Contains(t, out, "g.a[1i].y = s.y;")
	assert.Equal(t, "Inner(vec2<f32>(1.0f, 2.0f), 4i)", found.Args[0][0].String())
	assert.Equal(t, 2, len(found.Module.Func("kernel").Params[0].T.Struct.Fields))
	// The shrunk case still runs and computes the same (the member was dead).
	want, err := interp.Run(m, "kernel", args, interp.Options{})
	require.NoError(t, err)
	got, err := interp.Run(found.Module, "kernel", found.Args, interp.Options{})
	require.NoError(t, err)
	assert.Equal(t, want[0].Outputs[0].Value.String(), got[0].Outputs[0].Value.String())
}

func TestStmtsCountsTheKernelsCallGraph(t *testing.T) {
	m := parse(t, `
var<private> g: i32;
fn unused() { g = 1i; g = 2i; g = 3i; }
fn h(a: i32) -> i32 {
  if (a > 0i) {
    return a;
  }
  return -a;
}
fn kernel(p: i32) -> i32 {
  var x: i32 = h(p);
  loop {
    if (x > 3i) { break; }
    x += 1i;
  }
  return x;
}`)
	// h: if, return, return (3); kernel: decl, loop, if, break, assign, return (6).
	assert.Equal(t, 9, shrink.Stmts(m, "kernel"))
	assert.Equal(t, 3, shrink.Stmts(m, "h"))
	assert.Equal(t, 3, shrink.Stmts(m, "unused"))
}

func TestInlineSingleCallSite(t *testing.T) {
	m := parse(t, `
fn h(a: i32, b: i32) -> i32 {
  var t: i32 = a * b;
  t += a;
  return t;
}
fn kernel(a: i32) -> i32 {
  let b: i32 = a + 1i;
  return h(b, a) - b;
}`)
	var inlined *shrink.Case
	for _, c := range shrink.Candidates(shrink.Case{Module: m, Kernel: "kernel"}) {
		if c.Module.Func("h") == nil && shrink.Stmts(c.Module, "kernel") > 2 {
			c := c
			inlined = &c
			break
		}
	}
	require.NotNil(t, inlined)
	args := [][]ir.Value{{ir.I32Val(3)}, {ir.I32Val(-7)}, {ir.I32Val(2147483647)}}
	want, err := interp.Run(m, "kernel", args, interp.Options{})
	require.NoError(t, err)
	got, err := interp.Run(inlined.Module, "kernel", args, interp.Options{})
	require.NoError(t, err)
	for i := range args {
		assert.Equal(t, want[i].Outputs[0].Value, got[i].Outputs[0].Value, "inlining preserves this program's values (invocation %d)\n%s", i, ir.Print(inlined.Module))
	}
}

// TestGenShrinkerShrinksFailingProperties runs a deliberately failing
// property under gopter: gen.Gen's shrinker (this package's Stream) must
// bring the counterexample down to a handful of statements.
func TestGenShrinkerShrinksFailingProperties(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(99)
	params.MinSuccessfulTests = 100
	params.MaxShrinkCount = 2000
	res := prop.ForAll(func(p *gen.Program) bool {
		return !remByParam(shrink.Case{Module: p.Module, Kernel: p.Kernel})
	}, gen.Gen(gen.Config{})).Check(params)
	require.Equal(t, gopter.TestFailed, res.Status, "the property is false for some program")
	shrunk := res.Args[0].Arg.(*gen.Program)
	orig := res.Args[0].OrigArg.(*gen.Program)
	assert.True(t, remByParam(shrink.Case{Module: shrunk.Module, Kernel: shrunk.Kernel}))
	assert.Greater(t, shrunk.Shrunk, 0)
	assert.Equal(t, orig.Seed, shrunk.Seed)
	assert.LessOrEqual(t, shrink.Stmts(shrunk.Module, shrunk.Kernel), 3, "%s", shrunk)
}

// TestDropUnusedStructMemberRewritesBindings: a struct that is the type
// of an entry point's bindings (a uniform, a runtime-sized storage array
// of it) loses an unused member in the bindings' types too, on copies:
// the candidate's printed module and its variables agree (they did not:
// the binding kept the old declaration, so a campaign's shrunk case of
// a compute program did not read back), and the original is untouched.
func TestDropUnusedStructMemberRewritesBindings(t *testing.T) {
	m := parse(t, `
struct P { unused: u32, k: i32 }
@group(0) @binding(0) var<uniform> prm: P;
@group(0) @binding(1) var<storage, read_write> ps: array<P>;
@group(0) @binding(2) var<storage, read_write> out: array<i32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32) {
  out[li] = prm.k + ps[li].k;
}`)
	var found *shrink.Case
	for _, c := range shrink.Candidates(shrink.Case{Module: m, Kernel: "main"}) {
		if len(c.Module.Struct("P").Fields) == 1 {
			c := c
			found = &c
			break
		}
	}
	require.NotNil(t, found, "a candidate drops P.unused")
	require.NoError(t, ir.Verify(found.Module))
	for _, name := range []string{"prm", "ps"} {
		v := found.Module.SharedVar(name)
		st := v.T
		if st.Kind == ir.KindRuntimeArray {
			st = st.Elem
		}
		assert.Same(t, found.Module.Struct("P"), st.Struct, "%s's type is the new declaration", name)
	}
	assert.Len(t, m.Struct("P").Fields, 2, "the original keeps its member")
	assert.Len(t, m.SharedVar("prm").T.Struct.Fields, 2, "and its binding's type")
	m2, err := wgsl.Parse("again.wgsl", []byte(ir.Print(found.Module)))
	require.NoError(t, err, "%s", ir.Print(found.Module))
	assert.Equal(t, ir.Print(found.Module), ir.Print(m2))
}
