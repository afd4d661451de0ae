package wgsl

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ptOffset returns the byte offset of a 1-based line and byte column.
func ptOffset(src string, p ir.Pos) int {
	off := 0
	for line := int32(1); line < p.Line; line++ {
		off += strings.IndexByte(src[off:], '\n') + 1
	}
	return off + int(p.Col) - 1
}

// TestParseCorpus parses the hand-written realistic modules of
// testdata/parse (compute and render pipelines with bindings, textures,
// atomics, overrides, pointers, f16, diagnostics, const_assert, runtime
// arrays, matrices). Each is first confirmed valid by Tint and naga
// (except for their known gaps, ptValidatorGaps). Then: it parses; each
// declaration lands where the subset rules put it (expected lists written
// by hand); every opaque declaration's Text is exactly the source at its
// position; every reason position points at the construct the reason
// names.
func TestParseCorpus(t *testing.T) {
	type want struct {
		funcs, structs, globals []string
		opaque                  map[string]string // name (or kind for unnamed) → reason fragment
	}
	tests := map[string]want{
		"particles_compute.wgsl": {
			funcs:   []string{"wrap_coord", "clamp_speed", "next_random", "count_neighbours", "main"},
			structs: []string{"Particle", "SimParams", "Particles"},
			globals: []string{"rng_state"},
			opaque: map[string]string{"diagnostic": "kept verbatim",
				"workgroup_size_x": "kept verbatim", "damping": "kept verbatim",
				"max_speed": "kept verbatim", "const_assert": "kept verbatim"},
		},
		"textured_quad.wgsl": {
			funcs:   []string{"srgb_to_linear", "luminance", "accumulate"},
			structs: []string{"Uniforms"},
			opaque: map[string]string{"VertexOutput": "centroid sampling",
				"Color":       "kept verbatim",
				"vertex_main": "uses struct VertexOutput, which is outside the subset: @interpolate(perspective, centroid)", "fragment_main": "@interpolate(perspective, centroid): centroid sampling"},
		},
		"half_precision.wgsl": {
			// f16 is in the subset (issue 40): every declaration lowers.
			funcs:   []string{"blur3", "half_lerp", "to_half", "main"},
			structs: []string{"HalfData"},
			opaque: map[string]string{"enable": "kept verbatim", "requires": "kept verbatim",
				"half_pi": "kept verbatim", "weights": "kept verbatim"},
		},
		"syntax_tour.wgsl": {
			funcs:   []string{"templates", "literals", "statements", "swizzles", "pairs", "matrices", "half_sum"},
			structs: []string{"Pair"},
			globals: []string{"state", "accum"},
			opaque: map[string]string{"enable": "kept verbatim", "diagnostic": "kept verbatim", "Vec3": "kept verbatim",
				"IntArray4": "kept verbatim", "Mat": "kept verbatim", "ints": "kept verbatim",
				"typed_ints": "kept verbatim", "uints": "kept verbatim", "floats": "kept verbatim",
				"halves": "kept verbatim", "t": "kept verbatim", "f": "kept verbatim", "big": "kept verbatim",
				"neg_min": "kept verbatim", "count": "kept verbatim", "nested": "kept verbatim",
				"const_assert": "kept verbatim",
				"must":         "function attribute @must_use", "main": "calls must, which is outside the subset: function attribute @must_use"},
		},
		"attributes_and_pointers.wgsl": {
			funcs:   []string{"attenuate", "scale_in_place", "bump_private"},
			structs: []string{"Light", "Lights"},
			globals: []string{"scratch"},
			opaque: map[string]string{"enable": "kept verbatim", "diagnostic": "kept verbatim",
				"FragOut": "@blend_src (dual-source blending", "gain": "kept verbatim",
				"enable_fog": "kept verbatim", // gpudiff supplies true (DefaultOverrideConstant)
				"shade":      "function attribute @diagnostic",
				"fs_main":    "uses struct FragOut, which is outside the subset: @blend_src", "cs_main": "statement attribute @diagnostic"},
		},
		"subset_kernels.wgsl": {
			funcs:   []string{"sphere_t", "trace", "march", "classify", "bits", "conversions", "collatz", "shade", "main_kernel"},
			structs: []string{"Ray", "Hit"},
			globals: []string{"hits", "last_hit"},
			opaque:  map[string]string{"EPS": "kept verbatim", "MAX_STEPS": "kept verbatim", "SPHERES": "kept verbatim"},
		},
	}
	files, err := filepath.Glob("testdata/parse/*.wgsl")
	require.NoError(t, err)
	require.Len(t, files, len(tests), "every corpus file has an expectation")
	validators := ptValidators(t)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			w, ok := tests[filepath.Base(path)]
			require.True(t, ok)
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			src := string(b)
			for _, v := range validators {
				ptRequireAccepts(t, v, ptValidatorGaps[filepath.ToSlash(path)], v.check(t, src)[0], src)
			}
			if t.Failed() {
				t.FailNow()
			}
			m, err := Parse(path, b)
			require.NoError(t, err)

			var funcs, structs, globals []string
			for _, f := range m.Funcs {
				funcs = append(funcs, f.Name)
			}
			for _, s := range m.Structs {
				structs = append(structs, s.Name)
			}
			for _, g := range m.Globals {
				globals = append(globals, g.Name)
			}
			assert.Equal(t, w.funcs, funcs)
			assert.Equal(t, w.structs, structs)
			assert.Equal(t, w.globals, globals)

			seen := map[string]bool{}
			for _, o := range m.Opaque {
				key := o.Name
				if key == "" {
					key = o.Kind
				}
				seen[key] = true
				reason, ok := w.opaque[key]
				if assert.True(t, ok, "unexpected opaque declaration %s (%s)", key, o.Reason) {
					assert.Contains(t, o.Reason, reason, "reason of %s", key)
				}
				off := ptOffset(src, o.Pos)
				require.LessOrEqual(t, off+len(o.Text), len(src))
				if o.Kind != "override" { // an override is kept as a const of its value (specializedOverride)
					assert.Equal(t, src[off:off+len(o.Text)], o.Text, "Text of %s is the exact source slice", key)
				}
				last := o.Text[len(o.Text)-1]
				assert.True(t, last == ';' || last == '}', "Text of %s ends its declaration: %q", key, o.Text)
				assert.Equal(t, o.Kind == "fn" && stageOf(o) != o, o.EntryPoint, key)
				if !strings.Contains(o.Reason, "kept verbatim") {
					r := ptOffset(src, o.ReasonPos)
					assert.True(t, r >= off && r < off+len(o.Text), "reason position of %s is inside it", key)
					assert.True(t, ptReasonMatches(src[r:], o.Reason), "reason position of %s points at %.20q, reason %q", key, src[r:], o.Reason)
				}
			}
			var missing []string
			for k := range w.opaque {
				if !seen[k] {
					missing = append(missing, k)
				}
			}
			sort.Strings(missing)
			assert.Empty(t, missing, "expected opaque declarations not found")
		})
	}
}

// ptValidatorGaps names, per file of ptCorpusFiles (by its path from this
// directory, shaders/ as ../../shaders), what a validator does not
// implement that the file validly uses. wgpu 0.19.4's naga (0.19.2) parses no
// enable, requires or diagnostic directive, so it stops at the first; and
// it indexes an array value (not a memory view) only by a constant.
var ptValidatorGaps = map[string]ptGaps{
	"testdata/parse/attributes_and_pointers.wgsl":         {ptNaga: "found 'enable'"},
	"testdata/parse/half_precision.wgsl":                  {ptNaga: "found 'enable'"},
	"testdata/parse/particles_compute.wgsl":               {ptNaga: "found 'diagnostic'"},
	"testdata/parse/syntax_tour.wgsl":                     {ptNaga: "found 'enable'"},
	"testdata/parse/subset_kernels.wgsl":                  {ptNaga: ptNagaValueIndex},
	"../../shaders/regress/value_array_index.wgsl":        {ptNaga: ptNagaValueIndex},
	"../../shaders/tiers/bounded_loops/prefix.wgsl":       {ptNaga: ptNagaValueIndex},
	"../../shaders/tiers/break_continue/find.wgsl":        {ptNaga: ptNagaValueIndex},
	"../../shaders/tiers/break_continue/odd_sum.wgsl":     {ptNaga: ptNagaValueIndex},
	"../../shaders/tiers/fixed_loops/nested.wgsl":         {ptNaga: ptNagaValueIndex},
	"../../shaders/compute/pointer_params.wgsl":           {ptNaga: ptNagaPointerParams},
	"../../shaders/compute/pointer_param_order.wgsl":      {ptNaga: ptNagaPointerParams},
	"../../shaders/compute/pointer_lets.wgsl":             {ptNaga: ptNagaPointerParams},
	"../../shaders/compute/core_uniform_load_param.wgsl":  {ptNaga: ptNagaPointerParams},
	"../../shaders/compute/core_uniform_load_atomic.wgsl": {ptNaga: "but got `atomic<"}, // naga 0.19.2 types workgroupUniformLoad of an atomic as the atomic (the WGSL emitter spells it out)
}

// ptNagaPointerParams is naga's (0.19.2) refusal of pointer parameters in
// the workgroup, storage and uniform address spaces: it lacks WGSL's
// unrestricted_pointer_parameters language extension, which Tint has
// (gpudiff's emitters pass such pointers as index operands instead).
const ptNagaPointerParams = "which can't be passed into functions"

// ptNagaValueIndex is naga's (0.19.2) refusal to index an array value by a
// non-constant index, which WGSL allows (#array-access-expr).
const ptNagaValueIndex = "may only be indexed by a constant"

// ptReasonMatches reports whether the source at a reason position starts
// with the construct the reason names.
func ptReasonMatches(at, reason string) bool {
	if _, chain, ok := strings.Cut(reason, " (reached through "); ok {
		// A chain of uses: positioned at its first, in the declaration.
		first, _, _ := strings.Cut(strings.TrimSuffix(chain, ")"), " → ")
		return ptReasonMatches(at, first+", which is outside the subset")
	}
	switch {
	case strings.HasPrefix(reason, "entry point (@"):
		stage := strings.TrimSuffix(strings.TrimPrefix(reason, "entry point ("), ")")
		return strings.HasPrefix(at, stage)
	case strings.HasPrefix(reason, "var<"):
		return strings.HasPrefix(at, strings.TrimSuffix(strings.TrimPrefix(reason, "var<"), ">"))
	case strings.HasPrefix(reason, "f16"):
		return strings.HasPrefix(at, "f16") || strings.HasPrefix(at, "vec") || strings.HasPrefix(at, "mat") ||
			strings.Contains(reason, "literal") && strings.HasPrefix(at, strings.TrimPrefix(reason, "f16 literal "))
	case strings.HasPrefix(reason, "function attribute @"), strings.HasPrefix(reason, "struct member attribute @"), strings.HasPrefix(reason, "statement attribute @"):
		return strings.HasPrefix(at, "@"+reason[strings.Index(reason, "@")+1:])
	case reason == "override declaration", strings.HasPrefix(reason, "override "):
		return strings.HasPrefix(at, "override")
	case reason == "pointer parameter":
		return strings.HasPrefix(at, "ptr")
	case strings.HasPrefix(reason, "fragment input @location"):
		return strings.HasPrefix(at, "@location")
	case strings.HasPrefix(reason, "@interpolate("):
		// "@interpolate(T, S): S sampling …", positioned at S.
		_, rest, _ := strings.Cut(reason, "): ")
		return strings.HasPrefix(at, strings.Fields(rest)[0])
	case strings.HasPrefix(reason, "@blend_src"), strings.HasPrefix(reason, "@invariant"):
		return strings.HasPrefix(at, strings.Fields(reason)[0])
	case strings.HasPrefix(reason, "pointer parameter in the "):
		return strings.HasPrefix(at, strings.Fields(reason)[4])
	case strings.HasPrefix(reason, "builtin ") && !strings.HasPrefix(reason, "builtin value"):
		return strings.HasPrefix(at, strings.Fields(reason)[1])
	case reason == "atomic type":
		return strings.HasPrefix(at, "atomic")
	case strings.HasPrefix(reason, "matrix type "):
		return strings.HasPrefix(at, "mat")
	case strings.HasPrefix(reason, "texture type "), strings.HasPrefix(reason, "sampler type "):
		return strings.HasPrefix(at, strings.Fields(reason)[2])
	case strings.HasPrefix(reason, "uses override "):
		return strings.HasPrefix(at, strings.Fields(reason)[2])
	case strings.HasPrefix(reason, "calls "):
		return strings.HasPrefix(at, strings.TrimSuffix(strings.Fields(reason)[1], ","))
	case strings.HasPrefix(reason, "builtin value "):
		return strings.HasPrefix(at, strings.Fields(reason)[2])
	case strings.HasPrefix(reason, "uses alias "), strings.HasPrefix(reason, "uses struct "):
		name := strings.TrimSuffix(strings.Fields(reason)[2], ",")
		return strings.HasPrefix(at, name)
	}
	return false
}
