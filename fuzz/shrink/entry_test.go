package shrink_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/fuzz/shrink"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// tiledEntry is a compute finding as a campaign meets it (issue 25: a
// compute finding shrunk only 111 → 23 statements, keeping barriers, a
// workgroup tile and matrix arithmetic that cancels): out[0] is 7.0
// because invocation 0 reads 3.0 from the tile and adds 4.0; the matrix
// value e is added and subtracted again ((x + e) - e, exact: e = 7.0).
const tiledEntry = `
@group(0) @binding(0) var<storage, read_write> out: array<f32, 64>;
var<workgroup> tile: array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32) {
  tile[l] = 3.0;
  workgroupBarrier();
  let m = mat2x2<f32>(1.0, 2.0, 3.0, 4.0) * mat2x2<f32>(f32(l), 0.0, 0.0, 1.0);
  let x = tile[63u - l] + 4.0;
  workgroupBarrier();
  out[l] = (x + (m[1][0] + m[1][1])) - (m[1][0] + m[1][1]);
}
`

// out0IsSeven is the synthetic failure: the reference dispatch of one
// workgroup is race-free and writes exactly 7.0 to out[0].
func out0IsSeven(c shrink.Case) bool {
	d, err := interp.CompileEntry(c.Module, c.Kernel)
	if err != nil {
		return false
	}
	res, err := d.Run(map[string]ir.Value{"out": ir.Zero(ir.ArrayOf(ir.F32, 64))}, [3]uint32{1, 1, 1}, interp.Options{})
	if err != nil || len(res.Races) > 0 {
		return false
	}
	o := res.Buffers["out"]
	if o.Indeterminate != nil && o.Indeterminate[0] {
		return false
	}
	return o.Value.Elems[0].F32() == 7
}

// TestShrinkEntryDropsTheWorkgroupShape checks that a compute finding
// that does not need its workgroup shrinks past it: one invocation, no
// var<workgroup>, no barrier, no matrix. Before the entry edits
// (entry.go) and the repeated-expression edit, the barriers, the tile, the
// 64 invocations and the cancelling matrix value all stayed.
func TestShrinkEntryDropsTheWorkgroupShape(t *testing.T) {
	m := parse(t, tiledEntry)
	c := shrink.Case{Module: m, Kernel: "main"}
	require.True(t, out0IsSeven(c), "the unshrunk case must fail")
	small := shrink.Minimize(c, out0IsSeven, 2000)
	require.True(t, out0IsSeven(small))
	src := ir.Print(small.Module)
	t.Logf("shrunk to %d statements:\n%s", shrink.Stmts(small.Module, small.Kernel), src)
	require.Equal(t, [3]uint32{1, 1, 1}, small.Module.Func("main").WorkgroupSize, "workgroup size")
	require.NotContains(t, src, "Barrier")
	require.NotContains(t, src, "var<workgroup>")
	require.NotContains(t, src, "mat2x2")
	require.LessOrEqual(t, shrink.Stmts(small.Module, small.Kernel), 3)
	require.False(t, strings.Contains(src, "63u"), "the tile index is gone with the tile")
}
