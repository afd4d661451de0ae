package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// variantAdapters is a listing with lavapipe's two variants (as
// harness/dawn lists them) beside their base and another adapter.
var variantAdapters = func() []AdapterInfo {
	in := []AdapterInfo{
		{Implementation: "dawn", Backend: "vulkan", Device: "llvmpipe (LLVM 15.0.6, 256 bits)", Vendor: "mesa", Type: "cpu", DriverSet: "mesa25", Features: []string{FeatureSubgroups}, SubgroupMinSize: 8, SubgroupMaxSize: 8},
		{Implementation: "dawn", Backend: "vulkan", Device: "llvmpipe (LLVM 15.0.6, 512 bits)", Vendor: "mesa", Type: "cpu", DriverSet: "mesa25", Variant: "lp512", Features: []string{FeatureSubgroups}, SubgroupMinSize: 16, SubgroupMaxSize: 16},
		{Implementation: "dawn", Backend: "vulkan", Device: "llvmpipe (LLVM 15.0.6, 128 bits)", Vendor: "mesa", Type: "cpu", DriverSet: "mesa25", Variant: "lp128", Features: []string{FeatureSubgroups}, SubgroupMinSize: 4, SubgroupMaxSize: 4},
		{Implementation: "dawn", Backend: "vulkan", Device: "SwiftShader Device (Subzero)", Vendor: "google", Type: "cpu", Features: []string{FeatureSubgroups}, SubgroupMinSize: 4, SubgroupMaxSize: 4},
	}
	return NameAdapters(in)
}()

func TestVariantNames(t *testing.T) {
	assert.Equal(t, []string{"dawn-vulkan:llvmpipe-mesa25", "dawn-vulkan:llvmpipe-mesa25-lp128", "dawn-vulkan:llvmpipe-mesa25-lp512", "dawn-vulkan:swiftshader"},
		names(variantAdapters), "a variant's name is its base's and its setting, sorted after it")
	for name, want := range map[string][2]string{
		"dawn-vulkan:llvmpipe-mesa25-lp128":   {"lp128", "dawn-vulkan:llvmpipe-mesa25"},
		"dawn-vulkan:llvmpipe-mesa25-lp512#2": {"lp512", "dawn-vulkan:llvmpipe-mesa25#2"},
		"dawn-vulkan:llvmpipe-mesa25":         {"", "dawn-vulkan:llvmpipe-mesa25"},
		"lp128":                               {"", "lp128"},
	} {
		v, base := VariantOfName(name)
		assert.Equal(t, want, [2]string{v, base}, name)
	}
	assert.Equal(t, "lp128", LavapipeVariant(128))
	set, ok := DriverSetOf("dawn-vulkan:llvmpipe-mesa25-lp128")
	if _, err := Mesa25(); err == nil {
		require.True(t, ok, "a variant is of its base's driver set")
		assert.Equal(t, "mesa25", set.Name)
	}
}

// TestSelectLeavesVariantsOut: "all" and a prefix that names other
// adapters leave variants out; an exact name or a prefix of variants only
// selects them; Variants adds a chosen base's variants.
func TestSelectLeavesVariantsOut(t *testing.T) {
	all := variantAdapters
	for sels, want := range map[string][]string{
		"all":                               {"dawn-vulkan:llvmpipe-mesa25", "dawn-vulkan:swiftshader"},
		"dawn":                              {"dawn-vulkan:llvmpipe-mesa25", "dawn-vulkan:swiftshader"},
		"dawn-vulkan:llvmpipe":              {"dawn-vulkan:llvmpipe-mesa25"},
		"dawn-vulkan:llvmpipe-mesa25-lp128": {"dawn-vulkan:llvmpipe-mesa25-lp128"},
		"dawn-vulkan:llvmpipe-mesa25-lp":    {"dawn-vulkan:llvmpipe-mesa25-lp128", "dawn-vulkan:llvmpipe-mesa25-lp512"},
		"dawn-vulkan:llvmpipe-mesa25-lp5":   {"dawn-vulkan:llvmpipe-mesa25-lp512"},
	} {
		got, err := Select(all, []string{sels})
		require.NoError(t, err)
		assert.Equal(t, want, names(got), sels)
	}
	one, err := Lookup(all, "dawn-vulkan:llvmpipe")
	require.NoError(t, err, "a prefix of one base and its variants is that base")
	assert.Equal(t, "dawn-vulkan:llvmpipe-mesa25", one.Name)

	chosen, err := Select(all, []string{"all"})
	require.NoError(t, err)
	assert.Equal(t, []string{"dawn-vulkan:llvmpipe-mesa25-lp128", "dawn-vulkan:llvmpipe-mesa25-lp512"}, names(Variants(all, chosen)))
	sw, err := Select(all, []string{"dawn-vulkan:swiftshader"})
	require.NoError(t, err)
	assert.Empty(t, Variants(all, sw), "SwiftShader has no variants")
	withOne := append(chosen, all[1])
	assert.Equal(t, []string{"dawn-vulkan:llvmpipe-mesa25-lp512"}, names(Variants(all, withOne)), "a variant chosen already is not added again")
}

func TestVariantRuns(t *testing.T) {
	sub := []Need{{Kind: NeedSubgroups, Where: "subgroupAdd at 3:9"}}
	f16 := []Need{{Kind: NeedF16}}
	lp128 := variantAdapters[1]
	require.Equal(t, "lp128", lp128.Variant)
	assert.True(t, VariantRuns(lp128, sub))
	assert.False(t, VariantRuns(lp128, f16), "an f16 case on the variant repeats its base")
	assert.False(t, VariantRuns(lp128, nil))
	assert.True(t, VariantRuns(variantAdapters[0], nil), "a base runs every case")
	assert.False(t, VariantRuns(AdapterInfo{Name: "dawn-vulkan:llvmpipe-mesa25-lp512"}, nil), "judged by its name, as check's name-only infos are")
	assert.True(t, VariantRuns(AdapterInfo{Name: "dawn-vulkan:llvmpipe-mesa25-lp512"}, sub))
}
