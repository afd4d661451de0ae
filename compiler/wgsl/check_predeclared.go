package wgsl

import "strings"

// Predeclared names (WGSL #predeclared-types, #predeclared-enumerants,
// "Built-in Functions"): an identifier that resolves to no declaration
// must be one of these, or it is an error.

// chkPredeclaredFuncs lists every builtin function of WGSL.
var chkPredeclaredFuncs = chkSet(`abs acos acosh all any arrayLength asin asinh atan atan2 atanh
atomicAdd atomicAnd atomicCompareExchangeWeak atomicExchange atomicLoad atomicMax atomicMin
atomicOr atomicStore atomicSub atomicXor bitcast bufferArrayView bufferLength bufferView ceil
clamp cos cosh countLeadingZeros countOneBits countTrailingZeros cross degrees determinant
distance dot dot4I8Packed dot4U8Packed dpdx dpdxCoarse dpdxFine dpdy dpdyCoarse dpdyFine exp
exp2 extractBits faceForward firstLeadingBit firstTrailingBit floor fma fract frexp fwidth
fwidthCoarse fwidthFine insertBits inverseSqrt ldexp length log log2 max min mix modf normalize
pack2x16float pack2x16snorm pack2x16unorm pack4x8snorm pack4x8unorm pack4xI8 pack4xI8Clamp
pack4xU8 pack4xU8Clamp pow quadBroadcast quadSwapDiagonal quadSwapX quadSwapY quantizeToF16
radians reflect refract reverseBits round saturate select sign sin sinh smoothstep sqrt step
storageBarrier subgroupAdd subgroupAll subgroupAnd subgroupAny subgroupBallot subgroupBroadcast
subgroupBroadcastFirst subgroupElect subgroupExclusiveAdd subgroupExclusiveMul
subgroupInclusiveAdd subgroupInclusiveMul subgroupMax subgroupMin subgroupMul subgroupOr
subgroupShuffle subgroupShuffleDown subgroupShuffleUp subgroupShuffleXor subgroupXor tan tanh
textureBarrier textureDimensions textureGather textureGatherCompare textureLoad
textureNumLayers textureNumLevels textureNumSamples textureSample textureSampleBaseClampToEdge
textureSampleBias textureSampleCompare textureSampleCompareLevel textureSampleGrad
textureSampleLevel textureStore transpose trunc unpack2x16float unpack2x16snorm
unpack2x16unorm unpack4x8snorm unpack4x8unorm unpack4xI8 unpack4xU8 workgroupBarrier
workgroupUniformLoad`)

// chkPredeclaredTypes lists predeclared types and type-generators other
// than the vector and matrix families.
var chkPredeclaredTypes = chkSet(`bool f16 f32 i32 u32 sampler sampler_comparison
texture_depth_2d texture_depth_2d_array texture_depth_cube texture_depth_cube_array
texture_depth_multisampled_2d texture_external array atomic ptr buffer texture_1d texture_2d
texture_2d_array texture_3d texture_cube texture_cube_array texture_multisampled_2d
texture_storage_1d texture_storage_2d texture_storage_2d_array texture_storage_3d vec2 vec3
vec4`)

// chkPredeclaredEnumerants lists access modes, address spaces and texel
// formats.
var chkPredeclaredEnumerants = chkSet(`read write read_write function private workgroup uniform
storage immediate rgba8unorm rgba8snorm rgba8uint rgba8sint rgba16unorm rgba16snorm rgba16uint
rgba16sint rgba16float rg8unorm rg8snorm rg8uint rg8sint rg16unorm rg16snorm rg16uint rg16sint
rg16float r32uint r32sint r32float rg32uint rg32sint rg32float rgba32uint rgba32sint
rgba32float bgra8unorm r8unorm r8snorm r8uint r8sint r16unorm r16snorm r16uint r16sint
r16float rgb10a2unorm rgb10a2uint rg11b10ufloat`)

func chkSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// chkIsPredeclaredType reports whether name is a predeclared type,
// type-generator or predeclared type alias.
func chkIsPredeclaredType(name string) bool {
	if chkPredeclaredTypes[name] || chkIsMatrixName(name) {
		return true
	}
	_, ok := chkVecAliases[name]
	return ok
}

// chkIsPredeclared reports whether name denotes any predeclared object.
func chkIsPredeclared(name string) bool {
	return chkIsPredeclaredType(name) || chkPredeclaredFuncs[name] || chkPredeclaredEnumerants[name]
}

// chkOutsideTypeReason names why a predeclared type name is outside the
// subset, or returns "" for the subset's own type names (f16 and its
// aliases included: `enable f16;` is the resolver's to require).
func chkOutsideTypeReason(name string) string {
	switch {
	case name == "ptr":
		return "pointer type"
	case name == "buffer":
		return "buffer type"
	case strings.HasPrefix(name, "texture_"):
		return "texture type " + name
	case strings.HasPrefix(name, "sampler"):
		return "sampler type " + name
	}
	return ""
}

// chkPrinterNames are predeclared names the canonical printer spells in
// any function; a module that redeclares one cannot keep IR functions.
var chkPrinterNames = chkSet(`bool i32 u32 f32 vec2 vec3 vec4 array select bitcast`)
