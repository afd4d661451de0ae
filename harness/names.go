package harness

import "strings"

// NameParts splits a stable adapter name (AdapterInfo.Name,
// "<implementation>-<backend>:<device>", with "#n" on the later of two
// same-named adapters) into its implementation, backend and device short
// name (without "#n"). ok is false for a name of another form (an alias
// such as "vulkan:llvmpipe").
func NameParts(name string) (impl, backend, device string, ok bool) {
	impl, rest, ok1 := strings.Cut(name, "-")
	backend, device, ok2 := strings.Cut(rest, ":")
	if !ok1 || !ok2 {
		return "", "", "", false
	}
	device, _, _ = strings.Cut(device, "#")
	return impl, backend, device, true
}

// BackendFamily is the API family of a backend: "gles" counts as "gl".
func BackendFamily(backend string) string {
	if backend == "gles" {
		return "gl"
	}
	return backend
}

// DriverOf names the driver an adapter runs on, from its stable name: its
// backend's API family and device, e.g. "vulkan:swiftshader" for both
// "wgpu-vulkan:swiftshader" and "dawn-vulkan:swiftshader". Two
// implementations on one driver run their own compilers' output on it.
// A name of another form is its own driver.
func DriverOf(name string) string {
	_, backend, device, ok := NameParts(name)
	if !ok {
		return name
	}
	return BackendFamily(backend) + ":" + device
}

// CompilerOf names an implementation's WGSL compiler: "naga" (wgpu),
// "Tint" (dawn), "Deno's naga" (deno), else "<implementation>'s compiler".
func CompilerOf(impl string) string {
	switch impl {
	case implWGPU:
		return "naga"
	case "dawn":
		return "Tint"
	case "deno":
		// wgpu-core's naga, a current release (harness/dawn's
		// DenoImplementation): another naga than wgpu-native's.
		return "Deno's naga"
	}
	return impl + "'s compiler"
}
