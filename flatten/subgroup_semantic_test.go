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

// sgPrograms are compute shaders whose subgroup operations run under
// divergent control flow — if/else, switch, an early return in a helper
// and in the entry point, unrolled loops with a data-dependent break —
// the shapes of the field bugs issue 40 cites (wgpu#10019: subgroupAdd
// and subgroupBroadcastFirst in a divergent if/else and switch). Each
// writes every result to out, indexed by the invocation.
var sgPrograms = map[string]string{
	// A loop whose exit is per invocation (a masked kept loop: its twin
	// iterates as one subgroup, subgroupExit), with wgpu's own test's
	// shape: each invocation leaves at its own iteration, and the sum
	// in iteration k counts the invocations still there.
	"masked-loop": `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  let x = data[i];
  var acc = 0u;
  var last = 0u;
  for (var k = 0u; k < x % 9u; k++) {
    last = subgroupAdd(1u);
    acc += subgroupMax(k + x) + subgroupInclusiveAdd(k);
    if (k == x % 5u) { break; }
  }
  out[4u * i] = acc;
  out[4u * i + 1u] = last;
}`,
	"if-else": `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  let x = data[i];
  var r = vec4u();
  if (x % 3u == 0u) {
    r.x = subgroupAdd(x);
    r.y = subgroupMin(x) + subgroupMax(x);
    r.z = countOneBits(subgroupBallot(x > 50u).x) + select(0u, 7u, subgroupElect());
    r.w = subgroupBroadcastFirst(x) + select(0u, 1u, subgroupAll(x < 90u)) + select(0u, 2u, subgroupAny(x == 3u));
  } else if (x % 3u == 1u) {
    r.x = subgroupInclusiveAdd(x) ^ subgroupExclusiveMul(x % 4u + 1u);
    r.y = subgroupAnd(x | 0xf0u) + subgroupOr(x) + subgroupXor(x);
    r.z = u32(subgroupAdd(f32(x % 16u)));
    r.w = u32(subgroupMax(i32(x) - 50));
  } else {
    r.x = subgroupMul(x % 2u + 1u);
    r.y = u32(subgroupMin(f32(x)));
  }
  out[4u * i] = r.x;
  out[4u * i + 1u] = r.y;
  out[4u * i + 2u] = r.z;
  out[4u * i + 3u] = r.w;
}`,
	"switch": `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  let x = data[i];
  var r = 0u;
  var s = 0u;
  switch (x % 4u) {
    case 0u: { r = subgroupAdd(x); s = subgroupBroadcastFirst(i); }
    case 1u, 2u: { r = subgroupMax(x); s = countOneBits(subgroupBallot(true).y) + select(0u, 100u, subgroupElect()); }
    default: { r = subgroupExclusiveAdd(x); s = subgroupShuffle(x, 0u); }
  }
  out[4u * i] = r;
  out[4u * i + 1u] = s;
}`,
	"early-return": `
fn helper(x: u32) -> u32 {
  if (x < 20u) { return subgroupAdd(x); }
  if (x > 80u) { return 1000u + subgroupMin(x); }
  return 2000u + subgroupInclusiveAdd(x);
}
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  let x = data[i];
  out[4u * i] = helper(x);
  if (x % 5u == 0u) { return; }
  out[4u * i + 1u] = subgroupAdd(x) + select(0u, 1u, subgroupElect());
  out[4u * i + 2u] = subgroupBroadcastFirst(x);
}`,
	"unrolled-loop": `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  let x = data[i];
  var acc = 0u;
  var votes = 0u;
  for (var k = 0u; k < 4u; k++) {
    if (k * 25u > x) { break; }
    acc += subgroupAdd(x + k);
    if (x % 2u == 0u) { continue; }
    votes += countOneBits(subgroupBallot(x > 40u).x) + subgroupMax(k);
  }
  out[4u * i] = acc;
  out[4u * i + 1u] = votes;
}`,
	"uniform-kept-loop": `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  let x = data[i];
  var acc = 0u;
  for (var k = 0u; k < data[0] % 4u + 1u; k++) {
    if (x % 3u == k) { continue; }
    acc += subgroupAdd(x * k) + subgroupMax(x + k);
  }
  out[4u * i] = acc;
}`,
	"shuffles-and-vectors": `
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  let x = data[i];
  var d = 0u;
  var r = vec2u();
  var h = 0.0h;
  if (x % 2u == 0u) {
    d = 1u + x / 1000u;
    r = subgroupAdd(vec2u(x, x + 1u)) + vec2u(subgroupShuffleDown(x, d), subgroupShuffleXor(x, 1u));
    h = subgroupMin(f16(x)) + subgroupAdd(f16(x % 8u)) + subgroupMax(-f16(x));
  }
  out[4u * i] = r.x;
  out[4u * i + 1u] = r.y;
  out[4u * i + 2u] = u32(h + 200.0h);
}`,
}

const sgSemanticHeader = `enable subgroups;
enable f16;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read> data: array<u32, 128>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 1024>;
`

// sgLeaves lists v's scalar leaves in ir.Type.ComponentTypes order.
func sgLeaves(v ir.Value, out []ir.Value) []ir.Value {
	if v.Elems == nil && v.Type.IsScalar() {
		return append(out, v)
	}
	for _, e := range v.Elems {
		out = sgLeaves(e, out)
	}
	return out
}

// sgDiff compares the twin's out buffer with the original's at every
// leaf the original's reference determines (a leaf it leaves
// indeterminate — a shuffle of an inactive lane — allows anything), and
// returns the first difference, or "". With lenient, a leaf the twin's
// reference leaves indeterminate is skipped too (see
// TestSubgroupTwinsAgreeOnRandomPrograms).
func sgDiff(orig, twin interp.Output, lenient ...bool) string {
	a, b := sgLeaves(orig.Value, nil), sgLeaves(twin.Value, nil)
	if len(a) != len(b) {
		return fmt.Sprintf("%d leaves, twin %d", len(a), len(b))
	}
	for i := range a {
		if orig.Indeterminate != nil && orig.Indeterminate[i] {
			continue
		}
		if twin.Indeterminate != nil && twin.Indeterminate[i] {
			if len(lenient) > 0 && lenient[0] {
				continue
			}
			return fmt.Sprintf("leaf %d: %v, twin indeterminate (%s)", i, a[i], twin.Why)
		}
		if a[i].Bits != b[i].Bits {
			return fmt.Sprintf("leaf %d: %v, twin %v", i, a[i], b[i])
		}
	}
	return ""
}

// sgRun runs entry name of m over two workgroups of 64 on data, in
// part's subgroups.
func sgRun(t *testing.T, m *ir.Module, name string, data ir.Value, part *interp.SubgroupPartition) (interp.Output, error) {
	t.Helper()
	d, err := interp.CompileEntry(m, name)
	require.NoError(t, err, name)
	res, err := d.Run(map[string]ir.Value{"data": data}, [3]uint32{2, 1, 1}, interp.Options{Subgroups: part})
	if err != nil {
		return interp.Output{}, err
	}
	return res.Buffers["out"], nil
}

// sgShuffled is a partition of two workgroups of 64 into subgroups of
// size whose members are random local invocations (WGSL gives
// subgroup_invocation_id no relation to local_invocation_index), as a
// GPU run may report it (interp.ObservedSubgroups).
func sgShuffled(t *testing.T, rng *rand.Rand, size int) *interp.SubgroupPartition {
	var obs []interp.SubgroupObservation
	for range 2 {
		rec := make([]interp.SubgroupObservation, 64)
		perm := rng.Perm(64)
		for k := 0; k < 64; k += size {
			for id, l := range perm[k : k+size] {
				rec[l] = interp.SubgroupObservation{ID: uint32(id), Size: uint32(size), First: uint32(perm[k])}
			}
		}
		obs = append(obs, rec...)
	}
	p, err := interp.ObservedSubgroups(64, obs)
	require.NoError(t, err)
	return p
}

// TestSubgroupTwinsAgreeInDispatch: for each program, random data and
// every subgroup size WGSL allows (4 to 128; 128 leaves a workgroup of
// 64 a partial subgroup) in linear subgroups, and in subgroups of 8 and
// 32 drawn at random, the twin's reference run equals the original's maximal-reconvergence
// reference (interp's active sets: the invocations that reach the call
// by the same path) at every leaf the original determines; with the
// subgroup-guard-dropped fault, a reduction sums every invocation of the
// subgroup and some program's twin differs.
func TestSubgroupTwinsAgreeInDispatch(t *testing.T) {
	rng := rand.New(rand.NewSource(40))
	faultFound := false
	for name, body := range sgPrograms {
		for trial, size := range []int{4, 8, 16, 32, 64, 128, 8, 32} {
			part, err := interp.LinearSubgroups(size)
			require.NoError(t, err)
			if trial >= 6 {
				part = sgShuffled(t, rng, size)
			}
			data := ir.Value{Type: ir.ArrayOf(ir.U32, 128)}
			for range 128 {
				data.Elems = append(data.Elems, ir.U32Val(uint32(rng.Intn(100))))
			}
			m := parse(t, sgSemanticHeader+body)
			orig, err := sgRun(t, m, "main", data, part)
			if err != nil && strings.Contains(err.Error(), "is not executable by the reference") {
				t.Skipf("the reference does not run subgroup builtins yet: %v", err)
			}
			require.NoError(t, err, name)
			twin, err := flatten.Function(m, "main", flatten.Options{VerifyPasses: true})
			require.NoError(t, err, name)
			got, err := sgRun(t, m, twin.Name, data, part)
			require.NoError(t, err, name)
			if d := sgDiff(orig, got); d != "" {
				t.Fatalf("%s, subgroup size %d (trial %d): %s\n%s", name, size, trial, d, ir.PrintFunc(twin))
			}

			fm := parse(t, sgSemanticHeader+body)
			ftwin, err := flatten.Function(fm, "main", flatten.Options{Fault: "subgroup-guard-dropped"})
			require.NoError(t, err, name)
			fgot, err := sgRun(t, fm, ftwin.Name, data, part)
			require.NoError(t, err, name)
			if sgDiff(orig, fgot) != "" {
				faultFound = true
			}
		}
	}
	require.True(t, faultFound, "the subgroup-guard-dropped fault changed no determinate leaf")
}
