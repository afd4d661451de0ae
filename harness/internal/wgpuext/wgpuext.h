// C side of package wgpuext: the few wgpu-native calls that
// github.com/cogentcore/webgpu v0.23.0 lacks or gets wrong. See doc.go.

#ifndef GPUDIFF_WGPUEXT_H
#define GPUDIFF_WGPUEXT_H

#include <stddef.h>
#include <stdint.h>
#include "include/wgpu.h"

// gd_error is an error captured by an error scope. message is malloc'd (or
// NULL when type is WGPUErrorType_NoError); the caller frees it.
typedef struct gd_error {
	WGPUErrorType type;
	char *message;
} gd_error;

// gd_map_state is written by the map callback; it lives in C memory because
// wgpu-native keeps the pointer until the callback runs.
typedef struct gd_map_state {
	int done;
	WGPUBufferMapAsyncStatus status;
} gd_map_state;

// gd_missing_symbol returns the name of the first wgpu-native entry point
// this package needs that the final link did not resolve, or NULL.
const char *gd_missing_symbol(void);

// gd_request_device requests a device with the adapter's own supported
// limits, the feature_count features of features, an uncaptured-error
// callback and a device-lost callback that both report to the Go sink with
// the given id. On failure it returns NULL and stores a malloc'd message
// in *message.
WGPUDevice gd_request_device(WGPUAdapter adapter, uintptr_t sink, const WGPUFeatureName *features, size_t feature_count, char **message);

// gd_create_shader_module_spirv creates a shader module from word_count
// SPIR-V words inside validation and out-of-memory error scopes.
WGPUShaderModule gd_create_shader_module_spirv(WGPUDevice device, const uint32_t *words, uint32_t word_count, gd_error *err);

// gd_buffer_map_read starts mapping [0, size) of buffer for reading; the
// callback writes *state. Scope errors go to *err.
void gd_buffer_map_read(WGPUDevice device, WGPUBuffer buffer, size_t size, gd_map_state *state, gd_error *err);

// gd_map_done reports whether the map callback has written *state; safe to
// call from any thread.
int gd_map_done(gd_map_state *state);

// gd_generate_report fills *report (zeroed first) by wgpuGenerateReport.
void gd_generate_report(WGPUInstance instance, WGPUGlobalReport *report);

// gd_surface_current_texture is wgpuSurfaceGetCurrentTexture with its
// status in *status; the texture is NULL unless the status is Success.
WGPUTexture gd_surface_current_texture(WGPUSurface surface, int *status);

// gd_sleep_ns sleeps for ns nanoseconds (nanosleep(2), resumed after a
// signal).
void gd_sleep_ns(long long ns);

// gd_getenv is getenv(3), for tests that check os.Setenv reaches C's environ.
const char *gd_getenv(const char *name);

#endif
