package gen

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// Textures in compute entry points (the "textures" profile,
// Profile.Textures; issue 24): a share of the entry points also has
// texture and sampler bindings, declared after the buffers (group 0,
// bindings 6 on):
//
//	@group(0) @binding(6) var tin0: texture_2d<T>;          (or texture_2d_array<T>; T f32, u32 or i32)
//	@group(0) @binding(7) var smp0: sampler;                 (optional: nearest filtering, any address modes)
//	                      var smpL: sampler;                 (optional, bound last: linear filtering)
//	@group(0) @binding(8) var tout0: texture_storage_2d<F, write>;   (or texture_storage_2d_array<F, write>)
//
// Their contents are part of the program (Program.Textures and
// Program.Samplers), drawn with it from its seed. The code:
//
//   - after a phase's per-invocation statements, reads of the sampled
//     textures: textureLoad at a coordinate (and level, and layer) taken
//     from acc or gi and reduced into the level's size (constants or
//     textureDimensions(t, level)), textureSampleLevel with a nearest
//     sampler at a texel centre (a coordinate ((c + 0.5) · 2^-k, exact
//     in f32, the sizes being powers of two) that may lie outside [0, 1),
//     where the address modes apply), at an integral level;
//     textureDimensions, textureNumLevels and textureNumLayers; combined
//     into acc;
//   - textureStore of each storage texture at the invocation's own texel
//     (gi's texel: (gi % W, gi / W), or (gi % W, gi / W % H) and layer gi
//     / (W·H) of an array; the storage texture has at least one texel per
//     invocation), once after a phase or at the end: race-free as out[gi]
//     is. An rgba8unorm store's channel may be a linear sample of an
//     rgba8unorm texture (linearChannel), judged by the reference's
//     interval.
//
// Every value stays exact: sampled contents are integers (float formats:
// |v| ≤ 2048, exact in binary16) or unorm bytes, whose reads (c / 255,
// which the reference carries with a tolerance) reach acc only as
// u32(x · 255 + 0.5), which is c on every conforming implementation; no
// read is out of bounds, and nearest filtering at a texel centre is
// exact in the reference (interp/texture.go). Stored values are
// conditioned to the format (8/16-bit integers masked or clamped into
// the channel, float16 within ±65504, unorm values that may scale to a
// fraction: the reference's allowed set of the two closest codes).

// texBinding is the first binding number of the texture bindings.
const texBinding = 6

// sampledTex is a sampled texture binding.
type sampledTex struct {
	id      *ir.Ident
	dim     ir.TexDim
	kind    ir.Kind // the sampled type
	unorm   bool    // rgba8unorm: reads are c / 255 (inexact)
	w, h    int     // level 0
	layers  int     // 2d_array
	levels  int
	smpOK   bool // f32: textureSampleLevel with a sampler
	texData *interp.Texture
}

// storageTex is a write-only storage texture binding.
type storageTex struct {
	id     *ir.Ident
	dim    ir.TexDim
	format ir.TexFormat
	w, h   int
	layers int
}

// texGen generates an entry point's texture code.
type texGen struct {
	cg      *computeGen
	r       *chooser
	in      []*sampledTex
	smps    []*ir.Ident
	out     []*storageTex
	stored  map[*storageTex]bool
	seq     int
	texs    map[string]*interp.Texture
	samps   map[string]*interp.Sampler
	binding int
	linear  *ir.Ident // a linear sampler, when an rgba8unorm texture feeds an rgba8unorm store
	// depth and cmp are Profile.TexCompare's texture_depth_2d and
	// sampler_comparison (nil: absent); dw and dh the depth texture's
	// size.
	depth, cmp *ir.Ident
	dw, dh     int
}

var (
	sampledFormats = map[ir.Kind][]string{
		ir.KindF32: {"rgba8unorm", "r32float", "rg32float", "rgba32float", "rgba16float"},
		ir.KindU32: {"rgba8uint", "rgba16uint", "r32uint", "rg32uint", "rgba32uint"},
		ir.KindI32: {"rgba8sint", "rgba16sint", "r32sint", "rgba32sint"},
	}
	storageFormats = []ir.TexFormat{ir.FmtRGBA8Unorm, ir.FmtRGBA8Uint, ir.FmtRGBA8Sint, ir.FmtRGBA16Uint, ir.FmtRGBA16Sint,
		ir.FmtRGBA16Float, ir.FmtR32Uint, ir.FmtR32Sint, ir.FmtR32Float, ir.FmtRG32Uint, ir.FmtRG32Float,
		ir.FmtRGBA32Uint, ir.FmtRGBA32Sint, ir.FmtRGBA32Float}
	texAddressModes = []string{"clamp-to-edge", "repeat", "mirror-repeat"}
)

// declare adds the texture and sampler bindings and draws their
// contents.
func (tg *texGen) declare() {
	r := tg.r
	m := tg.cg.g.m
	tg.texs, tg.samps, tg.stored = map[string]*interp.Texture{}, map[string]*interp.Sampler{}, map[*storageTex]bool{}
	tg.binding = texBinding
	add := func(name string, t *ir.Type) *ir.Ident {
		m.Textures = append(m.Textures, &ir.TextureVar{Name: name, T: t, Group: 0, Binding: tg.binding})
		tg.binding++
		return &ir.Ident{Name: name, T: t, Ref: ir.RefHandle}
	}
	for i, n := 0, r.between(1, 2); i < n; i++ {
		st := &sampledTex{dim: ir.Tex2D, layers: 1, levels: 1}
		if r.chance(30) {
			st.dim, st.layers = ir.Tex2DArray, r.between(1, 3)
		}
		st.kind = []ir.Kind{ir.KindF32, ir.KindU32, ir.KindI32}[r.weighted(50, 25, 25)]
		fs := sampledFormats[st.kind]
		format := fs[r.intn(len(fs))]
		st.unorm = format == "rgba8unorm"
		st.w, st.h = 1<<r.between(0, 4), 1<<r.between(0, 3)
		if st.w >= 2 && st.h >= 2 && r.chance(30) {
			st.levels = 2
		}
		st.smpOK = st.kind == ir.KindF32
		sampled := map[ir.Kind]*ir.Type{ir.KindF32: ir.F32, ir.KindU32: ir.U32, ir.KindI32: ir.I32}[st.kind]
		st.id = add(fmt.Sprintf("tin%d", i), ir.TextureOf(ir.TexSampled, st.dim, sampled, 0, 0))
		st.texData = tg.contents(format, st.w, st.h, st.layers, st.levels, false)
		tg.texs[st.id.Name] = st.texData
		tg.in = append(tg.in, st)
	}
	anyF32 := false
	for _, st := range tg.in {
		anyF32 = anyF32 || st.smpOK
	}
	if anyF32 {
		for i, n := 0, r.between(1, 2); i < n; i++ {
			id := add(fmt.Sprintf("smp%d", i), ir.SamplerOf(false))
			tg.samps[id.Name] = &interp.Sampler{AddressModeU: texAddressModes[r.intn(3)], AddressModeV: texAddressModes[r.intn(3)],
				AddressModeW: "clamp-to-edge", MagFilter: "nearest", MinFilter: "nearest", MipmapFilter: "nearest", LodMaxClamp: 32}
			tg.smps = append(tg.smps, id)
		}
	}
	n := tg.cg.n
	for i, k := 0, r.between(1, 2); i < k; i++ {
		ot := &storageTex{dim: ir.Tex2D, format: storageFormats[r.intn(len(storageFormats))], layers: 1}
		if r.chance(30) {
			ot.dim = ir.Tex2DArray
			ot.w, ot.h = 1<<r.between(0, 3), 1<<r.between(0, 2)
			ot.layers = (n + ot.w*ot.h - 1) / (ot.w * ot.h)
		} else {
			ot.w = 1 << r.between(0, 4)
			ot.h = (n + ot.w - 1) / ot.w
			if r.chance(30) {
				ot.h++
			}
		}
		ot.id = add(fmt.Sprintf("tout%d", i), ir.TextureOf(ir.TexStorage, ot.dim, nil, ot.format, ir.TexWrite))
		tg.texs[ot.id.Name] = tg.contents(ot.format.String(), ot.w, ot.h, ot.layers, 1, r.chance(50))
		tg.out = append(tg.out, ot)
	}
	// A linear sampler (drawn last, so that the draws above are those of
	// programs without one): its samples of an rgba8unorm texture reach
	// only rgba8unorm stores (linearChannel; an rgba8unorm storage
	// texture toutL is added when there is none).
	unormIn, unormOut := false, false
	for _, st := range tg.in {
		unormIn = unormIn || st.unorm
	}
	for _, ot := range tg.out {
		unormOut = unormOut || ot.format == ir.FmtRGBA8Unorm
	}
	if unormIn && r.chance(60) {
		if !unormOut {
			// an rgba8unorm storage texture for the linear samples
			ot := &storageTex{dim: ir.Tex2D, format: ir.FmtRGBA8Unorm, layers: 1}
			ot.w = 1 << r.between(0, 4)
			ot.h = (n + ot.w - 1) / ot.w
			ot.id = add("toutL", ir.TextureOf(ir.TexStorage, ot.dim, nil, ot.format, ir.TexWrite))
			tg.texs[ot.id.Name] = tg.contents(ot.format.String(), ot.w, ot.h, 1, 1, r.chance(50))
			tg.out = append(tg.out, ot)
		}
		tg.linear = add("smpL", ir.SamplerOf(false))
		tg.samps[tg.linear.Name] = &interp.Sampler{AddressModeU: texAddressModes[r.intn(3)], AddressModeV: texAddressModes[r.intn(3)],
			AddressModeW: "clamp-to-edge", MagFilter: "linear", MinFilter: "linear", MipmapFilter: "nearest", LodMaxClamp: 32}
	}
	// A depth texture and a comparison sampler (drawn last, for the same
	// reason), for textureSampleCompareLevel.
	if pc := tg.cg.g.prof.TexCompare; pc > 0 && r.chance(pc) {
		tg.dw, tg.dh = 1<<r.between(0, 4), 1<<r.between(0, 3)
		tg.depth = add("tdep", ir.TextureOf(ir.TexDepth, ir.Tex2D, nil, 0, 0))
		tg.texs[tg.depth.Name] = tg.depthContents(tg.dw, tg.dh)
		tg.cmp = add("smpC", ir.SamplerOf(true))
		fns := []string{"never", "less", "equal", "less-equal", "greater", "not-equal", "greater-equal", "always"}
		tg.samps[tg.cmp.Name] = &interp.Sampler{AddressModeU: texAddressModes[r.intn(3)], AddressModeV: texAddressModes[r.intn(3)],
			AddressModeW: "clamp-to-edge", MagFilter: "nearest", MinFilter: "nearest", MipmapFilter: "nearest", LodMaxClamp: 32,
			Compare: fns[r.intn(len(fns))]}
	}
}

// depthContents draws a depth32float texture's texels: k / 8 for k in
// [0, 8], exact in every format and path a depth value takes.
func (tg *texGen) depthContents(w, h int) *interp.Texture {
	data := make([]byte, 4*w*h)
	for i := range w * h {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(tg.r.intn(9))/8))
	}
	return &interp.Texture{Format: "depth32float", Width: w, Height: h, DepthOrLayers: 1, MipLevels: 1, Data: [][]byte{data}}
}

// offset returns a constant texel offset vec2<i32> with components in
// [-8, 7] (WGSL #texturesamplelevel: a const-expression in that range).
func (tg *texGen) offset() ir.Expr {
	r := tg.r
	return lit(ir.Value{Type: ir.Vec(2, ir.I32), Elems: []ir.Value{ir.I32Val(int32(r.between(-8, 7))), ir.I32Val(int32(r.between(-8, 7)))}})
}

// texelCentre returns a let of texture coordinates at a texel centre of
// a w×h level 0 from s: ((c + 0.5) · (1/W, 1/H)), c from (-W, -H) to
// (2W, 2H), so that the address modes apply outside [0, 1); exact in
// f32, the sizes being powers of two.
func (tg *texGen) texelCentre(s ir.Expr, w, h int) ir.Expr {
	cx := bin(ir.OpSub, convert(ir.I32, bin(ir.OpRem, s, uLit(3*w))), lit(ir.I32Val(int32(w))))
	cy := bin(ir.OpSub, convert(ir.I32, bin(ir.OpRem, bin(ir.OpDiv, s, uLit(3*w)), uLit(3*h))), lit(ir.I32Val(int32(h))))
	v2 := ir.Vec(2, ir.F32)
	f := func(x float32) ir.Value { return ir.F32Val(x) }
	half := lit(ir.Value{Type: v2, Elems: []ir.Value{f(0.5), f(0.5)}})
	scale := lit(ir.Value{Type: v2, Elems: []ir.Value{f(1 / float32(w)), f(1 / float32(h))}})
	coords := bin(ir.OpMul, bin(ir.OpAdd, convert(v2, construct(ir.Vec(2, ir.I32), cx, cy)), half), scale)
	return tg.cg.let(tg.name("tc"), coords, false)
}

// sampleCompare appends a textureSampleCompareLevel of the depth
// texture at a texel centre (with a texel offset, sometimes), combined
// into acc as u32(result). depth_ref is f32(s % 9) / 8 + 1/16, never a
// texel's value k / 8 nor within any texel's tolerance of one, so that
// with nearest filtering each comparison passes or fails exactly: the
// result is 0.0 or 1.0 (WGSL #texturesamplecomparelevel; WebGPU
// GPUCompareFunction).
func (tg *texGen) sampleCompare() {
	cg, r := tg.cg, tg.r
	s := tg.source()
	cv := tg.texelCentre(s, tg.dw, tg.dh)
	ref := bin(ir.OpAdd, bin(ir.OpDiv, convert(ir.F32, bin(ir.OpRem, s, uLit(9))), lit(ir.F32Val(8))), lit(ir.F32Val(1.0/16)))
	args := []ir.Expr{tg.depth, tg.cmp, cv, cg.let(tg.name("tr"), ref, false)}
	if r.chance(40) {
		args = append(args, tg.offset())
	}
	res := cg.let(tg.name("tx"), tg.call(ir.TexSampleCompareLevel, args...), false)
	comp := cg.let(tg.name("tb"), convert(ir.U32, res), true)
	cg.stmts = append(cg.stmts, &ir.Assign{LHS: cg.acc, RHS: cg.combine(cg.acc, cg.fromScalar(comp))})
}

// contents draws a texture's texels: unorm bytes, integers, or integral
// floats within ±2048 (zero when zero is set).
func (tg *texGen) contents(format string, w, h, layers, levels int, zero bool) *interp.Texture {
	r := tg.r
	fi := formatInfo(format)
	t := &interp.Texture{Format: format, Width: w, Height: h, DepthOrLayers: layers, MipLevels: levels}
	for l := 0; l < levels; l++ {
		lw, lh := max(w>>l, 1), max(h>>l, 1)
		n := lw * lh * layers * fi.Channels
		data := make([]byte, n*fi.Bytes)
		for i := 0; i < n && !zero; i++ {
			var code uint32
			switch {
			case fi.Norm == "unorm":
				code = uint32(r.intn(256))
				if r.chance(15) {
					code = []uint32{0, 255}[r.intn(2)]
				}
			case fi.Norm == "float":
				v := float32(r.between(-2048, 2048))
				if r.chance(50) {
					v = float32(r.between(-16, 16))
				}
				code = math.Float32bits(v)
				if fi.Bytes == 2 {
					code = uint32(f16Bits(v))
				}
			case fi.Channel == ir.KindU32:
				bits := uint(fi.Bytes * 8)
				code = uint32(r.intn(256))
				if r.chance(30) {
					code = r.u32()
				}
				if bits < 32 {
					code &= 1<<bits - 1
				}
			default: // sint
				bits := uint(fi.Bytes * 8)
				v := int32(r.between(-128, 127))
				if r.chance(30) {
					v = int32(r.u32())
				}
				if bits < 32 {
					v = v << (32 - bits) >> (32 - bits)
				}
				code = uint32(v)
				if bits < 32 {
					code &= 1<<bits - 1
				}
			}
			switch fi.Bytes {
			case 1:
				data[i] = byte(code)
			case 2:
				binary.LittleEndian.PutUint16(data[2*i:], uint16(code))
			default:
				binary.LittleEndian.PutUint32(data[4*i:], code)
			}
		}
		t.Data = append(t.Data, data)
	}
	return t
}

func formatInfo(name string) ir.TexFormatInfo {
	for _, f := range ir.TexFormats {
		if f.Name == name {
			return f
		}
	}
	panic("gen: unknown texture format " + name)
}

// f16Bits is the binary16 encoding of v, an integer with |v| ≤ 2048
// (exact).
func f16Bits(v float32) uint16 {
	if v == 0 {
		return 0
	}
	b := math.Float32bits(v)
	sign := uint16(b>>16) & 0x8000
	exp := int((b>>23)&0xff) - 127 + 15
	mant := uint16((b >> 13) & 0x3ff)
	return sign | uint16(exp)<<10 | mant
}

func (tg *texGen) call(op ir.TexOp, args ...ir.Expr) *ir.TextureCall {
	form, err := ir.TextureForm(op, args[0].Type(), len(args), false)
	if err != nil {
		panic(fmt.Sprintf("gen: %v (generator bug)", err))
	}
	return &ir.TextureCall{Op: op, Form: form, Args: args, T: ir.TextureResultType(op, args[0].Type())}
}

func (tg *texGen) name(prefix string) string {
	tg.seq++
	return fmt.Sprintf("%s%d", prefix, tg.seq-1)
}

func uLit(v int) ir.Expr { return lit(ir.U32Val(uint32(v))) }

// source is a u32 the coordinates of a read come from: acc's, gi's or
// x's first component, bound to a let.
func (tg *texGen) source() ir.Expr {
	cg := tg.cg
	var e ir.Expr
	switch tg.r.weighted(60, 30, 10) {
	case 0:
		e = cg.scalarOf(ir.U32)
	case 1:
		e = cg.gi
	default:
		var x ir.Expr = cg.x
		if cg.t.Kind == ir.KindVec {
			x = swizzle(x, 0)
		}
		e = convertScalar(x, ir.U32)
	}
	return cg.let(tg.name("ts"), e, false)
}

// reads appends one or two reads of the sampled textures, combined into
// acc.
func (tg *texGen) reads() {
	r := tg.r
	for i, n := 0, r.between(1, 2); i < n; i++ {
		st := tg.in[r.intn(len(tg.in))]
		switch {
		case tg.depth != nil && r.chance(35):
			tg.sampleCompare()
		case r.chance(15):
			tg.query(st)
		case st.smpOK && len(tg.smps) > 0 && r.chance(45):
			tg.sample(st)
		default:
			tg.load(st)
		}
	}
}

// query combines textureDimensions or textureNumLevels of st into acc.
func (tg *texGen) query(st *sampledTex) {
	cg, r := tg.cg, tg.r
	var e ir.Expr
	switch r.intn(4) {
	case 0:
		e = swizzle(tg.call(ir.TexDimensions, st.id), uint8(r.intn(2)))
	case 1:
		e = swizzle(tg.call(ir.TexDimensions, st.id, lit(ir.I32Val(int32(r.intn(st.levels))))), uint8(r.intn(2)))
	case 2:
		e = tg.call(ir.TexNumLevels, st.id)
	default:
		e = swizzle(tg.call(ir.TexDimensions, st.id), 1)
		if st.dim == ir.Tex2DArray && r.chance(50) {
			// naga's SPIR-V reader drops the layer component of
			// OpImageQuerySizeLod on an arrayed image and rejects the
			// module (findings/compute/naga_spv_in_num_layers.wgsl): a
			// known bug, one compile-error signature per adapter
			// (README "Finding bugs": --baseline).
			e = tg.call(ir.TexNumLayers, st.id)
		}
	}
	q := cg.let(tg.name("tq"), e, true)
	cg.stmts = append(cg.stmts, &ir.Assign{LHS: cg.acc, RHS: cg.combine(cg.acc, cg.fromScalar(q))})
}

// coord returns an integer coordinate of level l of st from s (in
// range): vec2u or vec2i.
func (tg *texGen) coord(st *sampledTex, l int, s ir.Expr) (ir.Expr, ir.Expr) {
	cg, r := tg.cg, tg.r
	lw, lh := max(st.w>>l, 1), max(st.h>>l, 1)
	var wx, hx ir.Expr = uLit(lw), uLit(lh)
	if r.chance(40) {
		d := cg.let(tg.name("td"), tg.call(ir.TexDimensions, st.id, lit(ir.I32Val(int32(l)))), false)
		wx, hx = swizzle(d, 0), swizzle(d, 1)
	}
	var x, y ir.Expr = bin(ir.OpRem, s, wx), bin(ir.OpRem, bin(ir.OpDiv, s, wx), hx)
	var layer ir.Expr
	if st.dim == ir.Tex2DArray {
		layer = bin(ir.OpRem, bin(ir.OpDiv, s, uLit(lw*lh)), uLit(st.layers))
	}
	if r.chance(30) {
		x, y = convert(ir.I32, x), convert(ir.I32, y)
		if layer != nil && r.chance(50) {
			layer = convert(ir.I32, layer)
		}
		return construct(ir.Vec(2, ir.I32), x, y), layer
	}
	return construct(ir.Vec(2, ir.U32), x, y), layer
}

// load appends a textureLoad of st combined into acc.
func (tg *texGen) load(st *sampledTex) {
	s := tg.source()
	l := tg.r.intn(st.levels)
	c, layer := tg.coord(st, l, s)
	// An i32 level: wgpu-native's naga rejects a u32 one (gfx-rs/wgpu
	// #5433, fixed in naga 25; findings/naga_textureload_u32_level.wgsl),
	// which would fail every program that has one.
	var lv ir.Expr = lit(ir.I32Val(int32(l)))
	args := []ir.Expr{st.id, c}
	if layer != nil {
		args = append(args, layer)
	}
	args = append(args, lv)
	tg.texel(st, tg.call(ir.TexLoad, args...))
}

// sample appends a textureSampleLevel of st at a texel centre combined
// into acc: ((c + 0.5) · (1/W, 1/H)), c from (-W, -H) to (2W, 2H), so
// the address modes apply outside [0, 1).
func (tg *texGen) sample(st *sampledTex) {
	cg, r := tg.cg, tg.r
	s := tg.source()
	l := r.intn(st.levels)
	w, h := st.w, st.h
	cx := bin(ir.OpSub, convert(ir.I32, bin(ir.OpRem, s, uLit(3*w))), lit(ir.I32Val(int32(w))))
	cy := bin(ir.OpSub, convert(ir.I32, bin(ir.OpRem, bin(ir.OpDiv, s, uLit(3*w)), uLit(3*h))), lit(ir.I32Val(int32(h))))
	v2 := ir.Vec(2, ir.F32)
	f := func(x float32) ir.Value { return ir.F32Val(x) }
	half := lit(ir.Value{Type: v2, Elems: []ir.Value{f(0.5), f(0.5)}})
	scale := lit(ir.Value{Type: v2, Elems: []ir.Value{f(1 / float32(w)), f(1 / float32(h))}})
	coords := bin(ir.OpMul, bin(ir.OpAdd, convert(v2, construct(ir.Vec(2, ir.I32), cx, cy)), half), scale)
	cv := cg.let(tg.name("tc"), coords, false)
	args := []ir.Expr{st.id, tg.smps[r.intn(len(tg.smps))], cv}
	if st.dim == ir.Tex2DArray {
		args = append(args, bin(ir.OpRem, s, uLit(st.layers)))
	}
	args = append(args, lit(ir.F32Val(float32(l))))
	if tg.cg.g.prof.TexCompare > 0 && r.chance(30) {
		// A texel offset moves the texel centre by whole texels of
		// level l: still a texel centre, where the address modes apply.
		args = append(args, tg.offset())
	}
	tg.texel(st, tg.call(ir.TexSampleLevel, args...))
}

// texel binds a read's texel to a let (visible to the generated
// statements when its value is exact) and combines a component into acc.
func (tg *texGen) texel(st *sampledTex, e ir.Expr) {
	cg, r := tg.cg, tg.r
	t := cg.let(tg.name("tx"), e, !st.unorm)
	var comp ir.Expr = swizzle(t, uint8(r.intn(4)))
	if st.unorm {
		// c / 255 within a tolerance: u32(x · 255 + 0.5) is c.
		comp = convert(ir.U32, bin(ir.OpAdd, bin(ir.OpMul, comp, lit(ir.F32Val(255))), lit(ir.F32Val(0.5))))
		comp = cg.let(tg.name("tb"), comp, true)
	}
	cg.stmts = append(cg.stmts, &ir.Assign{LHS: cg.acc, RHS: cg.combine(cg.acc, cg.fromScalar(comp))})
}

// store appends a textureStore of ot at the invocation's own texel.
func (tg *texGen) store(ot *storageTex) {
	cg, r := tg.cg, tg.r
	tg.stored[ot] = true
	var w ir.Expr = uLit(ot.w)
	if r.chance(30) {
		w = swizzle(cg.let(tg.name("tw"), tg.call(ir.TexDimensions, ot.id), false), 0)
	}
	var x, y, layer ir.Expr
	x = bin(ir.OpRem, cg.gi, w)
	y = bin(ir.OpDiv, cg.gi, w)
	if ot.dim == ir.Tex2DArray {
		y = bin(ir.OpRem, y, uLit(ot.h))
		layer = bin(ir.OpDiv, cg.gi, uLit(ot.w*ot.h))
	}
	var c ir.Expr = construct(ir.Vec(2, ir.U32), x, y)
	if r.chance(30) {
		c = construct(ir.Vec(2, ir.I32), convert(ir.I32, x), convert(ir.I32, y))
	}
	fi := ot.format.Info()
	comps := make([]ir.Expr, 4)
	for i := range comps {
		if ot.format == ir.FmtRGBA8Unorm && tg.linear != nil && r.chance(40) {
			comps[i] = tg.linearChannel()
			continue
		}
		comps[i] = tg.channel(fi)
	}
	elem := map[ir.Kind]*ir.Type{ir.KindF32: ir.F32, ir.KindU32: ir.U32, ir.KindI32: ir.I32}[fi.Channel]
	v := cg.let(tg.name("tv"), construct(ir.Vec(4, elem), comps...), false)
	args := []ir.Expr{ot.id, c}
	if layer != nil {
		args = append(args, layer)
	}
	args = append(args, v)
	cg.stmts = append(cg.stmts, &ir.ExprStmt{X: tg.call(ir.TexStore, args...)})
}

// linearChannel returns a channel of a linear sample of an rgba8unorm
// texture at level 0: at ((c + k/8) · (1/W, 1/H)), c from the source
// (within the texture) and k in 1…7 (exact f32, the sizes being powers of
// two; the address modes apply near the edges). The reference gives the
// filtered value as an interval (sub-texel precision ≥ 4 bits, its
// arithmetic slack), within [0, 1]; stored to an rgba8unorm channel it
// allows the codes the interval spans (at most 4, never any value).
func (tg *texGen) linearChannel() ir.Expr {
	cg, r := tg.cg, tg.r
	var unorm []*sampledTex
	for _, st := range tg.in {
		if st.unorm {
			unorm = append(unorm, st)
		}
	}
	st := unorm[r.intn(len(unorm))]
	s := tg.source()
	w, h := st.w, st.h
	v2 := ir.Vec(2, ir.F32)
	f := func(x float32) ir.Value { return ir.F32Val(x) }
	cx := convert(ir.F32, bin(ir.OpRem, s, uLit(w)))
	cy := convert(ir.F32, bin(ir.OpRem, bin(ir.OpDiv, s, uLit(w)), uLit(h)))
	frac := lit(ir.Value{Type: v2, Elems: []ir.Value{f(float32(r.between(1, 7)) / 8), f(float32(r.between(1, 7)) / 8)}})
	scale := lit(ir.Value{Type: v2, Elems: []ir.Value{f(1 / float32(w)), f(1 / float32(h))}})
	cv := cg.let(tg.name("tl"), bin(ir.OpMul, bin(ir.OpAdd, construct(v2, cx, cy), frac), scale), false)
	args := []ir.Expr{st.id, tg.linear, cv}
	if st.dim == ir.Tex2DArray {
		args = append(args, bin(ir.OpRem, s, uLit(st.layers)))
	}
	args = append(args, lit(ir.F32Val(0)))
	t := cg.let(tg.name("tx"), tg.call(ir.TexSampleLevel, args...), false)
	return swizzle(t, uint8(r.intn(4)))
}

// channel returns a value for one channel of format fi, from acc (or a
// literal), conditioned to fit the channel.
func (tg *texGen) channel(fi ir.TexFormatInfo) ir.Expr {
	cg, r := tg.cg, tg.r
	if r.chance(15) {
		switch fi.Channel {
		case ir.KindU32:
			return uLit(r.intn(256))
		case ir.KindI32:
			return lit(ir.I32Val(int32(r.between(-128, 127))))
		}
		return lit(ir.F32Val(float32(r.between(-4, 8)) / 4))
	}
	switch fi.Channel {
	case ir.KindU32:
		e := cg.scalarOf(ir.U32)
		if fi.Bytes < 4 {
			e = bin(ir.OpAnd, e, uLit(1<<(8*fi.Bytes)-1))
		}
		return e
	case ir.KindI32:
		e := cg.scalarOf(ir.I32)
		if fi.Bytes < 4 {
			lim := int32(1) << (8*fi.Bytes - 1)
			e = builtin(ir.BClamp, e, lit(ir.I32Val(-lim)), lit(ir.I32Val(lim-1)))
		}
		return e
	}
	switch {
	case fi.Norm == "unorm":
		// A byte scaled by 1/256 or 1/4 (the closest codes: an allowed
		// set where the scaled value is not an integer), or a value
		// clamped to [0, 1].
		b := bin(ir.OpAnd, cg.scalarOf(ir.U32), uLit(255))
		switch r.intn(3) {
		case 0:
			return bin(ir.OpMul, convert(ir.F32, b), lit(ir.F32Val(1.0/256)))
		case 1:
			return bin(ir.OpMul, convert(ir.F32, bin(ir.OpAnd, b, uLit(7))), lit(ir.F32Val(0.25)))
		}
		return cg.scalarOf(ir.F32)
	case fi.Bytes == 2:
		return builtin(ir.BClamp, cg.scalarOf(ir.F32), lit(ir.F32Val(-65504)), lit(ir.F32Val(65504)))
	}
	return cg.scalarOf(ir.F32)
}

// phase appends the texture code after a phase's statements: reads, and
// sometimes a store.
func (tg *texGen) phase() {
	tg.reads()
	if tg.r.chance(30) {
		tg.store(tg.out[tg.r.intn(len(tg.out))])
	}
}

// final appends the last stores: every storage texture not stored yet,
// and sometimes one again.
func (tg *texGen) final() {
	for _, ot := range tg.out {
		if !tg.stored[ot] || tg.r.chance(40) {
			tg.store(ot)
		}
	}
}
