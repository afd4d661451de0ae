package interp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
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
		o := ok()
		c.edit(o)
		_, err := ObservedSubgroups(8, o)
		assert.ErrorContains(t, err, c.want, c.name)
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
