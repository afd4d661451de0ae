package driverid

import (
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

func TestDecodeVulkanVersion(t *testing.T) {
	for _, c := range []struct {
		vendor, v  uint32
		goos, want string
	}{
		// Mesa 22.3.6 as lavapipe packs it: VK_MAKE_VERSION(22, 3, 6).
		{0x10005, 22<<22 | 3<<12 | 6, "linux", "22.3.6"},
		// NVIDIA 535.104.05: 10.8.8.6 bits.
		{0x10de, 535<<22 | 104<<14 | 5<<6, "linux", "535.104.5.0"},
		// Intel's Windows driver 101.4125: 18.14 bits.
		{0x8086, 101<<14 | 4125, "windows", "101.4125"},
		// Intel on Linux is Mesa (anv): VK_MAKE_VERSION.
		{0x8086, 23<<22 | 1<<12 | 2, "linux", "23.1.2"},
		// A variant in the top bits.
		{0x1002, 1<<29 | 2<<22 | 0<<12 | 262, "linux", "1:2.0.262"},
	} {
		if got := DecodeVulkanVersion(c.vendor, c.v, c.goos); got != c.want {
			t.Errorf("DecodeVulkanVersion(%#x, %#x, %s) = %q, want %q", c.vendor, c.v, c.goos, got, c.want)
		}
	}
}

func TestGLIdentity(t *testing.T) {
	for _, c := range []struct {
		g    GL
		want Identity
	}{
		{GL{Version: "OpenGL ES 3.2 Mesa 22.3.6", Vendor: "Mesa"}, Identity{Driver: "Mesa", Version: "22.3.6", Info: "OpenGL ES 3.2 Mesa 22.3.6"}},
		{GL{Version: "4.5 (Core Profile) Mesa 23.1.0-devel (git-1234)", Vendor: "Mesa"}, Identity{Driver: "Mesa", Version: "23.1.0-devel", Info: "4.5 (Core Profile) Mesa 23.1.0-devel (git-1234)"}},
		// Debian's backported Mesa names its package revision; the version is upstream's.
		{GL{Version: "OpenGL ES 3.2 Mesa 25.0.7-2~bpo12+1", Vendor: "Mesa"}, Identity{Driver: "Mesa", Version: "25.0.7", Info: "OpenGL ES 3.2 Mesa 25.0.7-2~bpo12+1"}},
		{GL{Version: "OpenGL ES 3.2 NVIDIA 535.104.05", Vendor: "NVIDIA Corporation"}, Identity{Driver: "NVIDIA", Version: "535.104.05", Info: "OpenGL ES 3.2 NVIDIA 535.104.05"}},
		{GL{Version: "something else", Vendor: "X"}, Identity{Driver: "X", Info: "something else"}},
	} {
		if got := c.g.Identity(); got != c.want {
			t.Errorf("%+v.Identity() = %+v, want %+v", c.g, got, c.want)
		}
	}
}

// mesaVersion is the upstream version of the installed Mesa Vulkan driver
// package ("22.3.6" from "22.3.6-1+deb12u2"), or "" without dpkg or it.
func mesaVersion(t *testing.T, pkg string) string {
	out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", pkg).Output()
	if err != nil {
		return ""
	}
	v := strings.TrimSpace(string(out))
	if i := strings.IndexByte(v, ':'); i >= 0 {
		v = v[i+1:]
	}
	v, _, _ = strings.Cut(v, "-")
	return v
}

// TestLavapipe checks the real probe against lavapipe: the driver names
// itself "llvmpipe", driverInfo names Mesa, and the decoded driverVersion is
// the installed mesa-vulkan-drivers package's version.
func TestLavapipe(t *testing.T) {
	want := mesaVersion(t, "mesa-vulkan-drivers")
	if want == "" {
		t.Skip("mesa-vulkan-drivers is not installed (make deps installs it)")
	}
	devs, err := VulkanDevices()
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, d := range devs {
		t.Logf("%+v -> %+v", d, d.Identity())
		if !strings.HasPrefix(d.DeviceName, "llvmpipe") {
			continue
		}
		found = true
		id := d.Identity()
		if id.Driver != "llvmpipe" || id.Version != want || !strings.HasPrefix(id.Info, "Mesa "+want) ||
			!regexp.MustCompile(`^1\.[0-9]+\.[0-9]+\.[0-9]+$`).MatchString(id.Conformance) {
			t.Errorf("lavapipe: %+v, want driver llvmpipe, version %s, info Mesa %s..., a 1.x conformance version", id, want, want)
		}
		if got, ok := ForVulkan(d.VendorID, d.DeviceID, d.DeviceName); !ok || got != id {
			t.Errorf("ForVulkan(lavapipe) = %+v, %v", got, ok)
		}
	}
	if !found {
		t.Errorf("no llvmpipe among %d Vulkan devices", len(devs))
	}
	if _, ok := ForVulkan(0xdead, 0xbeef, "no such device"); ok {
		t.Error("ForVulkan found a device that does not exist")
	}
}

// TestGLES checks the real probe against llvmpipe's OpenGL ES: Mesa, of the
// installed libgl1-mesa-dri's version.
func TestGLES(t *testing.T) {
	want := mesaVersion(t, "libgl1-mesa-dri")
	if want == "" {
		t.Skip("libgl1-mesa-dri is not installed (make deps installs it)")
	}
	if os.Getenv("DISPLAY") != "" {
		t.Log("DISPLAY is set; the probe still uses the surfaceless platform")
	}
	g, err := GLES()
	if err != nil {
		t.Fatal(err)
	}
	id := g.Identity()
	t.Logf("%+v -> %+v", g, id)
	if id.Driver != "Mesa" || id.Version != want || !strings.HasPrefix(g.Renderer, "llvmpipe") {
		t.Errorf("GLES: %+v (renderer %q), want Mesa %s on llvmpipe", id, g.Renderer, want)
	}
	if got, ok := ForGL(g.Renderer); !ok || got != id {
		t.Errorf("ForGL(%q) = %+v, %v", g.Renderer, got, ok)
	}
	if _, ok := ForGL("no such renderer"); ok {
		t.Error("ForGL matched another renderer")
	}
}

func TestParseDescription(t *testing.T) {
	for _, c := range []struct{ desc, driver, version string }{
		{"SwiftShader driver 5.0.0", "SwiftShader driver", "5.0.0"},
		{"OpenGL version 4.5 (Core Profile) Mesa 22.3.6", "Mesa", "22.3.6"},
		{"OpenGL version OpenGL ES 3.2 Mesa 22.3.6", "Mesa", "22.3.6"},
		{"llvmpipe: Mesa 22.3.6 (LLVM 15.0.6)", "llvmpipe", "22.3.6"},
		{"llvmpipe: Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)", "llvmpipe", "25.0.7"},
		{"NVIDIA: 535.104.05", "NVIDIA", "535.104.05"},
		{"NVIDIA 535.104.05", "NVIDIA", "535.104.05"},
		{"Some driver", "Some driver", ""},
	} {
		id := ParseDescription(c.desc)
		if id.Driver != c.driver || id.Version != c.version || id.Info != c.desc {
			t.Errorf("ParseDescription(%q) = %+v, want driver %q version %q", c.desc, id, c.driver, c.version)
		}
	}
}

func TestVulkanIdentityMesa(t *testing.T) {
	// lavapipe before Mesa 23 reports driverVersion 1; driverInfo has the
	// version.
	v := Vulkan{VendorID: 0x10005, DriverVersion: 1, DriverName: "llvmpipe", DriverInfo: "Mesa 22.3.6 (LLVM 15.0.6)"}
	if id := v.Identity(); id.Version != "22.3.6" {
		t.Errorf("lavapipe version %q, want 22.3.6", id.Version)
	}
	v.DriverInfo = "Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)" // Debian's backport names its package revision
	if id := v.Identity(); id.Version != "25.0.7" || id.Info != v.DriverInfo {
		t.Errorf("lavapipe 25 identity %+v, want version 25.0.7 and the whole driverInfo", id)
	}
	v = Vulkan{VendorID: 0x10de, DriverVersion: 535<<22 | 104<<14 | 5<<6, DriverName: "NVIDIA", DriverInfo: "535.104.05"}
	if id := v.Identity(); id.Version != "535.104.5.0" || id.Driver != "NVIDIA" {
		t.Errorf("NVIDIA identity %+v", id)
	}
}

// TestVulkaninfo compares what VulkanDevices reads with what the Khronos
// tool reports (vulkaninfo --summary, Debian's vulkan-tools, which make deps
// installs): per device name, driverName, driverInfo, conformanceVersion,
// and driverVersion as DecodeVulkanVersion decodes it.
func TestVulkaninfo(t *testing.T) {
	if _, err := exec.LookPath("vulkaninfo"); err != nil {
		t.Skip("vulkaninfo is not installed (Debian package vulkan-tools; make deps installs it)")
	}
	out, err := exec.Command("vulkaninfo", "--summary").Output()
	if err != nil {
		t.Skipf("vulkaninfo --summary: %v", err)
	}
	// One map per "GPUn:" block of the Devices section.
	var blocks []map[string]string
	inDevices := false
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "Devices:"):
			inDevices = true
		case inDevices && regexp.MustCompile(`^GPU[0-9]+:`).MatchString(line):
			blocks = append(blocks, map[string]string{})
		case inDevices && len(blocks) > 0 && strings.HasPrefix(line, "\t"):
			k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
			if ok {
				blocks[len(blocks)-1][strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	}
	if len(blocks) == 0 {
		t.Fatalf("no devices in vulkaninfo --summary:\n%s", out)
	}
	devs, err := VulkanDevices()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Vulkan{}
	for _, d := range devs {
		byName[d.DeviceName] = d
	}
	for _, b := range blocks {
		d, ok := byName[b["deviceName"]]
		if !ok {
			t.Errorf("vulkaninfo lists %q, VulkanDevices does not (it has %d devices)", b["deviceName"], len(devs))
			continue
		}
		got := map[string]string{
			"driverName":         d.DriverName,
			"driverInfo":         d.DriverInfo,
			"conformanceVersion": d.Conformance,
			"driverVersion":      DecodeVulkanVersion(d.VendorID, d.DriverVersion, runtime.GOOS),
		}
		for k, v := range got {
			if b[k] != v {
				t.Errorf("%s: %s = %q, vulkaninfo says %q", d.DeviceName, k, v, b[k])
			}
		}
	}
	if len(blocks) != len(devs) {
		t.Errorf("vulkaninfo lists %d devices, VulkanDevices %d", len(blocks), len(devs))
	}
}

// TestMain adds SwiftShader's Vulkan ICD to the loader's search, as
// package harness does for wgpu (its setupEnv), so the tests see both of
// this machine's Vulkan drivers; vulkaninfo inherits the same environment.
func TestMain(m *testing.M) {
	const swiftShaderICD = "/usr/lib/chromium/vk_swiftshader_icd.json"
	if _, set := os.LookupEnv("VK_ADD_DRIVER_FILES"); !set {
		if _, err := os.Stat(swiftShaderICD); err == nil {
			os.Setenv("VK_ADD_DRIVER_FILES", swiftShaderICD)
		}
	}
	os.Exit(m.Run())
}
