package harness

import (
	"fmt"
	"strings"

	"github.com/cogentcore/webgpu/wgpu"
)

// Uploading the textures no copy can write (issue 24): a multisampled
// texture is never a copy destination, nor is a depth32float texture
// (WebGPU §"Depth-stencil formats": of the depth formats only
// depth16unorm's depth aspect is a copy destination; §"Multisample":
// copies need sampleCount 1). Only a render pass writes them, so the
// harness copies the texels into a same-sized source texture with
// writeTexture and draws VertexWGSL's full-target triangle into each
// subresource with a fragment shader that reads the source:
//
//   - multisampled colour (sampleCount 4, one level, one layer): the source
//     is a 2d-array of the same format with one layer per sample; pass s
//     draws with the pipeline's sample mask 1 << s (WebGPU
//     GPUMultisampleState.mask: only sample s is written; the passes after
//     the first load the others) a fragment shader returning
//     textureLoad(src, pixel, s, 0) to the one colour target. The mask,
//     not @builtin(sample_index), picks the sample: compatibility mode
//     (Dawn's GL backends) has no sample_index. Unorm, float, uint and
//     sint values cross the shader unchanged (a unorm code's value
//     converts back to the same code);
//   - depth32float (every level and layer): the source is an r32float
//     2d-array with the same levels and layers; one pass per level and
//     layer renders into a single-subresource view as the depth attachment
//     (depthCompare "always", depth writes on, no colour target) with
//     @builtin(frag_depth) = textureLoad(src, pixel, layer, level).x.
//     Vulkan clamps frag_depth to the viewport's [0, 1] depth range, so a
//     texel outside it cannot be uploaded (the case model refuses it);
//     inside it the f32 is stored as it is.
//
// The upload shaders index with i32 (wgpu 0.19.4's naga refuses a u32
// level or layer: findings/compute/naga_textureload_u32_level.wgsl).
//
// The passes are submitted before the dispatch that binds the texture,
// on the same queue, so the dispatch reads the uploaded texels.

// renderUploaded reports whether t is uploaded by render passes
// (uploadByRender) instead of writeTexture.
func (t TextureBinding) renderUploaded() bool {
	_, _, _, _, samples := t.size()
	return samples > 1 || t.Format == "depth32float"
}

// uploadShader is the fragment shader of an upload pass: T is the
// source's sampled type; depth writes frag_depth from layer and level.
func uploadShader(t TextureBinding, layer, level uint32) string {
	if t.Format == "depth32float" {
		return fmt.Sprintf(`@group(0) @binding(0) var src: texture_2d_array<f32>;
@fragment
fn upload(@builtin(position) p: vec4<f32>) -> @builtin(frag_depth) f32 {
  return textureLoad(src, vec2<i32>(p.xy), %d, %d).x;
}
`, layer, level)
	}
	T := sampledTypeOf(t.Format)
	return fmt.Sprintf(`@group(0) @binding(0) var src: texture_2d_array<%[1]s>;
@fragment
fn upload(@builtin(position) p: vec4<f32>) -> @location(0) vec4<%[1]s> {
  return textureLoad(src, vec2<i32>(p.xy), %[2]d, 0);
}
`, T, layer)
}

// sampledTypeOf is the WGSL type a shader reads format's texels as.
func sampledTypeOf(format string) string {
	switch {
	case strings.HasSuffix(format, "uint"):
		return "u32"
	case strings.HasSuffix(format, "sint"):
		return "i32"
	}
	return "f32"
}

// uploadByRender writes t's texels into tex by render passes (see above).
// Every object it creates is released before it returns (the submitted
// work keeps what it uses alive).
func (d *Device) uploadByRender(tex *wgpu.Texture, t TextureBinding) (err error) {
	w, h, dl, levels, samples := t.size()
	depth := t.Format == "depth32float"
	srcFormat, layers := t.Format, samples
	if depth {
		srcFormat, layers = "r32float", dl
	}
	ts := uint32(TexelSize(t.Format))
	var release []func()
	defer func() {
		for i := len(release) - 1; i >= 0; i-- {
			release[i]()
		}
	}()
	src, err := d.dev.CreateTexture(&wgpu.TextureDescriptor{
		Label: "gpudiff upload source", Usage: wgpu.TextureUsageCopyDst | wgpu.TextureUsageTextureBinding, Dimension: wgpu.TextureDimension2D,
		Size: wgpu.Extent3D{Width: w, Height: h, DepthOrArrayLayers: layers}, Format: wgpuFormats[srcFormat],
		MipLevelCount: map[bool]uint32{true: levels, false: 1}[depth], SampleCount: 1,
	})
	if err != nil {
		return err
	}
	release = append(release, src.Release)
	for l := uint32(0); l < map[bool]uint32{true: levels, false: 1}[depth]; l++ {
		lw, lh, _ := t.LevelSize(l)
		data := make([]byte, int(lw*lh*layers*ts))
		if int(l) < len(t.Data) {
			if depth {
				copy(data, t.Data[l])
			} else {
				// Sample s of texel i is at (i·samples + s)·ts: layer s.
				in := t.Data[l]
				n := int(lw * lh)
				for i := 0; i < n; i++ {
					for s := 0; s < int(samples); s++ {
						from := (i*int(samples) + s) * int(ts)
						if from+int(ts) <= len(in) {
							copy(data[(s*n+i)*int(ts):], in[from:from+int(ts)])
						}
					}
				}
			}
		}
		if err := d.queue.WriteTexture(&wgpu.ImageCopyTexture{Texture: src, MipLevel: l, Aspect: wgpu.TextureAspectAll}, data,
			&wgpu.TextureDataLayout{BytesPerRow: lw * ts, RowsPerImage: lh}, &wgpu.Extent3D{Width: lw, Height: lh, DepthOrArrayLayers: layers}); err != nil {
			return err
		}
	}
	srcView, err := src.CreateView(&wgpu.TextureViewDescriptor{Format: wgpuFormats[srcFormat], Dimension: wgpu.TextureViewDimension2DArray,
		MipLevelCount: map[bool]uint32{true: levels, false: 1}[depth], ArrayLayerCount: layers, Aspect: wgpu.TextureAspectAll})
	if err != nil {
		return err
	}
	release = append(release, srcView.Release)
	sampleType := wgpu.TextureSampleTypeUnfilterableFloat
	switch sampledTypeOf(srcFormat) {
	case "u32":
		sampleType = wgpu.TextureSampleTypeUint
	case "i32":
		sampleType = wgpu.TextureSampleTypeSint
	}
	bgl, err := d.dev.CreateBindGroupLayout(&wgpu.BindGroupLayoutDescriptor{Label: "gpudiff upload", Entries: []wgpu.BindGroupLayoutEntry{{
		Binding: 0, Visibility: wgpu.ShaderStageFragment,
		Texture: wgpu.TextureBindingLayout{SampleType: sampleType, ViewDimension: wgpu.TextureViewDimension2DArray},
	}}})
	if err != nil {
		return err
	}
	release = append(release, bgl.Release)
	layout, err := d.dev.CreatePipelineLayout(&wgpu.PipelineLayoutDescriptor{Label: "gpudiff upload", BindGroupLayouts: []*wgpu.BindGroupLayout{bgl}})
	if err != nil {
		return err
	}
	release = append(release, layout.Release)
	bg, err := d.dev.CreateBindGroup(&wgpu.BindGroupDescriptor{Layout: bgl, Entries: []wgpu.BindGroupEntry{{Binding: 0, TextureView: srcView}}})
	if err != nil {
		return err
	}
	release = append(release, bg.Release)
	vertex, err := d.vertexModule()
	if err != nil {
		return err
	}
	enc, err := d.dev.CreateCommandEncoder(&wgpu.CommandEncoderDescriptor{Label: "gpudiff upload"})
	if err != nil {
		return err
	}
	release = append(release, enc.Release)
	pipeline := func(layer, level uint32) (*wgpu.RenderPipeline, error) {
		m, err := d.createModule(Kernel{WGSL: uploadShader(t, layer, level)})
		if err != nil {
			return nil, err
		}
		defer m.Release()
		desc := &wgpu.RenderPipelineDescriptor{
			Label: "gpudiff upload", Layout: layout,
			Vertex:      wgpu.VertexState{Module: vertex, EntryPoint: vertexEntry},
			Primitive:   wgpu.PrimitiveState{Topology: wgpu.PrimitiveTopologyTriangleList, FrontFace: wgpu.FrontFaceCCW, CullMode: wgpu.CullModeNone},
			Multisample: wgpu.MultisampleState{Count: samples, Mask: 0xFFFFFFFF},
			Fragment:    &wgpu.FragmentState{Module: m, EntryPoint: "upload"},
		}
		if !depth {
			desc.Multisample.Mask = 1 << layer // layer is the sample
		}
		if depth {
			keep := wgpu.StencilFaceState{Compare: wgpu.CompareFunctionAlways, FailOp: wgpu.StencilOperationKeep, DepthFailOp: wgpu.StencilOperationKeep, PassOp: wgpu.StencilOperationKeep}
			desc.DepthStencil = &wgpu.DepthStencilState{Format: wgpu.TextureFormatDepth32Float, DepthWriteEnabled: true,
				DepthCompare: wgpu.CompareFunctionAlways, StencilFront: keep, StencilBack: keep}
		} else {
			desc.Fragment.Targets = []wgpu.ColorTargetState{{Format: wgpuFormats[t.Format], WriteMask: wgpu.ColorWriteMaskAll}}
		}
		return d.dev.CreateRenderPipeline(desc)
	}
	draw := func(p *wgpu.RenderPipeline, view *wgpu.TextureView, load wgpu.LoadOp) error {
		desc := &wgpu.RenderPassDescriptor{Label: "gpudiff upload"}
		if depth {
			desc.DepthStencilAttachment = &wgpu.RenderPassDepthStencilAttachment{View: view,
				DepthLoadOp: load, DepthStoreOp: wgpu.StoreOpStore, DepthClearValue: 0}
		} else {
			desc.ColorAttachments = []wgpu.RenderPassColorAttachment{{View: view, LoadOp: load, StoreOp: wgpu.StoreOpStore}}
		}
		pass := enc.BeginRenderPass(desc)
		pass.SetPipeline(p)
		pass.SetBindGroup(0, bg, nil)
		pass.Draw(3, 1, 0, 0)
		if err := pass.End(); err != nil {
			return err
		}
		pass.Release()
		return nil
	}
	if !depth {
		view, err := tex.CreateView(&wgpu.TextureViewDescriptor{Format: wgpuFormats[t.Format], Dimension: wgpu.TextureViewDimension2D,
			MipLevelCount: 1, ArrayLayerCount: 1, Aspect: wgpu.TextureAspectAll})
		if err != nil {
			return err
		}
		release = append(release, view.Release)
		for s := uint32(0); s < samples; s++ {
			p, err := pipeline(s, 0)
			if err != nil {
				return err
			}
			release = append(release, p.Release)
			load := wgpu.LoadOpLoad
			if s == 0 {
				load = wgpu.LoadOpClear
			}
			if err := draw(p, view, load); err != nil {
				return err
			}
		}
	} else {
		for l := uint32(0); l < levels; l++ {
			for z := uint32(0); z < dl; z++ {
				p, err := pipeline(z, l)
				if err != nil {
					return err
				}
				release = append(release, p.Release)
				view, err := tex.CreateView(&wgpu.TextureViewDescriptor{Format: wgpu.TextureFormatDepth32Float, Dimension: wgpu.TextureViewDimension2D,
					BaseMipLevel: l, MipLevelCount: 1, BaseArrayLayer: z, ArrayLayerCount: 1, Aspect: wgpu.TextureAspectAll})
				if err != nil {
					return err
				}
				release = append(release, view.Release)
				if err := draw(p, view, wgpu.LoadOpClear); err != nil {
					return err
				}
			}
		}
	}
	cmd, err := enc.Finish(nil)
	if err != nil {
		return err
	}
	release = append(release, cmd.Release)
	d.queue.Submit(cmd)
	return nil
}
