package harness

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/cogentcore/webgpu/wgpu"
)

// ShaderStage is the pipeline stage of a Kernel's entry point (WebGPU
// #GPUShaderStage): compute (a compute pipeline, Device.Run dispatches
// workgroups) or fragment (a render pipeline, Device.Run draws one
// full-screen triangle).
type ShaderStage string

// The stages Kernel.Stage takes; "" means ComputeStage.
const (
	ComputeStage  ShaderStage = "compute"
	FragmentStage ShaderStage = "fragment"
)

// FragmentRowPitch is the kernel ABI's row pitch in the fragment stage
// (ARCHITECTURE.md "Kernel ABI"): the fragment at pixel (x, y) of the
// target is invocation y*FragmentRowPitch + x. FragmentTarget sizes the
// target for a number of invocations.
const FragmentRowPitch = 256

// FragmentTarget is the render target of the kernel ABI in the fragment
// stage for n invocations: min(n, 256) pixels wide, ceil(n/256) rows high
// (1×1 for n = 0), so the invocations fill it row by row and only the last
// row may hold fragments past n, which the entry point bounds-checks. 256
// rows of 256 make a 65,536-invocation target; the largest is
// 256 × maxTextureDimension2D (8192 on the CPU adapters: 2,097,152
// invocations).
func FragmentTarget(n int) [2]uint32 {
	if n <= 0 {
		return [2]uint32{1, 1}
	}
	return [2]uint32{uint32(min(n, FragmentRowPitch)), uint32((n + FragmentRowPitch - 1) / FragmentRowPitch)}
}

// AttachmentFormat is the texture format of one colour attachment of a
// fragment draw (WebGPU #plain-color-formats): the attachment at index i
// receives the entry point's @location(i) output. The 32-bit formats hold
// a WGSL value's bits exactly; rgba8unorm holds each channel as the byte
// round(clamp(v, 0, 1) × 255) (WebGPU #texture-formats, Vulkan's
// "Conversion from Floating-Point to Normalized Fixed-Point": round to
// nearest), read back as those bytes.
type AttachmentFormat string

// The attachment formats: the scalar type and component count of the
// @location output they receive (f32, i32, u32; 1, 2 or 4 components;
// rgba8unorm: f32, 4 components).
const (
	R32Uint     AttachmentFormat = "r32uint"
	R32Sint     AttachmentFormat = "r32sint"
	R32Float    AttachmentFormat = "r32float"
	RG32Uint    AttachmentFormat = "rg32uint"
	RG32Sint    AttachmentFormat = "rg32sint"
	RG32Float   AttachmentFormat = "rg32float"
	RGBA32Uint  AttachmentFormat = "rgba32uint"
	RGBA32Sint  AttachmentFormat = "rgba32sint"
	RGBA32Float AttachmentFormat = "rgba32float"
	RGBA8Unorm  AttachmentFormat = "rgba8unorm"
)

var attachmentFormats = map[AttachmentFormat]wgpu.TextureFormat{
	R32Uint: wgpu.TextureFormatR32Uint, R32Sint: wgpu.TextureFormatR32Sint, R32Float: wgpu.TextureFormatR32Float,
	RG32Uint: wgpu.TextureFormatRG32Uint, RG32Sint: wgpu.TextureFormatRG32Sint, RG32Float: wgpu.TextureFormatRG32Float,
	RGBA32Uint: wgpu.TextureFormatRGBA32Uint, RGBA32Sint: wgpu.TextureFormatRGBA32Sint, RGBA32Float: wgpu.TextureFormatRGBA32Float,
	RGBA8Unorm: wgpu.TextureFormatRGBA8Unorm,
}

// TexelSize is the size in bytes of one texel of f (4 per component of a
// 32-bit format, 4 for rgba8unorm), 0 for an unknown format.
func (f AttachmentFormat) TexelSize() int {
	switch f {
	case R32Uint, R32Sint, R32Float, RGBA8Unorm:
		return 4
	case RG32Uint, RG32Sint, RG32Float:
		return 8
	case RGBA32Uint, RGBA32Sint, RGBA32Float:
		return 16
	}
	return 0
}

// VertexWGSL is the vertex stage of every fragment draw, in WGSL even when
// the fragment module is SPIR-V (a render pipeline's two stages may come
// from different modules, WebGPU #GPURenderPipelineDescriptor): vertex i
// of three is (4*(i&1) - 1, 4*(i>>1) - 1, 0, 1), one triangle with corners
// (-1,-1), (3,-1), (-1,3) whose inside covers the whole viewport, so every
// pixel of the target is shaded exactly once with no sample on an edge. Its
// depth is z = 0 and w = 1 at every vertex, so a fragment's
// @builtin(position) is (x + 0.5, y + 0.5, 0, 1) at pixel (x, y), (0, 0)
// the top-left pixel (WGSL #builtin-values: framebuffer coordinates).
const VertexWGSL = `@vertex
fn gpudiff_vertex(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
  return vec4<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.0, 1.0);
}
`

const vertexEntry = "gpudiff_vertex"

// UnsupportedError is returned by Run for a kernel the adapter cannot run
// at all, with the reason: e.g. a fragment kernel with writable storage on
// an adapter without fragment-stage writable storage buffers (wgpu's
// downlevel flag FRAGMENT_WRITABLE_STORAGE; WebGPU compatibility mode's
// maxStorageBuffersInFragmentStage = 0). It wraps ErrUnsupported.
type UnsupportedError struct {
	Adapter string
	Reason  string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("harness: %s cannot run this kernel: %s", e.Adapter, e.Reason)
}

// Unwrap returns ErrUnsupported.
func (e *UnsupportedError) Unwrap() error { return ErrUnsupported }

// checkFragment validates a fragment draw (Kernel.Stage FragmentStage)
// against the device's limits.
// wgpu-native (wgpu 0.19.4) reports neither maxColorAttachments nor
// maxColorAttachmentBytesPerSample (both read 0) and gives every device
// WebGPU's defaults for them (WebGPU #limits: 8 and 32), which apply then.
func (d *Device) checkFragment(job Dispatch) error {
	maxAttachments, maxBytes := d.limits.MaxColorAttachments, d.limits.MaxColorAttachmentBytesPerSample
	if maxAttachments == 0 {
		maxAttachments = DefaultMaxColorAttachments
	}
	if maxBytes == 0 {
		maxBytes = DefaultMaxColorAttachmentBytesPerSample
	}
	return CheckFragment(job, d.info.Name, d.limits.MaxTextureDimension2D, maxAttachments, maxBytes,
		min(d.limits.MaxStorageBufferBindingSize, d.limits.MaxBufferSize))
}

// WebGPU's default limits on colour attachments (WebGPU #limits), which
// every adapter supports.
const (
	DefaultMaxColorAttachments              = 8
	DefaultMaxColorAttachmentBytesPerSample = 32
)

// CheckFragment validates a fragment draw against an adapter's limits;
// implementations share it. A draw needs a target of 1 to maxDim pixels
// each way, 1 to maxAttachments attachments of known formats whose texels
// together take at most maxBytesPerSample bytes
// (maxColorAttachmentBytesPerSample), no Workgroups, and buffers within
// maxStorage bytes.
func CheckFragment(job Dispatch, adapter string, maxDim, maxAttachments, maxBytesPerSample uint32, maxStorage uint64) error {
	switch {
	case job.Workgroups != [3]uint32{}:
		return errors.New("harness: a fragment draw has no Workgroups")
	case job.Target[0] == 0 || job.Target[1] == 0 || job.Target[0] > maxDim || job.Target[1] > maxDim:
		return fmt.Errorf("harness: fragment target %d×%d, want 1 to %s's limit of %d each way", job.Target[0], job.Target[1], adapter, maxDim)
	case len(job.Attachments) == 0:
		return errors.New("harness: a fragment draw needs at least one colour attachment")
	case uint32(len(job.Attachments)) > maxAttachments:
		return fmt.Errorf("harness: %d colour attachments, over %s's limit of %d", len(job.Attachments), adapter, maxAttachments)
	}
	bytes := 0
	for i, f := range job.Attachments {
		if f.TexelSize() == 0 {
			return fmt.Errorf("harness: colour attachment %d has unknown format %q", i, f)
		}
		bytes += f.TexelSize()
	}
	if uint32(bytes) > maxBytesPerSample {
		return fmt.Errorf("harness: colour attachments of %d bytes per pixel, over %s's maxColorAttachmentBytesPerSample of %d", bytes, adapter, maxBytesPerSample)
	}
	entry := job.Entry || job.Draw != nil
	if entry && (len(job.Input) > 0 || job.OutputSize != 0 || job.Invocations != 0) {
		return errors.New("harness: a fragment draw of an entry point as written has no Input, OutputSize or Invocations")
	}
	if job.Buffers != nil || entry {
		for _, b := range job.Buffers {
			if b.Kind != BindingReadOnly && b.Kind != BindingStorage && b.Kind != BindingUniform {
				return fmt.Errorf("harness: @group(%d) @binding(%d) has kind %v", b.Group, b.Binding, b.Kind)
			}
		}
		return nil
	}
	for _, n := range []int{len(job.Input), job.OutputSize} {
		if uint64(bufferSize(n)) > maxStorage {
			return fmt.Errorf("harness: buffer of %d bytes exceeds %s's storage binding limit of %d bytes", n, adapter, maxStorage)
		}
	}
	return nil
}

// fragmentLayout returns the kernel ABI's bind group layout and pipeline
// layout for the fragment stage, created on first use. A device without
// fragment-stage writable storage refuses the layout: that is an
// *UnsupportedError, remembered.
func (d *Device) fragmentLayout() (*wgpu.BindGroupLayout, *wgpu.PipelineLayout, error) {
	if d.fragBGL != nil || d.fragErr != nil {
		return d.fragBGL, d.fragLayout, d.fragErr
	}
	storage := func(binding uint32, typ wgpu.BufferBindingType) wgpu.BindGroupLayoutEntry {
		return wgpu.BindGroupLayoutEntry{Binding: binding, Visibility: wgpu.ShaderStageFragment, Buffer: wgpu.BufferBindingLayout{Type: typ}}
	}
	bgl, err := d.dev.CreateBindGroupLayout(&wgpu.BindGroupLayoutDescriptor{
		Label: "gpudiff kernel ABI (fragment)",
		Entries: []wgpu.BindGroupLayoutEntry{
			storage(bindingInput, wgpu.BufferBindingTypeReadOnlyStorage),
			storage(bindingOutput, wgpu.BufferBindingTypeStorage),
		},
	})
	if err != nil {
		d.fragErr = &UnsupportedError{Adapter: d.info.Name,
			Reason: "no writable storage buffers in the fragment stage (the kernel ABI's output buffer): " + stackMessage(err)}
		return nil, nil, d.fragErr
	}
	layout, err := d.dev.CreatePipelineLayout(&wgpu.PipelineLayoutDescriptor{
		Label: "gpudiff kernel ABI (fragment)", BindGroupLayouts: []*wgpu.BindGroupLayout{bgl},
	})
	if err != nil {
		bgl.Release()
		return nil, nil, d.fail("bind-group", err)
	}
	d.fragBGL, d.fragLayout = bgl, layout
	return bgl, layout, nil
}

// vertexModule returns the device's VertexWGSL module, created on first use.
func (d *Device) vertexModule() (*wgpu.ShaderModule, error) {
	if d.vertex != nil {
		return d.vertex, nil
	}
	m, err := d.createModule(Kernel{WGSL: VertexWGSL})
	if err != nil {
		return nil, fmt.Errorf("harness: %s: the vertex stage: %w", d.info.Name, err)
	}
	d.vertex = m
	return m, nil
}

// The wgpu enums of a Draw's strings (draw.go; CheckDraw has refused any
// other).
var (
	wgpuTopologies = map[string]wgpu.PrimitiveTopology{
		"triangle-list": wgpu.PrimitiveTopologyTriangleList, "triangle-strip": wgpu.PrimitiveTopologyTriangleStrip,
	}
	wgpuCullModes  = map[string]wgpu.CullMode{"none": wgpu.CullModeNone, "front": wgpu.CullModeFront, "back": wgpu.CullModeBack}
	wgpuFrontFaces = map[string]wgpu.FrontFace{"ccw": wgpu.FrontFaceCCW, "cw": wgpu.FrontFaceCW}
	wgpuStepModes  = map[string]wgpu.VertexStepMode{"vertex": wgpu.VertexStepModeVertex, "instance": wgpu.VertexStepModeInstance}
	wgpuIndexFmts  = map[string]wgpu.IndexFormat{"uint16": wgpu.IndexFormatUint16, "uint32": wgpu.IndexFormatUint32}
	// wgpuVertexFormats maps WGPUVertexFormats' names to webgpu.h's enum.
	wgpuVertexFormats = enumByName[wgpu.VertexFormat]()
)

// drawLimits are the device's limits on vertex input (CheckDraw).
func (d *Device) drawLimits() DrawLimits {
	return DrawLimits{
		MaxVertexBuffers: d.limits.MaxVertexBuffers, MaxVertexAttributes: d.limits.MaxVertexAttributes,
		MaxVertexBufferArrayStride: d.limits.MaxVertexBufferArrayStride, MaxBufferSize: d.limits.MaxBufferSize,
		VertexFormats: WGPUVertexFormats,
	}
}

// createRenderPipeline compiles k's fragment entry point and its vertex
// stage (k's own, else VertexWGSL's full-screen triangle) into a render
// pipeline with layout, draw's vertex buffer layouts and primitive state,
// and one colour target per attachment. Errors are *CompileError (a
// vertex stage of k's own that the stack rejects is one too; the
// harness's own failing is not).
func (d *Device) createRenderPipeline(k Kernel, layout *wgpu.PipelineLayout, attachments []AttachmentFormat, draw Draw) (*wgpu.RenderPipeline, error) {
	vertex, vertexEntry := (*wgpu.ShaderModule)(nil), vertexEntry
	if k.UserVertex() {
		m, err := d.createModule(Kernel{WGSL: k.VertexWGSL, SPIRV: k.VertexSPIRV})
		if err != nil {
			return nil, err
		}
		defer m.Release()
		vertex, vertexEntry = m, k.VertexEntryPoint
	} else {
		m, err := d.vertexModule()
		if err != nil {
			return nil, err
		}
		vertex = m
	}
	module, err := d.createModule(k)
	if err != nil {
		return nil, err
	}
	defer module.Release()
	targets := make([]wgpu.ColorTargetState, len(attachments))
	for i, f := range attachments {
		targets[i] = wgpu.ColorTargetState{Format: attachmentFormats[f], WriteMask: wgpu.ColorWriteMaskAll}
	}
	buffers := make([]wgpu.VertexBufferLayout, len(draw.VertexBuffers))
	for i, b := range draw.VertexBuffers {
		attrs := make([]wgpu.VertexAttribute, len(b.Attributes))
		for j, a := range b.Attributes {
			attrs[j] = wgpu.VertexAttribute{Format: wgpuVertexFormats[a.Format], Offset: a.Offset, ShaderLocation: a.ShaderLocation}
		}
		buffers[i] = wgpu.VertexBufferLayout{ArrayStride: b.Stride, StepMode: wgpuStepModes[b.StepMode], Attributes: attrs}
	}
	primitive := wgpu.PrimitiveState{Topology: wgpuTopologies[draw.Topology], FrontFace: wgpuFrontFaces[draw.FrontFace], CullMode: wgpuCullModes[draw.CullMode]}
	if draw.Topology == "triangle-strip" && draw.Index != nil {
		primitive.StripIndexFormat = wgpuIndexFmts[draw.Index.Format]
	}
	pipeline, err := d.dev.CreateRenderPipeline(&wgpu.RenderPipelineDescriptor{
		Label:       "gpudiff fragment",
		Layout:      layout,
		Vertex:      wgpu.VertexState{Module: vertex, EntryPoint: vertexEntry, Buffers: buffers},
		Primitive:   primitive,
		Multisample: wgpu.MultisampleState{Count: 1, Mask: 0xFFFFFFFF},
		Fragment:    &wgpu.FragmentState{Module: module, EntryPoint: k.EntryPoint, Targets: targets},
	})
	if err != nil {
		return nil, &CompileError{Stage: StagePipeline, Message: stackMessage(err)}
	}
	return pipeline, nil
}

// drawBuffers are a draw's vertex buffers (by slot) and index buffer.
type drawBuffers struct {
	vertex []*wgpu.Buffer
	index  *wgpu.Buffer
}

func (b *drawBuffers) release() {
	for _, v := range b.vertex {
		if v != nil {
			v.Release()
		}
	}
	if b.index != nil {
		b.index.Release()
	}
}

// createDrawBuffers creates draw's vertex and index buffers with their
// bytes (zero-padded to a multiple of 4). On error everything created is
// released.
func (d *Device) createDrawBuffers(draw Draw) (*drawBuffers, error) {
	b := &drawBuffers{vertex: make([]*wgpu.Buffer, len(draw.VertexBuffers))}
	create := func(label string, data []byte, usage wgpu.BufferUsage) (*wgpu.Buffer, error) {
		padded := make([]byte, bufferSize(len(data)))
		copy(padded, data)
		return d.dev.CreateBufferInit(&wgpu.BufferInitDescriptor{Label: label, Contents: padded, Usage: usage})
	}
	for i, v := range draw.VertexBuffers {
		buf, err := create(fmt.Sprintf("vertex buffer %d", i), v.Data, wgpu.BufferUsageVertex)
		if err != nil {
			b.release()
			return nil, d.fail("buffer", err)
		}
		b.vertex[i] = buf
	}
	if draw.Index != nil {
		buf, err := create("index buffer", draw.Index.Data, wgpu.BufferUsageIndex)
		if err != nil {
			b.release()
			return nil, d.fail("buffer", err)
		}
		b.index = buf
	}
	return b, nil
}

// runFragment does the work of Run for a fragment kernel: a render
// pipeline of the kernel ABI's bindings (fragment-visible) or, for a
// pipeline as written (job.AsWritten), of the module's Buffers, Textures
// and Samplers (none at all when there are none; visible to the vertex
// stage too when k has its own), the draw (job.EffectiveDraw: by default
// the full-screen triangle) over job.Target, then the readback of the
// output (or of every BindingStorage buffer) and of every attachment.
// Every object it creates is released on return.
func (d *Device) runFragment(ctx context.Context, k Kernel, job Dispatch) ([]byte, error) {
	var bufs []BufferBinding
	var layout *wgpu.PipelineLayout
	var bgls []*wgpu.BindGroupLayout
	if !job.AsWritten(k) {
		bgl, l, err := d.fragmentLayout()
		if err != nil {
			return nil, err
		}
		layout, bgls = l, []*wgpu.BindGroupLayout{bgl}
		input := make([]byte, bufferSize(len(job.Input)))
		copy(input, job.Input)
		bufs = []BufferBinding{
			{Binding: bindingInput, Kind: BindingReadOnly, Data: input},
			{Binding: bindingOutput, Kind: BindingStorage, Data: make([]byte, job.OutputSize)},
		}
	} else {
		bufs = job.Buffers
		var release func()
		var err error
		bgls, layout, release, err = d.bindingLayouts(job, bufs, wgpu.ShaderStageFragment, k.UserVertex())
		if err != nil {
			return nil, err
		}
		defer release()
	}
	draw := job.EffectiveDraw()
	pipeline, err := d.createRenderPipeline(k, layout, job.Attachments, draw)
	if err != nil {
		return nil, err
	}
	defer pipeline.Release()
	Compiled(ctx)

	b, err := d.createBindings(job, bufs, bgls)
	if err != nil {
		return nil, err
	}
	defer b.release()
	db, err := d.createDrawBuffers(draw)
	if err != nil {
		return nil, err
	}
	defer db.release()

	w, h := job.Target[0], job.Target[1]
	textures := make([]*wgpu.Texture, len(job.Attachments))
	views := make([]*wgpu.TextureView, len(job.Attachments))
	defer func() {
		for i := range textures {
			if views[i] != nil {
				views[i].Release()
			}
			if textures[i] != nil {
				textures[i].Release()
			}
		}
	}()
	rowBytes := make([]int, len(job.Attachments)) // padded to 256 in the readback buffer
	texOffset := make([]int, len(job.Attachments))
	readSize := b.readSize
	for i, f := range job.Attachments {
		tex, err := d.dev.CreateTexture(&wgpu.TextureDescriptor{
			Label:     fmt.Sprintf("attachment %d", i),
			Usage:     wgpu.TextureUsageRenderAttachment | wgpu.TextureUsageCopySrc,
			Dimension: wgpu.TextureDimension2D,
			Size:      wgpu.Extent3D{Width: w, Height: h, DepthOrArrayLayers: 1},
			Format:    attachmentFormats[f], MipLevelCount: 1, SampleCount: 1,
		})
		if err != nil {
			return nil, d.fail("texture", err)
		}
		textures[i] = tex
		if views[i], err = tex.CreateView(nil); err != nil {
			return nil, d.fail("texture", err)
		}
		rowBytes[i] = (int(w)*f.TexelSize() + 255) &^ 255 // WebGPU #gpuimagecopybuffer: bytesPerRow a multiple of 256
		readSize = (readSize + 255) &^ 255                // a multiple of every texel size (WebGPU #abstract-opdef-validating-linear-texture-data)
		texOffset[i] = readSize
		readSize += rowBytes[i] * int(h)
	}
	readSize = max(readSize, 4)
	readBuf, err := d.dev.CreateBuffer(&wgpu.BufferDescriptor{
		Label: "readback", Size: uint64(readSize), Usage: wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst,
	})
	if err != nil {
		return nil, d.fail("buffer", err)
	}
	defer readBuf.Release()

	cmd, err := d.encodeDraw(pipeline, b, db, draw, bufs, views, textures, job, readBuf, texOffset, rowBytes)
	if err != nil {
		return nil, d.fail("encode", err)
	}
	defer cmd.Release()
	return d.submitAndRead(ctx, cmd, readBuf, readSize, func(mapped []byte) []byte {
		var out []byte
		for i, bb := range bufs {
			if bb.Kind == BindingStorage {
				out = append(out, mapped[b.offsets[i]:b.offsets[i]+len(bb.Data)]...)
			}
		}
		for i, f := range job.Attachments {
			row := int(w) * f.TexelSize()
			for y := 0; y < int(h); y++ {
				at := texOffset[i] + y*rowBytes[i]
				out = append(out, mapped[at:at+row]...)
			}
		}
		return out
	})
}

// encodeDraw records the render pass (attachments cleared to draw.Clear,
// the vertex and index buffers set, the draw call), the copies of the
// BindingStorage buffers and of the attachments into readBuf.
func (d *Device) encodeDraw(pipeline *wgpu.RenderPipeline, b *bindings, db *drawBuffers, draw Draw, bufs []BufferBinding, views []*wgpu.TextureView,
	textures []*wgpu.Texture, job Dispatch, readBuf *wgpu.Buffer, texOffset, rowBytes []int) (*wgpu.CommandBuffer, error) {
	enc, err := d.dev.CreateCommandEncoder(nil)
	if err != nil {
		return nil, err
	}
	defer enc.Release()
	colors := make([]wgpu.RenderPassColorAttachment, len(views))
	for i, v := range views {
		c := draw.Clear[i]
		colors[i] = wgpu.RenderPassColorAttachment{View: v, LoadOp: wgpu.LoadOpClear, StoreOp: wgpu.StoreOpStore,
			ClearValue: wgpu.Color{R: c[0], G: c[1], B: c[2], A: c[3]}}
	}
	pass := enc.BeginRenderPass(&wgpu.RenderPassDescriptor{Label: "gpudiff fragment", ColorAttachments: colors})
	pass.SetPipeline(pipeline)
	for g, bg := range b.groups {
		pass.SetBindGroup(uint32(g), bg, nil)
	}
	for i, v := range db.vertex {
		pass.SetVertexBuffer(uint32(i), v, 0, uint64(bufferSize(len(draw.VertexBuffers[i].Data))))
	}
	if db.index != nil {
		pass.SetIndexBuffer(db.index, wgpuIndexFmts[draw.Index.Format], 0, uint64(bufferSize(len(draw.Index.Data))))
		pass.DrawIndexed(draw.Count, draw.InstanceCount, draw.FirstIndex, draw.BaseVertex, draw.FirstInstance)
	} else {
		pass.Draw(draw.Count, draw.InstanceCount, draw.FirstVertex, draw.FirstInstance)
	}
	err = pass.End()
	pass.Release()
	if err != nil {
		return nil, err
	}
	for i, bb := range bufs {
		if bb.Kind != BindingStorage {
			continue
		}
		if err := enc.CopyBufferToBuffer(b.bufs[i], 0, readBuf, uint64(b.offsets[i]), uint64(bufferSize(len(bb.Data)))); err != nil {
			return nil, err
		}
	}
	for i, tex := range textures {
		err := enc.CopyTextureToBuffer(
			&wgpu.ImageCopyTexture{Texture: tex, Aspect: wgpu.TextureAspectAll},
			&wgpu.ImageCopyBuffer{Buffer: readBuf, Layout: wgpu.TextureDataLayout{
				Offset: uint64(texOffset[i]), BytesPerRow: uint32(rowBytes[i]), RowsPerImage: job.Target[1]}},
			&wgpu.Extent3D{Width: job.Target[0], Height: job.Target[1], DepthOrArrayLayers: 1})
		if err != nil {
			return nil, err
		}
	}
	return enc.Finish(nil)
}

// bindingLayouts creates a bind group layout per group of bufs, visible to
// stage (groups without buffers get an empty one) — with vertex, every
// binding but read_write storage buffers and written storage textures to
// the vertex stage too — and the pipeline layout of them; release
// releases them all.
func (d *Device) bindingLayouts(job Dispatch, bufs []BufferBinding, stage wgpu.ShaderStage, vertex bool) ([]*wgpu.BindGroupLayout, *wgpu.PipelineLayout, func(), error) {
	groups := 0
	for _, b := range bufs {
		groups = max(groups, int(b.Group)+1)
	}
	for _, t := range job.Textures {
		groups = max(groups, int(t.Group)+1)
	}
	for _, s := range job.Samplers {
		groups = max(groups, int(s.Group)+1)
	}
	entries := make([][]wgpu.BindGroupLayoutEntry, groups)
	textureLayoutEntries(job, stage, vertex, func(g uint32, e wgpu.BindGroupLayoutEntry) { entries[g] = append(entries[g], e) })
	for _, b := range bufs {
		typ := map[BindingKind]wgpu.BufferBindingType{
			BindingReadOnly: wgpu.BufferBindingTypeReadOnlyStorage,
			BindingStorage:  wgpu.BufferBindingTypeStorage,
			BindingUniform:  wgpu.BufferBindingTypeUniform,
		}[b.Kind]
		entries[b.Group] = append(entries[b.Group], wgpu.BindGroupLayoutEntry{
			Binding: b.Binding, Visibility: visibility(stage, vertex && b.Kind != BindingStorage), Buffer: wgpu.BufferBindingLayout{Type: typ},
		})
	}
	bgls := make([]*wgpu.BindGroupLayout, groups)
	var layout *wgpu.PipelineLayout
	release := func() {
		if layout != nil {
			layout.Release()
		}
		for _, l := range bgls {
			if l != nil {
				l.Release()
			}
		}
	}
	for g := range bgls {
		sort.Slice(entries[g], func(i, j int) bool { return entries[g][i].Binding < entries[g][j].Binding })
		l, err := d.dev.CreateBindGroupLayout(&wgpu.BindGroupLayoutDescriptor{Label: "module bindings", Entries: entries[g]})
		if err != nil {
			release()
			// The layout is the module's own bindings: an adapter that
			// refuses it lacks what they need (fragment-stage storage,
			// a storage texture format with this access, a feature).
			where := "the compute stage"
			if stage == wgpu.ShaderStageFragment {
				where = "the fragment stage"
				if vertex {
					where = "the vertex and fragment stages"
				}
			}
			return nil, nil, nil, &UnsupportedError{Adapter: d.info.Name,
				Reason: "the module's bindings are not available to " + where + ": " + stackMessage(err)}
		}
		bgls[g] = l
	}
	layout, err := d.dev.CreatePipelineLayout(&wgpu.PipelineLayoutDescriptor{Label: "module bindings", BindGroupLayouts: bgls})
	if err != nil {
		release()
		return nil, nil, nil, d.fail("bind-group", err)
	}
	return bgls, layout, release, nil
}

// bindings are the buffers and bind groups of one run: one buffer per
// BufferBinding (its initial bytes), one bind group per group, and where
// each BindingStorage buffer goes in the readback buffer.
type bindings struct {
	bufs     []*wgpu.Buffer
	groups   []*wgpu.BindGroup
	offsets  []int // in the readback buffer, BindingStorage only
	readSize int   // the BindingStorage buffers' (and written storage textures') bytes in the readback buffer
	tex      *textureSet
}

func (b *bindings) release() {
	if b.tex != nil {
		b.tex.release()
	}
	for _, g := range b.groups {
		if g != nil {
			g.Release()
		}
	}
	for _, buf := range b.bufs {
		if buf != nil {
			buf.Release()
		}
	}
}

// createBindings creates the buffers of bufs with their initial bytes and
// a bind group per layout of bgls. On error everything created is
// released.
func (d *Device) createBindings(job Dispatch, bufs []BufferBinding, bgls []*wgpu.BindGroupLayout) (*bindings, error) {
	b := &bindings{bufs: make([]*wgpu.Buffer, len(bufs)), groups: make([]*wgpu.BindGroup, len(bgls)), offsets: make([]int, len(bufs))}
	groupEntries := make([][]wgpu.BindGroupEntry, len(bgls))
	for i, bb := range bufs {
		size := bufferSize(len(bb.Data))
		data := make([]byte, size)
		copy(data, bb.Data)
		usage := wgpu.BufferUsageStorage
		switch bb.Kind {
		case BindingStorage:
			usage |= wgpu.BufferUsageCopySrc
			b.offsets[i] = b.readSize
			b.readSize += size
		case BindingUniform:
			usage = wgpu.BufferUsageUniform
		}
		buf, err := d.dev.CreateBufferInit(&wgpu.BufferInitDescriptor{
			Label: fmt.Sprintf("group %d binding %d", bb.Group, bb.Binding), Contents: data, Usage: usage,
		})
		if err != nil {
			b.release()
			return nil, d.fail("buffer", err)
		}
		b.bufs[i] = buf
		groupEntries[bb.Group] = append(groupEntries[bb.Group], wgpu.BindGroupEntry{Binding: bb.Binding, Buffer: buf, Size: uint64(size)})
	}
	tex, err := d.createTextures(job, func(g uint32, e wgpu.BindGroupEntry) { groupEntries[g] = append(groupEntries[g], e) }, &b.readSize)
	if err != nil {
		b.release()
		return nil, err
	}
	b.tex = tex
	for g := range b.groups {
		bg, err := d.dev.CreateBindGroup(&wgpu.BindGroupDescriptor{Layout: bgls[g], Entries: groupEntries[g]})
		if err != nil {
			b.release()
			return nil, d.fail("bind-group", err)
		}
		b.groups[g] = bg
	}
	return b, nil
}
