package harness

import (
	"os"
	"strings"
	"sync"

	"github.com/cogentcore/webgpu/wgpu"
)

// swiftShaderICD is where Debian's chromium package installs the SwiftShader
// Vulkan ICD manifest.
const swiftShaderICD = "/usr/lib/chromium/vk_swiftshader_icd.json"

// LogEnv names the environment variable that turns wgpu-native's own
// logging (to stderr) on: "error", "warn", "info", "debug" or "trace".
// Unset or anything else means off.
const LogEnv = "GPUDIFF_WGPU_LOG"

// setupEnv prepares the process environment that the Vulkan loader, Mesa and
// EGL read when the first WebGPU instance is created. It only fills in
// variables the user left unset, and it must run before that instance
// exists (Go's os.Setenv reaches C's environ when cgo is linked).
//
//   - VK_ADD_DRIVER_FILES=<SwiftShader ICD>, when the file exists: the
//     loader then enumerates SwiftShader in addition to the system drivers
//     (lavapipe). VK_ICD_FILENAMES would replace them instead.
//   - NODEVICE_SELECT=1 disables Mesa's implicit device-select layer, which
//     only reorders physical devices (Adapters sorts them anyway) and, with
//     no display, tries to connect to Wayland on every enumeration and prints
//     "error: XDG_RUNTIME_DIR is invalid or not set" to stderr.
//
// The GL backend needs nothing: with no X11 or Wayland display wgpu itself
// picks EGL's surfaceless platform (EGL_MESA_platform_surfaceless), which
// Mesa's EGL (libegl-mesa0) provides for llvmpipe. Before that, wgpu probes
// for a Wayland display, and libwayland-client prints "error:
// XDG_RUNTIME_DIR is invalid or not set in the environment." once per
// process when XDG_RUNTIME_DIR is unset; nothing short of setting it (which
// is the user's business) avoids that line.
//
// In a process of an extra driver set (CurrentDriverSet) SwiftShader is not
// added: the set's Env selects only the set's drivers.
func setupEnv() {
	if _, set := os.LookupEnv("VK_ADD_DRIVER_FILES"); !set && CurrentDriverSet() == "" {
		if _, err := os.Stat(swiftShaderICD); err == nil {
			os.Setenv("VK_ADD_DRIVER_FILES", swiftShaderICD)
		}
	}
	if _, set := os.LookupEnv("NODEVICE_SELECT"); !set {
		os.Setenv("NODEVICE_SELECT", "1")
	}
}

// LogEnabled reports whether LogEnv turns wgpu-native's logging on in this
// process and in the worker processes it starts (they inherit the
// environment).
func LogEnabled() bool { return logLevel(os.Getenv(LogEnv)) != wgpu.LogLevelOff }

// ApplyLogLevel sets wgpu-native's log level (process-wide) from LogEnv:
// off unless LogEnv turns it on. The process-wide instance applies it when
// it is created; a package that creates an instance of its own (window)
// calls it first.
func ApplyLogLevel() { wgpu.SetLogLevel(logLevel(os.Getenv(LogEnv))) }

// logLevel maps the value of LogEnv to a wgpu-native log level.
func logLevel(v string) wgpu.LogLevel {
	switch strings.ToLower(v) {
	case "error":
		return wgpu.LogLevelError
	case "warn":
		return wgpu.LogLevelWarn
	case "info":
		return wgpu.LogLevelInfo
	case "debug":
		return wgpu.LogLevelDebug
	case "trace":
		return wgpu.LogLevelTrace
	}
	return wgpu.LogLevelOff
}

// instance is the process-wide WebGPU instance with every backend enabled.
// It is created on first use and never released.
var instance = sync.OnceValue(func() *wgpu.Instance {
	setupEnv()
	ApplyLogLevel()
	return wgpu.CreateInstance(&wgpu.InstanceDescriptor{Backends: wgpu.InstanceBackendAll})
})
