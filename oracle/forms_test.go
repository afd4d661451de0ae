package oracle

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// A matrix is C×R leaves, column by column (ir.Type.ComponentTypes, the
// order of Indeterminate, Tolerance and Allowed): a run whose matrix
// differs in one component differs there, and the leaf after the matrix
// keeps its own index. Before issue 26 the comparison took a whole matrix
// as one leaf and compared its (empty) Bits, so any matrix agreed — a
// function kernel returning mat2x2, or a storage binding holding one,
// could never mismatch — and every leaf after it read the wrong entry of
// the per-leaf slices.
func TestMatrixLeavesAreCompared(t *testing.T) {
	m := ir.Mat(2, 2)
	s := ir.StructType(&ir.StructDecl{Name: "S", Fields: []ir.Field{{Name: "m", Type: m}, {Name: "k", Type: ir.U32}}})
	mat := func(a, b, c, d float32) ir.Value {
		v2 := ir.Vec(2, ir.F32)
		return ir.CompositeVal(m, ir.CompositeVal(v2, ir.F32Val(a), ir.F32Val(b)), ir.CompositeVal(v2, ir.F32Val(c), ir.F32Val(d)))
	}
	sv := func(mv ir.Value, k uint32) ir.Value { return ir.CompositeVal(s, mv, ir.U32Val(k)) }
	names := []string{"out"}

	// m[1][0] differs (3 against 3.5): leaf 2 in column-major order.
	ref := []Expected{{Value: sv(mat(1, 2, 3, 4), 9)}}
	o, d := CompareInvocation(ref, []Expected{{Value: sv(mat(1, 2, 3.5, 4), 9)}}, names)
	assert.Equal(t, Differ, o)
	require.Len(t, d, 1)
	assert.Equal(t, LeafDiff{Output: 0, Leaf: 2, Path: "out.m[1][0]", Want: "3.0f", Got: "3.5f"}, d[0])

	// Leaf 4 is k (after the 4 matrix leaves): indeterminate there, any k
	// agrees; leaf 3 (m[1][1]) indeterminate lets only m[1][1] vary.
	ind := []Expected{{Value: sv(mat(1, 2, 3, 4), 9), Indeterminate: []bool{false, false, false, false, true}}}
	o, d = CompareInvocation(ind, []Expected{{Value: sv(mat(1, 2, 3, 4), 77)}}, names)
	assert.Equal(t, Indeterminate, o)
	assert.Empty(t, d)
	ind3 := []Expected{{Value: sv(mat(1, 2, 3, 4), 9), Indeterminate: []bool{false, false, false, true, false}}}
	o, d = CompareInvocation(ind3, []Expected{{Value: sv(mat(1, 2, 3, 4), 77)}}, names)
	assert.Equal(t, Differ, o, "k is determinate")
	require.Len(t, d, 1)
	assert.Equal(t, "out.k", d[0].Path)

	// A tolerance on m[0][1] (leaf 1) of 0.25 takes 2.2, not 2.3.
	tol := []Expected{{Value: sv(mat(1, 2, 3, 4), 9), Tolerance: []float64{0, 0.25, 0, 0, 0}}}
	o, _ = CompareInvocation(tol, []Expected{{Value: sv(mat(1, 2.2, 3, 4), 9)}}, names)
	assert.Equal(t, Agree, o)
	o, _ = CompareInvocation(tol, []Expected{{Value: sv(mat(1, 2.3, 3, 4), 9)}}, names)
	assert.Equal(t, Differ, o)

	// JSON and the table's text mark the matrix's own leaves.
	assert.Equal(t, `{"m": [[1, 2], [3, "indeterminate"]], "k": 9}`, string(MarshalExpected(ind3[0])))
	assert.Equal(t, `{m: ((1, 2), (3, indet)), k: 9u}`, Human(ind3[0]))
}

// formCase is a reference and a run, compared in both forms.
type formCase struct {
	name string
	t    *ir.Type
	ref  Expected // Value form, with its per-leaf slices
	got  ir.Value
	// gotInd marks the run's own indeterminate leaves (an interpreter
	// run of a twin).
	gotInd []bool
}

func bufferOf(t *testing.T, ty *ir.Type, v ir.Value) ir.Buffer {
	t.Helper()
	b, err := ir.NewBuffer(ty, v)
	require.NoError(t, err)
	return b
}

// TestValueAndBufferFormsCompareAlike: the same reference and run, given
// as ir.Value trees and as ir.Buffer (host-shareable bytes, padding
// included) in every combination, give identical outcomes and diffs (the
// same paths: ir.Buffer.LeafPath's and the Value walk's), identical JSON
// and identical table text — over indeterminate leaves, allowed sets and
// ranges, tolerances, a matrix and a runtime-sized array of structs whose
// vec3 leaves 4 bytes of padding per element. Expected outcomes are
// derived by hand in each case's comment.
func TestValueAndBufferFormsCompareAlike(t *testing.T) {
	p := ir.StructType(&ir.StructDecl{Name: "P", Fields: []ir.Field{{Name: "pos", Type: ir.Vec(3, ir.F32)}, {Name: "m", Type: ir.Mat(2, 2)}, {Name: "id", Type: ir.U32}}})
	rt := ir.RuntimeArrayOf(p)
	f := ir.F32Val
	elem := func(x, y, z float32, id uint32, m0 float32) ir.Value {
		v2 := ir.Vec(2, ir.F32)
		return ir.CompositeVal(p, ir.CompositeVal(ir.Vec(3, ir.F32), f(x), f(y), f(z)),
			ir.CompositeVal(ir.Mat(2, 2), ir.CompositeVal(v2, f(m0), f(0)), ir.CompositeVal(v2, f(0), f(1))), ir.U32Val(id))
	}
	arr := func(es ...ir.Value) ir.Value { return ir.Value{Type: rt, Elems: es} }
	const k = 8 // leaves per element: pos 3, m 4, id 1
	ind := make([]bool, 3*k)
	allowed := make([]ir.ValueSet, 3*k)
	tols := make([]float64, 3*k)
	ind[k+7] = true // [1].id ∈ {5, 6}
	allowed[k+7] = ir.ValueSet{Values: []uint32{5, 6}}
	ind[2*k+0] = true // [2].pos[0] any value
	ind[2*k+7] = true // [2].id ∈ [10, 20]
	allowed[2*k+7] = ir.Interval(10, 20)
	tols[k+1] = 0.5 // [1].pos[1] within 0.5
	ref := Expected{Value: arr(elem(1, 2, 3, 4, 0.5), elem(5, 6, 7, 5, -0), elem(9, 10, 11, 12, 2)), Indeterminate: ind, Allowed: allowed, Tolerance: tols}
	nan := float32(math.NaN())
	cases := []formCase{
		// Every determinate leaf equal, [1].pos[1] within its 0.5, the sets
		// met, [2].pos[0] anything: indeterminate, no diff.
		{name: "agrees", got: arr(elem(1, 2, 3, 4, 0.5), elem(5, 6.4, 7, 6, 0), elem(nan, 10, 11, 20, 2))},
		// [0].m[0][0] 0.5 → 0.75, [1].id 7 ∉ {5, 6}, [2].id 21 ∉ [10, 20],
		// [1].pos[1] 6.6 beyond 0.5: four diffs.
		{name: "differs", got: arr(elem(1, 2, 3, 4, 0.75), elem(5, 6.6, 7, 7, 0), elem(9, 10, 11, 21, 2))},
		// One element short: the third's leaves are "<missing>" (the
		// determinate ones differ; [2].pos[0] is any value; [2].id's
		// range misses).
		{name: "short", got: arr(elem(1, 2, 3, 4, 0.5), elem(5, 6, 7, 5, 0))},
		// A twin's interpreter run leaves [0].pos[0] and [1].id
		// indeterminate: not compared (indeterminate), no diff.
		{name: "twin", got: arr(elem(100, 2, 3, 4, 0.5), elem(5, 6, 7, 99, 0), elem(9, 10, 11, 15, 2)), gotInd: func() []bool {
			g := make([]bool, 3*k)
			g[0], g[k+7] = true, true
			return g
		}()},
	}
	want := map[string]struct {
		o     Outcome
		paths []string
	}{
		"agrees":  {Indeterminate, nil},
		"differs": {Differ, []string{"ps[0].m[0][0]", "ps[1].pos[1]", "ps[1].id", "ps[2].id"}},
		"short":   {Differ, []string{"ps[2].pos[1]", "ps[2].pos[2]", "ps[2].m[0][0]", "ps[2].m[0][1]", "ps[2].m[1][0]", "ps[2].m[1][1]", "ps[2].id"}},
		"twin":    {Indeterminate, nil},
	}
	names := []string{"ps"}
	refBuf := ref
	refBuf.Value, refBuf.Buffer = ir.Value{}, bufferOf(t, rt, ref.Value)
	// WGSL #memory-layouts: pos at 0 (12 bytes), m (align 8) at 16, 16
	// bytes, id at 32; size 36 rounded to P's alignment 16: stride 48,
	// with 4 bytes of padding after pos and 12 after id.
	require.Equal(t, 48, ir.ArrayStride(rt))
	require.Len(t, bufferOf(t, rt, ref.Value).Bytes, 3*48, "the binding padded to its alignment")
	for _, c := range cases {
		gv := Expected{Value: c.got, Indeterminate: c.gotInd}
		gb := Expected{Buffer: bufferOf(t, rt, c.got), Indeterminate: c.gotInd}
		o0, d0 := CompareInvocation([]Expected{ref}, []Expected{gv}, names)
		assert.Equal(t, want[c.name].o, o0, c.name)
		var paths []string
		for _, d := range d0 {
			paths = append(paths, d.Path)
		}
		assert.Equal(t, want[c.name].paths, paths, c.name)
		for fi, pair := range [][2]Expected{{ref, gb}, {refBuf, gv}, {refBuf, gb}} {
			o, d := CompareInvocation([]Expected{pair[0]}, []Expected{pair[1]}, names)
			assert.Equal(t, o0, o, "%s, forms %d", c.name, fi)
			assert.Equal(t, d0, d, "%s, forms %d", c.name, fi)
		}
		assert.Equal(t, string(MarshalExpected(gv)), string(MarshalExpected(gb)), c.name)
		assert.Equal(t, Human(gv), Human(gb), c.name)
	}
	assert.Equal(t, string(MarshalExpected(ref)), string(MarshalExpected(refBuf)))
	assert.Equal(t, Human(ref), Human(refBuf))
	assert.Equal(t, ref.Count(), refBuf.Count())
	assert.Equal(t, 3*k, refBuf.Count())
	// Each leaf's path by index, both forms: LeafPath's form.
	cv, cb := ref.Cursor(), refBuf.Cursor()
	for i := 0; ; i++ {
		a, ok := cv.Next()
		b, okb := cb.Next()
		require.Equal(t, ok, okb, "leaf %d", i)
		if !ok {
			assert.Equal(t, 3*k, i)
			break
		}
		assert.Equal(t, a, b, "leaf %d", i)
		assert.Equal(t, cv.Path("ps"), cb.Path("ps"), "leaf %d", i)
		assert.Equal(t, "ps"+refBuf.Buffer.LeafPath(i), cv.Path("ps"))
	}
	// Judge takes mixed forms across invocations too.
	js, v := Judge([][]Expected{{ref}, {refBuf}}, names, []Run{{Adapter: "a", Outputs: [][]Expected{{{Buffer: bufferOf(t, rt, cases[1].got)}}, {{Value: cases[1].got}}}}})
	assert.Equal(t, Mismatch, v)
	assert.Equal(t, []int{0, 1}, js[0].Mismatches)
	assert.Equal(t, js[0].Diffs[0], js[0].Diffs[1])
}

// Two Buffers with the same bytes agree without a leaf walk; bytes that
// differ only in padding still agree (leaf by leaf: padding is no leaf),
// and one leaf's bytes differing is that leaf's diff. array<vec3<f32>, 2>
// has a stride of 16 (WGSL #memory-layouts): bytes 12..16 are padding,
// leaf 3 ([1][0]) lies at 16.
func TestBuffersCompareByBytesThenLeaves(t *testing.T) {
	ty := ir.ArrayOf(ir.Vec(3, ir.F32), 2)
	ref := ir.ZeroBuffer(ty)
	require.Len(t, ref.Bytes, 32)
	for i := range 6 {
		ref.SetLeaf(i, math.Float32bits(float32(i)))
	}
	names := []string{"a"}
	o, d := CompareInvocation([]Expected{{Buffer: ref}}, []Expected{{Buffer: ref.Clone()}}, names)
	assert.Equal(t, Agree, o)
	assert.Empty(t, d)
	// All-false marks are no indeterminate leaf; one true mark makes the
	// same bytes indeterminate, not agreeing (the leaf is not compared).
	o, _ = CompareInvocation([]Expected{{Buffer: ref, Indeterminate: make([]bool, 6)}}, []Expected{{Buffer: ref.Clone()}}, names)
	assert.Equal(t, Agree, o)
	o, _ = CompareInvocation([]Expected{{Buffer: ref, Indeterminate: []bool{false, false, true}}}, []Expected{{Buffer: ref.Clone()}}, names)
	assert.Equal(t, Indeterminate, o)
	pad := ref.Clone()
	pad.Bytes[13] = 0xff
	o, d = CompareInvocation([]Expected{{Buffer: ref}}, []Expected{{Buffer: pad}}, names)
	assert.Equal(t, Agree, o, "padding is no leaf")
	assert.Empty(t, d)
	bad := ref.Clone()
	bad.Bytes[16+3] ^= 0x80 // leaf 3 = 3.0 with its sign flipped
	o, d = CompareInvocation([]Expected{{Buffer: ref}}, []Expected{{Buffer: bad}}, names)
	assert.Equal(t, Differ, o)
	assert.Equal(t, []LeafDiff{{Output: 0, Leaf: 3, Path: "a[1][0]", Want: "3.0f", Got: "-3.0f"}}, d)
}
