package flatten_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

func parse(t *testing.T, src string) *ir.Module {
	t.Helper()
	m, err := wgsl.Parse("test.wgsl", []byte(src))
	require.NoError(t, err)
	return m
}

// TestTwinName: the twin is name_flat, or the first free name_flat_N when
// the module already uses that name.
func TestTwinName(t *testing.T) {
	m := parse(t, `
fn shade_flat(x: f32) -> f32 { return x; }
fn shade(x: f32) -> f32 {
    if (x > 0.5) { return shade_flat(x) * 2.0; }
    return x;
}`)
	twin, err := flatten.Function(m, "shade", flatten.Options{})
	require.NoError(t, err)
	assert.Equal(t, "shade_flat_1", twin.Name)
	assert.Same(t, twin, m.Func("shade_flat_1"))
	require.NoError(t, ir.Verify(m))
}

// TestNamesNeverCollide: the user's names are the very names flatten's
// temporaries would take (live, ret, brk, cont, cond, p, sel, idx, val,
// cur, v) and the helpers' locals repeat the kernel's; the twin still
// verifies and agrees with the original.
func TestNamesNeverCollide(t *testing.T) {
	m := parse(t, `
var<private> cur: i32;

fn helper(live: i32, p: bool) -> i32 {
    var ret = live;
    if (p) {
        cur += 1;
        return ret * 2;
    }
    let cond = ret + 1;
    return cond;
}

fn kernel(brk: i32, cont: bool) -> i32 {
    var live = brk;
    var idx: array<i32, 3>;
    for (var sel = 0; sel < 3; sel++) {
        let val = helper(live + sel, cont);
        if (val > 10) {
            break;
        }
        idx[u32(brk) % 3u] = val;
        live += val;
    }
    let v = helper(live, !cont);
    if (v == 7) {
        return idx[0];
    }
    return v + idx[1];
}`)
	twin, err := flatten.Function(m, "kernel", flatten.Options{VerifyPasses: true, Strict: true})
	require.NoError(t, err)
	require.NoError(t, ir.Verify(m))
	diff, err := sameBehaviour(m, "kernel", twin.Name, gen.Inputs(11, m.Func("kernel").Params, 300))
	require.NoError(t, err)
	assert.Empty(t, diff)
}

// TestModuleIsAtomic: flatten.Module adds a twin per kernel, or, when any
// kernel is refused, none at all, listing every kernel's diagnostics.
func TestModuleIsAtomic(t *testing.T) {
	const ok = `
fn a(x: i32) -> i32 { if (x > 0) { return x; } return -x; }
fn b(x: f32) -> f32 { return x * 2.0; }
`
	m := parse(t, ok)
	require.NoError(t, flatten.Module(m, flatten.Options{}))
	assert.NotNil(t, m.Func("a_flat"))
	assert.NotNil(t, m.Func("b_flat"))

	m = parse(t, ok+`
fn c(n: u32) -> u32 { var i = 0u; while (i < n) { i++; } return i; }
fn d(n: u32) -> u32 { var i = 0u; loop { if (i * i > n) { break; } i++; } return i; }
`)
	before := ir.Print(m)
	err := flatten.Module(m, flatten.Options{Loops: "unroll"})
	require.Error(t, err)
	assert.True(t, flatten.IsRefusal(err))
	var fe *flatten.Error
	require.True(t, errors.As(err, &fe))
	assert.Equal(t, flatten.Refused, fe.Kind)
	require.Len(t, fe.List, 2, "both refused kernels are listed: %v", err)
	assert.Contains(t, fe.List[0].Error(), "test.wgsl:5:35: flatten: unbounded loop")
	assert.Contains(t, fe.List[1].Error(), "test.wgsl:6:35: flatten: unbounded loop")
	var list ir.ErrorList
	assert.True(t, errors.As(err, &list), "the diagnostics unwrap to an ir.ErrorList")
	assert.Equal(t, before, ir.Print(m), "no twin added")
}

// TestMaxUnrollBoundary: a loop entered 9 times (8 iterations and the exit
// test) needs exactly 9 copies, which MaxUnroll 9 allows.
func TestMaxUnrollBoundary(t *testing.T) {
	src := `fn s(x: i32) -> i32 { var s = 0; for (var i = 0; i < 8; i++) { s += x; } return s; }`
	_, err := flatten.Function(parse(t, src), "s", flatten.Options{MaxUnroll: 9})
	require.NoError(t, err)
	_, err = flatten.Function(parse(t, src), "s", flatten.Options{MaxUnroll: 8, Loops: "unroll"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unrolling needs 9 loop-body copies, more than MaxUnroll 8")
	// With Loops auto (the default) the loop past the cap is kept.
	var kinds []string
	_, err = flatten.Function(parse(t, src), "s", flatten.Options{MaxUnroll: 8, OnLoop: func(_ ir.Pos, k string) { kinds = append(kinds, k) }})
	require.NoError(t, err)
	assert.Equal(t, []string{"uniform"}, kinds, "the exit reads only i, a counter from a constant by a constant step")
}

// TestMaxUnrollNodes: with Loops auto, a loop whose unrolled copies would
// add more than MaxUnrollNodes nodes is kept as a loop, whatever
// MaxUnroll allows, and an outer loop is kept before the inner one it
// holds; the twin computes what the hand derivation says either way. With
// the defaults a 1,500-copy loop stays unrolled when its body is one
// small statement (about 10,000 nodes added) and is kept when its body
// holds about 60 nodes (about 90,000).
func TestMaxUnrollNodes(t *testing.T) {
	type result struct {
		kinds []string
		got   []int32
	}
	run := func(src string, opts flatten.Options, args ...int32) result {
		t.Helper()
		m := parse(t, src)
		var r result
		opts.OnLoop = func(_ ir.Pos, k string) { r.kinds = append(r.kinds, k) }
		opts.VerifyPasses = true
		twin, err := flatten.Function(m, "k", opts)
		require.NoError(t, err)
		var in [][]ir.Value
		for _, a := range args {
			in = append(in, []ir.Value{ir.I32Val(a)})
		}
		res, err := interp.Run(m, twin.Name, in, interp.Options{})
		require.NoError(t, err)
		for _, x := range res {
			require.NoError(t, x.Err)
			r.got = append(r.got, int32(x.Outputs[0].Value.Bits))
		}
		return r
	}
	// 100 iterations of s += 3x + 1: s = 300x + 100.
	one := `fn k(x: i32) -> i32 { var s = 0; for (var i = 0; i < 100; i++) { s += x * 3 + 1; } return s; }`
	want := []int32{100, 400, -800}
	r := run(one, flatten.Options{MaxUnrollNodes: 200}, 0, 1, -3)
	assert.Equal(t, []string{"uniform"}, r.kinds, "100 more copies of the body are more than 200 nodes")
	assert.Equal(t, want, r.got)
	r = run(one, flatten.Options{MaxUnrollNodes: 100000}, 0, 1, -3)
	assert.Equal(t, []string{"unrolled"}, r.kinds)
	assert.Equal(t, want, r.got)
	r = run(one, flatten.Options{MaxUnrollNodes: 200, Loops: "unroll"}, 0, 1, -3)
	assert.Equal(t, []string{"unrolled"}, r.kinds, "Loops unroll ignores the node cap")

	// 10 × 10 iterations of s += x: s = 100x. The outer loop's copies
	// hold the inner loop's: it is the larger, kept first; the inner one,
	// one copy of 11 bodies in the kept loop, fits.
	nested := `fn k(x: i32) -> i32 {
  var s = 0;
  for (var i = 0; i < 10; i++) { for (var j = 0; j < 10; j++) { s += x; } }
  return s;
}`
	r = run(nested, flatten.Options{MaxUnrollNodes: 300}, 2, -1)
	assert.ElementsMatch(t, []string{"uniform", "unrolled"}, r.kinds)
	assert.Equal(t, []int32{200, -100}, r.got)

	// The defaults: 1,500 iterations.
	small := `fn k(x: i32) -> i32 { var s = 0; for (var i = 0; i < 1500; i++) { s += x; } return s; }`
	r = run(small, flatten.Options{}, 1, -2)
	assert.Equal(t, []string{"unrolled"}, r.kinds)
	assert.Equal(t, []int32{1500, -3000}, r.got)
	// Each iteration adds (x+1)(x+2) + (x+3)(x+4) - (2x^2 + 10x) = 14,
	// in 60-odd nodes: s = 21,000.
	big := `fn k(x: i32) -> i32 {
  var s = 0;
  for (var i = 0; i < 1500; i++) {
    let a = (x + 1) * (x + 2);
    let b = (x + 3) * (x + 4);
    let c = 2 * x * x + 10 * x;
    var d = a + b;
    d = d - c;
    let e = d * 1 + 0 - (x - x) + (i - i);
    s += e;
  }
  return s;
}`
	r = run(big, flatten.Options{}, 0, 5, -7)
	assert.Equal(t, []string{"uniform"}, r.kinds)
	assert.Equal(t, []int32{21000, 21000, 21000}, r.got)

	// The cap is on what unrolling adds, not on the function's size: a
	// loop of 4 iterations after 30,000 straight-line statements (3 nodes
	// each, 90,000: more than the cap by themselves) is unrolled.
	// 30,000 x + 4 x = 30,004 x.
	long := "fn k(x: i32) -> i32 {\n  var s = 0;\n" + strings.Repeat("  s += x;\n", 30000) +
		"  for (var i = 0; i < 4; i++) { s += x; }\n  return s;\n}\n"
	r = run(long, flatten.Options{}, 1, -2)
	assert.Equal(t, []string{"unrolled"}, r.kinds)
	assert.Equal(t, []int32{30004, -60008}, r.got)
}

// TestEmptyWhitelist: with an empty (non-nil) whitelist every builtin is
// refused; nil means the default, which keeps the pure builtins.
func TestEmptyWhitelist(t *testing.T) {
	src := `fn f(x: f32) -> f32 { if (x > 0.0) { return abs(x); } return x; }`
	_, err := flatten.Function(parse(t, src), "f", flatten.Options{Whitelist: []string{}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "test.wgsl:1:45: flatten: builtin abs is not in the whitelist")
	_, err = flatten.Function(parse(t, src), "f", flatten.Options{})
	require.NoError(t, err)
	assert.Contains(t, flatten.DefaultWhitelist(), "abs")
	assert.NotContains(t, flatten.DefaultWhitelist(), "dpdx")
}

// TestUnknownFunction: flattening a name the module lacks is a refusal,
// not a panic.
func TestUnknownFunction(t *testing.T) {
	_, err := flatten.Function(parse(t, `fn f() -> i32 { return 1; }`), "g", flatten.Options{})
	require.Error(t, err)
	assert.True(t, flatten.IsRefusal(err))
	assert.False(t, flatten.IsRefusal(errors.New("other")))
}

// TestTwinIsAFixedPoint: flattening a twin (branchless and call-free)
// returns it unchanged apart from its name, and flattening leaves the
// original function's text unchanged — on every generated program inside
// the subset.
func TestTwinIsAFixedPoint(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 50
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		p := gen.Generate(seed, gen.Config{OutsideSubset: -1})
		before := ir.PrintFunc(p.Module.Func(p.Kernel))
		twin, err := flatten.Function(p.Module, p.Kernel, flatten.Options{})
		require.NoError(t, err, "seed %d", seed)
		require.Equal(t, before, ir.PrintFunc(p.Module.Func(p.Kernel)), "seed %d: the original is untouched", seed)
		again, err := flatten.Function(p.Module, twin.Name, flatten.Options{})
		require.NoError(t, err, "seed %d", seed)
		want := strings.Replace(ir.PrintFunc(twin), "fn "+twin.Name+"(", "fn "+again.Name+"(", 1)
		require.Equal(t, want, ir.PrintFunc(again), "seed %d", seed)
	}
}

// TestOpaqueFunctionRefused: a function the front end kept outside the IR
// subset (here: @must_use) is refused by name,
// positioned at the first construct outside the subset; a function with
// a function-space pointer parameter is in the IR but is no kernel, and
// is refused at its pointer type.
func TestOpaqueFunctionRefused(t *testing.T) {
	m := parse(t, "@must_use\nfn deref(x: f32) -> f32 {\n  return x;\n}\n")
	_, err := flatten.Function(m, "deref", flatten.Options{})
	require.Error(t, err)
	assert.True(t, flatten.IsRefusal(err))
	assert.Contains(t, err.Error(), "test.wgsl:1:1: flatten: function deref is outside the IR subset: function attribute @must_use")

	m = parse(t, "fn deref(p: ptr<function, i32>) -> i32 {\n  return *p;\n}\n")
	_, err = flatten.Function(m, "deref", flatten.Options{})
	require.Error(t, err)
	assert.True(t, flatten.IsRefusal(err))
	assert.Contains(t, err.Error(), "test.wgsl:1:13: flatten: function deref takes pointer parameter p")
	require.NoError(t, flatten.Module(m, flatten.Options{}), "Module skips it")
}

// TestAfterPassSeesEachPass: Options.AfterPass is called after lower and
// after every cleanup pass that changed the twin, in pipeline order
// within a round, and the twin it saw last is the finished twin.
func TestAfterPassSeesEachPass(t *testing.T) {
	m, err := wgsl.Parse("t.wgsl", []byte(`fn k(x: i32) -> i32 {
  var r = 0;
  if (x > 0) { r = 1; }
  return r;
}
`))
	require.NoError(t, err)
	var seen []string
	var last string
	twin, err := flatten.Function(m, "k", flatten.Options{AfterPass: func(pass string, twin *ir.Func) {
		seen = append(seen, pass)
		last = ir.PrintFunc(twin)
	}})
	require.NoError(t, err)
	require.NotEmpty(t, seen)
	assert.Equal(t, "lower", seen[0])
	assert.Contains(t, seen, "dse", "the lowered twin's let ret = r; return ret; leaves a dead let")
	order := map[string]int{}
	for i, n := range flatten.PassNames() {
		order[n] = i
	}
	rounds := 0
	for i, n := range seen {
		_, ok := order[n]
		require.True(t, ok, "%s is a pass name", n)
		if i > 1 && order[n] <= order[seen[i-1]] {
			rounds++ // a new cleanup round
		}
	}
	assert.Less(t, rounds, 64)
	assert.Equal(t, ir.PrintFunc(twin), last)
}
