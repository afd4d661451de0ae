package gen_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/ir"
)

func subgroupConfig(t testing.TB) gen.Config {
	return profileConfig(t, "subgroups")
}

// TestSubgroupProgramsVerify: every subgroups program is a verified
// compute entry point that uses subgroups (ir.UsesSubgroups) with the
// directives WGSL asks of it — `enable subgroups;` (WGSL
// #enable-extensions-sec) and, since some operations are in divergent
// control flow, `diagnostic(off, subgroup_uniformity);` (WGSL
// #filterable-triggering-rules) — and a seed names one program.
func TestSubgroupProgramsVerify(t *testing.T) {
	cfg := subgroupConfig(t)
	texts := map[string]bool{}
	for seed := uint64(0); seed < 150; seed++ {
		p := gen.Generate(seed, cfg)
		require.True(t, p.IsEntry(), "seed %d", seed)
		require.NoError(t, ir.Verify(p.Module), "seed %d:\n%s", seed, p)
		assert.True(t, p.Module.UsesSubgroups(p.Kernel), "seed %d:\n%s", seed, p)
		text := p.String()
		assert.True(t, strings.HasPrefix(text, "enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n"), "seed %d:\n%s", seed, text)
		assert.Equal(t, text, gen.Generate(seed, cfg).String(), "seed %d: not deterministic", seed)
		texts[text] = true
	}
	assert.Greater(t, len(texts), 145, "distinct seeds give distinct programs")
}

// TestSubgroupProfileLeavesComputeUnchanged: the compute profile draws
// nothing for subgroups (Profile.Subgroups is 0), so its programs have no
// subgroup operation and no directive.
func TestSubgroupProfileLeavesComputeUnchanged(t *testing.T) {
	cfg := computeConfig(t)
	for seed := uint64(0); seed < 40; seed++ {
		p := gen.Generate(seed, cfg)
		assert.False(t, p.Module.UsesSubgroups(p.Kernel), "seed %d", seed)
		assert.Empty(t, p.Module.Opaque, "seed %d", seed)
	}
}

// sgShapes counts, per program, the subgroup shapes of the entry point:
// "<op> <type>" for every call, "<op> in <context>" where context is
// uniform (the entry point's top level), if/else (an if whose condition
// reads per-invocation values), both arms (subgroup calls in both arms
// of one such if), switch (a case of a switch on a per-invocation
// selector), loop (a loop left by a per-invocation break besides its
// counter's), after exit (after a top-level `if (c) { return; }`), plus
// the facts about the program that the profile promises. It re-derives
// everything from the IR.
func sgShapes(p *gen.Program, into map[string]int) {
	seen := map[string]bool{}
	hit := func(s string) { seen[s] = true }
	f := p.Module.Func(p.Kernel)
	for _, prm := range f.Params {
		name := prm.Name
		if ir.SubgroupBuiltin(prm.Builtin) && ir.Any(f.Body, func(n ir.Node) bool { id, ok := n.(*ir.Ident); return ok && id.Name == name }) {
			hit("reads " + prm.Builtin)
		}
	}
	// perInvocation: an expression reads something other than literals,
	// workgroup_id, num_workgroups and subgroup_size (uniform in a
	// workgroup; WGSL #uniformity).
	perInvocation := func(e ir.Expr) bool {
		return ir.Any(e, func(n ir.Node) bool {
			id, ok := n.(*ir.Ident)
			return ok && id.Name != "wid" && id.Name != "nwg" && id.Name != "ssz"
		})
	}
	callsOf := func(n ir.Node, fn ir.Builtin) bool {
		return ir.Any(n, func(n ir.Node) bool {
			c, ok := n.(*ir.BuiltinCall)
			return ok && (c.Fn == fn || fn == 0 && c.Fn.Info().Class == ir.ClassSubgroup)
		})
	}
	calls := func(n ir.Node) bool { return callsOf(n, 0) }
	var ctx []string
	exited := false
	var stmts func(ss []ir.Stmt)
	expr := func(e ir.Node) {
		ir.Inspect(e, func(n ir.Node) bool {
			c, ok := n.(*ir.BuiltinCall)
			if !ok || c.Fn.Info().Class != ir.ClassSubgroup {
				return true
			}
			name := c.Fn.String()
			if len(c.Args) > 0 && c.Args[0].Type().Kind != ir.KindBool {
				hit(name + " " + c.Args[0].Type().String())
			}
			if len(c.Args) > 0 && !ir.Any(c.Args[0], func(n ir.Node) bool { _, ok := n.(*ir.Ident); return ok }) {
				hit("constant operand")
			}
			if len(c.Args) > 0 && ir.Any(c.Args[0], func(n ir.Node) bool {
				l, ok := n.(*ir.Lit)
				return ok && l.Val.Type.Kind == ir.KindF32 && float32(int64(l.Val.F32())) != l.Val.F32()
			}) {
				hit("fractional f32 operand")
			}
			if len(c.Args) > 1 {
				if _, ok := c.Args[1].(*ir.Lit); ok {
					hit(name + " constant id/delta")
				}
			}
			where := "uniform"
			if len(ctx) > 0 {
				where = ctx[len(ctx)-1]
			}
			if exited {
				where = "after exit"
			}
			hit(name + " in " + where)
			hit("in " + where)
			if where != "uniform" {
				hit(name + " in divergent control flow")
			}
			return true
		})
	}
	var stmt func(s ir.Stmt)
	stmt = func(s ir.Stmt) {
		switch x := s.(type) {
		case *ir.Block:
			stmts(x.Stmts)
		case *ir.If:
			expr(x.Cond)
			if len(x.Then.Stmts) == 1 && len(ctx) == 0 {
				if _, ok := x.Then.Stmts[0].(*ir.Return); ok {
					exited = true
					hit("early exit")
					return
				}
			}
			push := perInvocation(x.Cond)
			if push {
				ctx = append(ctx, "if/else")
				if calls(x.Then) && calls(x.Else) {
					hit("both arms")
				}
				for _, fn := range []ir.Builtin{ir.BSubgroupAdd, ir.BSubgroupBroadcastFirst} {
					if callsOf(x.Then, fn) && callsOf(x.Else, fn) {
						hit(fn.String() + " in both arms")
					}
				}
			}
			stmts(x.Then.Stmts)
			stmts(x.Else.Stmts)
			if push {
				ctx = ctx[:len(ctx)-1]
			}
		case *ir.Switch:
			expr(x.Selector)
			push := perInvocation(x.Selector)
			if push {
				ctx = append(ctx, "switch")
			}
			for _, c := range x.Cases {
				stmts(c.Body.Stmts)
			}
			if push {
				ctx = ctx[:len(ctx)-1]
			}
		case *ir.Loop:
			breaks := 0
			ir.Inspect(x.Body, func(n ir.Node) bool {
				if i, ok := n.(*ir.If); ok && len(i.Then.Stmts) == 1 {
					if _, ok := i.Then.Stmts[0].(*ir.Break); ok && perInvocation(i.Cond) {
						breaks++
					}
				}
				_, inner := n.(*ir.Loop)
				return !inner
			})
			push := breaks >= 2 && calls(x.Body)
			if push {
				ctx = append(ctx, "loop")
			}
			stmts(x.Body.Stmts)
			if x.Continuing != nil {
				stmts(x.Continuing.Stmts)
			}
			if push {
				ctx = ctx[:len(ctx)-1]
			}
		case *ir.Assign:
			expr(x.RHS)
			if id, ok := x.LHS.(*ir.Ident); ok && id.Name == "acc" && ir.Any(x.RHS, func(n ir.Node) bool {
				i, ok := n.(*ir.Ident)
				return ok && strings.HasPrefix(i.Name, "sgv")
			}) {
				hit("result feeds acc")
			}
		case *ir.Decl:
			if x.Init != nil {
				expr(x.Init)
			}
		case *ir.ExprStmt:
			expr(x.X)
		}
	}
	stmts = func(ss []ir.Stmt) {
		for _, s := range ss {
			stmt(s)
		}
	}
	stmts(f.Body.Stmts)

	l := f.WorkgroupSize[0] * f.WorkgroupSize[1] * f.WorkgroupSize[2]
	switch {
	case l%32 == 0:
		hit("workgroup a multiple of 32")
	case l%16 == 0:
		hit("workgroup a multiple of 16, not 32")
	case l%8 == 0:
		hit("workgroup a multiple of 8, not 16")
	case l%4 == 0:
		hit("workgroup a multiple of 4, not 8")
	default:
		hit("workgroup not a multiple of 4")
	}
	if f.WorkgroupSize[1] > 1 {
		hit("2-D workgroup")
	}
	if p.Workgroups[0]*p.Workgroups[1] > 1 {
		hit("several workgroups")
	} else {
		hit("one workgroup")
	}
	for s := range seen {
		into[s]++
	}
}

// TestSubgroupProfileCoversItsShapes: over 300 programs the generator
// reaches every shape the profile promises (issue 40's field bugs): each
// operation on each type it takes, subgroupAdd and
// subgroupBroadcastFirst in every context (wgpu#10019: both arms of a
// divergent if/else, switch cases), shuffles and ballots under branches
// (intel-graphics-compiler#402), operations in diverging loops and after
// early exits, both builtin values, and workgroups that are and are not
// multiples of the common subgroup sizes.
func TestSubgroupProfileCoversItsShapes(t *testing.T) {
	cfg := subgroupConfig(t)
	seen := map[string]int{}
	const n = 300
	for seed := uint64(0); seed < n; seed++ {
		sgShapes(gen.Generate(seed, cfg), seen)
	}
	var want []string
	numeric := []string{"subgroupAdd", "subgroupMul", "subgroupMin", "subgroupMax",
		"subgroupInclusiveAdd", "subgroupExclusiveAdd", "subgroupInclusiveMul", "subgroupExclusiveMul",
		"subgroupBroadcastFirst", "subgroupBroadcast", "subgroupShuffle", "subgroupShuffleXor", "subgroupShuffleUp", "subgroupShuffleDown"}
	for _, op := range numeric {
		for _, ty := range []string{"i32", "u32", "f32"} {
			want = append(want, op+" "+ty)
		}
	}
	for _, op := range []string{"subgroupAnd", "subgroupOr", "subgroupXor"} {
		want = append(want, op+" i32", op+" u32")
	}
	all := append(append(append([]string(nil), numeric...), "subgroupAnd", "subgroupOr", "subgroupXor"),
		"subgroupAll", "subgroupAny", "subgroupBallot", "subgroupElect")
	for _, op := range all {
		want = append(want, op+" in uniform", op+" in divergent control flow")
	}
	for _, where := range []string{"uniform", "if/else", "switch", "loop", "after exit"} {
		want = append(want, "in "+where, "subgroupAdd in "+where, "subgroupBroadcastFirst in "+where)
	}
	want = append(want, "subgroupBroadcast in if/else",
		"subgroupBroadcast constant id/delta", "subgroupShuffleXor constant id/delta",
		"subgroupShuffleUp constant id/delta", "subgroupShuffleDown constant id/delta",
		"subgroupShuffle in if/else", "subgroupShuffleDown in switch", "subgroupBallot in switch",
		"subgroupInclusiveAdd in loop", "subgroupShuffleXor in loop",
		"both arms", "subgroupAdd in both arms", "subgroupBroadcastFirst in both arms", "early exit", "constant operand", "fractional f32 operand", "result feeds acc",
		"reads subgroup_invocation_id", "reads subgroup_size",
		"workgroup a multiple of 32", "workgroup a multiple of 16, not 32", "workgroup a multiple of 8, not 16",
		"workgroup a multiple of 4, not 8", "workgroup not a multiple of 4", "2-D workgroup",
		"several workgroups", "one workgroup")
	for _, w := range want {
		assert.Positive(t, seen[w], "shape %q never generated in %d programs", w, n)
	}
	if t.Failed() {
		var ks []string
		for k, v := range seen {
			ks = append(ks, fmt.Sprintf("%s: %d", k, v))
		}
		sort.Strings(ks)
		t.Logf("seen:\n%s", strings.Join(ks, "\n"))
	}
}
