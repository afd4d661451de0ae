#include <stdint.h>
#include <stdio.h>

typedef struct {
	uint32_t api_version, driver_version, vendor_id, device_id;
	int32_t device_type, driver_id;
	char device_name[256], driver_name[256], driver_info[256];
	uint8_t conformance[4];
} gpudiff_vk_device;

typedef struct {
	char version[256], renderer[256], vendor[256];
} gpudiff_gl_info;

int gpudiff_probe_vulkan(gpudiff_vk_device *out, int max, char *err, int errlen);
int gpudiff_probe_gles(gpudiff_gl_info *out, char *err, int errlen);
