package harness

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// DriverSet is a set of user-space drivers that gpudiff can run adapters
// on beside the system's own, e.g. a newer Mesa unpacked into the build
// directory by `make deps`. Processes that use a set (worker processes of
// every implementation) run with its Env added to their environment; the
// adapters found in it carry its Name in AdapterInfo.DriverSet and, as a
// suffix, in their names.
type DriverSet struct {
	// Name is "" for the system's drivers, else a short lower-case word
	// used as the adapter name suffix ("mesa25").
	Name string
	// Version is what the set is, for people: "Mesa 25.0.7-2~bpo12+1".
	// "" for the system's set.
	Version string
	// Env is KEY=VALUE pairs that select the set's drivers in a process
	// started with them (replacing the caller's values of those keys):
	// for Vulkan VK_ICD_FILENAMES (only the set's ICDs), for GL/EGL the
	// variables that point glvnd and Mesa's loader at the set's libraries,
	// and LD_LIBRARY_PATH for their dependencies. Empty for the system's
	// set.
	Env []string
	// VulkanICDs are the set's Vulkan ICD manifests (absolute paths), for
	// implementations that can open only one driver per process (Deno):
	// each is tried alone with VK_ICD_FILENAMES. For the system's set, the
	// loader's manifests found in the standard directories plus
	// SwiftShader's.
	VulkanICDs []string
}

// DriverSets lists the driver sets present on this machine: the system's
// (always first, Name "") and each extra set found. Finding none extra is
// not an error.
func DriverSets() []DriverSet {
	return []DriverSet{systemDriverSet()}
}

// vulkanICDDirs are the directories the Vulkan loader reads ICD manifests
// from on Linux when VK_ICD_FILENAMES and VK_DRIVER_FILES are unset
// (LoaderInterfaceArchitecture.md, "Driver Discovery on Linux"), in its
// search order.
var vulkanICDDirs = []string{"/etc/vulkan/icd.d", "/usr/local/share/vulkan/icd.d", "/usr/share/vulkan/icd.d"}

// systemDriverSet is the system's drivers: every manifest of the loader's
// standard directories for this machine's architecture, then SwiftShader's
// (which harness adds to the loader's list, see setupEnv).
func systemDriverSet() DriverSet {
	var icds []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[filepath.Base(p)] {
			seen[filepath.Base(p)] = true
			icds = append(icds, p)
		}
	}
	for _, dir := range vulkanICDDirs {
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			n := e.Name()
			if !strings.HasSuffix(n, ".json") || otherArch(n) {
				continue
			}
			add(filepath.Join(dir, n))
		}
	}
	if _, err := os.Stat(swiftShaderICD); err == nil {
		add(swiftShaderICD)
	}
	return DriverSet{VulkanICDs: icds}
}

// otherArch reports whether an ICD manifest's file name names an
// architecture other than this process's (Debian installs
// lvp_icd.x86_64.json and lvp_icd.i686.json side by side).
func otherArch(file string) bool {
	arches := map[string]string{"amd64": "x86_64", "386": "i686", "arm64": "aarch64", "arm": "armv7l"}
	mine := arches[runtime.GOARCH]
	for _, a := range arches {
		if a != mine && strings.Contains(file, "."+a+".") {
			return true
		}
	}
	return false
}
