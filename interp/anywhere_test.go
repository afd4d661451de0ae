package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// anywhereKernel stores through invalid references (idx[0] is far out
// of bounds) into a binding above maxStoreAnywhereLeaves (big, 70,000
// leaves) and one below it (mid, 2,000), 300 times each, between
// in-bounds stores.
const anywhereKernel = `
@group(0) @binding(0) var<storage, read_write> big: array<u32, 70000>;
@group(0) @binding(1) var<storage, read_write> mid: array<u32, 2000>;
@group(0) @binding(2) var<storage, read_write> out: array<u32, 4>;
@group(0) @binding(3) var<storage, read> idx: array<u32, 1>;

@compute @workgroup_size(1)
fn main() {
  big[0] = 7u;
  mid[0] = 7u;
  for (var k = 0u; k < 300u; k++) {
    big[idx[0] + k] = k;
    mid[idx[0] + k] = k;
  }
  big[1] = 8u;
  mid[1] = 8u;
  out[0] = big[2];
  out[1] = mid[2];
  out[2] = big[1];
  out[3] = mid[1];
}
`

// TestStoreAnywhere: an invalid store may land on any location of its
// binding, or nowhere (WGSL #out-of-bounds-access-sec, "Invalid Store").
// Derived by hand: after 300 such stores every leaf of mid and big may
// hold any of the values stored or its prior one, which the reference
// keeps as any value (the set {prior, k} of the first store is dropped
// by the second); mid[1], stored afterwards, is 8. big, above
// maxStoreAnywhereLeaves, is sticky: any value for the rest of the pass,
// big[1] = 8u included (coarser than WGSL, and sound); a load from it is
// any value. out[3] = mid[1] is 8.
func TestStoreAnywhere(t *testing.T) {
	m, err := wgsl.Parse("anywhere.wgsl", []byte(anywhereKernel))
	require.NoError(t, err)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	res, err := d.Run(map[string]ir.Value{"idx": ir.CompositeVal(ir.ArrayOf(tU32, 1), uv(1<<20))}, [3]uint32{1, 1, 1}, Options{})
	require.NoError(t, err)
	anyAt := func(o Output, i int) bool {
		return o.Indeterminate != nil && o.Indeterminate[i] && (o.Allowed == nil || o.Allowed[i].IsAny())
	}
	big, mid, out := res.Buffers["big"], res.Buffers["mid"], res.Buffers["out"]
	require.Len(t, big.Value.Elems, 70000)
	for i := range big.Value.Elems {
		require.True(t, anyAt(big, i), "big[%d] is any value", i)
	}
	assert.Contains(t, big.Why, "big")
	for i := range mid.Value.Elems {
		if i == 1 {
			assert.False(t, mid.Indeterminate[1], "mid[1] is stored after the invalid stores")
			assert.Equal(t, uint32(8), mid.Value.Elems[1].Bits)
			continue
		}
		require.True(t, anyAt(mid, i), "mid[%d] is any value", i)
	}
	assert.Equal(t, []bool{true, true, true, false}, out.Indeterminate)
	assert.Equal(t, uint32(8), out.Value.Elems[3].Bits)
}

// poisonKernel's invocations each loop as often as an order-dependent
// atomicAdd result says (up to 100 times): more paths than the reference
// explores, so each invocation stops with its rest indeterminate
// (poisonRest), and y, which its rest writes, is any value.
const poisonKernel = `
@group(0) @binding(0) var<storage, read_write> c: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> y: array<u32, 256>;
@group(0) @binding(2) var<storage, read_write> z: array<u32, 256>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  z[gid.x] = 5u;
  let v = atomicAdd(&c, 1u);
  var s = 0u;
  for (var k = 0u; k < min(v, 100u); k++) { s += k; }
  y[gid.x] = s;
}
`

// TestPoisonedInvocations: by hand, after 256 invocations that all stop
// as above, every leaf of y and of z is any value (the rest of a stopped
// invocation may write any variable its entry point stores to, z's
// earlier store included: poisonRest's rule, by variable). The outputs
// are the same as when every stopped invocation marked every leaf again
// (quadratic: BenchmarkDispatchShapes/stopped measures that it is not);
// what this pins is that marking only the first time, with the pass's
// end tainting the sticky variables, loses no leaf.
func TestPoisonedInvocations(t *testing.T) {
	m, err := wgsl.Parse("poison.wgsl", []byte(poisonKernel))
	require.NoError(t, err)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	res, err := d.Run(nil, [3]uint32{4, 1, 1}, Options{})
	require.NoError(t, err)
	for _, name := range []string{"y", "z"} {
		o := res.Buffers[name]
		require.Len(t, o.Value.Elems, 256)
		for i := range o.Value.Elems {
			require.True(t, o.Indeterminate != nil && o.Indeterminate[i] && (o.Allowed == nil || o.Allowed[i].IsAny()), "%s[%d] is any value", name, i)
		}
	}
}

// setKernel loads through an invalid reference (idx[0] is far out of
// bounds) from small bindings, so that each load's result is
// indeterminate with an allowed set (loadAnywhere: the binding's values
// and zero), then stores it, and operations on it whose instructions copy
// the operand's slot and edit its bits: -x, ~x (scalar and vector) and -f.
const setKernel = `
@group(0) @binding(0) var<storage, read> si: array<i32, 4>;
@group(0) @binding(1) var<storage, read> sf: array<f32, 4>;
@group(0) @binding(2) var<storage, read> idx: array<u32, 1>;
@group(0) @binding(3) var<storage, read_write> oi: array<i32, 5>;
@group(0) @binding(4) var<storage, read_write> ofl: array<f32, 2>;

@compute @workgroup_size(1)
fn main() {
  let v = si[idx[0]];
  let f = sf[idx[0]];
  oi[0] = v;
  oi[1] = -v;
  oi[2] = ~v;
  let w = ~vec2<i32>(v, v);
  oi[3] = w.x;
  oi[4] = w.y;
  ofl[0] = f;
  ofl[1] = -f;
}
`

// TestAllowedSetsFollowOnlyCopies: the allowed set of a value that an
// operation computes must hold every value the operation gives on the
// operand's allowed values (else a GPU's correct result reads as a
// mismatch). Derived by hand from WGSL #out-of-bounds-access-sec (an
// invalid load gives a value of the binding or zero): v ∈ {0, 1, 2, 3,
// 4}, so -v ∈ {0, -1, -2, -3, -4} and ~v ∈ {-1, -2, -3, -4, -5};
// f ∈ {0, 1.5, 2.5, 3.5, 4.5}, -f ∈ {-0, -1.5, …}. The stored copies keep
// the sets (a positive control that the sets exist), and each computed
// value's set, if it has one, must hold the values above (the reference
// may also say "any value").
func TestAllowedSetsFollowOnlyCopies(t *testing.T) {
	m, err := wgsl.Parse("sets.wgsl", []byte(setKernel))
	require.NoError(t, err)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	in := map[string]ir.Value{
		"si":  ir.CompositeVal(ir.ArrayOf(tI32, 4), iv(1), iv(2), iv(3), iv(4)),
		"sf":  ir.CompositeVal(ir.ArrayOf(tF32, 4), fvv(1.5), fvv(2.5), fvv(3.5), fvv(4.5)),
		"idx": ir.CompositeVal(ir.ArrayOf(tU32, 1), uv(1<<20)),
	}
	res, err := d.Run(in, [3]uint32{1, 1, 1}, Options{})
	require.NoError(t, err)
	// holds: leaf i's allowed set, if it has one, admits each value of
	// want as the oracle judges a GPU's result (oracle.Contains).
	holds := func(o Output, i int, copied bool, want ...ir.Value) {
		t.Helper()
		require.True(t, o.Indeterminate != nil && o.Indeterminate[i], "leaf %d is indeterminate", i)
		if copied {
			require.NotNil(t, o.Allowed, "leaf %d, a copy, keeps its allowed set", i)
		}
		if o.Allowed == nil || o.Allowed[i].IsAny() {
			return
		}
		for _, v := range want {
			assert.True(t, oracle.Contains(o.Allowed[i], v, 0), "leaf %d's allowed set %+v admits %v", i, o.Allowed[i], v)
		}
	}
	oi, ofl := res.Buffers["oi"], res.Buffers["ofl"]
	holds(oi, 0, true, iv(0), iv(1), iv(2), iv(3), iv(4))
	holds(oi, 1, false, iv(0), iv(-1), iv(-2), iv(-3), iv(-4))
	for i := 2; i < 5; i++ {
		holds(oi, i, false, iv(-1), iv(-2), iv(-3), iv(-4), iv(-5))
	}
	holds(ofl, 0, true, fvv(0), fvv(1.5), fvv(2.5), fvv(3.5), fvv(4.5))
	holds(ofl, 1, false, fvv(float32(math.Copysign(0, -1))), fvv(-1.5), fvv(-2.5), fvv(-3.5), fvv(-4.5))
}
