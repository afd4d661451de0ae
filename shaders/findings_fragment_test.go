package shaders

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// fragmentFinding is one finding under findings/fragment/: a fragment
// entry point's case file, leaves whose values are derived by hand in
// findings/README.md (each must be allowed by the reference; each stack's
// wrong value must not be), the runs it implicates, and whether the twin
// sidesteps it.
type fragmentFinding struct {
	leaves      []handLeaf
	implicates  func(r oracle.Judged) bool
	twinEscapes bool
}

// handLeaf is one output leaf (pixel, leaf index in the result's
// component order) with the value Vulkan's filtering rules give
// (hand-derived: allowed) and a value a stack returned (not allowed).
type handLeaf struct {
	pixel, leaf int
	hand, wrong float32
}

var fragmentFindings = map[string]fragmentFinding{
	// SwiftShader's trilinear filtering with a texel offset: pixel (1, 0)
	// of textureSample(checker_l, lin_s, uv, vec2i(-2, 1)) at λ ≈ 1.84
	// (findings/README.md): red 0.4 + 0.2δ = 0.568 with δ = 0.8416 (both
	// stacks agree there: same levels and weights; above 0.6 would need
	// level 3, out of reach), green 0.1584 × 0.028 +
	// 0.8416 × 0.2635 = 0.2262 by Vulkan's rule, and at most 0.345 within
	// every latitude Vulkan leaves; SwiftShader returns 0.6102 (wgpu and
	// Dawn alike, WGSL and SPIR-V, original and twin).
	"swiftshader_linear_offset_mip.wgsl": {
		leaves:     []handLeaf{{pixel: 1, leaf: 0, hand: 0.568, wrong: 0.62}, {pixel: 1, leaf: 1, hand: 0.2262, wrong: 0.61015874}},
		implicates: onDriver("swiftshader"),
	},
}

// fragmentFindingsCheck checks findings/fragment/ as TestFindings checks
// the others: each case file loads as repro loads it (check.LoadReplay:
// its entry point, size, textures, samplers, --flat and --spirv), runs on
// devs; every hand-derived leaf is in the reference's allowed set and
// the stack's wrong value is not; the twin agrees in the interpreter;
// every run the finding does not implicate agrees; among the implicated
// ones the twin agrees where predication sidesteps the bug. Whether the
// implicated runs still disagree — the replay against the record (repro's
// judgement) — is logged, not asserted.
func fragmentFindingsCheck(t *testing.T, devs []check.Device, obs *observations) {
	files, err := filepath.Glob("../findings/fragment/*.wgsl")
	require.NoError(t, err)
	require.Len(t, files, len(fragmentFindings), "every fragment finding has a hand-derived reference here")
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			fd, ok := fragmentFindings[name]
			require.True(t, ok, "no hand-derived reference for %s", name)
			c, err := check.LoadReplay(path, testcase.LoadOptions{})
			require.NoError(t, err)
			require.Equal(t, testcase.KindFragment, c.Kind, "%s is a fragment entry point's case", name)
			x, err := check.Execute(t.Context(), c, check.CaseOptions(c, check.Options{Devices: devs}))
			require.NoError(t, err)
			res := x
			obs.add("fragment/"+name, res.Runs, res.Twin)
			for _, l := range fd.leaves {
				require.Less(t, l.pixel, len(res.Reference))
				ref := res.Reference[l.pixel]
				if tol := ref[0].Tolerance; l.leaf < len(tol) {
					mid := math.Float32frombits(ref[0].Value.Elems[l.leaf].Bits)
					t.Logf("pixel %d leaf %d: allowed %v ± %.4f (hand %v, stack %v)", l.pixel, l.leaf, mid, tol[l.leaf], l.hand, l.wrong)
				}
				assert.True(t, leafAllowed(ref, res.Names, l.leaf, l.hand), "pixel %d leaf %d: the hand-derived %v is allowed (reference %v)", l.pixel, l.leaf, l.hand, ref[0].Value)
				assert.False(t, leafAllowed(ref, res.Names, l.leaf, l.wrong), "pixel %d leaf %d: the stack's %v is outside the allowed set", l.pixel, l.leaf, l.wrong)
			}
			require.NotEmpty(t, res.Twin)
			judged := map[string]int{}
			for _, r := range res.Runs {
				label := r.Adapter + " " + r.Function + " " + string(r.Format)
				judged[r.Adapter]++
				switch {
				case r.Adapter == "interp":
					assert.Equal(t, oracle.Pass, r.Verdict, "%s: the twin agrees with the original in the interpreter: %s", label, r.Message)
				case !legacyAdapters[r.Adapter]:
					// Today's stacks: judged against findings/reproduces.txt.
				case !fd.implicates(r) || (r.Function == res.Twin && fd.twinEscapes):
					assert.Equal(t, oracle.Pass, r.Verdict, "%s: %s", label, r.Message)
				default:
					t.Logf("%s: %s (the finding; %d of %d pixels differ)", label, r.Verdict, len(r.Mismatches), len(res.Reference))
				}
			}
			for _, d := range devs {
				assert.Positive(t, judged[d.Info().Name], "%s judged no run", d.Info().Name)
			}
			t.Log(x.Replay(c.Record).Message)
		})
	}
}

// leafAllowed reports whether the reference ref (one pixel's outputs)
// allows value v at leaf i of its first output, every other leaf as the
// reference's own value.
func leafAllowed(ref []oracle.Expected, names []string, i int, v float32) bool {
	val := ref[0].Value
	comps := append([]ir.Value{}, val.Elems...)
	comps[i] = ir.F32Val(v)
	got := []oracle.Expected{{Value: ir.CompositeVal(val.Type, comps...)}}
	out, _ := oracle.CompareInvocation(ref, got, names)
	return out != oracle.Differ
}
