package harness

import (
	"cmp"
	"slices"
	"strings"
)

// What an adapter declares it lacks of WGSL's two optional extensions
// gpudiff runs, f16 and subgroups (issue 40), and of WGSL's language
// extensions (NeedLanguageFeature): WebGPU binds an adapter to
// take `enable f16;` only with its shader-f16 feature and `enable
// subgroups;` only with subgroups (WebGPU #dom-gpufeaturename-shader-f16,
// #dom-gpufeaturename-subgroups; WGSL #enable-extensions-sec), so a module
// that needs one on an adapter without it is not a finding but a run
// skipped, for the reason Declared gives. Each text below was observed on
// this machine's stacks (harness/dawn extensions_test.go,
// harness declared_ext_test.go).

// naga019 is what wgpu-native as linked (wgpu 0.19.4, naga 0.19.2) cannot
// take, on every adapter and in both formats: naga 0.19's WGSL front end
// has no enable directives and no f16 type, and its SPIR-V front end —
// wgpu-native has no SPIR-V passthrough — refuses 16-bit floats and the
// GroupNonUniform capabilities. wgpu gained subgroups in 0.20 and naga
// f16 in 25; the adapter may still list shader-f16 (lavapipe does: the
// driver has it, naga does not).
var naga019 = []Limitation{
	{Kind: NeedF16, Declared: "naga 0.19 (wgpu-native as linked) has no f16, although the adapter lists shader-f16: " +
		"its WGSL front end parses no enable directive (\"expected global item … found 'enable'\") and no f16 type (\"unimplemented f16 type\"), " +
		"its SPIR-V front end refuses OpTypeFloat 16 (\"invalid type width\")"},
	{Kind: NeedSubgroups, Declared: "naga 0.19 (wgpu-native as linked) has no subgroup operations (wgpu has them from 0.20): " +
		"its WGSL front end knows no subgroup builtin (\"no definition in scope for identifier: 'subgroupAdd'\", \"unknown builtin: 'subgroup_size'\"), " +
		"its SPIR-V front end refuses GroupNonUniform (\"unsupported capability GroupNonUniform\"), and wgpu-native has no SPIR-V passthrough"},
	// A language extension, not a feature: WebGPU lists those an
	// implementation takes in wgslLanguageFeatures, and wgpu-native 0.19
	// has none (naga took pack4xI8 & co in 22, their Clamp forms in 25,
	// gfx-rs/wgpu#7544). gpudiff's SPIR-V spells the builtins in bit
	// operations, so only WGSL needs it (check moduleNeeds).
	{Kind: NeedLanguageFeature, Arg: LanguageFeaturePacked4x8, Declared: "naga 0.19 (wgpu-native as linked) lists no WGSL language feature, and " + LanguageFeaturePacked4x8 +
		" is not among what its WGSL front end takes (\"no definition in scope for identifier: 'pack4x…'\")"},
}

// denoNoSubgroups says why a Deno adapter without the subgroups feature
// has none: Deno knows the feature name "subgroups" (its binary maps it
// to wgpu's SUBGROUP), but wgpu-core 29 offers SUBGROUP on none of this
// machine's adapters — GPUAdapter.features has no "subgroups" on lavapipe
// (22.3 or 25, where Dawn has it), SwiftShader (where Dawn has it too) or
// GL, though lavapipe's GPUAdapterInfo reports a subgroup size — so a
// device never has the feature and naga 29 validates without the
// capability. (wgpu-hal's Vulkan backend gates SUBGROUP on
// subgroupSupportedOperations and stages and on subgroup size control;
// which condition fails here was not determined.) A Deno adapter that
// lists subgroups promises them for modules without the directive, which
// naga 29 refuses.
const denoNoSubgroups = ": wgpu-core 29 (deno 2.9.6) offers no SUBGROUP here, so " +
	"naga 29 refuses subgroup builtins (\"Shader requires capability Capabilities(SUBGROUP)\"), " +
	"and `enable subgroups;` on any device (\"this enable-extension specifies standard functionality which is not yet implemented in Naga\")"

// extensionLimitations is what info declares it lacks of f16 and
// subgroups: for wgpu-native, its compiler's limits (naga019, whatever
// the adapter lists); for any other implementation, every one of the two
// features its Features (or, when info has none, those of the adapter of
// its name this process listed, Known) lack, saying why where the
// driver, backend or implementation is known to have none. An adapter
// whose features are unknown declares both missing: nothing promises
// them.
func extensionLimitations(info AdapterInfo) []Limitation {
	impl := info.Implementation
	if i, _, _, ok := NameParts(info.Name); ok && impl == "" {
		impl = i
	}
	if impl == implWGPU {
		return naga019
	}
	var out []Limitation
	info = withKnownFeatures(info)
	for _, k := range []NeedKind{NeedF16, NeedSubgroups} {
		if info.Features == nil {
			out = append(out, Limitation{Kind: k, Declared: "the adapter's features are unknown (it was not listed in this process), so it does not promise " + string(k)})
			continue
		}
		if !info.HasFeature(string(k)) {
			out = append(out, Limitation{Kind: k, Declared: "the adapter has no " + string(k) + " feature (GPUAdapter.features)" + lackReason(info, k)})
		}
	}
	return out
}

// lackReason says, where it is known, why the adapter's driver or backend
// has no feature k: SwiftShader has no Vulkan shaderFloat16 (its
// VkPhysicalDeviceShaderFloat16Int8Features), Dawn's GL and GLES
// backends offer neither feature, wgpu's GL backend (Deno's) no
// SHADER_F16.
func lackReason(info AdapterInfo, k NeedKind) string {
	impl, backend, device := info.Implementation, info.Backend, ""
	if i, b, d, ok := NameParts(info.Name); ok {
		impl, backend, device = cmp.Or(impl, i), cmp.Or(backend, b), d
	}
	switch {
	case k == NeedF16 && BackendFamily(backend) == "vulkan" && hasWord(device, "swiftshader"):
		return ": SwiftShader has no Vulkan shaderFloat16"
	case BackendFamily(backend) == "gl" && impl == "dawn":
		return ": Dawn's GL and GLES backends (compatibility mode) offer no " + string(k)
	case BackendFamily(backend) == "gl" && impl == "deno" && k == NeedF16:
		return ": wgpu's GL backend offers no SHADER_F16"
	case impl == "deno" && k == NeedSubgroups:
		return denoNoSubgroups
	}
	return ""
}

// hasWord reports whether the dash-separated short name s has word w.
func hasWord(s, w string) bool { return slices.Contains(strings.Split(s, "-"), w) }
