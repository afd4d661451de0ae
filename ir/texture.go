package ir

import (
	"fmt"
	"strings"
)

// Textures and samplers (WGSL #texture-sampler-types, #texture-builtin-functions;
// issue 24). A texture or sampler is a module-scope resource binding
// (TextureVar, Module.Textures) of type KindTexture or KindSampler; an
// Ident naming it has Ref RefHandle and appears only as an argument of a
// TextureCall (WGSL allows no other use of a handle in the subset: no
// let, no var, no parameter). A TextureCall is one texture builtin call
// with its arguments as written; Form names the overload it resolved to
// (TextureForm), so that every stage reads the arguments the same way
// (TextureCall.Parts).

// TexDim is a texture's dimensionality (WGSL #texture-types).
type TexDim uint8

const (
	Tex1D TexDim = iota + 1
	Tex2D
	Tex2DArray
	Tex3D
	TexCube
	TexCubeArray
)

var texDimNames = [...]string{Tex1D: "1d", Tex2D: "2d", Tex2DArray: "2d_array", Tex3D: "3d", TexCube: "cube", TexCubeArray: "cube_array"}

func (d TexDim) String() string {
	if int(d) < len(texDimNames) && texDimNames[d] != "" {
		return texDimNames[d]
	}
	return "?"
}

// Arrayed reports whether d has array layers (2d_array, cube_array).
func (d TexDim) Arrayed() bool { return d == Tex2DArray || d == TexCubeArray }

// CoordWidth is the number of components of d's coordinates: 1 for 1d,
// 2 for 2d and 2d_array, 3 for 3d, cube and cube_array.
func (d TexDim) CoordWidth() int {
	switch d {
	case Tex1D:
		return 1
	case Tex2D, Tex2DArray:
		return 2
	}
	return 3
}

// SizeWidth is the width of textureDimensions' result: 1 for 1d, 3 for
// 3d, else 2 (a cube's faces are 2d).
func (d TexDim) SizeWidth() int {
	switch d {
	case Tex1D:
		return 1
	case Tex3D:
		return 3
	}
	return 2
}

// TexClass is the kind of texture (WGSL #sampled-texture-type and the
// sections after it).
type TexClass uint8

const (
	TexSampled      TexClass = iota + 1 // texture_1d<T> … texture_cube_array<T>
	TexDepth                            // texture_depth_2d, texture_depth_2d_array, texture_depth_cube(_array)
	TexMultisampled                     // texture_multisampled_2d<T>
	TexStorage                          // texture_storage_1d/2d/2d_array/3d<F, A>
)

// TexAccess is a storage texture's access mode (WGSL #access-mode).
type TexAccess uint8

const (
	TexRead TexAccess = iota + 1
	TexWrite
	TexReadWrite
)

func (a TexAccess) String() string {
	switch a {
	case TexRead:
		return "read"
	case TexWrite:
		return "write"
	case TexReadWrite:
		return "read_write"
	}
	return "?"
}

// TexFormat is a texel format: one of WebGPU's texture formats gpudiff
// uploads (WebGPU "Plain color formats" with a texel size, and the depth
// formats depth16unorm and depth32float). TexFormats is the one table
// describing them: ir (a storage texture's declared format), the
// reference (interp: texel codes), check (case files) and harness (its
// byte sizes, checked against this table by shaders' TestHarnessFormats)
// all read it. The first 17 are WGSL's storage texel formats
// (#storage-texel-formats: WebGPU's core storage-capable formats,
// bgra8unorm with bgra8unorm-storage); Storage marks them.
type TexFormat uint8

const (
	FmtRGBA8Unorm TexFormat = iota + 1
	FmtRGBA8Snorm
	FmtRGBA8Uint
	FmtRGBA8Sint
	FmtRGBA16Uint
	FmtRGBA16Sint
	FmtRGBA16Float
	FmtR32Uint
	FmtR32Sint
	FmtR32Float
	FmtRG32Uint
	FmtRG32Sint
	FmtRG32Float
	FmtRGBA32Uint
	FmtRGBA32Sint
	FmtRGBA32Float
	FmtBGRA8Unorm
	// Formats a texture may have but a storage texture may not declare.
	FmtR8Unorm
	FmtR8Snorm
	FmtR8Uint
	FmtR8Sint
	FmtR16Uint
	FmtR16Sint
	FmtR16Float
	FmtRG8Unorm
	FmtRG8Snorm
	FmtRG8Uint
	FmtRG8Sint
	FmtRG16Uint
	FmtRG16Sint
	FmtRG16Float
	FmtDepth16Unorm
	FmtDepth32Float
	numTexFormats
)

// TexFormatInfo describes a texel format: its WGSL/WebGPU name, the
// channel type of the values shaders see (f32, i32 or u32), its channel
// count and the bytes of one channel, how a channel is encoded, and
// WebGPU's capabilities of the format that gpudiff reads.
type TexFormatInfo struct {
	Name     string
	Channel  Kind // KindF32, KindI32 or KindU32
	Channels int
	Bytes    int // per channel
	// Norm is "unorm" or "snorm" for normalized formats, "float" for
	// float formats (16-bit: binary16, 32-bit: binary32), "" for integer
	// formats.
	Norm string
	// BGRA: the texel's bytes hold channels 2, 1, 0, 3 (bgra8unorm); a
	// shader still reads (r, g, b, a).
	BGRA bool
	// Depth: a depth format (WebGPU "Depth-stencil formats"), read as its
	// one channel by a texture_depth_* binding (WGSL #texture-depth).
	Depth bool
	// Storage: a WGSL storage texel format (#storage-texel-formats).
	Storage bool
	// Filterable: the format's sample type is "float" (WebGPU's texture
	// format capabilities): a filtering sampler may sample it. The 32-bit
	// float formats are "unfilterable-float" (without float32-filterable),
	// the integer formats "uint"/"sint", the depth formats "depth".
	Filterable bool
	// Multisample: WebGPU core lets a texture of this format have
	// sampleCount 4.
	Multisample bool
}

// TexelSize returns the bytes of one texel.
func (i TexFormatInfo) TexelSize() int { return i.Channels * i.Bytes }

// ChannelType is how one channel is encoded: "unorm", "snorm", "float",
// "uint" or "sint".
func (i TexFormatInfo) ChannelType() string {
	if i.Norm != "" {
		return i.Norm
	}
	if i.Channel == KindI32 {
		return "sint"
	}
	return "uint"
}

// TexFormats is the format table. The last five columns: BGRA, Depth,
// Storage, Filterable, Multisample.
var TexFormats = [numTexFormats]TexFormatInfo{
	FmtRGBA8Unorm:   {"rgba8unorm", KindF32, 4, 1, "unorm", false, false, true, true, true},
	FmtRGBA8Snorm:   {"rgba8snorm", KindF32, 4, 1, "snorm", false, false, true, true, false},
	FmtRGBA8Uint:    {"rgba8uint", KindU32, 4, 1, "", false, false, true, false, true},
	FmtRGBA8Sint:    {"rgba8sint", KindI32, 4, 1, "", false, false, true, false, true},
	FmtRGBA16Uint:   {"rgba16uint", KindU32, 4, 2, "", false, false, true, false, true},
	FmtRGBA16Sint:   {"rgba16sint", KindI32, 4, 2, "", false, false, true, false, true},
	FmtRGBA16Float:  {"rgba16float", KindF32, 4, 2, "float", false, false, true, true, true},
	FmtR32Uint:      {"r32uint", KindU32, 1, 4, "", false, false, true, false, false},
	FmtR32Sint:      {"r32sint", KindI32, 1, 4, "", false, false, true, false, false},
	FmtR32Float:     {"r32float", KindF32, 1, 4, "float", false, false, true, false, true},
	FmtRG32Uint:     {"rg32uint", KindU32, 2, 4, "", false, false, true, false, false},
	FmtRG32Sint:     {"rg32sint", KindI32, 2, 4, "", false, false, true, false, false},
	FmtRG32Float:    {"rg32float", KindF32, 2, 4, "float", false, false, true, false, false},
	FmtRGBA32Uint:   {"rgba32uint", KindU32, 4, 4, "", false, false, true, false, false},
	FmtRGBA32Sint:   {"rgba32sint", KindI32, 4, 4, "", false, false, true, false, false},
	FmtRGBA32Float:  {"rgba32float", KindF32, 4, 4, "float", false, false, true, false, false},
	FmtBGRA8Unorm:   {"bgra8unorm", KindF32, 4, 1, "unorm", true, false, true, true, true},
	FmtR8Unorm:      {"r8unorm", KindF32, 1, 1, "unorm", false, false, false, true, true},
	FmtR8Snorm:      {"r8snorm", KindF32, 1, 1, "snorm", false, false, false, true, false},
	FmtR8Uint:       {"r8uint", KindU32, 1, 1, "", false, false, false, false, true},
	FmtR8Sint:       {"r8sint", KindI32, 1, 1, "", false, false, false, false, true},
	FmtR16Uint:      {"r16uint", KindU32, 1, 2, "", false, false, false, false, true},
	FmtR16Sint:      {"r16sint", KindI32, 1, 2, "", false, false, false, false, true},
	FmtR16Float:     {"r16float", KindF32, 1, 2, "float", false, false, false, true, true},
	FmtRG8Unorm:     {"rg8unorm", KindF32, 2, 1, "unorm", false, false, false, true, true},
	FmtRG8Snorm:     {"rg8snorm", KindF32, 2, 1, "snorm", false, false, false, true, false},
	FmtRG8Uint:      {"rg8uint", KindU32, 2, 1, "", false, false, false, false, true},
	FmtRG8Sint:      {"rg8sint", KindI32, 2, 1, "", false, false, false, false, true},
	FmtRG16Uint:     {"rg16uint", KindU32, 2, 2, "", false, false, false, false, true},
	FmtRG16Sint:     {"rg16sint", KindI32, 2, 2, "", false, false, false, false, true},
	FmtRG16Float:    {"rg16float", KindF32, 2, 2, "float", false, false, false, true, true},
	FmtDepth16Unorm: {"depth16unorm", KindF32, 1, 2, "unorm", false, true, false, false, true},
	FmtDepth32Float: {"depth32float", KindF32, 1, 4, "float", false, true, false, false, true},
}

// Info returns f's description.
func (f TexFormat) Info() TexFormatInfo {
	if f > 0 && f < numTexFormats {
		return TexFormats[f]
	}
	return TexFormatInfo{Name: "?"}
}

func (f TexFormat) String() string { return f.Info().Name }

// LookupTexFormat returns the storage texel format named name (a format
// of the table that is not a storage texel format is not found).
func LookupTexFormat(name string) (TexFormat, bool) {
	f, ok := LookupFormat(name)
	if !ok || !TexFormats[f].Storage {
		return 0, false
	}
	return f, true
}

// LookupFormat returns the texel format named name, any of the table.
func LookupFormat(name string) (TexFormat, bool) {
	for f := TexFormat(1); f < numTexFormats; f++ {
		if TexFormats[f].Name == name {
			return f, true
		}
	}
	return 0, false
}

// FormatInfo is the description of the texel format named name; ok false
// when the table has none.
func FormatInfo(name string) (TexFormatInfo, bool) {
	f, ok := LookupFormat(name)
	if !ok {
		return TexFormatInfo{}, false
	}
	return TexFormats[f], true
}

// TextureType is the description of a KindTexture or KindSampler type
// (Type.Tex).
type TextureType struct {
	Class TexClass
	Dim   TexDim
	// Sampled is the sampled type of a sampled or multisampled texture
	// (F32, I32 or U32); F32 for a depth texture; the channel type of a
	// storage texture's format.
	Sampled *Type
	Format  TexFormat // TexStorage
	Access  TexAccess // TexStorage
	// Comparison marks sampler_comparison (KindSampler only).
	Comparison bool
}

// TextureOf returns the texture type of the given class and dimension.
// For a storage texture sampled is ignored (the format decides it).
func TextureOf(class TexClass, dim TexDim, sampled *Type, format TexFormat, access TexAccess) *Type {
	tt := &TextureType{Class: class, Dim: dim, Sampled: sampled}
	switch class {
	case TexDepth:
		tt.Sampled = F32
	case TexStorage:
		tt.Format, tt.Access = format, access
		tt.Sampled = scalarOfKind(format.Info().Channel)
	}
	return &Type{Kind: KindTexture, Tex: tt}
}

// SamplerOf returns sampler or sampler_comparison.
func SamplerOf(comparison bool) *Type {
	return &Type{Kind: KindSampler, Tex: &TextureType{Comparison: comparison}}
}

func scalarOfKind(k Kind) *Type {
	switch k {
	case KindI32:
		return I32
	case KindU32:
		return U32
	}
	return F32
}

// IsHandle reports whether t is a texture or sampler type.
func (t *Type) IsHandle() bool { return t != nil && (t.Kind == KindTexture || t.Kind == KindSampler) }

func identicalTex(a, b *TextureType) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Class == b.Class && a.Dim == b.Dim && a.Format == b.Format && a.Access == b.Access &&
		a.Comparison == b.Comparison && (a.Sampled == nil) == (b.Sampled == nil) && (a.Sampled == nil || a.Sampled.Kind == b.Sampled.Kind)
}

// textureString is the WGSL spelling of a texture or sampler type.
func textureString(t *Type) string {
	tt := t.Tex
	if t.Kind == KindSampler {
		if tt != nil && tt.Comparison {
			return "sampler_comparison"
		}
		return "sampler"
	}
	if tt == nil {
		return "<bad texture>"
	}
	switch tt.Class {
	case TexSampled:
		return fmt.Sprintf("texture_%s<%s>", tt.Dim, tt.Sampled)
	case TexDepth:
		return "texture_depth_" + tt.Dim.String()
	case TexMultisampled:
		return fmt.Sprintf("texture_multisampled_2d<%s>", tt.Sampled)
	case TexStorage:
		return fmt.Sprintf("texture_storage_%s<%s, %s>", tt.Dim, tt.Format, tt.Access)
	}
	return "<bad texture>"
}

// TextureVar is a module-scope texture or sampler binding:
// @group(Group) @binding(Binding) var Name: T, T a KindTexture or
// KindSampler type.
type TextureVar struct {
	Pos            Pos
	Name           string
	T              *Type
	Group, Binding int
}

// Decl returns v's WGSL declaration.
func (v *TextureVar) Decl() string {
	return fmt.Sprintf("@group(%d) @binding(%d) var %s: %s;", v.Group, v.Binding, v.Name, v.T)
}

// TextureVar returns the texture or sampler binding named name, or nil.
func (m *Module) TextureVar(name string) *TextureVar {
	for _, v := range m.Textures {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// TexOp is a texture builtin (WGSL #texture-builtin-functions).
type TexOp uint8

const (
	TexDimensions TexOp = iota + 1
	TexNumLayers
	TexNumLevels
	TexNumSamples
	TexLoad
	TexStore
	TexSampleLevel
	TexSample
	TexSampleBias
	TexSampleGrad
	TexSampleCompare
	TexSampleCompareLevel
	TexGather
	TexGatherCompare
	numTexOps
)

var texOpNames = [numTexOps]string{
	TexDimensions: "textureDimensions", TexNumLayers: "textureNumLayers", TexNumLevels: "textureNumLevels",
	TexNumSamples: "textureNumSamples", TexLoad: "textureLoad", TexStore: "textureStore",
	TexSampleLevel: "textureSampleLevel", TexSample: "textureSample", TexSampleBias: "textureSampleBias",
	TexSampleGrad: "textureSampleGrad", TexSampleCompare: "textureSampleCompare",
	TexSampleCompareLevel: "textureSampleCompareLevel", TexGather: "textureGather", TexGatherCompare: "textureGatherCompare",
}

func (op TexOp) String() string {
	if op > 0 && op < numTexOps {
		return texOpNames[op]
	}
	return "texture?"
}

// LookupTexOp returns the texture builtin named name.
func LookupTexOp(name string) (TexOp, bool) {
	for op := TexOp(1); op < numTexOps; op++ {
		if texOpNames[op] == name {
			return op, true
		}
	}
	return 0, false
}

// ImplicitDerivatives reports whether op computes its level of detail
// from implicit derivatives: fragment shaders only, under uniform control
// flow (WGSL #texturesample, #uniformity).
func (op TexOp) ImplicitDerivatives() bool {
	return op == TexSample || op == TexSampleBias || op == TexSampleCompare
}

// TextureCall is a call of a texture builtin (WGSL
// #texture-builtin-functions). Args are as written: the texture first,
// except for textureGather on a non-depth texture, whose first argument
// is the component. Form is the overload's parameter list after the
// texture (TextureForm); T is the result type (Void for textureStore,
// which is a statement).
type TextureCall struct {
	Pos  Pos
	Op   TexOp
	Form string
	Args []Expr
	T    *Type
}

func (e *TextureCall) Position() Pos { return e.Pos }
func (e *TextureCall) Type() *Type   { return e.T }
func (*TextureCall) exprNode()       {}

// The letters of a texture overload's form (TextureForm), one per
// argument after the texture:
//
//	C component (i32 or u32 const-expression 0..3), written before the texture
//	S sampler, Z sampler_comparison
//	c float coordinates (f32 or vecN<f32>, N = Dim.CoordWidth)
//	i integer coordinates (i32/u32 or vecN of one of them)
//	a array index (i32 or u32)
//	L integer level (i32 or u32)
//	n sample index (i32 or u32)
//	F f32 (level, bias, depth reference)
//	d a derivative (like c)
//	o offset (vecN<i32> const-expression)
//	v texel value (vec4 of the channel type)
const texFormLetters = "CSZciaLnFdov"

// TexParts are a TextureCall's arguments by role (nil where absent).
type TexParts struct {
	Component, Texture, Sampler, Coords, ArrayIndex, Level, SampleIndex, Bias, DepthRef, DdX, DdY, Offset, Value Expr
}

// Parts returns e's arguments by role.
func (e *TextureCall) Parts() TexParts {
	var p TexParts
	args := e.Args
	form := e.Form
	if strings.HasPrefix(form, "C") {
		p.Component, args, form = args[0], args[1:], form[1:]
	}
	p.Texture = args[0]
	args = args[1:]
	dd := 0
	for i := 0; i < len(form) && i < len(args); i++ {
		a := args[i]
		switch form[i] {
		case 'S', 'Z':
			p.Sampler = a
		case 'c', 'i':
			p.Coords = a
		case 'a':
			p.ArrayIndex = a
		case 'L':
			p.Level = a
		case 'n':
			p.SampleIndex = a
		case 'F':
			switch e.Op {
			case TexSampleBias:
				p.Bias = a
			case TexSampleCompare, TexSampleCompareLevel, TexGatherCompare:
				p.DepthRef = a
			default:
				p.Level = a
			}
		case 'd':
			if dd == 0 {
				p.DdX = a
			} else {
				p.DdY = a
			}
			dd++
		case 'o':
			p.Offset = a
		case 'v':
			p.Value = a
		}
	}
	return p
}

// texOverload is one overload family of a texture builtin: the texture
// classes and dimensions it takes, whether a sampled texture must be
// texture_X<f32>, and its forms (each without and with an offset where
// both exist).
type texOverload struct {
	classes []TexClass
	dims    []TexDim
	f32Only bool
	access  []TexAccess // storage textures: the access modes allowed
	forms   []string
}

var (
	allDims      = []TexDim{Tex1D, Tex2D, Tex2DArray, Tex3D, TexCube, TexCubeArray}
	sampledDepth = []TexClass{TexSampled, TexDepth}
)

// texOverloads is WGSL's overload table (#texture-builtin-functions),
// per builtin; the first family whose class, dimension and form match
// the call is the overload.
var texOverloads = map[TexOp][]texOverload{
	TexDimensions: {
		{classes: []TexClass{TexSampled, TexDepth, TexMultisampled, TexStorage}, dims: allDims, forms: []string{""}},
		{classes: sampledDepth, dims: allDims, forms: []string{"L"}},
	},
	TexNumLayers:  {{classes: []TexClass{TexSampled, TexDepth, TexStorage}, dims: []TexDim{Tex2DArray, TexCubeArray}, forms: []string{""}}},
	TexNumLevels:  {{classes: sampledDepth, dims: allDims, forms: []string{""}}},
	TexNumSamples: {{classes: []TexClass{TexMultisampled}, dims: []TexDim{Tex2D}, forms: []string{""}}},
	TexLoad: {
		{classes: sampledDepth, dims: []TexDim{Tex1D, Tex2D, Tex3D}, forms: []string{"iL"}},
		{classes: sampledDepth, dims: []TexDim{Tex2DArray}, forms: []string{"iaL"}},
		{classes: []TexClass{TexMultisampled}, dims: []TexDim{Tex2D}, forms: []string{"in"}},
		{classes: []TexClass{TexStorage}, dims: []TexDim{Tex1D, Tex2D, Tex3D}, access: []TexAccess{TexRead, TexReadWrite}, forms: []string{"i"}},
		{classes: []TexClass{TexStorage}, dims: []TexDim{Tex2DArray}, access: []TexAccess{TexRead, TexReadWrite}, forms: []string{"ia"}},
	},
	TexStore: {
		{classes: []TexClass{TexStorage}, dims: []TexDim{Tex1D, Tex2D, Tex3D}, access: []TexAccess{TexWrite, TexReadWrite}, forms: []string{"iv"}},
		{classes: []TexClass{TexStorage}, dims: []TexDim{Tex2DArray}, access: []TexAccess{TexWrite, TexReadWrite}, forms: []string{"iav"}},
	},
	TexSampleLevel: {
		{classes: []TexClass{TexSampled}, dims: []TexDim{Tex1D, TexCube}, f32Only: true, forms: []string{"ScF"}},
		{classes: []TexClass{TexSampled}, dims: []TexDim{Tex2D, Tex3D}, f32Only: true, forms: []string{"ScF", "ScFo"}},
		{classes: []TexClass{TexSampled}, dims: []TexDim{Tex2DArray}, f32Only: true, forms: []string{"ScaF", "ScaFo"}},
		{classes: []TexClass{TexSampled}, dims: []TexDim{TexCubeArray}, f32Only: true, forms: []string{"ScaF"}},
		{classes: []TexClass{TexDepth}, dims: []TexDim{Tex2D}, forms: []string{"ScL", "ScLo"}},
		{classes: []TexClass{TexDepth}, dims: []TexDim{Tex2DArray}, forms: []string{"ScaL", "ScaLo"}},
		{classes: []TexClass{TexDepth}, dims: []TexDim{TexCube}, forms: []string{"ScL"}},
		{classes: []TexClass{TexDepth}, dims: []TexDim{TexCubeArray}, forms: []string{"ScaL"}},
	},
	TexSample: {
		{classes: []TexClass{TexSampled}, dims: []TexDim{Tex1D, TexCube}, f32Only: true, forms: []string{"Sc"}},
		{classes: sampledDepth, dims: []TexDim{Tex2D}, f32Only: true, forms: []string{"Sc", "Sco"}},
		{classes: []TexClass{TexSampled}, dims: []TexDim{Tex3D}, f32Only: true, forms: []string{"Sc", "Sco"}},
		{classes: sampledDepth, dims: []TexDim{Tex2DArray}, f32Only: true, forms: []string{"Sca", "Scao"}},
		{classes: sampledDepth, dims: []TexDim{TexCubeArray}, f32Only: true, forms: []string{"Sca"}},
		{classes: []TexClass{TexDepth}, dims: []TexDim{TexCube}, forms: []string{"Sc"}},
	},
	TexSampleBias: {
		{classes: []TexClass{TexSampled}, dims: []TexDim{Tex2D, Tex3D}, f32Only: true, forms: []string{"ScF", "ScFo"}},
		{classes: []TexClass{TexSampled}, dims: []TexDim{Tex2DArray}, f32Only: true, forms: []string{"ScaF", "ScaFo"}},
		{classes: []TexClass{TexSampled}, dims: []TexDim{TexCube}, f32Only: true, forms: []string{"ScF"}},
		{classes: []TexClass{TexSampled}, dims: []TexDim{TexCubeArray}, f32Only: true, forms: []string{"ScaF"}},
	},
	TexSampleGrad: {
		{classes: []TexClass{TexSampled}, dims: []TexDim{Tex2D, Tex3D}, f32Only: true, forms: []string{"Scdd", "Scddo"}},
		{classes: []TexClass{TexSampled}, dims: []TexDim{Tex2DArray}, f32Only: true, forms: []string{"Scadd", "Scaddo"}},
		{classes: []TexClass{TexSampled}, dims: []TexDim{TexCube}, f32Only: true, forms: []string{"Scdd"}},
		{classes: []TexClass{TexSampled}, dims: []TexDim{TexCubeArray}, f32Only: true, forms: []string{"Scadd"}},
	},
	TexSampleCompare:      compareOverloads,
	TexSampleCompareLevel: compareOverloads,
	TexGatherCompare:      compareOverloads,
	TexGather: {
		{classes: []TexClass{TexSampled}, dims: []TexDim{Tex2D}, forms: []string{"CSc", "CSco"}},
		{classes: []TexClass{TexSampled}, dims: []TexDim{Tex2DArray}, forms: []string{"CSca", "CScao"}},
		{classes: []TexClass{TexSampled}, dims: []TexDim{TexCube}, forms: []string{"CSc"}},
		{classes: []TexClass{TexSampled}, dims: []TexDim{TexCubeArray}, forms: []string{"CSca"}},
		{classes: []TexClass{TexDepth}, dims: []TexDim{Tex2D}, forms: []string{"Sc", "Sco"}},
		{classes: []TexClass{TexDepth}, dims: []TexDim{Tex2DArray}, forms: []string{"Sca", "Scao"}},
		{classes: []TexClass{TexDepth}, dims: []TexDim{TexCube}, forms: []string{"Sc"}},
		{classes: []TexClass{TexDepth}, dims: []TexDim{TexCubeArray}, forms: []string{"Sca"}},
	},
}

var compareOverloads = []texOverload{
	{classes: []TexClass{TexDepth}, dims: []TexDim{Tex2D}, forms: []string{"ZcF", "ZcFo"}},
	{classes: []TexClass{TexDepth}, dims: []TexDim{Tex2DArray}, forms: []string{"ZcaF", "ZcaFo"}},
	{classes: []TexClass{TexDepth}, dims: []TexDim{TexCube}, forms: []string{"ZcF"}},
	{classes: []TexClass{TexDepth}, dims: []TexDim{TexCubeArray}, forms: []string{"ZcaF"}},
}

func hasClass(cs []TexClass, c TexClass) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

func hasDim(ds []TexDim, d TexDim) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

// TextureForm returns the form of op's overload for texture type tex
// and nargs arguments in all (the component and the texture included);
// component says whether the first argument is textureGather's
// component. The error says why no overload matches.
func TextureForm(op TexOp, tex *Type, nargs int, component bool) (string, error) {
	if tex == nil || tex.Kind != KindTexture || tex.Tex == nil {
		return "", fmt.Errorf("%s needs a texture argument, not %v", op, tex)
	}
	tt := tex.Tex
	var counts []string
	fits := false
	for _, ov := range texOverloads[op] {
		if !hasClass(ov.classes, tt.Class) || !hasDim(ov.dims, tt.Dim) {
			continue
		}
		if ov.f32Only && tt.Class != TexDepth && tt.Sampled.Kind != KindF32 {
			return "", fmt.Errorf("%s needs a texture of f32 (%v samples %v) (WGSL #%s)", op, tex, tt.Sampled, strings.ToLower(op.String()))
		}
		if ov.access != nil && !accessIn(ov.access, tt.Access) {
			return "", fmt.Errorf("%s is not allowed on %v: its access mode is %s (WGSL #%s)", op, tex, tt.Access, strings.ToLower(op.String()))
		}
		fits = true
		for _, f := range ov.forms {
			if strings.HasPrefix(f, "C") != component && op == TexGather {
				continue
			}
			if len(f)+1 == nargs {
				return f, nil
			}
			counts = append(counts, fmt.Sprint(len(f)+1))
		}
	}
	if !fits {
		return "", fmt.Errorf("%s has no overload for %v (WGSL #%s)", op, tex, strings.ToLower(op.String()))
	}
	return "", fmt.Errorf("%s of %v takes %s argument(s), got %d", op, tex, strings.Join(counts, " or "), nargs)
}

func accessIn(as []TexAccess, a TexAccess) bool {
	for _, x := range as {
		if x == a {
			return true
		}
	}
	return false
}

// TextureArgCheck checks the type of argument letter l of form for
// texture type tex: nil when t fits, else what was expected.
func TextureArgCheck(l byte, tex *Type, t *Type) error {
	tt := tex.Tex
	want := ""
	switch l {
	case 'S':
		if t.Kind == KindSampler && !t.Tex.Comparison {
			return nil
		}
		want = "sampler"
	case 'Z':
		if t.Kind == KindSampler && t.Tex.Comparison {
			return nil
		}
		want = "sampler_comparison"
	case 'c', 'd':
		n := tt.Dim.CoordWidth()
		if t.Width() == n && t.Scalar() != nil && t.Scalar().Kind == KindF32 {
			return nil
		}
		want = widthName(n, "f32")
	case 'i':
		n := tt.Dim.CoordWidth()
		if t.Width() == n && t.Scalar().IsInteger() {
			return nil
		}
		want = widthName(n, "i32") + " or " + widthName(n, "u32")
	case 'a', 'L', 'n', 'C':
		if t.IsInteger() {
			return nil
		}
		want = "i32 or u32"
	case 'F':
		if t.Kind == KindF32 {
			return nil
		}
		want = "f32"
	case 'o':
		n := tt.Dim.CoordWidth()
		if t.Width() == n && t.Scalar() != nil && t.Scalar().Kind == KindI32 {
			return nil
		}
		want = widthName(n, "i32")
	case 'v':
		if t.Kind == KindVec && t.Len == 4 && t.Elem.Kind == tt.Sampled.Kind {
			return nil
		}
		want = fmt.Sprintf("vec4<%s>", tt.Sampled)
	default:
		want = "?"
	}
	return fmt.Errorf("expected %s, got %v", want, t)
}

func widthName(n int, s string) string {
	if n == 1 {
		return s
	}
	return fmt.Sprintf("vec%d<%s>", n, s)
}

// TextureResultType is the result type of op on texture type tex.
func TextureResultType(op TexOp, tex *Type) *Type {
	tt := tex.Tex
	switch op {
	case TexDimensions:
		if n := tt.Dim.SizeWidth(); n > 1 {
			return Vec(n, U32)
		}
		return U32
	case TexNumLayers, TexNumLevels, TexNumSamples:
		return U32
	case TexStore:
		return Void
	case TexSampleCompare, TexSampleCompareLevel:
		return F32
	case TexGather, TexGatherCompare:
		return Vec(4, tt.Sampled)
	}
	if tt.Class == TexDepth {
		return F32
	}
	return Vec(4, tt.Sampled)
}

// TextureFormLetter returns the form letter of argument i of e (the
// component and the texture included): 'T' for the texture.
func (e *TextureCall) FormLetter(i int) byte {
	form := e.Form
	if strings.HasPrefix(form, "C") {
		if i == 0 {
			return 'C'
		}
		i--
		form = form[1:]
	}
	if i == 0 {
		return 'T'
	}
	if i-1 < len(form) {
		return form[i-1]
	}
	return '?'
}

// TextureOperand returns the texture argument of e.
func (e *TextureCall) Texture() Expr { return e.Parts().Texture }
