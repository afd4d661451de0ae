// Package driverid names the driver behind a WebGPU adapter, and its version,
// by asking the native API directly: wgpu 0.19.4's wgpuAdapterGetInfo
// drops wgpu's driver and driver_info (its vendor and device fields carry
// only hex ids, description the device name), so gpudiff cannot learn them
// through WebGPU.
//
//   - Vulkan: VkPhysicalDeviceDriverProperties (driverName, driverInfo,
//     conformanceVersion) and VkPhysicalDeviceProperties.driverVersion,
//     decoded per vendor (DecodeVulkanVersion), from one short-lived Vulkan
//     1.1 instance (VulkanDevices).
//   - OpenGL: GL_VERSION, GL_RENDERER and GL_VENDOR from an OpenGL ES 3
//     context (GLES) on EGL's surfaceless platform, the one wgpu's GL
//     backend uses with no display, else on the default display; matched
//     to wgpu's GL adapter by GL_RENDERER, which wgpu reports as the
//     device name.
//
// Dawn reports its own driver description through its node binding
// (harness/dawn).
//
// # Why hand-written cgo
//
// The maintained Go Vulkan binding, github.com/goki/vulkan (v1.0.7, Vulkan
// 1.3.239; github.com/vulkan-go/vulkan stopped at 1.1.88 in 2018), declares
// VkPhysicalDeviceDriverProperties but wraps neither
// vkGetPhysicalDeviceProperties2 nor vkGetInstanceProcAddr, so it cannot
// read driver properties; its default loader also dlopens "libvulkan.so",
// which only Debian's libvulkan-dev installs, and its 22,000-line cgo
// wrapper costs about a minute to build. No maintained Go binding creates a
// headless EGL context. So probe.c reaches libvulkan.so.1 and libEGL.so.1
// through dlopen, declares only the few structure prefixes it reads (from
// the Vulkan 1.3 and EGL 1.5 specifications), and needs no -dev package at
// build or run time; a machine without the libraries reports an error, not
// a build failure.
//
// The probes run in the calling process, once each (cached), like
// wgpu-native's own adapter enumeration.
package driverid
