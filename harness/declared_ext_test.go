package harness

import (
	"context"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quoted lists the stack messages a Declared text quotes ("…" parts,
// with "…" inside one standing for any text).
func quoted(declared string) []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, m := range regexp.MustCompile(`"([^"]+)"`).FindAllStringSubmatch(declared, -1) {
		parts := regexp.MustCompile(`…`).Split(m[1], -1)
		for i, p := range parts {
			parts[i] = regexp.QuoteMeta(p)
		}
		out = append(out, regexp.MustCompile(joinAny(parts)))
	}
	return out
}

func joinAny(parts []string) string {
	s := parts[0]
	for _, p := range parts[1:] {
		s += ".*" + p
	}
	return s
}

// TestNaga019DeclaresNoF16NorSubgroups: every wgpu-native adapter declares
// both extensions missing (and the language extension
// packed_4x8_integer_dot_product), whatever it lists (lavapipe lists shader-f16),
// and what the declaration quotes is what naga 0.19 says on lavapipe for
// the smallest modules that need each: WGSL with and without the enable
// directive, and the hand-written SPIR-V twins (testdata/f16half.spvasm:
// OpTypeFloat 16; testdata/subgroupadd.spvasm: GroupNonUniform).
func TestNaga019DeclaresNoF16NorSubgroups(t *testing.T) {
	all, err := Adapters()
	require.NoError(t, err)
	for _, a := range all {
		for _, k := range []NeedKind{NeedF16, NeedSubgroups} {
			assert.Contains(t, Lacks(a, Need{Kind: k, Where: "1:1"}), "naga 0.19", "%s %s", a.Name, k)
			assert.Contains(t, Lacks(AdapterInfo{Name: a.Name}, Need{Kind: k}), "naga 0.19", "%s by name", a.Name)
		}
	}
	assert.Equal(t, "wgpu-vulkan:llvmpipe: "+naga019[0].Declared+": f16 at 2:5", Lacks(AdapterInfo{Name: lavapipe}, Need{Kind: NeedF16, Where: "f16 at 2:5"}))

	d := openDevice(t, lavapipe)
	require.True(t, d.Info().HasFeature(FeatureShaderF16), "lavapipe lists shader-f16: the declaration is naga's, not the driver's")
	const sub = "@group(0) @binding(1) var<storage, read_write> o: array<u32>;\n" +
		"@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) l: u32) { o[l] = subgroupAdd(1u); }"
	const size = "@group(0) @binding(1) var<storage, read_write> o: array<u32>;\n" +
		"@compute @workgroup_size(64) fn main(@builtin(subgroup_size) s: u32) { o[0] = s; }"
	const f16 = "@compute @workgroup_size(1) fn main() { let h: f16 = 1.5h; }"
	msgs := map[NeedKind][]string{}
	compile := func(k NeedKind, src string) {
		err := d.CompileWGSL(src)
		var ce *CompileError
		require.ErrorAs(t, err, &ce, "naga 0.19 refuses %q", src)
		msgs[k] = append(msgs[k], ce.Message)
	}
	compile(NeedF16, "enable f16;\n"+f16)
	compile(NeedF16, f16)
	compile(NeedSubgroups, "enable subgroups;\n"+sub)
	compile(NeedSubgroups, sub)
	compile(NeedSubgroups, size)
	compile(NeedLanguageFeature, "@group(0) @binding(1) var<storage, read_write> o: array<u32>;\n"+
		"@compute @workgroup_size(1) fn main() { o[0] = pack4xU8Clamp(vec4<u32>(o[1])); }")
	for _, a := range all {
		assert.Contains(t, Lacks(a, Need{Kind: NeedLanguageFeature, Arg: LanguageFeaturePacked4x8}), "naga 0.19", a.Name)
		assert.Empty(t, Lacks(a, Need{Kind: NeedLanguageFeature, Arg: "pointer_composite_access"}), "%s: only the extension named is declared missing", a.Name)
	}
	assert.Empty(t, Lacks(AdapterInfo{Name: "dawn-gl:llvmpipe", Features: []string{}}, Need{Kind: NeedLanguageFeature, Arg: LanguageFeaturePacked4x8}), "Dawn takes the packed 4x8 builtins")
	for k, file := range map[NeedKind]string{NeedF16: "testdata/f16half.spvasm", NeedSubgroups: "testdata/subgroupadd.spvasm"} {
		_, err := d.Run(context.Background(), Kernel{SPIRV: assembleSPIRV(t, file), EntryPoint: "main"}, Dispatch{Input: make([]byte, 256), OutputSize: 256, Invocations: 64})
		var ce *CompileError
		require.ErrorAs(t, err, &ce, "naga 0.19's SPIR-V front end refuses %s", file)
		msgs[k] = append(msgs[k], ce.Message)
	}
	for _, l := range naga019 {
		for _, q := range quoted(l.Declared) {
			found := false
			for _, m := range msgs[l.Kind] {
				found = found || q.MatchString(m)
			}
			assert.True(t, found, "%s: naga 0.19 never said %s: %q", l.Kind, q, msgs[l.Kind])
		}
	}
}

// TestExtensionLimitationsByFeatures: an adapter of another
// implementation lacks a feature its Features do not list, with the
// driver's reason where known; one whose features are unknown promises
// neither; the core limitations are kept.
func TestExtensionLimitationsByFeatures(t *testing.T) {
	sw := AdapterInfo{Name: "dawn-vulkan:swiftshader", Implementation: "dawn", Backend: "vulkan", Features: []string{FeatureSubgroups}}
	assert.Contains(t, Lacks(sw, Need{Kind: NeedF16}), "SwiftShader has no Vulkan shaderFloat16")
	assert.Empty(t, Lacks(sw, Need{Kind: NeedSubgroups}))
	gpu := AdapterInfo{Name: "dawn-vulkan:nvidia-rtx-4090", Implementation: "dawn", Backend: "vulkan", Features: []string{FeatureShaderF16, FeatureSubgroups}}
	assert.Empty(t, Lacks(gpu, Need{Kind: NeedF16}))
	assert.Empty(t, Lacks(gpu, Need{Kind: NeedSubgroups}))
	assert.Empty(t, DeclaredLimitations(gpu), "a core adapter with both features declares nothing")
	gl := AdapterInfo{Name: "dawn-gl:llvmpipe", Implementation: "dawn", Backend: "gl", Features: []string{}}
	assert.Contains(t, Lacks(gl, Need{Kind: NeedSubgroups}), "compatibility mode")
	assert.NotEmpty(t, Lacks(gl, Need{Kind: NeedCubeArray}), "compatibility mode's own limitations stay")
	unknown := AdapterInfo{Name: "dawn-vulkan:never-listed"}
	assert.Contains(t, Lacks(unknown, Need{Kind: NeedF16}), "unknown")
	deno := AdapterInfo{Name: "deno-vulkan:llvmpipe", Features: []string{FeatureShaderF16}}
	assert.Contains(t, Lacks(deno, Need{Kind: NeedSubgroups}), "wgpu-core 29")
	assert.Empty(t, Lacks(deno, Need{Kind: NeedF16}))
	denoGPU := AdapterInfo{Name: "deno-vulkan:nvidia-rtx-4090", Features: []string{FeatureShaderF16, FeatureSubgroups}}
	assert.Empty(t, Lacks(denoGPU, Need{Kind: NeedSubgroups}), "a Deno adapter with the feature promises it")
	assert.True(t, hasWord("swiftshader-mesa25", "swiftshader"))
	assert.False(t, hasWord("swiftshaderx", "swiftshader"))
}
