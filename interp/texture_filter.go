package interp

import (
	"math"
)

// Texel filtering for textureSampleLevel (Vulkan "Texel Filtering",
// "Unnormalized Texel Coordinate Operations", "Texel Selection"; WebGPU
// leaves the precision to the implementation). The reference returns,
// per channel, an interval every conforming implementation's result lies
// in, as the midpoint with a tolerance (so that arithmetic on the sample
// propagates the bound like any inexact f32). The derivation:
//
//   - Level: λ = clamp(level, lodMinClamp, lodMaxClamp); the texture is
//     magnified (magFilter) when λ ≤ 0, else minified (minFilter).
//     mipmapFilter nearest takes level d = ⌈λ + ½⌉ − 1; linear blends
//     levels ⌊λ⌋ and ⌊λ⌋+1 with weight δ = frac(λ), both clamped to the
//     texture's levels. δ is quantized to mipmapPrecisionBits ≥ 4 bits
//     with any rounding: δ' ∈ [δ − 2^-4, δ + 2^-4] ∩ [0, 1].
//   - Coordinates: u = s × size (+ offset) in texels. Sub-texel precision
//     subTexelPrecisionBits ≥ 4 (Vulkan's minimum; 8 on most hardware),
//     any rounding: the implementation filters at some u' with
//     |u' − u| ≤ 2^-4 (+ 2^-12 for the float arithmetic before it).
//   - Nearest: texel ⌊u'⌋ — one texel, or either neighbour within 2^-4
//     of an edge: the channel is in [min, max] of the candidates.
//   - Linear: i0 = ⌊u' − ½⌋, α = frac(u' − ½); the result is
//     Σ Π w T over the 2^N texels around, w ∈ {1−α, α} per dimension.
//     Moving u' by ε moves α by ε (or swaps to the next pair with α
//     near 0 or 1, where the blends agree), so the reachable results are
//     the multilinear interpolation over α_d ∈ [α_d − η, α_d + η] ∩ [0, 1]
//     (α_d itself where the coordinate is exact and α_d a multiple of
//     2^-4, which every precision ≥ 4 bits represents; likewise δ),
//     η = 2^-4 + 2^-12; a multilinear function takes its extremes on the
//     corners of that box: the channel is in [min, max] over the 2^N
//     corners. Address modes apply to every texel index (clamp-to-edge,
//     repeat, mirror-repeat).
//   - The weighted sum itself is computed at the implementation's
//     precision, which Vulkan does not fix: each filtering stage (the
//     bilinear or trilinear sum of a level, the blend of two levels)
//     widens the interval by 2^-8 of the largest texel magnitude
//     involved, at least of a normalized format's whole range (an 8-bit
//     fixed-point filter rounding at each stage, as llvmpipe's unorm8
//     path does: measured 0.75/255 off the exact trilinear value), plus
//     each texel's own conversion tolerance.
//
// Cube textures and derivative-based level selection (textureSample,
// textureSampleBias, textureSampleGrad) are not in the reference yet:
// their results are any value.

const (
	subTexelSlack = 1.0/16 + 1.0/4096
	mipSlack      = 1.0 / 16
	filterSlack   = 1.0 / 256
)

// onGrid reports whether x is a multiple of 2^-4, which quantization to
// any precision of at least 4 bits keeps exactly.
func onGrid(x float64) bool { return x*16 == math.Trunc(x*16) }

// interval is a closed interval of channel values.
type interval struct{ lo, hi float64 }

func (a interval) union(b interval) interval {
	return interval{math.Min(a.lo, b.lo), math.Max(a.hi, b.hi)}
}

// texelF returns texel xyz of level l as float channels with their
// tolerances; ok is false when the texel is any value.
func (t *texInst) texelF(l int, xyz [3]int64) (v [4]float64, tol [4]float64, ok bool) {
	idx, in := t.index(int64(l), xyz, 0)
	if !in || t.any[l][idx] {
		return v, tol, false
	}
	for j := 0; j < 4; j++ {
		if _, alt := t.alts[l][4*idx+j]; alt {
			return v, tol, false
		}
	}
	codes := t.levels[l][4*idx : 4*idx+4]
	for j := 0; j < 4; j++ {
		switch {
		case j < t.f.channels || t.f.bgra:
			bits, e := t.f.decode(codes[j])
			switch t.f.kind {
			case "uint":
				v[j] = float64(bits)
			case "sint":
				v[j] = float64(int32(bits))
			default:
				v[j], tol[j] = float64(math.Float32frombits(bits)), e
			}
		case j == 3:
			v[j] = 1
		}
	}
	return v, tol, true
}

// sampleLevelTol is sampleLevel for coordinates and a level known only
// within serr and lodErr (inexact operands): the coordinates' bound
// widens the sub-texel latitude (serr × size texels), and the level's is
// covered by evaluating at both ends of its interval and at every level
// boundary between them (between two consecutive such points the result
// moves monotonically with the blend weight, whose latitude widens by
// lodErr).
func (t *texInst) sampleLevelTol(smp *Sampler, s, serr []float64, layer int64, offset []int64, lod, lodErr float64) ([4]interval, bool) {
	t.serr = serr
	defer func() { t.serr = nil }()
	if lodErr == 0 {
		return t.sampleLevel(smp, s, layer, offset, lod, 0)
	}
	points := []float64{lod - lodErr, lod + lodErr}
	for b := math.Ceil(lod - lodErr); b < lod+lodErr; b++ {
		points = append(points, b, b-0.5, b+0.5)
	}
	var res [4]interval
	for j := range res {
		res[j] = interval{math.Inf(1), math.Inf(-1)}
	}
	for _, p := range points {
		if p < lod-lodErr || p > lod+lodErr {
			continue
		}
		r, ok := t.sampleLevel(smp, s, layer, offset, p, lodErr)
		if !ok {
			return r, false
		}
		for j := range res {
			res[j] = res[j].union(r[j])
		}
	}
	return res, true
}

// sampleLevel filters level λ of t at normalized coordinates s (dims
// entries), array layer (−1: none) and texel offset, with sampler smp:
// the interval of each channel. ok is false when a texel is any value.
func (t *texInst) sampleLevel(smp *Sampler, s []float64, layer int64, offset []int64, lod, lodErr float64) ([4]interval, bool) {
	lo, hi := float64(smp.LodMinClamp), float64(smp.LodMaxClamp)
	if lo == 0 && hi == 0 {
		hi = 32 // WebGPU's default lodMaxClamp
	}
	lambda := math.Min(math.Max(lod, lo), hi)
	filter := smp.MinFilter
	if lambda <= 0 {
		filter = smp.MagFilter
	}
	q := float64(len(t.levels) - 1)
	if smp.MipmapFilter != "linear" {
		d := math.Min(math.Max(math.Ceil(lambda+0.5)-1, 0), q)
		return t.filterLevel(int(d), filter, smp, s, layer, offset)
	}
	dHi := math.Min(math.Max(math.Floor(lambda), 0), q)
	dLo := math.Min(dHi+1, q)
	delta := lambda - math.Floor(lambda)
	if lambda < 0 {
		delta = 0
	}
	a, ok := t.filterLevel(int(dHi), filter, smp, s, layer, offset)
	if !ok {
		return a, ok
	}
	if dLo == dHi {
		// One level (the last, or a texture of one): the blend of a level
		// with itself still goes through the implementation's blend stage
		// at its own precision (SwiftShader blends in 16-bit fixed point:
		// an rgba8unorm texel 89/255 read back as 0.3490043, measured on
		// a render campaign's textureSample), so its rounding applies.
		for j := range a {
			m := t.filterRange(math.Max(math.Abs(a[j].lo), math.Abs(a[j].hi)))
			a[j].lo -= filterSlack * m
			a[j].hi += filterSlack * m
		}
		return a, true
	}
	b, ok := t.filterLevel(int(dLo), filter, smp, s, layer, offset)
	if !ok {
		return a, false
	}
	d0, d1 := math.Max(delta-mipSlack-lodErr, 0), math.Min(delta+mipSlack+lodErr, 1)
	if onGrid(delta) && lodErr == 0 {
		d0, d1 = delta, delta // a multiple of 2^-4 quantizes to itself at any precision ≥ 4 bits
	}
	switch {
	case d1 == 0:
		return a, true // δ = 0 exactly: level ⌊λ⌋ alone
	case d0 == 1:
		return b, true
	}
	var res [4]interval
	for j := range res {
		// (1−δ)·X + δ·Y over X ∈ a[j], Y ∈ b[j], δ ∈ [d0, d1]: linear in
		// each, extremes at the ends.
		res[j] = interval{math.Inf(1), math.Inf(-1)}
		for _, dd := range []float64{d0, d1} {
			res[j] = res[j].union(interval{(1-dd)*a[j].lo + dd*b[j].lo, (1-dd)*a[j].hi + dd*b[j].hi})
		}
		// The blend rounds again (a second fixed-point stage).
		m := t.filterRange(math.Max(math.Max(math.Abs(a[j].lo), math.Abs(a[j].hi)), math.Max(math.Abs(b[j].lo), math.Abs(b[j].hi))))
		res[j].lo -= filterSlack * m
		res[j].hi += filterSlack * m
	}
	return res, true
}

// filterLevel filters one mip level (nearest or linear).
func (t *texInst) filterLevel(l int, filter string, smp *Sampler, s []float64, layer int64, offset []int64) ([4]interval, bool) {
	w, h, d := t.levelSize(l)
	size := [3]int{w, h, d}
	modes := [3]string{smp.AddressModeU, smp.AddressModeV, smp.AddressModeW}
	n := len(s)
	// Per dimension: the texel indices (two for linear) and the weight
	// interval of the second (linear), or the candidate indices (nearest).
	var idx [3][2]int64
	var cand [3][]int64
	var wlo, whi [3]float64
	for k := 0; k < n; k++ {
		u := s[k] * float64(size[k])
		if offset != nil {
			u += float64(offset[k])
		}
		slack := subTexelSlack
		if t.serr != nil {
			slack += t.serr[k] * float64(size[k])
		}
		if filter == "linear" {
			x := u - 0.5
			i0 := math.Floor(x)
			a := x - i0
			idx[k] = [2]int64{wrap(int64(i0), size[k], modes[k]), wrap(int64(i0)+1, size[k], modes[k])}
			wlo[k], whi[k] = math.Max(a-slack, 0), math.Min(a+slack, 1)
			if slack > 0.5 {
				return [4]interval{}, false // the coordinate is too loose to bound the texels
			}
			if float64(float32(u)) == u && onGrid(a) && slack == subTexelSlack {
				wlo[k], whi[k] = a, a // exact coordinate on the 2^-4 grid: no rounding at any precision ≥ 4 bits
			}
			continue
		}
		a, b := math.Floor(u-slack), math.Floor(u+slack)
		if b-a > 3 {
			return [4]interval{}, false
		}
		for i := a; i <= b; i++ {
			cand[k] = append(cand[k], wrap(int64(i), size[k], modes[k]))
		}
	}
	at := func(c [3]int64) [3]int64 {
		if layer >= 0 {
			c[n] = layer
		}
		return c
	}
	var res [4]interval
	for j := range res {
		res[j] = interval{math.Inf(1), math.Inf(-1)}
	}
	maxAbs := 0.0
	if filter != "linear" {
		var rec func(k int, c [3]int64) bool
		rec = func(k int, c [3]int64) bool {
			if k == n {
				v, tol, ok := t.texelF(l, at(c))
				if !ok {
					return false
				}
				for j := range res {
					res[j] = res[j].union(interval{v[j] - tol[j], v[j] + tol[j]})
				}
				return true
			}
			for _, i := range cand[k] {
				c[k] = i
				if !rec(k+1, c) {
					return false
				}
			}
			return true
		}
		if !rec(0, [3]int64{}) {
			return res, false
		}
		return res, true
	}
	// Linear: the 2^n texels around, then the 2^n corners of the weight box.
	var tex [8][4]float64
	var ttol [8][4]float64
	for m := 0; m < 1<<n; m++ {
		var c [3]int64
		for k := 0; k < n; k++ {
			c[k] = idx[k][m>>k&1]
		}
		v, tol, ok := t.texelF(l, at(c))
		if !ok {
			return res, false
		}
		tex[m], ttol[m] = v, tol
		for j := 0; j < 4; j++ {
			maxAbs = math.Max(maxAbs, math.Abs(v[j])+tol[j])
		}
	}
	for corner := 0; corner < 1<<n; corner++ {
		var wt [3]float64
		for k := 0; k < n; k++ {
			wt[k] = wlo[k]
			if corner>>k&1 == 1 {
				wt[k] = whi[k]
			}
		}
		for j := 0; j < 4; j++ {
			sum, tsum := 0.0, 0.0
			for m := 0; m < 1<<n; m++ {
				p := 1.0
				for k := 0; k < n; k++ {
					if m>>k&1 == 1 {
						p *= wt[k]
					} else {
						p *= 1 - wt[k]
					}
				}
				sum += p * tex[m][j]
				tsum += p * ttol[m][j]
			}
			res[j] = res[j].union(interval{sum - tsum, sum + tsum})
		}
	}
	slack := filterSlack * t.filterRange(maxAbs)
	for j := range res {
		res[j].lo -= slack
		res[j].hi += slack
	}
	return res, true
}

// filterRange is the magnitude the filter's arithmetic slack is taken
// of: the largest texel magnitude, and at least the whole range (1) of a
// normalized format, whose fixed-point filters round to its quantum.
func (t *texInst) filterRange(maxAbs float64) float64 {
	if t.f.kind == "unorm" || t.f.kind == "snorm" {
		return math.Max(maxAbs, 1)
	}
	return maxAbs
}

// lodSlack is the latitude the reference gives an implementation's
// log2 of the scale factor (Vulkan does not fix its precision; the
// reference assumes 2^-4, the precision it assumes for the mipmap
// weight).
const lodSlack = 1.0 / 16

// implicitLod returns the interval of λ_base for a quad whose lanes have
// coordinates pv (normalized, with error bounds serr): ∂/∂x is either
// row's difference and ∂/∂y either column's (WGSL lets the
// implementation take fine or coarse derivatives); see lodRange.
func implicitLod(t *texInst, pv [4][]float64, serr []float64) (float64, float64) {
	diff := func(a, b int) []float64 {
		d := make([]float64, len(pv[a]))
		for j := range d {
			d[j] = pv[a][j] - pv[b][j]
		}
		return d
	}
	return lodRange(t, [][]float64{diff(1, 0), diff(3, 2)}, [][]float64{diff(2, 0), diff(3, 1)}, 2*maxOf(serr))
}

// lodRange returns the interval of λ_base (Vulkan "Scale Factor
// Operation, Level-of-Detail Operation and Image Level(s) Selection",
// isotropic) for the candidate derivative vectors gxs (∂/∂x) and gys
// (∂/∂y) of the normalized coordinates, each component within err: f_x
// lies in [max_j |∂u_j/∂x|, Σ_j |∂u_j/∂x|] (Vulkan's allowed
// approximation of the length; u_j = s_j × level 0's size), likewise f_y;
// ρ_max = max(f_x, f_y); λ_base = log2(ρ_max) within lodSlack.
func lodRange(t *texInst, gxs, gys [][]float64, err float64) (float64, float64) {
	w, h, d := t.levelSize(0)
	size := []float64{float64(w), float64(h), float64(d)}
	lenRange := func(g []float64) (float64, float64) {
		mx, sum := 0.0, 0.0
		for j, v := range g {
			a := math.Abs(v) * size[j]
			e := err * size[j]
			mx, sum = math.Max(mx, a-e), sum+a+e
		}
		return math.Max(mx, 0), sum
	}
	rlo, rhi := math.Inf(1), 0.0
	for _, gx := range gxs {
		for _, gy := range gys {
			xl, xh := lenRange(gx)
			yl, yh := lenRange(gy)
			rlo = math.Min(rlo, math.Max(xl, yl))
			rhi = math.Max(rhi, math.Max(xh, yh))
		}
	}
	lg := func(r float64) float64 {
		if r <= 0 {
			return -64
		}
		return math.Log2(r)
	}
	return lg(rlo) - lodSlack, lg(rhi) + lodSlack
}

// gather returns textureGather's four texels (component comp) at
// normalized coordinates s of level 0: (umin, vmax), (umax, vmax),
// (umax, vmin), (umin, vmin) of the bilinear footprint (WGSL
// #texturegather); near a footprint edge (within the sub-texel
// latitude) either footprint, as intervals. ok is false when a texel is
// any value.
func (t *texInst) gather(smp *Sampler, s, serr []float64, layer int64, offset []int64, comp int) ([4]interval, bool) {
	w, h, _ := t.levelSize(0)
	size := [2]int{w, h}
	modes := [2]string{smp.AddressModeU, smp.AddressModeV}
	var cand [2][]int64
	for k := 0; k < 2; k++ {
		u := s[k] * float64(size[k])
		if offset != nil {
			u += float64(offset[k])
		}
		x := u - 0.5
		slack := subTexelSlack + serr[k]*float64(size[k])
		a, b := math.Floor(x-slack), math.Floor(x+slack)
		if b-a > 2 {
			return [4]interval{}, false
		}
		for i := a; i <= b; i++ {
			cand[k] = append(cand[k], int64(i))
		}
	}
	var res [4]interval
	for j := range res {
		res[j] = interval{math.Inf(1), math.Inf(-1)}
	}
	for _, i0 := range cand[0] {
		for _, j0 := range cand[1] {
			pos := [4][2]int64{{i0, j0 + 1}, {i0 + 1, j0 + 1}, {i0 + 1, j0}, {i0, j0}}
			for r, pq := range pos {
				xyz := [3]int64{wrap(pq[0], size[0], modes[0]), wrap(pq[1], size[1], modes[1]), 0}
				if layer >= 0 {
					xyz[2] = layer
				}
				v, tol, ok := t.texelF(0, xyz)
				if !ok {
					return res, false
				}
				res[r] = res[r].union(interval{v[comp] - tol[comp], v[comp] + tol[comp]})
			}
		}
	}
	return res, true
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}
