// Minimal, header-free probes of driver identity: Vulkan's
// VkPhysicalDeviceProperties2 + VkPhysicalDeviceDriverProperties, and
// OpenGL ES's GL_VERSION/GL_RENDERER through EGL's surfaceless platform.
// Everything is reached through dlopen/dlsym of the runtime libraries
// (libvulkan.so.1, libEGL.so.1), so neither the build nor the run needs the
// -dev packages, and a machine without them just reports nothing. See doc.go
// for why this is hand-written rather than a Go Vulkan binding.
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include "probe.h"

// ---- Vulkan (Vulkan 1.3 spec; only the members read here are named) ----

typedef void *VkInstance;
typedef void *VkPhysicalDevice;
typedef void (*PFN_void)(void);
typedef PFN_void (*PFN_vkGetInstanceProcAddr)(VkInstance, const char *);

typedef struct {
	int32_t sType; // VK_STRUCTURE_TYPE_APPLICATION_INFO = 0
	const void *pNext;
	const char *pApplicationName;
	uint32_t applicationVersion;
	const char *pEngineName;
	uint32_t engineVersion;
	uint32_t apiVersion;
} AppInfo;

typedef struct {
	int32_t sType; // VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1
	const void *pNext;
	uint32_t flags;
	const AppInfo *pApplicationInfo;
	uint32_t enabledLayerCount;
	const char *const *ppEnabledLayerNames;
	uint32_t enabledExtensionCount;
	const char *const *ppEnabledExtensionNames;
} InstanceCreateInfo;

// VkPhysicalDeviceProperties up to deviceName; the rest (pipelineCacheUUID,
// VkPhysicalDeviceLimits, VkPhysicalDeviceSparseProperties: 824 bytes in
// all on LP64) is covered by an opaque tail larger than it.
typedef struct {
	uint32_t apiVersion;
	uint32_t driverVersion;
	uint32_t vendorID;
	uint32_t deviceID;
	int32_t deviceType;
	char deviceName[256];
	uint64_t rest[256];
} DeviceProperties;

typedef struct {
	int32_t sType; // VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 = 1000059001
	void *pNext;
	DeviceProperties properties;
} DeviceProperties2;

typedef struct {
	int32_t sType; // VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES = 1000196000
	void *pNext;
	int32_t driverID;
	char driverName[256];
	char driverInfo[256];
	uint8_t conformanceVersion[4];
} DriverProperties;

typedef int32_t (*PFN_vkCreateInstance)(const InstanceCreateInfo *, const void *, VkInstance *);
typedef void (*PFN_vkDestroyInstance)(VkInstance, const void *);
typedef int32_t (*PFN_vkEnumeratePhysicalDevices)(VkInstance, uint32_t *, VkPhysicalDevice *);
typedef void (*PFN_vkGetPhysicalDeviceProperties2)(VkPhysicalDevice, DeviceProperties2 *);

static void copyz(char *dst, const char *src, size_t n) {
	strncpy(dst, src, n - 1);
	dst[n - 1] = 0;
}

int gpudiff_probe_vulkan(gpudiff_vk_device *out, int max, char *err, int errlen) {
	void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		copyz(err, "libvulkan.so.1 not found", errlen);
		return -1;
	}
	PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
	if (!gipa) {
		copyz(err, "libvulkan.so.1 has no vkGetInstanceProcAddr", errlen);
		return -1;
	}
	PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
	AppInfo app = {0, NULL, "gpudiff", 1, "gpudiff", 1, (1u << 22) | (1u << 12)}; // VK_API_VERSION_1_1
	InstanceCreateInfo ci = {1, NULL, 0, &app, 0, NULL, 0, NULL};
	VkInstance inst = NULL;
	int32_t r = create ? create(&ci, NULL, &inst) : -1;
	if (r != 0) {
		snprintf(err, errlen, "vkCreateInstance: VkResult %d", r);
		return -1;
	}
	PFN_vkDestroyInstance destroy = (PFN_vkDestroyInstance)gipa(inst, "vkDestroyInstance");
	PFN_vkEnumeratePhysicalDevices enumerate = (PFN_vkEnumeratePhysicalDevices)gipa(inst, "vkEnumeratePhysicalDevices");
	PFN_vkGetPhysicalDeviceProperties2 props2 = (PFN_vkGetPhysicalDeviceProperties2)gipa(inst, "vkGetPhysicalDeviceProperties2");
	if (!props2) props2 = (PFN_vkGetPhysicalDeviceProperties2)gipa(inst, "vkGetPhysicalDeviceProperties2KHR");
	if (!enumerate || !props2) {
		copyz(err, "the Vulkan loader lacks vkEnumeratePhysicalDevices or vkGetPhysicalDeviceProperties2", errlen);
		if (destroy) destroy(inst, NULL);
		return -1;
	}
	VkPhysicalDevice devs[64];
	uint32_t n = 64;
	r = enumerate(inst, &n, devs);
	if (r != 0 && r != 5) { // 5 = VK_INCOMPLETE
		snprintf(err, errlen, "vkEnumeratePhysicalDevices: VkResult %d", r);
		destroy(inst, NULL);
		return -1;
	}
	int count = 0;
	for (uint32_t i = 0; i < n && count < max; i++) {
		DriverProperties drv;
		memset(&drv, 0, sizeof drv);
		drv.sType = 1000196000;
		DeviceProperties2 p;
		memset(&p, 0, sizeof p);
		p.sType = 1000059001;
		p.pNext = &drv;
		props2(devs[i], &p);
		gpudiff_vk_device *d = &out[count++];
		memset(d, 0, sizeof *d);
		d->api_version = p.properties.apiVersion;
		d->driver_version = p.properties.driverVersion;
		d->vendor_id = p.properties.vendorID;
		d->device_id = p.properties.deviceID;
		d->device_type = p.properties.deviceType;
		copyz(d->device_name, p.properties.deviceName, sizeof d->device_name);
		d->driver_id = drv.driverID;
		copyz(d->driver_name, drv.driverName, sizeof d->driver_name);
		copyz(d->driver_info, drv.driverInfo, sizeof d->driver_info);
		memcpy(d->conformance, drv.conformanceVersion, 4);
	}
	destroy(inst, NULL);
	// The library stays loaded: wgpu-native has it open too, and unloading
	// a Vulkan driver while another user holds it is asking for trouble.
	return count;
}

// ---- EGL + OpenGL ES (EGL 1.5, EGL_MESA_platform_surfaceless,
// EGL_KHR_surfaceless_context) ----

typedef void *EGLDisplay;
typedef void *EGLConfig;
typedef void *EGLContext;
typedef int32_t EGLint;
typedef unsigned int EGLBoolean;

#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#define EGL_RENDERABLE_TYPE 0x3040
#define EGL_OPENGL_ES3_BIT 0x00000040
#define EGL_SURFACE_TYPE 0x3033
#define EGL_NONE 0x3038
#define EGL_OPENGL_ES_API 0x30A0
#define EGL_CONTEXT_MAJOR_VERSION 0x3098
#define GL_VENDOR 0x1F00
#define GL_RENDERER 0x1F01
#define GL_VERSION 0x1F02

typedef EGLDisplay (*PFN_eglGetPlatformDisplay)(uint32_t, void *, const intptr_t *);
typedef EGLBoolean (*PFN_eglInitialize)(EGLDisplay, EGLint *, EGLint *);
typedef EGLBoolean (*PFN_eglBindAPI)(uint32_t);
typedef EGLBoolean (*PFN_eglChooseConfig)(EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *);
typedef EGLContext (*PFN_eglCreateContext)(EGLDisplay, EGLConfig, EGLContext, const EGLint *);
typedef EGLBoolean (*PFN_eglDestroyContext)(EGLDisplay, EGLContext);
typedef EGLBoolean (*PFN_eglMakeCurrent)(EGLDisplay, void *, void *, EGLContext);
typedef PFN_void (*PFN_eglGetProcAddress)(const char *);
typedef const unsigned char *(*PFN_glGetString)(uint32_t);

typedef EGLDisplay (*PFN_eglGetDisplay)(void *);
typedef void *(*PFN_eglCreatePbufferSurface)(EGLDisplay, EGLConfig, const EGLint *);
typedef EGLBoolean (*PFN_eglDestroySurface)(EGLDisplay, void *);

#define EGL_PBUFFER_BIT 0x0001
#define EGL_WIDTH 0x3057
#define EGL_HEIGHT 0x3056

// glInfo reads the strings of an OpenGL ES 3 context on dpy: surfaceless
// when surfaceType is 0 (EGL_KHR_surfaceless_context), else on a 1x1
// pbuffer. It returns 0 on success, else -1 with err set.
static int glInfo(void *lib, EGLDisplay dpy, EGLint surfaceType, gpudiff_gl_info *out, char *err, int errlen) {
#define SYM(T, name) T name = (T)dlsym(lib, #name)
	SYM(PFN_eglBindAPI, eglBindAPI);
	SYM(PFN_eglChooseConfig, eglChooseConfig);
	SYM(PFN_eglCreateContext, eglCreateContext);
	SYM(PFN_eglDestroyContext, eglDestroyContext);
	SYM(PFN_eglMakeCurrent, eglMakeCurrent);
	SYM(PFN_eglGetProcAddress, eglGetProcAddress);
	SYM(PFN_eglCreatePbufferSurface, eglCreatePbufferSurface);
	SYM(PFN_eglDestroySurface, eglDestroySurface);
#undef SYM
	if (!eglBindAPI || !eglChooseConfig || !eglCreateContext || !eglDestroyContext || !eglMakeCurrent ||
	    !eglGetProcAddress || !eglCreatePbufferSurface || !eglDestroySurface) {
		copyz(err, "libEGL.so.1 lacks an EGL 1.4 function", errlen);
		return -1;
	}
	int rc = -1;
	EGLint cattr[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, surfaceType, EGL_NONE};
	EGLConfig cfg;
	EGLint ncfg = 0;
	EGLint ctxattr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
	EGLint pbattr[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
	EGLContext ctx = NULL;
	void *surf = NULL;
	if (!eglBindAPI(EGL_OPENGL_ES_API) || !eglChooseConfig(dpy, cattr, &cfg, 1, &ncfg) || ncfg < 1) {
		copyz(err, "no OpenGL ES 3 EGL config", errlen);
		return -1;
	}
	ctx = eglCreateContext(dpy, cfg, NULL, ctxattr);
	if (ctx && surfaceType) surf = eglCreatePbufferSurface(dpy, cfg, pbattr);
	if (!ctx || (surfaceType && !surf) || !eglMakeCurrent(dpy, surf, surf, ctx)) {
		copyz(err, surfaceType ? "cannot make a pbuffer OpenGL ES 3 context current" : "cannot make a surfaceless OpenGL ES 3 context current", errlen);
		goto done;
	}
	PFN_glGetString getString = (PFN_glGetString)eglGetProcAddress("glGetString");
	const unsigned char *v = getString ? getString(GL_VERSION) : NULL;
	const unsigned char *r = getString ? getString(GL_RENDERER) : NULL;
	const unsigned char *ven = getString ? getString(GL_VENDOR) : NULL;
	if (!v || !r) {
		copyz(err, "glGetString returned NULL", errlen);
	} else {
		copyz(out->version, (const char *)v, sizeof out->version);
		copyz(out->renderer, (const char *)r, sizeof out->renderer);
		copyz(out->vendor, ven ? (const char *)ven : "", sizeof out->vendor);
		rc = 0;
	}
	eglMakeCurrent(dpy, NULL, NULL, NULL);
done:
	if (surf) eglDestroySurface(dpy, surf);
	if (ctx) eglDestroyContext(dpy, ctx);
	return rc;
}

// gpudiff_probe_gles tries EGL's surfaceless platform first (Mesa's, the
// one wgpu uses with no display), then the default display with a pbuffer
// (NVIDIA's EGL, which has no surfaceless platform). No eglTerminate: EGL
// shares one display per platform within the process, and wgpu-native's GL
// backend may hold the same one.
int gpudiff_probe_gles(gpudiff_gl_info *out, char *err, int errlen) {
	void *lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		copyz(err, "libEGL.so.1 not found", errlen);
		return -1;
	}
	PFN_eglGetPlatformDisplay getPlatformDisplay = (PFN_eglGetPlatformDisplay)dlsym(lib, "eglGetPlatformDisplay");
	PFN_eglGetDisplay getDisplay = (PFN_eglGetDisplay)dlsym(lib, "eglGetDisplay");
	PFN_eglInitialize initialize = (PFN_eglInitialize)dlsym(lib, "eglInitialize");
	if (!initialize) {
		copyz(err, "libEGL.so.1 has no eglInitialize", errlen);
		return -1;
	}
	EGLint major, minor;
	EGLDisplay dpy = getPlatformDisplay ? getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, NULL, NULL) : NULL;
	if (dpy && initialize(dpy, &major, &minor) && glInfo(lib, dpy, 0, out, err, errlen) == 0) {
		return 0;
	}
	dpy = getDisplay ? getDisplay(NULL) : NULL; // EGL_DEFAULT_DISPLAY
	if (!dpy || !initialize(dpy, &major, &minor)) {
		copyz(err, "no EGL display: neither the surfaceless platform (EGL_MESA_platform_surfaceless) nor the default display", errlen);
		return -1;
	}
	return glInfo(lib, dpy, EGL_PBUFFER_BIT, out, err, errlen);
}
