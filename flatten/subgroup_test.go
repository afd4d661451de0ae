package flatten_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
)

// sgHeader declares what the subgroup test shaders share. The source
// calls subgroup builtins under conditions on invocation ids, which WGSL
// accepts only with subgroup_uniformity off (WGSL #uniformity); its twin
// must not need that (sgReparse).
const sgHeader = `enable subgroups;
diagnostic(off, subgroup_uniformity);
struct U { n: u32, d: u32 }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read_write> outf: array<f32>;
@group(0) @binding(2) var<uniform> u: U;
`

// sgTwin flattens entry point main of sgHeader + body (strict: the
// guards leave no residual a fold would remove) and returns the module
// and the twin's text.
func sgTwin(t *testing.T, body string, opts flatten.Options) (*ir.Module, string) {
	t.Helper()
	m := parse(t, sgHeader+body)
	opts.VerifyPasses = true
	opts.Strict = true
	twin, err := flatten.Function(m, "main", opts)
	require.NoError(t, err)
	require.NoError(t, ir.Verify(m))
	return m, ir.PrintFunc(twin)
}

// sgReparse parses the twin back through the front end with
// subgroup_uniformity at its default, error, severity: every subgroup
// operation of the twin is in uniform control flow, as WGSL requires
// of a module without the diagnostic (WGSL #uniformity), although the
// source's are not. The WGSL emitter's text of the twin's entry point
// (wgsl.EmitEntry: the identities' literals, i32(-2147483648) and -0.0f
// among them) parses too.
func sgReparse(t *testing.T, twin string) {
	t.Helper()
	src := strings.Replace(sgHeader, "diagnostic(off, subgroup_uniformity);\n", "", 1) + twin
	m, err := wgsl.Parse("twin.wgsl", []byte(src))
	require.NoError(t, err, src)
	text, err := wgsl.EmitEntry(m, "main_flat", wgsl.EmitOptions{Mode: wgsl.Raw})
	require.NoError(t, err)
	_, err = wgsl.Parse("emitted.wgsl", []byte(text))
	require.NoError(t, err, text)
}

// TestSubgroupGuards: each subgroup operation under a predicate c takes
// the guarded form doc.go "Subgroups" gives, with the identities of
// WGSL's reductions (0 for add, or and xor — -0.0 for a float add — 1
// for mul, ~0 for and, the largest finite value for min and the
// smallest for max: f32 ±0x1.fffffep127 = ±3.4028235e38), and one at the
// top level, where c is statically true, stays as written.
func TestSubgroupGuards(t *testing.T) {
	_, twin := sgTwin(t, `
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  let top = subgroupAdd(i);
  var r = 0u;
  var f = 0.0;
  var b = false;
  var v = vec4u();
  if (i % 2u == 0u) {
    r = subgroupAdd(i) + subgroupMul(i) + subgroupMin(i) + subgroupMax(i);
    r += subgroupAnd(i) + subgroupOr(i) + subgroupXor(i);
    r += subgroupInclusiveAdd(i) + subgroupExclusiveMul(i);
    f = subgroupAdd(f32(i)) + subgroupMin(f32(i)) + subgroupMax(f32(i));
    r += u32(subgroupMin(i32(i)) + subgroupMax(i32(i)));
    b = subgroupAll(i < 6u) || subgroupAny(i == 4u);
    v = subgroupBallot(i > 2u);
    r += select(0u, 1u, subgroupElect()) + subgroupBroadcastFirst(i) + subgroupBroadcast(i, 1u) + subgroupShuffle(i, 0u);
  }
  out[i] = top + r + v.x + select(0u, 1u, b);
  outf[i] = f;
}`, flatten.Options{})
	for _, want := range []string{
		"subgroupAdd(i)", // the top level's: unguarded
		"subgroupAdd(select(0u, i, cond))",
		"subgroupMul(select(1u, i, cond))",
		"subgroupMin(select(4294967295u, i, cond))",
		"subgroupMax(select(0u, i, cond))",
		"subgroupAnd(select(4294967295u, i, cond))",
		"subgroupOr(select(0u, i, cond))",
		"subgroupXor(select(0u, i, cond))",
		"subgroupInclusiveAdd(select(0u, i, cond))",
		"subgroupExclusiveMul(select(1u, i, cond))",
		"subgroupAdd(select(-0.0f, f32(i), cond))",
		"subgroupMin(select(0x1.fffffep+127f, f32(i), cond))",
		"subgroupMax(select(-0x1.fffffep+127f, f32(i), cond))",
		"subgroupMin(select(2147483647i, i32(i), cond))",
		"subgroupMax(select(i32(-2147483648), i32(i), cond))",
		"subgroupBallot(cond && i > 2u)",
		"select(false, subgroupInclusiveAdd(select(0u, 1u, cond)) == 1u, cond)",
		"subgroupBallot(cond)",
		"subgroupBroadcast(i, 1u)",
		"subgroupShuffle(i, 0u)",
	} {
		assert.Contains(t, twin, want, twin)
	}
	// b = subgroupAll(...) || subgroupAny(...): the vote on the right
	// runs where the left one is false (WGSL #logical-expr), so its mask
	// is cond && !all.
	assert.Regexp(t, `subgroupAll\(\(?!cond \|\| i < 6u\)?\)`, twin)
	if all := regexp.MustCompile(`let (\w+): bool = subgroupAll`).FindStringSubmatch(twin); assert.NotNil(t, all, twin) {
		assert.Contains(t, twin, "subgroupAny(cond && !"+all[1]+" && i == 4u)", twin)
	}
	// subgroupBroadcastFirst(i): i from the lowest lane of the ballot of
	// cond, found word by word (ids 0–31 in x … 96–127 in w).
	assert.Regexp(t, regexp.MustCompile(`subgroupShuffle\(i, select\(select\(select\(select\(0u, firstTrailingBit\((\w+)\.w\) \+ 96u, \w+\.w != 0u\), firstTrailingBit\(\w+\.z\) \+ 64u, \w+\.z != 0u\), firstTrailingBit\(\w+\.y\) \+ 32u, \w+\.y != 0u\), firstTrailingBit\(\w+\.x\), \w+\.x != 0u\)\)`), twin)
	assert.NotContains(t, twin, "subgroupBroadcastFirst", twin)
	assert.NotContains(t, twin, "subgroupElect", twin)
	sgReparse(t, twin)
}

// TestSubgroupGuardsUnderSwitchReturnAndUnrolledLoop: the mask is the
// path's whole predicate — a switch case, the live mask after an early
// return, an unrolled copy's break mask — and every operation sits in
// a let of its own, outside the guards of the shared stores (entry.go),
// which would run it in some invocations only.
func TestSubgroupGuardsUnderSwitchReturnAndUnrolledLoop(t *testing.T) {
	_, twin := sgTwin(t, `
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  switch (i % 3u) {
    case 0u: { out[i] = subgroupAdd(i); }
    case 1u: { out[i] = subgroupMax(i); }
    default: {}
  }
  if (i == 7u) { return; }
  var acc = 0u;
  for (var k = 0u; k < 4u; k++) {
    if (k == i) { break; }
    acc += subgroupOr(k << i);
  }
  out[i + 8u] = subgroupXor(acc);
}`, flatten.Options{})
	assert.Regexp(t, `subgroupAdd\(select\(0u, i, case\w*\)\)`, twin)
	assert.Regexp(t, `subgroupMax\(select\(0u, i, case\w*\)\)`, twin)
	assert.Regexp(t, `subgroupXor\(select\(0u, [^;]*, live\)\);`, twin)
	assert.Equal(t, 4, strings.Count(twin, "subgroupOr("), "one per unrolled copy that can run:\n%s", twin)
	assert.Regexp(t, `subgroupOr\(select\(0u, 3u << i, p_\d+\)\)`, twin)
	for _, line := range strings.Split(twin, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "if (") {
			assert.NotContains(t, line, "subgroup", twin)
		}
	}
	guard := regexp.MustCompile(`(?s)if \([^)]*\) \{\n\s*[^\n]*subgroup`)
	assert.False(t, guard.MatchString(twin), "a subgroup operation inside a guard:\n%s", twin)
	sgReparse(t, twin)
}

// TestSubgroupShortCircuit: in c && subgroupAny(p) the source runs the
// vote only where c holds; the twin lowers the right operand under c, so
// the vote is subgroupAny(c && p), evaluated by every invocation, and
// the && joins two lets.
func TestSubgroupShortCircuit(t *testing.T) {
	_, twin := sgTwin(t, `
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i > 1u && subgroupAny(i == 4u)) { out[i] = 1u; }
  out[i + 8u] = select(0u, 1u, i < 3u || subgroupAll(i != 5u));
}`, flatten.Options{})
	assert.Regexp(t, `subgroupAny\((\w+) && i == 4u\)`, twin)
	assert.Regexp(t, `subgroupAll\(!\(?(\w+)\)? \|\| i != 5u\)|subgroupAll\((\w+) \|\| i != 5u\)`, twin)
	assert.NotRegexp(t, `(&&|\|\|) subgroup`, twin)
	sgReparse(t, twin)
}

// TestSubgroupRelativeShuffleDelta: a relative shuffle's delta must be
// uniform (WGSL #subgroupShuffleDown-builtin); the source's need only be
// uniform among the invocations with c, so a delta that reads a local is
// replaced by the first such invocation's (a shuffle from the ballot's
// lowest lane), while one read from a uniform buffer or a literal stays.
func TestSubgroupRelativeShuffleDelta(t *testing.T) {
	_, twin := sgTwin(t, `
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  var d = 0u;
  var r = 0u;
  if (i < 4u) {
    d = 1u + i / 8u;
    r = subgroupShuffleDown(i, d) + subgroupShuffleUp(i, u.d) + subgroupShuffleXor(i, 2u);
  }
  out[i] = r;
}`, flatten.Options{})
	assert.Regexp(t, `let delta\w*: u32 = subgroupShuffle\(select\(0u, 1u \+ i / 8u, cond\), select\(`, twin)
	assert.Regexp(t, `subgroupShuffleDown\(i, delta\w*\)`, twin)
	assert.Contains(t, twin, "subgroupShuffleUp(i, u.d)")
	assert.Contains(t, twin, "subgroupShuffleXor(i, 2u)")
}

// TestSubgroupUniformDeltaStays: a delta WGSL's analysis finds uniform in
// the twin — a local assigned from a uniform buffer under a uniform
// condition — is kept as it is, so a module with subgroup_uniformity at
// error (Tint requires the delta to be uniform) accepts the twin as it
// accepts the source; nothing of the first-lane replacement is left.
func TestSubgroupUniformDeltaStays(t *testing.T) {
	_, twin := sgTwin(t, `
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  var d = 0u;
  var r = 0u;
  if (u.n > 2u) {
    d = u.d + 1u;
    r = subgroupShuffleDown(i, d);
  }
  out[i] = r;
}`, flatten.Options{})
	assert.Regexp(t, `subgroupShuffleDown\(i, (d|select\(0u, u\.d \+ 1u, cond\))\)`, twin)
	assert.NotContains(t, twin, "subgroupBallot", twin)
	assert.NotContains(t, twin, "subgroupShuffle(", twin)
}

// TestSubgroupInKeptLoops: in a loop kept because its exit reads only a
// uniform buffer (a uniform kept loop, which every invocation of a
// workgroup iterates together) the operation is guarded by the loop's
// mask; in one whose exit reads the invocation id (a masked loop) it is
// refused, positioned at the operation and naming it.
func TestSubgroupInKeptLoops(t *testing.T) {
	_, twin := sgTwin(t, `
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  var acc = 0u;
  for (var k = 0u; k < u.n; k++) {
    if (k == i) { continue; }
    acc += subgroupAdd(k);
  }
  out[i] = acc;
}`, flatten.Options{})
	assert.Contains(t, twin, "loop {", twin)
	assert.Regexp(t, `subgroupAdd\(select\(0u, k, \w+\)\)`, twin)

	m := parse(t, sgHeader+`
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  var acc = 0u;
  for (var k = 0u; k < u.n + i; k++) {
    acc += subgroupAdd(k);
  }
  out[i] = acc;
}`)
	// A loop whose exit is per invocation is a masked kept loop; with a
	// subgroup operation inside, its exit waits for the whole subgroup
	// (subgroupExit): `break if !subgroupAny(m)`, the operation guarded by
	// m (the semantics: TestSubgroupTwinsAgreeInDispatch's masked-loop).
	tw, err := flatten.Function(m, "main", flatten.Options{VerifyPasses: true})
	require.NoError(t, err)
	printed := ir.PrintFunc(tw)
	assert.Regexp(t, `break if !subgroupAny\(\w+\);`, printed)
	assert.Regexp(t, `subgroupAdd\(select\(0u, \w+, \w+\)\)`, printed)
}

// TestSubgroupAfterDiscardIsRefused: a fragment twin demotes only at its
// end, while the source's invocation is a helper from its discard on,
// and WGSL does not say whether a helper takes part in a subgroup
// operation: one that may run after a discard is refused, positioned;
// one before every discard is guarded as anywhere else.
func TestSubgroupAfterDiscardIsRefused(t *testing.T) {
	src := `enable subgroups;
diagnostic(off, subgroup_uniformity);
@fragment
fn fs(@location(0) x: f32) -> @location(0) vec4f {
  let before = subgroupAdd(x);
  if (x < 0.5) { discard; }
  let after = subgroupMax(x);
  return vec4f(before, after, 0.0, 1.0);
}
`
	m := parse(t, src)
	_, err := flatten.Function(m, "fs", flatten.Options{})
	require.Error(t, err)
	assert.True(t, flatten.IsRefusal(err), "%v", err)
	assert.Contains(t, err.Error(), "test.wgsl:7:15: flatten: subgroupMax in a fragment entry point after a discard may have run")
	assert.NotContains(t, err.Error(), "subgroupAdd")

	m = parse(t, strings.Replace(src, "  let after = subgroupMax(x);\n", "  let after = 2.0;\n", 1))
	twin, err := flatten.Function(m, "fs", flatten.Options{VerifyPasses: true})
	require.NoError(t, err)
	assert.Contains(t, ir.PrintFunc(twin), "subgroupAdd(x)")

	// In a kept loop that discards, a later iteration runs after the
	// discard: refused even before the discard in the body; a kept loop
	// that does not discard keeps its operation (guarded by its mask).
	loop := `enable subgroups;
diagnostic(off, subgroup_uniformity);
struct U { n: u32 }
@group(0) @binding(0) var<uniform> u: U;
@fragment
fn fs(@location(0) x: f32) -> @location(0) vec4f {
  var acc = 0.0;
  for (var k = 0u; k < u.n; k++) {
    acc += subgroupAdd(x);
    DISCARD
  }
  if (x < 0.25) { discard; }
  return vec4f(acc, 0.0, 0.0, 1.0);
}
`
	m = parse(t, strings.Replace(loop, "DISCARD", "if (acc > 4.0) { discard; }", 1))
	_, err = flatten.Function(m, "fs", flatten.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "test.wgsl:9:12: flatten: subgroupAdd in a fragment entry point after a discard may have run")
	m = parse(t, strings.Replace(loop, "DISCARD", "", 1))
	twin, err = flatten.Function(m, "fs", flatten.Options{VerifyPasses: true})
	require.NoError(t, err)
	assert.Regexp(t, `subgroupAdd\(select\(-0\.0f, x, \w+\)\)`, ir.PrintFunc(twin))
}

// TestSubgroupFaultDropsTheGuard: with the subgroup-guard-dropped fault
// a reduction under c sums every invocation's operand — the naive twin
// select(old, subgroupAdd(v), c) — while the other operations keep
// their guards.
func TestSubgroupFaultDropsTheGuard(t *testing.T) {
	body := `
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  var r = 0u;
  if (i % 2u == 0u) { r = subgroupAdd(i) + select(0u, 1u, subgroupAny(i == 2u)); }
  out[i] = r;
}`
	_, good := sgTwin(t, body, flatten.Options{})
	assert.Contains(t, good, "subgroupAdd(select(0u, i, cond))")
	_, bad := sgTwin(t, body, flatten.Options{Fault: "subgroup-guard-dropped"})
	assert.Contains(t, bad, "subgroupAdd(i)")
	assert.NotContains(t, bad, "subgroupAdd(select")
	assert.Contains(t, bad, "subgroupAny(cond && i == 2u)")
	// The CLI's way: the environment variable, with Options.Fault unset.
	t.Setenv(flatten.FaultEnv, "subgroup-guard-dropped")
	_, env := sgTwin(t, body, flatten.Options{})
	assert.Equal(t, bad, env)
}
