package harness

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Variants: one driver under several settings (issue 40, item 3). A
// subgroup operation's result depends on the subgroup size, which the
// driver chooses; lavapipe's follows LP_NATIVE_VECTOR_WIDTH (its SIMD
// width over 32-bit lanes), so one lavapipe is three adapters of
// different sizes: itself (8 on an AVX2 host) and the variants "lp128"
// (4) and "lp512" (16), listed by the implementations that have
// subgroups on it (harness/dawn: Dawn on Mesa 25's lavapipe). A variant
// is a distinct adapter — its own name, "<base name>-<variant>"
// ("dawn-vulkan:llvmpipe-mesa25-lp128"), its own worker process with
// the setting in its environment, its own subgroup size in
// SubgroupMinSize and SubgroupMaxSize — so it is selected, opened, run
// and recorded like any other.
//
// What "all" means: a variant runs the same driver and compiler as its
// base adapter, and only the subgroup size differs, so for a module
// without subgroup operations it repeats its base's run at the cost of a
// worker (a node process, about 0.3 s to start and 150 MB, and every
// case's compile and dispatch again). Select's "all", and a prefix,
// therefore leave variants out; a variant's exact name, or a prefix that
// names only variants ("dawn-vulkan:llvmpipe-mesa25-lp"), selects it.
// Variants lists the variants of the adapters a user selected, and
// VariantRuns says whether one runs a case with given needs: a variant
// runs the cases that need subgroups, its base every case.

// variantName matches the variants' name suffixes: "-lp128".
var variantName = regexp.MustCompile(`-(lp[0-9]+)$`)

// LavapipeVariant is the Variant of lavapipe under
// LP_NATIVE_VECTOR_WIDTH=bits: "lp128".
func LavapipeVariant(bits int) string { return fmt.Sprintf("lp%d", bits) }

// VariantOfName returns the variant a stable adapter name carries
// ("dawn-vulkan:llvmpipe-mesa25-lp128" → "lp128") and the name of its
// base adapter without it ("dawn-vulkan:llvmpipe-mesa25"); "" and name
// itself for a name without one. A "#n" suffix is kept on the base.
func VariantOfName(name string) (variant, base string) {
	n, dup, _ := strings.Cut(name, "#")
	m := variantName.FindStringSubmatchIndex(n)
	if m == nil || !strings.Contains(n, ":") {
		return "", name
	}
	base = n[:m[0]]
	if dup != "" {
		base += "#" + dup
	}
	return n[m[2]:m[3]], base
}

// isVariant reports whether a is a variant: by its Variant, or, for an
// AdapterInfo that was not listed (no Features: one built from a run's
// adapter name), by its name.
func isVariant(a AdapterInfo) bool {
	if a.Variant != "" || a.Features != nil {
		return a.Variant != ""
	}
	v, _ := VariantOfName(a.Name)
	return v != ""
}

// Variants returns the variants in all of the adapters in chosen (an
// adapter's variants have its Name plus "-<variant>"), in all's order,
// leaving out those chosen already: what a run adds to the adapters a
// user selected for the cases that need subgroups (VariantRuns).
func Variants(all, chosen []AdapterInfo) []AdapterInfo {
	var out []AdapterInfo
	for _, a := range all {
		if !isVariant(a) {
			continue
		}
		_, base := VariantOfName(a.Name)
		picked := slices.ContainsFunc(chosen, func(c AdapterInfo) bool { return c.Name == base })
		already := slices.ContainsFunc(chosen, func(c AdapterInfo) bool { return c.Name == a.Name })
		if picked && !already {
			out = append(out, a)
		}
	}
	return out
}

// VariantRuns reports whether the adapter runs a case whose module has
// needs (check's: derived from the module's IR): every adapter that is
// not a variant does; a variant only when needs has NeedSubgroups, since
// its subgroup size is all that differs from its base adapter.
func VariantRuns(info AdapterInfo, needs []Need) bool {
	if !isVariant(info) {
		return true
	}
	return slices.ContainsFunc(needs, func(n Need) bool { return n.Kind == NeedSubgroups })
}
