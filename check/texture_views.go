package check

import (
	"math"

	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// Accessors for what pictures, the viewer and Amber export show of a
// compute entry point's textures (issue 24 point 7): the contents as
// dispatched, which result output holds a written storage texture's final
// level 0, and the value a channel code stands for.

// A TextureView is one texture binding of an entry point's dispatch.
type TextureView struct {
	Var *ir.TextureVar
	// Texture is the binding's contents as dispatched to the reference
	// and to every run (every mip level and array layer).
	Texture *interp.Texture
	// Output is the index in Result.Names and Reference (and each
	// run's Outputs[0]) of the storage texture's final level 0, or -1
	// for a texture the entry point only reads.
	Output int
}

// TextureViews returns the texture bindings (not samplers) the entry
// point entry of m uses, in module order, with their dispatched contents.
func (r *Result) TextureViews(m *ir.Module, entry string) []TextureView {
	if m == nil || r.textures == nil {
		return nil
	}
	used := usedHandles(m, entry)
	nb := len(r.Names) - len(r.TextureOutputs)
	var out []TextureView
	for _, v := range m.Textures {
		t := r.textures[v.Name]
		if v.T.Kind != ir.KindTexture || !used[v.Name] || t == nil {
			continue
		}
		tv := TextureView{Var: v, Texture: t, Output: -1}
		for i, w := range r.TextureOutputs {
			if w.Name == v.Name {
				tv.Output = nb + i
			}
		}
		out = append(out, tv)
	}
	return out
}

// CaseTextures returns c's textures and samplers completed as every run
// gets them (zeroed textures of the default format and size, nearest
// clamp-to-edge samplers where c gives none), in new maps; errors are
// positioned at the binding whose given contents do not fit it.
func CaseTextures(c *Case) (map[string]*interp.Texture, map[string]*interp.Sampler, error) {
	return completeCaseTextures(c.Module, c.Func.Name, c.Textures, c.Samplers)
}

// TextureFormat describes a texel format gpudiff uploads: its channels
// (1, 2 or 4), bits per channel (8, 16 or 32), kind ("unorm", "snorm",
// "uint", "sint" or "float") and whether its bytes are in B, G, R, A
// order (bgra8unorm); ok false for a format gpudiff does not upload.
func TextureFormat(format string) (channels, bits int, kind string, bgra bool, ok bool) {
	f, err := parseTexFmt(format)
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
	f, err := parseTexFmt(format)
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
	if _, err := parseTexFmt(t.Format); err != nil {
		return nil
	}
	return textureCodes(t.Format, t.Data[l])
}

// TextureViews returns the texture bindings (not samplers) c's function
// uses, in module order, with the contents every run gets (a given
// texture, else the default one): the inputs of a fragment entry point's
// runs (Output -1: its storage textures are not read back). Errors are
// positioned at a binding whose given contents do not fit it.
func (c *Case) TextureViews() ([]TextureView, error) {
	if c.Module == nil || c.Func == nil || len(c.Module.Textures) == 0 {
		return nil, nil
	}
	texs, _, err := completeCaseTextures(c.Module, c.Func.Name, c.Textures, c.Samplers)
	if err != nil {
		return nil, err
	}
	used := usedHandles(c.Module, c.Func.Name)
	var out []TextureView
	for _, v := range c.Module.Textures {
		if t := texs[v.Name]; v.T.Kind == ir.KindTexture && used[v.Name] && t != nil {
			out = append(out, TextureView{Var: v, Texture: t, Output: -1})
		}
	}
	return out, nil
}
