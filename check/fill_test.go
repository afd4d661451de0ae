package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

const fillModule = `struct P {
  count: u32,
  scale: f32,
  width: i32,
}
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(1) var<storage, read> idx: array<vec2<i32>, 2>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> n: atomic<u32>;
@compute @workgroup_size(3)
fn main(@builtin(local_invocation_index) i: u32) {
  out[i] = p.count + u32(idx[0].x);
  atomicAdd(&n, 1u);
}
`

// TestFillBindings: each fill's values, by hand: leaves counted from 0 per
// binding, in declaration order (p: count, scale, width; idx: 4 i32
// leaves; out: one element per invocation of 2 workgroups of 3).
func TestFillBindings(t *testing.T) {
	m, err := wgsl.Parse("fill.wgsl", []byte(fillModule))
	require.NoError(t, err)
	f := m.Func("main")
	wg := [3]uint32{2, 1, 1}
	js := func(b map[string]ir.Buffer) string { return string(testcase.BindingsJSON(m, b)) }

	assert.Equal(t, `{"p": {"count": 0, "scale": 0, "width": 0}, "idx": [[0, 0], [0, 0]], "out": [0, 0, 0, 0, 0, 0], "n": 0}`,
		js(testcase.FillBindings(testcase.FillZero, 1, m, f, wg)))
	assert.Equal(t, `{"p": {"count": 0, "scale": 1, "width": 2}, "idx": [[0, 1], [2, 3]], "out": [0, 1, 2, 3, 4, 5], "n": 0}`,
		js(testcase.FillBindings(testcase.FillIota, 1, m, f, wg)))
	// small: 1 + k mod 16; f32 a quarter of that.
	assert.Equal(t, `{"p": {"count": 1, "scale": 0.5, "width": 3}, "idx": [[1, 2], [3, 4]], "out": [1, 2, 3, 4, 5, 6], "n": 1}`,
		js(testcase.FillBindings(testcase.FillSmall, 1, m, f, wg)))
	// edges is gen.EntryBindings itself: today's seeded values.
	assert.Equal(t, js(testcase.MustBindingBuffers(m, gen.EntryBindings(7, m, f, wg))), js(testcase.FillBindings(testcase.FillEdges, 7, m, f, wg)))

	// random: seeded (same seed, same values; another seed, others), f32
	// in [-1, 1).
	r1, r2 := testcase.FillBindings(testcase.FillRandom, 1, m, f, wg), testcase.FillBindings(testcase.FillRandom, 2, m, f, wg)
	assert.Equal(t, js(r1), js(testcase.FillBindings(testcase.FillRandom, 1, m, f, wg)))
	assert.NotEqual(t, js(r1), js(r2))
	for _, b := range []map[string]ir.Buffer{r1, r2} {
		s := testcase.BindingValues(b)["p"].Elems[1].F32()
		assert.True(t, s >= -1 && s < 1, "scale %v", s)
	}
}

// TestFillSmallWraps: small stays below 17 however long the binding (index
// 16 wraps to 1).
func TestFillSmallWraps(t *testing.T) {
	p := []*ir.Param{{Name: "x", T: ir.U32}, {Name: "y", T: ir.Vec(2, ir.F32)}}
	args := testcase.FillArgs(testcase.FillSmall, 1, p, 17)
	assert.Equal(t, uint32(1), args[0][0].Bits)
	assert.Equal(t, uint32(16), args[15][0].Bits)
	assert.Equal(t, uint32(1), args[16][0].Bits, "1 + 16 mod 16")
	// y's leaves count across invocations: invocation 1 holds leaves 2, 3.
	assert.Equal(t, float32(0.75), args[1][1].Elems[0].F32())
	assert.Equal(t, float32(1), args[1][1].Elems[1].F32())
	iota := testcase.FillArgs(testcase.FillIota, 1, p, 3)
	assert.Equal(t, uint32(2), iota[2][0].Bits, "iota: invocation i's scalar argument is i")
	assert.Equal(t, gen.Inputs(3, p, 9), testcase.FillArgs(testcase.FillEdges, 3, p, 9))
}

func TestParseFill(t *testing.T) {
	for _, f := range testcase.Fills {
		got, err := testcase.ParseFill(string(f))
		require.NoError(t, err)
		assert.Equal(t, f, got)
	}
	_, err := testcase.ParseFill("ones")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown fill "ones" (want zero, iota, small, edges, random)`)
}

const loopKernel = `fn k(n: u32) -> u32 {
  var s = 0u;
  for (var i = 0u; i < n; i++) {
    s += 1u;
  }
  return s;
}
`

// TestStepLimitOutOfDomain: a loop bounded by an argument runs past the
// step limit on 4000000000; with made-up inputs (Options.Fill) that is
// out-of-domain, with no finding, naming the loop (3:3); with given
// inputs it stays an error.
func TestStepLimitOutOfDomain(t *testing.T) {
	m, err := wgsl.Parse("loop.wgsl", []byte(loopKernel))
	require.NoError(t, err)
	c := &testcase.KernelCase{Module: m, Kernel: "k", Args: [][]ir.Value{{ir.U32Val(3)}, {ir.U32Val(4000000000)}}}
	io := Options{Interp: interpLimit(1000)}
	res, err := Execute(t.Context(), c.Case(), io)
	require.NoError(t, err)
	assert.Equal(t, oracle.Error, res.Verdict, "given inputs: the step limit is an error")
	require.Len(t, Attribute(res), 1)

	io.Fill = testcase.FillSmall
	res, err = Execute(t.Context(), c.Case(), io)
	require.NoError(t, err)
	assert.Equal(t, oracle.OutOfDomain, res.Verdict)
	assert.Equal(t, []int{1}, res.Unfinished())
	assert.Contains(t, res.ReferenceErr[1], "loop.wgsl:3:3: interp: step limit of 1000 exceeded")
	assert.Empty(t, Attribute(res), "out of domain is no finding")
	// The finished invocation is still judged: 3 iterations.
	assert.Equal(t, uint32(3), res.Reference[0][0].Val().Bits)

	// The record keeps the fill, and a replay reads it back.
	rec := NewRecord(c, res, io, "test")
	assert.Equal(t, "small", rec.Fill)
	path := filepath.Join(t.TempDir(), "loop.case.wgsl")
	require.NoError(t, testcase.WriteCase(path, m, rec))
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	_, rec2, err := testcase.ParseCase(path, src)
	require.NoError(t, err)
	assert.Equal(t, "small", rec2.Fill)
	bad := strings.Replace(string(src), `"fill": "small"`, `"fill": "ones"`, 1)
	_, _, err = testcase.ParseCase("c.wgsl", []byte(bad))
	require.Error(t, err)
	assert.Regexp(t, `^c\.wgsl:\d+:\d+: case record: fill: unknown fill "ones"`, err.Error())
}

const loopEntry = `@group(0) @binding(0) var<storage, read> cnt: array<u32, 2>;
@group(0) @binding(1) var<storage, read_write> o: array<u32, 2>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
  for (var k = 0u; k < cnt[i]; k++) {
    o[i] += 1u;
  }
}
`

// TestEntryStepLimitOutOfDomain: an entry point whose loop count comes
// from a binding: made-up bindings past the step limit are out-of-domain
// (Domain names the loop, 5:3), given ones an error.
func TestEntryStepLimitOutOfDomain(t *testing.T) {
	m, err := wgsl.Parse("eloop.wgsl", []byte(loopEntry))
	require.NoError(t, err)
	cnt := ir.CompositeVal(m.SharedVar("cnt").T, ir.U32Val(2), ir.U32Val(4000000000))
	c := &testcase.ComputeCase{Module: m, Entry: "main", Workgroups: [3]uint32{1, 1, 1}, Buffers: testcase.MustBindingBuffers(m, map[string]ir.Value{"cnt": cnt})}
	_, err = Execute(t.Context(), c.Case(), Options{Interp: interpLimit(1000)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "eloop.wgsl:5:3: interp: step limit of 1000 exceeded")

	res, err := Execute(t.Context(), c.Case(), Options{Interp: interpLimit(1000), Fill: testcase.FillEdges})
	require.NoError(t, err)
	assert.Equal(t, oracle.OutOfDomain, res.Verdict)
	assert.Contains(t, res.Domain, "eloop.wgsl:5:3: interp: step limit of 1000 exceeded")
	assert.Empty(t, res.Runs)
}

func interpLimit(steps int64) interp.Options { return interp.Options{MaxSteps: steps} }

// TestReferenceVerdict: the verdict once unfinished invocations count.
func TestReferenceVerdict(t *testing.T) {
	step := []string{"", "l.wgsl:3:3: interp: step limit of 9 exceeded (the kernel may not terminate)"}
	other := []string{"l.wgsl:2:7: interp: dpdx needs a quad"}
	assert.Equal(t, oracle.Pass, referenceVerdict(oracle.Pass, nil, testcase.FillSmall), "every invocation finished")
	assert.Equal(t, oracle.Error, referenceVerdict(oracle.Pass, step, ""), "given inputs")
	assert.Equal(t, oracle.OutOfDomain, referenceVerdict(oracle.Pass, step, testcase.FillSmall))
	assert.Equal(t, oracle.OutOfDomain, referenceVerdict(oracle.Timeout, step, testcase.FillEdges), "a GPU that loops as long is no finding")
	assert.Equal(t, oracle.Mismatch, referenceVerdict(oracle.Mismatch, step, testcase.FillEdges), "a finished invocation's disagreement stands")
	assert.Equal(t, oracle.Error, referenceVerdict(oracle.Pass, other, testcase.FillSmall), "not the step limit")
}
