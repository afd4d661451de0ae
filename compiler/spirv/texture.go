package spirv

import (
	"github.com/gpudiff/gpudiff/ir"
)

// Textures and samplers (issue 24; ir/texture.go). A texture binding is
// a UniformConstant OpVariable of an OpTypeImage (SPIR-V §3.52.6:
// Sampled 1 for sampled and depth textures, 2 for storage textures with
// their Image Format), a sampler one of OpTypeSampler, both decorated
// DescriptorSet = @group, Binding = @binding. Each use loads the image
// (and sampler, combined with OpSampledImage). The builtins:
//
//	textureDimensions        OpImageQuerySizeLod (sampled, depth) or OpImageQuerySize
//	textureNumLayers         the last component of the size
//	textureNumLevels         OpImageQueryLevels; textureNumSamples OpImageQuerySamples
//	textureLoad              OpImageFetch (Lod or Sample), OpImageRead (storage)
//	textureStore             OpImageWrite
//	textureSampleLevel       OpImageSampleExplicitLod Lod [ConstOffset]
//	textureSampleGrad        OpImageSampleExplicitLod Grad [ConstOffset]
//	textureSampleCompareLevel OpImageSampleDrefExplicitLod Lod 0 [ConstOffset]
//	textureGather(Compare)   OpImageGather / OpImageDrefGather [ConstOffset]
//
// Portable mode spells out WGSL's out-of-bounds rules, which Vulkan
// leaves undefined without robustImageAccess: textureLoad and
// textureStore clamp the level, the array layer, the sample index and
// the coordinates into the texture (WGSL #textureload: any texel may be
// returned; #texturestore: the store may land on any texel). Refused,
// positioned: the implicit-derivative samplers (fragment shaders: not
// emitted as SPIR-V yet) and bgra8unorm storage textures (no SPIR-V
// Image Format; Tint needs StorageImageWriteWithoutFormat).

const (
	capImageCubeArray              = 0x22
	capSampled1D                   = 0x2b
	capImage1D                     = 0x2c
	capSampledCubeArray            = 0x2d
	capStorageImageExtendedFormats = 0x31
	capImageQuery                  = 0x32

	imageOpBias        = 0x1
	imageOpLod         = 0x2
	imageOpGrad        = 0x4
	imageOpConstOffset = 0x8
	imageOpSample      = 0x40
)

var spvImageFormat = map[ir.TexFormat]uint32{
	ir.FmtRGBA32Float: 1, ir.FmtRGBA16Float: 2, ir.FmtR32Float: 3, ir.FmtRGBA8Unorm: 4, ir.FmtRGBA8Snorm: 5, ir.FmtRG32Float: 6,
	ir.FmtRGBA32Sint: 0x15, ir.FmtRGBA16Sint: 0x16, ir.FmtRGBA8Sint: 0x17, ir.FmtR32Sint: 0x18, ir.FmtRG32Sint: 0x19,
	ir.FmtRGBA32Uint: 0x1e, ir.FmtRGBA16Uint: 0x1f, ir.FmtRGBA8Uint: 0x20, ir.FmtR32Uint: 0x21, ir.FmtRG32Uint: 0x23,
}

// texVar is a declared texture or sampler binding.
type texVar struct {
	v        *ir.TextureVar
	id       uint32 // the OpVariable
	typ      uint32 // its OpTypeImage or OpTypeSampler
	sampled  uint32 // OpTypeSampledImage of typ (textures)
	declared bool
}

// capability declares capability c once.
func (e *emitter) capability(c uint32) {
	caps := e.b.capabilities
	for i := 0; i+1 < len(caps); i += 2 {
		if caps[i]&0xffff == uint32(opCapability) && caps[i+1] == c {
			return
		}
	}
	emit(&e.b.capabilities, opCapability, c)
}

// declareTextures declares the texture and sampler bindings ep's call
// graph uses.
func (e *emitter) declareTextures(m *ir.Module, ep *ir.Func) {
	used := map[string]bool{}
	for _, f := range m.CallGraph(ep.Name) {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if id, ok := n.(*ir.Ident); ok && id.Ref == ir.RefHandle {
				used[id.Name] = true
			}
			return true
		})
	}
	e.tex = map[string]*texVar{}
	for _, v := range m.Textures {
		if !used[v.Name] {
			continue
		}
		e.declareTexture(v)
	}
}

func (e *emitter) declareTexture(v *ir.TextureVar) {
	b := e.b
	tv := &texVar{v: v}
	if v.T.Kind == ir.KindSampler {
		tv.typ = b.global("sampler", opTypeSampler, false)
	} else {
		tt := v.T.Tex
		dim := map[ir.TexDim]uint32{ir.Tex1D: 0, ir.Tex2D: 1, ir.Tex2DArray: 1, ir.Tex3D: 2, ir.TexCube: 3, ir.TexCubeArray: 3}[tt.Dim]
		arrayed := uint32(0)
		if tt.Dim.Arrayed() {
			arrayed = 1
		}
		depth, ms, sampled, format := uint32(0), uint32(0), uint32(1), uint32(0)
		switch tt.Class {
		case ir.TexDepth:
			depth = 1
		case ir.TexMultisampled:
			ms = 1
		case ir.TexStorage:
			sampled = 2
			f, ok := spvImageFormat[tt.Format]
			if !ok {
				e.errorf(v.Pos, "%s: storage texel format %s has no SPIR-V Image Format (Tint needs StorageImageWriteWithoutFormat); %s", v.Name, tt.Format, unsupportedMark)
			}
			format = f
			if tt.Format == ir.FmtRG32Float || tt.Format == ir.FmtRG32Sint || tt.Format == ir.FmtRG32Uint {
				e.capability(capStorageImageExtendedFormats)
			}
		}
		switch {
		case tt.Dim == ir.Tex1D && sampled == 1:
			e.capability(capSampled1D)
		case tt.Dim == ir.Tex1D:
			e.capability(capImage1D)
		case tt.Dim == ir.TexCubeArray:
			e.capability(capSampledCubeArray)
		}
		st := e.typeOf(tt.Sampled)
		tv.typ = b.global(b.key('I', st, dim, depth, arrayed, ms, sampled, format), opTypeImage, false, st, dim, depth, arrayed, ms, sampled, format)
		if sampled == 1 && ms == 0 {
			tv.sampled = b.global(b.key('S', tv.typ), opTypeSampledImage, false, tv.typ)
		}
	}
	tv.id = b.variable(b.typePointer(storageClassUniformConstant, tv.typ), storageClassUniformConstant, 0)
	b.name(tv.id, v.Name)
	b.decorate(tv.id, decorationDescriptorSet, uint32(v.Group))
	b.decorate(tv.id, decorationBinding, uint32(v.Binding))
	if v.T.Kind == ir.KindTexture && v.T.Tex.Class == ir.TexStorage {
		switch v.T.Tex.Access {
		case ir.TexRead:
			b.decorate(tv.id, decorationNonWritable)
		case ir.TexWrite:
			b.decorate(tv.id, decorationNonReadable)
		}
	}
	e.tex[v.Name] = tv
}

// texture emits a texture builtin call.
func (f *fnEmitter) texture(x *ir.TextureCall) uint32 {
	e := f.e
	b := f.b
	p := x.Parts()
	tv := e.tex[p.Texture.(*ir.Ident).Name]
	if tv == nil {
		e.errorf(x.Pos, "%s: texture not declared", x.Op)
		return 0
	}
	tt := tv.v.T.Tex
	if x.Op.ImplicitDerivatives() && !e.derivatives {
		e.errorf(x.Pos, "%s: implicit-derivative sampling needs a fragment entry point", x.Op)
		return 0
	}
	img := f.op(opLoad, tv.typ, tv.id)
	u32 := b.typeInt(false)
	uvec := func(n int) uint32 {
		if n == 1 {
			return u32
		}
		return b.typeVector(u32, n)
	}
	cw := tt.Dim.CoordWidth()
	if tt.Dim == ir.TexCube || tt.Dim == ir.TexCubeArray {
		cw = 2 // a cube's size is a face's
	}
	sizeN := cw
	if tt.Dim.Arrayed() {
		sizeN++
	}
	e.capability(capImageQuery)
	querySize := func(lod uint32) uint32 {
		if tt.Class == ir.TexStorage || tt.Class == ir.TexMultisampled {
			return f.op(opImageQuerySize, uvec(sizeN), img)
		}
		if lod == 0 {
			lod = b.constU32(0)
		}
		return f.op(opImageQuerySizeLod, uvec(sizeN), img, lod)
	}
	first := func(v uint32, n, of int) uint32 {
		if n == of {
			return v
		}
		if n == 1 {
			return f.op(opCompositeExtract, u32, v, 0)
		}
		idx := make([]uint32, n)
		for i := range idx {
			idx[i] = uint32(i)
		}
		return f.op(opVectorShuffle, uvec(n), append([]uint32{v, v}, idx...)...)
	}
	switch x.Op {
	case ir.TexDimensions:
		var lod uint32
		if p.Level != nil {
			lod = f.expr(p.Level)
			if e.portable {
				lod = f.clampLevel(img, lod, p.Level.Type())
			}
		}
		return first(querySize(lod), tt.Dim.SizeWidth(), sizeN)
	case ir.TexNumLayers:
		return f.op(opCompositeExtract, u32, querySize(0), uint32(sizeN-1))
	case ir.TexNumLevels:
		return f.op(opImageQueryLevels, u32, img)
	case ir.TexNumSamples:
		return f.op(opImageQuerySamples, u32, img)
	case ir.TexLoad, ir.TexStore:
		coords := f.expr(p.Coords)
		ct := p.Coords.Type()
		var level, sample uint32
		if p.Level != nil {
			level = f.expr(p.Level)
			if e.portable {
				level = f.clampLevel(img, level, p.Level.Type())
			}
		}
		if p.ArrayIndex != nil {
			layer := f.expr(p.ArrayIndex)
			if p.ArrayIndex.Type().Kind != ct.Scalar().Kind {
				layer = f.op(opBitcast, e.typeOf(ct.Scalar()), layer)
			}
			ct = ir.Vec(ct.Width()+1, ct.Scalar())
			coords = f.op(opCompositeConstruct, e.typeOf(ct), f.splitVec(coords, p.Coords.Type(), layer)...)
		}
		if e.portable {
			coords = f.clampCoords(coords, ct, querySize(level))
		}
		if p.SampleIndex != nil {
			sample = f.expr(p.SampleIndex)
			if e.portable {
				n := f.op(opImageQuerySamples, u32, img)
				sample = f.clampMax(sample, p.SampleIndex.Type(), f.op(opISub, u32, n, b.constU32(1)))
			}
		}
		if x.Op == ir.TexStore {
			f.inst(opImageWrite, img, coords, f.expr(p.Value))
			return 0
		}
		res := e.typeOf(ir.Vec(4, tt.Sampled))
		var v uint32
		switch {
		case tt.Class == ir.TexStorage:
			v = f.op(opImageRead, res, img, coords)
		case p.SampleIndex != nil:
			v = f.op(opImageFetch, res, img, coords, imageOpSample, sample)
		default:
			v = f.op(opImageFetch, res, img, coords, imageOpLod, level)
		}
		if tt.Class == ir.TexDepth {
			return f.op(opCompositeExtract, b.typeFloat(), v, 0)
		}
		return v
	case ir.TexSampleLevel, ir.TexSampleGrad, ir.TexSampleCompareLevel, ir.TexGather, ir.TexGatherCompare,
		ir.TexSample, ir.TexSampleBias, ir.TexSampleCompare:
		smp := e.tex[p.Sampler.(*ir.Ident).Name]
		si := f.op(opSampledImage, tv.sampled, img, f.op(opLoad, smp.typ, smp.id))
		coords := f.expr(p.Coords)
		if p.ArrayIndex != nil {
			layer := f.expr(p.ArrayIndex)
			if p.ArrayIndex.Type().Kind == ir.KindI32 {
				layer = f.op(opConvertSToF, b.typeFloat(), layer)
			} else {
				layer = f.op(opConvertUToF, b.typeFloat(), layer)
			}
			ct := ir.Vec(p.Coords.Type().Width()+1, ir.F32)
			coords = f.op(opCompositeConstruct, e.typeOf(ct), f.splitVec(coords, p.Coords.Type(), layer)...)
		}
		var ops []uint32
		mask := uint32(0)
		switch x.Op {
		case ir.TexSampleLevel, ir.TexSampleCompareLevel:
			mask |= imageOpLod
			if x.Op == ir.TexSampleCompareLevel {
				ops = append(ops, b.constF32(0))
			} else {
				lod := f.expr(p.Level)
				switch p.Level.Type().Kind {
				case ir.KindI32:
					lod = f.op(opConvertSToF, b.typeFloat(), lod)
				case ir.KindU32:
					lod = f.op(opConvertUToF, b.typeFloat(), lod)
				}
				ops = append(ops, lod)
			}
		case ir.TexSampleGrad:
			mask |= imageOpGrad
			ops = append(ops, f.expr(p.DdX), f.expr(p.DdY))
		case ir.TexSampleBias:
			mask |= imageOpBias
			ops = append(ops, f.expr(p.Bias))
		}
		if p.Offset != nil {
			mask |= imageOpConstOffset
			ops = append(ops, f.expr(p.Offset))
			// ConstOffset on a gather needs no ImageGatherExtended
			// (that is for Offset and ConstOffsets); wgpu's SPIR-V
			// front end rejects the capability.
		}
		tail := func() []uint32 {
			if mask == 0 {
				return nil
			}
			return append([]uint32{mask}, ops...)
		}
		f4 := e.typeOf(ir.Vec(4, ir.F32))
		switch x.Op {
		case ir.TexSampleCompareLevel:
			return f.op(opImageSampleDrefExplicitLod, b.typeFloat(), append([]uint32{si, coords, f.expr(p.DepthRef)}, tail()...)...)
		case ir.TexSampleCompare:
			return f.op(opImageSampleDrefImplicitLod, b.typeFloat(), append([]uint32{si, coords, f.expr(p.DepthRef)}, tail()...)...)
		case ir.TexSample, ir.TexSampleBias:
			v := f.op(opImageSampleImplicitLod, f4, append([]uint32{si, coords}, tail()...)...)
			if tt.Class == ir.TexDepth {
				return f.op(opCompositeExtract, b.typeFloat(), v, 0)
			}
			return v
		case ir.TexGatherCompare:
			return f.op(opImageDrefGather, f4, append([]uint32{si, coords, f.expr(p.DepthRef)}, tail()...)...)
		case ir.TexGather:
			comp := b.constU32(0)
			if p.Component != nil {
				comp = b.constU32(p.Component.(*ir.Lit).Val.Bits)
			}
			return f.op(opImageGather, e.typeOf(ir.Vec(4, tt.Sampled)), append([]uint32{si, coords, comp}, tail()...)...)
		}
		v := f.op(opImageSampleExplicitLod, f4, append([]uint32{si, coords}, tail()...)...)
		if tt.Class == ir.TexDepth {
			return f.op(opCompositeExtract, b.typeFloat(), v, 0)
		}
		return v
	}
	e.errorf(x.Pos, "%s is not emitted as SPIR-V yet", x.Op)
	return 0
}

// splitVec returns the components of v (of type t) followed by extra.
func (f *fnEmitter) splitVec(v uint32, t *ir.Type, extra uint32) []uint32 {
	if t.Width() == 1 {
		return []uint32{v, extra}
	}
	parts := make([]uint32, 0, t.Width()+1)
	st := f.e.typeOf(t.Scalar())
	for i := 0; i < t.Width(); i++ {
		parts = append(parts, f.op(opCompositeExtract, st, v, uint32(i)))
	}
	return append(parts, extra)
}

// clampLevel clamps an integer level to [0, levels-1].
func (f *fnEmitter) clampLevel(img, level uint32, t *ir.Type) uint32 {
	u32 := f.b.typeInt(false)
	n := f.op(opImageQueryLevels, u32, img)
	return f.clampMax(level, t, f.op(opISub, u32, n, f.b.constU32(1)))
}

// clampMax clamps v (an i32 or u32 scalar or vector of type t) to
// [0, max], max a u32 value of t's width.
func (f *fnEmitter) clampMax(v uint32, t *ir.Type, max uint32) uint32 {
	typ := f.e.typeOf(t)
	if t.Scalar().Kind == ir.KindU32 {
		return f.glsl(glslUMin, typ, v, max)
	}
	hi := f.op(opBitcast, typ, max)
	zero := f.b.constNull(typ)
	return f.glsl(glslSClamp, typ, v, zero, hi)
}

// clampCoords clamps integer coordinates (type t) into size - 1.
func (f *fnEmitter) clampCoords(coords uint32, t *ir.Type, size uint32) uint32 {
	u32 := f.b.typeInt(false)
	n := t.Width()
	one := f.b.constU32(1)
	var ut uint32 = u32
	if n > 1 {
		ut = f.b.typeVector(u32, n)
		parts := make([]uint32, n)
		for i := range parts {
			parts[i] = one
		}
		one = f.b.constComposite(ut, parts...)
	}
	max := f.op(opISub, ut, size, one)
	return f.clampMax(coords, t, max)
}

// derivative emits a derivative builtin in a fragment entry point
// (OpDPdx … OpFwidthCoarse, SPIR-V §3.52.22; the fine and coarse forms
// need the DerivativeControl capability).
func (f *fnEmitter) derivative(x *ir.BuiltinCall) uint32 {
	op := map[ir.Builtin]opcode{
		ir.BDpdx: opDPdx, ir.BDpdy: opDPdx + 1, ir.BFwidth: opDPdx + 2,
		ir.BDpdxFine: opDPdxFine, ir.BDpdyFine: opDPdxFine + 1, ir.BFwidthFine: opDPdxFine + 2,
		ir.BDpdxCoarse: opDPdxFine + 3, ir.BDpdyCoarse: opDPdxFine + 4, ir.BFwidthCoarse: opFwidthCoarse,
	}[x.Fn]
	if op >= opDPdxFine {
		f.e.capability(0x33) // DerivativeControl
	}
	return f.op(op, f.e.typeOf(x.T), f.expr(x.Args[0]))
}
