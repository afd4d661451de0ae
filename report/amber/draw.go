package amber

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// Draw cases (testcase.KindDraw, issue 39 Deliver 5) as a graphics
// pipeline (Amber's docs/amber_script.md "Pipelines", "Run a pipeline",
// "Expectations"; what each line relies on was read in Amber's
// src/amberscript/parser.cc, src/vulkan/graphics_pipeline.cc,
// vertex_buffer.cc and src/verifier.cc):
//
//   - two SHADERs, SHADER vertex and SHADER fragment, each gpudiff's
//     SPIR-V of its stage as check draws it (the fragment stage with
//     spirv.DiscardKill) in SPIR-V assembly, ATTACHed under the entry
//     points' own names;
//   - FRAMEBUFFER_SIZE, and VIEWPORT 0 H SIZE W −H: gpudiff's SPIR-V keeps
//     WebGPU's clip space (compiler/spirv/render.go), whose y points up
//     with framebuffer row 0 at y = +1, and leaves the y flip to the
//     WebGPU implementation, as wgpu and Dawn do it on Vulkan, with a
//     negative viewport height (VK_KHR_maintenance1, core in Vulkan 1.1):
//     y_f = H − (y + 1)·H/2, so the script's framebuffer is pixel for
//     pixel WebGPU's, FragCoord too, and Vulkan's counter-clockwise (the
//     sign of the framebuffer area) is WebGPU's ccw;
//   - each vertex attribute a VERTEX_DATA line (Amber gives every line a
//     binding of its own over its BUFFER's bytes: the slot's buffer as
//     uint32 words, zero-padded, its step mode as RATE, the attribute's
//     Vulkan FORMAT, OFFSET and the slot's STRIDE). A stride of 0 (every
//     vertex reads element 0), which Amber refuses, is the element
//     repeated once per element the draw fetches;
//   - an indexed draw's indices from firstIndex on as INDEX_DATA (uint16
//     or uint32), with baseVertex added to each: Amber's DRAW_ARRAY
//     INDEXED passes START_IDX as vkCmdDrawIndexed's vertexOffset and
//     always 0 as its firstIndex, and checks START_IDX + COUNT against
//     the index count, so baseVertex cannot travel as START_IDX;
//   - each colour attachment a BUFFER of its Vulkan FORMAT bound AS color
//     at its @location; the uniform and read-only storage buffers of
//     both stages AS uniform or storage at their group and binding, each
//     binding once; textures and samplers as IMAGEs and SAMPLERs
//     (texture.go);
//   - CLEAR_COLOR and CLEAR: Amber's one clear colour of 8-bit values
//     k/255 (a float in every attachment's VkClearColorValue), so a clear
//     value it cannot state — k/255 in a float format, the float's bits
//     in an integer one — is refused;
//   - RUN … DRAW_ARRAY AS TRIANGLE_LIST or TRIANGLE_STRIP [INDEXED]
//     START_IDX COUNT START_INSTANCE INSTANCE_COUNT. Amber needs a vertex
//     buffer for DRAW_ARRAY and checks START_IDX + COUNT against the first
//     one's element count: a draw without vertex buffers, or whose first
//     buffer has too few words, gets an unused R32_UINT attribute at the
//     lowest location the vertex stage does not read.
//
// Expectations, one per pixel of each attachment (a row's run of equal
// exact pixels shares a line), from the reference (check.Execute, no
// device): rgba8unorm with EXPECT … IDX x y SIZE n 1 EQ_RGBA (codes;
// Amber's default texel tolerance 0.002 is under half a code); the other
// formats with EXPECT … IDX byte-offset EQ values (a FORMAT buffer's
// ProbeSSBO: rows are tight, width × texel bytes). A pixel whose channels
// are each an interval — a float within its bound, rounded outward to
// float32 so that Amber's float comparison keeps every allowed value, an
// rgba8unorm channel's codes either side of v·255, any code — gets a GE
// and an LE line (Amber compares each value with its own channel); one
// with a channel the reference leaves a set that is not an interval
// (an edge pixel's clear value or colour) or any float value (NaN
// compares false) gets no EXPECT and a comment saying why.
//
// Refused, since AmberScript cannot state them: a cull mode other than
// none (AmberScript sets no cull mode, only VkScript does), front face cw
// where the fragment stage reads front_facing, an indexed strip holding
// the primitive-restart value (AmberScript enables no primitive restart).

// Names in an exported draw script.
const (
	VertexShaderName   = "vertex_shader"
	FragmentShaderName = "fragment_shader"
)

// ExportDraw writes the Amber script of a draw case c (the file comment
// above): gpudiff's SPIR-V of both stages (Flat: of their twins, both
// entry points flattened), the draw and its buffers, and an EXPECT per
// pixel of each colour attachment from the reference. Errors: the
// reference's (check.Execute's setup errors, positioned), flatten's, the
// emitter's, and what the file comment says Amber cannot state.
func ExportDraw(c *testcase.Case, opts Options) (*Script, error) {
	if c.Kind != testcase.KindDraw || c.Vertex == nil || c.Draw == nil {
		return nil, fmt.Errorf("amber: not a draw case (testcase.KindDraw with its vertex entry point and draw)")
	}
	mode := opts.Mode
	if mode == "" {
		mode = wgsl.Portable
	}
	dis := opts.Disassemble
	if dis.Run == nil {
		dis = DefaultDisassembler()
	}
	dw := c.Draw
	vmod, fmod := c.VertexModuleOrModule(), c.Module
	if err := refuseDraw(c, vmod, fmod); err != nil {
		return nil, err
	}
	ref, err := check.Execute(context.Background(), c, check.Options{Mode: mode})
	if err != nil {
		return nil, err
	}
	vs, fs := c.Vertex.Name, c.Func.Name
	if opts.Flat {
		tv := ir.CloneModule(vmod)
		tf := tv
		if vmod != fmod {
			tf = ir.CloneModule(fmod)
		}
		vt, err := flatten.Function(tv, vs, opts.Flatten)
		if err != nil {
			return nil, err
		}
		ft, err := flatten.Function(tf, fs, opts.Flatten)
		if err != nil {
			return nil, err
		}
		vmod, fmod, vs, fs = tv, tf, vt.Name, ft.Name
	}
	vasm, err := assemblyWith(vmod, vs, spirv.Options{Mode: mode}, dis)
	if err != nil {
		return nil, err
	}
	fasm, err := assemblyWith(fmod, fs, spirv.Options{Mode: mode, Discard: spirv.DiscardKill}, dis)
	if err != nil {
		return nil, err
	}
	outs := wgsl.FragmentOutputs(c.Func)
	formats, err := drawFormats(c, outs)
	if err != nil {
		return nil, err
	}
	clear, err := clearColor(dw, formats)
	if err != nil {
		return nil, err
	}
	w, h := int(c.Size[0]), int(c.Size[1])
	s := &Script{Function: fs, Vertex: vs, Disassembler: dis.Name, Invocations: w * h}

	var b strings.Builder
	what := fmt.Sprintf("draw of vertex entry point %s and fragment entry point %s", vs, fs)
	if opts.Flat {
		what += fmt.Sprintf(" (the flattened twins of %s and %s)", c.Vertex.Name, c.Func.Name)
	}
	what += fmt.Sprintf(", %d×%d target", w, h)
	writeScriptHeader(&b, opts, c.Func.Name, what, s, mode, c.Module,
		"# The shaders: both stages as written (the fragment stage's discard as OpKill after a demotion flag),\n"+
			"# drawn as WebGPU draws them (the draw's buffers, counts and target; y flipped by the viewport as wgpu and Dawn flip it).\n")
	if c.TwoModules() {
		b.WriteString("# WGSL source of the vertex stage (" + vmod.File + "):\n")
		for _, l := range strings.Split(strings.TrimRight(string(c.VertexSource), "\n"), "\n") {
			b.WriteString("#   " + l + "\n")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "SHADER vertex %s SPIRV-ASM TARGET_ENV %s\n%s\nEND\n\n", VertexShaderName, TargetEnv, strings.TrimRight(vasm, "\n"))
	fmt.Fprintf(&b, "SHADER fragment %s SPIRV-ASM TARGET_ENV %s\n%s\nEND\n\n", FragmentShaderName, TargetEnv, strings.TrimRight(fasm, "\n"))

	var pipe strings.Builder // the PIPELINE's lines after ATTACH
	fmt.Fprintf(&pipe, "  FRAMEBUFFER_SIZE %d %d\n", w, h)
	fmt.Fprintf(&pipe, "  # WebGPU's y flip (framebuffer row 0 at clip y = +1), as wgpu and Dawn make it on Vulkan\n")
	fmt.Fprintf(&pipe, "  VIEWPORT 0.0 %s SIZE %s %s\n", formatDecimal(float64(h), 32), formatDecimal(float64(w), 32), formatDecimal(-float64(h), 32))

	lists, indices, err := drawIndices(dw)
	if err != nil {
		return nil, err
	}
	if err := writeVertexData(&b, &pipe, c, vmod, vs, lists, indices); err != nil {
		return nil, err
	}
	if dw.Index != nil {
		writeIndexData(&b, &pipe, dw, indices)
	}
	names := make([]string, len(outs))
	for i, o := range outs {
		names[i] = "target"
		if o.Member >= 0 {
			names[i] += "_" + o.Name
		}
		vk, _ := amberFormat(string(formats[i]))
		fmt.Fprintf(&b, "# %s: colour attachment @location(%d) (%s %s: %v), %s\n", names[i], o.Location, fs, o.Name, o.T, formats[i])
		fmt.Fprintf(&b, "BUFFER %s FORMAT %s\n", names[i], vk)
		fmt.Fprintf(&pipe, "  BIND BUFFER %s AS color LOCATION %d\n", names[i], o.Location)
	}
	if err := writeDrawBindings(&b, &pipe, c, []*ir.Module{c.VertexModuleOrModule(), c.Module}, []string{c.Vertex.Name, c.Func.Name}); err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "\nPIPELINE graphics %s\n  ATTACH %s ENTRY_POINT %s\n  ATTACH %s ENTRY_POINT %s\n%sEND\n\n", PipelineName, VertexShaderName, vs, FragmentShaderName, fs, pipe.String())
	fmt.Fprintf(&b, "# clear value: %s\n", clear.comment)
	fmt.Fprintf(&b, "CLEAR_COLOR %s %d %d %d %d\nCLEAR %s\n", PipelineName, clear.k[0], clear.k[1], clear.k[2], clear.k[3], PipelineName)
	writeRun(&b, dw, indices)

	b.WriteString("\n# Expected values: gpudiff's reference pipeline (check/draw.go: WGSL's and WebGPU's rules, every pixel exact,\n")
	b.WriteString("# within its bound or an allowed set); pixel (x, y) is WebGPU's, row 0 the top row.\n")
	for i := range outs {
		writeAttachmentExpects(&b, names[i], formats[i], ref, i, w, h, s)
	}
	s.Text = b.String()
	return s, nil
}

// refuseDraw refuses, positioned at the entry point, what AmberScript
// cannot state of c's draw (the file comment).
func refuseDraw(c *testcase.Case, vmod, fmod *ir.Module) error {
	dw := c.Draw
	if dw.CullMode != "" && dw.CullMode != "none" {
		return ir.ErrorList{ir.Errorf(fmod.File, c.Func.Pos, "amber", "cull mode %q: AmberScript sets no cull mode (only VkScript does), so the script could not cull as the draw does", dw.CullMode)}
	}
	if dw.FrontFace == "cw" {
		for _, in := range wgsl.StageInputs(c.Func) {
			if in.Builtin == "front_facing" {
				return ir.ErrorList{ir.Errorf(fmod.File, in.Pos, "amber", "front face cw with @builtin(front_facing) read: AmberScript sets no front face (Vulkan's counter-clockwise), so the script's facing would differ")}
			}
		}
	}
	for k, m := range []*ir.Module{vmod, fmod} {
		entry := []string{c.Vertex.Name, c.Func.Name}[k]
		texs, _, err := testcase.CompleteTextures(m, entry, c.Textures, c.Samplers)
		if err != nil {
			return err
		}
		if err := refuseTexturesIn(m, entry, texs); err != nil {
			return err
		}
	}
	return nil
}

// drawFormats are the colour attachments' formats: the case's, else each
// output's 32-bit format.
func drawFormats(c *testcase.Case, outs []wgsl.FragmentOutput) ([]harness.AttachmentFormat, error) {
	if len(c.Attachments) > 0 {
		if len(c.Attachments) != len(outs) {
			return nil, fmt.Errorf("amber: %d attachment formats for %d fragment outputs", len(c.Attachments), len(outs))
		}
		return c.Attachments, nil
	}
	out := make([]harness.AttachmentFormat, len(outs))
	for i, o := range outs {
		var err error
		if out[i], err = check.FragmentAttachment(o.T); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// clearCodes is Amber's CLEAR_COLOR: per channel the code k (the clear
// colour k/255 as a float) and a comment.
type clearCodes struct {
	k       [4]int
	comment string
}

// clearColor finds, per channel, a code k whose float k/255 (Amber's
// ParseClearColor: AsFloat()/255.f) puts into every attachment what the
// draw's clear value puts there (harness.Draw.Clear, WebGPU's
// conversion: a float format the value's float32, an integer one its
// integer, rgba8unorm either code around v·255); an error where no code
// does.
func clearColor(dw *harness.Draw, formats []harness.AttachmentFormat) (clearCodes, error) {
	var cc clearCodes
	var parts []string
	for ch := 0; ch < 4; ch++ {
		found := false
		for k := 0; k <= 255 && !found; k++ {
			f := float32(k) / 255
			ok := true
			for i, format := range formats {
				if ch >= channelCount(format) {
					continue
				}
				c := 0.0
				if i < len(dw.Clear) {
					c = dw.Clear[i][ch]
				}
				_, _, kind, _, _ := testcase.TextureFormat(string(format))
				switch kind {
				case "unorm":
					x := math.Max(0, math.Min(1, c)) * 255
					ok = ok && float64(k) >= math.Floor(x) && float64(k) <= math.Ceil(x)
				case "float":
					ok = ok && f == float32(c)
				case "uint":
					ok = ok && math.Float32bits(f) == uint32(c)
				case "sint":
					ok = ok && int32(math.Float32bits(f)) == int32(c)
				}
			}
			if ok {
				cc.k[ch], found = k, true
			}
		}
		if !found {
			return cc, fmt.Errorf("amber: the draw's clear values (channel %d) cannot be one Amber CLEAR_COLOR: Amber clears every attachment with k/255 (k in 0–255) as a float, which is no float k/255 or integer the draw clears to", ch)
		}
	}
	for i, format := range formats {
		c := [4]float64{}
		if i < len(dw.Clear) {
			c = dw.Clear[i]
		}
		parts = append(parts, fmt.Sprintf("%s %v", format, c[:channelCount(format)]))
	}
	cc.comment = "the draw's " + strings.Join(parts, ", ") + " as Amber's k/255 per channel"
	return cc, nil
}

// channelCount is the number of channels of an attachment format.
func channelCount(f harness.AttachmentFormat) int {
	ch, _, _, _, _ := testcase.TextureFormat(string(f))
	return ch
}

// drawIndices are the vertex indices the draw fetches (check/draw.go's
// vertexLists: an indexed draw's indices from firstIndex on plus
// baseVertex) and, for an indexed draw, those indices in order. An
// indexed strip holding the restart value is refused.
func drawIndices(dw *harness.Draw) (fetched []uint32, indices []uint32, err error) {
	if dw.Index == nil {
		for k := uint32(0); k < dw.Count; k++ {
			fetched = append(fetched, dw.FirstVertex+k)
		}
		return fetched, nil, nil
	}
	size, restart := 4, uint32(0xFFFFFFFF)
	if dw.Index.Format == "uint16" {
		size, restart = 2, 0xFFFF
	}
	for k := uint32(0); k < dw.Count; k++ {
		at := int(dw.FirstIndex+k) * size
		if at+size > len(dw.Index.Data) {
			break
		}
		var idx uint32
		if size == 2 {
			idx = uint32(binary.LittleEndian.Uint16(dw.Index.Data[at:]))
		} else {
			idx = binary.LittleEndian.Uint32(dw.Index.Data[at:])
		}
		if dw.Topology == "triangle-strip" && idx == restart {
			return nil, nil, fmt.Errorf("amber: index %d of the strip is the primitive-restart value %#x: AmberScript enables no primitive restart, so the script could not draw the strip as WebGPU does", dw.FirstIndex+k, restart)
		}
		v := uint32(int64(idx) + int64(dw.BaseVertex))
		indices = append(indices, v)
		fetched = append(fetched, v)
	}
	return fetched, indices, nil
}

// vkVertexFormat is the Vulkan format of a GPUVertexFormat (WebGPU
// #vertex-formats; the names Amber's type parser reads).
func vkVertexFormat(f string) (string, bool) {
	switch f {
	case "unorm10-10-10-2":
		return "A2B10G10R10_UNORM_PACK32", true // r in bits 0–9, as WebGPU packs it
	case "unorm8x4-bgra":
		return "B8G8R8A8_UNORM", true
	}
	n := 1
	base := f
	if i := strings.IndexByte(f, 'x'); i >= 0 {
		var err error
		if n, err = strconv.Atoi(f[i+1:]); err != nil {
			return "", false
		}
		base = f[:i]
	}
	var kind, bits string
	for _, k := range []string{"uint", "sint", "unorm", "snorm", "float"} {
		if strings.HasPrefix(base, k) {
			kind, bits = k, base[len(k):]
		}
	}
	suffix := map[string]string{"uint": "UINT", "sint": "SINT", "unorm": "UNORM", "snorm": "SNORM", "float": "SFLOAT"}[kind]
	if suffix == "" || bits == "" || n < 1 || n > 4 || harness.VertexFormatSize(f) == 0 {
		return "", false
	}
	var b strings.Builder
	for _, c := range "RGBA"[:n] {
		b.WriteString(string(c) + bits)
	}
	return b.String() + "_" + suffix, true
}

// writeVertexData writes each vertex buffer slot as a BUFFER of words
// to b and each attribute's VERTEX_DATA line to pipe (the file comment).
func writeVertexData(b, pipe *strings.Builder, c *testcase.Case, vmod *ir.Module, vs string, fetched, indices []uint32) error {
	dw := c.Draw
	maxVertex := uint32(0)
	for _, v := range fetched {
		maxVertex = max(maxVertex, v)
	}
	instances := max(dw.InstanceCount, 1)
	used := map[uint32]bool{}
	firstWords := -1
	var lines []string
	for i, vb := range dw.VertexBuffers {
		for _, a := range vb.Attributes {
			used[a.ShaderLocation] = true
		}
		data, stride := vb.Data, vb.Stride
		instance := vb.StepMode == "instance"
		note := ""
		if stride == 0 && len(vb.Attributes) > 0 {
			// Every vertex (instance) reads element 0: repeat it once per
			// element the draw fetches.
			elem := uint64(0)
			for _, a := range vb.Attributes {
				elem = max(elem, a.Offset+uint64(harness.VertexFormatSize(a.Format)))
			}
			elem = (elem + 3) &^ 3
			n := uint64(maxVertex) + 1
			if instance {
				n = uint64(dw.FirstInstance) + uint64(instances)
			}
			one := make([]byte, elem)
			copy(one, data)
			data = nil
			for k := uint64(0); k < n; k++ {
				data = append(data, one...)
			}
			stride = elem
			note = fmt.Sprintf("; WebGPU's arrayStride 0 (every %s reads element 0), which Amber refuses, as element 0 repeated %d times with stride %d", map[bool]string{false: "vertex", true: "instance"}[instance], n, elem)
		}
		name := fmt.Sprintf("vertex_buffer_%d", i)
		step := "vertex"
		if instance {
			step = "instance"
		}
		words := writeWords(b, name, data, fmt.Sprintf("%s: vertex buffer slot %d, %d bytes, arrayStride %d, stepMode %s%s", name, i, len(vb.Data), vb.Stride, step, note))
		for _, a := range vb.Attributes {
			vk, ok := vkVertexFormat(a.Format)
			if !ok {
				return fmt.Errorf("amber: vertex attribute @location(%d): format %q has no Vulkan format here", a.ShaderLocation, a.Format)
			}
			lines = append(lines, fmt.Sprintf("  VERTEX_DATA %s LOCATION %d RATE %s FORMAT %s OFFSET %d STRIDE %d  # %s\n", name, a.ShaderLocation, step, vk, a.Offset, stride, a.Format))
			if firstWords < 0 {
				firstWords = words
			}
		}
	}
	if dw.Index == nil && dw.Count > 0 && (firstWords < 0 || firstWords < int(dw.FirstVertex+dw.Count)) {
		// Amber's RUN DRAW_ARRAY wants a vertex buffer, and checks
		// START_IDX + COUNT against the first one's element count.
		loc := uint32(0)
		for _, in := range wgsl.StageInputs(vmod.Func(vs)) {
			if in.Location >= 0 {
				used[uint32(in.Location)] = true
			}
		}
		for used[loc] {
			loc++
		}
		n := int(dw.FirstVertex + dw.Count)
		fmt.Fprintf(b, "# vertex_count: no input of the vertex stage; Amber's DRAW_ARRAY needs a first vertex buffer of at least START_IDX + COUNT elements\n")
		fmt.Fprintf(b, "BUFFER vertex_count DATA_TYPE uint32 SIZE %d FILL 0\n", n)
		lines = append([]string{fmt.Sprintf("  VERTEX_DATA vertex_count LOCATION %d FORMAT R32_UINT  # read by no input of the vertex stage\n", loc)}, lines...)
	}
	for _, l := range lines {
		pipe.WriteString(l)
	}
	return nil
}

// writeWords writes a BUFFER of data as uint32 words (zero-padded to a
// whole word), 8 a line, after the comment, and returns its word count.
func writeWords(b *strings.Builder, name string, data []byte, comment string) int {
	padded := append(append([]byte(nil), data...), make([]byte, (4-len(data)%4)%4)...)
	if len(padded) == 0 {
		padded = make([]byte, 4)
	}
	fmt.Fprintf(b, "# %s\nBUFFER %s DATA_TYPE uint32 DATA\n", comment, name)
	for k := 0; k < len(padded); k += 32 {
		var words []string
		for w := k; w < k+32 && w+4 <= len(padded); w += 4 {
			words = append(words, strconv.FormatUint(uint64(binary.LittleEndian.Uint32(padded[w:])), 10))
		}
		fmt.Fprintf(b, "  %s\n", strings.Join(words, " "))
	}
	b.WriteString("END\n")
	return len(padded) / 4
}

// writeIndexData writes the index buffer: the indices from firstIndex on
// with baseVertex added (uint16 when the draw's are and every sum fits).
func writeIndexData(b, pipe *strings.Builder, dw *harness.Draw, indices []uint32) {
	typ := "uint32"
	if dw.Index.Format == "uint16" {
		typ = "uint16"
		for _, v := range indices {
			if v > 0xFFFF {
				typ = "uint32"
			}
		}
	}
	fmt.Fprintf(b, "# index_buffer: the draw's %d %s indices from firstIndex %d, each plus baseVertex %d (Amber's INDEXED draw starts at index 0 and takes START_IDX as the vertex offset)\n",
		len(indices), dw.Index.Format, dw.FirstIndex, dw.BaseVertex)
	fmt.Fprintf(b, "BUFFER index_buffer DATA_TYPE %s DATA\n", typ)
	for k := 0; k < len(indices); k += 12 {
		var vs []string
		for _, v := range indices[k:min(k+12, len(indices))] {
			vs = append(vs, strconv.FormatUint(uint64(v), 10))
		}
		fmt.Fprintf(b, "  %s\n", strings.Join(vs, " "))
	}
	b.WriteString("END\n")
	pipe.WriteString("  INDEX_DATA index_buffer\n")
}

// writeRun writes the draw's RUN line (none for a draw of no vertices,
// which Amber's COUNT cannot say).
func writeRun(b *strings.Builder, dw *harness.Draw, indices []uint32) {
	topo := "TRIANGLE_LIST"
	if dw.Topology == "triangle-strip" {
		topo = "TRIANGLE_STRIP"
	}
	n, start, indexed := dw.Count, dw.FirstVertex, ""
	if dw.Index != nil {
		n, start, indexed = uint32(len(indices)), 0, " INDEXED"
	}
	if n == 0 {
		b.WriteString("# the draw fetches no vertices: no RUN (Amber's COUNT must be > 0)\n")
		return
	}
	fmt.Fprintf(b, "RUN %s DRAW_ARRAY AS %s%s START_IDX %d COUNT %d START_INSTANCE %d INSTANCE_COUNT %d\n", PipelineName, topo, indexed, start, n, dw.FirstInstance, max(dw.InstanceCount, 1))
}

// writeDrawBindings writes the uniform and read-only storage buffers,
// textures and samplers the two stages use (each module's used bindings,
// a name the modules share once; check/draw.go's drawBindings), as
// BUFFERs of their words (zeroed where the case gives none), IMAGEs and
// SAMPLERs, and their BIND lines to pipe.
func writeDrawBindings(b, pipe *strings.Builder, c *testcase.Case, mods []*ir.Module, entries []string) error {
	seen := map[string]bool{}
	for i, m := range mods {
		for _, v := range m.SharedUsed(entries[i]) {
			if v.Space == ir.SpaceWorkgroup || seen[v.Name] {
				continue
			}
			seen[v.Name] = true
			val, ok := c.Bindings[v.Name]
			if !ok {
				val = ir.ZeroBuffer(v.T)
			}
			name := "buf_" + v.Name
			writeWords(b, name, val.Bytes, fmt.Sprintf("%s: @group(%d) @binding(%d) var<%s> %s: %s, %d bytes", name, v.Group, v.Binding, space(v), v.Name, v.T.String(), len(val.Bytes)))
			as := "storage"
			if v.Space == ir.SpaceUniform {
				as = "uniform"
			}
			fmt.Fprintf(pipe, "  BIND BUFFER %s AS %s DESCRIPTOR_SET %d BINDING %d\n", name, as, v.Group, v.Binding)
		}
	}
	seenTex := map[[2]int]bool{}
	for i, m := range mods {
		if len(m.Textures) == 0 {
			continue
		}
		texs, smps, err := testcase.CompleteTextures(m, entries[i], c.Textures, c.Samplers)
		if err != nil {
			return err
		}
		used := usedHandles(m, entries[i])
		for _, v := range m.Textures {
			key := [2]int{v.Group, v.Binding}
			if !used[v.Name] || seenTex[key] {
				continue
			}
			seenTex[key] = true
			if v.T.Kind == ir.KindSampler {
				writeSampler(b, pipe, v, smps[v.Name])
				continue
			}
			writeImage(b, pipe, v, texs[v.Name])
		}
	}
	return nil
}

// bound is one channel's allowed values as Amber compares them: [lo, hi]
// (lo == hi exact), or why Amber's comparisons cannot state it.
type bound struct {
	lo, hi string
	exact  bool
	why    string
}

// channelBound is the allowed values of leaf l of pixel expectation e in
// an attachment of format.
func channelBound(e oracle.Expected, l int, code uint32, format harness.AttachmentFormat) bound {
	_, _, kind, _, _ := testcase.TextureFormat(string(format))
	indet := l < len(e.Indeterminate) && e.Indeterminate[l]
	tol := 0.0
	if l < len(e.Tolerance) {
		tol = e.Tolerance[l]
	}
	intText := func(x uint32) string {
		if kind == "sint" {
			return strconv.FormatInt(int64(int32(x)), 10)
		}
		return strconv.FormatUint(uint64(x), 10)
	}
	less := func(a, b uint32) bool {
		if kind == "sint" {
			return int32(a) < int32(b)
		}
		return a < b
	}
	if kind != "float" {
		if !indet {
			return bound{lo: intText(code), hi: intText(code), exact: true}
		}
		set := e.Set(l)
		if set.IsAny() {
			lo, hi := "0", "4294967295"
			switch {
			case kind == "unorm":
				hi = "255"
			case kind == "sint":
				lo, hi = "-2147483648", "2147483647"
			}
			return bound{lo: lo, hi: hi}
		}
		if set.HasRange && len(set.Values) == 0 {
			return bound{lo: intText(set.Lo), hi: intText(set.Hi)}
		}
		if set.HasRange {
			return bound{why: "an interval and values besides"}
		}
		// A set of values: their hull, which holds every value the
		// reference allows (Amber has no "one of"; a weaker check, never a
		// false one).
		vs := append([]uint32(nil), set.Values...)
		sort.Slice(vs, func(i, j int) bool { return less(vs[i], vs[j]) })
		return bound{lo: intText(vs[0]), hi: intText(vs[len(vs)-1])}
	}
	interval := func(lo, hi float64) bound {
		if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
			return bound{why: "not finite"}
		}
		l32, h32 := float32(lo), float32(hi)
		if float64(l32) > lo {
			l32 = math.Nextafter32(l32, float32(math.Inf(-1)))
		}
		if float64(h32) < hi {
			h32 = math.Nextafter32(h32, float32(math.Inf(1)))
		}
		return bound{lo: FormatFloat(float64(l32)), hi: FormatFloat(float64(h32))}
	}
	subnormal := func(f float64) bool { return f != 0 && math.Abs(f) < 0x1p-126 }
	if !indet {
		f := float64(math.Float32frombits(code))
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return bound{why: "not finite"}
		}
		if tol == 0 && !subnormal(f) {
			return bound{lo: FormatFloat(f), hi: FormatFloat(f), exact: true}
		}
		lo, hi := f-tol, f+tol
		if subnormal(f) {
			lo, hi = math.Min(lo, 0), math.Max(hi, 0) // WGSL may flush a subnormal to zero
		}
		return interval(lo, hi)
	}
	set := e.Set(l)
	switch {
	case set.IsAny():
		return bound{why: "any value (NaN compares false)"}
	case set.HasRange && len(set.Values) == 0:
		return interval(float64(math.Float32frombits(set.Lo)), float64(math.Float32frombits(set.Hi)))
	case !set.HasRange && len(set.Values) == 1:
		t := 0.0
		if set.Tol != nil {
			t = set.Tol[0]
		}
		f := float64(math.Float32frombits(set.Values[0]))
		return interval(f-t, f+t)
	}
	// Several members, each within its bound: their hull (as for
	// integers: every allowed value passes), unless one is not finite.
	lo, hi := math.Inf(1), math.Inf(-1)
	for k, v := range set.Values {
		t := 0.0
		if set.Tol != nil {
			t = set.Tol[k]
		}
		f := float64(math.Float32frombits(v))
		lo, hi = math.Min(lo, f-t), math.Max(hi, f+t)
	}
	return interval(lo, hi)
}

// writeAttachmentExpects writes attachment i's EXPECT lines (the file
// comment), row by row.
func writeAttachmentExpects(b *strings.Builder, name string, format harness.AttachmentFormat, res *check.Result, i, w, h int, s *Script) {
	ch := channelCount(format)
	texel := format.TexelSize()
	fmt.Fprintf(b, "# %s (%s): ", name, format)
	if format == harness.RGBA8Unorm {
		b.WriteString("EQ_RGBA takes codes; GE and LE lines compare codes at IDX = byte offset (y·width + x)·4\n")
	} else {
		fmt.Fprintf(b, "IDX = byte offset (y·width + x)·%d\n", texel)
	}
	b.WriteString("# A GE and an LE line at one IDX bound each channel of their pixels: a float within the reference's bound\n" +
		"# (interpolation, a builtin's accuracy; rounded outward to float32), codes either side of v·255, or an interval\n" +
		"# the draw leaves open (" + drawLatitude + ").\n")
	for y := 0; y < h; y++ {
		type px struct {
			x     int
			cs    []bound
			codes []uint32
		}
		var run []px // exact pixels not yet written
		flush := func() {
			if len(run) == 0 {
				return
			}
			if format == harness.RGBA8Unorm {
				for k := 0; k < len(run); {
					j := k + 1
					for j < len(run) && run[j].x == run[j-1].x+1 && equalCodes(run[j].codes, run[k].codes) {
						j++
					}
					c := run[k].cs
					fmt.Fprintf(b, "EXPECT %s IDX %d %d SIZE %d 1 EQ_RGBA %s %s %s %s\n", name, run[k].x, y, j-k, c[0].lo, c[1].lo, c[2].lo, c[3].lo)
					s.Expects++
					s.Checked += (j - k) * ch
					k = j
				}
			} else {
				for k := 0; k < len(run); {
					j := k + 1
					for j < len(run) && run[j].x == run[j-1].x+1 {
						j++
					}
					var vals []string
					for _, p := range run[k:j] {
						for _, c := range p.cs {
							vals = append(vals, c.lo)
						}
					}
					fmt.Fprintf(b, "EXPECT %s IDX %d EQ %s\n", name, (y*w+run[k].x)*texel, strings.Join(vals, " "))
					s.Expects++
					s.Checked += (j - k) * ch
					k = j
				}
			}
			run = nil
		}
		var ranged []px // pixels of ranges not yet written
		flushRanged := func() {
			for k := 0; k < len(ranged); {
				j := k + 1
				for j < len(ranged) && ranged[j].x == ranged[j-1].x+1 && sameBounds(ranged[j].cs, ranged[k].cs) {
					j++
				}
				var lo, hi []string
				for range ranged[k:j] {
					for _, c := range ranged[k].cs {
						lo, hi = append(lo, c.lo), append(hi, c.hi)
					}
				}
				off := (y*w + ranged[k].x) * texel
				fmt.Fprintf(b, "EXPECT %s IDX %d GE %s\n", name, off, strings.Join(lo, " "))
				fmt.Fprintf(b, "EXPECT %s IDX %d LE %s\n", name, off, strings.Join(hi, " "))
				s.Expects += 2
				s.Checked += (j - k) * ch
				k = j
			}
			ranged = nil
		}
		for x := 0; x < w; x++ {
			p := y*w + x
			if p >= len(res.Reference) || i >= len(res.Reference[p]) {
				continue
			}
			e := res.Reference[p][i]
			codes := leafBits(e.Value)
			cs := make([]bound, ch)
			exact, why := true, ""
			for l := 0; l < ch && l < len(codes); l++ {
				cs[l] = channelBound(e, l, codes[l], format)
				exact = exact && cs[l].exact
				if cs[l].why != "" && why == "" {
					why = fmt.Sprintf("channel %s %s", "rgba"[l:l+1], cs[l].why)
				}
			}
			if len(codes) < ch {
				why = "no value"
			}
			switch {
			case exact && why == "":
				flushRanged()
				run = append(run, px{x, cs, codes})
			case why == "":
				flush()
				ranged = append(ranged, px{x, cs, codes})
			default:
				flush()
				flushRanged()
				because := firstLine(e.Why)
				if e.Indeterminate != nil {
					because = "the draw leaves the pixel open"
				}
				fmt.Fprintf(b, "#   pixel (%d, %d): %s (%s): no EXPECT\n", x, y, why, because)
				s.Unchecked += ch
			}
		}
		flush()
		flushRanged()
	}
}

func sameBounds(a, b []bound) bool {
	for i := range a {
		if a[i].lo != b[i].lo || a[i].hi != b[i].hi {
			return false
		}
	}
	return true
}

// drawLatitude is what a draw leaves open at a pixel (check/draw.go).
const drawLatitude = "an edge within the rasterizer's latitude, a maybe-discarded fragment, flat either, an ambiguous facing"

func equalCodes(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// leafBits is a value's scalar leaves' bits in ComponentTypes order.
func leafBits(v ir.Value) []uint32 {
	if v.Type == nil {
		return nil
	}
	if len(v.Elems) == 0 {
		return []uint32{v.Bits}
	}
	var out []uint32
	for _, e := range v.Elems {
		out = append(out, leafBits(e)...)
	}
	return out
}
