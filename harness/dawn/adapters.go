package dawn

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/driverid"
)

// Implementation is the AdapterInfo.Implementation of Dawn's adapters and
// the prefix of their names.
const Implementation = "dawn"

func init() {
	harness.RegisterImplementation(harness.Implementation{
		Name:     Implementation,
		Adapters: Adapters,
		Open: func(name string) (harness.Runner, error) {
			d, err := Open(name)
			if err != nil {
				return nil, err // not a nil *Device in a non-nil Runner
			}
			return d, nil
		},
	})
}

// startTimeout bounds starting a worker and getting its first reply (node,
// the npm package, Dawn's instance and adapter, the device): about 0.3 s
// here.
const startTimeout = 60 * time.Second

// wireAdapter is an adapter as worker.mjs describes it.
type wireAdapter struct {
	Backend           string `json:"backend"` // Dawn's backend name: "vulkan", "opengl", "opengles", ...
	Name              string `json:"name"`    // the adapter's name in Dawn's listing; "" for the default adapter
	Vendor            string `json:"vendor"`
	Architecture      string `json:"architecture"`
	Device            string `json:"device"`
	Description       string `json:"description"`
	IsFallbackAdapter bool   `json:"isFallbackAdapter"`
	FeatureLevel      string `json:"featureLevel"` // "core" or "compatibility"
	// Features are GPUAdapter.features, SubgroupMinSize and
	// SubgroupMaxSize GPUAdapterInfo's (0 where the implementation has
	// none).
	Features        []string   `json:"features"`
	SubgroupMinSize uint32     `json:"subgroupMinSize"`
	SubgroupMaxSize uint32     `json:"subgroupMaxSize"`
	Limits          wireLimits `json:"limits"`
}

type wireLimits struct {
	// MaxStorageBuffersPerShaderStage bounds a module's storage buffers
	// and the subgroup probe binding check adds beside them (issue 40,
	// item 5): 16 on Dawn's lavapipe, 12 on its SwiftShader.
	MaxStorageBuffersPerShaderStage  uint32 `json:"maxStorageBuffersPerShaderStage"`
	MaxStorageBufferBindingSize      uint64 `json:"maxStorageBufferBindingSize"`
	MaxBufferSize                    uint64 `json:"maxBufferSize"`
	MaxComputeWorkgroupsPerDimension uint64 `json:"maxComputeWorkgroupsPerDimension"`
	MaxUniformBufferBindingSize      uint64 `json:"maxUniformBufferBindingSize"`
	MaxBindGroups                    uint64 `json:"maxBindGroups"`
	MaxVertexBuffers                 uint32 `json:"maxVertexBuffers"`
	MaxVertexAttributes              uint32 `json:"maxVertexAttributes"`
	MaxVertexBufferArrayStride       uint32 `json:"maxVertexBufferArrayStride"`
}

// backendNames maps Dawn's backend names to AdapterInfo.Backend. Dawn has
// both desktop OpenGL and OpenGL ES, so they get distinct names.
var backendNames = map[string]string{
	"vulkan": "vulkan", "metal": "metal", "d3d12": "dx12", "d3d11": "dx11",
	"opengl": "gl", "opengles": "gles",
	"gl": "gl", // Deno's DENO_WEBGPU_BACKEND name
}

// cpuDevices matches device names of software renderers; Dawn reports no
// adapter type, only whether an adapter is a fallback (SwiftShader is).
var cpuDevices = regexp.MustCompile(`(?i)llvmpipe|lavapipe|softpipe|swiftshader|basic render driver`)

// info converts what the worker run by t reports, without the name and
// the driver set.
func (a wireAdapter) info(t tools) harness.AdapterInfo {
	backend := backendNames[a.Backend]
	if backend == "" {
		backend = "unknown"
	}
	device := a.Name
	if device == "" {
		device = a.Device
	}
	if t.deno != "" {
		// Deno's info.device is the numeric device id; its description
		// is the device name.
		device = a.Description
	}
	vendor := strings.ToLower(a.Vendor)
	if vendor == "" && strings.Contains(strings.ToLower(a.Description), "mesa") {
		vendor = "mesa" // Dawn's GL backends report no vendor
	}
	if vendor == "" {
		vendor = "unknown"
	}
	typ := "unknown"
	if a.IsFallbackAdapter || cpuDevices.MatchString(device) {
		typ = "cpu"
	}
	id := driverid.ParseDescription(a.Description)
	if id.Driver == "" {
		id.Driver = vendor
	}
	info := harness.AdapterInfo{
		Implementation:        t.impl(),
		ImplementationVersion: t.implVersion,
		Backend:               backend,
		Device:                device,
		Vendor:                vendor,
		Driver:                id.Driver,
		DriverVersion:         id.Version,
		DriverInfo:            a.Description,
		Type:                  typ,
		Features:              harness.SortFeatures(a.Features),
	}
	if slices.Contains(info.Features, harness.FeatureSubgroups) {
		// WebGPU defines the range only with the feature: Deno reports
		// 8..8 for lavapipe and 4..128 for its GL adapter without it.
		info.SubgroupMinSize, info.SubgroupMaxSize = a.SubgroupMinSize, a.SubgroupMaxSize
	}
	return info
}

// adapter is a named adapter and what the worker needs to open it: the
// adapter as the worker listed it and the environment (KEY=VALUE pairs
// over the worker's usual one) it was listed in.
type adapter struct {
	info harness.AdapterInfo
	wire wireAdapter
	env  []string
}

// listing is an implementation's adapters, listed once per process by
// find: the first successful call lists, later calls return the same.
type listing struct {
	mu       sync.Mutex
	adapters []adapter // nil until listed successfully
	find     func() ([]adapter, error)
}

func (l *listing) get() ([]adapter, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.adapters != nil {
		return l.adapters, nil
	}
	as, err := l.find()
	if err != nil {
		return nil, err
	}
	l.adapters = as
	return as, nil
}

// infos lists the AdapterInfos of the listing's adapters.
func (l *listing) infos() ([]harness.AdapterInfo, error) {
	as, err := l.get()
	if err != nil {
		return nil, err
	}
	infos := make([]harness.AdapterInfo, len(as))
	for i, a := range as {
		infos[i] = a.info
	}
	return infos, nil
}

// dawnListing is Dawn's adapters: list with the tools locate finds.
var dawnListing = &listing{find: func() ([]adapter, error) {
	t, err := locate()
	if err != nil {
		return nil, err
	}
	return list(t)
}}

// Adapters lists the adapters Dawn offers on this machine, named and
// ordered by harness.NameAdapters: on a machine with no GPU after `make
// deps`, dawn-vulkan:swiftshader, dawn-gl:llvmpipe and dawn-gles:llvmpipe.
// Every backend Dawn has on this platform is asked (Linux: Vulkan, OpenGL,
// OpenGL ES), at WebGPU's core feature level or else in compatibility mode.
//
// The first successful call runs a node process (about 0.3 s here); later
// calls return the same list. Errors wrap ErrNotInstalled when node or the
// npm package is missing; finding no adapter is not an error.
func Adapters() ([]harness.AdapterInfo, error) { return dawnListing.infos() }

// list lists Dawn's adapters in every driver set (harness.DriverSets): the
// system's, with the worker's usual environment, and each extra set's,
// with its Env (only its drivers), its adapters named with its suffix.
func list(t tools) ([]adapter, error) {
	var unnamed []harness.AdapterInfo
	var from []adapter
	for _, set := range harness.DriverSets() {
		ws, err := listWire(t, set.Env)
		if err != nil {
			if set.Name == "" {
				return nil, err
			}
			continue // an extra set Dawn cannot run at all adds nothing
		}
		for _, w := range ws {
			info := w.info(t)
			info.DriverSet = set.Name
			unnamed = append(unnamed, info)
			from = append(from, adapter{info: info, wire: w, env: slices.Clone(set.Env)})
		}
	}
	for _, v := range lavapipeVariants(t, from) { // variants.go
		unnamed = append(unnamed, v.info)
		from = append(from, v)
	}
	return nameAll(unnamed, from), nil
}

// listWire runs the worker in list mode with env over its usual
// environment and returns what it reports: the adapters of backends
// (Dawn's names), or of every backend when none is given.
func listWire(t tools, env []string, backends ...string) ([]wireAdapter, error) {
	name := t.impl()
	w, err := startWorker(t, env, append([]string{"list"}, backends...)...)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	var reply struct {
		Adapters []wireAdapter `json:"adapters"`
		Fatal    string        `json:"fatal"`
	}
	err = w.read(ctx, &reply)
	if err != nil {
		w.kill()
		if err == errDied {
			return nil, fmt.Errorf("%s: listing adapters: %s", name, w.postMortem())
		}
		return nil, fmt.Errorf("%s: listing adapters: %w", name, err)
	}
	w.stop()
	if reply.Fatal != "" {
		return nil, fmt.Errorf("%s: listing adapters: %s", name, reply.Fatal)
	}
	return reply.Adapters, nil
}

// nameAll names unnamed (harness.NameAdapters) and returns from's adapters
// (from[i] is unnamed[i]'s) in that order with their names.
func nameAll(unnamed []harness.AdapterInfo, from []adapter) []adapter {
	// NameAdapters sorts stably; give each named info the first unused
	// adapter that it came from.
	named := harness.NameAdapters(unnamed)
	used := make([]bool, len(unnamed))
	out := make([]adapter, 0, len(named))
	for _, n := range named {
		bare := n
		bare.Name = ""
		i := -1
		for j := range unnamed {
			if !used[j] && reflect.DeepEqual(unnamed[j], bare) {
				i = j
				break
			}
		}
		used[i] = true
		a := from[i]
		a.info = n
		out = append(out, a)
	}
	if out == nil {
		out = []adapter{} // listed: cache "none"
	}
	return out
}
