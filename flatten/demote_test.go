package flatten_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// fragmentTwin flattens the fragment entry point fs of src (Strict, every
// pass verified) and checks what every fragment twin must be: its stage
// and IO, a module that verifies, WGSL that parses back to the same
// function, and SPIR-V under both discard lowerings.
func fragmentTwin(t *testing.T, src string) (*ir.Module, *ir.Func) {
	t.Helper()
	m := parse(t, src)
	twin, err := flatten.Function(m, "fs", flatten.Options{VerifyPasses: true, Strict: true})
	require.NoError(t, err)
	require.NoError(t, ir.Verify(m))
	fs := m.Func("fs")
	assert.Equal(t, ir.StageFragment, twin.Stage)
	assert.Equal(t, wgsl.StageInputs(fs), wgsl.StageInputs(twin))
	assert.Equal(t, wgsl.StageOutputs(fs), wgsl.StageOutputs(twin))
	text, err := wgsl.EmitStage(m, twin.Name, wgsl.EmitOptions{Mode: wgsl.Raw})
	require.NoError(t, err)
	back, err := wgsl.Parse("re.wgsl", []byte(text))
	require.NoError(t, err, text)
	assert.Equal(t, ir.PrintFunc(twin), ir.PrintFunc(back.Func(twin.Name)))
	for _, d := range []spirv.Discard{spirv.DiscardDemote, spirv.DiscardKill} {
		_, err := spirv.Emit(m, twin.Name, spirv.Options{Discard: d})
		require.NoError(t, err, "SPIR-V (%s) of\n%s", d, ir.PrintFunc(twin))
	}
	return m, twin
}

// runLanes runs entry name of m on one quad whose four lanes take args
// (lane l is pixel (l&1, l>>1)) and returns the lanes' outcomes.
func runLanes(t *testing.T, m *ir.Module, name string, args [4][]ir.Value) [4]interp.LaneResult {
	t.Helper()
	p, err := interp.Compile(m, name)
	require.NoError(t, err)
	var q interp.Quad
	for l := range q {
		q[l].Args = args[l]
	}
	res, err := p.RunQuadList([]interp.Quad{q}, interp.Options{})
	require.NoError(t, err)
	var out [4]interp.LaneResult
	for l := range out {
		out[l] = res[0][l]
		require.NoError(t, out[l].Err, "%s lane %d", name, l)
	}
	return out
}

// countDiscards counts the discard statements in b.
func countDiscards(b *ir.Block) int {
	n := 0
	ir.Inspect(b, func(n2 ir.Node) bool {
		if _, ok := n2.(*ir.Discard); ok {
			n++
		}
		return true
	})
	return n
}

// TestKeepABIReadsGoBeforeTheDemoteGuard: a fragment that discards and
// reads a private global only in code the twin drops (`let y = g;` binds
// a value nothing uses) gets keepabi's phony read `_ = g;`, and it goes
// before the demote guard, which stays the last statement before the
// return (it used to follow the guard: "twin fs_flat breaks the twin
// contract: *ir.If"). By hand, v = 1 discards and v = 0, 2 do not; every
// lane's output is (1, 1, 1, 1).
func TestKeepABIReadsGoBeforeTheDemoteGuard(t *testing.T) {
	m, twin := fragmentTwin(t, `var<private> g: i32 = 1i;
@fragment fn fs(@location(0) @interpolate(flat) v: u32) -> @location(0) vec4<f32> {
  if (v == 1u) { discard; }
  if (v == 2u) { let y = g; }
  return vec4<f32>(1.0);
}
`)
	stmts := twin.Body.Stmts
	require.GreaterOrEqual(t, len(stmts), 3, ir.PrintFunc(twin))
	assert.IsType(t, &ir.Return{}, stmts[len(stmts)-1])
	guard, ok := stmts[len(stmts)-2].(*ir.If)
	require.True(t, ok, "the demote guard precedes the return:\n%s", ir.PrintFunc(twin))
	require.Len(t, guard.Then.Stmts, 1)
	assert.IsType(t, &ir.Discard{}, guard.Then.Stmts[0])
	assert.Equal(t, 1, countDiscards(twin.Body))
	reads := 0
	for _, s := range stmts[:len(stmts)-2] {
		if e, ok := s.(*ir.ExprStmt); ok {
			if id, ok := e.X.(*ir.Ident); ok && id.Name == "g" && id.Ref == ir.RefGlobal {
				reads++
			}
		}
	}
	assert.Equal(t, 1, reads, "one phony read of g before the guard:\n%s", ir.PrintFunc(twin))
	assert.Equal(t, []string{"g"}, globalNames(m.GlobalsUsed(twin.Name)))

	args := [4][]ir.Value{{ir.U32Val(0)}, {ir.U32Val(1)}, {ir.U32Val(2)}, {ir.U32Val(1)}}
	want := [4]bool{false, true, false, true}
	for _, name := range []string{"fs", twin.Name} {
		lanes := runLanes(t, m, name, args)
		for l, r := range lanes {
			assert.Equal(t, want[l], r.Discarded, "%s lane %d", name, l)
			out := r.Outputs[0].Value
			for c := 0; c < 4; c++ {
				assert.Equal(t, float32(1), out.Elems[c].F32(), "%s lane %d component %d", name, l, c)
			}
		}
	}
}

func globalNames(gs []*ir.Global) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.Name)
	}
	return out
}

// TestFlatFragmentKeepsItsDerivatives: a fragment entry point with no
// if, loop, switch or call is its own twin, and its derivatives stay
// whatever the whitelist says (its control flow is uniform throughout,
// as checkUniform keeps them in a lowered fragment twin); it used to be
// refused ("builtin dpdx is not in the whitelist of leaf builtins"). A
// function that is no fragment entry point still has its derivative
// refused. By hand: the quad's v are 1, 3 (top row) and 2, 4 (bottom
// row), so dpdx is 2 in every lane, fine or coarse (either row).
func TestFlatFragmentKeepsItsDerivatives(t *testing.T) {
	const src = `fn helper(v: f32) -> f32 { return dpdx(v); }
@fragment fn fs(@location(0) v: f32) -> @location(0) vec4<f32> { return vec4<f32>(dpdx(v)); }
`
	m, twin := fragmentTwin(t, src)
	assert.Equal(t, ir.PrintFunc(m.Func("fs"))[len("@fragment\nfn fs"):], ir.PrintFunc(twin)[len("@fragment\nfn fs_flat"):], "the twin is the function as written")
	args := [4][]ir.Value{{ir.F32Val(1)}, {ir.F32Val(3)}, {ir.F32Val(2)}, {ir.F32Val(4)}}
	for _, name := range []string{"fs", twin.Name} {
		for l, r := range runLanes(t, m, name, args) {
			out := r.Outputs[0].Value
			for c := 0; c < 4; c++ {
				assert.Equal(t, float32(2), out.Elems[c].F32(), "%s lane %d component %d", name, l, c)
			}
		}
	}

	m2 := parse(t, src)
	_, err := flatten.Function(m2, "fs", flatten.Options{Whitelist: []string{}})
	require.NoError(t, err, "an empty whitelist keeps a fragment's derivatives too")

	_, err = flatten.Function(m2, "helper", flatten.Options{})
	require.Error(t, err)
	assert.True(t, flatten.IsRefusal(err), "%v", err)
	assert.Contains(t, err.Error(), "test.wgsl:1:35: flatten: builtin dpdx is not in the whitelist of leaf builtins")
}

// TestAlwaysDiscardingFragmentDemotesWithABareDiscard: a fragment whose
// callee discards unconditionally has a demote mask that folds to true
// after inlining; the fold leaves the guard's statement, a bare
// `discard;`, as the twin's demotion before its return (it used to be
// refused: "after pass fold: … *ir.Discard"). With a private global read
// only in dead code, keepabi's read goes before it. By hand, every lane
// discards and still computes its output (v, v, v, v).
func TestAlwaysDiscardingFragmentDemotesWithABareDiscard(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		reads     int
	}{
		{"callee", `fn h() { discard; }
@fragment fn fs(@location(0) v: f32) -> @location(0) vec4<f32> { h(); return vec4<f32>(v); }
`, 0},
		{"callee and dead read", `var<private> g: f32 = 2.0;
fn h() { discard; }
@fragment fn fs(@location(0) v: f32) -> @location(0) vec4<f32> {
  h();
  if (v > 9.0) { let y = g; }
  return vec4<f32>(v);
}
`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, twin := fragmentTwin(t, tc.src)
			stmts := twin.Body.Stmts
			require.Len(t, stmts, 2+tc.reads, ir.PrintFunc(twin))
			assert.IsType(t, &ir.Discard{}, stmts[len(stmts)-2], ir.PrintFunc(twin))
			assert.IsType(t, &ir.Return{}, stmts[len(stmts)-1])
			assert.Equal(t, 1, countDiscards(twin.Body))
			if tc.reads > 0 {
				assert.IsType(t, &ir.ExprStmt{}, stmts[0])
			}
			args := [4][]ir.Value{{ir.F32Val(0.5)}, {ir.F32Val(1)}, {ir.F32Val(10)}, {ir.F32Val(-3)}}
			for _, name := range []string{"fs", twin.Name} {
				for l, r := range runLanes(t, m, name, args) {
					assert.True(t, r.Discarded, "%s lane %d", name, l)
					out := r.Outputs[0].Value
					for c := 0; c < 4; c++ {
						assert.Equal(t, args[l][0].F32(), out.Elems[c].F32(), "%s lane %d component %d", name, l, c)
					}
				}
			}
		})
	}
}

// TestABareDiscardIsTheDemotionOnlyAtTheEnd: the twin contract allows a
// bare discard only where the demote guard goes. A fragment that
// discards first and then branches is lowered (not its own twin), and
// its twin keeps one demotion, at the end.
func TestABareDiscardIsTheDemotionOnlyAtTheEnd(t *testing.T) {
	m, twin := fragmentTwin(t, `@fragment fn fs(@location(0) v: f32) -> @location(0) vec4<f32> {
  discard;
  var x = v;
  if (v > 1.0) { x = 2.0 * v; }
  return vec4<f32>(x);
}
`)
	assert.Equal(t, 1, countDiscards(twin.Body))
	stmts := twin.Body.Stmts
	assert.IsType(t, &ir.Discard{}, stmts[len(stmts)-2], ir.PrintFunc(twin))
	for _, s := range stmts {
		_, isIf := s.(*ir.If)
		assert.False(t, isIf, "no if is left:\n%s", ir.PrintFunc(twin))
	}
	// By hand: x = v for v ≤ 1, 2v above; every lane discards.
	args := [4][]ir.Value{{ir.F32Val(0.5)}, {ir.F32Val(1)}, {ir.F32Val(3)}, {ir.F32Val(-3)}}
	want := [4]float32{0.5, 1, 6, -3}
	for _, name := range []string{"fs", twin.Name} {
		for l, r := range runLanes(t, m, name, args) {
			assert.True(t, r.Discarded, "%s lane %d", name, l)
			assert.Equal(t, want[l], r.Outputs[0].Value.Elems[0].F32(), "%s lane %d", name, l)
		}
	}
}

// TestDemoteFaultIsSeen: the injected fault demote-callee-dropped loses
// a helper's discard, and running the twin beside the original shows it
// (what a render campaign must find). By hand, dk discards for p0 = 1 and
// 5 (p0 % 4 == 1), not for 0 and 2: the original demotes lanes 1 and 3,
// the faulty twin none, the sound twin lanes 1 and 3.
func TestDemoteFaultIsSeen(t *testing.T) {
	const src = `fn dk(p0: u32) {
  if (p0 % 4u == 1u) {
    discard;
  }
}

@fragment
fn fs(@location(0) @interpolate(flat) v: u32) -> @location(0) vec4<f32> {
  dk(v);
  return vec4<f32>(f32(v));
}
`
	args := [4][]ir.Value{{ir.U32Val(0)}, {ir.U32Val(1)}, {ir.U32Val(2)}, {ir.U32Val(5)}}
	for _, tc := range []struct {
		fault string
		want  [4]bool
	}{{"", [4]bool{false, true, false, true}}, {"demote-callee-dropped", [4]bool{}}} {
		m := parse(t, src)
		twin, err := flatten.Function(m, "fs", flatten.Options{Fault: tc.fault, VerifyPasses: true})
		require.NoError(t, err)
		for l, r := range runLanes(t, m, "fs", args) {
			assert.Equal(t, l%2 == 1, r.Discarded, "fs lane %d", l)
		}
		for l, r := range runLanes(t, m, twin.Name, args) {
			assert.Equal(t, tc.want[l], r.Discarded, "fault %q: twin lane %d", tc.fault, l)
			assert.Equal(t, float32(args[l][0].U32()), r.Outputs[0].Value.Elems[0].F32())
		}
	}
}

// TestFragmentWritableMemoryIsRefused: a fragment entry point with
// writable storage (outside the draws the front end takes, but a module
// flattened on its own may hold one: webgpu-samples' a-buffer) used to
// give an internal error ("twin … is not flat: *ir.If", a guard only a
// compute twin keeps) or, worse, a twin whose store escaped a discarded
// invocation (the twin demotes at its end; WGSL drops a demoted
// invocation's writes, #discard-statement). Both are refused, positioned
// at the access; a fragment that writes unconditionally and never
// discards still flattens.
func TestFragmentWritableMemoryIsRefused(t *testing.T) {
	const decl = "@group(0) @binding(0) var<storage, read_write> buf: array<u32, 4>;\n"
	for _, c := range []struct{ name, body, at string }{
		{"load under a predicate", `  var c = 0u;
  if (p.x > 2.0) { c = buf[1]; }
  return vec4f(f32(c));`, "test.wgsl:4:27: flatten: an access to writable memory under a predicate outside a compute entry point"},
		{"store after a discard", `  if (p.x > 2.0) { discard; }
  buf[0] = 1u;
  return vec4f(1.0);`, "test.wgsl:4:10: flatten: a write to memory in a fragment entry point that discards"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := parse(t, decl+"@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {\n"+c.body+"\n}\n")
			_, err := flatten.Function(m, "fs", flatten.Options{})
			require.Error(t, err)
			assert.True(t, flatten.IsRefusal(err), "%v", err)
			assert.Contains(t, err.Error(), c.at)
		})
	}
	m := parse(t, decl+`@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
  var c = 1.0;
  if (p.x > 2.0) { c = 2.0; }
  buf[0] = 1u;
  return vec4f(c);
}
`)
	_, err := flatten.Function(m, "fs", flatten.Options{VerifyPasses: true})
	require.NoError(t, err)
}
