package amber

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// ---- a reader of the draw scripts ExportDraw writes, as Amber reads them ----

type drawVertexData struct {
	buf, format        string
	location           uint32
	rate               string
	offset, stride     uint64
	strideGiven, given bool
}

type drawExpect struct {
	line   string
	buf    string
	rect   bool // EXPECT … IDX x y SIZE w h EQ_RGBA
	x, y   int
	w, h   int
	off    int
	cmp    string // EQ, GE, LE, EQ_RGBA
	values []string
}

type drawScript struct {
	shaders   map[string]string // SHADER type → assembly
	entries   map[string]string // SHADER type → ENTRY_POINT
	bufType   map[string]string // DATA_TYPE or FORMAT
	bufWords  map[string][]uint64
	bufFill   map[string]int // SIZE of a FILL buffer
	colors    map[int]string // LOCATION → buffer
	fb        [2]int
	viewport  string
	vertex    []drawVertexData
	index     string
	binds     []string // "buf uniform g b"
	clear     [4]int
	run       string
	expects   []drawExpect
	comments  []string
	shaderEnv map[string]string
}

// parseDrawScript reads a draw script: SHADER blocks up to the first
// END (Tokenizer::ExtractToNext), '#' comments, the commands ExportDraw
// writes.
func parseDrawScript(t *testing.T, text string) *drawScript {
	t.Helper()
	require.True(t, strings.HasPrefix(text, "#!amber\n"))
	s := &drawScript{shaders: map[string]string{}, entries: map[string]string{}, bufType: map[string]string{}, bufWords: map[string][]uint64{},
		bufFill: map[string]int{}, colors: map[int]string{}, shaderEnv: map[string]string{}}
	shaderName := map[string]string{}
	lines := strings.Split(text, "\n")
	var data string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if c := strings.Index(line, "#"); c >= 0 {
			s.comments = append(s.comments, strings.TrimSpace(line[c+1:]))
			line = line[:c]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if data != "" {
			if f[0] == "END" {
				data = ""
				continue
			}
			for _, w := range f {
				v, err := strconv.ParseUint(w, 10, 32)
				require.NoError(t, err, "line %d", i+1)
				s.bufWords[data] = append(s.bufWords[data], v)
			}
			continue
		}
		switch f[0] {
		case "SHADER":
			require.Len(t, f, 6, "line %d", i+1)
			require.Equal(t, []string{"SPIRV-ASM", "TARGET_ENV"}, f[3:5])
			shaderName[f[2]] = f[1]
			s.shaderEnv[f[1]] = f[5]
			rest := strings.Join(lines[i+1:], "\n")
			end := strings.Index(rest, "END")
			require.GreaterOrEqual(t, end, 0)
			require.True(t, end == 0 || rest[end-1] == '\n', "the first END after SHADER is the block's own line")
			s.shaders[f[1]] = rest[:end]
			i += strings.Count(rest[:end], "\n") + 1
			require.Equal(t, "END", strings.TrimSpace(lines[i]), "line %d", i+1)
		case "BUFFER":
			switch {
			case f[2] == "FORMAT":
				require.Len(t, f, 4, "line %d", i+1)
				s.bufType[f[1]] = f[3]
			case f[2] == "DATA_TYPE" && f[4] == "DATA":
				s.bufType[f[1]] = f[3]
				data = f[1]
			case f[2] == "DATA_TYPE" && f[4] == "SIZE":
				s.bufType[f[1]] = f[3]
				n, err := strconv.Atoi(f[5])
				require.NoError(t, err)
				require.Equal(t, []string{"FILL", "0"}, f[6:8])
				s.bufFill[f[1]] = n
			default:
				t.Fatalf("line %d: %q", i+1, line)
			}
		case "PIPELINE":
			require.Equal(t, []string{"PIPELINE", "graphics", PipelineName}, f)
		case "ATTACH":
			require.Len(t, f, 4)
			require.Equal(t, "ENTRY_POINT", f[2])
			s.entries[shaderName[f[1]]] = f[3]
		case "FRAMEBUFFER_SIZE":
			s.fb[0], _ = strconv.Atoi(f[1])
			s.fb[1], _ = strconv.Atoi(f[2])
		case "VIEWPORT":
			s.viewport = strings.Join(f, " ")
		case "VERTEX_DATA":
			vd := drawVertexData{buf: f[1], rate: "vertex"}
			require.Equal(t, "LOCATION", f[2])
			l, err := strconv.Atoi(f[3])
			require.NoError(t, err)
			vd.location = uint32(l)
			for k := 4; k+1 < len(f); k += 2 {
				switch f[k] {
				case "RATE":
					vd.rate = f[k+1]
				case "FORMAT":
					vd.format = f[k+1]
				case "OFFSET":
					vd.offset, err = strconv.ParseUint(f[k+1], 10, 32)
					require.NoError(t, err)
				case "STRIDE":
					vd.stride, err = strconv.ParseUint(f[k+1], 10, 32)
					require.NoError(t, err)
					require.NotZero(t, vd.stride, "Amber refuses STRIDE 0")
					vd.strideGiven = true
				default:
					t.Fatalf("VERTEX_DATA %s", f[k])
				}
			}
			require.NotEmpty(t, vd.format)
			s.vertex = append(s.vertex, vd)
		case "INDEX_DATA":
			s.index = f[1]
		case "BIND":
			require.Equal(t, "BUFFER", f[1], "line %d", i+1)
			if f[4] == "color" {
				l, _ := strconv.Atoi(f[6])
				s.colors[l] = f[2]
				continue
			}
			require.Len(t, f, 9)
			s.binds = append(s.binds, strings.Join([]string{f[2], f[4], f[6], f[8]}, " "))
		case "CLEAR_COLOR":
			for k := 0; k < 4; k++ {
				s.clear[k], _ = strconv.Atoi(f[2+k])
				require.True(t, s.clear[k] >= 0 && s.clear[k] <= 255)
			}
		case "CLEAR", "END":
		case "RUN":
			s.run = strings.Join(f, " ")
		case "EXPECT":
			e := drawExpect{line: strings.Join(f, " "), buf: f[1]}
			require.Equal(t, "IDX", f[2])
			if f[5] == "SIZE" {
				e.rect, e.cmp = true, f[8]
				e.x, _ = strconv.Atoi(f[3])
				e.y, _ = strconv.Atoi(f[4])
				e.w, _ = strconv.Atoi(f[6])
				e.h, _ = strconv.Atoi(f[7])
				e.values = f[9:]
				require.Equal(t, "EQ_RGBA", e.cmp)
				require.Len(t, e.values, 4)
			} else {
				e.off, _ = strconv.Atoi(f[3])
				e.cmp, e.values = f[4], f[5:]
			}
			s.expects = append(s.expects, e)
		default:
			t.Fatalf("line %d: unexpected %q", i+1, f[0])
		}
	}
	return s
}

// vulkanChannels is a Vulkan format's channels as Amber's Format reads
// them: their count, bits and kind ("UINT", "SINT", "UNORM", "SNORM",
// "SFLOAT").
func vulkanChannels(t *testing.T, vk string) (n, bits int, kind string) {
	t.Helper()
	parts := strings.SplitN(vk, "_", 2)
	require.Len(t, parts, 2, vk)
	comps := parts[0]
	for _, c := range "RGBA" {
		if i := strings.IndexRune(comps, c); i >= 0 {
			n++
			j := i + 1
			for j < len(comps) && comps[j] >= '0' && comps[j] <= '9' {
				j++
			}
			bits, _ = strconv.Atoi(comps[i+1 : j])
		}
	}
	return n, bits, parts[1]
}

// webgpuVertexFormat reads a Vulkan vertex format back as the
// GPUVertexFormat it stands for (independently of vkVertexFormat).
func webgpuVertexFormat(t *testing.T, vk string) string {
	t.Helper()
	switch vk {
	case "A2B10G10R10_UNORM_PACK32":
		return "unorm10-10-10-2"
	case "B8G8R8A8_UNORM":
		return "unorm8x4-bgra"
	}
	n, bits, kind := vulkanChannels(t, vk)
	name := map[string]string{"UINT": "uint", "SINT": "sint", "UNORM": "unorm", "SNORM": "snorm", "SFLOAT": "float"}[kind] + strconv.Itoa(bits)
	if n > 1 {
		name += "x" + strconv.Itoa(n)
	}
	return name
}

func wordsBytes(ws []uint64, size int) []byte {
	var out []byte
	for _, w := range ws {
		if size == 2 {
			out = binary.LittleEndian.AppendUint16(out, uint16(w))
		} else {
			out = binary.LittleEndian.AppendUint32(out, uint32(w))
		}
	}
	return out
}

// runDrawScript draws a script on lavapipe the way Amber would draw it
// (its own SPIR-V assembly through spirv-as and spirv-val, its vertex
// and index data, counts, clear colour and bindings; the viewport's y
// flip is wgpu's own) and evaluates every EXPECT on the attachments as
// Amber's verifier does (EQ_RGBA: code/255 within 0.002; a FORMAT
// buffer's EQ: integers exactly, floats within a relative 1e-8; GE and
// LE in the channel's type). It returns the failing EXPECT lines and the
// pixels each attachment's EXPECTs cover.
func runDrawScript(t *testing.T, sc *Script) (failed []string, covered map[string]map[int]bool) {
	t.Helper()
	s := parseDrawScript(t, sc.Text)
	w, h := s.fb[0], s.fb[1]
	assert.Equal(t, fmt.Sprintf("VIEWPORT 0.0 %d.0 SIZE %d.0 -%d.0", h, w, h), s.viewport, "WebGPU's y flip: y_f = H − (y+1)·H/2")
	words := map[string][]uint32{}
	for _, st := range []string{"vertex", "fragment"} {
		require.Contains(t, s.shaders, st)
		require.Equal(t, TargetEnv, s.shaderEnv[st])
		words[st] = assemble(t, &script{shader: s.shaders[st]})
	}
	dw := &harness.Draw{}
	for _, vd := range s.vertex {
		typ := s.bufType[vd.buf]
		require.Equal(t, "uint32", typ, "vertex data as words")
		data := wordsBytes(s.bufWords[vd.buf], 4)
		if n, ok := s.bufFill[vd.buf]; ok {
			data = make([]byte, 4*n)
		}
		stride := vd.stride
		if !vd.strideGiven {
			n, bits, _ := vulkanChannels(t, vd.format)
			stride = uint64(n * bits / 8) // Amber's default: the format's size
		}
		dw.VertexBuffers = append(dw.VertexBuffers, harness.VertexBuffer{Data: data, Stride: stride, StepMode: vd.rate,
			Attributes: []harness.VertexAttribute{{Format: webgpuVertexFormat(t, vd.format), Offset: vd.offset, ShaderLocation: vd.location}}})
	}
	require.NotEmpty(t, dw.VertexBuffers, "Amber's DRAW_ARRAY needs a vertex buffer")
	f := strings.Fields(s.run)
	require.GreaterOrEqual(t, len(f), 6, s.run)
	require.Equal(t, []string{"RUN", PipelineName, "DRAW_ARRAY", "AS"}, f[:4])
	dw.Topology = map[string]string{"TRIANGLE_LIST": "triangle-list", "TRIANGLE_STRIP": "triangle-strip"}[f[4]]
	require.NotEmpty(t, dw.Topology)
	args := map[string]uint32{"INSTANCE_COUNT": 1}
	indexed := false
	for k := 5; k < len(f); k++ {
		if f[k] == "INDEXED" {
			indexed = true
			continue
		}
		v, err := strconv.ParseUint(f[k+1], 10, 32)
		require.NoError(t, err)
		args[f[k]] = uint32(v)
		k++
	}
	dw.Count, dw.InstanceCount, dw.FirstInstance = args["COUNT"], args["INSTANCE_COUNT"], args["START_INSTANCE"]
	if indexed {
		require.NotEmpty(t, s.index)
		typ := s.bufType[s.index]
		size := map[string]int{"uint16": 2, "uint32": 4}[typ]
		require.NotZero(t, size)
		dw.Index = &harness.IndexBuffer{Format: typ, Data: wordsBytes(s.bufWords[s.index], size)}
		// Amber: vkCmdDrawIndexed(COUNT, …, firstIndex 0, vertexOffset START_IDX, …),
		// and START_IDX + COUNT within the index buffer.
		dw.BaseVertex = int32(args["START_IDX"])
		assert.LessOrEqual(t, int(args["START_IDX"]+dw.Count), len(s.bufWords[s.index]))
	} else {
		dw.FirstVertex = args["START_IDX"]
		first := s.vertex[0].buf
		n := len(s.bufWords[first]) + s.bufFill[first]
		assert.LessOrEqual(t, int(dw.FirstVertex+dw.Count), n, "Amber checks START_IDX + COUNT against the first vertex buffer's elements")
	}
	var locs []int
	for l := range s.colors {
		locs = append(locs, l)
	}
	sort.Ints(locs)
	var formats []harness.AttachmentFormat
	for _, l := range locs {
		vk := s.bufType[s.colors[l]]
		n, bits, kind := vulkanChannels(t, vk)
		format := harness.AttachmentFormat(map[int]string{1: "r", 2: "rg", 4: "rgba"}[n] + strconv.Itoa(bits) + map[string]string{"UINT": "uint", "SINT": "sint", "UNORM": "unorm", "SFLOAT": "float"}[kind])
		formats = append(formats, format)
		// Amber clears with the floats k/255 in VkClearColorValue, which an
		// integer attachment reads as the float's bits.
		var clear [4]float64
		for c := range clear {
			v := float32(s.clear[c]) / 255
			switch kind {
			case "UINT":
				clear[c] = float64(math.Float32bits(v))
			case "SINT":
				clear[c] = float64(int32(math.Float32bits(v)))
			default:
				clear[c] = float64(v)
			}
		}
		dw.Clear = append(dw.Clear, clear)
	}
	job := harness.Dispatch{Target: [2]uint32{uint32(w), uint32(h)}, Attachments: formats, Entry: true, Draw: dw}
	for _, bd := range s.binds {
		p := strings.Fields(bd)
		g, _ := strconv.Atoi(p[2])
		b, _ := strconv.Atoi(p[3])
		kind := harness.BindingReadOnly
		if p[1] == "uniform" {
			kind = harness.BindingUniform
		}
		job.Buffers = append(job.Buffers, harness.BufferBinding{Group: uint32(g), Binding: uint32(b), Kind: kind, Data: wordsBytes(s.bufWords[p[0]], 4)})
	}
	k := harness.Kernel{SPIRV: words["fragment"], EntryPoint: s.entries["fragment"], VertexSPIRV: words["vertex"], VertexEntryPoint: s.entries["vertex"],
		Stage: harness.FragmentStage, Label: "amber-draw-test"}
	out, err := lavapipe(t).Run(context.Background(), k, job)
	require.NoError(t, err)
	texels := map[string][]byte{}
	at := 0
	for i, l := range locs {
		n := w * h * formats[i].TexelSize()
		require.LessOrEqual(t, at+n, len(out))
		texels[s.colors[l]] = out[at : at+n]
		at += n
	}
	require.Equal(t, len(out), at)

	covered = map[string]map[int]bool{}
	for _, e := range s.expects {
		vk := s.bufType[e.buf]
		require.NotEmpty(t, vk, "EXPECT on a colour attachment: %s", e.line)
		n, bits, kind := vulkanChannels(t, vk)
		cb := bits / 8
		size := n * cb
		data := texels[e.buf]
		if covered[e.buf] == nil {
			covered[e.buf] = map[int]bool{}
		}
		ok := true
		if e.rect {
			require.Equal(t, "R8G8B8A8_UNORM", vk)
			require.LessOrEqual(t, e.x+e.w, w)
			require.LessOrEqual(t, e.y+e.h, h)
			for y := e.y; y < e.y+e.h; y++ {
				for x := e.x; x < e.x+e.w; x++ {
					covered[e.buf][y*w+x] = true
					for c, v := range e.values {
						want, err := strconv.Atoi(v)
						require.NoError(t, err)
						got := float64(data[(y*w+x)*4+c]) / 255
						ok = ok && math.Abs(got-float64(float32(want)/255)) <= 0.002
					}
				}
			}
		} else {
			require.Zero(t, e.off%size, "%s: IDX a multiple of the texel size", e.line)
			require.LessOrEqual(t, e.off+len(e.values)*cb, len(data), "%s: within the buffer", e.line)
			for k, v := range e.values {
				covered[e.buf][(e.off+k*cb)/size] = true
				x := binary.LittleEndian.Uint32(append(append([]byte(nil), data[e.off+k*cb:e.off+(k+1)*cb]...), 0, 0, 0)[:4])
				var got, want float64
				switch kind {
				case "SFLOAT":
					require.Contains(t, v, ".", "a float value needs a '.'")
					got = float64(math.Float32frombits(x))
					p, err := strconv.ParseFloat(v, 64)
					require.NoError(t, err)
					want = float64(float32(p)) // Amber compares as the channel's type
				case "SINT":
					got = float64(int32(x))
					p, err := strconv.ParseInt(v, 10, 32)
					require.NoError(t, err)
					want = float64(p)
				default:
					got = float64(x)
					p, err := strconv.ParseUint(v, 10, 32)
					require.NoError(t, err)
					want = float64(p)
				}
				switch {
				case e.cmp == "EQ" && kind == "SFLOAT":
					ok = ok && math.Abs(got-want) <= 1e-8*math.Abs(want)
				case e.cmp == "EQ":
					ok = ok && got == want
				case e.cmp == "GE":
					ok = ok && got >= want
				case e.cmp == "LE":
					ok = ok && got <= want
				default:
					t.Fatalf("comparator %s", e.cmp)
				}
			}
		}
		if !ok {
			failed = append(failed, e.line)
		}
	}
	return failed, covered
}

// drawTestCase is a draw of src's vs and fs with the given buffers (the
// shape check/draw_test.go's drawCase builds).
func drawTestCase(t *testing.T, src string, dw *harness.Draw, inputs []testcase.VertexInput, size [2]uint32) *testcase.Case {
	t.Helper()
	m, err := wgsl.Parse("draw.wgsl", []byte(src))
	require.NoError(t, err)
	return &testcase.Case{Kind: testcase.KindDraw, Module: m, Func: m.Func("fs"), VertexModule: m, Vertex: m.Func("vs"), Draw: dw, VertexInputs: inputs, Size: size}
}

func f32Words(xs ...float32) []byte {
	var out []byte
	for _, x := range xs {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(x))
	}
	return out
}

// halfTargetSrc draws check/draw_test.go's halfTarget: one triangle over
// the lower-left half of an 8×8 target, clip (−1, −1), (1, −1), (−1, 1)
// being framebuffer (0, 8), (8, 8), (0, 0) (WebGPU #coordinate-systems:
// y down), its edges the target's left and bottom sides and the diagonal
// y = x; every vertex passes c, the fragment writes (c, 1 − c, 0, 1).
const halfTargetSrc = `struct Out {
  @builtin(position) pos: vec4<f32>,
  @location(0) c: f32,
}

@vertex fn vs(@location(0) p: vec2<f32>, @location(1) c: f32) -> Out {
  return Out(vec4<f32>(p, 0.5, 1.0), c);
}

@fragment fn fs(@location(0) c: f32) -> @location(0) vec4<f32> {
  return vec4<f32>(c, 1.0 - c, 0.0, 1.0);
}
`

func halfTargetDraw(t *testing.T, src string, c float32) *testcase.Case {
	pos := [][2]float32{{-1, -1}, {1, -1}, {-1, 1}}
	var data []byte
	var ps, cs []ir.Value
	for _, p := range pos {
		data = append(data, f32Words(p[0], p[1], c)...)
		ps = append(ps, ir.CompositeVal(ir.Vec(2, ir.F32), ir.F32Val(p[0]), ir.F32Val(p[1])))
		cs = append(cs, ir.F32Val(c))
	}
	return drawTestCase(t, src, &harness.Draw{Count: 3, VertexBuffers: []harness.VertexBuffer{{Data: data, Stride: 12, Attributes: []harness.VertexAttribute{
		{Format: "float32x2", Offset: 0, ShaderLocation: 0}, {Format: "float32", Offset: 8, ShaderLocation: 1}}}}},
		[]testcase.VertexInput{
			{Name: "p", Path: []int{0}, Location: 0, Format: "float32x2", StepMode: "vertex", Values: ps},
			{Name: "c", Path: []int{1}, Location: 1, Format: "float32", StepMode: "vertex", Values: cs},
		}, [2]uint32{8, 8})
}

// expectsAt are the EXPECT lines whose values cover pixel p of buf.
func expectsAt(s *drawScript, buf string, w, p, texel int) []drawExpect {
	var out []drawExpect
	for _, e := range s.expects {
		if e.buf != buf {
			continue
		}
		x, y := p%w, p/w
		if e.rect && x >= e.x && x < e.x+e.w && y >= e.y && y < e.y+e.h ||
			!e.rect && p*texel >= e.off && p*texel < e.off+len(e.values)*texel/4 {
			out = append(out, e)
		}
	}
	return out
}

// valuesAt are pixel p's four values in EXPECT e (a row of texels).
func valuesAt(e drawExpect, p, texel int) []string {
	if e.rect {
		return e.values
	}
	k := (p*texel - e.off) / 4
	return e.values[k : k+4]
}

// The script of the half-target draw (rgba32float, c = 0.25), against
// the hand derivation: a pixel below the diagonal (y > x) is the colour
// (0.25, 0.75, 0, 1) — within the reference's interpolation bound, so a
// GE and an LE line around it, under 1e-6 wide —; one above it (y < x)
// the clear value, EQ 0 0 0 0; one on it (y = x: a centre on the edge,
// where WebGPU defines no fill rule) either, a set that is no interval,
// so no EXPECT and a comment. And every EXPECT holds on lavapipe.
func TestExportDrawHalfTarget(t *testing.T) {
	c := halfTargetDraw(t, halfTargetSrc, 0.25)
	sc, err := ExportDraw(c, Options{Tool: "test"})
	require.NoError(t, err)
	s := parseDrawScript(t, sc.Text)
	assert.Equal(t, "vs", s.entries["vertex"])
	assert.Equal(t, "fs", s.entries["fragment"])
	assert.Equal(t, "R32G32B32A32_SFLOAT", s.bufType["target"])
	assert.Equal(t, "target", s.colors[0])
	assert.Equal(t, "RUN pipeline DRAW_ARRAY AS TRIANGLE_LIST START_IDX 0 COUNT 3 START_INSTANCE 0 INSTANCE_COUNT 1", s.run)
	assert.Equal(t, [4]int{0, 0, 0, 0}, s.clear)
	require.Len(t, s.vertex, 2)
	assert.Equal(t, drawVertexData{buf: "vertex_buffer_0", format: "R32G32_SFLOAT", location: 0, rate: "vertex", offset: 0, stride: 12, strideGiven: true}, s.vertex[0])
	assert.Equal(t, drawVertexData{buf: "vertex_buffer_0", format: "R32_SFLOAT", location: 1, rate: "vertex", offset: 8, stride: 12, strideGiven: true}, s.vertex[1])
	assert.Equal(t, []uint64{0xbf800000, 0xbf800000, 0x3e800000, 0x3f800000, 0xbf800000, 0x3e800000, 0xbf800000, 0x3f800000, 0x3e800000}, s.bufWords["vertex_buffer_0"],
		"the vertex buffer's words: (−1, −1, 0.25), (1, −1, 0.25), (−1, 1, 0.25)")
	colour := []float64{0.25, 0.75, 0, 1}
	for p := 0; p < 64; p++ {
		x, y := p%8, p/8
		es := expectsAt(s, "target", 8, p, 16)
		switch {
		case y > x:
			require.Len(t, es, 2, "pixel (%d, %d) inside: a GE and an LE line", x, y)
			for k, e := range es {
				for ch, v := range valuesAt(e, p, 16) {
					f, err := strconv.ParseFloat(v, 64)
					require.NoError(t, err)
					assert.Equal(t, []string{"GE", "LE"}[k], e.cmp)
					assert.InDelta(t, colour[ch], f, 1e-6, "pixel (%d, %d) channel %d", x, y, ch)
					if k == 0 {
						assert.LessOrEqual(t, f, colour[ch], "GE at most the colour")
					} else {
						assert.GreaterOrEqual(t, f, colour[ch], "LE at least the colour")
					}
				}
			}
		case y < x:
			require.Len(t, es, 1, "pixel (%d, %d) outside: one EQ", x, y)
			assert.Equal(t, "EQ", es[0].cmp)
			assert.Equal(t, []string{"0.0", "0.0", "0.0", "0.0"}, valuesAt(es[0], p, 16), "pixel (%d, %d) keeps the clear value", x, y)
		default:
			// On the diagonal the clear value or the colour: Amber has no
			// "one of", so a GE and an LE line bound each channel by the
			// hull of the two (r in [0, 0.25], g [0, 0.75], b 0, a [0, 1]).
			require.Len(t, es, 2, "pixel (%d, %d) on the diagonal: the hull of its set", x, y)
			for k, e := range es {
				assert.Equal(t, []string{"GE", "LE"}[k], e.cmp)
				for ch, v := range valuesAt(e, p, 16) {
					f, err := strconv.ParseFloat(v, 64)
					require.NoError(t, err)
					want := []float64{0, colour[ch]}[k]
					if ch == 2 {
						want = 0
					}
					assert.InDelta(t, want, f, 1e-6, "pixel (%d, %d) channel %d", x, y, ch)
				}
			}
		}
	}
	assert.Equal(t, 0, sc.Unchecked, "every channel bounded")
	assert.Equal(t, 64*4, sc.Checked)
	failed, covered := runDrawScript(t, sc)
	assert.Empty(t, failed, "every EXPECT holds on lavapipe")
	assert.Len(t, covered["target"], 64)
}

// The same draw into rgba8unorm with a constant colour (1, 0, 0, 1):
// codes (255, 0, 0, 255) inside (EQ_RGBA), the clear value's (0, 0, 0, 0)
// outside; on the diagonal the reference is one of the two codes per
// channel, which Amber's GE and LE lines on the codes bound by their hull. Original and
// twin hold on lavapipe.
func TestExportDrawRGBA8Unorm(t *testing.T) {
	src := `@vertex fn vs(@location(0) p: vec2<f32>, @location(1) c: f32) -> @builtin(position) vec4<f32> {
  return vec4<f32>(p, 0.5, 1.0);
}

@fragment fn fs() -> @location(0) vec4<f32> {
  return vec4<f32>(1.0, 0.0, 0.0, 1.0);
}
`
	for _, flat := range []bool{false, true} {
		c := halfTargetDraw(t, src, 0)
		c.Attachments = []harness.AttachmentFormat{harness.RGBA8Unorm}
		sc, err := ExportDraw(c, Options{Flat: flat})
		require.NoError(t, err)
		s := parseDrawScript(t, sc.Text)
		assert.Equal(t, "R8G8B8A8_UNORM", s.bufType["target"])
		if flat {
			assert.NotEqual(t, "fs", s.entries["fragment"], "the twin's entry point")
		}
		for p := 0; p < 64; p++ {
			x, y := p%8, p/8
			es := expectsAt(s, "target", 8, p, 4)
			switch {
			case y > x:
				require.Len(t, es, 1, "pixel (%d, %d)", x, y)
				assert.Equal(t, "EQ_RGBA", es[0].cmp)
				assert.Equal(t, []string{"255", "0", "0", "255"}, es[0].values)
			case y < x:
				require.Len(t, es, 1, "pixel (%d, %d)", x, y)
				assert.Equal(t, "EQ_RGBA", es[0].cmp)
				assert.Equal(t, []string{"0", "0", "0", "0"}, es[0].values)
			default:
				require.Len(t, es, 2, "pixel (%d, %d)", x, y)
				assert.Equal(t, "GE", es[0].cmp)
				assert.Equal(t, []string{"0", "0", "0", "0"}, valuesAt(es[0], p, 4))
				assert.Equal(t, "LE", es[1].cmp)
				assert.Equal(t, []string{"255", "0", "0", "255"}, valuesAt(es[1], p, 4))
			}
		}
		failed, covered := runDrawScript(t, sc)
		assert.Empty(t, failed, "flat=%v", flat)
		assert.Len(t, covered["target"], 64)
	}
}

// An indexed draw (uint16 indices from firstIndex 1, baseVertex 1), two
// instances with a per-instance attribute, a uniform buffer, a flat u32
// varying into rgba32uint, a clear value of 0: the index data has
// baseVertex added (Amber's INDEXED draw passes START_IDX as the vertex
// offset), the instance attribute's RATE is instance, the uniform is
// bound at its group and binding, and every EXPECT holds on lavapipe.
func TestExportDrawIndexedInstanced(t *testing.T) {
	src := `struct U { offset: vec4<f32> }
@group(0) @binding(0) var<uniform> u: U;

struct VOut {
  @builtin(position) pos: vec4<f32>,
  @location(0) @interpolate(flat) id: u32,
}

@vertex fn vs(@location(0) p: vec2<f32>, @location(1) shift: f32, @builtin(instance_index) inst: u32) -> VOut {
  return VOut(vec4<f32>(p.x + shift + u.offset.x, p.y + u.offset.y, 0.5, 1.0), inst + 10u);
}

@fragment fn fs(@location(0) @interpolate(flat) id: u32) -> @location(0) vec4<u32> {
  return vec4<u32>(id, 7u, 0u, 1u);
}
`
	// Vertex 0 is never fetched; 1, 2, 3 are the left half's triangle
	// (−1, −1), (0, −1), (−1, 1) moved down by the uniform's 0.25.
	verts := [][2]float32{{9, 9}, {-1, -1}, {0, -1}, {-1, 1}}
	var vdata []byte
	var ps []ir.Value
	for _, v := range verts {
		vdata = append(vdata, f32Words(v[0], v[1])...)
		ps = append(ps, ir.CompositeVal(ir.Vec(2, ir.F32), ir.F32Val(v[0]), ir.F32Val(v[1])))
	}
	shifts := []float32{0, 1}
	var idx []byte
	for _, i := range []uint16{7, 0, 1, 2} { // firstIndex 1 skips the 7
		idx = binary.LittleEndian.AppendUint16(idx, i)
	}
	dw := &harness.Draw{Count: 3, FirstIndex: 1, BaseVertex: 1, InstanceCount: 2, Index: &harness.IndexBuffer{Format: "uint16", Data: idx},
		VertexBuffers: []harness.VertexBuffer{
			{Data: vdata, Stride: 8, Attributes: []harness.VertexAttribute{{Format: "float32x2", ShaderLocation: 0}}},
			{Data: f32Words(shifts...), Stride: 4, StepMode: "instance", Attributes: []harness.VertexAttribute{{Format: "float32", ShaderLocation: 1}}}}}
	c := drawTestCase(t, src, dw, []testcase.VertexInput{
		{Name: "p", Path: []int{0}, Location: 0, Format: "float32x2", StepMode: "vertex", Values: ps},
		{Name: "shift", Path: []int{1}, Location: 1, Format: "float32", StepMode: "instance", Values: []ir.Value{ir.F32Val(0), ir.F32Val(1)}},
	}, [2]uint32{8, 8})
	var ut *ir.Type
	for _, v := range c.Module.SharedUsed("vs") {
		if v.Name == "u" {
			ut = v.T
		}
	}
	require.NotNil(t, ut)
	c.Bindings = map[string]ir.Buffer{"u": {Type: ut, Bytes: f32Words(0, -0.25, 0, 0)}}
	sc, err := ExportDraw(c, Options{})
	require.NoError(t, err)
	s := parseDrawScript(t, sc.Text)
	assert.Equal(t, "uint16", s.bufType["index_buffer"])
	assert.Equal(t, []uint64{1, 2, 3}, s.bufWords["index_buffer"], "indices 0, 1, 2 from firstIndex 1, plus baseVertex 1")
	assert.Equal(t, "RUN pipeline DRAW_ARRAY AS TRIANGLE_LIST INDEXED START_IDX 0 COUNT 3 START_INSTANCE 0 INSTANCE_COUNT 2", s.run)
	require.Len(t, s.vertex, 2)
	assert.Equal(t, "instance", s.vertex[1].rate)
	assert.Equal(t, []string{"buf_u uniform 0 0"}, s.binds)
	assert.Equal(t, "R32G32B32A32_UINT", s.bufType["target"])
	// Pixel (1, 6) is inside the first instance's triangle (framebuffer
	// (0, 1), (4, 1)… moved down 1 px: (0, 9), (4, 9), (0, 1)), instance
	// 0: id 10; pixel (5, 6) the second's (4 px right): id 11; pixel
	// (6, 0) neither: the clear value.
	for _, pc := range []struct {
		p    int
		want []string
	}{{6*8 + 1, []string{"10", "7", "0", "1"}}, {6*8 + 5, []string{"11", "7", "0", "1"}}, {6, []string{"0", "0", "0", "0"}}} {
		es := expectsAt(s, "target", 8, pc.p, 16)
		require.Len(t, es, 1, "pixel %d", pc.p)
		assert.Equal(t, "EQ", es[0].cmp)
		assert.Equal(t, pc.want, valuesAt(es[0], pc.p, 16), "pixel %d", pc.p)
	}
	failed, _ := runDrawScript(t, sc)
	assert.Empty(t, failed)
}

// A draw without vertex buffers (positions from vertex_index, as wgpu's
// hello_triangle) gets Amber's unused R32_UINT attribute at a location the
// vertex stage does not read, and a stride-0 attribute (every vertex reads
// element 0, which Amber's STRIDE refuses) is its element repeated; both
// hold on lavapipe.
func TestExportDrawWithoutVertexBuffersAndStrideZero(t *testing.T) {
	src := `@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
  let x = f32(i32(i) - 1);
  let y = f32(i32(i & 1u) * 2 - 1);
  return vec4<f32>(x, y, 0.0, 1.0);
}

@fragment fn fs() -> @location(0) f32 {
  return 0.5;
}
`
	c := drawTestCase(t, src, &harness.Draw{Count: 3}, nil, [2]uint32{4, 4})
	sc, err := ExportDraw(c, Options{})
	require.NoError(t, err)
	s := parseDrawScript(t, sc.Text)
	require.Len(t, s.vertex, 1)
	assert.Equal(t, drawVertexData{buf: "vertex_count", format: "R32_UINT", location: 0, rate: "vertex"}, s.vertex[0])
	assert.Equal(t, 3, s.bufFill["vertex_count"])
	assert.Equal(t, "R32_SFLOAT", s.bufType["target"])
	failed, _ := runDrawScript(t, sc)
	assert.Empty(t, failed)

	src2 := `struct VOut {
  @builtin(position) pos: vec4<f32>,
  @location(0) col: vec4<f32>,
}

@vertex fn vs(@builtin(vertex_index) i: u32, @location(2) col: vec4<f32>) -> VOut {
  return VOut(vec4<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.0, 1.0), col);
}

@fragment fn fs(@location(0) col: vec4<f32>) -> @location(0) vec4<f32> {
  return col;
}
`
	colour := ir.CompositeVal(ir.Vec(4, ir.F32), ir.F32Val(1), ir.F32Val(float32(128)/255), ir.F32Val(0), ir.F32Val(1))
	c = drawTestCase(t, src2, &harness.Draw{Count: 3, VertexBuffers: []harness.VertexBuffer{{Data: []byte{255, 128, 0, 255}, Stride: 0,
		Attributes: []harness.VertexAttribute{{Format: "unorm8x4", ShaderLocation: 2}}}}},
		[]testcase.VertexInput{{Name: "col", Path: []int{1}, Location: 2, Format: "unorm8x4", StepMode: "vertex", Values: []ir.Value{colour, colour, colour}}}, [2]uint32{4, 4})
	c.Attachments = []harness.AttachmentFormat{harness.RGBA8Unorm}
	sc, err = ExportDraw(c, Options{})
	require.NoError(t, err)
	s = parseDrawScript(t, sc.Text)
	require.Len(t, s.vertex, 1)
	assert.Equal(t, drawVertexData{buf: "vertex_buffer_0", format: "R8G8B8A8_UNORM", location: 2, rate: "vertex", offset: 0, stride: 4, strideGiven: true}, s.vertex[0])
	assert.Equal(t, []uint64{0xff0080ff, 0xff0080ff, 0xff0080ff}, s.bufWords["vertex_buffer_0"], "element 0 once per vertex fetched")
	failed, covered := runDrawScript(t, sc)
	assert.Empty(t, failed)
	assert.Len(t, covered["target"], 16, "the triangle covers the whole target, no pixel on an edge")
}

// What AmberScript cannot state is refused, and a clear value it can
// state is found: 1.0 in rgba8unorm is code 255.
func TestExportDrawRefusals(t *testing.T) {
	c := halfTargetDraw(t, halfTargetSrc, 0.25)
	c.Draw.CullMode = "back"
	_, err := ExportDraw(c, Options{})
	assert.ErrorContains(t, err, "AmberScript sets no cull mode")

	c = halfTargetDraw(t, halfTargetSrc, 0.25)
	c.Draw.Clear = [][4]float64{{0.5, 0, 0, 0}}
	_, err = ExportDraw(c, Options{})
	assert.ErrorContains(t, err, "cannot be one Amber CLEAR_COLOR", "0.5 is no k/255 in float32")

	cc, err := clearColor(&harness.Draw{Clear: [][4]float64{{1, 0, 0.2, 1}}}, []harness.AttachmentFormat{harness.RGBA8Unorm})
	require.NoError(t, err)
	assert.Equal(t, 255, cc.k[0])
	assert.Equal(t, 51, cc.k[2], "0.2·255 = 51")
	cc, err = clearColor(&harness.Draw{Clear: [][4]float64{{1}}}, []harness.AttachmentFormat{harness.R32Float})
	require.NoError(t, err)
	assert.Equal(t, [4]int{255, 0, 0, 0}, cc.k, "r32float 1.0 = 255/255; the other channels are no attachment's")

	var idx []byte
	for _, i := range []uint16{0, 1, 2, 0xFFFF, 0, 1, 2} {
		idx = binary.LittleEndian.AppendUint16(idx, i)
	}
	_, _, err = drawIndices(&harness.Draw{Count: 7, Topology: "triangle-strip", Index: &harness.IndexBuffer{Format: "uint16", Data: idx}})
	assert.ErrorContains(t, err, "primitive-restart")
	fetched, indices, err := drawIndices(&harness.Draw{Count: 7, BaseVertex: -1, Index: &harness.IndexBuffer{Format: "uint16", Data: idx}})
	require.NoError(t, err, "a list has no restart")
	assert.Equal(t, []uint32{0xFFFFFFFF, 0, 1, 0xFFFE, 0xFFFFFFFF, 0, 1}, indices, "index + baseVertex −1 (0 − 1 wraps: CheckDraw refuses such a draw before it runs)")
	assert.Equal(t, indices, fetched)
}

// vkVertexFormat names the Vulkan format of each GPUVertexFormat (WebGPU
// #vertex-formats against Vulkan's format names).
func TestVkVertexFormat(t *testing.T) {
	for wgpu, vk := range map[string]string{"float32x3": "R32G32B32_SFLOAT", "uint8x2": "R8G8_UINT", "sint16x4": "R16G16B16A16_SINT",
		"unorm8x4": "R8G8B8A8_UNORM", "snorm16": "R16_SNORM", "float16x2": "R16G16_SFLOAT", "uint32": "R32_UINT",
		"unorm10-10-10-2": "A2B10G10R10_UNORM_PACK32", "unorm8x4-bgra": "B8G8R8A8_UNORM"} {
		got, ok := vkVertexFormat(wgpu)
		assert.True(t, ok, wgpu)
		assert.Equal(t, vk, got, wgpu)
	}
	for _, f := range harness.VertexFormats() {
		vk, ok := vkVertexFormat(f)
		require.True(t, ok, f)
		assert.Equal(t, f, webgpuVertexFormat(t, vk), "%s round-trips through %s", f, vk)
	}
	_, ok := vkVertexFormat("float64")
	assert.False(t, ok)
}
