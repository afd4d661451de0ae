package harness

import (
	"fmt"
	"slices"
	"strings"
)

// What an adapter declares it cannot take (issue 37, item 5). A stack
// that refuses a valid module is a finding only when the adapter promised
// to take it: WebGPU binds an adapter at the core feature level to accept
// every core WGSL module within its features and limits, and an adapter
// that is not at that level — wgpu's GL backend (a "downlevel" adapter:
// wgpu's DownlevelFlags, naga's GLSL backend features), Dawn's GL and GLES
// backends (WebGPU compatibility mode) — declares what it lacks. Need and
// Limitation are that vocabulary: check derives a module's needs from its
// IR (check/promise.go) and asks Lacks whether the adapter declared one
// of them missing; harness only states the declarations, it decides no
// verdict. The optional features f16 and subgroups (issue 40) are needs of
// the same kind (NeedF16, NeedSubgroups): an adapter without the feature,
// or whose compiler cannot take it, declares them missing
// (declared_ext.go), so a module that needs one is skipped there with the
// reason, not judged.

// NeedKind is a kind of capability a module may need beyond what every
// adapter at WebGPU's core feature level takes.
type NeedKind string

const (
	// NeedTextureLevels: textureNumLevels (a texture's mip level count
	// queried in the shader).
	NeedTextureLevels NeedKind = "texture-levels"
	// NeedTextureSamples: textureNumSamples.
	NeedTextureSamples NeedKind = "texture-samples"
	// NeedStorageFormat: a storage texture of format Need.Arg (a WebGPU
	// texture format name, "rg32float").
	NeedStorageFormat NeedKind = "storage-format"
	// NeedSamplersPerTexture: one texture sampled with two or more
	// samplers (GLSL's combined image samplers cannot express it).
	NeedSamplersPerTexture NeedKind = "samplers-per-texture"
	// NeedDepthLoad: textureLoad of a depth texture.
	NeedDepthLoad NeedKind = "depth-texture-load"
	// NeedDepthContents: a depth texture binding (texture_depth_*), whose
	// texels the harness must write before the dispatch.
	NeedDepthContents NeedKind = "depth-texture-contents"
	// NeedCubeArray: a texture_cube_array binding.
	NeedCubeArray NeedKind = "cube-array"
	// NeedF16: the f16 type anywhere in the module (WGSL `enable f16;`,
	// #extension-f16; WebGPU feature "shader-f16"). Not a core need: an
	// adapter without the feature is not bound to take it (WebGPU
	// #dom-gpufeaturename-shader-f16).
	NeedF16 NeedKind = FeatureShaderF16
	// NeedSubgroups: a subgroup or quad builtin function or the
	// subgroup_invocation_id / subgroup_size builtin values (WGSL `enable
	// subgroups;`, #extension-subgroups; WebGPU feature "subgroups").
	NeedSubgroups NeedKind = FeatureSubgroups
	// NeedLanguageFeature: a WGSL language extension, named by Need.Arg
	// (WGSL #language-extensions-sec; WebGPU wgslLanguageFeatures), such
	// as "packed_4x8_integer_dot_product" for pack4xI8, pack4xU8, their
	// Clamp forms and unpack4xI8/unpack4xU8 (WGSL
	// #pack4xI8-builtin … #unpack4xU8-builtin). An implementation that
	// does not list the extension in wgslLanguageFeatures is not bound to
	// take a module that uses it.
	NeedLanguageFeature NeedKind = "wgsl-language-feature"
)

// LanguageFeaturePacked4x8 is the WGSL language extension of the packed
// 4x8 integer builtins (WGSL #language-extension-packed-4x8-integer-dot-product).
const LanguageFeaturePacked4x8 = "packed_4x8_integer_dot_product"

// Need is one capability a module needs: its kind, the argument the kind
// takes (a format), and where in the module it is needed, in words
// ("textureNumLevels(t) at 7:11").
type Need struct {
	Kind  NeedKind
	Arg   string
	Where string
}

// Limitation is one capability an adapter declares it lacks: the kind,
// Arg when it is about one argument of the kind only ("" for all of
// them), and Declared, where and how the adapter or its implementation
// declares it — what a user reads as the reason the run was skipped.
//
// Unjudged marks a limitation that holds even when the stack accepts
// the module and runs it: such a run is skipped (not judged) whatever it
// returned, where the others skip only a run the stack rejected.
type Limitation struct {
	Kind     NeedKind
	Arg      string
	Declared string
	Unjudged bool
}

// nagaGLSL is what naga's GLSL backend, the shader compiler of wgpu's GL
// backend (wgpu-native's and Deno's), declares for GLSL ES, the language
// wgpu's GL backend writes: naga's glsl::Features lists TEXTURE_LEVELS and
// TEXTURE_SAMPLES as desktop-GLSL-only ("only available on glsl core, this
// means that opengl es can't query the number of samples nor levels in a
// image", naga/src/back/glsl/features.rs, check_availability); storage
// images of a format outside GLSL ES 3.10's image format qualifiers
// (§4.4.7: no rg32f, rg32i, rg32ui) need FULL_IMAGE_FORMATS
// (GL_NV_image_formats), which Mesa's GLES does not offer; and a GLSL
// sampler is one texture with one sampler, so naga refuses a texture used
// with two (glsl::Error::ImageMultipleSamplers, "A image was used with
// multiple samplers"; README "Textures and samplers").
var nagaGLSL = []Limitation{
	{Kind: NeedTextureLevels, Declared: "TEXTURE_LEVELS (textureNumLevels) is not among the GLSL ES capabilities of naga's GLSL backend (naga glsl::Features: desktop GLSL only)"},
	{Kind: NeedTextureSamples, Declared: "TEXTURE_SAMPLES (textureNumSamples) is not among the GLSL ES capabilities of naga's GLSL backend (naga glsl::Features: desktop GLSL only)"},
	{Kind: NeedStorageFormat, Arg: "rg32float", Declared: "rg32float is not a GLSL ES 3.10 image format (naga glsl::Features FULL_IMAGE_FORMATS needs GL_NV_image_formats, which this GLES lacks)"},
	{Kind: NeedStorageFormat, Arg: "rg32uint", Declared: "rg32uint is not a GLSL ES 3.10 image format (naga glsl::Features FULL_IMAGE_FORMATS needs GL_NV_image_formats, which this GLES lacks)"},
	{Kind: NeedStorageFormat, Arg: "rg32sint", Declared: "rg32sint is not a GLSL ES 3.10 image format (naga glsl::Features FULL_IMAGE_FORMATS needs GL_NV_image_formats, which this GLES lacks)"},
	{Kind: NeedSamplersPerTexture, Declared: "wgpu's GL backend binds each texture with one sampler (GLSL combined image samplers; naga: \"A image was used with multiple samplers\")"},
	// Not naga's but wgpu-hal's GL: no copy writes a depth texture there,
	// and the render-pass upload that stands in for one (render_upload.go)
	// is read back as zeros by textureSampleCompareLevel on wgpu 0.19.4's
	// GL backend while every other stack reads the texels: whose bug that
	// is (wgpu's attachment handling or the upload pass) is not settled,
	// so no such run is judged.
	{Kind: NeedDepthContents, Declared: "wgpu's GL backend lacks DownlevelFlags::DEPTH_TEXTURE_AND_BUFFER_COPIES (\"Cannot encode this copy because of a missing downlevel flag\"): no copy writes a depth texture, and gpudiff's render-pass upload of one reads back as zeros there (unsettled whose bug)", Unjudged: true},
}

// compatMode is what WebGPU's compatibility mode, the feature level of
// Dawn's GL and GLES adapters (harness/dawn doc.go), takes away from core
// (WebGPU compatibility mode proposal): rg32 formats as storage textures,
// textureLoad of depth textures, and cube array textures.
var compatMode = []Limitation{
	{Kind: NeedStorageFormat, Arg: "rg32float", Declared: "compatibility mode has no rg32float storage textures"},
	{Kind: NeedStorageFormat, Arg: "rg32uint", Declared: "compatibility mode has no rg32uint storage textures"},
	{Kind: NeedStorageFormat, Arg: "rg32sint", Declared: "compatibility mode has no rg32sint storage textures"},
	{Kind: NeedDepthLoad, Declared: "compatibility mode has no textureLoad of depth textures"},
	{Kind: NeedCubeArray, Declared: "compatibility mode has no cube array textures"},
}

// DeclaredLimitations is what adapter info declares it lacks: of WebGPU's
// core, by its FeatureLevel — nothing at the core feature level (wgpu's
// and Deno's Vulkan, Metal and D3D12 adapters, Dawn's Vulkan ones),
// naga's GLSL ES limits for wgpu's (and Deno's) GL adapters (downlevel),
// compatibility mode's for Dawn's GL and GLES adapters — and then the
// optional features f16 and subgroups it cannot take (NeedF16,
// NeedSubgroups; extensionLimitations, declared_ext.go): its
// implementation's compiler (wgpu-native's naga 0.19 has neither, Deno's
// WebGPU has no subgroups) or its feature list (Features, or those of the
// adapter of that name this process listed: Known).
func DeclaredLimitations(info AdapterInfo) []Limitation {
	var core []Limitation
	switch FeatureLevel(info) {
	case "downlevel":
		core = nagaGLSL
	case "compatibility":
		core = compatMode
	}
	ext := extensionLimitations(info)
	if len(ext) == 0 {
		return core
	}
	return append(slices.Clone(core), ext...)
}

// Lacks is the reason adapter info declares it cannot take n — the
// adapter's name, then the declaration ("wgpu-gl:llvmpipe: TEXTURE_LEVELS
// (textureNumLevels) is not among …") and where the module needs it —
// or "" when the adapter declares no such limitation (it promised to take
// n).
func Lacks(info AdapterInfo, n Need) string {
	return lacks(info, n, false)
}

// LacksUnjudged is Lacks for the limitations marked Unjudged only: a run
// of a module with need n on info is not judged even when it ran.
func LacksUnjudged(info AdapterInfo, n Need) string {
	return lacks(info, n, true)
}

func lacks(info AdapterInfo, n Need, unjudged bool) string {
	for _, l := range DeclaredLimitations(info) {
		if unjudged && !l.Unjudged {
			continue
		}
		if l.Kind == n.Kind && (l.Arg == "" || strings.EqualFold(l.Arg, n.Arg)) {
			s := fmt.Sprintf("%s: %s", info.Name, l.Declared)
			if n.Where != "" {
				s += ": " + n.Where
			}
			return s
		}
	}
	return ""
}

// FeatureLevel is the WebGPU feature level adapter info is at, from its
// implementation and backend (read from its Name where the fields are
// empty): "downlevel" for wgpu's and Deno's GL adapters (wgpu's GL backend
// is not WebGPU compliant), "compatibility" for Dawn's GL and GLES ones,
// else "core".
func FeatureLevel(info AdapterInfo) string {
	impl, backend := info.Implementation, info.Backend
	if i, b, _, ok := NameParts(info.Name); ok {
		if impl == "" {
			impl = i
		}
		if backend == "" {
			backend = b
		}
	}
	switch {
	case BackendFamily(backend) != "gl":
		return "core"
	case impl == implWGPU || impl == "deno":
		return "downlevel"
	case impl == "dawn":
		return "compatibility"
	}
	return "core"
}
