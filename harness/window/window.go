//go:build glfw

package window

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"log"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/cogentcore/webgpu/wgpu"
	"github.com/cogentcore/webgpu/wgpuglfw"
	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/internal/wgpuext"
)

// GLFW's window and event functions may only be called from the process's
// main thread; the main goroutine runs package inits there and stays there.
func init() { runtime.LockOSThread() }

// Options configures Open.
type Options struct {
	Title string
	// Width and Height are the window's client area in screen
	// coordinates (WindowSize proposes them for an image).
	Width, Height int
	// Hidden keeps the window unmapped: for Screenshot alone.
	Hidden bool
}

// Handler receives a Window's input while Run runs, on the main thread.
type Handler interface {
	// Key is a typed character (Unicode, with Shift applied: 'a' and 'A'
	// differ), or 0x1b for the Escape key. Returning true closes the
	// window.
	Key(r rune) (quit bool)
	// Click is a press of the left mouse button over the image, at its
	// pixel (x, y), origin top left.
	Click(x, y int)
}

// Hoverer is a Handler that also follows the pointer: Hover gets the
// image pixel under it (x, y; -1, -1 off the image) whenever it moves and
// returns the window's title for that place ("" leaves the title as it
// is).
type Hoverer interface {
	Hover(x, y int) string
}

// Window is a desktop window showing one image, with the WebGPU device
// that draws it.
type Window struct {
	win      *glfw.Window
	inst     *wgpu.Instance
	surface  *wgpu.Surface
	adapter  *wgpu.Adapter
	dev      *wgpu.Device
	sink     *wgpuext.Sink
	queue    *wgpu.Queue
	config   wgpu.SurfaceConfiguration
	texFmt   wgpu.TextureFormat // the image texture's format: rgba8unorm or its -srgb twin
	layout   *wgpu.BindGroupLayout
	pipeline *wgpu.RenderPipeline
	sampler  *wgpu.Sampler
	tex      *wgpu.Texture
	view     *wgpu.TextureView
	group    *wgpu.BindGroup
	imgW     int
	imgH     int
	dirty    bool // the frame on screen is not the current image
}

// The letterbox around the image: a mid grey.
var clearColor = wgpu.Color{R: 0.5, G: 0.5, B: 0.5, A: 1}

// shader draws one triangle covering the viewport (vertices (-1,-1),
// (3,-1), (-1,3) in clip space) and samples the image at each fragment:
// texture coordinate (0, 0) at the viewport's top left, (1, 1) at its
// bottom right.
const shader = `
@group(0) @binding(0) var image: texture_2d<f32>;
@group(0) @binding(1) var nearest: sampler;

struct Varyings {
	@builtin(position) position: vec4f,
	@location(0) uv: vec2f,
}

@vertex
fn vs(@builtin(vertex_index) i: u32) -> Varyings {
	let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
	var out: Varyings;
	out.position = vec4f(p * 2.0 - 1.0, 0.0, 1.0);
	out.uv = vec2f(p.x, 1.0 - p.y);
	return out;
}

@fragment
fn fs(in: Varyings) -> @location(0) vec4f {
	return textureSample(image, nearest, in.uv);
}
`

// Open creates the window and its WebGPU device, surface and pipeline.
// It fails when GLFW cannot reach a display (DISPLAY unset, no X server:
// run under xvfb-run), or when no adapter can present to the window.
func Open(opts Options) (w *Window, err error) {
	if err := initGLFW(); err != nil {
		return nil, err
	}
	w = &Window{}
	defer func() {
		if err != nil {
			w.Close()
			w = nil
		}
	}()
	glfw.DefaultWindowHints()
	glfw.WindowHint(glfw.ClientAPI, glfw.NoAPI)
	if opts.Hidden {
		glfw.WindowHint(glfw.Visible, glfw.False)
	}
	width, height := max(1, opts.Width), max(1, opts.Height)
	if w.win, err = glfw.CreateWindow(width, height, opts.Title, nil, nil); err != nil {
		return nil, fmt.Errorf("window: GLFW: %v", err)
	}
	harness.ApplyLogLevel()
	w.inst = wgpu.CreateInstance(nil)
	w.surface = w.inst.CreateSurface(wgpuglfw.GetSurfaceDescriptor(w.win))
	var caps wgpu.SurfaceCapabilities
	if w.adapter, caps, err = w.pickAdapter(); err != nil {
		return nil, err
	}
	if w.dev, w.sink, err = wgpuext.RequestDevice(w.adapter); err != nil {
		return nil, fmt.Errorf("window: %v", err)
	}
	w.queue = w.dev.GetQueue()
	w.config = wgpu.SurfaceConfiguration{Usage: wgpu.TextureUsageRenderAttachment, Format: caps.Formats[0],
		PresentMode: wgpu.PresentModeFifo, AlphaMode: caps.AlphaModes[0]}
	w.texFmt = wgpu.TextureFormatRGBA8UnormSrgb
	for _, f := range caps.Formats {
		if f == wgpu.TextureFormatBGRA8Unorm || f == wgpu.TextureFormatRGBA8Unorm {
			w.config.Format, w.texFmt = f, wgpu.TextureFormatRGBA8Unorm
			break
		}
	}
	if !srgb(w.config.Format) {
		w.texFmt = wgpu.TextureFormatRGBA8Unorm
	}
	w.configure()
	if err := w.createPipeline(); err != nil {
		return nil, err
	}
	w.win.SetRefreshCallback(func(*glfw.Window) { w.dirty = true })
	w.win.SetFramebufferSizeCallback(func(*glfw.Window, int, int) { w.dirty = true })
	return w, w.events("open")
}

// pickAdapter returns the first adapter, Vulkan ones first, that can
// present to the window's surface, and its capabilities there. It never
// asks SwiftShader: Chromium's SwiftShader Vulkan ICD (the one harness adds
// with VK_ADD_DRIVER_FILES) dies of SIGSEGV in
// vkGetPhysicalDeviceSurfaceCapabilitiesKHR on an X11 surface — which is
// also why it does not use RequestAdapter with a compatible surface, as
// that asks every adapter.
func (w *Window) pickAdapter() (*wgpu.Adapter, wgpu.SurfaceCapabilities, error) {
	all := w.inst.EnumerateAdapters(nil)
	var pick *wgpu.Adapter
	var caps wgpu.SurfaceCapabilities
	var tried []string
	for _, vulkan := range []bool{true, false} {
		for _, a := range all {
			info := a.GetInfo()
			if pick != nil || (info.BackendType == wgpu.BackendTypeVulkan) != vulkan ||
				strings.Contains(strings.ToLower(info.Name+" "+info.DriverDescription), "swiftshader") {
				continue
			}
			tried = append(tried, fmt.Sprintf("%s (%v)", info.Name, info.BackendType))
			if c := w.surface.GetCapabilities(a); len(c.Formats) > 0 && len(c.AlphaModes) > 0 {
				pick, caps = a, c
			}
		}
	}
	for _, a := range all {
		if a != pick {
			a.Release()
		}
	}
	if pick == nil {
		return nil, caps, fmt.Errorf("window: no WebGPU adapter can present to the window (tried: %s)", strings.Join(tried, ", "))
	}
	return pick, caps, nil
}

// initGLFW initialises GLFW, turning a failure into an error: go-gl's Init
// only logs a platform error (the missing display) and returns nil, and
// the next call panics.
func initGLFW() (err error) {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" && runtime.GOOS == "linux" {
		return errors.New("window: no display (DISPLAY is not set): run on a desktop, or under a virtual X server: xvfb-run -a gpudiff …")
	}
	var logged bytes.Buffer
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("window: GLFW: %v", r)
		}
	}()
	if err := glfw.Init(); err != nil {
		return fmt.Errorf("window: GLFW: %v", err)
	}
	if msg := strings.TrimSpace(logged.String()); msg != "" {
		glfw.Terminate()
		return fmt.Errorf("window: GLFW: %s", msg)
	}
	return nil
}

func srgb(f wgpu.TextureFormat) bool {
	return f == wgpu.TextureFormatBGRA8UnormSrgb || f == wgpu.TextureFormatRGBA8UnormSrgb
}

// configure (re)configures the surface for the framebuffer's size.
func (w *Window) configure() {
	fw, fh := w.win.GetFramebufferSize()
	w.config.Width, w.config.Height = uint32(max(1, fw)), uint32(max(1, fh))
	w.surface.Configure(w.adapter, w.dev, &w.config)
}

func (w *Window) createPipeline() error {
	module, err := w.dev.CreateShaderModule(&wgpu.ShaderModuleDescriptor{Label: "window", WGSLDescriptor: &wgpu.ShaderModuleWGSLDescriptor{Code: shader}})
	if err != nil {
		return fmt.Errorf("window: shader: %v", err)
	}
	defer module.Release()
	if w.layout, err = w.dev.CreateBindGroupLayout(&wgpu.BindGroupLayoutDescriptor{Entries: []wgpu.BindGroupLayoutEntry{
		{Binding: 0, Visibility: wgpu.ShaderStageFragment, Texture: wgpu.TextureBindingLayout{SampleType: wgpu.TextureSampleTypeFloat, ViewDimension: wgpu.TextureViewDimension2D}},
		{Binding: 1, Visibility: wgpu.ShaderStageFragment, Sampler: wgpu.SamplerBindingLayout{Type: wgpu.SamplerBindingTypeFiltering}},
	}}); err != nil {
		return fmt.Errorf("window: bind group layout: %v", err)
	}
	pl, err := w.dev.CreatePipelineLayout(&wgpu.PipelineLayoutDescriptor{BindGroupLayouts: []*wgpu.BindGroupLayout{w.layout}})
	if err != nil {
		return fmt.Errorf("window: pipeline layout: %v", err)
	}
	defer pl.Release()
	if w.pipeline, err = w.dev.CreateRenderPipeline(&wgpu.RenderPipelineDescriptor{
		Layout:      pl,
		Vertex:      wgpu.VertexState{Module: module, EntryPoint: "vs"},
		Primitive:   wgpu.PrimitiveState{Topology: wgpu.PrimitiveTopologyTriangleList, FrontFace: wgpu.FrontFaceCCW, CullMode: wgpu.CullModeNone},
		Multisample: wgpu.MultisampleState{Count: 1, Mask: 0xFFFFFFFF},
		Fragment: &wgpu.FragmentState{Module: module, EntryPoint: "fs",
			Targets: []wgpu.ColorTargetState{{Format: w.config.Format, Blend: &wgpu.BlendStateReplace, WriteMask: wgpu.ColorWriteMaskAll}}},
	}); err != nil {
		return fmt.Errorf("window: render pipeline: %v", err)
	}
	if w.sampler, err = w.dev.CreateSampler(&wgpu.SamplerDescriptor{
		AddressModeU: wgpu.AddressModeClampToEdge, AddressModeV: wgpu.AddressModeClampToEdge, AddressModeW: wgpu.AddressModeClampToEdge,
		MagFilter: wgpu.FilterModeNearest, MinFilter: wgpu.FilterModeNearest, MipmapFilter: wgpu.MipmapFilterModeNearest,
		LodMaxClamp: 32, MaxAnisotropy: 1,
	}); err != nil {
		return fmt.Errorf("window: sampler: %v", err)
	}
	return nil
}

// SetTitle sets the window's title.
func (w *Window) SetTitle(title string) { w.win.SetTitle(title) }

// SetImage makes img the image shown (uploaded at once; drawn at the next
// frame, or by Screenshot).
func (w *Window) SetImage(img *image.RGBA) error {
	b := img.Bounds()
	iw, ih := b.Dx(), b.Dy()
	if iw <= 0 || ih <= 0 {
		return errors.New("window: empty image")
	}
	if w.tex == nil || iw != w.imgW || ih != w.imgH {
		w.releaseImage()
		var err error
		if w.tex, err = w.dev.CreateTexture(&wgpu.TextureDescriptor{Label: "image",
			Usage:     wgpu.TextureUsageTextureBinding | wgpu.TextureUsageCopyDst,
			Dimension: wgpu.TextureDimension2D, Size: wgpu.Extent3D{Width: uint32(iw), Height: uint32(ih), DepthOrArrayLayers: 1},
			Format: w.texFmt, MipLevelCount: 1, SampleCount: 1}); err != nil {
			return fmt.Errorf("window: texture: %v", err)
		}
		if w.view, err = w.tex.CreateView(nil); err != nil {
			return fmt.Errorf("window: texture view: %v", err)
		}
		if w.group, err = w.dev.CreateBindGroup(&wgpu.BindGroupDescriptor{Layout: w.layout, Entries: []wgpu.BindGroupEntry{
			{Binding: 0, TextureView: w.view}, {Binding: 1, Sampler: w.sampler},
		}}); err != nil {
			return fmt.Errorf("window: bind group: %v", err)
		}
		w.imgW, w.imgH = iw, ih
	}
	// Tightly packed rows: writeTexture needs no 256-byte alignment.
	pix := img.Pix
	if img.Stride != 4*iw || len(pix) != 4*iw*ih {
		pix = make([]byte, 4*iw*ih)
		for y := 0; y < ih; y++ {
			copy(pix[4*iw*y:4*iw*(y+1)], img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):])
		}
	}
	if err := w.queue.WriteTexture(w.tex.AsImageCopy(), pix,
		&wgpu.TextureDataLayout{BytesPerRow: uint32(4 * iw), RowsPerImage: uint32(ih)},
		&wgpu.Extent3D{Width: uint32(iw), Height: uint32(ih), DepthOrArrayLayers: 1}); err != nil {
		return fmt.Errorf("window: upload: %v", err)
	}
	w.dirty = true
	return w.events("upload")
}

func (w *Window) releaseImage() {
	if w.group != nil {
		w.group.Release()
		w.group = nil
	}
	if w.view != nil {
		w.view.Release()
		w.view = nil
	}
	if w.tex != nil {
		w.tex.Release()
		w.tex = nil
	}
}

// Viewport is where the image is drawn in the window's framebuffer now.
func (w *Window) Viewport() Viewport {
	fw, fh := w.win.GetFramebufferSize()
	return Fit(fw, fh, w.imgW, w.imgH)
}

// encode records the frame into target (a fbW × fbH texture of the
// surface's format): the letterbox cleared, the image drawn in its
// viewport.
func (w *Window) encode(target *wgpu.TextureView, fbW, fbH int) (*wgpu.CommandEncoder, error) {
	enc, err := w.dev.CreateCommandEncoder(nil)
	if err != nil {
		return nil, err
	}
	pass := enc.BeginRenderPass(&wgpu.RenderPassDescriptor{ColorAttachments: []wgpu.RenderPassColorAttachment{{
		View: target, LoadOp: wgpu.LoadOpClear, StoreOp: wgpu.StoreOpStore, ClearValue: clearColor,
	}}})
	if v := Fit(fbW, fbH, w.imgW, w.imgH); w.group != nil && v.W > 0 && v.H > 0 {
		pass.SetPipeline(w.pipeline)
		pass.SetBindGroup(0, w.group, nil)
		pass.SetViewport(float32(v.X), float32(v.Y), float32(v.W), float32(v.H), 0, 1)
		pass.Draw(3, 1, 0, 0)
	}
	err = pass.End()
	pass.Release()
	if err != nil {
		enc.Release()
		return nil, err
	}
	return enc, nil
}

// Draw draws the frame into the window and presents it.
func (w *Window) Draw() error {
	fw, fh := w.win.GetFramebufferSize()
	if fw <= 0 || fh <= 0 {
		return nil // minimised
	}
	if uint32(fw) != w.config.Width || uint32(fh) != w.config.Height {
		w.configure()
	}
	tex, status, err := wgpuext.CurrentTexture(w.surface, w.dev)
	if err != nil {
		return fmt.Errorf("window: frame: %v", err)
	}
	if tex == nil {
		if status == wgpu.SurfaceGetCurrentTextureStatusTimeout {
			return nil // the next frame tries again
		}
		if status == wgpu.SurfaceGetCurrentTextureStatusOutdated || status == wgpu.SurfaceGetCurrentTextureStatusLost {
			w.configure() // the next frame gets a texture of the new size
			return nil
		}
		return fmt.Errorf("window: frame: no surface texture (%v)", status)
	}
	view, err := tex.CreateView(nil)
	if err != nil {
		return fmt.Errorf("window: frame: %v", err)
	}
	defer view.Release()
	enc, err := w.encode(view, fw, fh)
	if err != nil {
		return fmt.Errorf("window: frame: %v", err)
	}
	defer enc.Release()
	cmd, err := enc.Finish(nil)
	if err != nil {
		return fmt.Errorf("window: frame: %v", err)
	}
	defer cmd.Release()
	w.queue.Submit(cmd)
	w.surface.Present()
	w.dirty = false
	return w.events("frame")
}

// screenshotTimeout bounds the wait for a screenshot's readback.
const screenshotTimeout = 30 * time.Second

// Screenshot renders the frame Draw would show, with the same pipeline,
// into a texture of the framebuffer's size and returns it read back (rows
// copied out of the 256-byte aligned buffer, BGRA swizzled to RGBA).
func (w *Window) Screenshot() (*image.RGBA, error) {
	fw, fh := w.win.GetFramebufferSize()
	if fw <= 0 || fh <= 0 {
		return nil, fmt.Errorf("window: the framebuffer is %d×%d", fw, fh)
	}
	size := wgpu.Extent3D{Width: uint32(fw), Height: uint32(fh), DepthOrArrayLayers: 1}
	tex, err := w.dev.CreateTexture(&wgpu.TextureDescriptor{Label: "screenshot",
		Usage:     wgpu.TextureUsageRenderAttachment | wgpu.TextureUsageCopySrc,
		Dimension: wgpu.TextureDimension2D, Size: size, Format: w.config.Format, MipLevelCount: 1, SampleCount: 1})
	if err != nil {
		return nil, fmt.Errorf("window: screenshot texture: %v", err)
	}
	defer tex.Release()
	view, err := tex.CreateView(nil)
	if err != nil {
		return nil, fmt.Errorf("window: screenshot texture: %v", err)
	}
	defer view.Release()
	row := (4*fw + wgpu.CopyBytesPerRowAlignment - 1) / wgpu.CopyBytesPerRowAlignment * wgpu.CopyBytesPerRowAlignment
	bufSize := uint64(row * fh)
	buf, err := w.dev.CreateBuffer(&wgpu.BufferDescriptor{Label: "screenshot", Size: bufSize, Usage: wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst})
	if err != nil {
		return nil, fmt.Errorf("window: screenshot buffer: %v", err)
	}
	defer buf.Release()
	enc, err := w.encode(view, fw, fh)
	if err != nil {
		return nil, fmt.Errorf("window: screenshot: %v", err)
	}
	defer enc.Release()
	if err := enc.CopyTextureToBuffer(tex.AsImageCopy(),
		&wgpu.ImageCopyBuffer{Buffer: buf, Layout: wgpu.TextureDataLayout{BytesPerRow: uint32(row), RowsPerImage: uint32(fh)}}, &size); err != nil {
		return nil, fmt.Errorf("window: screenshot copy: %v", err)
	}
	cmd, err := enc.Finish(nil)
	if err != nil {
		return nil, fmt.Errorf("window: screenshot: %v", err)
	}
	defer cmd.Release()
	w.queue.Submit(cmd)
	m, err := wgpuext.MapRead(w.dev, buf, bufSize)
	if err != nil {
		return nil, fmt.Errorf("window: screenshot readback: %v", err)
	}
	deadline := time.Now().Add(screenshotTimeout)
	for delay := 20 * time.Microsecond; !m.Done(); delay = min(delay*3/2, time.Millisecond) {
		// Poll without blocking in wgpu-native (see harness/run.go "Polling
		// the device"): a blocking poll gives up after 5 s.
		w.dev.Poll(false, nil)
		if m.Done() {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("window: screenshot readback took over %v", screenshotTimeout) // m leaks: its callback may still come
		}
		wgpuext.Sleep(delay)
	}
	defer m.Free()
	if err := m.Err(); err != nil {
		return nil, fmt.Errorf("window: screenshot readback: %v", err)
	}
	mapped := buf.GetMappedRange(0, uint(bufSize))
	img := image.NewRGBA(image.Rect(0, 0, fw, fh))
	bgra := w.config.Format == wgpu.TextureFormatBGRA8Unorm || w.config.Format == wgpu.TextureFormatBGRA8UnormSrgb
	for y := 0; y < fh; y++ {
		dst, src := img.Pix[y*img.Stride:y*img.Stride+4*fw], mapped[y*row:y*row+4*fw]
		copy(dst, src)
		if bgra {
			for x := 0; x < 4*fw; x += 4 {
				dst[x], dst[x+2] = dst[x+2], dst[x]
			}
		}
	}
	if err := buf.Unmap(); err != nil {
		return nil, fmt.Errorf("window: screenshot readback: %v", err)
	}
	return img, w.events("screenshot")
}

// Present shows the window and presents one frame.
func (w *Window) Present() error {
	w.win.Show()
	glfw.PollEvents()
	return w.Draw()
}

// Run shows the window and delivers its input to h until h asks to quit,
// the window is closed, or ctx ends (its error is returned then). It
// redraws whenever the image changed or the window system asks.
func (w *Window) Run(ctx context.Context, h Handler) error {
	w.win.SetCharCallback(func(_ *glfw.Window, r rune) {
		if h.Key(r) {
			w.win.SetShouldClose(true)
		}
	})
	w.win.SetKeyCallback(func(_ *glfw.Window, key glfw.Key, _ int, action glfw.Action, _ glfw.ModifierKey) {
		if key == glfw.KeyEscape && action == glfw.Press && h.Key(0x1b) {
			w.win.SetShouldClose(true)
		}
	})
	w.win.SetMouseButtonCallback(func(win *glfw.Window, b glfw.MouseButton, action glfw.Action, _ glfw.ModifierKey) {
		if b != glfw.MouseButtonLeft || action != glfw.Press {
			return
		}
		if x, y, ok := w.cursorPixel(); ok {
			h.Click(x, y)
		}
	})
	if hv, ok := h.(Hoverer); ok {
		title := ""
		w.win.SetCursorPosCallback(func(*glfw.Window, float64, float64) {
			x, y, ok := w.cursorPixel()
			if !ok {
				x, y = -1, -1
			}
			if t := hv.Hover(x, y); t != "" && t != title {
				title = t
				w.win.SetTitle(t)
			}
		})
	}
	w.win.Show()
	w.dirty = true
	for !w.win.ShouldClose() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if w.dirty {
			if err := w.Draw(); err != nil {
				return err
			}
		}
		glfw.WaitEventsTimeout(0.1)
	}
	return nil
}

// cursorPixel is the image pixel under the cursor, false off the image.
// The cursor is in screen coordinates, the viewport in framebuffer pixels
// (they differ on high-density displays).
func (w *Window) cursorPixel() (x, y int, ok bool) {
	cx, cy := w.win.GetCursorPos()
	ww, wh := w.win.GetSize()
	fw, fh := w.win.GetFramebufferSize()
	if ww <= 0 || wh <= 0 {
		return 0, 0, false
	}
	return w.Viewport().ImagePoint(cx*float64(fw)/float64(ww), cy*float64(fh)/float64(wh))
}

// events turns what the device reported outside error scopes since the
// last call into an error naming the step.
func (w *Window) events(step string) error {
	var msgs []string
	for _, ev := range w.sink.Drain() {
		msgs = append(msgs, ev.String())
	}
	if len(msgs) > 0 {
		return fmt.Errorf("window: %s: %s", step, strings.Join(msgs, "; "))
	}
	return nil
}

// Close releases the device and its objects, destroys the window and
// terminates GLFW. It may be called on a partly opened Window.
func (w *Window) Close() {
	w.releaseImage()
	if w.sampler != nil {
		w.sampler.Release()
	}
	if w.pipeline != nil {
		w.pipeline.Release()
	}
	if w.layout != nil {
		w.layout.Release()
	}
	if w.queue != nil {
		w.queue.Release()
	}
	if w.dev != nil {
		w.dev.Release()
		w.sink.Close()
	}
	if w.adapter != nil {
		w.adapter.Release()
	}
	if w.surface != nil {
		w.surface.Release()
	}
	if w.inst != nil {
		w.inst.Release()
	}
	if w.win != nil {
		w.win.Destroy()
	}
	*w = Window{}
	glfw.Terminate()
}
