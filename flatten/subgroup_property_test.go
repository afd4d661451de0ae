package flatten_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// sgGen writes random compute shaders whose subgroup operations sit under
// random divergent control flow: ifs and elses on the invocation's data,
// switches, unrolled loops with data-dependent breaks and continues, early
// returns, and a helper with returns of its own.
type sgGen struct {
	rng   *rand.Rand
	b     strings.Builder
	depth int
	loops int // nesting of loops (for k names)
	outs  int
	// kept: inside a loop flatten keeps (its bound reads a storage
	// buffer), where a return or break on the invocation's data would
	// make the loop's exit per invocation (a masked loop, refused).
	kept bool
	// returned: an early return was written, after which the live mask
	// is per invocation (a loop entered under it is masked).
	returned bool
}

func (g *sgGen) line(format string, args ...any) {
	g.b.WriteString(strings.Repeat("  ", g.depth+1))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteString("\n")
}

// val is a u32 expression of the invocation's values in scope.
func (g *sgGen) val() string {
	vs := []string{"x", "acc", "x + acc", "x * 3u", "(x ^ acc) % 17u"}
	if g.loops > 0 {
		vs = append(vs, fmt.Sprintf("k%d", g.loops-1), fmt.Sprintf("x + k%d", g.loops-1))
	}
	return vs[g.rng.Intn(len(vs))]
}

func (g *sgGen) cond() string {
	switch g.rng.Intn(4) {
	case 0:
		return fmt.Sprintf("x %% %du == %du", 2+g.rng.Intn(3), g.rng.Intn(2))
	case 1:
		return fmt.Sprintf("x < %du", 10+g.rng.Intn(80))
	case 2:
		return fmt.Sprintf("acc %% 2u == %du", g.rng.Intn(2))
	}
	return fmt.Sprintf("(%s) > %du", g.val(), g.rng.Intn(60))
}

// op is a subgroup operation's value, as a u32.
func (g *sgGen) op() string {
	v := g.val()
	switch g.rng.Intn(19) {
	case 15:
		return "select(0u, 8u, (" + g.cond() + ") && subgroupAny(" + g.cond() + "))"
	case 16:
		return "subgroupShuffleXor(" + v + ", 1u)"
	case 17:
		return "subgroupShuffleDown(" + v + ", acc % 2u + 1u)"
	case 18:
		return "subgroupShuffleUp(" + v + ", data[0] % 3u)"
	case 0:
		return "subgroupAdd(" + v + ")"
	case 1:
		return "subgroupMin(" + v + ")"
	case 2:
		return "subgroupMax(" + v + ")"
	case 3:
		return "subgroupInclusiveAdd(" + v + ")"
	case 4:
		return "subgroupExclusiveAdd(" + v + ")"
	case 5:
		return "subgroupAnd((" + v + ") | 0xff00u)"
	case 6:
		return "subgroupOr(" + v + ")"
	case 7:
		return "subgroupXor(" + v + ")"
	case 8:
		return "select(0u, 1u, subgroupAll(" + g.cond() + "))"
	case 9:
		return "select(0u, 2u, subgroupAny(" + g.cond() + "))"
	case 10:
		return "countOneBits(subgroupBallot(" + g.cond() + ")).x"
	case 11:
		return "select(0u, 4u, subgroupElect())"
	case 12:
		return "subgroupBroadcastFirst(" + v + ")"
	case 13:
		return "subgroupMul((" + v + ") % 3u + 1u)"
	}
	return "u32(subgroupMax(i32(" + v + ") - 40i))"
}

func (g *sgGen) stmts(n int) {
	for range n {
		g.stmt()
	}
}

func (g *sgGen) stmt() {
	r := g.rng.Intn(10)
	if g.depth >= 3 {
		r = 9
	}
	if g.kept && r == 4 {
		r = 9
	}
	switch r {
	case 8:
		if g.kept || g.loops > 0 || g.depth > 0 || g.returned {
			// A kept loop entered under a per-invocation predicate runs
			// once, masked off, where the source does not enter it: its
			// exit is per invocation (a masked loop, refused).
			g.line("acc += %s;", g.op())
			return
		}
		k := fmt.Sprintf("k%d", g.loops)
		g.line("for (var %s = 0u; %s < data[0] %% 3u + 1u; %s++) {", k, k, k)
		g.depth++
		g.loops++
		g.kept = true
		g.line("if (%s == x %% 4u) { continue; }", k)
		g.stmts(1 + g.rng.Intn(2))
		g.kept = false
		g.loops--
		g.depth--
		g.line("}")
	case 0, 1:
		g.line("if (%s) {", g.cond())
		g.depth++
		g.stmts(1 + g.rng.Intn(2))
		g.depth--
		if g.rng.Intn(2) == 0 {
			g.line("} else {")
			g.depth++
			g.stmts(1 + g.rng.Intn(2))
			g.depth--
		}
		g.line("}")
	case 2:
		g.line("switch (%s %% 3u) {", g.val())
		for _, c := range []string{"case 0u", "case 1u", "default"} {
			g.line("  %s: {", c)
			g.depth += 2
			g.stmts(g.rng.Intn(2))
			g.depth -= 2
			g.line("  }")
		}
		g.line("}")
	case 3:
		k := fmt.Sprintf("k%d", g.loops)
		g.line("for (var %s = 0u; %s < %du; %s++) {", k, k, 2+g.rng.Intn(3), k)
		g.depth++
		g.loops++
		jump := []string{"break", "continue"}[g.rng.Intn(2)]
		if g.kept {
			jump = "continue"
		}
		g.line("if (%s == x %% 4u) { %s; }", k, jump)
		g.stmts(1 + g.rng.Intn(2))
		g.loops--
		g.depth--
		g.line("}")
	case 4:
		g.line("if (%s) { return; }", g.cond())
		g.returned = true
	case 5:
		g.line("acc += helper(%s);", g.val())
	case 6:
		g.line("out[8u * i + %du] = %s;", 1+g.outs%7, g.op())
		g.outs++
	default:
		g.line("acc += %s;", g.op())
	}
}

// program returns a module source and its entry point main.
func (g *sgGen) program() string {
	g.b.Reset()
	g.b.WriteString(sgSemanticHeader)
	g.b.WriteString(`
fn helper(y: u32) -> u32 {
  if (y % 3u == 0u) { return subgroupAdd(y); }
  if (y > 50u) { return subgroupMax(y) + 1u; }
  return subgroupBroadcastFirst(y) ^ 7u;
}
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let x = data[i];
  var acc = 0u;
`)
	g.depth, g.loops, g.returned = 0, 0, false
	g.stmts(2 + g.rng.Intn(4))
	g.line("out[8u * i] = acc;")
	g.b.WriteString("}\n")
	return g.b.String()
}

// TestSubgroupTwinsAgreeOnRandomPrograms: on random programs (sgGen) and
// data, at subgroup sizes 4, 16 and 64, the twin's reference equals the
// original's maximal-reconvergence reference at every leaf both
// determine; the subgroup-guard-dropped fault is seen on some of them.
//
// Leaves the twin's reference leaves indeterminate are skipped: where an
// invocation's condition is indeterminate (a shuffle read out of range
// before), the twin's vote or reduction takes an indeterminate guarded
// operand from it — whether the source's invocation takes part is
// unknown, so the result is — while the reference's run of the source
// (interp, fork.go) may call the others' result certain (so
// `if (c) { subgroupAny(p) }` with c indeterminate in one invocation
// gives the other invocations a definite value, although that one's
// part is open). The twin's set of values holds the source's there.
func TestSubgroupTwinsAgreeOnRandomPrograms(t *testing.T) {
	n := 24
	if testing.Short() {
		n = 10
	}
	rng := rand.New(rand.NewSource(4040))
	g := &sgGen{rng: rng}
	found := 0
	for p := range n {
		src := g.program()
		data := ir.Value{Type: ir.ArrayOf(ir.U32, 128)}
		for range 128 {
			data.Elems = append(data.Elems, ir.U32Val(uint32(rng.Intn(100))))
		}
		size := []int{4, 16, 64}[p%3]
		part, err := interp.LinearSubgroups(size)
		require.NoError(t, err)
		m := parse(t, src)
		orig, err := sgRun(t, m, "main", data, part)
		if err != nil && strings.Contains(err.Error(), "is not executable by the reference") {
			t.Skipf("the reference does not run subgroup builtins yet: %v", err)
		}
		require.NoError(t, err, src)
		twin, err := flatten.Function(m, "main", flatten.Options{VerifyPasses: true})
		require.NoError(t, err, src)
		got, err := sgRun(t, m, twin.Name, data, part)
		require.NoError(t, err, src)
		if d := sgDiff(orig, got, true); d != "" {
			t.Fatalf("program %d, subgroup size %d: %s\n%s\n%s", p, size, d, src, ir.PrintFunc(twin))
		}
		fm := parse(t, src)
		ftwin, err := flatten.Function(fm, "main", flatten.Options{Fault: "subgroup-guard-dropped"})
		require.NoError(t, err, src)
		fgot, err := sgRun(t, fm, ftwin.Name, data, part)
		require.NoError(t, err, src)
		if sgDiff(orig, fgot, true) != "" {
			found++
		}
	}
	t.Logf("the fault is seen on %d of %d programs", found, n)
	require.Positive(t, found, "the subgroup-guard-dropped fault changed no determinate leaf")
}
