package amber

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Textures and samplers in an exported script (issue 24 point 7; Amber's
// docs/amber_script.md "Images", "Samplers", "Pipeline Buffers"):
//
//   - each texture the entry point uses is an IMAGE of its Vulkan format
//     (rgba8unorm → R8G8B8A8_UNORM, r32float → R32_SFLOAT, bgra8unorm →
//     B8G8R8A8_UNORM, …), DIM_1D, DIM_2D or DIM_3D, with DATA: its
//     channel values in memory order, as Amber writes a format's
//     components (src/buffer.cc WriteValueFromComponent): the code itself
//     for unorm, snorm, uint and sint channels, the float value for float
//     channels (a float16 value is exactly representable, so Amber's
//     conversion keeps it);
//   - bound AS sampled_image or AS storage_image at its own DESCRIPTOR_SET
//     and BINDING; each sampler a SAMPLER (MAG_FILTER, MIN_FILTER,
//     ADDRESS_MODE_U/V/W, MIN_LOD, MAX_LOD; COMPARE_OP for a comparison
//     sampler) bound with BIND SAMPLER;
//   - a written storage texture's final level 0 is checked with EXPECT …
//     IDX byte-offset EQ channel values (Amber's ProbeSSBO reads a FORMAT
//     buffer component by component at a texel-aligned offset, without
//     normalizing: the codes themselves), one line per row of texels. A
//     texel with a channel the reference leaves a set of codes (a store
//     between two codes) is checked with a GE line and an LE line whose
//     values are the channel's smallest and largest allowed code and the
//     other channels' exact codes (both hold only for the exact code), so
//     the script states exactly what WGSL allows when the set is a range of
//     codes; a channel the reference leaves any value takes the channel
//     type's whole range there, and a texel whose float channel is any
//     value (NaN compares false) or not finite, or whose set is not a
//     range, gets a comment instead.
//
// What Amber cannot express is refused, positioned at the binding: array
// layers and cube faces (Amber's IMAGE has no layers), more than one mip
// level (Amber fills level 0 from DATA and makes the rest itself),
// non-finite float texels in an input (DATA is decimal), and a sampler's
// mipmap filter other than nearest with more than one level (never
// reached: levels are refused).

// amberFormat is the Vulkan format name Amber knows for a WebGPU format.
func amberFormat(format string) (string, bool) {
	ch, bits, kind, bgra, ok := testcase.TextureFormat(format)
	if !ok {
		return "", false
	}
	suffix := map[string]string{"unorm": "UNORM", "snorm": "SNORM", "uint": "UINT", "sint": "SINT", "float": "SFLOAT"}[kind]
	names := "RGBA"[:ch]
	if bgra {
		names = "BGRA"
	}
	var b strings.Builder
	for _, c := range names {
		fmt.Fprintf(&b, "%c%d", c, bits)
	}
	return b.String() + "_" + suffix, true
}

// channelData is channel code x of format as Amber's DATA and EXPECT
// values write it: the code (signed for snorm and sint), or the float's
// value; false for a non-finite float.
func channelData(format string, x uint32) (string, bool) {
	_, bits, kind, _, _ := testcase.TextureFormat(format)
	switch kind {
	case "unorm", "uint":
		return strconv.FormatUint(uint64(x), 10), true
	case "snorm", "sint":
		sh := 32 - bits
		return strconv.FormatInt(int64(int32(x<<sh)>>sh), 10), true
	}
	v := testcase.ChannelValue(format, x)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "", false
	}
	return FormatFloat(v), true
}

// numeric is channel code x of format as the number Amber compares: the
// (signed, for snorm and sint) code, or the float's value.
func numeric(format string, x uint32) float64 {
	_, bits, kind, _, _ := testcase.TextureFormat(format)
	switch kind {
	case "unorm", "uint":
		return float64(x)
	case "snorm", "sint":
		sh := 32 - bits
		return float64(int32(x<<sh) >> sh)
	}
	return testcase.ChannelValue(format, x)
}

// channelRange is the smallest and largest value of a channel of format,
// as DATA values: the whole range a channel left "any value" takes.
func channelRange(format string) (lo, hi string, ok bool) {
	_, bits, kind, _, _ := testcase.TextureFormat(format)
	switch kind {
	case "unorm", "uint":
		return "0", strconv.FormatUint(uint64(1)<<bits-1, 10), true
	case "snorm", "sint":
		return strconv.FormatInt(-(int64(1) << (bits - 1)), 10), strconv.FormatInt(int64(1)<<(bits-1)-1, 10), true
	}
	return "", "", false
}

var amberAddress = map[string]string{"": "clamp_to_edge", "clamp-to-edge": "clamp_to_edge", "repeat": "repeat", "mirror-repeat": "mirrored_repeat"}

var amberCompare = map[string]string{"never": "never", "less": "less", "equal": "equal", "less-equal": "less_or_equal",
	"greater": "greater", "not-equal": "not_equal", "greater-equal": "greater_or_equal", "always": "always"}

// usedHandles are the texture and sampler bindings entry's call graph
// uses.
func usedHandles(m *ir.Module, entry string) map[string]bool {
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

// refuseTextures refuses, positioned at the first such binding, a texture
// Amber's IMAGE cannot hold as gpudiff dispatches it.
func refuseTextures(c *testcase.Case) error {
	texs, _, err := testcase.CaseTextures(c)
	if err != nil {
		return err
	}
	return refuseTexturesIn(c.Module, c.Func.Name, texs)
}

// refuseTexturesIn is refuseTextures for the textures texs of entry
// point entry of m.
func refuseTexturesIn(m *ir.Module, entry string, texs map[string]*interp.Texture) error {
	used := usedHandles(m, entry)
	for _, v := range m.Textures {
		if !used[v.Name] || v.T.Kind != ir.KindTexture {
			continue
		}
		t := texs[v.Name]
		refuse := func(why string) error {
			return &ir.Error{File: m.File, Pos: v.Pos, Pass: "amber", Msg: fmt.Sprintf("texture binding %s (%v, @group(%d) @binding(%d)): %s", v.Name, v.T, v.Group, v.Binding, why)}
		}
		switch v.T.Tex.Dim {
		case ir.Tex2DArray, ir.TexCube, ir.TexCubeArray:
			return refuse("Amber's IMAGE has no array layers or cube faces (DIM_1D, DIM_2D, DIM_3D only), so the script could not bind it")
		}
		if t == nil {
			return refuse("no contents")
		}
		if _, ok := amberFormat(t.Format); !ok {
			return refuse(fmt.Sprintf("format %s has no Amber IMAGE format", t.Format))
		}
		if t.MipLevels > 1 {
			return refuse(fmt.Sprintf("%d mip levels: Amber fills an IMAGE's level 0 from DATA and makes the other levels itself, so the script could not give gpudiff's", t.MipLevels))
		}
		for _, x := range testcase.TextureCodes(t, 0) {
			if _, ok := channelData(t.Format, x); !ok {
				return refuse("a texel holds a NaN or an infinity, which Amber's decimal DATA cannot write")
			}
		}
	}
	return nil
}

// writeTextures writes the IMAGE and SAMPLER declarations of c's used
// texture and sampler bindings to b, their BIND lines to binds, and the
// EXPECT lines of the written storage textures (ref's outputs) to
// expects.
func writeTextures(b, binds, expects *strings.Builder, c *testcase.Case, ref *check.Result, s *Script) error {
	_, smps, err := testcase.CaseTextures(c)
	if err != nil {
		return err
	}
	used := usedHandles(c.Module, c.Func.Name)
	for _, v := range c.Module.Textures {
		if used[v.Name] && v.T.Kind == ir.KindSampler {
			writeSampler(b, binds, v, smps[v.Name])
		}
	}
	for _, tv := range ref.TextureViews(c.Module, c.Func.Name) {
		name := writeImage(b, binds, tv.Var, tv.Texture)
		if tv.Output >= 0 {
			writeTextureExpects(expects, name, tv.Texture, ref.Reference[0][tv.Output], s)
		}
	}
	return nil
}

// writeImage writes texture binding v's IMAGE (t's level 0, DATA: each
// texel's channels in memory order) to b and its BIND line to binds, and
// returns the IMAGE's name.
func writeImage(b, binds *strings.Builder, v *ir.TextureVar, t *interp.Texture) string {
	name := "img_" + v.Name
	format, _ := amberFormat(t.Format)
	dims := fmt.Sprintf("DIM_2D WIDTH %d HEIGHT %d", t.Width, t.Height)
	switch v.T.Tex.Dim {
	case ir.Tex1D:
		dims = fmt.Sprintf("DIM_1D WIDTH %d", t.Width)
	case ir.Tex3D:
		dims = fmt.Sprintf("DIM_3D WIDTH %d HEIGHT %d DEPTH %d", t.Width, t.Height, t.DepthOrLayers)
	}
	fmt.Fprintf(b, "# %s: %s, %s texels (DATA: each texel's channels in memory order, codes for normalized and integer formats)\n", name, v.Decl(), t.Format)
	fmt.Fprintf(b, "IMAGE %s FORMAT %s %s DATA\n", name, format, dims)
	ch, _, _, _, _ := testcase.TextureFormat(t.Format)
	codes := testcase.TextureCodes(t, 0)
	row := t.Width * ch
	for k := 0; k < len(codes); k += row {
		vals := make([]string, 0, row)
		for _, x := range codes[k:min(k+row, len(codes))] {
			d, _ := channelData(t.Format, x)
			vals = append(vals, d)
		}
		fmt.Fprintf(b, "  %s\n", strings.Join(vals, " "))
	}
	b.WriteString("END\n")
	as := "sampled_image"
	if v.T.Tex.Class == ir.TexStorage {
		as = "storage_image"
	}
	fmt.Fprintf(binds, "  BIND BUFFER %s AS %s DESCRIPTOR_SET %d BINDING %d\n", name, as, v.Group, v.Binding)
	return name
}

func writeSampler(b, binds *strings.Builder, v *ir.TextureVar, sm *interp.Sampler) {
	if sm == nil {
		sm = &interp.Sampler{}
	}
	filter := func(f string) string {
		if f == "linear" {
			return "linear"
		}
		return "nearest"
	}
	name := "smp_" + v.Name
	fmt.Fprintf(b, "# %s: %s\n", name, v.Decl())
	fmt.Fprintf(b, "SAMPLER %s MAG_FILTER %s MIN_FILTER %s ADDRESS_MODE_U %s ADDRESS_MODE_V %s ADDRESS_MODE_W %s MIN_LOD %s MAX_LOD %s",
		name, filter(sm.MagFilter), filter(sm.MinFilter), amberAddress[sm.AddressModeU], amberAddress[sm.AddressModeV], amberAddress[sm.AddressModeW],
		formatDecimal(float64(sm.LodMinClamp), 32), formatDecimal(float64(lodMax(sm)), 32))
	if op, ok := amberCompare[sm.Compare]; ok {
		fmt.Fprintf(b, " COMPARE on COMPARE_OP %s", op)
	}
	b.WriteString("\n")
	fmt.Fprintf(binds, "  BIND SAMPLER %s DESCRIPTOR_SET %d BINDING %d\n", name, v.Group, v.Binding)
}

// lodMax is the sampler's lodMaxClamp (WebGPU's default 32 where none is
// given).
func lodMax(sm *interp.Sampler) float32 {
	if sm.LodMaxClamp == 0 && sm.LodMinClamp == 0 {
		return 32
	}
	return sm.LodMaxClamp
}

// writeTextureExpects writes the EXPECT lines of a storage texture's final
// level 0 (e: the reference's, channel codes [layer][y][x][channel]).
func writeTextureExpects(b *strings.Builder, name string, t *interp.Texture, e oracle.Expected, s *Script) {
	ch, _, _, _, _ := testcase.TextureFormat(t.Format)
	var codes []uint32
	var walk func(v ir.Value)
	walk = func(v ir.Value) {
		if len(v.Elems) > 0 {
			for _, x := range v.Elems {
				walk(x)
			}
			return
		}
		codes = append(codes, v.Bits)
	}
	walk(e.Value)
	texel := ch * (len(t.Data[0]) / max(1, len(codes)))
	fmt.Fprintf(b, "# %s: final level 0, %s (IDX = byte offset; values: channel codes, or float values)\n", name, t.Format)
	indet := func(l int) bool { return l < len(e.Indeterminate) && e.Indeterminate[l] }
	texels := len(codes) / ch
	for row := 0; row < texels; row += t.Width {
		// A row of exact texels is one line; a texel with open
		// channels breaks it.
		start := -1
		flush := func(end int) {
			if start < 0 {
				return
			}
			vals := make([]string, 0, (end-start)*ch)
			for _, x := range codes[start*ch : end*ch] {
				d, _ := channelData(t.Format, x)
				vals = append(vals, d)
			}
			fmt.Fprintf(b, "EXPECT %s IDX %d EQ %s\n", name, start*texel, strings.Join(vals, " "))
			s.Expects++
			s.Checked += len(vals)
			start = -1
		}
		for i := row; i < min(row+t.Width, texels); i++ {
			exact := true
			for c := 0; c < ch; c++ {
				if _, ok := channelData(t.Format, codes[i*ch+c]); indet(i*ch+c) || !ok {
					exact = false
				}
			}
			if exact {
				if start < 0 {
					start = i
				}
				continue
			}
			flush(i)
			writeOpenTexel(b, name, t.Format, codes[i*ch:(i+1)*ch], e, i*ch, i*texel, s)
		}
		flush(min(row+t.Width, texels))
	}
}

// writeOpenTexel writes a GE and an LE line for texel codes cs (leaves
// from leaf0, at byte off) whose channels the reference leaves open, or a
// comment where Amber's comparisons cannot state what WGSL allows.
func writeOpenTexel(b *strings.Builder, name, format string, cs []uint32, e oracle.Expected, leaf0, off int, s *Script) {
	ge, le := make([]string, len(cs)), make([]string, len(cs))
	why := ""
	for c, x := range cs {
		l := leaf0 + c
		d, ok := channelData(format, x)
		switch {
		case l < len(e.Indeterminate) && e.Indeterminate[l]:
			set := e.Set(l)
			if len(set.Values) == 0 {
				lo, hi, ok := channelRange(format)
				if !ok {
					why = "a float channel any value (NaN compares false)"
				}
				ge[c], le[c] = lo, hi
				continue
			}
			lo, hi := set.Values[0], set.Values[0]
			for _, v := range set.Values {
				if numeric(format, v) < numeric(format, lo) {
					lo = v
				}
				if numeric(format, v) > numeric(format, hi) {
					hi = v
				}
			}
			if _, _, isInt := channelRange(format); isInt && int(numeric(format, hi)-numeric(format, lo))+1 != len(set.Values) {
				why = "a channel's allowed codes are not a range"
			}
			ge[c], _ = channelData(format, lo)
			le[c], _ = channelData(format, hi)
		case !ok:
			why = "a channel is not finite"
		default:
			ge[c], le[c] = d, d
		}
	}
	if why != "" {
		fmt.Fprintf(b, "#   %s texel at byte %d: %s (%s): no EXPECT\n", name, off, why, firstLine(e.Why))
		s.Unchecked += len(cs)
		return
	}
	fmt.Fprintf(b, "# texel at byte %d: WGSL allows a set of codes (%s)\n", off, firstLine(e.Why))
	fmt.Fprintf(b, "EXPECT %s IDX %d GE %s\n", name, off, strings.Join(ge, " "))
	fmt.Fprintf(b, "EXPECT %s IDX %d LE %s\n", name, off, strings.Join(le, " "))
	s.Expects += 2
	s.Checked += len(cs)
}
