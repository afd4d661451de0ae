package harness

import (
	"cmp"
	"slices"
	"strings"
)

// What an adapter declares it lacks of WGSL's two optional extensions
// gpudiff runs, f16 and subgroups (issue 40): WebGPU binds an adapter to
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
}

// denoSubgroups is Deno's WebGPU's: wgpu-core 29 keeps SUBGROUP a native
// feature its WebGPU does not offer (GPUAdapter.features has no
// "subgroups" on any adapter here, though lavapipe's GPUAdapterInfo
// reports a subgroup size), so naga 29 validates without the capability.
var denoSubgroups = Limitation{Kind: NeedSubgroups, Declared: "Deno's WebGPU (wgpu-core 29) offers no subgroups feature on any adapter (wgpu's SUBGROUP stays a native feature there): " +
	"naga 29 refuses `enable subgroups;` (\"this enable-extension specifies standard functionality which is not yet implemented in Naga\") " +
	"and subgroup builtins without it (\"Shader requires capability Capabilities(SUBGROUP)\")"}

// extensionLimitations is what info declares it lacks of f16 and
// subgroups: its implementation's compiler's limits (naga019 for wgpu,
// denoSubgroups for Deno), then every one of the two features its
// Features (or, when info has none, those of the adapter of its name this
// process listed, Known) lack, saying why where the driver or backend is
// known to have none. An adapter whose features are unknown declares both
// missing: nothing promises them.
func extensionLimitations(info AdapterInfo) []Limitation {
	impl := info.Implementation
	if i, _, _, ok := NameParts(info.Name); ok && impl == "" {
		impl = i
	}
	if impl == implWGPU {
		return naga019
	}
	var out []Limitation
	if impl == "deno" {
		out = append(out, denoSubgroups)
	}
	info = withKnownFeatures(info)
	for _, k := range []NeedKind{NeedF16, NeedSubgroups} {
		if impl == "deno" && k == NeedSubgroups {
			continue
		}
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
	}
	return ""
}

// hasWord reports whether the dash-separated short name s has word w.
func hasWord(s, w string) bool { return slices.Contains(strings.Split(s, "-"), w) }
