package flatten_test

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// Evaluation order (WGSL "Program Order Within an Invocation": operands
// left to right; #memory-views: a reference is loaded where its value is
// used; #vector-multi-component: a multi-component swizzle is a value,
// loaded when it is evaluated). The twin is straight-line code whose
// only effects are stores, so flatten must evaluate every value that
// reads a private global before a call to its right (now inlined stores)
// runs, and must not evaluate a memory view early.
//
// evalOrderProgram generates exactly the shape where that can go wrong:
// private globals of vector, array and struct type; helper functions that
// write some component of them and return a value; and a kernel whose
// expressions read the same globals through swizzles (single- and
// multi-component), indexes, members, constructors and call results, with
// the helper calls placed inside indexes, conditions, call arguments,
// constructor operands, select operands and compound assignments.

const evalOrderHeader = `struct S { v: vec4<i32>, n: i32 }
var<private> g: vec4<i32>;
var<private> a: array<i32, 4>;
var<private> s: S;
var<private> gi: u32;
var<private> m: array<vec2<i32>, 2>;
`

// evalOrderEffects are the stores a helper may do: to a whole global, a
// component, an element or a member.
var evalOrderEffects = []string{
	"g.y = %s;", "g = vec4<i32>(%s);", "g.x += %s;", "a[1] = %s;", "a[%s & 3] = 9;",
	"s.v.z = %s;", "s.n += %s;", "s = S(vec4<i32>(%s), 4);", "a = array<i32, 4>(%s, 1, 2, 3);",
	"gi = u32(%s) & 1u;", "m[1].x = %s;", "m[gi] = vec2<i32>(%s);",
}

type evalOrderGen struct {
	r       *rand.Rand
	helpers int
	depth   int
	param   string // the i32 parameter in scope
	lets    int    // lets declared so far
	// helperForm renders each short-circuit whose right operand calls a
	// helper, c && b<i>(G), as a call sc<n>(c) of a function that does
	// the same (if c { return b<i>(G); } return false;): the same
	// evaluation in WGSL, with no effectful short-circuit left for
	// ir.Normalize to lower. scFuncs collects those functions.
	helperForm bool
	scFuncs    []string
}

func (g *evalOrderGen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

// idx is a u32 in [0, 2): an index valid for every vector and array here.
func (g *evalOrderGen) idx() string {
	if g.depth > 3 {
		return g.pick("0u", "1u", "(u32(x) & 1u)")
	}
	g.depth++
	defer func() { g.depth-- }()
	return g.pick(
		fmt.Sprintf("(h%d(%s) & 1u)", g.r.Intn(g.helpers), g.i32()),
		fmt.Sprintf("(u32(%s) & 1u)", g.i32()),
		"1u", "(u32(x) & 1u)", "gi",
		fmt.Sprintf("u32(%s)", g.cond()),
	)
}

// global is an i32 expression that reads only globals and literals (valid
// in the kernel and in a helper).
func (g *evalOrderGen) global() string { return g.pick("g.x", "a[2]", "s.n", "m[gi].y", "3") }

// sc is a short-circuit whose right operand calls a global-writing helper.
func (g *evalOrderGen) sc(c string) string {
	op := g.pick("&&", "||")
	rhs := fmt.Sprintf("b%d(%s)", g.r.Intn(g.helpers), g.global())
	if !g.helperForm {
		return fmt.Sprintf("(%s %s %s)", c, op, rhs)
	}
	n := len(g.scFuncs)
	if op == "&&" {
		g.scFuncs = append(g.scFuncs, fmt.Sprintf("fn sc%d(c: bool) -> bool { if c { return %s; } return false; }\n", n, rhs))
	} else {
		g.scFuncs = append(g.scFuncs, fmt.Sprintf("fn sc%d(c: bool) -> bool { if !c { return %s; } return true; }\n", n, rhs))
	}
	return fmt.Sprintf("sc%d(%s)", n, c)
}

// i32 is an i32 expression that reads the globals and may call helpers.
func (g *evalOrderGen) i32() string {
	if g.depth > 3 {
		return g.pick(g.param, "g.x", "a[2]", "s.n", "3")
	}
	g.depth++
	defer func() { g.depth-- }()
	switch g.r.Intn(20) {
	case 15:
		// m[i][j()] with a dynamic i and a call in j: the load of m[i]'s
		// element happens after j's call, at the element i designated
		// before it (the interpreter once copied m[i] first).
		return fmt.Sprintf("m[%s][%s]", g.pick("0u", "1u", g.idx()), g.idx())
	case 16:
		return fmt.Sprintf("S(%s, %s).v[%s]", g.vec(), g.i32(), g.idx())
	case 17:
		return fmt.Sprintf("(a[gi] %s k%d(%s, %s))", g.pick("+", "-", "^"), g.r.Intn(g.helpers), g.i32(), g.i32())
	case 18:
		return fmt.Sprintf("k%d(%s, k%d(%s, %s))", g.r.Intn(g.helpers), g.i32(), g.r.Intn(g.helpers), g.i32(), g.i32())
	case 19:
		return fmt.Sprintf("select(%s, %s, %s)", g.i32(), g.i32(), g.sc(g.cond()))
	case 0:
		return fmt.Sprintf("g.%s[%s]", g.pick("yyy", "zw", "xy", "wzyx"), g.idx())
	case 1:
		return fmt.Sprintf("g[%s]", g.idx())
	case 2:
		return fmt.Sprintf("a[%s]", g.idx())
	case 3:
		return fmt.Sprintf("s.v.%s[%s]", g.pick("xz", "yyy"), g.idx())
	case 4:
		return fmt.Sprintf("s.v[%s]", g.idx())
	case 5:
		return fmt.Sprintf("vec3<i32>(%s, %s, %s)[%s]", g.i32(), g.i32(), g.i32(), g.idx())
	case 6:
		return fmt.Sprintf("array<i32, 2>(%s, %s)[%s]", g.i32(), g.i32(), g.idx())
	case 7:
		return fmt.Sprintf("(%s %s %s)", g.i32(), g.pick("+", "-", "*", "^"), g.i32())
	case 8:
		return fmt.Sprintf("select(%s, %s, %s)", g.i32(), g.i32(), g.cond())
	case 9:
		return fmt.Sprintf("k%d(%s, %s)", g.r.Intn(g.helpers), g.i32(), g.i32())
	case 10:
		return fmt.Sprintf("i32(h%d(%s))", g.r.Intn(g.helpers), g.i32())
	case 11:
		return fmt.Sprintf("(%s).%s", g.vec(), g.pick("x", "y", "zx[1]", "yz[0]"))
	case 12:
		return "s.n"
	case 13:
		return "g." + g.pick("x", "y", "z", "w")
	}
	return "x"
}

// vec is a vec4<i32> value expression.
func (g *evalOrderGen) vec() string {
	switch g.r.Intn(4) {
	case 0:
		return "g"
	case 1:
		return "s.v"
	case 2:
		return fmt.Sprintf("v%d(%s)", g.r.Intn(g.helpers), g.i32())
	}
	return fmt.Sprintf("vec4<i32>(%s, %s, g.%s)", g.i32(), g.i32(), g.pick("xy", "zw", "yx"))
}

func (g *evalOrderGen) cond() string {
	if g.depth > 3 {
		return fmt.Sprintf("(%s < %s)", g.i32(), g.i32())
	}
	g.depth++
	defer func() { g.depth-- }()
	switch g.r.Intn(5) {
	case 3:
		return g.sc(g.cond())
	case 4:
		return fmt.Sprintf("(%s == %s)", g.global(), g.i32())
	case 0:
		return fmt.Sprintf("(%s < %s)", g.i32(), g.i32())
	case 1:
		return fmt.Sprintf("(h%d(%s) == %s)", g.r.Intn(g.helpers), g.i32(), g.pick("0u", "1u"))
	}
	return fmt.Sprintf("(%s == %s)", g.i32(), g.i32())
}

func (g *evalOrderGen) effect(arg string) string {
	return fmt.Sprintf(evalOrderEffects[g.r.Intn(len(evalOrderEffects))], arg)
}

func (g *evalOrderGen) stmt() string {
	switch g.r.Intn(16) {
	case 12:
		return fmt.Sprintf("for (var i = 0; i < 2 && %s; i++) { %s }", g.cond(), g.store())
	case 13:
		return fmt.Sprintf("m[%s][%s] %s %s;", g.idx(), g.idx(), g.pick("=", "+=", "-="), g.i32())
	case 14:
		lhs := g.pick("a[%s]", "m[%s].y", "t")
		if strings.Contains(lhs, "%s") {
			lhs = fmt.Sprintf(lhs, g.idx())
		}
		return lhs + g.pick("++;", "--;")
	case 15:
		return fmt.Sprintf("if %s { %s }", g.sc(g.cond()), g.store())
	case 4:
		return fmt.Sprintf("for (var i = 0; i < 2; i++) { if %s { break; } %s }", g.cond(), g.store())
	case 5:
		return fmt.Sprintf("switch h%d(%s) & 1u { case 0u: { %s } default: { %s } }", g.r.Intn(g.helpers), g.i32(), g.store(), g.store())
	case 6:
		g.lets++
		return fmt.Sprintf("let l%d = %s; t ^= l%d;", g.lets, g.i32(), g.lets)

	case 0:
		return fmt.Sprintf("if %s { %s } else { %s }", g.cond(), g.store(), g.store())
	case 1:
		return fmt.Sprintf("if %s { return %s; }", g.cond(), g.i32())
	case 2:
		return fmt.Sprintf("t += %s;", g.i32())
	case 3:
		return fmt.Sprintf("_ = h%d(%s);", g.r.Intn(g.helpers), g.i32())
	}
	return g.store()
}

func (g *evalOrderGen) store() string {
	lhs := g.pick("t", "g.x", "g[%s]", "a[%s]", "s.v.w", "s.v[%s]", "s.n", "m[%s][%s]", "m[%s].x")
	for strings.Contains(lhs, "%s") {
		lhs = strings.Replace(lhs, "%s", g.idx(), 1)
	}
	return fmt.Sprintf("%s %s %s;", lhs, g.pick("=", "+=", "^="), g.i32())
}

// program is one module: helpers h<i> (u32, writes a global), k<i> (i32,
// writes a global, reads its arguments and the globals), v<i> (a vector
// result built from the globals after a write), and the kernel.
func (g *evalOrderGen) program() string {
	var b strings.Builder
	b.WriteString(evalOrderHeader)
	g.helpers = 1 + g.r.Intn(3)
	for i := 0; i < g.helpers; i++ {
		g.depth, g.param = 4, "p" // helper bodies read globals but call nothing
		fmt.Fprintf(&b, "fn h%d(p: i32) -> u32 { %s return u32(p + %s); }\n", i, g.effect("p"), g.i32())
		fmt.Fprintf(&b, "fn k%d(p: i32, q: i32) -> i32 { %s return p - q + %s; }\n", i, g.effect("q"), g.i32())
		fmt.Fprintf(&b, "fn v%d(p: i32) -> vec4<i32> { %s return g + vec4<i32>(p); }\n", i, g.effect("p"))
		fmt.Fprintf(&b, "fn b%d(p: i32) -> bool { %s return (p & 1) == 0; }\n", i, g.effect("p"))
	}
	g.depth, g.param = 0, "x"
	b.WriteString("fn kernel(x: i32) -> i32 {\n  g = vec4<i32>(x, x + 1, x + 2, x + 3);\n  a = array<i32, 4>(x, 10, 20, 30);\n  s = S(vec4<i32>(-x), 7);\n  gi = u32(x) & 1u;\n  m = array<vec2<i32>, 2>(vec2<i32>(x, -x), vec2<i32>(40, 50));\n  var t = 0;\n")
	for n := 1 + g.r.Intn(4); n > 0; n-- {
		fmt.Fprintf(&b, "  %s\n", g.stmt())
	}
	fmt.Fprintf(&b, "  return t + %s;\n}\n", g.i32())
	for _, f := range g.scFuncs {
		b.WriteString(f)
	}
	return b.String()
}

// evalOrderCase is one generated program in two spellings: src, with
// effectful short-circuits (c && b0(g.x)), and helperSrc, where each is a
// call of an equivalent helper function instead (evalOrderGen.helperForm).
type evalOrderCase struct {
	src, helperSrc string
}

func evalOrderProgram(seed int64) evalOrderCase {
	return evalOrderCase{
		src:       (&evalOrderGen{r: rand.New(rand.NewSource(seed))}).program(),
		helperSrc: (&evalOrderGen{r: rand.New(rand.NewSource(seed)), helperForm: true}).program(),
	}
}

// evalOrderSources is a gopter generator of such WGSL modules.
func evalOrderSources() gopter.Gen {
	return gen.Int64().Map(evalOrderProgram)
}

var evalOrderArgs = func() [][]ir.Value {
	var args [][]ir.Value
	for _, x := range []int32{0, 1, -1, 5, -7, 1 << 30, -1 << 31, 2147483647} {
		args = append(args, []ir.Value{ir.I32Val(x)})
	}
	return args
}()

// checkEvalOrder flattens kernel in c.src and compares the twin with the
// original in the interpreter, and, where c.src has effectful
// short-circuits, compares the original with c.helperSrc: the first
// checks flatten, the second ir.Normalize's short-circuit lowering, which
// both the reference and the twin are built from, so only an independent
// spelling of the same program can see it. "" means all agree.
func checkEvalOrder(c evalOrderCase) string {
	src := c.src
	m, err := wgsl.Parse("evalorder.wgsl", []byte(src))
	if err != nil {
		return fmt.Sprintf("generated WGSL does not parse: %v\n%s", err, src)
	}
	twin, err := flatten.Function(m, "kernel", flatten.Options{VerifyPasses: true})
	if err != nil {
		return fmt.Sprintf("flatten: %v\n%s", err, src)
	}
	diff, err := sameBehaviour(m, "kernel", twin.Name, evalOrderArgs)
	if err != nil {
		return fmt.Sprintf("%v\n%s", err, src)
	}
	if diff != "" {
		return fmt.Sprintf("%s\noriginal:\n%s\ntwin:\n%s", diff, src, ir.PrintFunc(twin))
	}
	if c.helperSrc == src {
		return ""
	}
	mh, err := wgsl.Parse("evalorder_helpers.wgsl", []byte(c.helperSrc))
	if err != nil {
		return fmt.Sprintf("generated WGSL does not parse: %v\n%s", err, c.helperSrc)
	}
	if diff := sameModules(m, mh, "kernel", evalOrderArgs); diff != "" {
		return fmt.Sprintf("short-circuit lowering: %s\nwith &&/||:\n%s\nwith helpers:\n%s\nnormalized:\n%s", diff, src, c.helperSrc, ir.PrintFunc(m.Func("kernel")))
	}
	return ""
}

// sameModules compares kernel's outputs in two modules, output by output
// name, bit for bit (the programs compute on i32 and bool only).
func sameModules(a, b *ir.Module, kernel string, args [][]ir.Value) string {
	ra, err := interp.Run(a, kernel, args, interp.Options{})
	if err != nil {
		return err.Error()
	}
	rb, err := interp.Run(b, kernel, args, interp.Options{})
	if err != nil {
		return err.Error()
	}
	names := func(m *ir.Module) []string {
		abi, err := ir.NewKernelABI(m, kernel)
		if err != nil {
			panic(err)
		}
		var ns []string
		for _, o := range abi.Outputs {
			ns = append(ns, o.Name)
		}
		return ns
	}
	na, nb := names(a), names(b)
	for i := range ra {
		if ra[i].Err != nil || rb[i].Err != nil {
			if (ra[i].Err == nil) != (rb[i].Err == nil) {
				return fmt.Sprintf("invocation %d: errors %v / %v", i, ra[i].Err, rb[i].Err)
			}
			continue
		}
		want := map[string]string{}
		for k, o := range ra[i].Outputs {
			want[na[k]] = o.Value.String()
		}
		for k, o := range rb[i].Outputs {
			if w, ok := want[nb[k]]; ok && w != o.Value.String() {
				return fmt.Sprintf("invocation %d %v: %s is %s with &&/||, %s with helpers", i, args[i], nb[k], w, o.Value.String())
			}
		}
	}
	return ""
}

// TestFlattenPreservesEvaluationOrder: interp(twin) == interp(original)
// on programs whose statements call global-writing helpers from inside
// indexes, conditions, arguments, constructors and compound assignments
// that read the same globals, and interp(original) == interp(the same
// program with its effectful short-circuits spelled as helper calls).
// Before flatten bound multi-component swizzles as values (the swizzle
// kernel of issue 12), this property was falsified within its first 54
// programs from every seed tried (20240601 and 1 to 5); before the
// evaluation-order sweep (flatten/doc.go "Evaluation order"), the
// extended generator falsified it through g[u32(c && b())] (ir.Normalize
// loaded g before b ran) after 7, 86, 76, 32, 34 and 20 programs from
// seeds 20240601 and 1 to 5, and, with that fixed, through
// m[gi][…h()…] = v (flatten's ref read gi after h wrote it) after 2098,
// 827, 3790, 6267, 2941 and 2561 programs from the same seeds; the
// default 500 programs (make test-long; 200 in make test) are a smoke
// test, the long runs are by hand.
//
// EVALORDER_COUNT and EVALORDER_SEED run it longer, from another seed:
//
//	EVALORDER_COUNT=100000 EVALORDER_SEED=7 go test ./flatten -run PreservesEvaluationOrder
func TestFlattenPreservesEvaluationOrder(t *testing.T) {
	seed := int64(20240601)
	if v, err := strconv.ParseInt(os.Getenv("EVALORDER_SEED"), 10, 64); err == nil {
		seed = v
	}
	params := gopter.DefaultTestParametersWithSeed(seed)
	params.MinSuccessfulTests = testCount(500, 200) // about 2.5 s and 1 s; EVALORDER_COUNT for long runs
	if testing.Short() {
		params.MinSuccessfulTests = 100
	}
	if n, err := strconv.Atoi(os.Getenv("EVALORDER_COUNT")); err == nil {
		params.MinSuccessfulTests = n
	}
	props := gopter.NewProperties(params)
	props.Property("interp(twin) == interp(original) == interp(helper spelling)", prop.ForAll(checkEvalOrder, evalOrderSources()))
	props.TestingRun(t)
}

// TestFlattenEvaluatesSwizzleBeforeCall is the kernel of issue 12: the
// multi-component swizzle g.yyy is a value, loaded before h() writes g.y,
// so k returns x (hand-derived: g = (x, x, x) when g.yyy is loaded), not
// the 5 that h stores.
func TestFlattenEvaluatesSwizzleBeforeCall(t *testing.T) {
	const src = `var<private> g: vec3<i32>;
fn h() -> u32 { g.y = 5; return 0u; }
fn k(x: i32) -> i32 { g = vec3<i32>(x); return g.yyy[h()]; }
`
	m, err := wgsl.Parse("swizzle.wgsl", []byte(src))
	require.NoError(t, err)
	twin, err := flatten.Function(m, "k", flatten.Options{Strict: true, VerifyPasses: true})
	require.NoError(t, err)
	xs := []int32{0, -3, 5, 7}
	var args [][]ir.Value
	for _, x := range xs {
		args = append(args, []ir.Value{ir.I32Val(x)})
	}
	for _, fn := range []string{"k", twin.Name} {
		res, err := interp.Run(m, fn, args, interp.Options{})
		require.NoError(t, err)
		for i, x := range xs {
			require.NoError(t, res[i].Err)
			assert.Equal(t, ir.I32Val(x), res[i].Outputs[0].Value, "%s(%d): ret (twin:\n%s)", fn, x, ir.PrintFunc(twin))
		}
	}
}
