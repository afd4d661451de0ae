package wgpuext

/*
#include "wgpuext.h"
*/
import "C"

import "github.com/cogentcore/webgpu/wgpu"

// Kept reports, per backend and object kind, how many wgpu objects the
// application still holds: created and not yet released
// (WGPURegistryReport.numKeptFromUser of wgpuGenerateReport). Keys look like
// "vulkan/buffers" or "gl/shader-modules". A count that grows across
// iterations that should release everything they create is a leak.
//
// The binding's own Instance.GenerateReport returns only the hub of the
// report's backendType, which hides Vulkan whenever GL is also enabled.
func Kept(inst *wgpu.Instance) (map[string]uint64, error) {
	if err := ready(); err != nil {
		return nil, err
	}
	if inst == nil {
		return nil, errNil
	}
	var r C.WGPUGlobalReport
	C.gd_generate_report(C.WGPUInstance(instanceRef(inst)), &r)
	kept := map[string]uint64{}
	for backend, h := range map[string]*C.WGPUHubReport{"vulkan": &r.vulkan, "gl": &r.gl, "metal": &r.metal, "dx12": &r.dx12} {
		for kind, reg := range map[string]C.WGPURegistryReport{
			"adapters": h.adapters, "devices": h.devices, "queues": h.queues,
			"pipeline-layouts": h.pipelineLayouts, "shader-modules": h.shaderModules,
			"bind-group-layouts": h.bindGroupLayouts, "bind-groups": h.bindGroups,
			"command-buffers": h.commandBuffers, "render-bundles": h.renderBundles,
			"render-pipelines": h.renderPipelines, "compute-pipelines": h.computePipelines,
			"query-sets": h.querySets, "buffers": h.buffers, "textures": h.textures,
			"texture-views": h.textureViews, "samplers": h.samplers,
		} {
			kept[backend+"/"+kind] = uint64(reg.numKeptFromUser)
		}
	}
	return kept, nil
}
