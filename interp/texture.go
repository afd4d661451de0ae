package interp

import (
	"fmt"
	"math"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// Textures in the reference (issue 24; ir/texture.go). A dispatch gets
// the contents of each texture binding (Options.Textures: format, size,
// mip levels, array layers, texel bytes) and the description of each
// sampler (Options.Samplers); a storage texture the entry point stores
// to is an output (DispatchResult.Textures).
//
// Texels are kept as channel codes (the bits of each channel as stored:
// an 8-bit unorm byte, the binary16 bits of a float16, the bits of a
// 32-bit channel) and decoded when read:
//   - unorm: c / (2^b - 1), snorm: max(c / (2^(b-1) - 1), -1) (Vulkan
//     "Fixed-Point Data Conversions"). The quotient is carried with a
//     tolerance of one ULP (an implementation may multiply by the
//     reciprocal); 0 and ±1 are exact.
//   - float16: exact (every binary16 value is an f32 value).
//   - 32-bit float and integer channels, and 8/16-bit integers (zero- or
//     sign-extended): exact.
//
// A store converts the value to codes (Vulkan "Conversion from
// Floating-Point to Normalized Fixed-Point": clamp, scale, then "one of
// the two closest" integers — the allowed set {floor, ceil}, exact when
// the scaled value is an integer; f32 to float16: the two neighbouring
// binary16 values, WGSL leaving the rounding to the implementation; an
// integer that does not fit the channel, a NaN or an infinity: any
// value). Where the reference cannot fix a stored texel it is any value:
// an out-of-bounds textureStore (WGSL #texturestore: it may be discarded
// or land on any texel), a store made after a fork point of the segment
// (fork.go), a store by an invocation whose rest is indeterminate
// (poisonRest), two invocations storing different values to one texel
// (their order is not fixed), and a load of a read_write storage texel
// another invocation stored to.
//
// An out-of-bounds textureLoad returns any texel of the texture or zero
// (WGSL #textureload): any value. Sampling (texture_filter.go):
// textureSampleLevel and textureSampleGrad filter nearest or linear at
// the level their explicit level or gradients select, textureGather
// returns the bilinear footprint, textureSample and textureSampleBias
// take the level from the fragment quad's implicit derivatives (quad.go,
// Program.RunQuads); results are intervals (midpoint ± tolerance) that
// cover every sub-texel and mipmap precision ≥ 4 bits. Not in the
// reference yet (any value, never a mismatch): cube textures,
// textureSampleCompare (implicit derivatives), and textureStore outside
// a compute entry point (refused when compiling). textureSampleCompareLevel
// and textureGatherCompare: texture_compare.go.
//
// Function-mode runs (a fragment entry point through Program.Run or
// RunQuads) take their textures from the same Options.Textures and
// Options.Samplers.

// Texture is the content of one texture binding.
type Texture struct {
	// Format is the WebGPU texture format ("rgba8unorm", "r32float",
	// "rgba16float", "r32uint", "bgra8unorm", "rg8snorm", …): r, rg or
	// rgba (or bgra) channels of 8, 16 or 32 bits, unorm, snorm, uint,
	// sint or float.
	Format string
	// Width, Height and DepthOrLayers are the size of mip level 0
	// (DepthOrLayers: depth of a 3d texture, array layers otherwise).
	Width, Height, DepthOrLayers int
	MipLevels                    int // ≥ 1
	SampleCount                  int // 1, or 4 for a multisampled texture
	// Data holds each mip level's texels, layer (or depth slice) after
	// layer, row after row, tightly packed (no row padding): for a
	// multisampled texture, SampleCount samples per texel.
	Data [][]byte
}

// Sampler describes a sampler binding (WebGPU GPUSamplerDescriptor).
type Sampler struct {
	AddressModeU, AddressModeV, AddressModeW string // "clamp-to-edge" (default), "repeat", "mirror-repeat"
	MagFilter, MinFilter, MipmapFilter       string // "nearest" (default) or "linear"
	LodMinClamp, LodMaxClamp                 float32
	Compare                                  string // "" or a compare function ("less", …)
}

// texFormat is a parsed texture format.
type texFormat struct {
	name     string
	channels int
	bits     int    // per channel
	kind     string // unorm, snorm, uint, sint, float
	bgra     bool
}

func (f texFormat) texelBytes() int { return f.channels * f.bits / 8 }

// parseTexFormat reads format s from ir's one format table
// (ir.TexFormats). The depth formats read as their one channel (WebGPU
// "Depth-stencil formats"; WGSL #texture-depth: a depth texture reads an
// f32): depth32float as r32float, depth16unorm as r16unorm would.
func parseTexFormat(s string) (texFormat, error) {
	fi, ok := ir.FormatInfo(s)
	if !ok {
		return texFormat{name: s}, fmt.Errorf("texture format %q is not supported by the reference", s)
	}
	return texFormat{name: s, channels: fi.Channels, bits: 8 * fi.Bytes, kind: fi.ChannelType(), bgra: fi.BGRA}, nil
}

// texInst is one texture binding during a dispatch.
type texInst struct {
	v      *ir.TextureVar
	data   *Texture
	f      texFormat
	levels [][]uint32 // per level: channel codes, texel after texel (4 per texel: missing channels 0)
	any    [][]bool   // per level, per texel: the texel is any value
	// alts: per level, channel code (4 per texel) → the codes a store
	// may have left there when more than one (nil: any value).
	alts   []map[int][]uint32
	writer [][]int32 // per level, per texel: the invocation that stored it (+1), or 0
	stored bool      // the entry point stores to it
	serr   []float64 // while sampling: the coordinates' error bounds (texture_filter.go)
}

// texState is the textures and samplers of a dispatch.
type texState struct {
	tex      map[string]*texInst
	samplers map[string]*Sampler
	initial  map[string][][]uint32
}

// levelSize returns the size (width, height, depth-or-layers) of level l.
func (t *texInst) levelSize(l int) (int, int, int) {
	w, h, d := t.data.Width, t.data.Height, t.data.DepthOrLayers
	w, h = max(w>>l, 1), max(h>>l, 1)
	if t.v.T.Tex.Dim == ir.Tex3D {
		d = max(d>>l, 1)
	}
	if t.v.T.Tex.Dim == ir.Tex1D {
		h = 1
	}
	return w, h, d
}

func newTexState(m *ir.Module, entry string, textures map[string]*Texture, samplers map[string]*Sampler) (*texState, error) {
	st := &texState{tex: map[string]*texInst{}, samplers: map[string]*Sampler{}, initial: map[string][][]uint32{}}
	for k, v := range samplers {
		st.samplers[k] = v
	}
	stored := map[string]bool{}
	for _, f := range m.CallGraph(entry) {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if c, ok := n.(*ir.TextureCall); ok && c.Op == ir.TexStore {
				stored[c.Texture().(*ir.Ident).Name] = true
			}
			return true
		})
	}
	for _, v := range m.Textures {
		if v.T.Kind != ir.KindTexture {
			continue
		}
		data := textures[v.Name]
		if data == nil {
			return nil, fmt.Errorf("texture %s: no contents given", v.Name)
		}
		f, err := parseTexFormat(data.Format)
		if err != nil {
			return nil, fmt.Errorf("texture %s: %v", v.Name, err)
		}
		tt := v.T.Tex
		if tt.Class == ir.TexStorage && tt.Format.String() != data.Format {
			return nil, fmt.Errorf("texture %s: format %s, but the shader declares %s", v.Name, data.Format, tt.Format)
		}
		ch := "f32"
		switch f.kind {
		case "uint":
			ch = "u32"
		case "sint":
			ch = "i32"
		}
		if tt.Sampled.String() != ch {
			return nil, fmt.Errorf("texture %s: format %s gives %s values, but the shader's type is %v", v.Name, data.Format, ch, v.T)
		}
		t := &texInst{v: v, data: data, f: f, stored: stored[v.Name]}
		nl := max(data.MipLevels, 1)
		if len(data.Data) != nl {
			return nil, fmt.Errorf("texture %s: %d mip levels, data for %d", v.Name, nl, len(data.Data))
		}
		samples := max(data.SampleCount, 1)
		for l := 0; l < nl; l++ {
			w, h, d := t.levelSize(l)
			n := w * h * d * samples
			if len(data.Data[l]) != n*f.texelBytes() {
				return nil, fmt.Errorf("texture %s: level %d has %d bytes, want %d (%dx%dx%d texels of %d bytes)", v.Name, l, len(data.Data[l]), n*f.texelBytes(), w, h, d, f.texelBytes())
			}
			codes := make([]uint32, 4*n)
			tb := f.texelBytes()
			cb := f.bits / 8
			for i := 0; i < n; i++ {
				for c := 0; c < f.channels; c++ {
					var x uint32
					for k := 0; k < cb; k++ {
						x |= uint32(data.Data[l][i*tb+c*cb+k]) << (8 * k)
					}
					dc := c
					if f.bgra && c != 3 {
						dc = 2 - c
					}
					codes[4*i+dc] = x
				}
			}
			t.levels = append(t.levels, codes)
			t.any = append(t.any, make([]bool, n))
			t.alts = append(t.alts, map[int][]uint32{})
			t.writer = append(t.writer, make([]int32, n))
		}
		st.initial[v.Name] = t.levels
		st.tex[v.Name] = t
	}
	for _, v := range m.Textures {
		if v.T.Kind == ir.KindSampler && samplers[v.Name] == nil {
			st.samplers[v.Name] = &Sampler{}
		}
	}
	return st, nil
}

// reset restores every texture to its initial contents (a new pass).
func (st *texState) reset() {
	for name, t := range st.tex {
		for l := range t.levels {
			t.levels[l] = append([]uint32(nil), st.initial[name][l]...)
			clear(t.any[l])
			clear(t.alts[l])
			clear(t.writer[l])
		}
	}
}

// poison makes every texel of every stored texture any value: an
// invocation whose rest is indeterminate may store anywhere it could.
func (st *texState) poison() {
	if st == nil {
		return
	}
	for _, t := range st.tex {
		if t.stored {
			for l := range t.any {
				for i := range t.any[l] {
					t.any[l][i] = true
				}
			}
		}
	}
}

// decode returns channel c of code x as the bits of a value of the
// channel type, and its tolerance (f32).
func (f texFormat) decode(x uint32) (uint32, float64) {
	switch f.kind {
	case "uint":
		return x, 0
	case "sint":
		sh := 32 - f.bits
		return uint32(int32(x<<sh) >> sh), 0
	case "float":
		if f.bits == 16 {
			return math.Float32bits(f16ToF32(uint16(x))), 0
		}
		return x, 0
	case "unorm":
		max := float64(uint32(1)<<f.bits - 1)
		v := float32(float64(x) / max)
		if x == 0 || float64(x) == max {
			return math.Float32bits(v), 0
		}
		return math.Float32bits(v), ulp(float64(v))
	case "snorm":
		sh := 32 - f.bits
		s := int32(x<<sh) >> sh
		max := float64(int32(1)<<(f.bits-1) - 1)
		v := math.Max(float64(s)/max, -1)
		if v == 0 || v == 1 || v == -1 {
			return math.Float32bits(float32(v)), 0
		}
		return math.Float32bits(float32(v)), ulp(v)
	}
	return x, 0
}

// encode returns the channel codes a store of value bits v (of the
// channel type) may leave: one or two codes, or ok false for any value.
func (f texFormat) encode(v uint32) (codes []uint32, ok bool) {
	mask := uint32(0xffffffff)
	if f.bits < 32 {
		mask = uint32(1)<<f.bits - 1
	}
	switch f.kind {
	case "uint":
		if f.bits < 32 && v > mask {
			return nil, false
		}
		return []uint32{v}, true
	case "sint":
		s := int32(v)
		if f.bits < 32 && (s > int32(mask>>1) || s < -int32(mask>>1)-1) {
			return nil, false
		}
		return []uint32{v & mask}, true
	}
	x := float64(math.Float32frombits(v))
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil, false
	}
	switch f.kind {
	case "float":
		if f.bits == 32 {
			return []uint32{v}, true
		}
		lo, hi, ok := f16Neighbours(float32(x))
		if !ok {
			return nil, false
		}
		if lo == hi {
			return []uint32{uint32(lo)}, true
		}
		return []uint32{uint32(lo), uint32(hi)}, true
	case "unorm", "snorm":
		var r float64
		if f.kind == "unorm" {
			r = math.Min(math.Max(x, 0), 1) * float64(mask)
		} else {
			m := float64(mask >> 1)
			r = math.Min(math.Max(x, -1), 1) * m
		}
		lo, hi := math.Floor(r), math.Ceil(r)
		enc := func(c float64) uint32 { return uint32(int32(c)) & mask }
		if lo == hi {
			return []uint32{enc(lo)}, true
		}
		return []uint32{enc(lo), enc(hi)}, true
	}
	return nil, false
}

// f16ToF32 converts binary16 bits to float32 (exact): wgslsem's one
// conversion.
func f16ToF32(h uint16) float32 {
	f, _, _ := wgslsem.F16ToF32(h)
	return f
}

// f16Neighbours returns the binary16 values just below and above x in
// magnitude (equal when x is one; each with x's sign), the two a store
// may leave (WGSL #floating-point-conversion: either neighbour of an
// inexact value); ok false when x is outside binary16's finite range
// (the stored value is then any). The neighbours come from wgslsem's one
// conversion (its round-to-nearest result is one of them); a zero of
// either sign stores as +0's code, 0x0000 (the reference's policy: WGSL
// lets an implementation ignore the sign of a zero).
func f16Neighbours(x float32) (lo, hi uint16, ok bool) {
	h, exact, finite := wgslsem.F32ToF16(x)
	switch {
	case !finite:
		return 0, 0, false
	case x == 0:
		return 0, 0, true
	case exact:
		return h, h, true
	}
	// h's magnitude is the nearer neighbour's: below |x| (then the
	// other is the next binary16 up, h+1 in bits) or above it (h-1; h's
	// magnitude is then at least 2^-24, so h-1 keeps the sign bit).
	if math.Abs(float64(f16ToF32(h))) < math.Abs(float64(x)) {
		return h, h + 1, true
	}
	return h - 1, h, true
}

// textureCall compiles a texture builtin call of an entry point.
func (c *compiler) textureCall(e *ir.TextureCall, dst int32) cexpr {
	if c.entry == nil && e.Op == ir.TexStore {
		c.errorf(e.Pos, "%s outside a compute entry point: the reference stores to textures only in compute entry points as written", e.Op)
		return c.dummy(e.T, dst)
	}
	p := e.Parts()
	texName := p.Texture.(*ir.Ident).Name
	tv := c.m.TextureVar(texName)
	sampName := ""
	if p.Sampler != nil {
		sampName = p.Sampler.(*ir.Ident).Name
	}
	var exprs []ir.Expr
	var letters []byte
	for i, a := range e.Args {
		switch l := e.FormLetter(i); l {
		case 'T', 'S', 'Z':
		default:
			exprs = append(exprs, a)
			letters = append(letters, l)
		}
	}
	ops := c.operands(exprs...)
	arg := func(l byte) (cexpr, bool) {
		for i, x := range letters {
			if x == l {
				return ops[i], true
			}
		}
		return cexpr{}, false
	}
	n := size(e.T)
	out := c.pickDst(dst, n, false, ops...)
	if n == 0 {
		out = 0
	}
	oob := c.addReason(e.Pos, rOOBRead, e, fmt.Sprintf("%s out of bounds (WGSL: any texel or zero)", e.Op))
	inexact := c.addReason(e.Pos, rInexact, e, fmt.Sprintf("%s: normalized texel conversion", e.Op))
	unsup := c.addReason(e.Pos, rDomain, e, fmt.Sprintf("%s: not in the reference yet (any value)", e.Op))
	race := c.addReason(e.Pos, rOOBWrite, e, fmt.Sprintf("%s: a texel another invocation stores to", e.Op))
	coords, _ := arg('i')
	fcoords, hasF := arg('c')
	layer, hasLayer := arg('a')
	level, hasLevel := arg('L')
	fLevel, hasFLevel := arg('F')
	value, _ := arg('v')
	offset, hasOffset := arg('o')
	sample, hasSample := arg('n')
	tt := tv.T.Tex
	cw := int32(tt.Dim.CoordWidth())
	anyOut := func(fr *frame, why int32) {
		for j := int32(0); j < n; j++ {
			fr.s[out+j] = slot{why: -why}
		}
	}
	// bad reports whether any operand slot is indeterminate.
	bad := func(fr *frame) bool {
		for _, o := range ops {
			for j := int32(0); j < o.n; j++ {
				if fr.s[o.loc+j].why < 0 {
					return true
				}
			}
		}
		return false
	}
	readInt := func(fr *frame, o cexpr, j int32, signed bool) int64 {
		b := fr.s[o.loc+j].bits
		if signed {
			return int64(int32(b))
		}
		return int64(b)
	}
	signedOf := func(ex ir.Expr) bool { return ex.Type().Scalar().Kind == ir.KindI32 }
	lettersExpr := func(l byte) ir.Expr {
		for i, x := range letters {
			if x == l {
				return exprs[i]
			}
		}
		return nil
	}
	// offsets reads the constant texel offset (nil without one); layerOf
	// the array layer, clamped to t's layers as WGSL says (-1: no layer).
	offsets := func(fr *frame) []int64 {
		if !hasOffset {
			return nil
		}
		offs := make([]int64, cw)
		for j := int32(0); j < cw; j++ {
			offs[j] = int64(int32(fr.s[offset.loc+j].bits))
		}
		return offs
	}
	// coordsOf reads the f32 sampling coordinates with their error
	// bounds; ok is false when one is NaN or infinite (the result is then
	// any value).
	coordsOf := func(fr *frame) (s, serr []float64, ok bool) {
		s, serr = make([]float64, cw), make([]float64, cw)
		for j := int32(0); j < cw; j++ {
			sl := fr.s[fcoords.loc+j]
			s[j], serr[j] = float64(math.Float32frombits(sl.bits)), sl.tol()
			if math.IsNaN(s[j]) || math.IsInf(s[j], 0) {
				return nil, nil, false
			}
		}
		return s, serr, true
	}
	layerOf := func(fr *frame, t *texInst) int64 {
		if !hasLayer {
			return -1
		}
		a := readInt(fr, layer, 0, signedOf(lettersExpr('a')))
		return min(max(a, 0), int64(t.data.DepthOrLayers-1))
	}
	var fn exprFn
	switch e.Op {
	case ir.TexDimensions, ir.TexNumLayers, ir.TexNumLevels, ir.TexNumSamples:
		fn = func(fr *frame) {
			t := texOf(fr).tex[texName]
			l := int64(0)
			if hasLevel {
				if bad(fr) {
					anyOut(fr, oob)
					return
				}
				l = readInt(fr, level, 0, signedOf(lettersExpr('L')))
				if l < 0 || l >= int64(len(t.levels)) {
					anyOut(fr, oob) // WGSL #texturedimensions: an invalid level is indeterminate
					return
				}
			}
			w, h, d := t.levelSize(int(l))
			var vals []uint32
			switch e.Op {
			case ir.TexDimensions:
				vals = []uint32{uint32(w), uint32(h), uint32(d)}[:tt.Dim.SizeWidth()]
			case ir.TexNumLayers:
				d := t.data.DepthOrLayers
				if tt.Dim == ir.TexCubeArray {
					d /= 6
				}
				vals = []uint32{uint32(d)}
			case ir.TexNumLevels:
				vals = []uint32{uint32(len(t.levels))}
			case ir.TexNumSamples:
				vals = []uint32{uint32(max(t.data.SampleCount, 1))}
			}
			for j, v := range vals {
				fr.s[out+int32(j)] = slot{bits: v}
			}
		}
	case ir.TexLoad, ir.TexStore:
		if tt.Dim == ir.TexCube || tt.Dim == ir.TexCubeArray {
			c.errorf(e.Pos, "%s of a cube texture: not in the reference yet", e.Op)
			return c.dummy(e.T, dst)
		}
		sc := signedOf(lettersExpr('i'))
		fn = func(fr *frame) {
			t := texOf(fr).tex[texName]
			if bad(fr) {
				if e.Op == ir.TexStore {
					t.poisonAll()
					return
				}
				anyOut(fr, oob)
				return
			}
			var xyz [3]int64
			for j := int32(0); j < cw; j++ {
				xyz[j] = readInt(fr, coords, j, sc)
			}
			l := int64(0)
			if hasLevel {
				l = readInt(fr, level, 0, signedOf(lettersExpr('L')))
			}
			s := int64(0)
			if hasSample {
				s = readInt(fr, sample, 0, signedOf(lettersExpr('n')))
			}
			if hasLayer {
				xyz[2] = readInt(fr, layer, 0, signedOf(lettersExpr('a')))
			}
			idx, ok := t.index(l, xyz, s)
			if e.Op == ir.TexStore {
				if !ok {
					t.poisonAll() // WGSL #texturestore: may land on any texel
					return
				}
				t.store(fr, int(l), idx, value, race)
				return
			}
			if !ok {
				anyOut(fr, oob)
				return
			}
			t.load(fr, int(l), idx, out, n, inexact, race)
		}
	case ir.TexSampleLevel:
		if tt.Class != ir.TexSampled || tt.Dim == ir.TexCube || tt.Dim == ir.TexCubeArray || !hasF || !hasFLevel {
			fn = func(fr *frame) { anyOut(fr, unsup) }
			break
		}
		fn = func(fr *frame) {
			t := texOf(fr).tex[texName]
			smp := texOf(fr).samplers[sampName]
			if bad(fr) || smp == nil {
				anyOut(fr, oob)
				return
			}
			lod := float64(math.Float32frombits(fr.s[fLevel.loc].bits))
			lodErr := fr.s[fLevel.loc].tol()
			s, serr, ok := coordsOf(fr)
			if !ok || math.IsNaN(lod) || math.IsInf(lod, 0) {
				anyOut(fr, oob)
				return
			}
			offs, lay := offsets(fr), layerOf(fr, t)
			res, ok := t.sampleLevelTol(smp, s, serr, lay, offs, lod, lodErr)
			if !ok {
				anyOut(fr, race)
				return
			}
			for j := int32(0); j < n; j++ {
				iv := res[j]
				fr.s[out+j] = iv.slot(inexact)
			}
		}
	case ir.TexSampleGrad, ir.TexGather:
		if tt.Dim == ir.TexCube || tt.Dim == ir.TexCubeArray || !hasF || (e.Op == ir.TexSampleGrad) != (tt.Class == ir.TexSampled && e.Op == ir.TexSampleGrad) {
			fn = func(fr *frame) { anyOut(fr, unsup) }
			break
		}
		var dd []cexpr
		for i, l := range letters {
			if l == 'd' {
				dd = append(dd, ops[i])
			}
		}
		comp := 0
		if p.Component != nil {
			comp = int(p.Component.(*ir.Lit).Val.Bits)
		}
		intType := tt.Class != ir.TexDepth && tt.Sampled.Kind != ir.KindF32
		fn = func(fr *frame) {
			t := texOf(fr).tex[texName]
			smp := texOf(fr).samplers[sampName]
			if bad(fr) || smp == nil {
				anyOut(fr, oob)
				return
			}
			s, serr, ok := coordsOf(fr)
			if !ok {
				anyOut(fr, oob)
				return
			}
			offs, lay := offsets(fr), layerOf(fr, t)
			var res [4]interval
			if e.Op == ir.TexGather {
				res, ok = t.gather(smp, s, serr, lay, offs, comp)
			} else {
				vec := func(o cexpr) ([]float64, float64) {
					v := make([]float64, cw)
					m := 0.0
					for j := int32(0); j < cw; j++ {
						v[j] = float64(math.Float32frombits(fr.s[o.loc+j].bits))
						m = math.Max(m, fr.s[o.loc+j].tol())
					}
					return v, m
				}
				gx, ex := vec(dd[0])
				gy, ey := vec(dd[1])
				lo, hi := lodRange(t, [][]float64{gx}, [][]float64{gy}, math.Max(ex, ey))
				res, ok = t.sampleLevelTol(smp, s, serr, lay, offs, (lo+hi)/2, (hi-lo)/2)
			}
			if !ok {
				anyOut(fr, race)
				return
			}
			for j := int32(0); j < n; j++ {
				iv := res[j]
				if intType {
					// Integer texels: exact where one footprint is possible.
					if iv.lo != iv.hi {
						fr.s[out+j] = slot{why: -unsup}
						continue
					}
					fr.s[out+j] = slot{bits: intBits(iv.lo, tt.Sampled.Kind)}
					continue
				}
				fr.s[out+j] = iv.slot(inexact)
			}
		}
	case ir.TexSample, ir.TexSampleBias:
		if tt.Class != ir.TexSampled || tt.Dim == ir.TexCube || tt.Dim == ir.TexCubeArray || !hasF {
			fn = func(fr *frame) { anyOut(fr, unsup) }
			break
		}
		pending := c.addReason(e.Pos, rBitcast, e, "its quad neighbours' coordinates are not known yet (the reference runs the quad again)")
		fn = func(fr *frame) {
			q := fr.quad
			if q == nil {
				fr.fail(e.Pos, "%s is not executable by the reference outside a fragment quad (its level of detail comes from implicit derivatives)", e.Op)
				return
			}
			t := texOf(fr).tex[texName]
			smp := texOf(fr).samplers[sampName]
			// The coordinates are this call's entry in the quad's
			// derivative log (quad.go).
			k := q.k
			q.k++
			own := append([]slot(nil), fr.s[fcoords.loc:fcoords.loc+cw]...)
			q.logs[q.lane] = append(q.logs[q.lane], own)
			var P [4][]slot
			for l := 0; l < 4; l++ {
				if k >= len(q.prev[l]) {
					anyOut(fr, pending)
					return
				}
				P[l] = q.prev[l][k]
			}
			P[q.lane] = own
			if bad(fr) || smp == nil {
				anyOut(fr, oob)
				return
			}
			var pv [4][]float64
			serr := make([]float64, cw)
			for l := 0; l < 4; l++ {
				for j := int32(0); j < cw; j++ {
					sl := P[l][j]
					if sl.why < 0 {
						anyOut(fr, oob)
						return
					}
					pv[l] = append(pv[l], float64(math.Float32frombits(sl.bits)))
					serr[j] = math.Max(serr[j], sl.tol())
				}
			}
			bias, biasErr := 0.0, 0.0
			if e.Op == ir.TexSampleBias {
				bias = float64(math.Float32frombits(fr.s[fLevel.loc].bits))
				biasErr = fr.s[fLevel.loc].tol()
			}
			lo, hi := implicitLod(t, pv, serr)
			lo, hi = lo+bias-biasErr, hi+bias+biasErr
			offs, lay := offsets(fr), layerOf(fr, t)
			s := make([]float64, cw)
			for j := range s {
				s[j] = pv[q.lane][j]
			}
			res, ok := t.sampleLevelTol(smp, s, serr, lay, offs, (lo+hi)/2, (hi-lo)/2)
			if !ok {
				anyOut(fr, race)
				return
			}
			for j := int32(0); j < n; j++ {
				iv := res[j]
				fr.s[out+j] = iv.slot(inexact)
			}
		}
	case ir.TexSampleCompareLevel, ir.TexGatherCompare:
		// texture_compare.go; cube textures are not in the reference yet.
		if tt.Dim == ir.TexCube || tt.Dim == ir.TexCubeArray || !hasF || !hasFLevel {
			fn = func(fr *frame) { anyOut(fr, unsup) }
			break
		}
		gather := e.Op == ir.TexGatherCompare
		mixed := c.addReason(e.Pos, rInexact, e, fmt.Sprintf("%s: texels that compare differently (any result in [0, 1])", e.Op))
		fn = func(fr *frame) {
			t := texOf(fr).tex[texName]
			smp := texOf(fr).samplers[sampName]
			if bad(fr) || smp == nil || smp.Compare == "" {
				anyOut(fr, oob)
				return
			}
			ref := float64(math.Float32frombits(fr.s[fLevel.loc].bits))
			if math.IsNaN(ref) || math.IsInf(ref, 0) {
				anyOut(fr, oob)
				return
			}
			r := t.compareRef(ref, fr.s[fLevel.loc].tol())
			s, serr, ok := coordsOf(fr)
			if !ok {
				anyOut(fr, oob)
				return
			}
			offs, lay := offsets(fr), layerOf(fr, t)
			if gather {
				fp, ok := t.gather(smp, s, serr, lay, offs, 0)
				if !ok {
					anyOut(fr, race)
					return
				}
				for j := int32(0); j < n; j++ {
					fr.s[out+j] = comparePass(smp.Compare, r, fp[j]).slot(mixed)
				}
				return
			}
			res, ok := t.sampleCompare(smp, s, serr, lay, offs, r)
			if !ok {
				anyOut(fr, race)
				return
			}
			fr.s[out] = res.slot(mixed)
		}
	default:
		fn = func(fr *frame) { anyOut(fr, unsup) }
	}
	return cexpr{code: c.emit(fn, ops...), loc: out, n: n}
}

// intBits returns the bits of an integer channel value decoded as a
// float64 by texelF (exact: it came from a 32-bit integer).
func intBits(v float64, k ir.Kind) uint32 {
	if k == ir.KindI32 {
		return uint32(int32(v))
	}
	return uint32(v)
}

// texOf returns the textures of fr's run: a dispatch's, or a
// function-mode (fragment) run's.
func texOf(fr *frame) *texState {
	if fr.sh != nil && fr.sh.run.tex != nil {
		return fr.sh.run.tex
	}
	return fr.tex
}

// invOf identifies fr's invocation for the storage texture writer
// records (function mode has no stores: 1).
func invOf(fr *frame) int32 {
	if fr.sh != nil {
		return fr.sh.inv
	}
	return 1
}

// wrap applies an address mode to texel index i of a level of size n.
func wrap(i int64, n int, mode string) int64 {
	m := int64(n)
	switch mode {
	case "repeat":
		return ((i % m) + m) % m
	case "mirror-repeat":
		p := ((i % (2 * m)) + 2*m) % (2 * m)
		if p >= m {
			p = 2*m - 1 - p
		}
		return p
	}
	return min(max(i, 0), m-1)
}

// index returns the texel index of (level, x, y, z-or-layer, sample),
// false when out of bounds.
func (t *texInst) index(l int64, xyz [3]int64, s int64) (int, bool) {
	if l < 0 || l >= int64(len(t.levels)) {
		return 0, false
	}
	w, h, d := t.levelSize(int(l))
	samples := int64(max(t.data.SampleCount, 1))
	if xyz[0] < 0 || xyz[0] >= int64(w) || xyz[1] < 0 || xyz[1] >= int64(h) || xyz[2] < 0 || xyz[2] >= int64(d) || s < 0 || s >= samples {
		return 0, false
	}
	return int(((xyz[2]*int64(h)+xyz[1])*int64(w)+xyz[0])*samples + s), true
}

// load writes texel idx of level l, decoded, to out (n slots: 4, or 1
// for a depth texture).
func (t *texInst) load(fr *frame, l, idx int, out, n int32, inexact, race int32) {
	codes := t.levels[l][4*idx : 4*idx+4]
	anyv := t.any[l][idx]
	for j := 0; j < 4 && !anyv; j++ {
		_, alt := t.alts[l][4*idx+j]
		anyv = alt // a store left one of several codes: any value (for now)
	}
	if t.v.T.Tex.Class == ir.TexStorage && t.v.T.Tex.Access == ir.TexReadWrite {
		if w := t.writer[l][idx]; w != 0 && w != invOf(fr) {
			anyv = true
		}
	}
	for j := int32(0); j < n; j++ {
		if anyv {
			fr.s[out+j] = slot{why: -race}
			continue
		}
		var bits uint32
		var tol float64
		if int(j) < t.f.channels || t.f.bgra {
			bits, tol = t.f.decode(codes[j])
		} else if j == 3 {
			// Missing alpha is 1 (Vulkan "Conversion to RGBA").
			bits = 1
			if t.f.kind == "unorm" || t.f.kind == "snorm" || t.f.kind == "float" {
				bits = math.Float32bits(1)
			}
		}
		s := slot{bits: bits}
		if tol > 0 {
			s.why, s.err = inexact, tol
		}
		fr.s[out+j] = s
	}
}

// store stores the value at slots of value to texel idx of level l: per
// channel the code the conversion gives, or the set of codes it may give
// (the value's tolerance and Vulkan's two-closest-integers rule).
func (t *texInst) store(fr *frame, l, idx int, value cexpr, race int32) {
	forked := fr.fork != nil && len(fr.fork.taken) > 0
	var codes [4]uint32
	alts := map[int][]uint32{}
	ok := !forked
	for j := 0; j < t.f.channels && ok; j++ {
		sl := fr.s[value.loc+int32(j)]
		if sl.why < 0 {
			alts[j] = nil
			continue
		}
		cs, good := t.f.encodeTol(sl.bits, sl.tol())
		switch {
		case !good:
			alts[j] = nil
		case len(cs) == 1:
			codes[j] = cs[0]
		default:
			codes[j] = cs[0]
			alts[j] = cs
		}
	}
	prev := t.writer[l][idx]
	if prev != 0 && prev != invOf(fr) {
		old := t.levels[l][4*idx : 4*idx+4]
		_, a0 := t.alts[l][4*idx]
		_, a1 := t.alts[l][4*idx+1]
		_, a2 := t.alts[l][4*idx+2]
		_, a3 := t.alts[l][4*idx+3]
		if [4]uint32(old) != codes || len(alts) > 0 || a0 || a1 || a2 || a3 {
			ok = false // two invocations store different values: either may win
		}
	}
	t.writer[l][idx] = invOf(fr)
	if !ok {
		t.any[l][idx] = true
		return
	}
	copy(t.levels[l][4*idx:4*idx+4], codes[:])
	for j := 0; j < 4; j++ {
		delete(t.alts[l], 4*idx+j)
	}
	for j, cs := range alts {
		t.alts[l][4*idx+j] = cs
	}
}

// encodeTol is encode for a value known within tol: the union of the
// codes every value in [v-tol, v+tol] may give, at most 4, else any.
func (f texFormat) encodeTol(v uint32, tol float64) ([]uint32, bool) {
	if tol == 0 {
		return f.encode(v)
	}
	if f.kind != "unorm" && f.kind != "snorm" && f.kind != "float" {
		return nil, false
	}
	x := float64(math.Float32frombits(v))
	lo, ok1 := f.encode(math.Float32bits(float32(x - tol)))
	hi, ok2 := f.encode(math.Float32bits(float32(x + tol)))
	if !ok1 || !ok2 {
		return nil, false
	}
	a, b := lo[0], hi[len(hi)-1]
	if f.kind == "float" || f.kind == "snorm" {
		// Codes are not ordered like values across zero (sign bit, two's
		// complement): keep the simple case only.
		if a > b {
			return nil, false
		}
	}
	if b < a || b-a > 3 {
		return nil, false
	}
	var cs []uint32
	for c := a; c <= b; c++ {
		cs = append(cs, c)
	}
	return cs, true
}

// poisonAll makes every texel of t any value.
func (t *texInst) poisonAll() {
	for l := range t.any {
		for i := range t.any[l] {
			t.any[l][i] = true
		}
	}
}

// TextureOutput is the final content of a storage texture the entry point
// stores to: per mip level, the channel codes of each texel (Channels per
// texel, the format's byte order: what the GPU's texel bytes hold, as
// little-endian integers of the channel's width), and which are any value.
type TextureOutput struct {
	Format   string
	Channels int
	Levels   [][]uint32
	Any      [][]bool // per level, per channel code; nil where every code is fixed
	// Allowed: per level, channel code index → the codes allowed there
	// (a store whose conversion WGSL and Vulkan leave a choice of, e.g.
	// 127.5 → 127 or 128); Levels holds one of them.
	Allowed []map[int][]uint32
}

// Bytes returns level l as texel bytes (tightly packed), the form the
// harness reads a storage texture back in.
func (o TextureOutput) Bytes(l int) []byte {
	f, _ := parseTexFormat(o.Format)
	cb := f.bits / 8
	out := make([]byte, 0, len(o.Levels[l])*cb)
	for _, x := range o.Levels[l] {
		for k := 0; k < cb; k++ {
			out = append(out, byte(x>>(8*k)))
		}
	}
	return out
}

// outputs returns the storage textures the entry point stores to.
func (st *texState) outputs() map[string]TextureOutput {
	if st == nil {
		return nil
	}
	res := map[string]TextureOutput{}
	for name, t := range st.tex {
		if !t.stored {
			continue
		}
		o := TextureOutput{Format: t.f.name, Channels: t.f.channels}
		for l := range t.levels {
			n := len(t.any[l])
			codes := make([]uint32, 0, n*t.f.channels)
			var anys []bool
			allowed := map[int][]uint32{}
			for i := 0; i < n; i++ {
				for j := 0; j < t.f.channels; j++ {
					src := j
					if t.f.bgra && j != 3 {
						src = 2 - j
					}
					codes = append(codes, t.levels[l][4*i+src])
					cs, alt := t.alts[l][4*i+src]
					if alt && cs != nil && !t.any[l][i] {
						allowed[i*t.f.channels+j] = cs
					}
					if t.any[l][i] || alt && cs == nil {
						if anys == nil {
							anys = make([]bool, n*t.f.channels)
						}
						anys[i*t.f.channels+j] = true
					}
				}
			}
			o.Levels = append(o.Levels, codes)
			o.Any = append(o.Any, anys)
			o.Allowed = append(o.Allowed, allowed)
		}
		res[name] = o
	}
	return res
}

// slot is the f32 leaf an interval of allowed channel values becomes: its
// midpoint, inexact by half its width plus the midpoint's own rounding
// (exact when the interval is one value), inexact naming the reason.
func (iv interval) slot(inexact int32) slot {
	mid := float32((iv.lo + iv.hi) / 2)
	tol := math.Max(iv.hi-float64(mid), float64(mid)-iv.lo)
	sl := slot{bits: math.Float32bits(mid)}
	if tol > 0 {
		sl.why, sl.err = inexact, tol+ulp(float64(mid))
	}
	return sl
}
