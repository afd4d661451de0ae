package harness

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/cogentcore/webgpu/wgpu"
)

// AdapterInfo describes one WebGPU adapter found on this machine. It is plain
// data: it can be printed, compared and sent to another process.
type AdapterInfo struct {
	// Name is the adapter's stable short name, "<backend>:<device-short>",
	// e.g. "vulkan:llvmpipe", "vulkan:swiftshader", "gl:llvmpipe" or
	// "vulkan:nvidia-rtx-4090": lower-case, dashes between words, without
	// the parenthesised details of the device name. When two adapters would
	// get the same name, the later ones in Adapters order get "#2", "#3", ...
	Name string
	// Implementation is the WebGPU implementation that drives the adapter:
	// "wgpu" (wgpu-native). Another implementation (Dawn) will add its own
	// adapters.
	Implementation string
	// Backend is the native API under the implementation: "vulkan", "gl",
	// "metal", "dx12", "dx11", or "unknown".
	Backend string
	// Device is the device name as reported, e.g.
	// "llvmpipe (LLVM 15.0.6, 256 bits)".
	Device string
	// Vendor is the vendor name as reported; when the implementation
	// reports only a numeric id (wgpu-native v0.23 does), the name of a
	// known PCI/Khronos vendor id ("mesa", "google", "nvidia", ...), else the
	// id in hex.
	Vendor string
	// Driver and DriverInfo are the driver name and version as reported;
	// empty when the implementation does not report them (wgpu-native v0.23
	// does not).
	Driver, DriverInfo string
	// Type is the adapter type as reported: "discrete-gpu",
	// "integrated-gpu", "cpu" or "unknown".
	Type string
	// VendorID and DeviceID are the PCI (or Khronos-assigned) ids as
	// reported; 0 when unknown.
	VendorID, DeviceID uint32
}

// implWGPU is the Implementation of adapters driven by wgpu-native.
const implWGPU = "wgpu"

// knownVendors names vendor ids that adapters report only as numbers.
var knownVendors = map[uint32]string{
	0x1002:  "amd",
	0x1010:  "imgtec",
	0x106b:  "apple",
	0x10de:  "nvidia",
	0x13b5:  "arm",
	0x1414:  "microsoft",
	0x14e4:  "broadcom",
	0x1ae0:  "google",
	0x5143:  "qualcomm",
	0x8086:  "intel",
	0x10005: "mesa",
}

var bareHex = regexp.MustCompile(`^(0[xX])?[0-9a-fA-F]*$`)

// reported returns the first of vals that carries a name rather than a bare
// number, or "".
func reported(vals ...string) string {
	for _, v := range vals {
		if v = strings.TrimSpace(v); v != "" && !bareHex.MatchString(v) {
			return v
		}
	}
	return ""
}

// backendName maps a wgpu backend to AdapterInfo.Backend.
func backendName(b wgpu.BackendType) string {
	switch b {
	case wgpu.BackendTypeVulkan:
		return "vulkan"
	case wgpu.BackendTypeOpenGL, wgpu.BackendTypeOpenGLES:
		return "gl"
	case wgpu.BackendTypeMetal:
		return "metal"
	case wgpu.BackendTypeD3D12:
		return "dx12"
	case wgpu.BackendTypeD3D11:
		return "dx11"
	}
	return "unknown"
}

// wgpuInfo converts what wgpu-native reports about an adapter. Name is the
// short name without a duplicate suffix; nameAdapters adds those.
func wgpuInfo(in wgpu.AdapterInfo) AdapterInfo {
	info := AdapterInfo{
		Implementation: implWGPU,
		Backend:        backendName(in.BackendType),
		Device:         reported(in.Name, in.DriverDescription),
		Vendor:         reported(in.VendorName),
		Type:           in.AdapterType.String(),
		VendorID:       in.VendorId,
		DeviceID:       in.DeviceId,
	}
	if info.Vendor == "" {
		info.Vendor = knownVendors[in.VendorId]
	}
	if info.Vendor == "" {
		info.Vendor = fmt.Sprintf("%#x", in.VendorId)
	}
	if info.Type == "" {
		info.Type = "unknown"
	}
	info.Name = info.Backend + ":" + shortDevice(info.Device, info.VendorID)
	return info
}

var (
	parenthesised = regexp.MustCompile(`\([^)]*\)`)
	nonAlnum      = regexp.MustCompile(`[^a-z0-9]+`)
	// noiseWords are dropped from short names: brand and filler words
	// that make names longer without telling adapters apart.
	noiseWords = map[string]bool{"device": true, "geforce": true, "corporation": true}
)

// shortDevice derives the device part of a short name: the reported device
// name lower-cased, without parenthesised details and noise words, words
// joined by dashes, prefixed by the vendor for known GPU vendors that the
// name omits. "NVIDIA GeForce RTX 4090" → "nvidia-rtx-4090",
// "SwiftShader Device (Subzero)" → "swiftshader",
// "llvmpipe (LLVM 15.0.6, 256 bits)" → "llvmpipe".
func shortDevice(device string, vendorID uint32) string {
	s := parenthesised.ReplaceAllString(strings.ToLower(device), " ")
	var words []string
	for _, w := range strings.Fields(nonAlnum.ReplaceAllString(s, " ")) {
		if !noiseWords[w] {
			words = append(words, w)
		}
	}
	if v, ok := knownVendors[vendorID]; ok && v != "mesa" && v != "google" && len(words) > 0 && words[0] != v {
		words = append([]string{v}, words...)
	}
	if len(words) == 0 {
		return "unknown"
	}
	return strings.Join(words, "-")
}

// backendRank orders backends in Adapters: Vulkan first.
var backendRank = map[string]int{"vulkan": 0, "metal": 1, "dx12": 2, "gl": 3, "dx11": 4}

// typeRank orders adapter types within a backend: real GPUs first.
var typeRank = map[string]int{"discrete-gpu": 0, "integrated-gpu": 1, "unknown": 2, "cpu": 3}

func rank(m map[string]int, k string) int {
	if r, ok := m[k]; ok {
		return r
	}
	return len(m)
}

// nameAdapters sorts infos into Adapters order — by backend (Vulkan first),
// then type (GPUs before CPUs), then short name, then the order they were
// found in — and gives duplicate names their "#n" suffixes. It returns the
// permutation it applied: out[i] = in[perm[i]].
func nameAdapters(infos []AdapterInfo) (out []AdapterInfo, perm []int) {
	perm = make([]int, len(infos))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int {
		x, y := infos[a], infos[b]
		return cmp.Or(
			cmp.Compare(rank(backendRank, x.Backend), rank(backendRank, y.Backend)),
			cmp.Compare(rank(typeRank, x.Type), rank(typeRank, y.Type)),
			cmp.Compare(x.Name, y.Name),
		)
	})
	seen := map[string]int{}
	for _, p := range perm {
		info := infos[p]
		seen[info.Name]++
		if n := seen[info.Name]; n > 1 {
			info.Name = fmt.Sprintf("%s#%d", info.Name, n)
		}
		out = append(out, info)
	}
	return out, perm
}

// errNoAdapters is returned when no WebGPU adapter is found at all.
var errNoAdapters = errors.New("harness: no WebGPU adapters found (install mesa-vulkan-drivers and the other adapters with `make deps`)")

// enumerate lists every adapter of every backend in Adapters order, with the
// wgpu adapter objects in the same order. The caller releases the adapters.
func enumerate() ([]AdapterInfo, []*wgpu.Adapter) {
	all := instance().EnumerateAdapters(nil)
	infos := make([]AdapterInfo, len(all))
	for i, a := range all {
		infos[i] = wgpuInfo(a.GetInfo())
	}
	infos, perm := nameAdapters(infos)
	adapters := make([]*wgpu.Adapter, len(perm))
	for i, p := range perm {
		adapters[i] = all[p]
	}
	return infos, adapters
}

// Adapters enumerates every adapter of every backend that WebGPU finds on
// this machine, sorted in a stable order: by backend (Vulkan first, GL
// last), then GPUs before CPUs, then by name. On a machine with no GPU and
// `make deps` done that is vulkan:llvmpipe (lavapipe), vulkan:swiftshader
// and gl:llvmpipe.
//
// The first call creates the process-wide WebGPU instance and, before that,
// prepares the environment it needs (see setupEnv), changing only variables
// the user left unset: VK_ADD_DRIVER_FILES adds the SwiftShader ICD to the
// Vulkan loader's search, NODEVICE_SELECT=1 turns off Mesa's device-select
// layer. wgpu-native's own logging stays off unless GPUDIFF_WGPU_LOG (LogEnv)
// asks for it. It returns an error only when no adapter is found.
func Adapters() ([]AdapterInfo, error) {
	infos, adapters := enumerate()
	for _, a := range adapters {
		a.Release()
	}
	if len(infos) == 0 {
		return nil, errNoAdapters
	}
	return infos, nil
}

// Select picks adapters from all (as returned by Adapters) by selector, in
// the order of all and without duplicates. A selector is an exact short name
// ("vulkan:llvmpipe"), a prefix of short names ("vulkan", "vulkan:swift",
// "gl:"), or "all". An exact name selects only that adapter even when it is
// also a prefix of others ("vulkan:llvmpipe" does not select
// "vulkan:llvmpipe#2"). Names compare case-insensitively.
//
// With no selectors it returns the first Vulkan adapter (lavapipe on a
// machine without a GPU), or the first adapter when there is no Vulkan one.
// A selector that matches nothing is an error listing the available names;
// so is an empty all.
func Select(all []AdapterInfo, selectors []string) ([]AdapterInfo, error) {
	if len(all) == 0 {
		return nil, errNoAdapters
	}
	if len(selectors) == 0 {
		for _, a := range all {
			if a.Backend == "vulkan" {
				return []AdapterInfo{a}, nil
			}
		}
		return all[:1:1], nil
	}
	picked := make([]bool, len(all))
	for _, sel := range selectors {
		s := strings.ToLower(strings.TrimSpace(sel))
		matched := false
		if s == "all" {
			for i := range all {
				picked[i] = true
			}
			continue
		}
		for i, a := range all {
			if strings.ToLower(a.Name) == s {
				picked[i], matched = true, true
			}
		}
		if !matched && s != "" {
			for i, a := range all {
				if strings.HasPrefix(strings.ToLower(a.Name), s) {
					picked[i], matched = true, true
				}
			}
		}
		if !matched {
			return nil, &UnknownAdapterError{Selector: sel, Available: names(all)}
		}
	}
	var out []AdapterInfo
	for i, a := range all {
		if picked[i] {
			out = append(out, a)
		}
	}
	return out, nil
}

func names(all []AdapterInfo) []string {
	n := make([]string, len(all))
	for i, a := range all {
		n[i] = a.Name
	}
	return n
}

// UnknownAdapterError is returned by Select and Open for a selector or name
// that matches no adapter on this machine.
type UnknownAdapterError struct {
	Selector  string   // as given
	Available []string // short names of the adapters found, in Adapters order
}

func (e *UnknownAdapterError) Error() string {
	return fmt.Sprintf("harness: no adapter matches %q; available: %s (missing adapters: `make deps`)",
		e.Selector, strings.Join(e.Available, ", "))
}
