package shaders

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// dispatchCandidates is, per shaders/dispatch kernel, each dispatch's
// declared candidates and the ones the tag-set analysis keeps, derived
// by hand from the kernels' comments.
var dispatchCandidates = map[string][][2]int{
	"materials":    {{6, 2}},         // kind ∈ {1, 4}
	"lights_cycle": {{4, 3}},         // kind ∈ {0, 1, 2}
	"shapes":       {{3, 3}, {3, 1}}, // an input; unit_kind() = 1u
}

// TestDispatchKernelsNarrowAndAgree: every shaders/dispatch kernel's
// reference is its hand-derived NAME.expected.json, its twin keeps
// exactly the candidates dispatchCandidates says, and interp(twin) ==
// interp(original) on its inputs.
func TestDispatchKernelsNarrowAndAgree(t *testing.T) {
	files, err := filepath.Glob("dispatch/*.wgsl")
	require.NoError(t, err)
	require.Len(t, files, len(dispatchCandidates))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".wgsl")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			m, err := wgsl.Parse(f, src)
			require.NoError(t, err)
			var exp expectedFile
			raw, err := os.ReadFile(strings.TrimSuffix(f, ".wgsl") + ".expected.json")
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &exp))
			var inputs map[string][]json.RawMessage
			raw, err = os.ReadFile(strings.TrimSuffix(f, ".wgsl") + ".inputs.json")
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &inputs))
			k := m.Func(exp.Kernel)
			require.NotNil(t, k)
			var args [][]ir.Value
			for j, p := range k.Params {
				for i, r := range inputs[p.Name] {
					if j == 0 {
						args = append(args, make([]ir.Value, len(k.Params)))
					}
					v, err := ir.UnmarshalValue(p.T, r)
					require.NoError(t, err)
					args[i][j] = v
				}
			}
			require.Len(t, args, len(exp.Reference))

			var got [][2]int
			twin, err := flatten.Function(m, k.Name, flatten.Options{OnTagSwitch: func(st flatten.TagSwitchStat) {
				got = append(got, [2]int{len(st.Candidates), len(st.Kept)})
			}})
			require.NoError(t, err)
			assert.Equal(t, dispatchCandidates[name], got)

			ref, err := interp.Run(m, k.Name, args, interp.Options{})
			require.NoError(t, err)
			tw, err := interp.Run(m, twin.Name, args, interp.Options{})
			require.NoError(t, err)
			p, err := interp.Compile(m, k.Name)
			require.NoError(t, err)
			outs := p.ABI().Outputs
			for i := range args {
				require.NoError(t, ref[i].Err)
				var want map[string]json.RawMessage
				if len(outs) == 1 {
					want = map[string]json.RawMessage{outs[0].Name: exp.Reference[i]}
				} else {
					require.NoError(t, json.Unmarshal(exp.Reference[i], &want))
				}
				for j, o := range outs {
					v, err := ir.UnmarshalValue(o.T, want[o.Name])
					require.NoError(t, err, "reference[%d].%s", i, o.Name)
					assert.True(t, ir.Equal(v, ref[i].Outputs[j].Value), "invocation %d %s: reference %v, hand-derived %v", i, o.Name, ref[i].Outputs[j].Value, v)
					assert.True(t, ir.Equal(ref[i].Outputs[j].Value, tw[i].Outputs[j].Value), "invocation %d %s: twin %v, original %v", i, o.Name, tw[i].Outputs[j].Value, ref[i].Outputs[j].Value)
				}
			}
		})
	}
}

// TestDispatchNarrowingShrinksTheTwin is the capability tier of issue 17:
// materials' dispatch over six implementations, narrowed to the two its
// control flow allows, inlines those two only (each implementation's
// marker constant 100 + kind shows which), and its twin is smaller than
// the same kernel's with the tag made an input, which inlines all six.
func TestDispatchNarrowingShrinksTheTwin(t *testing.T) {
	src, err := os.ReadFile("dispatch/materials.wgsl")
	require.NoError(t, err)
	wide := strings.Replace(string(src), "fn materials(x: i32) -> i32 {\n  let m = pick_material(x);",
		"fn materials(x: i32) -> i32 {\n  var m = pick_material(x);\n  m.kind = u32(x) % 6u;", 1)
	require.NotEqual(t, string(src), wide)
	twinOf := func(text string) string {
		m, err := wgsl.Parse("materials.wgsl", []byte(text))
		require.NoError(t, err)
		twin, err := flatten.Function(m, "materials", flatten.Options{})
		require.NoError(t, err)
		return ir.PrintFunc(twin)
	}
	narrow, all := twinOf(string(src)), twinOf(wide)
	markers := func(s string) (out []string) {
		for _, k := range []string{"100", "101", "102", "103", "104", "105"} {
			if regexp.MustCompile(`\b` + k + `i\b`).MatchString(s) {
				out = append(out, k)
			}
		}
		return out
	}
	assert.Equal(t, []string{"101", "104"}, markers(narrow), narrow)
	assert.Equal(t, []string{"100", "101", "102", "103", "104", "105"}, markers(all), all)
	assert.Less(t, strings.Count(narrow, "\n"), strings.Count(all, "\n"))
}
