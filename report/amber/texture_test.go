package amber

import (
	"context"
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// webgpuFormat is the WebGPU format of an Amber (Vulkan) format name, the
// inverse of amberFormat.
func webgpuFormat(t *testing.T, amber string) string {
	t.Helper()
	for _, ch := range []string{"r", "rg", "rgba", "bgra"} {
		for _, bits := range []string{"8", "16", "32"} {
			for _, kind := range []string{"unorm", "snorm", "uint", "sint", "float"} {
				if a, ok := amberFormat(ch + bits + kind); ok && a == amber {
					return ch + bits + kind
				}
			}
		}
	}
	t.Fatalf("no WebGPU format for %s", amber)
	return ""
}

// channelBytes is a DATA value of format as Amber writes it into a
// channel (src/buffer.cc WriteValueFromComponent): the integer itself for
// normalized and integer channels, the float (float16: the binary16 code
// whose value it is — the exported values are exact) for float channels.
func channelBytes(t *testing.T, format, v string) []byte {
	t.Helper()
	_, bits, kind, _, _ := testcase.TextureFormat(format)
	out := make([]byte, bits/8)
	var x uint32
	switch kind {
	case "unorm", "uint", "snorm", "sint":
		n, err := strconv.ParseInt(v, 10, 64)
		require.NoError(t, err, "%s DATA value %q", format, v)
		x = uint32(n)
	default:
		f, err := strconv.ParseFloat(v, 64)
		require.NoError(t, err)
		if bits == 32 {
			x = math.Float32bits(float32(f))
			break
		}
		if half == nil {
			half = map[float32]uint32{}
			for c := uint32(1<<16 - 1); c < 1<<16; c-- { // +0 wins over -0
				half[float32(testcase.ChannelValue("r16float", c))] = c
			}
		}
		var found bool
		x, found = half[float32(f)] // Amber: AsFloat, then FloatToHexFloat16
		require.True(t, found, "%s is no float16 value", v)
	}
	for i := range out {
		out[i] = byte(x >> (8 * i))
	}
	return out
}

// half maps each float16 value (as a float32) to its code.
var half map[float32]uint32

type texImage struct {
	format         string
	view           string
	w, h, d        uint32
	data           []byte
	group, binding uint32
	as             string
}

// checkTextureScript runs an exported script with textures the way Amber
// would, on lavapipe: its assembly (spirv-as, spirv-val), its BUFFERs,
// IMAGEs (their DATA written as Amber writes components) and SAMPLERs at
// their bindings, its RUN; then evaluates every EXPECT as Amber's
// ProbeSSBO does on an IMAGE (channel values at a texel-aligned byte
// offset, compared with EQ, GE or LE; no normalization) or a BUFFER. It
// returns how many values were compared and the EXPECT lines that failed.
func checkTextureScript(t *testing.T, sc *Script, m *ir.Module) (compared int, failed []string) {
	t.Helper()
	shader := sc.Text[strings.Index(sc.Text, "SPIRV-ASM TARGET_ENV "+TargetEnv+"\n")+len("SPIRV-ASM TARGET_ENV "+TargetEnv+"\n"):]
	shader = shader[:strings.Index(shader, "END")]
	words := assemble(t, &script{shader: shader})

	bufs := map[string][]uint32{}
	var bufOrder []string
	imgs := map[string]*texImage{}
	var imgOrder []string
	smps := map[string]harness.SamplerBinding{}
	var job harness.Dispatch
	var rw = map[string]bool{}
	var expects [][]string
	var curBuf string
	var curImg *texImage
	for _, l := range strings.Split(sc.Text, "\n") {
		// The BUFFER's comment names its WGSL access: a read_write one
		// is bound as such even when no EXPECT names it.
		if f := strings.Fields(l); len(f) > 1 && f[0] == "#" && strings.HasPrefix(f[1], "buf_") && strings.Contains(l, "read_write>") {
			rw[strings.TrimSuffix(f[1], ":")] = true
		}
		if i := strings.Index(l, "#"); i >= 0 {
			l = l[:i]
		}
		f := strings.Fields(l)
		switch {
		case len(f) == 0:
		case (curBuf != "" || curImg != nil) && f[0] == "END":
			curBuf, curImg = "", nil
		case curBuf != "":
			for _, w := range f {
				v, err := strconv.ParseUint(w, 10, 32)
				require.NoError(t, err)
				bufs[curBuf] = append(bufs[curBuf], uint32(v))
			}
		case curImg != nil:
			for _, v := range f {
				curImg.data = append(curImg.data, channelBytes(t, curImg.format, v)...)
			}
		case f[0] == "BUFFER" && f[len(f)-1] == "DATA":
			curBuf = f[1]
			bufOrder = append(bufOrder, f[1])
		case f[0] == "IMAGE":
			require.Equal(t, "FORMAT", f[2])
			img := &texImage{format: webgpuFormat(t, f[3]), d: 1, h: 1}
			require.Equal(t, "DATA", f[len(f)-1])
			for k := 4; k < len(f)-1; k++ {
				n, _ := strconv.Atoi(f[min(k+1, len(f)-1)])
				switch f[k] {
				case "DIM_1D", "DIM_2D", "DIM_3D":
					img.view = strings.ToLower(f[k][4:])
				case "WIDTH":
					img.w = uint32(n)
				case "HEIGHT":
					img.h = uint32(n)
				case "DEPTH":
					img.d = uint32(n)
				case "MIP_LEVELS":
					t.Fatalf("exported an IMAGE with MIP_LEVELS: %s", l)
				}
			}
			imgs[f[1]], curImg = img, img
			imgOrder = append(imgOrder, f[1])
		case f[0] == "SAMPLER":
			s := harness.SamplerBinding{}
			modes := map[string]string{"clamp_to_edge": "clamp-to-edge", "repeat": "repeat", "mirrored_repeat": "mirror-repeat"}
			for k := 2; k+1 < len(f); k += 2 {
				switch f[k] {
				case "MAG_FILTER":
					s.MagFilter = f[k+1]
				case "MIN_FILTER":
					s.MinFilter = f[k+1]
				case "ADDRESS_MODE_U":
					s.AddressModeU = modes[f[k+1]]
				case "ADDRESS_MODE_V":
					s.AddressModeV = modes[f[k+1]]
				case "ADDRESS_MODE_W":
					s.AddressModeW = modes[f[k+1]]
				case "MIN_LOD", "MAX_LOD":
					require.Contains(t, f[k+1], ".", "Amber reads MIN_LOD/MAX_LOD as a double only with a '.'")
					v, err := strconv.ParseFloat(f[k+1], 32)
					require.NoError(t, err)
					if f[k] == "MIN_LOD" {
						s.LodMinClamp = float32(v)
					} else {
						s.LodMaxClamp = float32(v)
					}
				}
			}
			smps[f[1]] = s
		case f[0] == "BIND" && f[1] == "SAMPLER":
			s := smps[f[2]]
			g, _ := strconv.Atoi(f[4])
			b, _ := strconv.Atoi(f[6])
			s.Group, s.Binding = uint32(g), uint32(b)
			job.Samplers = append(job.Samplers, s)
		case f[0] == "BIND":
			g, _ := strconv.Atoi(f[6])
			b, _ := strconv.Atoi(f[8])
			if img := imgs[f[2]]; img != nil {
				img.as, img.group, img.binding = f[4], uint32(g), uint32(b)
				continue
			}
			require.Contains(t, bufs, f[2])
			kind := harness.BindingReadOnly
			if f[4] == "uniform" {
				kind = harness.BindingUniform
			}
			rw[f[2]] = rw[f[2]] // bound
			job.Buffers = append(job.Buffers, harness.BufferBinding{Group: uint32(g), Binding: uint32(b), Kind: kind})
		case f[0] == "RUN":
			for k := range job.Workgroups {
				n, _ := strconv.Atoi(f[2+k])
				job.Workgroups[k] = uint32(n)
			}
		case f[0] == "EXPECT":
			expects = append(expects, f)
		}
	}
	// A buffer an EXPECT names (itself or through its _i32/_f32 COPY) is
	// read_write; buffers keep the order of their BIND lines.
	for _, e := range expects {
		rw[strings.TrimSuffix(strings.TrimSuffix(e[1], "_i32"), "_f32")] = true
	}
	var boundBufs []string
	for _, name := range bufOrder {
		if _, bound := rw[name]; bound {
			boundBufs = append(boundBufs, name)
		}
	}
	require.Len(t, boundBufs, len(job.Buffers))
	for i, name := range boundBufs {
		data := make([]byte, 4*len(bufs[name]))
		for k, w := range bufs[name] {
			binary.LittleEndian.PutUint32(data[4*k:], w)
		}
		job.Buffers[i].Data = data
		if rw[name] && job.Buffers[i].Kind != harness.BindingUniform {
			job.Buffers[i].Kind = harness.BindingStorage
		}
	}
	var written []string
	for _, name := range imgOrder {
		img := imgs[name]
		tb := harness.TextureBinding{Group: img.group, Binding: img.binding, Kind: harness.TextureSampled, View: img.view, Format: img.format,
			Width: img.w, Height: img.h, DepthOrLayers: img.d, Data: [][]byte{img.data}}
		if img.as == "storage_image" {
			// WebGPU binds a storage texture with its declared access
			// (Vulkan's storage image has none): the module's.
			tb.Kind = harness.TextureStorage
			for _, v := range m.Textures {
				if uint32(v.Group) == img.group && uint32(v.Binding) == img.binding {
					tb.Access = map[ir.TexAccess]string{ir.TexRead: "read-only", ir.TexWrite: "write-only", ir.TexReadWrite: "read-write"}[v.T.Tex.Access]
				}
			}
			if tb.Written() {
				written = append(written, name)
			}
		} else {
			require.Equal(t, "sampled_image", img.as)
		}
		job.Textures = append(job.Textures, tb)
	}
	out, err := lavapipe(t).Run(context.Background(), harness.Kernel{SPIRV: words, EntryPoint: sc.Function, Label: "amber-texture-test"}, job)
	require.NoError(t, err)
	final := map[string][]byte{}
	off := 0
	for _, name := range boundBufs {
		if rw[name] {
			final[name] = out[off : off+4*len(bufs[name])]
			off += 4 * len(bufs[name])
		}
	}
	for _, name := range written {
		n := len(imgs[name].data)
		final[name] = out[off : off+n]
		off += n
	}
	require.Equal(t, len(out), off, "read back: the read_write buffers, then the written images")

	for _, e := range expects {
		idx, err := strconv.Atoi(e[3])
		require.NoError(t, err)
		cmp, vals := e[4], e[5:]
		tol := -1.0 // EXPECT … TOLERANCE t EQ …: absolute, on float buffers
		if cmp == "TOLERANCE" {
			tol, err = strconv.ParseFloat(e[5], 64)
			require.NoError(t, err)
			cmp, vals = e[6], e[7:]
		}
		ok := true
		if img := imgs[e[1]]; img != nil {
			_, bits, _, _, _ := testcase.TextureFormat(img.format)
			cb := bits / 8
			for k, v := range vals {
				var x uint32
				for i := 0; i < cb; i++ {
					x |= uint32(final[e[1]][idx+k*cb+i]) << (8 * i)
				}
				got := numeric(img.format, x)
				want, err := strconv.ParseFloat(v, 64)
				require.NoError(t, err)
				if _, _, kind, _, _ := testcase.TextureFormat(img.format); kind == "float" {
					want = float64(float32(want)) // Amber compares a float channel as float
				}
				switch cmp {
				case "EQ":
					ok = ok && got == want
				case "GE":
					ok = ok && got >= want
				case "LE":
					ok = ok && got <= want
				default:
					t.Fatalf("comparator %s", cmp)
				}
			}
			if cmp != "LE" { // a GE line's LE partner compares the same channels
				compared += len(vals)
			}
		} else {
			require.Equal(t, "EQ", cmp, "buffer EXPECTs here compare with EQ")
			name := strings.TrimSuffix(strings.TrimSuffix(e[1], "_i32"), "_f32")
			for k, v := range vals {
				bits := binary.LittleEndian.Uint32(final[name][idx+4*k:])
				switch {
				case strings.HasSuffix(e[1], "_f32") && tol >= 0:
					want, _ := strconv.ParseFloat(v, 64)
					ok = ok && math.Abs(float64(math.Float32frombits(bits))-want) <= tol
				case strings.HasSuffix(e[1], "_f32"):
					want, _ := strconv.ParseFloat(v, 64)
					ok = ok && math.Float32frombits(bits) == float32(want)
				case strings.HasSuffix(e[1], "_i32"):
					ok = ok && strconv.FormatInt(int64(int32(bits)), 10) == v
				default:
					ok = ok && strconv.FormatUint(uint64(bits), 10) == v
				}
			}
			compared += len(vals)
		}
		if !ok {
			failed = append(failed, strings.Join(e, " "))
		}
	}
	return compared, failed
}

// TestExportEntryTexturesMatchLavapipe: an entry point with a sampled
// texture, a sampler and a written storage texture (store_load.wgsl:
// rgba8unorm, texels whose stored code WGSL leaves a choice of two), and
// one with an rgba16float input and an r32float output beside a buffer
// (testdata/tex_float.wgsl), a 1d rgba8uint pair and a 3d texture stored
// to rgba16float (testdata/tex_1d_uint.wgsl, tex_3d_half.wgsl), original
// and twin: the scripts bind every
// image and sampler, and every EXPECT — the reference's final texels, as
// codes, with GE/LE around the allowed sets — holds on what lavapipe
// stores when it runs the script's own assembly on the script's own
// images, samplers and buffers.
func TestExportEntryTexturesMatchLavapipe(t *testing.T) {
	for _, c := range []struct {
		path     string
		openSets bool // texels checked by GE/LE pairs
	}{
		{"../../shaders/textures/store_load.wgsl", true},
		{"testdata/tex_float.wgsl", false},
		{"testdata/tex_1d_uint.wgsl", false},
		{"testdata/tex_3d_half.wgsl", true},
	} {
		ac, err := testcase.Load(c.path, testcase.LoadOptions{})
		require.NoError(t, err)
		e := ac.Entry()
		require.NotNil(t, e)
		for _, flat := range []bool{false, true} {
			sc, err := ExportEntry(e.Case(), Options{Flat: flat, Tool: "test"})
			require.NoError(t, err, "%s flat=%v", c.path, flat)
			assert.Contains(t, sc.Text, "\nIMAGE img_src FORMAT ")
			assert.Contains(t, sc.Text, "BIND BUFFER img_src AS sampled_image DESCRIPTOR_SET 0 BINDING 0\n")
			assert.Contains(t, sc.Text, "BIND BUFFER img_dst AS storage_image DESCRIPTOR_SET 0 BINDING ")
			assert.Equal(t, c.openSets, strings.Contains(sc.Text, " GE "), "%s", c.path)
			compared, failed := checkTextureScript(t, sc, e.Module)
			assert.Empty(t, failed, "%s flat=%v", c.path, flat)
			assert.Equal(t, sc.Checked, compared, "%s flat=%v: every checked value compared", c.path, flat)
			assert.Zero(t, sc.Unchecked)
		}
	}
}

// The checker can fail: a script whose expected texel is off by one code
// (store_load's texel 1 red, 255, made 254) fails on lavapipe, and a GE/LE
// pair narrowed to exclude the code lavapipe stored fails too.
func TestTextureScriptCheckerCatchesWrongTexels(t *testing.T) {
	ac, err := testcase.Load("../../shaders/textures/store_load.wgsl", testcase.LoadOptions{})
	require.NoError(t, err)
	e := ac.Entry()
	sc, err := ExportEntry(e.Case(), Options{Tool: "test"})
	require.NoError(t, err)
	bad := *sc
	bad.Text = strings.Replace(sc.Text, "EXPECT img_dst IDX 4 GE 255 ", "EXPECT img_dst IDX 4 GE 254 ", 1)
	bad.Text = strings.Replace(bad.Text, "EXPECT img_dst IDX 4 LE 255 ", "EXPECT img_dst IDX 4 LE 254 ", 1)
	require.NotEqual(t, sc.Text, bad.Text)
	_, failed := checkTextureScript(t, &bad, e.Module)
	assert.Equal(t, []string{"EXPECT img_dst IDX 4 LE 254 0 26 255"}, failed)
	// 0.1 × 255 = 25.5: WGSL allows 25 or 26; a pair that allows 25 only
	// or 26 only fails on one of them — whichever lavapipe did not store.
	narrow := func(lo, hi string) []string {
		b := *sc
		b.Text = strings.Replace(sc.Text, "EXPECT img_dst IDX 4 GE 255 0 25 255", "EXPECT img_dst IDX 4 GE 255 0 "+lo+" 255", 1)
		b.Text = strings.Replace(b.Text, "EXPECT img_dst IDX 4 LE 255 0 26 255", "EXPECT img_dst IDX 4 LE 255 0 "+hi+" 255", 1)
		require.NotEqual(t, sc.Text, b.Text)
		_, f := checkTextureScript(t, &b, e.Module)
		return f
	}
	assert.Equal(t, 1, len(narrow("25", "25"))+len(narrow("26", "26")), "exactly one of the two codes was stored")
}

// What Amber cannot express is refused, positioned at the binding and
// naming it: array layers (testdata/tex_array.wgsl) and more than one mip
// level (testdata/tex_mips.wgsl).
func TestExportEntryRefusesTexturesAmberCannotHold(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"testdata/tex_array.wgsl", "tex_array.wgsl:3:27: amber: texture binding layers (texture_2d_array<f32>, @group(0) @binding(1)): Amber's IMAGE has no array layers"},
		{"testdata/tex_mips.wgsl", "tex_mips.wgsl:4:27: amber: texture binding mips (texture_2d<f32>, @group(0) @binding(1)): 2 mip levels"},
	} {
		ac, err := testcase.Load(c.path, testcase.LoadOptions{})
		require.NoError(t, err)
		_, err = ExportEntry(ac, Options{Tool: "test"})
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
	}
}

// Amber's names for WebGPU's formats (docs/amber_script.md "Image
// Formats"; Vulkan's VkFormat names), and the DATA values of channel codes.
func TestAmberFormats(t *testing.T) {
	for f, want := range map[string]string{"rgba8unorm": "R8G8B8A8_UNORM", "bgra8unorm": "B8G8R8A8_UNORM", "rgba16float": "R16G16B16A16_SFLOAT",
		"r32float": "R32_SFLOAT", "rg32uint": "R32G32_UINT", "rgba8snorm": "R8G8B8A8_SNORM", "r32sint": "R32_SINT"} {
		got, ok := amberFormat(f)
		assert.True(t, ok)
		assert.Equal(t, want, got, f)
	}
	_, ok := amberFormat("depth24plus")
	assert.False(t, ok)
	for _, c := range []struct {
		format string
		code   uint32
		want   string
	}{
		{"rgba8unorm", 255, "255"}, {"rgba8snorm", 0x81, "-127"}, {"r32sint", 0xffffffff, "-1"},
		{"rgba16float", 0x3c00, "1.0"}, {"rgba16float", 0xb600, "-0.375"}, {"r32float", math.Float32bits(0.1), "0.1"},
	} {
		got, ok := channelData(c.format, c.code)
		assert.True(t, ok)
		assert.Equal(t, c.want, got, "%s %#x", c.format, c.code)
	}
	_, ok = channelData("r32float", 0x7fc00000)
	assert.False(t, ok, "NaN has no decimal")
}
