package interp

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// sgParse parses a WGSL module with subgroup builtins, skipping the test
// while the front end does not lower them.
func sgParse(t *testing.T, src string) *ir.Module {
	t.Helper()
	m, err := wgsl.Parse("sg.wgsl", []byte(src))
	if err != nil && strings.Contains(err.Error(), "subgroup") && !strings.Contains(err.Error(), "uniform") {
		t.Skipf("the WGSL front end does not lower subgroup builtins yet: %v", err)
	}
	require.NoError(t, err)
	return m
}

// sgRun dispatches main of src over workgroups with opts and returns its
// bindings.
func sgRun(t *testing.T, src string, workgroups [3]uint32, opts Options) map[string]Output {
	t.Helper()
	m := sgParse(t, src)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	res, err := d.Run(nil, workgroups, opts)
	require.NoError(t, err)
	return res.Buffers
}

func sgU32s(o Output) []uint32 {
	out := make([]uint32, len(o.Value.Elems))
	for i, e := range o.Value.Elems {
		out[i] = e.Bits
	}
	return out
}

const sgBasic = `
enable subgroups;
@group(0) @binding(0) var<storage, read_write> sum: array<u32, 64>;
@group(0) @binding(1) var<storage, read_write> excl: array<u32, 64>;
@group(0) @binding(2) var<storage, read_write> ballot: array<vec4<u32>, 64>;
@group(0) @binding(3) var<storage, read_write> ids: array<vec2<u32>, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lidx: u32, @builtin(subgroup_invocation_id) sid: u32, @builtin(subgroup_size) ssize: u32) {
  sum[lidx] = subgroupAdd(lidx);
  excl[lidx] = subgroupExclusiveAdd(1u);
  ballot[lidx] = subgroupBallot(lidx % 2u == 0u);
  ids[lidx] = vec2(sid, ssize);
}
`

// TestSubgroupLinear: 64 invocations in linear subgroups of 8 (subgroup
// k holds local indices 8k..8k+7, ids 0..7). By hand: subgroupAdd(lidx)
// = 8k+0 + … + 8k+7 = 64k + 28; subgroupExclusiveAdd(1u) is the number
// of active invocations of lower id = id = lidx % 8; the ballot of
// lidx % 2 == 0 sets the bits of ids 0, 2, 4, 6 = 0x55 in x.
func TestSubgroupLinear(t *testing.T) {
	b := sgRun(t, sgBasic, [3]uint32{1, 1, 1}, Options{SubgroupSize: 8})
	for i := 0; i < 64; i++ {
		k := uint32(i / 8)
		assert.Equal(t, 64*k+28, sgU32s(b["sum"])[i], "sum[%d]", i)
		assert.Equal(t, uint32(i%8), sgU32s(b["excl"])[i], "excl[%d]", i)
		bal := b["ballot"].Value.Elems[i]
		assert.Equal(t, []uint32{0x55, 0, 0, 0}, []uint32{bal.Elems[0].Bits, bal.Elems[1].Bits, bal.Elems[2].Bits, bal.Elems[3].Bits}, "ballot[%d]", i)
		id := b["ids"].Value.Elems[i]
		assert.Equal(t, []uint32{uint32(i % 8), 8}, []uint32{id.Elems[0].Bits, id.Elems[1].Bits})
	}
	for _, name := range []string{"sum", "excl", "ballot", "ids"} {
		assert.Nil(t, b[name].Indeterminate, "%s: %s", name, b[name].Why)
		assert.Nil(t, b[name].Reconvergence, name)
	}
}

// sgNaive is the example at subgroup size 4 (SwiftShader's):
// a subgroupAdd(1u) under if (lidx % 4 < 2) — invocations 0 and 1 of each
// subgroup — beside the naive twin select(x, subgroupAdd(1u), c), which
// sums over every invocation, and the guarded subgroupAdd(select(0u, 1u,
// c)).
const sgNaive = `
diagnostic(off, subgroup_uniformity);
enable subgroups;
@group(0) @binding(0) var<storage, read_write> orig: array<u32, 16>;
@group(0) @binding(1) var<storage, read_write> naive: array<u32, 16>;
@group(0) @binding(2) var<storage, read_write> guarded: array<u32, 16>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) lidx: u32) {
  let c = lidx % 4u < 2u;
  var x = 0u;
  if (c) {
    x = subgroupAdd(1u);
  }
  orig[lidx] = x;
  naive[lidx] = select(0u, subgroupAdd(1u), c);
  guarded[lidx] = select(0u, subgroupAdd(select(0u, 1u, c)), c);
}
`

// TestSubgroupDivergentReconvergence: by hand, at size 4 (linear), the
// divergent subgroupAdd(1u) runs with invocations 0 and 1 of each
// subgroup under maximal reconvergence: 2 (what Dawn/SwiftShader gave
// the original), marked Reconvergence (WGSL promises no active set
// there), 0 where c is false (not marked: it never ran the call); the
// naive twin's sum over the whole subgroup is 4 and the guarded one's 2,
// both in uniform control flow, definite.
func TestSubgroupDivergentReconvergence(t *testing.T) {
	b := sgRun(t, sgNaive, [3]uint32{1, 1, 1}, Options{SubgroupSize: 4})
	for i := 0; i < 16; i++ {
		c := i%4 < 2
		want := uint32(0)
		if c {
			want = 2
		}
		assert.Equal(t, want, sgU32s(b["orig"])[i], "orig[%d]", i)
		require.NotNil(t, b["orig"].Reconvergence)
		assert.Equal(t, c, b["orig"].Reconvergence[i], "orig[%d] marked", i)
		if c {
			assert.Equal(t, uint32(4), sgU32s(b["naive"])[i], "naive[%d]", i)
			assert.Equal(t, uint32(2), sgU32s(b["guarded"])[i], "guarded[%d]", i)
		}
	}
	assert.Nil(t, b["orig"].Indeterminate, b["orig"].Why)
	assert.Contains(t, b["orig"].Why, "subgroupAdd")
	assert.Contains(t, b["orig"].Why, "non-uniform control flow")
	for _, name := range []string{"naive", "guarded"} {
		assert.Nil(t, b[name].Indeterminate, "%s: %s", name, b[name].Why)
		assert.Nil(t, b[name].Reconvergence, name)
	}
}

// sgLoops: invocations that diverge inside loops. In the first loop the
// even ids run the call in every iteration, the odd ones only in the
// last; in the second each invocation leaves the loop after as many
// iterations as its id.
const sgLoops = `
diagnostic(off, subgroup_uniformity);
enable subgroups;
@group(0) @binding(0) var<storage, read_write> acc: array<u32, 8>;
@group(0) @binding(1) var<storage, read_write> last: array<u32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(subgroup_invocation_id) sid: u32) {
  var a = 0u;
  for (var i = 0u; i < 4u; i++) {
    if (sid % 2u == 0u || i == 3u) {
      a += subgroupAdd(1u) * (i + 1u);
    }
  }
  acc[sid] = a;
  var c = 0u;
  for (var i = 0u; i < 8u; i++) {
    if (i >= sid) {
      break;
    }
    c = subgroupAdd(1u);
  }
  last[sid] = c;
}
`

// TestSubgroupLoopsKeyByIteration: one subgroup of 8. By hand, keyed by
// iteration: in iterations 0–2 the four even ids run the call together
// (4), in iteration 3 all eight (8): an even id accumulates 4·1 + 4·2 +
// 4·3 + 8·4 = 56, an odd one 8·4 = 32 (keyed by how often each
// invocation ran the call instead, an odd id's one call would be paired
// with the even ids' first). In the second loop iteration i runs with
// the ids above i, 7 − i of them: id s ≥ 1 last runs it at i = s − 1 and
// keeps 8 − s; id 0 never does, 0.
func TestSubgroupLoopsKeyByIteration(t *testing.T) {
	b := sgRun(t, sgLoops, [3]uint32{1, 1, 1}, Options{SubgroupSize: 8})
	for s := 0; s < 8; s++ {
		wantAcc := uint32(32)
		if s%2 == 0 {
			wantAcc = 56
		}
		assert.Equal(t, wantAcc, sgU32s(b["acc"])[s], "acc[%d]", s)
		wantLast := uint32(0)
		if s > 0 {
			wantLast = uint32(8 - s)
		}
		assert.Equal(t, wantLast, sgU32s(b["last"])[s], "last[%d]", s)
		assert.Equal(t, s > 0, b["last"].Reconvergence[s], "last[%d] marked", s)
	}
	assert.Nil(t, b["acc"].Indeterminate, b["acc"].Why)
	assert.Nil(t, b["last"].Indeterminate, b["last"].Why)
}

// sgShuffles: shuffles and broadcasts in uniform control flow, and a
// shuffle that reads an inactive invocation under a branch.
const sgShuffles = `
diagnostic(off, subgroup_uniformity);
enable subgroups;
@group(0) @binding(0) var<storage, read_write> next: array<u32, 6>;
@group(0) @binding(1) var<storage, read_write> xor1: array<u32, 6>;
@group(0) @binding(2) var<storage, read_write> up1: array<u32, 6>;
@group(0) @binding(3) var<storage, read_write> bc3: array<u32, 6>;
@group(0) @binding(4) var<storage, read_write> first: array<u32, 6>;
@group(0) @binding(5) var<storage, read_write> inact: array<u32, 6>;
@group(0) @binding(6) var<storage, read_write> elect: array<u32, 6>;
@group(0) @binding(7) var<storage, read_write> quad: array<u32, 6>;

@compute @workgroup_size(6)
fn main(@builtin(local_invocation_index) lidx: u32, @builtin(subgroup_invocation_id) sid: u32) {
  next[lidx] = subgroupShuffle(lidx * 10u, (sid + 1u) % 4u);
  xor1[lidx] = subgroupShuffleXor(lidx * 10u, 1u);
  up1[lidx] = subgroupShuffleUp(lidx * 10u, 1u);
  bc3[lidx] = subgroupBroadcast(lidx * 10u, 3u);
  first[lidx] = subgroupBroadcastFirst(lidx * 10u);
  elect[lidx] = select(0u, 1u, subgroupElect());
  quad[lidx] = quadSwapDiagonal(lidx * 10u);
  if (sid < 2u) {
    inact[lidx] = subgroupShuffle(lidx * 10u, sid + 2u);
  }
}
`

// TestSubgroupShufflesAndInactiveLanes: 6 invocations at size 4 (linear):
// subgroup 0 holds local 0–3 (ids 0–3), subgroup 1 the partial 4–5 (ids
// 0–1). By hand: the shuffle from id (id+1)%4 reads 10·(next local) in
// subgroup 0 (10, 20, 30, 0) and, in subgroup 1, 50 for id 0 and the
// absent id 2 for id 1 (indeterminate); ShuffleXor 1 swaps pairs (10, 0,
// 30, 20, 50, 40); ShuffleUp 1 reads id − 1 (indeterminate for id 0);
// Broadcast from id 3 is 30 in subgroup 0 and a dynamic error (any
// value) in subgroup 1, which has no id 3; BroadcastFirst is 0 and 40;
// Elect is true for id 0; quadSwapDiagonal reads id ^ 3 (30, 20, 10, 0,
// and id 3, 2: absent, indeterminate). Under sid < 2 the shuffle from id
// + 2 reads an inactive invocation: indeterminate.
func TestSubgroupShufflesAndInactiveLanes(t *testing.T) {
	b := sgRun(t, sgShuffles, [3]uint32{1, 1, 1}, Options{SubgroupSize: 4})
	const X = 0xffffffff // indeterminate
	check := func(name string, want []uint32) {
		t.Helper()
		o := b[name]
		for i, w := range want {
			ind := o.Indeterminate != nil && o.Indeterminate[i]
			if w == X {
				assert.True(t, ind, "%s[%d] indeterminate", name, i)
				continue
			}
			assert.False(t, ind, "%s[%d] determinate (%s)", name, i, o.Why)
			assert.Equal(t, w, sgU32s(o)[i], "%s[%d]", name, i)
		}
	}
	check("next", []uint32{10, 20, 30, 0, 50, X})
	check("xor1", []uint32{10, 0, 30, 20, 50, 40})
	check("up1", []uint32{X, 0, 10, 20, X, 40})
	check("bc3", []uint32{30, 30, 30, 30, X, X})
	check("first", []uint32{0, 0, 0, 0, 40, 40})
	check("elect", []uint32{1, 0, 0, 0, 1, 0})
	check("quad", []uint32{30, 20, 10, 0, X, X})
	check("inact", []uint32{X, X, 0, 0, X, X})
	assert.Contains(t, b["bc3"].Why, "dynamic error")
	assert.Contains(t, b["inact"].Why, "inactive")
}

// TestSubgroupObservedPartition runs sgBasic's kind of program over a
// partition a device might report for one workgroup of 16 at size 8:
// the even local indices form the subgroup of First 0 with ids lidx/2,
// the odd ones that of First 15 with ids (15 − lidx)/2 (15 is id 0).
// By hand: subgroupAdd(lidx) is 0+2+…+14 = 56 and 1+3+…+15 = 64;
// subgroupExclusiveAdd(lidx) at local 6 (id 3) is 0+2+4 = 6, at local 13
// (id 1) 15 (id 0's); the ballot of lidx < 8 is ids 0–3 (0xf) in the
// even subgroup and, in the odd one, locals 1, 3, 5, 7 = ids 7, 6, 5, 4
// (0xf0); subgroupBroadcastFirst(lidx) is 0 and 15.
func TestSubgroupObservedPartition(t *testing.T) {
	obs := make([]SubgroupObservation, 16)
	for l := range obs {
		if l%2 == 0 {
			obs[l] = SubgroupObservation{ID: uint32(l / 2), Size: 8, First: 0}
		} else {
			obs[l] = SubgroupObservation{ID: uint32((15 - l) / 2), Size: 8, First: 15}
		}
	}
	part, err := ObservedSubgroups(16, obs)
	require.NoError(t, err)
	assert.Equal(t, 8, part.Size())
	sub, id := part.Of(0, 13)
	assert.Equal(t, []int{1, 1}, []int{sub, id}, "local 13: the second subgroup (First 15 > 0), id 1")
	const src = `
enable subgroups;
@group(0) @binding(0) var<storage, read_write> sum: array<u32, 16>;
@group(0) @binding(1) var<storage, read_write> excl: array<u32, 16>;
@group(0) @binding(2) var<storage, read_write> ballot: array<u32, 16>;
@group(0) @binding(3) var<storage, read_write> first: array<u32, 16>;
@group(0) @binding(4) var<storage, read_write> ids: array<u32, 16>;
@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) lidx: u32, @builtin(subgroup_invocation_id) sid: u32) {
  sum[lidx] = subgroupAdd(lidx);
  excl[lidx] = subgroupExclusiveAdd(lidx);
  ballot[lidx] = subgroupBallot(lidx < 8u).x;
  first[lidx] = subgroupBroadcastFirst(lidx);
  ids[lidx] = sid;
}
`
	b := sgRun(t, src, [3]uint32{1, 1, 1}, Options{Subgroups: part})
	for l := 0; l < 16; l++ {
		even := l%2 == 0
		pick := func(e, o uint32) uint32 {
			if even {
				return e
			}
			return o
		}
		assert.Equal(t, pick(56, 64), sgU32s(b["sum"])[l], "sum[%d]", l)
		assert.Equal(t, pick(0xf, 0xf0), sgU32s(b["ballot"])[l], "ballot[%d]", l)
		assert.Equal(t, pick(0, 15), sgU32s(b["first"])[l], "first[%d]", l)
		assert.Equal(t, obs[l].ID, sgU32s(b["ids"])[l], "ids[%d]", l)
	}
	assert.Equal(t, uint32(6), sgU32s(b["excl"])[6])
	assert.Equal(t, uint32(15), sgU32s(b["excl"])[13])
	assert.Equal(t, uint32(0), sgU32s(b["excl"])[15], "id 0's empty prefix")
	// A partition observed for another dispatch shape is refused.
	m := sgParse(t, src)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	_, err = d.Run(nil, [3]uint32{2, 1, 1}, Options{Subgroups: part})
	assert.ErrorContains(t, err, "observed for 1 workgroups")
}

// TestObservedSubgroupsRefusesTheImpossible: each record set describes a
// partition no device can have (WGSL #subgroups,
// #subgroup-invocation-id-builtin-value).
func TestObservedSubgroupsRefusesTheImpossible(t *testing.T) {
	ok := func() []SubgroupObservation {
		o := make([]SubgroupObservation, 8)
		for l := range o {
			o[l] = SubgroupObservation{ID: uint32(l % 4), Size: 4, First: uint32(l / 4 * 4)}
		}
		return o
	}
	_, err := ObservedSubgroups(8, ok())
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		edit func(o []SubgroupObservation)
		want string
	}{
		{"repeated id", func(o []SubgroupObservation) { o[2].ID = 1 }, "both have subgroup_invocation_id 1"},
		{"id not below the size", func(o []SubgroupObservation) { o[3].ID = 4 }, "not below subgroup_size"},
		{"not dense", func(o []SubgroupObservation) { o[3].ID = 5; o[3].Size = 8; setSize(o, 8) }, "no subgroup_invocation_id 3"},
		{"size not a power of two", func(o []SubgroupObservation) { setSize(o, 6) }, "not a power of two"},
		{"sizes differ", func(o []SubgroupObservation) { o[5].Size = 8 }, "saw subgroup_size 8"},
		{"first is not id 0", func(o []SubgroupObservation) { o[0].ID, o[1].ID = 1, 0 }, "the first invocation has id 0"},
		{"more than the size", func(o []SubgroupObservation) {
			for l := range o {
				o[l] = SubgroupObservation{ID: uint32(l), Size: 4, First: 0}
			}
		}, "not below subgroup_size"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := ok()
			c.edit(o)
			_, err := ObservedSubgroups(8, o)
			assert.ErrorContains(t, err, c.want)
		})
	}
	_, err = ObservedSubgroups(3, ok())
	assert.ErrorContains(t, err, "8 records for workgroups of 3")
	_, err = LinearSubgroups(12)
	assert.ErrorContains(t, err, "not a power of two")
}

func setSize(o []SubgroupObservation, s uint32) {
	for l := range o {
		o[l].Size = s
	}
}

// TestSubgroupFloatAnyOrder: subgroupAdd(0.1) and subgroupMul(1.1) over
// a subgroup of 8 may associate in any order (WGSL
// #reassociation-and-fusion): the sums (products) of eight f32 0.1 (1.1)
// computed in float32 left to right, right to left and as a balanced
// tree — each order a conforming implementation may take — all lie
// within the reference's bound; subgroupAdd(1.0) is exact, 8; the
// exclusive scan of 0.25 at id k is k/4, exact; subgroupMax(f32(lidx)) is
// 7, exact.
func TestSubgroupFloatAnyOrder(t *testing.T) {
	const src = `
enable subgroups;
@group(0) @binding(0) var<storage, read_write> add: array<f32, 8>;
@group(0) @binding(1) var<storage, read_write> mul: array<f32, 8>;
@group(0) @binding(2) var<storage, read_write> one: array<f32, 8>;
@group(0) @binding(3) var<storage, read_write> scan: array<f32, 8>;
@group(0) @binding(4) var<storage, read_write> mx: array<f32, 8>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) lidx: u32) {
  add[lidx] = subgroupAdd(0.1);
  mul[lidx] = subgroupMul(1.1);
  one[lidx] = subgroupAdd(1.0);
  scan[lidx] = subgroupExclusiveAdd(0.25);
  mx[lidx] = subgroupMax(f32(lidx));
}
`
	b := sgRun(t, src, [3]uint32{1, 1, 1}, Options{SubgroupSize: 8})
	orders := func(x float32, op func(a, b float32) float32) []float32 {
		xs := []float32{x, x, x, x, x, x, x, x}
		left, right := xs[0], xs[7]
		for i := 1; i < 8; i++ {
			left = op(left, xs[i])
			right = op(xs[7-i], right)
		}
		p := op(op(op(x, x), op(x, x)), op(op(x, x), op(x, x)))
		return []float32{left, right, p}
	}
	val := func(o Output, i int) float64 { return float64(math.Float32frombits(o.Value.Elems[i].Bits)) }
	for name, alts := range map[string][]float32{
		"add": orders(0.1, func(a, b float32) float32 { return a + b }),
		"mul": orders(1.1, func(a, b float32) float32 { return a * b }),
	} {
		o := b[name]
		require.NotNil(t, o.Tolerance, name)
		for i := 0; i < 8; i++ {
			assert.False(t, o.Indeterminate[i], name)
			for _, a := range alts {
				assert.LessOrEqual(t, math.Abs(float64(a)-val(o, i)), o.Tolerance[i], "%s[%d]: order giving %v", name, i, a)
			}
			assert.Less(t, o.Tolerance[i], 1e-5, "%s[%d]: a bound of a few ULPs", name, i)
		}
	}
	for i := 0; i < 8; i++ {
		assert.Equal(t, 8.0, val(b["one"], i))
		assert.Equal(t, float64(i)/4, val(b["scan"], i))
		assert.Equal(t, 7.0, val(b["mx"], i))
	}
	for _, name := range []string{"one", "scan", "mx"} {
		assert.Nil(t, b[name].Indeterminate, "%s: %s", name, b[name].Why)
	}
}

// sgHelpers calls a helper with a subgroup operation from two sites in
// uniform control flow and from both arms of a divergent if: each call
// is its own dynamic instance (InlineCollectives gives each its site).
const sgHelpers = `
diagnostic(off, subgroup_uniformity);
enable subgroups;
@group(0) @binding(0) var<storage, read_write> a: array<u32, 8>;
@group(0) @binding(1) var<storage, read_write> b: array<u32, 8>;
@group(0) @binding(2) var<storage, read_write> c: array<u32, 8>;

fn total(x: u32) -> u32 {
  return subgroupAdd(x);
}

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) lidx: u32) {
  a[lidx] = total(1u);
  b[lidx] = total(lidx);
  var x = 0u;
  if (lidx < 3u) {
    x = total(1u);
  } else {
    x = total(10u);
  }
  c[lidx] = x;
}
`

// TestSubgroupHelperCallSites: one subgroup of 8. By hand: total(1u) = 8
// and total(lidx) = 28 in uniform control flow; under lidx < 3 the
// three invocations sum 1 each (3), the other five 10 each (50), marked
// Reconvergence.
func TestSubgroupHelperCallSites(t *testing.T) {
	b := sgRun(t, sgHelpers, [3]uint32{1, 1, 1}, Options{SubgroupSize: 8})
	for i := 0; i < 8; i++ {
		assert.Equal(t, uint32(8), sgU32s(b["a"])[i])
		assert.Equal(t, uint32(28), sgU32s(b["b"])[i])
		want := uint32(50)
		if i < 3 {
			want = 3
		}
		assert.Equal(t, want, sgU32s(b["c"])[i], "c[%d]", i)
		assert.True(t, b["c"].Reconvergence[i])
	}
	assert.Nil(t, b["a"].Reconvergence)
	assert.Nil(t, b["b"].Reconvergence)
}

// TestSubgroupWorkersAgree: a dispatch of 16 workgroups (its first pass
// parallel where it may be, parallel.go) gives the same values and
// marks on 1 and 4 workers.
func TestSubgroupWorkersAgree(t *testing.T) {
	const src = `
diagnostic(off, subgroup_uniformity);
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 1024>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lidx: u32) {
  let gidx = gid.x;
  var x = subgroupInclusiveAdd(gidx);
  if (lidx % 3u == 0u) {
    x += subgroupMax(gidx);
  }
  out[gidx] = x;
}
`
	m := sgParse(t, src)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	var outs []Output
	for _, w := range []int{1, 4} {
		res, err := d.Run(nil, [3]uint32{16, 1, 1}, Options{SubgroupSize: 16, Workers: w})
		require.NoError(t, err)
		outs = append(outs, res.Buffers["out"])
	}
	assert.Equal(t, outs[0].Value, outs[1].Value)
	assert.Equal(t, outs[0].Reconvergence, outs[1].Reconvergence)
	assert.Equal(t, outs[0].Indeterminate, outs[1].Indeterminate)
	// By hand: gidx 19 is id 3 of subgroup 1 of workgroup 0 (16..31):
	// 16+17+18+19 = 70, unmarked; gidx 18 (id 2: 16+17+18 = 51) has
	// lidx % 3 == 0 and runs subgroupMax with the invocations of its
	// subgroup whose lidx is a multiple of 3 (18, 21, 24, 27, 30): 51 + 30
	// = 81, marked.
	assert.Equal(t, uint32(70), outs[0].Value.Elems[19].Bits)
	assert.Equal(t, uint32(81), outs[0].Value.Elems[18].Bits)
	assert.True(t, outs[0].Reconvergence[18])
	assert.False(t, outs[0].Reconvergence[19])
}

// TestSubgroupOutsideDispatchIsNotExecutable: a function run per
// invocation (Program.Run) has no subgroup: the call stops the
// invocation with a positioned error, as before.
func TestSubgroupOutsideDispatchIsNotExecutable(t *testing.T) {
	const src = `
enable subgroups;
fn f(x: u32) -> u32 { return subgroupAdd(x); }
`
	m := sgParse(t, src)
	p, err := Compile(m, "f")
	require.NoError(t, err)
	res, err := p.Run([][]ir.Value{{ir.U32Val(1)}}, Options{})
	require.NoError(t, err)
	require.Error(t, res[0].Err)
	assert.Contains(t, res[0].Err.Error(), "subgroupAdd is not executable")
}

// sgUniformShapes has subgroup calls in uniform control flow of every
// shape the keying must get right: loops with uniform trip counts
// (nested, with continue), a switch on a uniform value, barriers
// between calls, a helper with a loop of its own called in a loop, and
// a call after a loop whose iterations diverge.
const sgUniformShapes = `
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 32>;
@group(0) @binding(1) var<uniform> n: vec4<u32>;
var<workgroup> w: array<u32, 32>;

fn inner(x: u32) -> u32 {
  var s = 0u;
  for (var j = 0u; j < 2u; j++) {
    s += subgroupAdd(x + j);
  }
  return s;
}

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lidx: u32) {
  var acc = 0u;
  for (var i = 0u; i < n.x; i++) {
    if (i == 1u) {
      continue;
    }
    for (var k = 0u; k < 2u; k++) {
      acc += subgroupMax(lidx + i + k);
    }
    acc += inner(i);
  }
  switch (n.y) {
    case 0u: { acc += subgroupAdd(1u); }
    default: { acc += subgroupAdd(2u); }
  }
  w[lidx] = acc;
  workgroupBarrier();
  acc += subgroupAdd(w[31u - lidx]);
  var d = 0u;
  loop {
    if (d >= lidx % 5u) { break; }
    d++;
  }
  out[lidx] = acc + subgroupAdd(d);
}
`

// TestSubgroupUniformSitesHaveWholeSubgroups: every call of
// sgUniformShapes is in uniform control flow, so each dynamic instance
// must be run by its whole subgroup — the reference fails with an
// internal error when a key says otherwise — and its results are
// definite and unmarked; marking a divergent site as uniform by hand
// makes that check fire.
func TestSubgroupUniformSitesHaveWholeSubgroups(t *testing.T) {
	m := sgParse(t, sgUniformShapes)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	for _, s := range d.e.sg.order {
		assert.True(t, s.uniform, "%s at %s", s.call.Fn.Info().Name, s.call.Pos)
	}
	n := ir.CompositeVal(ir.Vec(4, ir.U32), ir.U32Val(3), ir.U32Val(1), ir.U32Val(0), ir.U32Val(0))
	for _, size := range []int{4, 8, 16, 32} {
		res, err := d.Run(map[string]ir.Value{"n": n}, [3]uint32{1, 1, 1}, Options{SubgroupSize: size})
		require.NoError(t, err, "size %d", size)
		out := res.Buffers["out"]
		assert.Nil(t, out.Indeterminate, "size %d: %s", size, out.Why)
		assert.Nil(t, out.Reconvergence, "size %d", size)
	}
	// At size 32 (one subgroup), by hand for invocation 0: i = 0 and 2
	// (1 continues): subgroupMax(lidx+i+k) = 31+i+k → (31 + 32) + (33 +
	// 34) = 130; inner(i) = Σ_j subgroupAdd(i+j) = 32·(2i + 1) → 32 +
	// 160 = 192; the switch's default adds 64: acc = 386 everywhere, so
	// subgroupAdd(w[31 − lidx]) = 32·386 = 12352 and acc = 12738; d =
	// lidx % 5, whose sum over 0..31 is 6·(0+1+2+3+4) + (0+1) = 61:
	// 12738 + 61 = 12799.
	res, err := d.Run(map[string]ir.Value{"n": n}, [3]uint32{1, 1, 1}, Options{SubgroupSize: 32})
	require.NoError(t, err)
	assert.Equal(t, uint32(12799), res.Buffers["out"].Value.Elems[0].Bits)

	m = sgParse(t, sgLoops)
	d, err = CompileEntry(m, "main")
	require.NoError(t, err)
	for _, s := range d.e.sg.order {
		assert.False(t, s.uniform)
		s.uniform = true // wrongly
	}
	_, err = d.Run(nil, [3]uint32{1, 1, 1}, Options{SubgroupSize: 8})
	assert.ErrorContains(t, err, "internal error: subgroupAdd is in uniform control flow")
}

// sgForks: invocation 0 reads through an invalid index (WGSL
// #out-of-bounds-access-sec: any value of src, or zero), and branches on
// it twice (fork points, fork.go); the subgroup calls after each branch
// are in uniform control flow.
const sgForks = `
enable subgroups;
@group(0) @binding(0) var<storage, read_write> src: array<u32, 4>;
@group(0) @binding(1) var<storage, read> off: array<u32, 1>;
@group(0) @binding(2) var<storage, read_write> a: array<u32, 8>;
@group(0) @binding(3) var<storage, read_write> b: array<u32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) lidx: u32) {
  var v = 0u;
  if (lidx == 0u) {
    v = src[off[0]];
  }
  var w = 0u;
  if (v == 7u) {
    w = 1u;
  } else {
    w = 1u;
  }
  a[lidx] = subgroupAdd(w);
  var z = 1u;
  if (v == 7u) {
    z = 2u;
  }
  b[lidx] = subgroupAdd(z);
}
`

// TestSubgroupForkedInvocation: by hand, invocation 0 takes both ways at
// each branch; every one of its paths reaches the first call with w = 1,
// so its sum over the 8 invocations is 8 on every execution WGSL allows
// (definite); at the second its z is 1 or 2: the others' sum is 8 or 9
// depending on the path the device takes — any value for them (the
// reference does not pair paths across invocations) — and invocation 0's
// own, 7 + z, is the allowed set {8, 9}.
func TestSubgroupForkedInvocation(t *testing.T) {
	m := sgParse(t, sgForks)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	src := ir.CompositeVal(ir.ArrayOf(ir.U32, 4), ir.U32Val(7), ir.U32Val(1), ir.U32Val(2), ir.U32Val(3))
	off := ir.CompositeVal(ir.ArrayOf(ir.U32, 1), ir.U32Val(100))
	res, err := d.Run(map[string]ir.Value{"src": src, "off": off}, [3]uint32{1, 1, 1}, Options{SubgroupSize: 8})
	require.NoError(t, err)
	a, b := res.Buffers["a"], res.Buffers["b"]
	assert.Nil(t, a.Indeterminate, a.Why)
	assert.Equal(t, []uint32{8, 8, 8, 8, 8, 8, 8, 8}, sgU32s(a))
	require.NotNil(t, b.Indeterminate)
	require.True(t, b.Indeterminate[0])
	require.NotNil(t, b.Allowed)
	assert.ElementsMatch(t, []uint32{8, 9}, b.Allowed[0].Values)
	for i := 1; i < 8; i++ {
		assert.True(t, b.Indeterminate[i], "b[%d]", i)
		assert.True(t, b.Allowed == nil || b.Allowed[i].IsAny(), "b[%d] any value", i)
	}
}

// TestSubgroupFragmentQuad: in a fragment the quad operations read the
// quad (quad invocation ID x&1 + 2·(y&1), WGSL
// #fragment-shaders-helper-invocations) and every other subgroup builtin
// is any value (the subgroup is an unknown set of quads). By hand, with v
// = 10y + x on a 2×2 target: quadSwapX at (x, y) is 10y + (x^1),
// quadSwapY 10(y^1) + x, quadBroadcast(v, 3u) 11 (the lower right);
// subgroupAdd indeterminate. On a 1×1 target the other three lanes are
// helpers, which may not participate: reading one is indeterminate, and
// the pixel's own quadBroadcast(v, 0u) is its v.
func TestSubgroupFragmentQuad(t *testing.T) {
	const src = `
diagnostic(off, subgroup_uniformity);
enable subgroups;
@fragment fn main(@location(0) v: f32) -> @location(0) vec4f {
  return vec4f(quadSwapX(v), quadSwapY(v), quadBroadcast(v, 3u), subgroupAdd(v));
}
@fragment fn own(@location(0) v: f32) -> @location(0) vec4f {
  var w = 0.0;
  if (v > 5.0) {
    w = quadSwapX(v);
  }
  return vec4f(quadBroadcast(v, 0u), quadSwapX(v), w, 0.0);
}
`
	m := sgParse(t, src)
	p, err := Compile(m, "main")
	require.NoError(t, err)
	args := func(x, y int) []ir.Value { return []ir.Value{ir.F32Val(float32(10*y + x))} }
	res, err := p.RunQuads(args, 2, 2, Options{})
	require.NoError(t, err)
	for y := 0; y < 2; y++ {
		for x := 0; x < 2; x++ {
			inv := res[y*2+x]
			require.NoError(t, inv.Err)
			o := inv.Outputs[0]
			c := o.Value.Elems
			f := func(i int) float32 { return math.Float32frombits(c[i].Bits) }
			assert.Equal(t, float32(10*y+(x^1)), f(0), "(%d,%d) swapX", x, y)
			assert.Equal(t, float32(10*(y^1)+x), f(1), "(%d,%d) swapY", x, y)
			assert.Equal(t, float32(11), f(2), "(%d,%d) broadcast 3", x, y)
			require.NotNil(t, o.Indeterminate)
			assert.Equal(t, []bool{false, false, false, true}, o.Indeterminate, "(%d,%d): %s", x, y, o.Why)
		}
	}
	p, err = Compile(m, "own")
	require.NoError(t, err)
	res, err = p.RunQuads(args, 1, 1, Options{})
	require.NoError(t, err)
	o := res[0].Outputs[0]
	assert.Equal(t, uint32(0), o.Value.Elems[0].Bits, "v at (0,0) is 0")
	require.NotNil(t, o.Indeterminate)
	assert.Equal(t, []bool{false, true, false, false}, o.Indeterminate, o.Why)
	// Under v > 5 (non-uniform control flow; the front end's
	// subgroup_uniformity is off) the quad operation is any value: which
	// quad invocations run it together is not known.
	res, err = p.RunQuads(func(x, y int) []ir.Value { return []ir.Value{ir.F32Val(9)} }, 1, 1, Options{})
	require.NoError(t, err)
	o = res[0].Outputs[0]
	assert.True(t, o.Indeterminate[2], o.Why)
}

// TestSubgroupSizeOption: Options.SubgroupSize must be a power of two in
// [4, 128] for an entry point that uses subgroups (WGSL #subgroups); an
// entry point that does not ignores it.
func TestSubgroupSizeOption(t *testing.T) {
	m := sgParse(t, sgBasic)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	_, err = d.Run(nil, [3]uint32{1, 1, 1}, Options{SubgroupSize: 12})
	assert.ErrorContains(t, err, "not a power of two in [4, 128]")
	_, err = d.Run(nil, [3]uint32{1, 1, 1}, Options{SubgroupSize: 256})
	assert.ErrorContains(t, err, "not a power of two in [4, 128]")
	plain, err := wgsl.Parse("plain.wgsl", []byte(`
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) l: u32) { out[l] = l; }
`))
	require.NoError(t, err)
	d, err = CompileEntry(plain, "main")
	require.NoError(t, err)
	res, err := d.Run(nil, [3]uint32{1, 1, 1}, Options{SubgroupSize: 12})
	require.NoError(t, err)
	assert.Equal(t, []uint32{0, 1, 2, 3}, sgU32s(res.Buffers["out"]))
}

// TestSubgroupChainsSettle: x = subgroupAdd(x) in a loop makes each
// call's operand depend on the call before, so the reference needs one
// more pass per iteration. By hand at size 4: x quadruples
// each time, 4^10 = 1048576 after 10 iterations, definite; after 40
// iterations the operands have not settled within the bound and every
// leaf of the binding is any value, saying so.
func TestSubgroupChainsSettle(t *testing.T) {
	const src = `
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@group(0) @binding(1) var<uniform> n: vec4<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lidx: u32) {
  var x = 1u;
  for (var i = 0u; i < n.x; i++) {
    x = subgroupAdd(x);
  }
  out[lidx] = x;
}
`
	m := sgParse(t, src)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	run := func(k uint32) Output {
		n := ir.CompositeVal(ir.Vec(4, ir.U32), ir.U32Val(k), ir.U32Val(0), ir.U32Val(0), ir.U32Val(0))
		res, err := d.Run(map[string]ir.Value{"n": n}, [3]uint32{1, 1, 1}, Options{SubgroupSize: 4})
		require.NoError(t, err)
		return res.Buffers["out"]
	}
	o := run(10)
	assert.Nil(t, o.Indeterminate, o.Why)
	assert.Equal(t, []uint32{1 << 20, 1 << 20, 1 << 20, 1 << 20}, sgU32s(o))
	o = run(40)
	require.NotNil(t, o.Indeterminate)
	assert.Equal(t, []bool{true, true, true, true}, o.Indeterminate)
	assert.Contains(t, o.Why, "did not settle")
}

// TestSubgroupF16: f16 reductions round in binary16 (WGSL #extension-f16).
// By hand: eight 1.5 sum to 12 and eight 2.0 multiply to 256, both
// exact; eight 0.1 (binary16 0x2e66 = 0.0999755859375) summed left to
// right in binary16, right to left and as a tree lie within the
// reference's bound, which is a few binary16 ULPs of 0.8 (2^-11 each).
func TestSubgroupF16(t *testing.T) {
	const src = `
enable f16;
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<vec4<f16>, 8>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) lidx: u32) {
  out[lidx] = vec4<f16>(subgroupAdd(1.5h), subgroupMul(2.0h), subgroupAdd(0.1h), subgroupMin(f16(lidx)));
}
`
	b := sgRun(t, src, [3]uint32{1, 1, 1}, Options{SubgroupSize: 8})
	o := b["out"]
	h := func(i, c int) float64 {
		v, _, _ := wgslsem.F16ToF32(uint16(o.Value.Elems[i].Elems[c].Bits))
		return float64(v)
	}
	r16 := func(x float64) float64 {
		b, _, _ := wgslsem.F64ToF16(x)
		v, _, _ := wgslsem.F16ToF32(b)
		return float64(v)
	}
	x := r16(0.1)
	left, right := x, x
	for i := 1; i < 8; i++ {
		left = r16(left + x)
		right = r16(x + right)
	}
	p2 := r16(x + x)
	p4 := r16(p2 + p2)
	tree := r16(p4 + p4)
	for i := 0; i < 8; i++ {
		assert.Equal(t, 12.0, h(i, 0))
		assert.Equal(t, 256.0, h(i, 1))
		assert.Equal(t, 0.0, h(i, 3))
		require.NotNil(t, o.Tolerance)
		tol := o.Tolerance[4*i+2]
		assert.Greater(t, tol, 0.0)
		assert.Less(t, tol, 10*0x1p-11)
		for _, a := range []float64{left, right, tree} {
			assert.LessOrEqual(t, math.Abs(a-h(i, 2)), tol, "order giving %v", a)
		}
		for _, c := range []int{0, 1, 3} {
			assert.False(t, o.Indeterminate[4*i+c])
			assert.Zero(t, o.Tolerance[4*i+c])
		}
	}
}

// TestSubgroupReductionsFollowThePartition: over random observed
// partitions (two workgroups of 48 invocations cut into subgroups of at
// most S, members and ids shuffled), subgroupAdd(lidx), the exclusive
// scan of lidx, subgroupMax(lidx) and the ballot of lidx % 3 == 0 are,
// at every invocation, those computed from the partition's definition
// (WGSL #subgroupadd-builtin, #subgroupexclusiveadd-builtin,
// #subgroupballot-builtin) — and the same on 1 and 3 workers.
func TestSubgroupReductionsFollowThePartition(t *testing.T) {
	const src = `
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<vec4<u32>, 96>;
@compute @workgroup_size(48)
fn main(@builtin(local_invocation_index) lidx: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  out[wid.x * 48u + lidx] = vec4(subgroupAdd(lidx), subgroupExclusiveAdd(lidx), subgroupMax(lidx), subgroupBallot(lidx % 3u == 0u).x);
}
`
	m := sgParse(t, src)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	rng := rand.New(rand.NewSource(40))
	type member struct{ lidx, id int }
	for trial := 0; trial < 20; trial++ {
		size := []int{4, 8, 16, 32}[rng.Intn(4)]
		obs := make([]SubgroupObservation, 96)
		want := make([][4]uint32, 96)
		for g := 0; g < 2; g++ {
			perm := rng.Perm(48)
			for len(perm) > 0 {
				n := min(1+rng.Intn(size), len(perm))
				var gr []member
				for id, l := range perm[:n] {
					gr = append(gr, member{l, id})
					obs[g*48+l] = SubgroupObservation{ID: uint32(id), Size: uint32(size), First: uint32(perm[0])}
				}
				perm = perm[n:]
				for _, me := range gr {
					var w [4]uint32
					for _, o := range gr {
						w[0] += uint32(o.lidx)
						if o.id < me.id {
							w[1] += uint32(o.lidx)
						}
						w[2] = max(w[2], uint32(o.lidx))
						if o.lidx%3 == 0 {
							w[3] |= 1 << o.id
						}
					}
					want[g*48+me.lidx] = w
				}
			}
		}
		part, err := ObservedSubgroups(48, obs)
		require.NoError(t, err)
		for _, workers := range []int{1, 3} {
			res, err := d.Run(nil, [3]uint32{2, 1, 1}, Options{Subgroups: part, Workers: workers})
			require.NoError(t, err)
			out := res.Buffers["out"]
			require.Nil(t, out.Indeterminate, out.Why)
			for i, v := range out.Value.Elems {
				got := [4]uint32{v.Elems[0].Bits, v.Elems[1].Bits, v.Elems[2].Bits, v.Elems[3].Bits}
				require.Equal(t, want[i], got, "trial %d size %d invocation %d", trial, size, i)
			}
		}
	}
}

// TestSubgroupPendingPassesAssumeNoRaces: in the first pass every
// subgroup result is any value (the other invocations' operands are not
// known yet; its bits are 0), so an index computed from one (lidx + 0 −
// 8, wrapped) is invalid there and its load is race-checked at the
// clamped index (invocation 7's location, which it writes unordered with
// the others' reads): a race no execution has. Such a pass's
// observations are not assumed by the next (dispatch.go), so by hand
// each invocation reads back its own store: subgroupAdd(1u) = 8, w[lidx
// + 0] = lidx, definite, and no race is reported.
func TestSubgroupPendingPassesAssumeNoRaces(t *testing.T) {
	const src = `
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
var<workgroup> w: array<u32, 8>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) lidx: u32) {
  let z = subgroupAdd(1u) - 8u;
  w[lidx] = lidx;
  out[lidx] = w[lidx + z];
}
`
	m := sgParse(t, src)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	res, err := d.Run(nil, [3]uint32{1, 1, 1}, Options{SubgroupSize: 8})
	require.NoError(t, err)
	out := res.Buffers["out"]
	assert.Nil(t, out.Indeterminate, out.Why)
	assert.Equal(t, []uint32{0, 1, 2, 3, 4, 5, 6, 7}, sgU32s(out))
	assert.Empty(t, res.Races)
}

// TestObservedSubgroupIDs: a partition observed with subgroup_id
// (ir.SubgroupProbe.IDs) numbers the workgroup's subgroups as the device
// did. By hand: 8 invocations at size 4, the subgroup of First 0 (local
// 0–3) recorded subgroup_id 1 and that of First 4 subgroup_id 0, so
// local 2 reads subgroup_id 1 and num_subgroups 2, local 5 subgroup_id
// 0 — the reverse of the First order; inconsistent records are refused.
func TestObservedSubgroupIDs(t *testing.T) {
	obs := func() []SubgroupObservation {
		o := make([]SubgroupObservation, 8)
		for l := range o {
			o[l] = SubgroupObservation{ID: uint32(l % 4), Size: 4, First: uint32(l / 4 * 4), SubgroupID: uint32(1 - l/4), HasSubgroupID: true}
		}
		return o
	}
	part, err := ObservedSubgroups(8, obs())
	require.NoError(t, err)
	const src = `
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<vec2<u32>, 8>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) lidx: u32, @builtin(subgroup_id) sg: u32, @builtin(num_subgroups) n: u32) {
  out[lidx] = vec2(sg, n);
}
`
	b := sgRun(t, src, [3]uint32{1, 1, 1}, Options{Subgroups: part})
	for l, e := range b["out"].Value.Elems {
		assert.Equal(t, []uint32{uint32(1 - l/4), 2}, []uint32{e.Elems[0].Bits, e.Elems[1].Bits}, "local %d", l)
	}
	for _, c := range []struct {
		name string
		edit func(o []SubgroupObservation)
		want string
	}{
		{"some unrecorded", func(o []SubgroupObservation) { o[3].HasSubgroupID = false }, "recorded no subgroup_id"},
		{"the first unrecorded", func(o []SubgroupObservation) { o[0].HasSubgroupID = false }, "recorded no subgroup_id"},
		{"differs within a subgroup", func(o []SubgroupObservation) { o[2].SubgroupID = 0 }, "of one subgroup saw subgroup_id"},
		{"repeats", func(o []SubgroupObservation) {
			for l := range o {
				o[l].SubgroupID = 0
			}
		}, "both saw subgroup_id 0"},
		{"not below num_subgroups", func(o []SubgroupObservation) {
			for l := 4; l < 8; l++ {
				o[l].SubgroupID = 2
			}
		}, "subgroup_id 2 of 2 subgroups"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := obs()
			c.edit(o)
			_, err := ObservedSubgroups(8, o)
			assert.ErrorContains(t, err, c.want)
		})
	}
}

// TestSubgroupShortCircuitParticipation: a subgroup call in the right
// operand of && runs only where the left operand holds (WGSL
// #logical-expr). At size 4 (one subgroup) t = subgroupShuffleDown(lidx,
// 1u) reads id 4 for id 3: indeterminate there (no such invocation), 1,
// 2, 3 elsewhere. By hand: ids 0–2 run subgroupAny(lidx == 3u) for sure,
// id 3 maybe (its t < 100 is unknown), and only id 3 can make it true:
// the others' result is 0 or 1, any value to the reference; where the
// right operand's call is certain (the || of the second statement, whose
// left operand lidx > 8u is false everywhere) every invocation runs it:
// subgroupAdd(1u) = 4, definite. In a break-if the same holds: the loop
// runs once, and the call in its && is in every invocation (c is true):
// 4. Beside an atomic in the same statement the short circuit is left as
// it is and the call is any value (opaque).
func TestSubgroupShortCircuitParticipation(t *testing.T) {
	const src = `
diagnostic(off, subgroup_uniformity);
enable subgroups;
@group(0) @binding(0) var<storage, read_write> any: array<u32, 4>;
@group(0) @binding(1) var<storage, read_write> add: array<u32, 4>;
@group(0) @binding(2) var<storage, read_write> brk: array<u32, 4>;
@group(0) @binding(3) var<storage, read_write> opq: array<u32, 4>;
@group(0) @binding(4) var<storage, read_write> cnt: atomic<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lidx: u32) {
  let t = subgroupShuffleDown(lidx, 1u);
  any[lidx] = select(0u, 1u, t < 100u && subgroupAny(lidx == 3u));
  add[lidx] = select(0u, subgroupAdd(1u), lidx > 8u || subgroupAdd(1u) == 4u);
  var n = 0u;
  let c = lidx < 8u;
  loop {
    n += 1u;
    continuing {
      break if c && subgroupAdd(1u) == 4u;
    }
  }
  brk[lidx] = select(0u, 4u, n == 1u);
  opq[lidx] = atomicLoad(&cnt) * 0u + select(0u, 1u, c && subgroupAll(c));
}
`
	b := sgRun(t, src, [3]uint32{1, 1, 1}, Options{SubgroupSize: 4})
	for i := 0; i < 3; i++ {
		assert.True(t, b["any"].Indeterminate[i], "any[%d]: %s", i, b["any"].Why)
	}
	assert.Nil(t, b["add"].Indeterminate, b["add"].Why)
	assert.Equal(t, []uint32{4, 4, 4, 4}, sgU32s(b["add"]))
	assert.Nil(t, b["brk"].Indeterminate, b["brk"].Why)
	assert.Equal(t, []uint32{4, 4, 4, 4}, sgU32s(b["brk"]))
	require.NotNil(t, b["opq"].Indeterminate)
	assert.True(t, b["opq"].Indeterminate[0])
	assert.Contains(t, b["opq"].Why, "short circuit")
}
