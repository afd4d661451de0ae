package testcase

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// Textures and samplers of a case (issue 24 items 4 and 7): bindings of
// every kind of case, beside the buffers. Each texture binding of the
// module gets contents (interp.Texture: format, size, mip levels, texel
// bytes) and each sampler binding a description (interp.Sampler, WebGPU's
// GPUSamplerDescriptor), from the inputs file or a case record (one JSON
// form, TextureJSON and SamplerJSON, keyed by the variable's name beside
// the buffers), or made up as Fill says (FillTextures). The reference gets
// them as interp.Options.Textures/Samplers, every GPU run as
// harness.Dispatch.Textures/Samplers (the bindings the entry point uses),
// and every storage texture the entry point may write (write or
// read_write access) is an output beside the read_write buffers: its
// channel codes (the bits of each channel as stored: an 8-bit unorm byte,
// the binary16 bits of a float16, the bits of a 32-bit channel), texel by
// texel, named NAME[layer][y][x][channel] (1d: NAME[x][channel]; 2d and
// storage textures have one layer: NAME[y][x][channel]).

// Default sizes of made-up textures (FillTextures, and a texture an inputs
// file does not give): 16 texels wide, 16 high for every dimension but 1d;
// a 2d_array has 2 layers, a 3d texture is 8×8×4, a cube 8×8 (6 faces), a
// cube_array 2 cubes; one mip level.
var defaultTextureSize = map[ir.TexDim][3]int{
	ir.Tex1D: {16, 1, 1}, ir.Tex2D: {16, 16, 1}, ir.Tex2DArray: {16, 16, 2},
	ir.Tex3D: {8, 8, 4}, ir.TexCube: {8, 8, 6}, ir.TexCubeArray: {8, 8, 12},
}

// TexelFormat is a texel format as the case model reads it: r, rg, rgba or
// bgra channels of 8, 16 or 32 bits, unorm, snorm, uint, sint or float.
type TexelFormat struct {
	name     string
	channels int
	bits     int
	kind     string
	depth    bool // depth32float or depth16unorm
}

func (f TexelFormat) TexelBytes() int { return f.channels * f.bits / 8 }

// Channels is the number of channels a texel has (1, 2 or 4).
func (f TexelFormat) Channels() int { return f.channels }

// ChannelKind is the channel type the shader reads the format as.
func (f TexelFormat) ChannelKind() ir.Kind {
	switch f.kind {
	case "uint":
		return ir.KindU32
	case "sint":
		return ir.KindI32
	}
	return ir.KindF32
}

// LeafType is the type of one channel code in an output value: the
// channel's type for 32-bit float and sint channels (the code is that
// value's bits), else u32 (the code as an unsigned integer).
func (f TexelFormat) LeafType() *ir.Type {
	if f.bits == 32 && f.kind == "float" {
		return ir.F32
	}
	if f.bits == 32 && f.kind == "sint" {
		return ir.I32
	}
	return ir.U32
}

// ParseTexelFormat reads format s from ir's one format table (ir.TexFormats).
func ParseTexelFormat(s string) (TexelFormat, error) {
	fi, ok := ir.FormatInfo(s)
	if !ok {
		return TexelFormat{name: s}, fmt.Errorf("texture format %q is not one gpudiff uploads (r/rg/rgba 8, 16 or 32 bits unorm, snorm, uint, sint or float with a WebGPU texel size, bgra8unorm, depth32float or depth16unorm)", s)
	}
	return TexelFormat{name: s, channels: fi.Channels, bits: 8 * fi.Bytes, kind: fi.ChannelType(), depth: fi.Depth}, nil
}

// TextureJSON is a texture's entry in an inputs file or a case record:
// its format, level 0's size (width, height, depth or array layers), its
// mip levels, and each level's texels (layer after layer, row after row,
// each texel an array of channel values: what the shader reads for
// normalized and float formats — 0 to 1 for unorm, -1 to 1 for snorm,
// rounded to the nearest code — and the integer for uint and sint), or
// a PNG file (relative to the inputs file; 8-bit formats, one level:
// channel c is the image's R, G, B, A byte). Missing texels are zero.
//
// A depth texture (texture_depth_*) has format depth32float (the
// default) or depth16unorm, one channel: its depth in [0, 1] (a render
// pass writes depth32float texels through @builtin(frag_depth), which
// Vulkan clamps to the viewport's [0, 1], WebGPU §"Depth-stencil
// formats"; depth16unorm is copied). A texture_multisampled_2d has
// sampleCount 4 (the only multisampled count WebGPU core has), one level
// and one layer, and a multisample-capable format (WebGPU's texture
// format capabilities: rgba8unorm, the default, r32float, rgba16float,
// 8- and 16-bit uint and sint, …); its texels are given sample by
// sample: texel (x, y)'s sample s is entry (y·width + x)·4 + s.
type TextureJSON struct {
	Format      string        `json:"format,omitempty"`
	Size        []int         `json:"size,omitempty"`
	MipLevels   int           `json:"mipLevels,omitempty"`
	SampleCount int           `json:"sampleCount,omitempty"`
	Levels      [][][]float64 `json:"levels,omitempty"`
	PNG         string        `json:"png,omitempty"`
}

// SamplerJSON is a sampler's entry (WebGPU GPUSamplerDescriptor's names).
type SamplerJSON struct {
	AddressModeU string   `json:"addressModeU,omitempty"`
	AddressModeV string   `json:"addressModeV,omitempty"`
	AddressModeW string   `json:"addressModeW,omitempty"`
	MagFilter    string   `json:"magFilter,omitempty"`
	MinFilter    string   `json:"minFilter,omitempty"`
	MipmapFilter string   `json:"mipmapFilter,omitempty"`
	LodMinClamp  *float32 `json:"lodMinClamp,omitempty"`
	LodMaxClamp  *float32 `json:"lodMaxClamp,omitempty"`
	Compare      string   `json:"compare,omitempty"`
}

// defaultFormat is a made-up texture's format: a storage texture's
// declared one, depth32float for a depth texture, else rgba8unorm for
// f32, rgba8uint for u32, rgba8sint for i32 sampled and multisampled
// textures.
func defaultFormat(t *ir.Type) string {
	tt := t.Tex
	if tt.Class == ir.TexStorage {
		return tt.Format.String()
	}
	if tt.Class == ir.TexDepth {
		return "depth32float"
	}
	switch tt.Sampled.Kind {
	case ir.KindU32:
		return "rgba8uint"
	case ir.KindI32:
		return "rgba8sint"
	}
	return "rgba8unorm"
}

// msSamples is a multisampled texture's sample count.
const msSamples = 4

// sampleCount is the sample count of v's textures: 4 for a
// texture_multisampled_2d, else 1.
func sampleCount(v *ir.TextureVar) int {
	if v.T.Kind == ir.KindTexture && v.T.Tex.Class == ir.TexMultisampled {
		return msSamples
	}
	return 1
}

// levelSize is level l's size of a texture of dimension dim.
func levelSize(dim ir.TexDim, w, h, d, l int) (int, int, int) {
	w, h = max(w>>l, 1), max(h>>l, 1)
	if dim == ir.Tex3D {
		d = max(d>>l, 1)
	}
	if dim == ir.Tex1D {
		h = 1
	}
	return w, h, d
}

// CheckTextureShape checks a texture's size and levels against its
// declaration.
func CheckTextureShape(v *ir.TextureVar, t *interp.Texture) error {
	dim := v.T.Tex.Dim
	w, h, d := t.Width, t.Height, t.DepthOrLayers
	if w < 1 || h < 1 || d < 1 {
		return fmt.Errorf("size %dx%dx%d: each must be ≥ 1", w, h, d)
	}
	if w*h*d > 1<<24 {
		return fmt.Errorf("size %dx%dx%d is over 2^24 texels", w, h, d)
	}
	switch dim {
	case ir.Tex1D:
		if h != 1 || d != 1 {
			return fmt.Errorf("a texture_1d is [width]: size %dx%dx%d", w, h, d)
		}
	case ir.Tex2D:
		if d != 1 {
			return fmt.Errorf("a 2d texture has one layer: size %dx%dx%d", w, h, d)
		}
	case ir.TexCube, ir.TexCubeArray:
		if w != h || d%6 != 0 || dim == ir.TexCube && d != 6 {
			return fmt.Errorf("a cube is square with 6 layers (a cube_array a multiple of 6): size %dx%dx%d", w, h, d)
		}
	}
	biggest := max(w, h)
	if dim == ir.Tex3D {
		biggest = max(biggest, d)
	}
	maxLevels := 1
	for biggest>>maxLevels > 0 {
		maxLevels++
	}
	if t.MipLevels < 1 || t.MipLevels > maxLevels {
		return fmt.Errorf("mipLevels %d: want 1 to %d for size %dx%dx%d", t.MipLevels, maxLevels, w, h, d)
	}
	if v.T.Tex.Class == ir.TexStorage && t.MipLevels != 1 {
		return fmt.Errorf("a storage texture binds one mip level: mipLevels %d", t.MipLevels)
	}
	if want := sampleCount(v); max(t.SampleCount, 1) != want {
		return fmt.Errorf("sampleCount %d: %s takes %d (WebGPU core's multisampled count is 4)", t.SampleCount, v.T, want)
	}
	if v.T.Tex.Class == ir.TexMultisampled && t.MipLevels != 1 {
		return fmt.Errorf("a multisampled texture has one mip level: mipLevels %d", t.MipLevels)
	}
	return nil
}

// CheckTextureFormat checks format against v's declaration.
func CheckTextureFormat(v *ir.TextureVar, format string) (TexelFormat, error) {
	f, err := ParseTexelFormat(format)
	if err != nil {
		return f, err
	}
	tt := v.T.Tex
	if tt.Class == ir.TexStorage && tt.Format.String() != format {
		return f, fmt.Errorf("format %s, but %s is declared %v", format, v.Name, v.T)
	}
	if (tt.Class == ir.TexDepth) != f.depth {
		if f.depth {
			return f, fmt.Errorf("format %s is a depth format, but %s is declared %v (a depth texture binds as texture_depth_*)", format, v.Name, v.T)
		}
		return f, fmt.Errorf("format %s, but %s is declared %v: want depth32float or depth16unorm", format, v.Name, v.T)
	}
	if fi, _ := ir.FormatInfo(format); tt.Class == ir.TexMultisampled && !fi.Multisample {
		return f, fmt.Errorf("format %s cannot be multisampled in WebGPU core (r32float, rgba8unorm, rgba16float, 8- and 16-bit uint or sint … can)", format)
	}
	if tt.Class == ir.TexDepth {
		return f, nil
	}
	if f.ChannelKind() != tt.Sampled.Kind {
		return f, fmt.Errorf("format %s gives %s values, but %s is declared %v", format, map[ir.Kind]string{ir.KindF32: "f32", ir.KindU32: "u32", ir.KindI32: "i32"}[f.ChannelKind()], v.Name, v.T)
	}
	return f, nil
}

// emptyTexture is v's texture of format and size with zeroed levels (and
// v's sample count).
func emptyTexture(v *ir.TextureVar, format string, w, h, d, levels int) *interp.Texture {
	t := &interp.Texture{Format: format, Width: w, Height: h, DepthOrLayers: d, MipLevels: levels, SampleCount: sampleCount(v)}
	f, _ := ParseTexelFormat(format)
	for l := 0; l < levels; l++ {
		lw, lh, ld := levelSize(v.T.Tex.Dim, w, h, d, l)
		t.Data = append(t.Data, make([]byte, lw*lh*ld*t.SampleCount*f.TexelBytes()))
	}
	return t
}

// FillTextures makes up the contents of every texture binding of m and
// the description of every sampler binding as fill says (seeded for
// FillEdges and FillRandom): a made-up texture has its default format
// (defaultFormat) and size (defaultTextureSize), one mip level; a
// sampler is nearest and clamp-to-edge (a sampler_comparison compares
// with "less"). Channel leaves k = 0, 1, … of a texture: FillZero 0;
// FillIota k (normalized formats: code k mod 2^bits); FillSmall 1 + k
// mod 16 (floats (1 + k mod 16)/4, unorm codes (1 + k mod 16)·15);
// FillEdges and FillRandom seeded codes (floats: [-1, 1) in steps of
// 2^-8; integers 0 to 255, or -128 to 127). depth32float texels stay in
// [0, 1]: FillIota (k mod 65537)/65536, FillSmall (1 + k mod 16)/16,
// seeded [0, 1) in steps of 2^-8. A multisampled texture's leaves are
// its samples.
func FillTextures(fill Fill, seed uint64, m *ir.Module) (map[string]*interp.Texture, map[string]*interp.Sampler, error) {
	texs, smps := map[string]*interp.Texture{}, map[string]*interp.Sampler{}
	for i, v := range m.Textures {
		if v.T.Kind == ir.KindSampler {
			smps[v.Name] = defaultSampler(v)
			continue
		}
		sz := defaultTextureSize[v.T.Tex.Dim]
		t := emptyTexture(v, defaultFormat(v.T), sz[0], sz[1], sz[2], 1)
		f, _ := ParseTexelFormat(t.Format)
		fl := newFiller(fill, seed+uint64(i+1)*0x9e3779b97f4a7c15, 0)
		cb := f.bits / 8
		for l := range t.Data {
			for off := 0; off < len(t.Data[l]); off += cb {
				putCode(t.Data[l][off:], cb, fl.code(f))
			}
		}
		texs[v.Name] = t
	}
	return texs, smps, nil
}

func defaultSampler(v *ir.TextureVar) *interp.Sampler {
	s := &interp.Sampler{AddressModeU: "clamp-to-edge", AddressModeV: "clamp-to-edge", AddressModeW: "clamp-to-edge",
		MagFilter: "nearest", MinFilter: "nearest", MipmapFilter: "nearest", LodMaxClamp: 32}
	if v.T.Tex != nil && v.T.Tex.Comparison {
		s.Compare = "less"
	}
	return s
}

// code is the next channel code of format f.
func (fl *filler) code(f TexelFormat) uint32 {
	k := fl.k
	fl.k++
	mask := uint32(1)<<f.bits - 1
	if f.bits == 32 {
		mask = ^uint32(0)
	}
	var x float32
	if f.depth && f.kind == "float" {
		// depth32float: within [0, 1], what a depth texture holds.
		switch fl.fill {
		case FillZero:
			return 0
		case FillIota:
			return math.Float32bits(float32(k%65537) / 65536)
		case FillSmall:
			return math.Float32bits(float32(1+k%16) / 16)
		}
		return math.Float32bits(float32(fl.next()>>56) / 256)
	}
	switch fl.fill {
	case FillZero:
		return 0
	case FillIota:
		if f.kind == "float" {
			x = float32(k)
		} else {
			return k & mask
		}
	case FillSmall:
		switch f.kind {
		case "float":
			x = float32(1+k%16) / 4
		case "unorm", "snorm":
			return (1 + k%16) * 15 & mask
		default:
			return 1 + k%16
		}
	default:
		r := fl.next()
		switch f.kind {
		case "float":
			x = float32(int32(r>>56)-128) / 128 // [-1, 1) in steps of 2^-7
		case "sint":
			return uint32(int32(int8(r>>56))) & mask
		case "uint":
			return uint32(r>>56) & mask
		default:
			return uint32(r>>32) & mask
		}
	}
	if f.bits == 16 {
		return uint32(f32ToF16(x))
	}
	return math.Float32bits(x)
}

func putCode(b []byte, cb int, x uint32) {
	for i := 0; i < cb; i++ {
		b[i] = byte(x >> (8 * i))
	}
}

func TexelCode(b []byte, cb int) uint32 {
	var x uint32
	for i := 0; i < cb; i++ {
		x |= uint32(b[i]) << (8 * i)
	}
	return x
}

// f32ToF16 rounds x to the nearest binary16 (ties to even; overflow to
// infinity): wgslsem's one conversion. A case file's policy is
// channelCode's (a value outside float16's finite range is refused).
func f32ToF16(x float32) uint16 {
	h, _, _ := wgslsem.F32ToF16(x)
	return h
}

// f16ToF32 is binary16 bits h's value (exact): wgslsem's one conversion.
func f16ToF32(h uint16) float32 {
	f, _, _ := wgslsem.F16ToF32(h)
	return f
}

// channelCode converts a channel value as the inputs file gives it to its
// code.
func channelCode(f TexelFormat, x float64) (uint32, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%v is not a channel value", x)
	}
	mask := uint32(1)<<f.bits - 1
	if f.bits == 32 {
		mask = ^uint32(0)
	}
	switch f.kind {
	case "unorm":
		if x < 0 || x > 1 {
			return 0, fmt.Errorf("%v is outside a unorm channel's [0, 1]", x)
		}
		return uint32(math.Round(x * float64(mask))), nil
	case "snorm":
		if x < -1 || x > 1 {
			return 0, fmt.Errorf("%v is outside an snorm channel's [-1, 1]", x)
		}
		return uint32(int32(math.Round(x*float64(mask>>1)))) & mask, nil
	case "float":
		if f.depth && (x < 0 || x > 1) {
			return 0, fmt.Errorf("%v is outside a depth texel's [0, 1]", x)
		}
		if f.depth {
			// The render pass that uploads depth32float may flush a
			// subnormal frag_depth to zero (Vulkan lets depth writes
			// flush denormals), and -0 is the depth 0.
			if v := float32(x); v != 0 && math.Abs(float64(v)) < 0x1p-126 {
				return 0, fmt.Errorf("%v is subnormal as an f32: the depth a render pass stores may be zero instead", x)
			}
			if x == 0 {
				return 0, nil
			}
		}
		if f.bits == 16 {
			if math.Abs(x) > 65504 {
				return 0, fmt.Errorf("%v is outside a float16 channel's range", x)
			}
			return uint32(f32ToF16(float32(x))), nil
		}
		return math.Float32bits(float32(x)), nil
	case "uint":
		if x != math.Trunc(x) || x < 0 || x > float64(mask) {
			return 0, fmt.Errorf("%v is not a %d-bit unsigned integer", x, f.bits)
		}
		return uint32(x), nil
	}
	lim := math.Ldexp(1, f.bits-1)
	if x != math.Trunc(x) || x < -lim || x >= lim {
		return 0, fmt.Errorf("%v is not a %d-bit signed integer", x, f.bits)
	}
	return uint32(int64(x)) & mask, nil
}

// channelValue is code's value as the inputs file writes it
// (channelCode's inverse where the code is canonical).
func channelValue(f TexelFormat, code uint32) float64 {
	mask := uint32(1)<<f.bits - 1
	if f.bits == 32 {
		mask = ^uint32(0)
	}
	switch f.kind {
	case "unorm":
		return float64(code) / float64(mask)
	case "snorm":
		s := int32(code<<(32-f.bits)) >> (32 - f.bits)
		return max(float64(s)/float64(mask>>1), -1)
	case "float":
		if f.bits == 16 {
			return float64(f16ToF32(uint16(code)))
		}
		return float64(math.Float32frombits(code))
	case "sint":
		return float64(int32(code<<(32-f.bits)) >> (32 - f.bits))
	}
	return float64(code)
}

// parseTexture reads v's entry (dir: where a PNG's name is relative to;
// "" refuses PNG names, as in a case record).
func parseTexture(v *ir.TextureVar, raw json.RawMessage, dir string, m *ir.Module) (*interp.Texture, error) {
	var tj TextureJSON
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tj); err != nil {
		return nil, fmt.Errorf("want {\"format\", \"size\": [w, h, depth or layers], \"mipLevels\", \"levels\": [[[channel, …] per texel] per level]} or a \"png\" file name: %v", err)
	}
	var img *image.NRGBA
	if tj.PNG != "" {
		if tj.Levels != nil {
			return nil, fmt.Errorf("give either \"levels\" or \"png\", not both")
		}
		p := tj.PNG
		if dir != "" && !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		fh, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("png: %v", err)
		}
		src, err := png.Decode(fh)
		fh.Close()
		if err != nil {
			return nil, fmt.Errorf("png %s: %v", p, err)
		}
		img = image.NewNRGBA(src.Bounds())
		draw.Draw(img, img.Bounds(), src, src.Bounds().Min, draw.Src)
	}
	format := tj.Format
	if format == "" {
		format = defaultFormat(v.T)
	}
	f, err := CheckTextureFormat(v, format)
	if err != nil {
		return nil, err
	}
	sz := defaultTextureSize[v.T.Tex.Dim]
	if img != nil {
		if f.bits != 8 {
			return nil, fmt.Errorf("png: a PNG gives 8-bit channels, but the format is %s", format)
		}
		sz = [3]int{img.Rect.Dx(), img.Rect.Dy(), 1}
		if v.T.Tex.Dim == ir.Tex1D {
			sz[1] = 1
		}
	}
	if tj.Size != nil {
		if len(tj.Size) == 0 || len(tj.Size) > 3 {
			return nil, fmt.Errorf("size: want [width], [width, height] or [width, height, depth or layers], got %v", tj.Size)
		}
		sz = [3]int{1, 1, 1}
		copy(sz[:], tj.Size)
	}
	levels := tj.MipLevels
	if levels == 0 {
		levels = 1
	}
	samples := tj.SampleCount
	if samples == 0 {
		samples = sampleCount(v)
	}
	if img != nil && samples != 1 {
		return nil, fmt.Errorf("png: a PNG gives one sample a texel, %s has %d", v.T, samples)
	}
	t := &interp.Texture{Format: format, Width: sz[0], Height: sz[1], DepthOrLayers: sz[2], MipLevels: levels, SampleCount: samples}
	if err := CheckTextureShape(v, t); err != nil {
		return nil, err
	}
	t = emptyTexture(v, format, sz[0], sz[1], sz[2], levels)
	cb := f.bits / 8
	if img != nil {
		if img.Rect.Dx() != sz[0] || img.Rect.Dy() != sz[1] || sz[2] != 1 || levels != 1 {
			return nil, fmt.Errorf("png: the image is %dx%d, the texture %dx%dx%d with %d levels (a PNG is one level, one layer)", img.Rect.Dx(), img.Rect.Dy(), sz[0], sz[1], sz[2], levels)
		}
		for i := 0; i < sz[0]*sz[1]; i++ {
			for c := 0; c < f.channels; c++ {
				t.Data[0][i*f.channels+c] = img.Pix[4*i+c]
			}
		}
		return t, nil
	}
	if len(tj.Levels) > levels {
		return nil, fmt.Errorf("levels: texels for %d levels, the texture has %d (mipLevels)", len(tj.Levels), levels)
	}
	for l, texels := range tj.Levels {
		n := len(t.Data[l]) / f.TexelBytes()
		if len(texels) > n {
			lw, lh, ld := levelSize(v.T.Tex.Dim, sz[0], sz[1], sz[2], l)
			return nil, fmt.Errorf("levels[%d]: %d texels, level %d has %d (%dx%dx%d)", l, len(texels), l, n, lw, lh, ld)
		}
		for i, texel := range texels {
			if len(texel) != f.channels {
				return nil, fmt.Errorf("levels[%d][%d]: %d channel values, %s has %d", l, i, len(texel), format, f.channels)
			}
			for c, x := range texel {
				code, err := channelCode(f, x)
				if err != nil {
					return nil, fmt.Errorf("levels[%d][%d][%d]: %v", l, i, c, err)
				}
				putCode(t.Data[l][(i*f.channels+c)*cb:], cb, code)
			}
		}
	}
	return t, nil
}

var (
	addressModes = []string{"clamp-to-edge", "repeat", "mirror-repeat"}
	filterModes  = []string{"nearest", "linear"}
	compareFuncs = []string{"never", "less", "equal", "less-equal", "greater", "not-equal", "greater-equal", "always"}
)

func oneOf(key, got string, want []string) error {
	for _, w := range want {
		if got == w {
			return nil
		}
	}
	return fmt.Errorf("%s: %q is not one of %s", key, got, strings.Join(want, ", "))
}

// parseSampler reads v's entry; what it does not give is the default
// (defaultSampler).
func parseSampler(v *ir.TextureVar, raw json.RawMessage) (*interp.Sampler, error) {
	var sj SamplerJSON
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sj); err != nil {
		return nil, fmt.Errorf("want a GPUSamplerDescriptor {\"magFilter\", \"minFilter\", \"mipmapFilter\", \"addressModeU\", \"addressModeV\", \"addressModeW\", \"lodMinClamp\", \"lodMaxClamp\", \"compare\"}: %v", err)
	}
	s := defaultSampler(v)
	for _, x := range []struct {
		key, val string
		dst      *string
		want     []string
	}{{"addressModeU", sj.AddressModeU, &s.AddressModeU, addressModes}, {"addressModeV", sj.AddressModeV, &s.AddressModeV, addressModes},
		{"addressModeW", sj.AddressModeW, &s.AddressModeW, addressModes}, {"magFilter", sj.MagFilter, &s.MagFilter, filterModes},
		{"minFilter", sj.MinFilter, &s.MinFilter, filterModes}, {"mipmapFilter", sj.MipmapFilter, &s.MipmapFilter, filterModes},
		{"compare", sj.Compare, &s.Compare, compareFuncs}} {
		if x.val == "" {
			continue
		}
		if err := oneOf(x.key, x.val, x.want); err != nil {
			return nil, err
		}
		*x.dst = x.val
	}
	if sj.LodMinClamp != nil {
		s.LodMinClamp = *sj.LodMinClamp
	}
	if sj.LodMaxClamp != nil {
		s.LodMaxClamp = *sj.LodMaxClamp
	}
	if s.LodMinClamp < 0 || s.LodMaxClamp < s.LodMinClamp {
		return nil, fmt.Errorf("lodMinClamp %v, lodMaxClamp %v: want 0 ≤ lodMinClamp ≤ lodMaxClamp", s.LodMinClamp, s.LodMaxClamp)
	}
	isCmp := v.T.Tex != nil && v.T.Tex.Comparison
	if isCmp != (s.Compare != "") {
		if isCmp {
			return nil, fmt.Errorf("%s is a sampler_comparison: it needs \"compare\"", v.Name)
		}
		return nil, fmt.Errorf("compare: %s is a sampler, not a sampler_comparison", v.Name)
	}
	return s, nil
}

// parseHandleInput reads the entry of texture or sampler v.
func parseHandleInput(v *ir.TextureVar, raw json.RawMessage, dir string, m *ir.Module, texs map[string]*interp.Texture, smps map[string]*interp.Sampler) error {
	if v.T.Kind == ir.KindSampler {
		s, err := parseSampler(v, raw)
		if err != nil {
			return err
		}
		smps[v.Name] = s
		return nil
	}
	t, err := parseTexture(v, raw, dir, m)
	if err != nil {
		return err
	}
	texs[v.Name] = t
	return nil
}

// FillMissingTextures gives every texture and sampler of m that texs and
// smps lack its default: made up as fill says (FillTextures; "" zeroed),
// a sampler nearest and clamp-to-edge.
func FillMissingTextures(m *ir.Module, texs map[string]*interp.Texture, smps map[string]*interp.Sampler, fill Fill, seed uint64) error {
	if len(m.Textures) == 0 {
		return nil
	}
	f := fill
	if f == "" {
		f = FillZero
	}
	ft, fs, err := FillTextures(f, seed, m)
	if err != nil {
		return err
	}
	for k, v := range ft {
		if _, ok := texs[k]; !ok {
			texs[k] = v
		}
	}
	for k, v := range fs {
		if _, ok := smps[k]; !ok {
			smps[k] = v
		}
	}
	return nil
}

// TexturesJSON renders textures and samplers as the entries of an inputs
// object (TextureJSON, SamplerJSON), in module order, each as
// "name": {…}; "" when there are none.
func TexturesJSON(m *ir.Module, texs map[string]*interp.Texture, smps map[string]*interp.Sampler) []string {
	var out []string
	for _, v := range m.Textures {
		name, _ := json.Marshal(v.Name)
		var body []byte
		if s, ok := smps[v.Name]; ok && v.T.Kind == ir.KindSampler {
			lmin, lmax := s.LodMinClamp, s.LodMaxClamp
			body, _ = json.Marshal(SamplerJSON{AddressModeU: s.AddressModeU, AddressModeV: s.AddressModeV, AddressModeW: s.AddressModeW,
				MagFilter: s.MagFilter, MinFilter: s.MinFilter, MipmapFilter: s.MipmapFilter, LodMinClamp: &lmin, LodMaxClamp: &lmax, Compare: s.Compare})
		} else if t, ok := texs[v.Name]; ok {
			f, _ := ParseTexelFormat(t.Format)
			tj := TextureJSON{Format: t.Format, Size: []int{t.Width, t.Height, t.DepthOrLayers}, MipLevels: t.MipLevels}
			if t.SampleCount > 1 {
				tj.SampleCount = t.SampleCount
			}
			cb := f.bits / 8
			for _, data := range t.Data {
				lv := [][]float64{}
				for i := 0; i+f.TexelBytes() <= len(data); i += f.TexelBytes() {
					texel := make([]float64, f.channels)
					for c := range texel {
						texel[c] = channelValue(f, TexelCode(data[i+c*cb:], cb))
					}
					lv = append(lv, texel)
				}
				tj.Levels = append(tj.Levels, lv)
			}
			body, _ = json.Marshal(tj)
		} else {
			continue
		}
		out = append(out, string(name)+": "+string(body))
	}
	return out
}

// EntryInputsJSON is a compute entry point's case inputs: its buffers
// (BindingsJSON) and its textures and samplers (TexturesJSON) in one
// object, the inputs file's form.
func EntryInputsJSON(c *ComputeCase) json.RawMessage {
	raw := BindingsJSON(c.Module, c.Buffers)
	more := TexturesJSON(c.Module, c.Textures, c.Samplers)
	if len(more) == 0 {
		return raw
	}
	s := strings.TrimSuffix(string(raw), "}")
	if s != "{" {
		s += ", "
	}
	return json.RawMessage(s + strings.Join(more, ", ") + "}")
}

// UsedHandles is the texture and sampler bindings entry's call graph
// uses: the ones a GPU run binds.
func UsedHandles(m *ir.Module, entry string) map[string]bool {
	used := map[string]bool{}
	for _, f := range m.CallGraph(entry) {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if id, ok := n.(*ir.Ident); ok && id.Ref == ir.RefHandle {
				used[id.Name] = true
			}
			return true
		})
	}
	return used
}

// parseEntryInputs decodes a compute entry point's recorded inputs: its
// buffers (ParseBindings) and its textures and samplers (a case record
// holds their texels: no PNG names).
func parseEntryInputs(where string, raw json.RawMessage, m *ir.Module) (map[string]ir.Buffer, map[string]*interp.Texture, map[string]*interp.Sampler, error) {
	if len(m.Textures) == 0 {
		bufs, err := ParseBindings(where, raw, m)
		return bufs, nil, nil, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, nil, nil, fmt.Errorf("%s: want a JSON object mapping binding names to values", where)
	}
	texs, smps := map[string]*interp.Texture{}, map[string]*interp.Sampler{}
	for _, v := range m.Textures {
		r, ok := obj[v.Name]
		if !ok {
			continue
		}
		if err := parseHandleInput(v, r, "", m, texs, smps); err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %s: %v", where, v.Name, err)
		}
		delete(obj, v.Name)
	}
	rest, _ := json.Marshal(obj)
	bufs, err := ParseBindings(where, rest, m)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := FillMissingTextures(m, texs, smps, FillZero, 0); err != nil {
		return nil, nil, nil, err
	}
	return bufs, texs, smps, nil
}

// TextureInputs is c's textures and samplers as inputs-file entries by
// name (TextureJSON, SamplerJSON; exec --json's "bindings").
func TextureInputs(c *Case) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte("{"+strings.Join(TexturesJSON(c.Module, c.Textures, c.Samplers), ", ")+"}"), &obj) == nil {
		out = obj
	}
	return out
}

// TexelCodes reads level 0's channel codes from texel bytes.
func TexelCodes(format string, data []byte) []uint32 {
	f, _ := ParseTexelFormat(format)
	cb := f.bits / 8
	out := make([]uint32, len(data)/cb)
	for i := range out {
		out[i] = TexelCode(data[i*cb:], cb)
	}
	return out
}

// CompleteTextures is caseTextures of any kind of case: module m,
// entry point entry, its given textures and samplers.
func CompleteTextures(m *ir.Module, entry string, givenTexs map[string]*interp.Texture, givenSmps map[string]*interp.Sampler) (map[string]*interp.Texture, map[string]*interp.Sampler, error) {
	texs, smps := map[string]*interp.Texture{}, map[string]*interp.Sampler{}
	for k, v := range givenTexs {
		texs[k] = v
	}
	for k, v := range givenSmps {
		smps[k] = v
	}
	for name := range texs {
		if v := m.TextureVar(name); v == nil || v.T.Kind != ir.KindTexture {
			return nil, nil, fmt.Errorf("%s has no texture binding named %q", entry, name)
		}
	}
	for name := range smps {
		if v := m.TextureVar(name); v == nil || v.T.Kind != ir.KindSampler {
			return nil, nil, fmt.Errorf("%s has no sampler binding named %q", entry, name)
		}
	}
	for _, v := range m.Textures {
		if t := texs[v.Name]; t != nil {
			if _, err := CheckTextureFormat(v, t.Format); err != nil {
				return nil, nil, &ir.Error{File: m.File, Pos: v.Pos, Pass: "check", Msg: fmt.Sprintf("texture %s: %v", v.Name, err)}
			}
			if err := CheckTextureShape(v, t); err != nil {
				return nil, nil, &ir.Error{File: m.File, Pos: v.Pos, Pass: "check", Msg: fmt.Sprintf("texture %s: %v", v.Name, err)}
			}
		}
	}
	if err := FillMissingTextures(m, texs, smps, FillZero, 0); err != nil {
		return nil, nil, err
	}
	return texs, smps, nil
}

// CaseTextures returns c's textures and samplers completed as every run
// gets them (zeroed textures of the default format and size, nearest
// clamp-to-edge samplers where c gives none), in new maps; errors are
// positioned at the binding whose given contents do not fit it.
func CaseTextures(c *Case) (map[string]*interp.Texture, map[string]*interp.Sampler, error) {
	return CompleteTextures(c.Module, c.Func.Name, c.Textures, c.Samplers)
}

// TextureFormat describes a texel format gpudiff uploads: its channels
// (1, 2 or 4), bits per channel (8, 16 or 32), kind ("unorm", "snorm",
// "uint", "sint" or "float") and whether its bytes are in B, G, R, A
// order (bgra8unorm); ok false for a format gpudiff does not upload.
func TextureFormat(format string) (channels, bits int, kind string, bgra bool, ok bool) {
	f, err := ParseTexelFormat(format)
	if err != nil {
		return 0, 0, "", false, false
	}
	return f.channels, f.bits, f.kind, len(format) >= 4 && format[:4] == "bgra", true
}

// ChannelValue is the value a shader reads for channel code x of format
// (WebGPU #texture-formats, Vulkan "Fixed-Point Data Conversions"):
// unorm x/(2^bits−1); snorm max(x/(2^(bits−1)−1), −1) of the
// sign-extended code; float16 the binary16 value, float32 the bits' value;
// uint the code, sint the sign-extended code. A format gpudiff does not
// upload gives NaN.
func ChannelValue(format string, x uint32) float64 {
	f, err := ParseTexelFormat(format)
	if err != nil {
		return math.NaN()
	}
	switch f.kind {
	case "unorm":
		return float64(x) / float64(uint64(1)<<f.bits-1)
	case "snorm":
		sh := 32 - f.bits
		s := int32(x<<sh) >> sh
		return math.Max(float64(s)/float64(int64(1)<<(f.bits-1)-1), -1)
	case "float":
		if f.bits == 16 {
			return float64(f16ToF32(uint16(x)))
		}
		return float64(math.Float32frombits(x))
	case "sint":
		sh := 32 - f.bits
		return float64(int32(x<<sh) >> sh)
	}
	return float64(x)
}

// TextureCodes returns level l of t as channel codes: layer after layer,
// row after row, texel after texel, channel after channel (memory order:
// a bgra8unorm texel's codes are B, G, R, A); nil where t has no level l.
func TextureCodes(t *interp.Texture, l int) []uint32 {
	if t == nil || l < 0 || l >= len(t.Data) {
		return nil
	}
	if _, err := ParseTexelFormat(t.Format); err != nil {
		return nil
	}
	return TexelCodes(t.Format, t.Data[l])
}
