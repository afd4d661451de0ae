package interp

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
)

// hillisSteele is a Hillis–Steele inclusive scan of 64 values in one
// workgroup, double-buffered in sdata (halves 0..63 and 64..127), as
// people write it. WGSL's select evaluates both operands, so invocations
// tid < 1<<i read sdata[src + tid - (1u << i)] whatever the condition:
// with src 0 that index wraps below zero (invocation 0 at step 0:
// 0xFFFFFFFF), an out-of-bounds read that WGSL lets land on any element
// of sdata; the reference checks it on the clamped element 127, which
// invocation 63 writes in the same step (dst + 63). With src 64 the index
// lands in the other half (invocation 0 at step 1: 62), in bounds, on an
// element the same step writes: an in-bounds race.
const hillisSteele = `@group(0) @binding(0) var<storage, read_write> data: array<u32, 64>;
var<workgroup> sdata: array<u32, 128>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) tid: u32) {
  var src = 0u;
  var dst = 64u;
  sdata[tid] = data[tid];
  workgroupBarrier();
  for (var i = 0u; i < 6u; i++) {
    var val = sdata[src + tid];
    val += select(0u, sdata[src + tid - (1u << i)], tid >= (1u << i));
    sdata[dst + tid] = val;
    workgroupBarrier();
    let t = src;
    src = dst;
    dst = t;
  }
  data[tid] = sdata[src + tid];
}
`

func raceOn(t *testing.T, rs []Race, v string, slot int) Race {
	t.Helper()
	for _, r := range rs {
		if r.Var == v && r.Slot == slot {
			return r
		}
	}
	require.Failf(t, "no race", "no race on %s leaf %d in %v", v, slot, rs)
	return Race{}
}

// TestRaceOutOfBoundsSaysSo: a race that exists only because an access
// is out of bounds (WGSL #out-of-bounds-access-sec: an invalid load or
// store may access any location of its variable) names the invocation,
// the index it computed, the array's bound and the rule (issue 38 item
// 5a); an in-bounds race's message is as before.
func TestRaceOutOfBoundsSaysSo(t *testing.T) {
	m, err := wgsl.Parse("scan.wgsl", []byte(hillisSteele))
	require.NoError(t, err)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	for _, workers := range []int{1, 4} {
		t.Run(fmt.Sprint("workers ", workers), func(t *testing.T) {
			res, err := d.Run(nil, [3]uint32{1, 1, 1}, Options{Workers: workers})
			require.NoError(t, err)

			r := raceOn(t, res.Races, "sdata", 127)
			s := r.String()
			assert.Contains(t, s, "scan.wgsl:12:28: read by invocation 0 (workgroup 0), out of bounds: index 4294967295 (0xffffffff, -1 wrapped) of sdata's 128 elements", s)
			assert.Contains(t, s, "scan.wgsl:13:22: write by invocation 63 (workgroup 0)", s)
			assert.Contains(t, s, "(#out-of-bounds-access-sec)", s)
			assert.Contains(t, s, "access any location of sdata", s)
			require.NotNil(t, r.AOOB, s)
			assert.Nil(t, r.BOOB, s)
			assert.Equal(t, OOBAccess{Invocation: 0, Array: "sdata", Index: 4294967295, Bound: 128}, *r.AOOB)

			// In bounds (src 64, step 1: invocation 0 reads 62, which
			// invocation 62 writes): unchanged.
			r = raceOn(t, res.Races, "sdata", 62)
			assert.Equal(t, "data race on sdata (leaf 62): scan.wgsl:12:28: read by invocation 0 (workgroup 0), and scan.wgsl:13:22: write by invocation 62 (workgroup 0)", r.String())
			assert.Nil(t, r.AOOB)
			assert.Nil(t, r.BOOB)
		})
	}
}

// TestRaceOutOfBoundsNested: in a chain, the first index out of bounds
// is named, with its own array (as the IR prints it: a literal index
// with its suffix) and bound; an i32 as written.
func TestRaceOutOfBoundsNested(t *testing.T) {
	for _, tc := range []struct {
		name, read, write string
		leaf              int
		text              string
		want              OOBAccess
	}{
		// Invocation 0 reads w[1][-1], checked on the clamped w[1][0]
		// (leaf 4), which invocation 3 writes.
		{"inner", "w[1][k]", "w[1][0]", 4, "nested.wgsl:7:18: read by invocation 0 (workgroup 0), out of bounds: index -1 of w[1i]'s 4 elements",
			OOBAccess{Invocation: 0, Array: "w[1i]", Index: -1, Bound: 4}},
		// w[-1][-1]: the outer index is named.
		{"both", "w[k][k]", "w[0][0]", 0, "nested.wgsl:7:18: read by invocation 0 (workgroup 0), out of bounds: index -1 of w's 2 elements",
			OOBAccess{Invocation: 0, Array: "w", Index: -1, Bound: 2}},
		// w[-1][1]: the outer.
		{"outer", "w[k][1]", "w[0][1]", 1, "nested.wgsl:7:18: read by invocation 0 (workgroup 0), out of bounds: index -1 of w's 2 elements",
			OOBAccess{Invocation: 0, Array: "w", Index: -1, Bound: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
var<workgroup> w: array<array<u32, 4>, 2>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) tid: u32) {
  let k = i32(tid) - 1;
  out[tid] = ` + tc.read + `;
  if (tid == 3u) {
    ` + tc.write + ` = tid;
  }
}
`
			m, err := wgsl.Parse("nested.wgsl", []byte(src))
			require.NoError(t, err)
			d, err := CompileEntry(m, "main")
			require.NoError(t, err)
			res, err := d.Run(nil, [3]uint32{1, 1, 1}, Options{Workers: 1})
			require.NoError(t, err)
			r := raceOn(t, res.Races, "w", tc.leaf)
			s := r.String()
			assert.Contains(t, s, tc.text, s)
			assert.Contains(t, s, "write by invocation 3 (workgroup 0)", s)
			assert.Contains(t, s, "(#out-of-bounds-access-sec)", s)
			require.NotNil(t, r.AOOB, s)
			assert.Equal(t, tc.want, *r.AOOB)
			assert.Nil(t, r.BOOB)
		})
	}
}

// TestRaceOutOfBoundsCompound: a compound assignment through an
// out-of-bounds index loads first; a race of that load says so.
func TestRaceOutOfBoundsCompound(t *testing.T) {
	src := `var<workgroup> w: array<u32, 8>;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) tid: u32) {
  let k = i32(tid) - 1;
  w[k] += 1u;
  out[tid] = tid;
}
`
	m, err := wgsl.Parse("compound.wgsl", []byte(src))
	require.NoError(t, err)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	res, err := d.Run(nil, [3]uint32{1, 1, 1}, Options{Workers: 1})
	require.NoError(t, err)
	r := raceOn(t, res.Races, "w", 0)
	s := r.String()
	assert.Contains(t, s, "compound.wgsl:7:4: read by invocation 0 (workgroup 0), out of bounds: index -1 of w's 8 elements, and compound.wgsl:7:8: write by invocation 1 (workgroup 0)", s)
	assert.Contains(t, s, "(#out-of-bounds-access-sec)", s)
	require.NotNil(t, r.AOOB, s)
	assert.Equal(t, OOBAccess{Invocation: 0, Array: "w", Index: -1, Bound: 8}, *r.AOOB)
}

// TestRaceIndeterminateIndexSaysSo: an index WGSL leaves indeterminate
// (here a contended atomicAdd's result) makes an access through an
// invalid reference too; its race says that the index was indeterminate
// and what the reference took it to be.
func TestRaceIndeterminateIndexSaysSo(t *testing.T) {
	src := `var<workgroup> c: atomic<u32>;
var<workgroup> w: array<u32, 8>;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) tid: u32) {
  let k = atomicAdd(&c, 1u);
  out[tid] = w[k];
  if (tid == 3u) {
    w[0] = 1u;
  }
}
`
	m, err := wgsl.Parse("indet.wgsl", []byte(src))
	require.NoError(t, err)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	res, err := d.Run(nil, [3]uint32{1, 1, 1}, Options{Workers: 1})
	require.NoError(t, err)
	r := raceOn(t, res.Races, "w", 0)
	s := r.String()
	assert.Contains(t, s, "indet.wgsl:8:15: read by invocation 0 (workgroup 0), through an indeterminate index (0 as the reference computed it) into w's 8 elements, and indet.wgsl:10:10: write by invocation 3 (workgroup 0); an indeterminate index may be out of bounds, and WGSL lets an out-of-bounds load access any location of w", s)
	require.NotNil(t, r.AOOB, s)
	assert.Equal(t, OOBAccess{Invocation: 0, Array: "w", Index: 0, Bound: 8, Indeterminate: true}, *r.AOOB)
}
