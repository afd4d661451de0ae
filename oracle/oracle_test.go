package oracle

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/ir"
)

func TestLeafEqual(t *testing.T) {
	f := func(x float32) ir.Value { return ir.F32Val(x) }
	sub := math.Float32frombits(1) // smallest positive subnormal
	negZero := float32(math.Copysign(0, -1))
	cases := []struct {
		name      string
		want, got ir.Value
		tol       float64
		eq        bool
	}{
		{"identical f32", f(1.5), f(1.5), 0, true},
		{"one ulp off, exact required", f(1), f(math.Nextafter32(1, 2)), 0, false},
		{"one ulp off, within tolerance", f(1), f(math.Nextafter32(1, 2)), 1e-6, true},
		{"beyond tolerance", f(1), f(1.001), 1e-6, false},
		{"+0 equals -0", f(0), f(negZero), 0, true},
		{"subnormal equals zero (flush)", f(sub), f(0), 0, true},
		{"zero equals negative subnormal", f(0), f(-sub), 0, true},
		{"NaN never matches a finite reference", f(1), f(float32(math.NaN())), math.Inf(1), false},
		{"Inf never matches", f(3e38), f(float32(math.Inf(1))), 1e38, false},
		{"integers exact", ir.I32Val(-1), ir.I32Val(-1), 0, true},
		{"integers differ", ir.U32Val(1), ir.U32Val(2), 10, false},
		{"type mismatch", ir.I32Val(1), ir.U32Val(1), 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.eq, LeafEqual(c.want, c.got, c.tol))
		})
	}
}

func TestCompareInvocationIndeterminacy(t *testing.T) {
	v2 := ir.Vec(2, ir.I32)
	ref := []Expected{{Value: ir.CompositeVal(v2, ir.I32Val(1), ir.I32Val(2)), Indeterminate: []bool{false, true}}}
	names := []string{"ret"}
	// The indeterminate leaf may hold anything.
	o, d := CompareInvocation(ref, []Expected{{Value: ir.CompositeVal(v2, ir.I32Val(1), ir.I32Val(99))}}, names)
	assert.Equal(t, Indeterminate, o)
	assert.Empty(t, d)
	// A determinate leaf that differs is a difference, with its path.
	o, d = CompareInvocation(ref, []Expected{{Value: ir.CompositeVal(v2, ir.I32Val(7), ir.I32Val(2))}}, names)
	assert.Equal(t, Differ, o)
	if assert.Len(t, d, 1) {
		assert.Equal(t, "ret[0]", d[0].Path)
	}
	// A twin the interpreter cannot fix where it fixes the original is
	// not a difference: that is the interpreter's precision, not the
	// twin's behaviour (its GPU runs are compared exactly).
	twin := []Expected{{Value: ir.CompositeVal(v2, ir.I32Val(1), ir.I32Val(2)), Indeterminate: []bool{true, false}, Why: "3:4: select on an indeterminate condition"}}
	o, _ = CompareInvocation(ref, twin, names)
	assert.Equal(t, Indeterminate, o)
}

// An indeterminate leaf with an allowed set is checked by membership:
// {1, 7} ∪ [10, 12] (u32) takes 1, 7, 10, 11, 12 and nothing else; f32
// members take their tolerance.
func TestAllowedSetsAreChecked(t *testing.T) {
	set := ir.ValueSet{Values: []uint32{1, 7}, Lo: 10, Hi: 12, HasRange: true}
	ref := []Expected{{Value: ir.U32Val(1), Indeterminate: []bool{true}, Allowed: []ir.ValueSet{set}}}
	names := []string{"ret"}
	for v, want := range map[uint32]Outcome{1: Agree, 7: Agree, 10: Agree, 12: Agree, 0: Differ, 8: Differ, 13: Differ} {
		o, d := CompareInvocation(ref, []Expected{{Value: ir.U32Val(v)}}, names)
		assert.Equal(t, want, o, "%d", v)
		if want == Differ && assert.Len(t, d, 1) {
			assert.Equal(t, "one of {1u, 7u} ∪ [10u, 12u]", d[0].Want)
		}
	}
	// i32 intervals order signed: [-2, 3] holds -1, not 4 or -3.
	iset := ir.Interval(uint32(0xfffffffe), 3)
	for v, ok := range map[int32]bool{-2: true, -1: true, 3: true, 4: false, -3: false} {
		assert.Equal(t, ok, Contains(iset, ir.I32Val(v), 0), "%d", v)
	}
	// f32 members: 0.5 ± 0.25 takes 0.7, not 0.8; an interval takes a
	// subnormal as zero when zero is inside.
	fset := ir.ValueSet{Values: []uint32{math.Float32bits(0.5)}, Tol: []float64{0.25}}
	assert.True(t, Contains(fset, ir.F32Val(0.7), 0))
	assert.False(t, Contains(fset, ir.F32Val(0.8), 0))
	assert.True(t, Contains(ir.Interval(math.Float32bits(-1), math.Float32bits(1)), ir.Value{Type: ir.F32, Bits: 1}, 0))
	assert.False(t, Contains(ir.Interval(math.Float32bits(1), math.Float32bits(2)), ir.F32Val(float32(math.Inf(1))), 0))
	// The interpreter's own set for a twin is not checked against it.
	o, _ := CompareInvocation(ref, []Expected{{Value: ir.U32Val(99), Indeterminate: []bool{true}}}, names)
	assert.Equal(t, Indeterminate, o)
	// JSON: the set, not "indeterminate".
	assert.Equal(t, `{"oneOf": [1, 7], "range": [10, 12]}`, string(MarshalExpected(ref[0])))
}

func TestJudgeVerdicts(t *testing.T) {
	ref := [][]Expected{{{Value: ir.I32Val(1)}}, {{Value: ir.I32Val(2)}}}
	names := []string{"ret"}
	ok := Run{Adapter: "a", Outputs: [][]Expected{{{Value: ir.I32Val(1)}}, {{Value: ir.I32Val(2)}}}}
	bad := Run{Adapter: "b", Outputs: [][]Expected{{{Value: ir.I32Val(1)}}, {{Value: ir.I32Val(3)}}}}
	failed := Run{Adapter: "c", Failed: CompileError, Message: "naga: bad"}
	js, v := Judge(ref, names, []Run{ok})
	assert.Equal(t, Pass, v)
	assert.Empty(t, js[0].Mismatches)
	js, v = Judge(ref, names, []Run{ok, failed, bad})
	assert.Equal(t, Mismatch, v)
	assert.Equal(t, []int{1}, js[2].Mismatches)
	assert.Equal(t, CompileError, js[1].Verdict)
	_, v = Judge(ref, names, []Run{ok, failed})
	assert.Equal(t, CompileError, v)
}

func TestInvocationJSON(t *testing.T) {
	e := Expected{Value: ir.CompositeVal(ir.Vec(2, ir.F32), ir.F32Val(0.5), ir.F32Val(1e20)), Indeterminate: []bool{false, true}}
	assert.Equal(t, `[0.5, "indeterminate"]`, string(InvocationJSON([]Expected{e}, []string{"ret"})))
	assert.Equal(t, `{"ret": 3, "g": true}`, string(InvocationJSON(
		[]Expected{{Value: ir.I32Val(3)}, {Value: ir.BoolVal(true)}}, []string{"ret", "g"})))
}
