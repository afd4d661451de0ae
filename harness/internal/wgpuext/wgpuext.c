// C side of package wgpuext. See doc.go for why the wgpu-native entry points
// below are declared weak.

#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include "wgpuext.h"
#include "_cgo_export.h"

// The definitions live in libwgpu_native.a, which only the binding package
// names on its link line. Weak references let this package's own cgo link
// step succeed without the library; the Go side's "-Wl,-undefined=" flags make
// the final link pull the definitions in, and gd_missing_symbol checks that
// it did before anything is called.
#pragma weak wgpuAdapterGetLimits
#pragma weak wgpuAdapterRequestDevice
#pragma weak wgpuDeviceCreateShaderModule
#pragma weak wgpuDevicePushErrorScope
#pragma weak wgpuDevicePopErrorScope
#pragma weak wgpuBufferMapAsync
#pragma weak wgpuGenerateReport
#pragma weak wgpuSurfaceGetCurrentTexture

const char *gd_missing_symbol(void) {
	if (wgpuAdapterGetLimits == NULL) return "wgpuAdapterGetLimits";
	if (wgpuAdapterRequestDevice == NULL) return "wgpuAdapterRequestDevice";
	if (wgpuDeviceCreateShaderModule == NULL) return "wgpuDeviceCreateShaderModule";
	if (wgpuDevicePushErrorScope == NULL) return "wgpuDevicePushErrorScope";
	if (wgpuDevicePopErrorScope == NULL) return "wgpuDevicePopErrorScope";
	if (wgpuBufferMapAsync == NULL) return "wgpuBufferMapAsync";
	if (wgpuGenerateReport == NULL) return "wgpuGenerateReport";
	if (wgpuSurfaceGetCurrentTexture == NULL) return "wgpuSurfaceGetCurrentTexture";
	return NULL;
}

static char *gd_strdup(const char *s) {
	return strdup(s != NULL ? s : "");
}

// Event kinds reported to gdDeviceEvent; keep in sync with sink.go.
enum { GD_EVENT_UNCAPTURED = 1, GD_EVENT_LOST = 2 };

static void gd_uncaptured_cb(WGPUErrorType type, char const *message, void *userdata) {
	gdDeviceEvent(GD_EVENT_UNCAPTURED, (uint32_t)type, (char *)message, (uintptr_t)userdata);
}

static void gd_lost_cb(WGPUDeviceLostReason reason, char const *message, void *userdata) {
	gdDeviceEvent(GD_EVENT_LOST, (uint32_t)reason, (char *)message, (uintptr_t)userdata);
}

typedef struct gd_request_result {
	int called;
	WGPURequestDeviceStatus status;
	WGPUDevice device;
	char *message;
} gd_request_result;

static void gd_request_cb(WGPURequestDeviceStatus status, WGPUDevice device, char const *message, void *userdata) {
	gd_request_result *r = userdata;
	r->called = 1;
	r->status = status;
	r->device = device;
	if (message != NULL) r->message = gd_strdup(message);
}

WGPUDevice gd_request_device(WGPUAdapter adapter, uintptr_t sink, const WGPUFeatureName *features, size_t feature_count, char **message) {
	WGPUSupportedLimits supported;
	memset(&supported, 0, sizeof supported);
	if (!wgpuAdapterGetLimits(adapter, &supported)) {
		*message = gd_strdup("wgpuAdapterGetLimits failed");
		return NULL;
	}
	WGPURequiredLimits required;
	memset(&required, 0, sizeof required);
	required.limits = supported.limits;

	WGPUDeviceDescriptor desc;
	memset(&desc, 0, sizeof desc);
	desc.label = "gpudiff";
	desc.requiredLimits = &required;
	desc.requiredFeatures = features;
	desc.requiredFeatureCount = feature_count;
	desc.deviceLostCallback = gd_lost_cb;
	desc.deviceLostUserdata = (void *)sink;
	desc.uncapturedErrorCallbackInfo.callback = gd_uncaptured_cb;
	desc.uncapturedErrorCallbackInfo.userdata = (void *)sink;

	gd_request_result r;
	memset(&r, 0, sizeof r);
	wgpuAdapterRequestDevice(adapter, &desc, gd_request_cb, &r);
	if (!r.called) {
		*message = gd_strdup("wgpuAdapterRequestDevice did not call back synchronously");
		return NULL;
	}
	if (r.status != WGPURequestDeviceStatus_Success || r.device == NULL) {
		*message = r.message != NULL ? r.message : gd_strdup("request device failed");
		return NULL;
	}
	free(r.message);
	return r.device;
}

// Error scopes are popped in reverse push order; the first error wins.
static void gd_pop_cb(WGPUErrorType type, char const *message, void *userdata) {
	gd_error *e = userdata;
	if (type == WGPUErrorType_NoError || e->type != WGPUErrorType_NoError) return;
	e->type = type;
	e->message = gd_strdup(message);
}

// wgpu-native (wgpu 0.19.4) panics (and so aborts) on WGPUErrorFilter_Internal
// ("invalid error filter"); it reports internal errors as validation errors.
static void gd_push_scopes(WGPUDevice device) {
	wgpuDevicePushErrorScope(device, WGPUErrorFilter_OutOfMemory);
	wgpuDevicePushErrorScope(device, WGPUErrorFilter_Validation);
}

static void gd_pop_scopes(WGPUDevice device, gd_error *err) {
	err->type = WGPUErrorType_NoError;
	err->message = NULL;
	for (int i = 0; i < 2; i++) wgpuDevicePopErrorScope(device, gd_pop_cb, err);
}

WGPUShaderModule gd_create_shader_module_spirv(WGPUDevice device, const uint32_t *words, uint32_t word_count, gd_error *err) {
	WGPUShaderModuleSPIRVDescriptor spirv;
	memset(&spirv, 0, sizeof spirv);
	spirv.chain.sType = WGPUSType_ShaderModuleSPIRVDescriptor;
	spirv.codeSize = word_count; // webgpu.h: a count of 32-bit words, not bytes
	spirv.code = words;

	WGPUShaderModuleDescriptor desc;
	memset(&desc, 0, sizeof desc);
	desc.nextInChain = &spirv.chain;

	gd_push_scopes(device);
	WGPUShaderModule m = wgpuDeviceCreateShaderModule(device, &desc);
	gd_pop_scopes(device, err);
	return m;
}

// The callback runs on whichever thread polls the device; gd_map_done may
// run on another, so done is published with release/acquire ordering.
static void gd_map_cb(WGPUBufferMapAsyncStatus status, void *userdata) {
	gd_map_state *s = userdata;
	s->status = status;
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
}

int gd_map_done(gd_map_state *state) {
	return __atomic_load_n(&state->done, __ATOMIC_ACQUIRE);
}

void gd_buffer_map_read(WGPUDevice device, WGPUBuffer buffer, size_t size, gd_map_state *state, gd_error *err) {
	gd_push_scopes(device);
	wgpuBufferMapAsync(buffer, WGPUMapMode_Read, 0, size, gd_map_cb, state);
	gd_pop_scopes(device, err);
}

void gd_generate_report(WGPUInstance instance, WGPUGlobalReport *report) {
	memset(report, 0, sizeof *report);
	wgpuGenerateReport(instance, report);
}

void gd_sleep_ns(long long ns) {
	struct timespec ts = {.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
}

const char *gd_getenv(const char *name) {
	return getenv(name);
}

WGPUTexture gd_surface_current_texture(WGPUSurface surface, int *status) {
	WGPUSurfaceTexture st;
	memset(&st, 0, sizeof st);
	wgpuSurfaceGetCurrentTexture(surface, &st);
	*status = (int)st.status;
	return st.status == WGPUSurfaceGetCurrentTextureStatus_Success ? st.texture : NULL;
}
