package harness

import (
	"slices"
	"strings"
	"sync"

	"github.com/cogentcore/webgpu/wgpu"
)

// WebGPU feature names (GPUFeatureName, WebGPU §24 "Feature Index") that
// gpudiff's kernels may need. Devices of every implementation request
// these two where the adapter has them (wgpu-native's request every
// webgpu.h feature, wgpuext.DeviceFeatures; Dawn's and Deno's workers
// these two: harness/dawn worker.mjs), so that a module with `enable f16;`
// or `enable subgroups;` compiles where the adapter offers the feature.
const (
	// FeatureShaderF16 allows the f16 type (WGSL `enable f16;`, WGSL
	// #extension-f16).
	FeatureShaderF16 = "shader-f16"
	// FeatureSubgroups allows the subgroup and quad builtins (WGSL `enable
	// subgroups;`, WGSL #extension-subgroups) and brings the adapter's
	// subgroup size range (AdapterInfo.SubgroupMinSize, SubgroupMaxSize).
	FeatureSubgroups = "subgroups"
)

// HasFeature reports whether a lists WebGPU feature f (AdapterInfo.Features,
// "shader-f16"). An adapter whose features were not listed has none.
func (a AdapterInfo) HasFeature(f string) bool { return slices.Contains(a.Features, f) }

// webgpuFeatureNames are the GPUFeatureName strings of webgpu.h's
// WGPUFeatureName values as the linked wgpu-native numbers them
// (wgpuext/include/webgpu.h); cogentcore/webgpu's String() spells some
// otherwise ("float32filterable").
var webgpuFeatureNames = map[wgpu.FeatureName]string{
	wgpu.FeatureNameDepthClipControl:        "depth-clip-control",
	wgpu.FeatureNameDepth32FloatStencil8:    "depth32float-stencil8",
	wgpu.FeatureNameTimestampQuery:          "timestamp-query",
	wgpu.FeatureNameTextureCompressionBC:    "texture-compression-bc",
	wgpu.FeatureNameTextureCompressionETC2:  "texture-compression-etc2",
	wgpu.FeatureNameTextureCompressionASTC:  "texture-compression-astc",
	wgpu.FeatureNameIndirectFirstInstance:   "indirect-first-instance",
	wgpu.FeatureNameShaderF16:               FeatureShaderF16,
	wgpu.FeatureNameRG11B10UfloatRenderable: "rg11b10ufloat-renderable",
	wgpu.FeatureNameBGRA8UnormStorage:       "bgra8unorm-storage",
	wgpu.FeatureNameFloat32Filterable:       "float32-filterable",
}

// wgpuFeatures names the WebGPU features among fs (what wgpu-native's
// adapter enumerates), sorted; wgpu-native's native features (0x0003xxxx)
// and unknown values are left out. Never nil: the features were listed.
func wgpuFeatures(fs []wgpu.FeatureName) []string {
	out := []string{}
	for _, f := range fs {
		if n, ok := webgpuFeatureNames[f]; ok && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// SortFeatures returns the distinct feature names of fs, sorted, never nil:
// AdapterInfo.Features as every implementation fills it.
func SortFeatures(fs []string) []string {
	out := []string{}
	for _, f := range fs {
		if f = strings.TrimSpace(f); f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

// knownInfos caches every AdapterInfo Adapters, LocalAdapters or
// AllAdapters listed in this process, by full name (remember), for Known
// and Lacks: check judges a run by its adapter's name.
var knownInfos struct {
	sync.Mutex
	byName map[string]AdapterInfo
}

func rememberInfos(infos []AdapterInfo) {
	knownInfos.Lock()
	defer knownInfos.Unlock()
	if knownInfos.byName == nil {
		knownInfos.byName = map[string]AdapterInfo{}
	}
	for _, a := range infos {
		knownInfos.byName[a.Name] = a
	}
}

// Known returns the AdapterInfo this process listed under name (a full
// Name, exactly) with Adapters, LocalAdapters or AllAdapters — its
// features and subgroup sizes included — and false when none did. It lists
// nothing itself.
func Known(name string) (AdapterInfo, bool) {
	knownInfos.Lock()
	defer knownInfos.Unlock()
	a, ok := knownInfos.byName[name]
	return a, ok
}

// withKnownFeatures is info with Features and the subgroup sizes of the
// adapter of the same name this process listed, where info has none.
func withKnownFeatures(info AdapterInfo) AdapterInfo {
	if info.Features != nil {
		return info
	}
	if k, ok := Known(info.Name); ok {
		info.Features, info.SubgroupMinSize, info.SubgroupMaxSize = k.Features, k.SubgroupMinSize, k.SubgroupMaxSize
		if info.Variant == "" {
			info.Variant = k.Variant
		}
	}
	return info
}
