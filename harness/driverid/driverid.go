package driverid

import (
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"sync"
)

// Identity names a driver and its version.
type Identity struct {
	// Driver is the driver's name: Vulkan's driverName ("llvmpipe",
	// "SwiftShader driver", "NVIDIA"), or for OpenGL the word(s) after the
	// GL version in GL_VERSION ("Mesa", "NVIDIA").
	Driver string
	// Version is the driver's version: Vulkan's driverVersion decoded as
	// DecodeVulkanVersion does ("5.0.0", "535.104.5.0") or, for Mesa's
	// drivers, the version driverInfo names ("22.3.6"); for OpenGL the
	// first word after Driver in GL_VERSION ("22.3.6", "535.104.05").
	Version string
	// Info is the driver's own free-form description: Vulkan's driverInfo
	// ("Mesa 22.3.6 (LLVM 15.0.6)"), or OpenGL's whole GL_VERSION
	// ("OpenGL ES 3.2 Mesa 22.3.6").
	Info string
	// Conformance is the version of the Vulkan conformance test suite the
	// driver passed ("1.3.1.1"), from conformanceVersion; "" for OpenGL and
	// for drivers that report 0.0.0.0.
	Conformance string
}

// Vulkan is what one Vulkan physical device reports: VkPhysicalDeviceProperties
// and VkPhysicalDeviceDriverProperties (Vulkan 1.2, or VK_KHR_driver_properties).
type Vulkan struct {
	DeviceName         string // deviceName
	VendorID, DeviceID uint32 // vendorID, deviceID
	APIVersion         uint32 // apiVersion, VK_MAKE_API_VERSION-packed
	DriverVersion      uint32 // driverVersion, packed per vendor (DecodeVulkanVersion)
	DriverID           int32  // VkDriverId; 0 when the driver lacks driver properties
	DriverName         string // driverName; "" when the driver lacks driver properties
	DriverInfo         string // driverInfo
	Conformance        string // conformanceVersion as "major.minor.subminor.patch"; "" when 0.0.0.0
}

// mesaInfo matches the driverInfo of Mesa's Vulkan drivers: "Mesa 22.3.6
// (LLVM 15.0.6)", "Mesa 23.1.0-devel (git-…)".
var mesaInfo = regexp.MustCompile(`^Mesa ([0-9][^ ]*)`)

// Identity returns the driver identity of v. Version is driverVersion
// decoded by DecodeVulkanVersion, except for Mesa's drivers (driverInfo
// "Mesa X.Y.Z ..."), whose version is the one driverInfo names: lavapipe
// 22.3.6 (Debian 12's) reports driverVersion 1 (vulkaninfo prints 0.0.1),
// while the version in driverInfo is Mesa's own for every Mesa driver.
func (v Vulkan) Identity() Identity {
	id := Identity{
		Driver:      v.DriverName,
		Version:     DecodeVulkanVersion(v.VendorID, v.DriverVersion, runtime.GOOS),
		Info:        v.DriverInfo,
		Conformance: v.Conformance,
	}
	if m := mesaInfo.FindStringSubmatch(v.DriverInfo); m != nil {
		id.Version = upstreamVersion(m[1])
	}
	return id
}

// debianRevision matches a version with a Debian package revision appended:
// Debian's backported Mesa names itself "25.0.7-2~bpo12+1" in driverInfo and
// GL_VERSION (Debian 12's own says "22.3.6").
var debianRevision = regexp.MustCompile(`^([0-9]+\.[0-9]+\.[0-9]+)-[0-9][0-9A-Za-z.+~]*$`)

// upstreamVersion is a driver's version without a Debian revision
// ("25.0.7-2~bpo12+1" → "25.0.7"), so that one release reads the same
// however it was packaged; other suffixes ("23.1.0-devel") stay. Info keeps
// the whole text.
func upstreamVersion(v string) string {
	if m := debianRevision.FindStringSubmatch(v); m != nil {
		return m[1]
	}
	return v
}

// GL is what an OpenGL (ES) context reports through glGetString.
type GL struct {
	Version  string // GL_VERSION, e.g. "OpenGL ES 3.2 Mesa 22.3.6"
	Renderer string // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
	Vendor   string // GL_VENDOR, e.g. "Mesa"
}

// glVersion splits GL_VERSION: an optional "OpenGL ES " (or "OpenGL ES-CM
// "), the GL version, then the vendor-specific rest.
var glVersion = regexp.MustCompile(`^(?:OpenGL ES(?:-C[ML])? )?[0-9]+\.[0-9]+(?:\.[0-9]+)?\s*(.*)$`)

// Identity returns the driver identity of g: the words of GL_VERSION after
// the GL version and before the first word that starts with a digit are the
// driver ("Mesa"), that word is its version ("22.3.6"). A GL_VERSION of
// another shape gives GL_VENDOR as Driver and no Version.
func (g GL) Identity() Identity {
	id := Identity{Driver: g.Vendor, Info: g.Version}
	m := glVersion.FindStringSubmatch(g.Version)
	if m == nil {
		return id
	}
	rest := strings.Fields(parenthesised.ReplaceAllString(m[1], " "))
	for i, w := range rest {
		if w[0] >= '0' && w[0] <= '9' {
			if i > 0 {
				id.Driver = strings.Join(rest[:i], " ")
			}
			id.Version = upstreamVersion(w)
			break
		}
	}
	return id
}

var parenthesised = regexp.MustCompile(`\([^)]*\)`)

// Vendor ids whose drivers pack driverVersion their own way.
const (
	vendorNVIDIA = 0x10de
	vendorIntel  = 0x8086
)

// DecodeVulkanVersion decodes VkPhysicalDeviceProperties.driverVersion, which
// each vendor packs its own way (the packing vulkaninfo and
// gpuinfo.org decode):
//
//   - NVIDIA (vendor 0x10de): 10.8.8.6 bits, "major.minor.patch.build"
//     (535.104.05 is "535.104.5.0");
//   - Intel (0x8086) on Windows (goos "windows"): 18.14 bits, "major.minor";
//   - everyone else, Mesa included (and Intel on Linux, where Mesa is the
//     driver): VK_MAKE_API_VERSION, "major.minor.patch" (a non-zero variant in
//     the top 3 bits is put first, "variant:major.minor.patch").
func DecodeVulkanVersion(vendorID, v uint32, goos string) string {
	switch {
	case vendorID == vendorNVIDIA:
		return fmt.Sprintf("%d.%d.%d.%d", v>>22, (v>>14)&0xff, (v>>6)&0xff, v&0x3f)
	case vendorID == vendorIntel && goos == "windows":
		return fmt.Sprintf("%d.%d", v>>14, v&0x3fff)
	}
	s := fmt.Sprintf("%d.%d.%d", (v>>22)&0x7f, (v>>12)&0x3ff, v&0xfff)
	if variant := v >> 29; variant != 0 {
		s = fmt.Sprintf("%d:%s", variant, s)
	}
	return s
}

// probes runs each probe once per process: Vulkan instance creation costs
// tens of milliseconds, and drivers do not change under a running process.
var (
	vulkanDevices = sync.OnceValues(probeVulkan)
	glesContext   = sync.OnceValues(probeGLES)
)

// VulkanDevices returns every Vulkan physical device the Vulkan loader
// (libvulkan.so.1) enumerates in this process, with its driver properties.
// It creates and destroys one Vulkan 1.1 instance on the first call and
// caches the answer. The loader reads the process environment
// (VK_ADD_DRIVER_FILES, VK_ICD_FILENAMES, ...) as wgpu-native's does, so the
// devices are those wgpu sees when called after the WebGPU instance exists.
// It fails where there is no Vulkan loader or instance (the error says
// which), and on systems other than Linux.
func VulkanDevices() ([]Vulkan, error) { return vulkanDevices() }

// GLES returns what an OpenGL ES 3 context reports: GL_VERSION,
// GL_RENDERER, GL_VENDOR. The context is on EGL's surfaceless platform
// (EGL_MESA_platform_surfaceless, the one wgpu-native's GL backend uses with
// no display), else on the default display with a 1×1 pbuffer (NVIDIA's
// EGL has no surfaceless platform). It creates and destroys one context on
// the first call through libEGL.so.1 and caches the answer. It fails where
// there is no EGL, no display or no ES 3 context (the error says which),
// and on systems other than Linux.
func GLES() (GL, error) { return glesContext() }

// ForVulkan returns the identity of the driver of the Vulkan device with
// these ids and deviceName (as WebGPU reports them), or false when
// VulkanDevices fails or lists no such device.
func ForVulkan(vendorID, deviceID uint32, deviceName string) (Identity, bool) {
	devs, err := VulkanDevices()
	if err != nil {
		return Identity{}, false
	}
	for _, d := range devs {
		if d.VendorID == vendorID && d.DeviceID == deviceID && d.DeviceName == deviceName {
			return d.Identity(), true
		}
	}
	return Identity{}, false
}

// ForGL returns the identity of the OpenGL driver whose GL_RENDERER is
// renderer (as WebGPU reports it), or false when GLES fails or renders on
// another device.
func ForGL(renderer string) (Identity, bool) {
	g, err := GLES()
	if err != nil || g.Renderer != renderer {
		return Identity{}, false
	}
	return g.Identity(), true
}

// dawnGL is the prefix of Dawn's driver description on its OpenGL (ES)
// backends: "OpenGL version " + GL_VERSION.
const dawnGL = "OpenGL version "

// ParseDescription derives an identity from a one-line driver description
// of the shapes Dawn's adapter info gives (GPUAdapterInfo.description):
//
//   - "OpenGL version <GL_VERSION>" (Dawn's GL backends): as GL.Identity;
//   - "<driverName>: <driverInfo>" (Dawn's Vulkan backend, with driver
//     properties): Driver is driverName, Version the first word of
//     driverInfo that starts with a digit;
//   - otherwise ("SwiftShader driver 5.0.0", "NVIDIA 535.104.05"): the words
//     before the first word that starts with a digit are Driver, that word is
//     Version (parenthesised details are skipped).
//
// Info is always the whole description. A description with no version word
// gives it whole as Driver and no Version.
func ParseDescription(desc string) Identity {
	desc = strings.TrimSpace(desc)
	if v, ok := strings.CutPrefix(desc, dawnGL); ok {
		id := GL{Version: v}.Identity()
		id.Info = desc
		return id
	}
	id := Identity{Driver: desc, Info: desc}
	name, rest, colon := strings.Cut(desc, ": ")
	if !colon {
		name, rest = "", desc
	}
	words := strings.Fields(parenthesised.ReplaceAllString(rest, " "))
	for i, w := range words {
		if w[0] >= '0' && w[0] <= '9' {
			id.Version = upstreamVersion(w)
			switch {
			case colon:
				id.Driver = name
			case i > 0:
				id.Driver = strings.Join(words[:i], " ")
			}
			return id
		}
	}
	if colon {
		id.Driver = name
	}
	return id
}
