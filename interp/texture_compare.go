package interp

import "math"

// Depth comparison (WGSL #texturesamplecomparelevel,
// #texturegathercompare; WebGPU GPUCompareFunction: "a provided value
// passes the comparison test if it is <op> the sampled value", the
// provided value being depth_ref): each texel of the footprint compares
// to 1.0 (pass) or 0.0, and textureSampleCompareLevel filters the results
// at level 0 with the sampler's filter (Vulkan §16.8 "Depth Compare
// Operation", then filtering).
//
// The reference's result, per component, is an interval:
//   - nearest: the texel is one of the candidates the coordinates allow
//     (filterLevel's hull of them, with the texel's tolerance): exactly 1
//     or 0 when every value in the hull passes or fails, else any of
//     [0, 1];
//   - linear: a weighted average of the 2×2 footprint's results with
//     weights the implementation's sub-texel precision decides: exactly 1
//     or 0 when the four agree, else any of [0, 1];
//   - textureGatherCompare: each footprint texel's own result, as above.
//
// depth_ref is clamped to [0, 1] for depth16unorm (Vulkan: D_ref is
// clamped for fixed-point formats), not for depth32float. A depth_ref
// with an error bound compares as its interval.

// comparePass is the interval of compare(ref, texel) over ref ∈ r and
// texel ∈ x: [1, 1], [0, 0] or [0, 1].
func comparePass(fn string, r, x interval) interval {
	// always and never are constant; for the others decide the outcome
	// at the extremes of the two intervals.
	var sure, never bool
	switch fn {
	case "always":
		sure = true
	case "never":
		never = true
	case "less":
		sure, never = r.hi < x.lo, r.lo >= x.hi
	case "less-equal":
		sure, never = r.hi <= x.lo, r.lo > x.hi
	case "greater":
		sure, never = r.lo > x.hi, r.hi <= x.lo
	case "greater-equal":
		sure, never = r.lo >= x.hi, r.hi < x.lo
	case "equal":
		sure = r.lo == r.hi && x.lo == x.hi && r.lo == x.lo
		never = r.hi < x.lo || r.lo > x.hi
	case "not-equal":
		sure = r.hi < x.lo || r.lo > x.hi
		never = r.lo == r.hi && x.lo == x.hi && r.lo == x.lo
	}
	switch {
	case sure:
		return interval{1, 1}
	case never:
		return interval{0, 0}
	}
	return interval{0, 1}
}

// compareRef is depth_ref (its value and error bound) as the comparison
// sees it: clamped to [0, 1] for a unorm depth format.
func (t *texInst) compareRef(v, err float64) interval {
	r := interval{v - err, v + err}
	if t.f.kind == "unorm" {
		r = interval{math.Min(math.Max(r.lo, 0), 1), math.Min(math.Max(r.hi, 0), 1)}
	}
	return r
}

// sampleCompare is textureSampleCompareLevel's result at level 0 (see
// above); ok is false when a texel is any value.
func (t *texInst) sampleCompare(smp *Sampler, s, serr []float64, layer int64, offset []int64, ref interval) (interval, bool) {
	t.serr = serr
	defer func() { t.serr = nil }()
	if smp.LodMinClamp > 0 {
		// λ = clamp(0, lodMinClamp, …) > 0: another level and the
		// minification filter; not modelled (any result in [0, 1]).
		return interval{0, 1}, true
	}
	filter := smp.MagFilter // level 0 with LOD 0: the magnification filter (Vulkan §16.9: λ ≤ 0)
	if filter != "linear" {
		x, ok := t.filterLevel(0, "nearest", smp, s, layer, offset)
		if !ok {
			return interval{}, false
		}
		return comparePass(smp.Compare, ref, x[0]), true
	}
	fp, ok := t.gather(smp, s, serr, layer, offset, 0)
	if !ok {
		return interval{}, false
	}
	res := comparePass(smp.Compare, ref, fp[0])
	for _, x := range fp[1:] {
		res = res.union(comparePass(smp.Compare, ref, x))
	}
	return res, true
}
