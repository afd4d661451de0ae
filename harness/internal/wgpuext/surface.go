package wgpuext

/*
#include "wgpuext.h"
*/
import "C"

import (
	"unsafe"

	"github.com/cogentcore/webgpu/wgpu"
)

// CurrentTexture returns the surface's next texture to draw into
// (wgpuSurfaceGetCurrentTexture) for device, the device the surface is
// configured with. The binding's Surface.GetCurrentTexture drops the
// status and returns a texture with a NULL handle when there is none
// (outdated after a resize, lost, timed out), which wgpu-native aborts the
// process on once used; here a status other than Success returns a nil
// texture and that status. As with the binding's, the texture is the
// surface's: release only the views made of it.
func CurrentTexture(surface *wgpu.Surface, device *wgpu.Device) (*wgpu.Texture, wgpu.SurfaceGetCurrentTextureStatus, error) {
	if err := ready(); err != nil {
		return nil, 0, err
	}
	if surface == nil || device == nil {
		return nil, 0, errNil
	}
	var status C.int
	ref := C.gd_surface_current_texture(C.WGPUSurface(surfaceRef(surface)), &status)
	st := wgpu.SurfaceGetCurrentTextureStatus(status)
	if ref == nil {
		return nil, st, nil
	}
	return wrapTexture(deviceRef(device), unsafe.Pointer(ref)), st, nil
}
