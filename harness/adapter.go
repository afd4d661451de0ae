package harness

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/gpudiff/gpudiff/harness/driverid"
)

// AdapterInfo describes one WebGPU adapter found on this machine. It is plain
// data: it can be printed, compared and sent to another process.
type AdapterInfo struct {
	// Name is the adapter's stable name,
	// "<implementation>-<backend>:<device-short>", e.g.
	// "wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader", "wgpu-gl:llvmpipe",
	// "dawn-vulkan:swiftshader" or "wgpu-vulkan:nvidia-rtx-4090":
	// lower-case, dashes between words, without the parenthesised details
	// of the device name. A driver set's name follows the device
	// ("wgpu-vulkan:llvmpipe-mesa25"), then a Variant's
	// ("dawn-vulkan:llvmpipe-mesa25-lp128": Mesa 25's lavapipe under
	// LP_NATIVE_VECTOR_WIDTH=128, subgroup size 4; -lp512, size 16; the
	// name without a variant is the driver at its own width, 8 on an AVX2
	// host). When two adapters of one implementation would get
	// the same name, the later ones in their Adapters order get "#2",
	// "#3", ... The older short form without the implementation
	// ("vulkan:llvmpipe") is an alias of wgpu's adapter (see Lookup).
	Name string `json:"name"`
	// Implementation is the WebGPU implementation that drives the adapter:
	// "wgpu" (wgpu-native, in this process) or the name another
	// implementation registered with RegisterImplementation ("dawn", from
	// package harness/dawn).
	Implementation string `json:"implementation"`
	// ImplementationVersion is the version of that implementation, naming
	// its shader compiler where it is a separate component, e.g.
	// "wgpu 0.19.4 (naga 0.19.2)" for the wgpu-native gpudiff links,
	// "webgpu 0.6.2 (dawn.node)" for Dawn's npm package, "deno 2.9.6
	// (wgpu-core 29.0.1, naga 29.0.3)" for Deno's WebGPU. "" when unknown.
	ImplementationVersion string `json:"implementation_version"`
	// DriverSet names the set of user-space drivers the adapter was found
	// in: "" for the system's own (the Vulkan loader's and EGL's default
	// drivers, plus SwiftShader), or the name of a set gpudiff loads beside
	// them (DriverSets: "mesa25" for the Mesa 25 that `make deps` unpacks
	// into the build). A non-empty set is part of the adapter's name
	// ("wgpu-vulkan:llvmpipe-mesa25"), so two llvmpipe drivers of different
	// Mesa versions are never confused.
	DriverSet string `json:"driver_set,omitempty"`
	// Backend is the native API under the implementation: "vulkan", "gl"
	// (OpenGL or, for wgpu, OpenGL ES), "gles" (OpenGL ES where the
	// implementation offers both, as Dawn does), "metal", "dx12", "dx11", or
	// "unknown".
	Backend string `json:"backend"`
	// Device is the device name as reported, e.g.
	// "llvmpipe (LLVM 15.0.6, 256 bits)".
	Device string `json:"device"`
	// Vendor is the vendor name as reported; when the implementation
	// reports only a numeric id (the linked wgpu-native, wgpu 0.19.4, does), the name of a
	// known PCI/Khronos vendor id ("mesa", "google", "nvidia", ...), else the
	// id in hex.
	Vendor string `json:"vendor"`
	// Driver is the driver's name: for wgpu's Vulkan adapters
	// VkPhysicalDeviceDriverProperties.driverName ("llvmpipe",
	// "SwiftShader driver", "NVIDIA"), for wgpu's GL adapter the driver
	// GL_VERSION names ("Mesa"), both read by package harness/driverid
	// (the linked wgpu-native, wgpu 0.19.4, reports neither); for Dawn's adapters Dawn's
	// driver description. When no driver is found it is the Vendor, and
	// DriverVersion is "".
	Driver string `json:"driver"`
	// DriverVersion is the driver's version: Vulkan's driverVersion decoded
	// per vendor, or the Mesa version in driverInfo ("22.3.6"); the version
	// in GL_VERSION for GL; for Dawn the version its description names.
	// "" when unknown.
	DriverVersion string `json:"driver_version"`
	// DriverInfo is the driver's free-form description: Vulkan's
	// driverInfo ("Mesa 22.3.6 (LLVM 15.0.6)"), the whole GL_VERSION
	// ("OpenGL ES 3.2 Mesa 22.3.6"), or Dawn's description.
	DriverInfo string `json:"driver_info"`
	// DriverConformance is the Vulkan conformance test suite version the
	// driver reports passing ("1.3.1.1"); "" for other backends.
	DriverConformance string `json:"driver_conformance"`
	// Type is the adapter type as reported: "discrete-gpu",
	// "integrated-gpu", "cpu" or "unknown".
	Type string `json:"type"`
	// VendorID and DeviceID are the PCI (or Khronos-assigned) ids as
	// reported; 0 when unknown.
	VendorID uint32 `json:"vendor_id"`
	DeviceID uint32 `json:"device_id"`
	// Features are the WebGPU features the adapter has (GPUAdapter.features:
	// GPUFeatureName strings, WebGPU §24 "Feature Index", e.g.
	// "shader-f16", "subgroups", "float32-filterable"), sorted; nil when
	// not listed (an AdapterInfo built from a name, or read from a file
	// written before gpudiff recorded them). For wgpu-native's adapters,
	// the webgpu.h features wgpu-native reports (its native features are
	// left out): a feature listed here need not be one its shader
	// compiler takes — naga 0.19 lists shader-f16 on lavapipe but parses
	// no f16 (DeclaredLimitations says so). Devices request shader-f16
	// and subgroups where the adapter has them (features.go).
	Features []string `json:"features,omitempty"`
	// SubgroupMinSize and SubgroupMaxSize are the adapter's subgroup size
	// range (GPUAdapterInfo.subgroupMinSize and subgroupMaxSize, WebGPU
	// #dom-gpuadapterinfo-subgroupminsize): every subgroup of a compute
	// dispatch has one size in [min, max], a power of two. Set only when
	// Features has "subgroups" (WebGPU defines them only then; Deno
	// reports 4 and 128 for its GL adapter, which has none); 0 otherwise.
	// Dawn's Vulkan adapters here: llvmpipe of Mesa 25 8..8 (lavapipe's
	// size is LP_NATIVE_VECTOR_WIDTH / 32: Variant), SwiftShader 4..4.
	SubgroupMinSize uint32 `json:"subgroup_min_size,omitempty"`
	SubgroupMaxSize uint32 `json:"subgroup_max_size,omitempty"`
	// Variant names a setting of the driver the adapter runs under beyond
	// its driver set, part of its name after the set's suffix: "" for the
	// driver as it is, "lp128" or "lp512" for lavapipe under
	// LP_NATIVE_VECTOR_WIDTH=128 or 512 (subgroup size 4 or 16 instead of
	// 8): "dawn-vulkan:llvmpipe-mesa25-lp128". Select's "all" leaves
	// variants out; Variants lists those of chosen adapters (variant.go).
	Variant string `json:"variant,omitempty"`
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
		Implementation:        implWGPU,
		ImplementationVersion: WGPUImplementationVersion,
		Backend:               backendName(in.BackendType),
		Device:                reported(in.Name, in.DriverDescription),
		Vendor:                reported(in.VendorName),
		Type:                  in.AdapterType.String(),
		VendorID:              in.VendorId,
		DeviceID:              in.DeviceId,
		DriverSet:             CurrentDriverSet(), // this process's drivers (driverset.go)
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
	info.Name = baseName(info)
	return info
}

// baseName is the name of an adapter before duplicate suffixes:
// "<implementation>-<backend>:<device-short>".
func baseName(a AdapterInfo) string {
	vendor := knownVendors[a.VendorID]
	if vendor == "" {
		vendor = strings.ToLower(a.Vendor)
	}
	name := a.Implementation + "-" + a.Backend + ":" + shortDevice(a.Device, vendor)
	if a.DriverSet != "" {
		name += "-" + a.DriverSet
	}
	if a.Variant != "" {
		name += "-" + a.Variant
	}
	return name
}

var (
	parenthesised = regexp.MustCompile(`\([^)]*\)`)
	nonAlnum      = regexp.MustCompile(`[^a-z0-9]+`)
	// noiseWords are dropped from short names: brand and filler words
	// that make names longer without telling adapters apart.
	noiseWords = map[string]bool{"device": true, "geforce": true, "corporation": true}
)

// gpuVendors are the vendor names (values of knownVendors) that shortDevice
// puts before a device name that omits them: vendors of GPUs, not of
// software renderers (mesa, google).
var gpuVendors = func() map[string]bool {
	m := map[string]bool{}
	for _, v := range knownVendors {
		m[v] = v != "mesa" && v != "google"
	}
	return m
}()

// shortDevice derives the device part of a name: the reported device name
// lower-cased, without parenthesised details and noise words, words joined
// by dashes, prefixed by the vendor (a lower-case vendor name as in
// knownVendors) for GPU vendors that the name omits.
// "NVIDIA GeForce RTX 4090" → "nvidia-rtx-4090",
// "SwiftShader Device (Subzero)" → "swiftshader",
// "llvmpipe (LLVM 15.0.6, 256 bits)" → "llvmpipe".
func shortDevice(device, vendor string) string {
	s := parenthesised.ReplaceAllString(strings.ToLower(device), " ")
	var words []string
	for _, w := range strings.Fields(nonAlnum.ReplaceAllString(s, " ")) {
		if !noiseWords[w] {
			words = append(words, w)
		}
	}
	if gpuVendors[vendor] && len(words) > 0 && words[0] != vendor {
		words = append([]string{vendor}, words...)
	}
	if len(words) == 0 {
		return "unknown"
	}
	return strings.Join(words, "-")
}

// backendRank orders backends in Adapters: Vulkan first.
var backendRank = map[string]int{"vulkan": 0, "metal": 1, "dx12": 2, "gl": 3, "gles": 4, "dx11": 5}

// typeRank orders adapter types within a backend: real GPUs first.
var typeRank = map[string]int{"discrete-gpu": 0, "integrated-gpu": 1, "unknown": 2, "cpu": 3}

func rank(m map[string]int, k string) int {
	if r, ok := m[k]; ok {
		return r
	}
	return len(m)
}

// nameAdapters sorts infos into Adapters order — by backend (Vulkan first),
// then type (GPUs before CPUs), then name, then the order they were found
// in — and gives duplicate names their "#n" suffixes. It returns the
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

// NameAdapters names and orders the adapters of one implementation the way
// Adapters does for wgpu's, so every implementation's names follow one rule:
// it returns a copy of infos with each Name set to
// "<Implementation>-<Backend>:<device-short>" (derived from Device and
// Vendor or VendorID), sorted by backend (Vulkan first), then type (GPUs
// before CPUs), then name, then the order given, with "#2", "#3", ... after
// repeated names. It is for packages that add an implementation (see
// RegisterImplementation).
func NameAdapters(infos []AdapterInfo) []AdapterInfo {
	named := make([]AdapterInfo, len(infos))
	for i, a := range infos {
		a.Name = baseName(a)
		named[i] = a
	}
	out, _ := nameAdapters(named)
	return out
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
		infos[i].Features = wgpuFeatures(a.EnumerateFeatures())
	}
	infos, perm := nameAdapters(infos)
	adapters := make([]*wgpu.Adapter, len(perm))
	for i, p := range perm {
		adapters[i] = all[p]
	}
	return infos, adapters
}

// withDriver fills in the driver identity of a wgpu adapter from the native
// API (package driverid): Vulkan adapters by vendor id, device id and device
// name, GL adapters by renderer (Device). An adapter whose driver cannot be
// found keeps DriverVersion "" and gets its Vendor as Driver.
func withDriver(a AdapterInfo) AdapterInfo {
	var (
		id driverid.Identity
		ok bool
	)
	switch a.Backend {
	case "vulkan":
		id, ok = driverid.ForVulkan(a.VendorID, a.DeviceID, a.Device)
	case "gl":
		id, ok = driverid.ForGL(a.Device)
	}
	if ok {
		a.Driver, a.DriverVersion, a.DriverInfo, a.DriverConformance = id.Driver, id.Version, id.Info, id.Conformance
	}
	if a.Driver == "" {
		a.Driver = a.Vendor
	}
	return a
}

// Adapters enumerates every adapter of every backend that wgpu-native finds
// on this machine, sorted in a stable order: by backend (Vulkan first, GL
// last), then GPUs before CPUs, then by name. On a machine with no GPU and
// `make deps` done that is wgpu-vulkan:llvmpipe (lavapipe),
// wgpu-vulkan:llvmpipe-mesa25 (lavapipe of Mesa 25, driver set mesa25),
// wgpu-vulkan:swiftshader, wgpu-gl:llvmpipe and wgpu-gl:llvmpipe-mesa25.
// AllAdapters adds the adapters of other implementations (Dawn).
//
// The adapters of this process's driver set (the system's, unless
// DriverSetEnv says otherwise) are wgpu-native's in this process. Those of
// every other set DriverSets finds (mesa25) are listed by a child process
// started with the set's Env (this executable, answered by harness's init:
// one per set and process, about 0.2 s, run while this process enumerates
// its own); they carry the set's name in DriverSet and in their names, and
// only a process of their set opens them (Open refuses them; OpenAny,
// harness/devices and harness/worker start one).
//
// The first call creates the process-wide WebGPU instance and, before that,
// prepares the environment it needs (see setupEnv), changing only variables
// the user left unset: VK_ADD_DRIVER_FILES adds the SwiftShader ICD to the
// Vulkan loader's search, NODEVICE_SELECT=1 turns off Mesa's device-select
// layer. wgpu-native's own logging stays off unless GPUDIFF_WGPU_LOG (LogEnv)
// asks for it. The first call also asks the Vulkan loader and EGL for the
// drivers' identities (package driverid, tens of milliseconds, once per
// process; a set's child asks its own) to fill Driver, DriverVersion,
// DriverInfo and DriverConformance.
//
// It returns an error when no adapter is found, and a *DriverSetError for
// each extra set whose child could not list its adapters (joined; the
// other adapters are returned with it).
func Adapters() ([]AdapterInfo, error) { return adapters(true) }

// LocalAdapters is Adapters without the other driver sets: the wgpu
// adapters this process itself finds (those of CurrentDriverSet, the
// system's unless DriverSetEnv says otherwise), which Open opens, with their
// drivers. It starts no process. Error: none found.
func LocalAdapters() ([]AdapterInfo, error) { return adapters(false) }

// adapters lists this process's wgpu adapters and, when sets is true and
// this process is of the system's set, every extra set's.
func adapters(sets bool) ([]AdapterInfo, error) {
	type listed struct {
		infos []AdapterInfo
		err   error
	}
	var others []chan listed
	if sets && CurrentDriverSet() == "" {
		for _, s := range DriverSets()[1:] {
			ch := make(chan listed, 1)
			go func() {
				infos, err := listSetOnce(s)
				ch <- listed{infos, err}
			}()
			others = append(others, ch)
		}
	}
	infos, adapters := enumerate()
	for _, a := range adapters {
		a.Release()
	}
	for i := range infos {
		infos[i] = withDriver(infos[i])
	}
	var errs []error
	if len(others) > 0 {
		for _, ch := range others {
			l := <-ch
			infos = append(infos, l.infos...)
			errs = append(errs, l.err)
		}
		infos, _ = nameAdapters(infos) // Adapters order across sets; names are distinct
	}
	remember(infos)
	if len(infos) == 0 {
		return nil, errors.Join(append(errs, errNoAdapters)...)
	}
	return infos, errors.Join(errs...)
}

// aliasImplementation is the implementation whose adapters the short names
// without an implementation designate: before gpudiff named
// implementations, every adapter was wgpu's.
const aliasImplementation = implWGPU

// matches returns the indexes of the adapters of all that name designates,
// by the first rule that matches any (names compare case-insensitively):
//
//  1. name is an adapter's Name ("wgpu-vulkan:llvmpipe");
//  2. name is the alias of an adapter: its Name without the leading
//     "wgpu-" ("vulkan:llvmpipe" is "wgpu-vulkan:llvmpipe");
//  3. name is a prefix of Names ("wgpu", "dawn", "dawn-vulkan",
//     "wgpu-vulkan:swift");
//  4. name is a prefix of aliases ("vulkan", "gl:", "vulkan:swift": wgpu's
//     adapters only).
//
// A prefix (rules 3 and 4) matches variants (AdapterInfo.Variant) only
// when it matches no other adapter: "dawn" is Dawn's adapters without
// dawn-vulkan:llvmpipe-mesa25-lp128, "dawn-vulkan:llvmpipe-mesa25-lp"
// its two variants.
//
// An empty name matches nothing.
func matches(all []AdapterInfo, name string) []int {
	s := strings.ToLower(strings.TrimSpace(name))
	if s == "" {
		return nil
	}
	alias := aliasImplementation + "-" + s
	rules := []func(n string) bool{
		func(n string) bool { return n == s },
		func(n string) bool { return n == alias },
		func(n string) bool { return strings.HasPrefix(n, s) },
		func(n string) bool { return strings.HasPrefix(n, alias) },
	}
	for r, rule := range rules {
		var idx []int
		for i, a := range all {
			if rule(strings.ToLower(a.Name)) {
				idx = append(idx, i)
			}
		}
		if r >= 2 {
			// A prefix leaves variants out where it names any other
			// adapter (variant.go).
			if others := slices.DeleteFunc(slices.Clone(idx), func(i int) bool { return isVariant(all[i]) }); len(others) > 0 {
				idx = others
			}
		}
		if len(idx) > 0 {
			return idx
		}
	}
	return nil
}

// Select picks adapters from all (as returned by Adapters or AllAdapters)
// by selector, in the order of all and without duplicates. A selector is
// "all" (every adapter in all but the variants: AdapterInfo.Variant,
// variant.go), or a name or prefix as Lookup takes it, except that a
// prefix selects every adapter it matches (variants only where it
// matches nothing else):
//
//   - an exact name selects that adapter, even when it is also a prefix of
//     others ("wgpu-vulkan:llvmpipe" does not select
//     "wgpu-vulkan:llvmpipe#2");
//   - an alias, a name without the "wgpu-" of wgpu's adapters, selects that
//     wgpu adapter ("vulkan:llvmpipe" selects "wgpu-vulkan:llvmpipe", never
//     Dawn's);
//   - a prefix of names selects all it prefixes ("wgpu", "dawn",
//     "dawn-vulkan", "wgpu-vulkan:swift");
//   - otherwise a prefix of aliases selects those wgpu adapters ("vulkan"
//     selects wgpu's Vulkan adapters, "gl:" wgpu's GL adapter).
//
// Names compare case-insensitively. With no selectors it returns the first
// Vulkan adapter (wgpu's lavapipe on a machine without a GPU), or the first
// adapter when there is no Vulkan one. A selector that matches nothing is an
// *UnknownAdapterError listing the available names; so is an empty all.
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
		if strings.EqualFold(strings.TrimSpace(sel), "all") {
			for i, a := range all {
				picked[i] = picked[i] || !isVariant(a)
			}
			continue
		}
		idx := matches(all, sel)
		if len(idx) == 0 {
			return nil, &UnknownAdapterError{Selector: sel, Available: names(all)}
		}
		for _, i := range idx {
			picked[i] = true
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

// Lookup returns the one adapter of all (as returned by Adapters or
// AllAdapters) that name designates: the adapter with that Name; else the
// wgpu adapter with that alias (the Name without its leading "wgpu-", the
// short names gpudiff used before it named implementations:
// "vulkan:llvmpipe" is "wgpu-vulkan:llvmpipe"); else the only adapter whose
// Name, or the only wgpu adapter whose alias, starts with name
// ("dawn-vulkan", "gl"). Names compare case-insensitively.
//
// A name that matches no adapter is an *UnknownAdapterError, a prefix that
// matches several an *AmbiguousAdapterError listing them.
func Lookup(all []AdapterInfo, name string) (AdapterInfo, error) {
	idx := matches(all, name)
	switch len(idx) {
	case 0:
		return AdapterInfo{}, &UnknownAdapterError{Selector: name, Available: names(all)}
	case 1:
		return all[idx[0]], nil
	}
	m := make([]string, len(idx))
	for i, j := range idx {
		m[i] = all[j].Name
	}
	return AdapterInfo{}, &AmbiguousAdapterError{Name: name, Matches: m}
}

func names(all []AdapterInfo) []string {
	n := make([]string, len(all))
	for i, a := range all {
		n[i] = a.Name
	}
	return n
}

// UnknownAdapterError is returned by Select, Lookup and Open for a selector
// or name that matches no adapter on this machine.
type UnknownAdapterError struct {
	Selector  string   // as given
	Available []string // names of the adapters found, in Adapters order
}

func (e *UnknownAdapterError) Error() string {
	return fmt.Sprintf("harness: no adapter matches %q; available: %s (missing adapters: `make deps`)",
		e.Selector, strings.Join(e.Available, ", "))
}

// AmbiguousAdapterError is returned by Lookup and Open for a name that is a
// prefix of several adapters' names and no adapter's full name.
type AmbiguousAdapterError struct {
	Name    string   // as given
	Matches []string // names of the adapters it matches, in Adapters order
}

func (e *AmbiguousAdapterError) Error() string {
	return fmt.Sprintf("harness: adapter name %q is ambiguous: it matches %s",
		e.Name, strings.Join(e.Matches, ", "))
}
