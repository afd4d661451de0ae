package check

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// referenceOf runs a shader of shaders/compute in the reference alone (no
// device) and returns its result.
func referenceOf(t *testing.T, name string, wg [3]uint32) *Result {
	t.Helper()
	path := "../shaders/compute/" + name + ".wgsl"
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	m, err := wgsl.Parse(path, src)
	require.NoError(t, err)
	res, err := Execute(context.Background(), (&testcase.ComputeCase{Module: m, Entry: "main", Workgroups: wg}).Case(), Options{})
	require.NoError(t, err)
	return res
}

// observed is a GPU run that returns the reference's values, except the
// leaves set gives (binding index, leaf index → value).
func observed(res *Result, set map[[2]int]uint32) oracle.Run {
	var outs []oracle.Expected
	for b, e := range res.Reference[0] {
		v := cloneValue(e.Val())
		leaf := 0
		var rec func(v *ir.Value)
		rec = func(v *ir.Value) {
			if v.Elems == nil {
				if x, ok := set[[2]int{b, leaf}]; ok {
					v.Bits = x
				}
				leaf++
				return
			}
			for i := range v.Elems {
				rec(&v.Elems[i])
			}
		}
		rec(&v)
		outs = append(outs, oracle.Expected{Value: v})
	}
	return oracle.Run{Adapter: "fake", Function: "main", Format: oracle.FormatWGSL, Outputs: [][]oracle.Expected{outs}}
}

// An atomic counter read while fifteen other invocations add to it may be
// anything from 1 (its own add) to 16 (every add) — and nothing else
// (atomic_counter_read.wgsl's header derives it). A stack that returns 17
// or 0 there is a finding; 1 and 16 are not.
func TestValueOutsideAnAllowedSetIsAFinding(t *testing.T) {
	res := referenceOf(t, "atomic_counter_read", [3]uint32{4, 1, 1})
	require.Equal(t, []string{"early", "late"}, res.Names)
	for _, tc := range []struct {
		early uint32
		want  oracle.Verdict
	}{{1, oracle.Pass}, {16, oracle.Pass}, {9, oracle.Pass}, {17, oracle.Mismatch}, {0, oracle.Mismatch}} {
		runs, v := oracle.Judge(res.Reference, res.Names, []oracle.Run{observed(res, map[[2]int]uint32{{0, 2}: tc.early})})
		assert.Equal(t, tc.want, v, "early[2] = %d", tc.early)
		if tc.want == oracle.Mismatch {
			require.Len(t, runs[0].Diffs[0], 1)
			d := runs[0].Diffs[0][0]
			assert.Equal(t, "early[2]", d.Path)
			assert.Equal(t, "one of [1u, 16u]", d.Want)
		}
	}
	// late[1] is exact: 16, after the barrier.
	_, v := oracle.Judge(res.Reference, res.Names, []oracle.Run{observed(res, map[[2]int]uint32{{1, 1}: 15})})
	assert.Equal(t, oracle.Mismatch, v)
}

// A racy read returns the prior value or one stored to the location
// (race_neighbour_read.wgsl): p[2] reads s[3], so 0 or 30. 30 passes (a
// race verdict, the shader's), 20 is a finding.
func TestRacyReadOutsideItsSetIsAFinding(t *testing.T) {
	res := referenceOf(t, "race_neighbour_read", [3]uint32{1, 1, 1})
	require.Equal(t, []string{"o", "p"}, res.Names)
	require.Len(t, res.Races, 8)
	for _, tc := range []struct {
		p2   uint32
		want oracle.Verdict
	}{{0, oracle.Pass}, {30, oracle.Pass}, {20, oracle.Mismatch}} {
		_, v := oracle.Judge(res.Reference, res.Names, []oracle.Run{observed(res, map[[2]int]uint32{{1, 2}: tc.p2})})
		assert.Equal(t, tc.want, v, "p[2] = %d", tc.p2)
	}
	assert.Equal(t, oracle.Race, res.Verdict, "no run: the shader's race is the verdict")
}

func cloneValue(v ir.Value) ir.Value {
	if v.Elems != nil {
		es := make([]ir.Value, len(v.Elems))
		for i, e := range v.Elems {
			es[i] = cloneValue(e)
		}
		v.Elems = es
	}
	return v
}

// A racy shader's finding is the shader's (ClassRace), naming the race's
// positions, and no stack is implicated when every run stays within the
// allowed values.
func TestRaceIsTheShadersFinding(t *testing.T) {
	res := referenceOf(t, "race_neighbour_read", [3]uint32{1, 1, 1})
	res.Runs, res.Verdict = oracle.Judge(res.Reference, res.Names, []oracle.Run{observed(res, map[[2]int]uint32{{1, 2}: 30})})
	fs := res.Findings()
	require.Len(t, fs, 1)
	assert.Equal(t, ClassRace, fs[0].Class)
	assert.Contains(t, fs[0].Implicates, "8 data races")
	assert.Contains(t, fs[0].Implicates, "race_neighbour_read.wgsl:")
	// Outside the set, the stack is implicated first.
	res.Runs, _ = oracle.Judge(res.Reference, res.Names, []oracle.Run{observed(res, map[[2]int]uint32{{1, 2}: 20})})
	fs = res.Findings()
	require.Len(t, fs, 2)
	assert.NotEqual(t, ClassRace, fs[0].Class)
	assert.Equal(t, ClassRace, fs[1].Class)
}
