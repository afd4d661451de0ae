package ir_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// dispatchImpls is a closed set of four same-signature implementations
// and a dispatcher over them; each test case adds a kernel k that
// chooses the tag.
const dispatchImpls = `
struct Mat { kind: u32, w: f32 }
fn a0(x: f32) -> f32 { return x; }
fn a1(x: f32) -> f32 { return x + 1.0; }
fn a2(x: f32) -> f32 { return x * 2.0; }
fn a3(x: f32) -> f32 { return -x; }
fn shade(t: u32, x: f32) -> f32 {
  switch t {
    case 0u: { return a0(x); }
    case 1u: { return a1(x); }
    case 2u, 5u: { return a2(x); }
    default: { return a3(x); }
  }
}
`

// TestTagSetAnalysis: the set of tags reaching shade's switch, derived by
// hand from each kernel's control flow.
func TestTagSetAnalysis(t *testing.T) {
	cases := []struct {
		name, kernel string
		want         ir.TagSet
		reach        []string // shade's candidates the set leaves
	}{
		{"single-valued", `fn k(x: f32) -> f32 {
  var t = 1u;
  if (x > 0.0) { t = 1u; }
  return shade(t, x);
}`, ir.TagSet{Vals: []uint32{1}}, []string{"a1"}},
		{"two-valued by if", `fn k(x: f32) -> f32 {
  var t = 2u;
  if (x > 0.0) { t = 9u; }
  return shade(t, x);
}`, ir.TagSet{Vals: []uint32{2, 9}}, []string{"a2", "a3"}},
		{"unbounded from an input", `fn k(x: f32, n: u32) -> f32 {
  return shade(n % 4u + 1u, x);
}`, ir.TagSet{Unbounded: true}, []string{"a0", "a1", "a2", "a3"}},
		{"arithmetic on a finite set stays finite", `fn k(x: f32) -> f32 {
  let b = select(0u, 2u, x > 1.0);
  return shade(b * 2u + 1u, x);
}`, ir.TagSet{Vals: []uint32{1, 5}}, []string{"a1", "a2"}},
		{"through a struct field", `fn k(x: f32) -> f32 {
  let m = Mat(select(1u, 5u, x < 0.0), x);
  return via(m);
}
fn via(m: Mat) -> f32 { return shade(m.kind, m.w); }`, ir.TagSet{Vals: []uint32{1, 5}}, []string{"a1", "a2"}},
		// The analysis is flow-insensitive: the zero value a var starts
		// with stays in its set even where every path overwrites it.
		{"a zero-initialized struct field holds 0", `fn k(x: f32) -> f32 {
  var m: Mat;
  if (x > 0.0) { m.kind = 2u; }
  return shade(m.kind, x);
}`, ir.TagSet{Vals: []uint32{0, 2}}, []string{"a0", "a2"}},
		{"through a helper's return", `fn pick(x: f32) -> u32 {
  if (x > 3.0) { return 5u; }
  if (x > 1.0) { return 1u; }
  return 5u;
}
fn k(x: f32) -> f32 { return shade(pick(x), x); }`, ir.TagSet{Vals: []uint32{1, 5}}, []string{"a1", "a2"}},
		{"parameters join over call sites", `fn k(x: f32) -> f32 {
  return shade(0u, x) + shade(2u, x);
}`, ir.TagSet{Vals: []uint32{0, 2}}, []string{"a0", "a2"}},
		{"an array of constants", `fn k(x: f32, i: u32) -> f32 {
  let tbl = array<u32, 3>(1u, 2u, 1u);
  return shade(tbl[i], x);
}`, ir.TagSet{Vals: []uint32{1, 2}}, []string{"a1", "a2"}},
		{"loop-carried, cycling", `fn k(x: f32) -> f32 {
  var t = 0u;
  var acc = 0.0;
  for (var i = 0; i < 8; i++) {
    acc += shade(t, x);
    t = (t + 1u) % 3u;
  }
  return acc;
}`, ir.TagSet{Vals: []uint32{0, 1, 2}}, []string{"a0", "a1", "a2"}},
		{"loop-carried, growing: widened", `fn k(x: f32) -> f32 {
  var t = 0u;
  var acc = 0.0;
  for (var i = 0; i < 8; i++) {
    acc += shade(t, x);
    t = t + 1u;
  }
  return acc;
}`, ir.TagSet{Unbounded: true}, []string{"a0", "a1", "a2", "a3"}},
		{"a private global is unbounded", `var<private> g: u32 = 1u;
fn k(x: f32) -> f32 { return shade(g, x); }`, ir.TagSet{Unbounded: true}, []string{"a0", "a1", "a2", "a3"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := wgsl.Parse("t.wgsl", []byte(dispatchImpls+c.kernel))
			require.NoError(t, err)
			ds := ir.FindTagSwitches(m, m.Func("shade"))
			require.Len(t, ds, 1)
			d := ds[0]
			require.Equal(t, []string{"a0", "a1", "a2", "a3"}, d.Callees())
			tf := ir.AnalyzeTags(m, "k")
			got := tf.Selector(d.Switch)
			assert.Equal(t, c.want, got, "selector set %v", got)
			assert.Equal(t, c.reach, d.Reachable(got))
		})
	}
}

// TestTagSetResultAndLocals: the helper's result and the locals carry the
// sets the analysis joins into them.
func TestTagSetResultAndLocals(t *testing.T) {
	m, err := wgsl.Parse("t.wgsl", []byte(`fn pick(c: bool) -> i32 {
  if (c) { return -1; }
  return 3;
}
fn k(x: f32) -> i32 {
  let p = pick(x > 0.0);
  var q = p;
  q = q * 2;
  return q;
}`))
	require.NoError(t, err)
	tf := ir.AnalyzeTags(m, "k")
	assert.Equal(t, ir.TagSet{Vals: []uint32{3, 0xffffffff}}.String(), tf.Result("pick").String())
	// q holds p (-1 or 3) and then twice any value it held, until widened:
	// -1 → -2 → -4 … grows without bound.
	assert.True(t, tf.Local("k", "q").Unbounded)
	assert.Equal(t, []uint32{3, 0xffffffff}, tf.Local("k", "p").Vals)
	assert.True(t, tf.Local("k", "x").Unbounded, "the root's parameters are inputs")
}

// TestRecognizeTagSwitch: what is and what is not the dispatch form.
func TestRecognizeTagSwitch(t *testing.T) {
	impls := `fn a(x: i32) -> i32 { return x; }
fn b(x: i32) -> i32 { return x + 1; }
fn c(x: i32, y: i32) -> i32 { return x + y; }
var<private> g: i32;
fn va(x: i32) { g = x; }
fn vb(x: i32) { g = -x; }
`
	cases := []struct {
		name, body string
		form       ir.TagSwitchForm // 0: not a dispatch
	}{
		{"returns", `switch t { case 0u: { return a(x); } default: { return b(x); } }`, ir.TagSwitchReturn},
		{"assigns with break", `var r = 0; switch t { case 0u: { r = a(x); break; } case 1u: { r = b(x); } default: { } } return r;`, ir.TagSwitchAssign},
		{"void calls", `switch t { case 0u: { va(x); } case 3u: { vb(x); } default: {} } return g;`, ir.TagSwitchCall},
		{"different arguments", `switch t { case 0u: { return a(x); } default: { return b(x + 1); } }`, 0},
		{"different signatures", `switch t { case 0u: { return a(x); } default: { return c(x, x); } }`, 0},
		{"same callee twice", `switch t { case 0u: { return a(x); } case 1u: { return a(x); } default: { return b(x); } }`, 0},
		{"an arm with more", `var r = 0; switch t { case 0u: { r = a(x); r += 1; } default: { r = b(x); } } return r;`, 0},
		{"different targets", `var r = 0; var s = 0; switch t { case 0u: { r = a(x); } default: { s = b(x); } } return r + s;`, 0},
		{"one arm", `switch t { case 0u: { return a(x); } default: { } } return 0;`, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := wgsl.Parse("t.wgsl", []byte(impls+"fn k(t: u32, x: i32) -> i32 { "+c.body+" }"))
			require.NoError(t, err)
			ds := ir.FindTagSwitches(m, m.Func("k"))
			if c.form == 0 {
				assert.Empty(t, ds)
				return
			}
			require.Len(t, ds, 1)
			assert.Equal(t, c.form, ds[0].Form)
		})
	}
}
