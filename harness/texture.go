package harness

import (
	"fmt"
	"maps"
	"strings"

	"github.com/cogentcore/webgpu/wgpu"
)

// Textures and samplers of a dispatch of a module as written (issue 24).
// Like buffers they are bytes: the caller encodes texels in the format's
// byte layout; the harness uploads them per mip level, binds a view of the
// whole texture, and reads every storage texture the shader may write back
// after the dispatch, never decoding a texel.
//
// Run returns, after the BindingStorage buffers' bytes (Dispatch.Buffers
// order), every written storage texture (Access "write-only" or
// "read-write"), in Dispatch.Textures order: mip level after level, each
// level layer (or depth slice) after layer, row after row, tightly packed
// (width × texel size bytes a row: the readback's 256-byte row padding is
// removed). TextureBinding.ReadBackSize gives each one's byte count.

// TextureKind is how a module declares a texture binding (WGSL
// #texture-sampler-types).
type TextureKind uint8

const (
	TextureSampled TextureKind = iota + 1 // texture_1d/2d/2d_array/3d/cube/cube_array<T>, texture_multisampled_2d<T>
	TextureStorage                        // texture_storage_1d/2d/2d_array/3d<F, A>
)

// TextureBinding is one texture binding: its @group and @binding, what the
// shader declares (Kind, View, SampleType or Access), the texture
// (Format, size, MipLevels, SampleCount) and its initial texels.
type TextureBinding struct {
	Group, Binding uint32
	Kind           TextureKind
	// View is the WebGPU view dimension ("1d", "2d", "2d-array", "3d",
	// "cube", "cube-array"); the texture's dimension follows ("1d", "3d",
	// else "2d").
	View string
	// Format is the WebGPU texture format ("rgba8unorm", "r32float", …).
	Format string
	// SampleType is the layout's sample type of a sampled texture:
	// "float", "unfilterable-float", "sint", "uint" or "depth"; "" picks
	// it from Format (32-bit float formats unfilterable-float, other float
	// and normalized formats float).
	SampleType string
	// Access is a storage texture's access: "write-only", "read-only" or
	// "read-write".
	Access string
	// Width, Height and DepthOrLayers are level 0's size (depth of a 3d
	// texture, array layers otherwise; 6 per cube). Zero counts as 1.
	Width, Height, DepthOrLayers uint32
	MipLevels                    uint32 // 0 counts as 1
	SampleCount                  uint32 // 0 counts as 1; 4: multisampled (uploaded by a render pass, render_upload.go)
	// Data holds each mip level's initial texels, tightly packed; a
	// missing or short level is zero-filled. A multisampled texture's
	// texel holds SampleCount samples one after the other.
	Data [][]byte
}

// SamplerBinding is one sampler binding (WebGPU GPUSamplerDescriptor):
// filters "nearest" (default) or "linear", address modes
// "clamp-to-edge" (default), "repeat" or "mirror-repeat", LOD clamps
// (both zero: WebGPU's defaults 0 and 32), and Compare ("" or a compare
// function, which makes it a comparison sampler).
type SamplerBinding struct {
	Group, Binding                           uint32
	AddressModeU, AddressModeV, AddressModeW string
	MagFilter, MinFilter, MipmapFilter       string
	LodMinClamp, LodMaxClamp                 float32
	Compare                                  string
}

// texFormatBytes is the texel size of the formats a texture binding may
// have (WebGPU "Plain color formats" with a texel size). harness depends
// on no other gpudiff package, so it keeps this map of its own; ir's
// format table (ir.TexFormats) is the one description of the formats,
// and shaders' TestHarnessFormatsAreIRs holds this map (and
// LayoutSampleType's sample types) to it, format by format.
var texFormatBytes = map[string]int{
	"r8unorm": 1, "r8snorm": 1, "r8uint": 1, "r8sint": 1,
	"r16uint": 2, "r16sint": 2, "r16float": 2, "rg8unorm": 2, "rg8snorm": 2, "rg8uint": 2, "rg8sint": 2,
	"r32uint": 4, "r32sint": 4, "r32float": 4, "rg16uint": 4, "rg16sint": 4, "rg16float": 4,
	"rgba8unorm": 4, "rgba8snorm": 4, "rgba8uint": 4, "rgba8sint": 4, "bgra8unorm": 4,
	"rg32uint": 8, "rg32sint": 8, "rg32float": 8, "rgba16uint": 8, "rgba16sint": 8, "rgba16float": 8,
	"rgba32uint": 16, "rgba32sint": 16, "rgba32float": 16,
	// depth formats (WebGPU §"Depth-stencil formats"): one channel;
	// depth32float is uploaded by a render pass (render_upload.go).
	"depth16unorm": 2, "depth32float": 4,
}

// TexelSize returns the bytes of one texel of format f, 0 if unknown.
func TexelSize(format string) int { return texFormatBytes[format] }

// TexelSizes returns the formats the harness uploads and their texel
// sizes (a copy).
func TexelSizes() map[string]int { return maps.Clone(texFormatBytes) }

func (t TextureBinding) size() (w, h, d, levels, samples uint32) {
	return max(t.Width, 1), max(t.Height, 1), max(t.DepthOrLayers, 1), max(t.MipLevels, 1), max(t.SampleCount, 1)
}

// LevelSize returns mip level l's width, height and depth-or-layers.
func (t TextureBinding) LevelSize(l uint32) (uint32, uint32, uint32) {
	w, h, d, _, _ := t.size()
	w, h = max(w>>l, 1), max(h>>l, 1)
	if t.View == "3d" {
		d = max(d>>l, 1)
	}
	if t.View == "1d" {
		h = 1
	}
	return w, h, d
}

// LevelBytes returns the tightly packed byte count of mip level l.
func (t TextureBinding) LevelBytes(l uint32) int {
	w, h, d := t.LevelSize(l)
	return int(w*h*d) * TexelSize(t.Format)
}

// Written reports whether the shader may write t (a write-only or
// read-write storage texture): Run reads it back.
func (t TextureBinding) Written() bool {
	return t.Kind == TextureStorage && (t.Access == "write-only" || t.Access == "read-write")
}

// ReadBackSize is the number of bytes Run returns for t: every level,
// tightly packed, when Written; else 0.
func (t TextureBinding) ReadBackSize() int {
	if !t.Written() {
		return 0
	}
	_, _, _, levels, _ := t.size()
	n := 0
	for l := uint32(0); l < levels; l++ {
		n += t.LevelBytes(l)
	}
	return n
}

// enumByName inverts a wgpu enum's String over its first values.
func enumByName[T interface {
	~uint32
	String() string
}]() map[string]T {
	m := map[string]T{}
	for v := T(0); v < 0x200; v++ {
		if s := v.String(); s != "" && s != "undefined" {
			m[s] = v
		}
	}
	return m
}

var (
	wgpuFormats      = enumByName[wgpu.TextureFormat]()
	wgpuViewDims     = enumByName[wgpu.TextureViewDimension]()
	wgpuSampleTypes  = enumByName[wgpu.TextureSampleType]()
	wgpuStorageAcc   = enumByName[wgpu.StorageTextureAccess]()
	wgpuAddressModes = enumByName[wgpu.AddressMode]()
	wgpuFilters      = enumByName[wgpu.FilterMode]()
	wgpuMipFilters   = enumByName[wgpu.MipmapFilterMode]()
	wgpuCompares     = enumByName[wgpu.CompareFunction]()
)

// checkTextures validates the textures and samplers of a dispatch: known
// names, sizes within maxDim, the data's size, and no two bindings at one
// group and binding (seen holds the buffers').
func checkTextures(job Dispatch, seen map[[2]uint32]bool, maxGroups uint64) error {
	for _, t := range job.Textures {
		key := [2]uint32{t.Group, t.Binding}
		if seen[key] {
			return fmt.Errorf("harness: two bindings at @group(%d) @binding(%d)", t.Group, t.Binding)
		}
		seen[key] = true
		if uint64(t.Group) >= maxGroups {
			return fmt.Errorf("harness: @group(%d) is over the limit of %d bind groups", t.Group, maxGroups)
		}
		if TexelSize(t.Format) == 0 {
			return fmt.Errorf("harness: texture at @group(%d) @binding(%d): format %q is not one the harness uploads", t.Group, t.Binding, t.Format)
		}
		if _, ok := wgpuViewDims[t.View]; !ok {
			return fmt.Errorf("harness: texture at @group(%d) @binding(%d): unknown view dimension %q", t.Group, t.Binding, t.View)
		}
		switch t.Kind {
		case TextureSampled:
			if _, ok := wgpuSampleTypes[t.SampleType]; t.SampleType != "" && !ok {
				return fmt.Errorf("harness: texture at @group(%d) @binding(%d): unknown sample type %q", t.Group, t.Binding, t.SampleType)
			}
		case TextureStorage:
			if _, ok := wgpuStorageAcc[t.Access]; !ok {
				return fmt.Errorf("harness: storage texture at @group(%d) @binding(%d): unknown access %q", t.Group, t.Binding, t.Access)
			}
		default:
			return fmt.Errorf("harness: texture at @group(%d) @binding(%d) has kind %d", t.Group, t.Binding, t.Kind)
		}
		_, _, dl, levels, samples := t.size()
		if samples != 1 && (samples != 4 || t.Kind != TextureSampled || t.View != "2d" || levels != 1 || dl != 1) {
			return fmt.Errorf("harness: texture at @group(%d) @binding(%d): sampleCount %d: a multisampled texture is a sampled 2d texture of 4 samples, one level and one layer (WebGPU core)", t.Group, t.Binding, samples)
		}
		if strings.HasPrefix(t.Format, "depth") && (t.Kind != TextureSampled || t.LayoutSampleType() != "depth" || samples != 1) {
			return fmt.Errorf("harness: texture at @group(%d) @binding(%d): a %s texture binds as a single-sampled depth texture (sample type \"depth\")", t.Group, t.Binding, t.Format)
		}
		if len(t.Data) > int(levels) {
			return fmt.Errorf("harness: texture at @group(%d) @binding(%d): data for %d levels, it has %d", t.Group, t.Binding, len(t.Data), levels)
		}
		for l, b := range t.Data {
			if len(b) > t.LevelBytes(uint32(l))*int(samples) {
				return fmt.Errorf("harness: texture at @group(%d) @binding(%d): level %d data is %d bytes, more than its %d", t.Group, t.Binding, l, len(b), t.LevelBytes(uint32(l)))
			}
		}
	}
	for _, s := range job.Samplers {
		key := [2]uint32{s.Group, s.Binding}
		if seen[key] {
			return fmt.Errorf("harness: two bindings at @group(%d) @binding(%d)", s.Group, s.Binding)
		}
		seen[key] = true
		if uint64(s.Group) >= maxGroups {
			return fmt.Errorf("harness: @group(%d) is over the limit of %d bind groups", s.Group, maxGroups)
		}
		for _, m := range []string{s.AddressModeU, s.AddressModeV, s.AddressModeW} {
			if _, ok := wgpuAddressModes[m]; m != "" && !ok {
				return fmt.Errorf("harness: sampler at @group(%d) @binding(%d): unknown address mode %q", s.Group, s.Binding, m)
			}
		}
		for _, f := range []string{s.MagFilter, s.MinFilter, s.MipmapFilter} {
			if f != "" && f != "nearest" && f != "linear" {
				return fmt.Errorf("harness: sampler at @group(%d) @binding(%d): unknown filter %q", s.Group, s.Binding, f)
			}
		}
		if _, ok := wgpuCompares[s.Compare]; s.Compare != "" && !ok {
			return fmt.Errorf("harness: sampler at @group(%d) @binding(%d): unknown compare function %q", s.Group, s.Binding, s.Compare)
		}
	}
	return nil
}

// LayoutSampleType is the bind group layout's sample type of a sampled
// texture: SampleType, or the one Format implies ("depth" for the depth
// formats).
func (t TextureBinding) LayoutSampleType() string {
	if t.SampleType != "" {
		return t.SampleType
	}
	switch f := t.Format; {
	case strings.HasPrefix(f, "depth"):
		return "depth"
	case len(f) > 4 && f[len(f)-4:] == "uint":
		return "uint"
	case len(f) > 4 && f[len(f)-4:] == "sint":
		return "sint"
	case f == "r32float" || f == "rg32float" || f == "rgba32float":
		return "unfilterable-float"
	case max(t.SampleCount, 1) > 1:
		// WebGPU #bind-group-layout-creation: a multisampled
		// binding's sample type is not "float".
		return "unfilterable-float"
	}
	return "float"
}

// LayoutType is the bind group layout's sampler binding type:
// "comparison" with a compare function, "filtering" with a linear
// filter, else "non-filtering" (which also binds beside an
// unfilterable-float texture).
func (s SamplerBinding) LayoutType() string {
	switch {
	case s.Compare != "":
		return "comparison"
	case s.MagFilter == "linear" || s.MinFilter == "linear" || s.MipmapFilter == "linear":
		return "filtering"
	}
	return "non-filtering"
}

func (s SamplerBinding) bindingType() wgpu.SamplerBindingType {
	return map[string]wgpu.SamplerBindingType{"comparison": wgpu.SamplerBindingTypeComparison,
		"filtering": wgpu.SamplerBindingTypeFiltering, "non-filtering": wgpu.SamplerBindingTypeNonFiltering}[s.LayoutType()]
}

// visibility is stage, with the vertex stage added when vertex.
func visibility(stage wgpu.ShaderStage, vertex bool) wgpu.ShaderStage {
	if vertex {
		return stage | wgpu.ShaderStageVertex
	}
	return stage
}

// textureLayoutEntries returns the bind group layout entries of the
// dispatch's textures and samplers, by group, visible to stage (and, with
// vertex, to the vertex stage too: all but written storage textures,
// which WebGPU keeps out of it).
func textureLayoutEntries(job Dispatch, stage wgpu.ShaderStage, vertex bool, add func(g uint32, e wgpu.BindGroupLayoutEntry)) {
	for _, t := range job.Textures {
		e := wgpu.BindGroupLayoutEntry{Binding: t.Binding, Visibility: visibility(stage, vertex && !t.Written())}
		if t.Kind == TextureStorage {
			e.StorageTexture = wgpu.StorageTextureBindingLayout{Access: wgpuStorageAcc[t.Access], Format: wgpuFormats[t.Format], ViewDimension: wgpuViewDims[t.View]}
		} else {
			e.Texture = wgpu.TextureBindingLayout{SampleType: wgpuSampleTypes[t.LayoutSampleType()], ViewDimension: wgpuViewDims[t.View], Multisampled: max(t.SampleCount, 1) > 1}
		}
		add(t.Group, e)
	}
	for _, s := range job.Samplers {
		add(s.Group, wgpu.BindGroupLayoutEntry{Binding: s.Binding, Visibility: visibility(stage, vertex), Sampler: wgpu.SamplerBindingLayout{Type: s.bindingType()}})
	}
}

// textureSet is the textures, views and samplers of one run.
type textureSet struct {
	tex     []*wgpu.Texture
	views   []*wgpu.TextureView
	smps    []*wgpu.Sampler
	offsets [][]int // per texture, per level: its offset in the readback buffer (Written only)
	rows    [][]int // per texture, per level: bytes per row in the readback buffer (256-aligned)
}

func (s *textureSet) release() {
	for _, v := range s.views {
		if v != nil {
			v.Release()
		}
	}
	for _, t := range s.tex {
		if t != nil {
			t.Release()
		}
	}
	for _, x := range s.smps {
		if x != nil {
			x.Release()
		}
	}
}

// createTextures creates, uploads and views the dispatch's textures and
// creates its samplers, adding their bind group entries; readSize grows by
// the readback room of every written storage texture.
func (d *Device) createTextures(job Dispatch, add func(g uint32, e wgpu.BindGroupEntry), readSize *int) (*textureSet, error) {
	s := &textureSet{}
	fail := func(op string, err error) (*textureSet, error) {
		s.release()
		return nil, d.fail(op, err)
	}
	for i, t := range job.Textures {
		w, h, dl, levels, samples := t.size()
		dim := wgpu.TextureDimension2D
		switch t.View {
		case "1d":
			dim = wgpu.TextureDimension1D
		case "3d":
			dim = wgpu.TextureDimension3D
		}
		usage := wgpu.TextureUsageCopyDst | wgpu.TextureUsageTextureBinding
		if t.renderUploaded() {
			usage = wgpu.TextureUsageRenderAttachment | wgpu.TextureUsageTextureBinding
		}
		if t.Kind == TextureStorage {
			usage = wgpu.TextureUsageCopyDst | wgpu.TextureUsageStorageBinding | wgpu.TextureUsageCopySrc
		}
		tex, err := d.dev.CreateTexture(&wgpu.TextureDescriptor{
			Label: fmt.Sprintf("group %d binding %d", t.Group, t.Binding), Usage: usage, Dimension: dim,
			Size: wgpu.Extent3D{Width: w, Height: h, DepthOrArrayLayers: dl}, Format: wgpuFormats[t.Format],
			MipLevelCount: levels, SampleCount: samples,
		})
		if err != nil {
			// The texture's size and format passed Dispatch's own checks:
			// what the device refuses is an adapter capability (a storage
			// format: bgra8unorm-storage, adapter-specific formats; a
			// view dimension a downlevel backend lacks).
			s.release()
			kind := "sampled"
			if t.Kind == TextureStorage {
				kind = "storage"
			}
			return nil, &UnsupportedError{Adapter: d.info.Name,
				Reason: fmt.Sprintf("no %s %s texture (@group(%d) @binding(%d)): %s", t.Format, kind, t.Group, t.Binding, stackMessage(err))}
		}
		s.tex = append(s.tex, tex)
		ts := uint32(TexelSize(t.Format))
		var offs, rows []int
		if t.renderUploaded() {
			if err := d.uploadByRender(tex, t); err != nil {
				return fail("texture upload", err)
			}
		}
		for l := uint32(0); l < levels && !t.renderUploaded(); l++ {
			lw, lh, ld := t.LevelSize(l)
			data := make([]byte, t.LevelBytes(l))
			if int(l) < len(t.Data) {
				copy(data, t.Data[l])
			}
			err := d.queue.WriteTexture(&wgpu.ImageCopyTexture{Texture: tex, MipLevel: l, Aspect: wgpu.TextureAspectAll}, data,
				&wgpu.TextureDataLayout{BytesPerRow: lw * ts, RowsPerImage: lh}, &wgpu.Extent3D{Width: lw, Height: lh, DepthOrArrayLayers: ld})
			if err != nil {
				return fail("texture", err)
			}
			if t.Written() {
				row := (int(lw*ts) + 255) &^ 255
				// A copy's buffer offset must be a multiple of the texel
				// size (WebGPU GPUImageDataLayout.offset) and of 4: the
				// buffers before it end anywhere.
				*readSize = (*readSize + 255) &^ 255
				offs = append(offs, *readSize)
				rows = append(rows, row)
				*readSize += row * int(lh) * int(ld)
			}
		}
		s.offsets = append(s.offsets, offs)
		s.rows = append(s.rows, rows)
		view, err := tex.CreateView(&wgpu.TextureViewDescriptor{
			Format: wgpuFormats[t.Format], Dimension: wgpuViewDims[t.View], MipLevelCount: levels,
			ArrayLayerCount: map[bool]uint32{true: 1, false: dl}[dim == wgpu.TextureDimension3D], Aspect: wgpu.TextureAspectAll,
		})
		if err != nil {
			return fail("texture", err)
		}
		s.views = append(s.views, view)
		add(t.Group, wgpu.BindGroupEntry{Binding: t.Binding, TextureView: view})
		_ = i
	}
	for _, sb := range job.Samplers {
		mode := func(m string) wgpu.AddressMode {
			if m == "" {
				return wgpu.AddressModeClampToEdge
			}
			return wgpuAddressModes[m]
		}
		filter := func(f string) wgpu.FilterMode {
			if f == "linear" {
				return wgpu.FilterModeLinear
			}
			return wgpu.FilterModeNearest
		}
		mip := wgpu.MipmapFilterModeNearest
		if sb.MipmapFilter == "linear" {
			mip = wgpu.MipmapFilterModeLinear
		}
		lo, hi := sb.LodMinClamp, sb.LodMaxClamp
		if lo == 0 && hi == 0 {
			hi = 32
		}
		desc := &wgpu.SamplerDescriptor{
			AddressModeU: mode(sb.AddressModeU), AddressModeV: mode(sb.AddressModeV), AddressModeW: mode(sb.AddressModeW),
			MagFilter: filter(sb.MagFilter), MinFilter: filter(sb.MinFilter), MipmapFilter: mip,
			LodMinClamp: lo, LodMaxClamp: hi, MaxAnisotropy: 1,
		}
		if sb.Compare != "" {
			desc.Compare = wgpuCompares[sb.Compare]
		}
		smp, err := d.dev.CreateSampler(desc)
		if err != nil {
			return fail("sampler", err)
		}
		s.smps = append(s.smps, smp)
		add(sb.Group, wgpu.BindGroupEntry{Binding: sb.Binding, Sampler: smp})
	}
	return s, nil
}

// copyTextures records the copies of every written storage texture into
// readBuf.
func (s *textureSet) copyTextures(enc *wgpu.CommandEncoder, job Dispatch, readBuf *wgpu.Buffer) error {
	for i, t := range job.Textures {
		if !t.Written() {
			continue
		}
		for l := range s.offsets[i] {
			lw, lh, ld := t.LevelSize(uint32(l))
			err := enc.CopyTextureToBuffer(
				&wgpu.ImageCopyTexture{Texture: s.tex[i], MipLevel: uint32(l), Aspect: wgpu.TextureAspectAll},
				&wgpu.ImageCopyBuffer{Buffer: readBuf, Layout: wgpu.TextureDataLayout{Offset: uint64(s.offsets[i][l]), BytesPerRow: uint32(s.rows[i][l]), RowsPerImage: lh}},
				&wgpu.Extent3D{Width: lw, Height: lh, DepthOrArrayLayers: ld})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// takeTextures appends every written storage texture's texels, de-padded,
// from the mapped readback buffer.
func (s *textureSet) takeTextures(out, mapped []byte, job Dispatch) []byte {
	for i, t := range job.Textures {
		if !t.Written() {
			continue
		}
		for l := range s.offsets[i] {
			lw, lh, ld := t.LevelSize(uint32(l))
			rb := int(lw) * TexelSize(t.Format)
			for r := 0; r < int(lh*ld); r++ {
				at := s.offsets[i][l] + r*s.rows[i][l]
				out = append(out, mapped[at:at+rb]...)
			}
		}
	}
	return out
}
