package testcase

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// A draw's inputs file (README "Inputs of a draw"), and a draw case
// record's "inputs" in the same form: one JSON object holding
//
//   - each uniform and read-only storage binding either stage uses, by
//     variable name, as a compute entry point's inputs give it; each
//     texture and sampler as TextureJSON and SamplerJSON;
//   - "vertices": {INPUT: {"format": F, "step_mode": S, "values": [...]}}
//     for each @location input of the vertex entry point, INPUT its
//     parameter's name or its struct member's ("v.position" or
//     "position"), F a GPUVertexFormat (default: DefaultVertexFormat of
//     its type), S "vertex" (default) or "instance", and one value per
//     buffer element: a number, or an array of as many numbers as F has
//     components (or as the input's type has, the missing ones of F then
//     (0, 0, 0, 1)'s), each the value the shader is to read, stored as F
//     stores it (EncodeVertex);
//   - "indices": {"format": "uint16" | "uint32" (default), "values":
//     [...]}: an indexed draw;
//   - "draw": {"count", "instances", "first_vertex", "first_instance",
//     "base_vertex", "first_index"}: the draw call's counts (count:
//     default the vertex-step buffer's elements past first_vertex, or the
//     indices past first_index, or the made-up count; instances: the
//     instance-step buffer's elements past first_instance, else 1);
//   - "topology" ("triangle-list", "triangle-strip"), "cull_mode"
//     ("none", "front", "back"), "front_face" ("ccw", "cw");
//   - "targets": [{"format": F, "clear": [r, g, b, a]}], one per fragment
//     @location output in location order (default: the 32-bit format of
//     the output's type, cleared to 0; "rgba8unorm" for a vec4<f32>);
//   - "size": [W, H], the target in pixels (--size wins).
//
// A key names a binding before a draw key. Every error is positioned in
// the file (file:line:col) and is a *UsageError.

// drawKeys are the keys of a draw's inputs that are not bindings.
var drawKeys = []string{"vertices", "indices", "draw", "topology", "cull_mode", "front_face", "targets", "size"}

// refusedDrawKeys are render state v1 leaves out (issue 39 Deliver 1),
// refused where an inputs file gives them.
var refusedDrawKeys = map[string]string{
	"depth_stencil": "depth/stencil state", "depthStencil": "depth/stencil state", "depth": "depth/stencil state", "stencil": "depth/stencil state",
	"blend": "blending", "multisample": "multisampling (MSAA)", "sample_count": "multisampling (MSAA)", "sampleCount": "multisampling (MSAA)",
}

// attrSpec is one @location input of the vertex entry point and what a
// draw feeds it: its format, step mode and elements (each the format's
// components), node the inputs' entry (nil when made up).
type attrSpec struct {
	io     wgsl.StageIO
	input  int // its index in wgsl.StageInputs
	format string
	step   string
	elems  [][]float64
	node   *jnode
}

// drawSpec is a draw before it is laid out (buildDraw): the attributes,
// the index buffer, the counts (nil: not given), the primitive state,
// the targets and the size.
type drawSpec struct {
	attrs        []*attrSpec
	vertices     bool // the inputs give "vertices"
	index        *harness.IndexBuffer
	indexNode    *jnode
	count        *uint32
	instances    *uint32
	firstVertex  uint32
	firstInst    uint32
	firstIndex   uint32
	baseVertex   int32
	topology     string
	cull, front  string
	attachments  []harness.AttachmentFormat
	clear        [][4]float64
	size         *[2]uint32
	doc          jsonDoc
	root         *jnode
	madeCount    uint32
	bufs         map[string]ir.Buffer
	texs         map[string]*interp.Texture
	smps         map[string]*interp.Sampler
	givenHandles map[string]bool
}

// drawStages are the two stages of a draw and their modules (one module
// twice when one file has both).
type drawStages struct {
	vm, fm *ir.Module
	vs, fs *ir.Func
}

func (st drawStages) modules() []*ir.Module {
	if st.vm == st.fm {
		return []*ir.Module{st.fm}
	}
	return []*ir.Module{st.vm, st.fm}
}

// entriesOf is the entry points of module m in st.
func (st drawStages) entriesOf(m *ir.Module) []string {
	var out []string
	if m == st.vm {
		out = append(out, st.vs.Name)
	}
	if m == st.fm {
		out = append(out, st.fs.Name)
	}
	return out
}

// bindings is every uniform and storage binding either stage uses, by
// name, with its module.
func (st drawStages) bindings() (map[string]*ir.SharedVar, []string) {
	out := map[string]*ir.SharedVar{}
	var order []string
	for _, m := range st.modules() {
		for _, v := range usedBindings(m, st.entriesOf(m)...) {
			if _, ok := out[v.Name]; !ok {
				order = append(order, v.Name)
			}
			out[v.Name] = v
		}
	}
	return out, order
}

// handles is every texture and sampler either stage uses, by name, with
// the module that declares it.
func (st drawStages) handles() (map[string]*ir.TextureVar, map[string]*ir.Module) {
	vars, mods := map[string]*ir.TextureVar{}, map[string]*ir.Module{}
	for _, m := range st.modules() {
		used := map[string]bool{}
		for _, e := range st.entriesOf(m) {
			for k := range UsedHandles(m, e) {
				used[k] = true
			}
		}
		for _, v := range m.Textures {
			if used[v.Name] {
				if _, ok := vars[v.Name]; !ok {
					vars[v.Name], mods[v.Name] = v, m
				}
			}
		}
	}
	return vars, mods
}

// checkBindings refuses two modules whose bindings disagree: one name
// with two types or two places, or one @group/@binding with two names
// (the pipeline's one layout binds each once).
func (st drawStages) checkBindings() error {
	if st.vm == st.fm {
		return nil
	}
	type slot struct{ group, binding int }
	type decl struct {
		name string
		pos  ir.Pos
		t    *ir.Type
		at   slot
		m    *ir.Module
	}
	byName, bySlot := map[string]decl{}, map[slot]decl{}
	for _, m := range st.modules() {
		var decls []decl
		for _, v := range usedBindings(m, st.entriesOf(m)...) {
			decls = append(decls, decl{v.Name, v.Pos, v.T, slot{v.Group, v.Binding}, m})
		}
		vars, _ := st.handles()
		for _, v := range m.Textures {
			if tv, ok := vars[v.Name]; ok && tv == v {
				decls = append(decls, decl{v.Name, v.Pos, v.T, slot{v.Group, v.Binding}, m})
			}
		}
		for _, d := range decls {
			if o, ok := byName[d.name]; ok && o.m != m && (!ir.Identical(o.t, d.t) || o.at != d.at) {
				return ir.ErrorList{ir.Errorf(m.File, d.pos, "check", "binding %s is %v at @group(%d) @binding(%d) here and %v at @group(%d) @binding(%d) in %s: the two stages of a draw share one name per binding",
					d.name, d.t, d.at.group, d.at.binding, o.t, o.at.group, o.at.binding, o.m.File)}
			}
			if o, ok := bySlot[d.at]; ok && o.m != m && o.name != d.name {
				return ir.ErrorList{ir.Errorf(m.File, d.pos, "check", "@group(%d) @binding(%d) is %s here and %s in %s: gpudiff binds the two stages' bindings by name, one name per slot",
					d.at.group, d.at.binding, d.name, o.name, o.m.File)}
			}
			byName[d.name], bySlot[d.at] = d, d
		}
	}
	return nil
}

// locationInputs are vs's @location inputs as attribute specs, in
// location order, their formats defaulted.
func locationInputs(vs *ir.Func) []*attrSpec {
	var out []*attrSpec
	for k, io := range wgsl.StageInputs(vs) {
		if io.Location >= 0 {
			out = append(out, &attrSpec{io: io, input: k, format: DefaultVertexFormat(io.T), step: "vertex"})
		}
	}
	slices.SortStableFunc(out, func(a, b *attrSpec) int { return a.io.Location - b.io.Location })
	return out
}

// attachmentFor is the default attachment of a fragment output of type
// t: the 32-bit colour format of as many channels (check.FragmentAttachment's
// rule: r32, rg32, rgba32 float, sint or uint).
func attachmentFor(t *ir.Type) harness.AttachmentFormat {
	n := 1
	if t.Kind == ir.KindVec {
		n = t.Len
	}
	prefix := map[int]string{1: "r32", 2: "rg32", 4: "rgba32"}[n]
	suffix := map[ir.Kind]string{ir.KindF32: "float", ir.KindI32: "sint", ir.KindU32: "uint"}[t.Scalar().Kind]
	return harness.AttachmentFormat(prefix + suffix)
}

// attachmentFormats are the colour formats a draw's targets take.
var attachmentFormats = []harness.AttachmentFormat{harness.R32Float, harness.R32Sint, harness.R32Uint, harness.RG32Float, harness.RG32Sint, harness.RG32Uint,
	harness.RGBA32Float, harness.RGBA32Sint, harness.RGBA32Uint, harness.RGBA8Unorm}

// newDrawSpec is the draw's defaults for st: its attributes (formats
// defaulted, no elements), one default attachment per fragment output.
func newDrawSpec(st drawStages) *drawSpec {
	d := &drawSpec{attrs: locationInputs(st.vs), topology: "triangle-list", cull: "none", front: "ccw",
		bufs: map[string]ir.Buffer{}, texs: map[string]*interp.Texture{}, smps: map[string]*interp.Sampler{}, givenHandles: map[string]bool{}}
	for _, o := range wgsl.FragmentOutputs(st.fs) {
		d.attachments = append(d.attachments, attachmentFor(o.T))
		d.clear = append(d.clear, DefaultClear)
	}
	return d
}

// parseDrawInputs reads a draw's inputs (doc positions them; dir is where
// a texture's file is read from) into d: bindings, textures and draw
// keys, each checked against the stages.
func parseDrawInputs(doc jsonDoc, root *jnode, st drawStages, d *drawSpec, dir string) error {
	if root.kind != '{' {
		return doc.errorf(root, "want a JSON object mapping binding names and draw keys (%s) to their values", strings.Join(drawKeys, ", "))
	}
	d.doc, d.root = doc, root
	shared, order := st.bindings()
	handles, hmods := st.handles()
	for i, k := range root.keys {
		v := root.vals[i]
		if g, ok := shared[k]; ok {
			val, err := ir.UnmarshalValue(g.T, json.RawMessage(v.raw))
			if err != nil {
				return doc.errorf(v, "%s%v", k, strings.TrimPrefix(err.Error(), "value"))
			}
			if g.Writable() {
				return doc.errorf(v, "%s is var<storage, read_write>: writable storage is outside gpudiff's v1 draws", k)
			}
			b, err := ir.NewBuffer(g.T, val)
			if err != nil {
				return doc.errorf(v, "%s: %v", k, err)
			}
			d.bufs[k] = b
			continue
		}
		if tv, ok := handles[k]; ok {
			if err := parseHandleInput(tv, json.RawMessage(v.raw), dir, hmods[k], d.texs, d.smps); err != nil {
				return doc.errorf(v, "%s: %v", k, err)
			}
			d.givenHandles[k] = true
			continue
		}
		if what, ok := refusedDrawKeys[k]; ok {
			return doc.errorf(v, "%s: %s is outside gpudiff's v1 draws (issue 39: depth/stencil, blending, MSAA, lines and points are left out)", k, what)
		}
		var err error
		switch k {
		case "vertices":
			err = d.parseVertices(v)
		case "indices":
			err = d.parseIndices(v)
		case "draw":
			err = d.parseCounts(v)
		case "topology":
			d.topology, err = d.oneOf(v, k, "triangle-list", "triangle-strip")
			if err != nil && (v.str == "point-list" || v.str == "line-list" || v.str == "line-strip") {
				err = doc.errorf(v, "topology %q: lines and points are outside gpudiff's v1 draws (triangle-list, triangle-strip)", v.str)
			}
		case "cull_mode":
			d.cull, err = d.oneOf(v, k, "none", "front", "back")
		case "front_face":
			d.front, err = d.oneOf(v, k, "ccw", "cw")
		case "targets":
			err = d.parseTargets(v, st)
		case "size":
			err = d.parseSize(v)
		default:
			names := append([]string(nil), order...)
			for n := range handles {
				names = append(names, n)
			}
			have := "none"
			if len(names) > 0 {
				have = keysOf(names)
			}
			err = doc.errorf(v, "%q is neither a binding the draw's stages use (have %s) nor a draw key (%s)", k, have, strings.Join(drawKeys, ", "))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *drawSpec) oneOf(n *jnode, key string, allowed ...string) (string, error) {
	s, err := d.doc.stringOf(n, key)
	if err != nil {
		return "", err
	}
	if !slices.Contains(allowed, s) {
		return "", d.doc.errorf(n, "%s %q: want %s", key, s, strings.Join(allowed, ", "))
	}
	return s, nil
}

// parseVertices reads "vertices".
func (d *drawSpec) parseVertices(n *jnode) error {
	doc := d.doc
	if n.kind != '{' {
		return doc.errorf(n, "vertices: want an object mapping each @location input of the vertex entry point to {\"format\", \"step_mode\", \"values\"}")
	}
	d.vertices = true
	for i, k := range n.keys {
		var at *attrSpec
		for _, a := range d.attrs {
			if a.io.Name == k {
				at = a
			}
		}
		if at == nil {
			for _, a := range d.attrs {
				if _, member, ok := strings.Cut(a.io.Name, "."); ok && member == k {
					at = a
				}
			}
		}
		v := n.vals[i]
		if at == nil {
			var names []string
			for _, a := range d.attrs {
				names = append(names, fmt.Sprintf("%s (@location(%d))", a.io.Name, a.io.Location))
			}
			have := "none"
			if len(names) > 0 {
				have = strings.Join(names, ", ")
			}
			return doc.errorf(v, "vertices: %q is no @location input of the vertex entry point (have %s)", k, have)
		}
		if at.node != nil {
			return doc.errorf(v, "vertices: %q gives %s a second time", k, at.io.Name)
		}
		if err := d.parseAttr(v, k, at); err != nil {
			return err
		}
	}
	return nil
}

// parseAttr reads one attribute's entry.
func (d *drawSpec) parseAttr(n *jnode, key string, at *attrSpec) error {
	doc := d.doc
	if n.kind != '{' {
		return doc.errorf(n, "vertices: %s: want {\"format\": F, \"step_mode\": S, \"values\": [...]}, got %s", key, n.kindName())
	}
	at.node = n
	var values *jnode
	for i, k := range n.keys {
		v := n.vals[i]
		var err error
		switch k {
		case "format":
			at.format, err = doc.stringOf(v, "vertices: "+key+": format")
			if err == nil {
				if e := CheckVertexFormat(at.format, at.io.T); e != nil {
					err = doc.errorf(v, "vertices: %s: %v", key, e)
				}
			}
		case "step_mode":
			at.step, err = d.oneOf(v, "vertices: "+key+": step_mode", "vertex", "instance")
		case "values":
			values = v
		default:
			err = doc.errorf(v, "vertices: %s: unknown key %q (want format, step_mode, values)", key, k)
		}
		if err != nil {
			return err
		}
	}
	if values == nil || values.kind != '[' {
		where := n
		if values != nil {
			where = values
		}
		return doc.errorf(where, "vertices: %s: want \"values\": an array of one value per buffer element", key)
	}
	f, _ := lookupVertexFormat(at.format)
	shaderN := 1
	if at.io.T.Kind == ir.KindVec {
		shaderN = at.io.T.Len
	}
	for j, e := range values.elems {
		var comps []float64
		what := fmt.Sprintf("vertices: %s: values[%d]", key, j)
		switch e.kind {
		case 'n':
			x, err := doc.numberOf(e, what)
			if err != nil {
				return err
			}
			comps = []float64{x}
		case '[':
			for c, ce := range e.elems {
				x, err := doc.numberOf(ce, fmt.Sprintf("%s[%d]", what, c))
				if err != nil {
					return err
				}
				comps = append(comps, x)
			}
		default:
			return doc.errorf(e, "%s: want a number or an array of numbers, got %s", what, e.kindName())
		}
		if len(comps) != f.n && len(comps) == shaderN {
			// The input's own count: the format's missing components
			// must be the ones it reads anyway, its extra ones are 0.
			defaults := [4]float64{0, 0, 0, 1}
			for c := f.n; c < len(comps); c++ {
				if comps[c] != defaults[c] {
					return doc.errorf(e, "%s: component %d is %v, but %s holds %d components and the shader reads %v there", what, c, comps[c], at.format, f.n, defaults[c])
				}
			}
			if len(comps) > f.n {
				comps = comps[:f.n]
			}
			for len(comps) < f.n {
				comps = append(comps, 0)
			}
		}
		if len(comps) != f.n {
			return doc.errorf(e, "%s: %d components; %s holds %d", what, len(comps), at.format, f.n)
		}
		if _, err := EncodeVertex(at.format, comps); err != nil {
			return doc.errorf(e, "%s: %v", what, err)
		}
		at.elems = append(at.elems, comps)
	}
	return nil
}

// parseIndices reads "indices".
func (d *drawSpec) parseIndices(n *jnode) error {
	doc := d.doc
	if n.kind != '{' {
		return doc.errorf(n, "indices: want {\"format\": \"uint16\" | \"uint32\", \"values\": [...]}, got %s", n.kindName())
	}
	format, values := "uint32", (*jnode)(nil)
	for i, k := range n.keys {
		v := n.vals[i]
		switch k {
		case "format":
			var err error
			if format, err = d.oneOf(v, "indices: format", "uint16", "uint32"); err != nil {
				return err
			}
		case "values":
			values = v
		default:
			return doc.errorf(v, "indices: unknown key %q (want format, values)", k)
		}
	}
	if values == nil || values.kind != '[' {
		return doc.errorf(n, "indices: want \"values\": an array of indices")
	}
	size, max := 4, int64(math.MaxUint32)
	if format == "uint16" {
		size, max = 2, math.MaxUint16
	}
	data := make([]byte, 0, size*len(values.elems))
	for j, e := range values.elems {
		x, err := doc.intOf(e, fmt.Sprintf("indices: values[%d]", j), 0, max)
		if err != nil {
			return err
		}
		data = binary.LittleEndian.AppendUint32(data, uint32(x))[:len(data)+size]
	}
	d.index, d.indexNode = &harness.IndexBuffer{Format: format, Data: data}, n
	return nil
}

// parseCounts reads "draw".
func (d *drawSpec) parseCounts(n *jnode) error {
	doc := d.doc
	keys := []string{"count", "instances", "first_vertex", "first_instance", "base_vertex", "first_index"}
	if n.kind != '{' {
		return doc.errorf(n, "draw: want an object with the draw call's counts (%s)", strings.Join(keys, ", "))
	}
	for i, k := range n.keys {
		v := n.vals[i]
		var err error
		var x uint32
		switch k {
		case "count":
			x, err = doc.uint32Of(v, "draw: count", 0)
			d.count = &x
		case "instances":
			x, err = doc.uint32Of(v, "draw: instances", 1)
			d.instances = &x
		case "first_vertex":
			d.firstVertex, err = doc.uint32Of(v, "draw: first_vertex", 0)
		case "first_instance":
			d.firstInst, err = doc.uint32Of(v, "draw: first_instance", 0)
		case "first_index":
			d.firstIndex, err = doc.uint32Of(v, "draw: first_index", 0)
		case "base_vertex":
			var b int64
			b, err = doc.intOf(v, "draw: base_vertex", math.MinInt32, math.MaxInt32)
			d.baseVertex = int32(b)
		default:
			err = doc.errorf(v, "draw: unknown key %q (want %s)", k, strings.Join(keys, ", "))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// parseTargets reads "targets".
func (d *drawSpec) parseTargets(n *jnode, st drawStages) error {
	doc := d.doc
	outs := wgsl.FragmentOutputs(st.fs)
	if n.kind != '[' {
		return doc.errorf(n, "targets: want an array of {\"format\", \"clear\"}, one per @location output of %s", st.fs.Name)
	}
	if len(n.elems) > len(outs) {
		return doc.errorf(n.elems[len(outs)], "targets: %d targets, but %s has %d @location outputs", len(n.elems), st.fs.Name, len(outs))
	}
	for j, e := range n.elems {
		what := fmt.Sprintf("targets[%d]", j)
		if e.kind != '{' {
			return doc.errorf(e, "%s: want {\"format\": F, \"clear\": [r, g, b, a]}, got %s", what, e.kindName())
		}
		for i, k := range e.keys {
			v := e.vals[i]
			switch k {
			case "format":
				s, err := doc.stringOf(v, what+": format")
				if err != nil {
					return err
				}
				f := harness.AttachmentFormat(s)
				if !slices.Contains(attachmentFormats, f) {
					var names []string
					for _, a := range attachmentFormats {
						names = append(names, string(a))
					}
					return doc.errorf(v, "%s: format %q: gpudiff's draws take %s", what, s, strings.Join(names, ", "))
				}
				o := outs[j]
				if f == harness.RGBA8Unorm {
					if !(o.T.Kind == ir.KindVec && o.T.Len == 4 && o.T.Elem.Kind == ir.KindF32) {
						return doc.errorf(v, "%s: rgba8unorm takes a vec4<f32> output; %s is %v", what, o.Name, o.T)
					}
				} else if f != attachmentFor(o.T) {
					return doc.errorf(v, "%s: format %s does not hold output %s of type %v (%s does)", what, s, o.Name, o.T, attachmentFor(o.T))
				}
				d.attachments[j] = f
			case "clear":
				if v.kind != '[' || len(v.elems) != 4 {
					return doc.errorf(v, "%s: clear: want [r, g, b, a]", what)
				}
				var c [4]float64
				for ci, ce := range v.elems {
					x, err := doc.numberOf(ce, fmt.Sprintf("%s: clear[%d]", what, ci))
					if err != nil {
						return err
					}
					c[ci] = x
				}
				d.clear[j] = c
			default:
				return doc.errorf(v, "%s: unknown key %q (want format, clear)", what, k)
			}
		}
	}
	return nil
}

// parseSize reads "size".
func (d *drawSpec) parseSize(n *jnode) error {
	if n.kind != '[' || len(n.elems) != 2 {
		return d.doc.errorf(n, "size: want [width, height] in pixels")
	}
	var s [2]uint32
	for i, e := range n.elems {
		x, err := d.doc.uint32Of(e, fmt.Sprintf("size[%d]", i), 1)
		if err != nil {
			return err
		}
		s[i] = x
	}
	d.size = &s
	return nil
}

// buildDraw lays d out as the GPU takes it (harness.Draw: a vertex
// buffer per step mode, its attributes interleaved in location order,
// each at an offset aligned to min(4, its size), the stride the next
// multiple of 4) and decodes what the vertex stage reads (VertexInputs).
// It refuses, positioned where the inputs give them: attributes of one
// step mode with different element counts, an indexed draw that fetches
// a vertex past the buffer (WebGPU leaves an out-of-bounds fetch to the
// implementation), and what harness.CheckDraw refuses.
func (d *drawSpec) buildDraw(st drawStages, size [2]uint32) (*harness.Draw, []VertexInput, error) {
	fail := func(n *jnode, format string, args ...any) error {
		if n == nil || d.root == nil {
			return &UsageError{Msg: "draw: " + fmt.Sprintf(format, args...)}
		}
		return d.doc.errorf(n, format, args...)
	}
	dr := &harness.Draw{Index: d.index, FirstVertex: d.firstVertex, FirstIndex: d.firstIndex, BaseVertex: d.baseVertex, FirstInstance: d.firstInst,
		Topology: d.topology, CullMode: d.cull, FrontFace: d.front, Clear: slices.Clone(d.clear)}
	var inputs []VertexInput
	elements := map[string]int{}
	for _, step := range []string{"vertex", "instance"} {
		var attrs []*attrSpec
		for _, a := range d.attrs {
			if a.step == step {
				attrs = append(attrs, a)
			}
		}
		if len(attrs) == 0 {
			continue
		}
		n := len(attrs[0].elems)
		var offset uint64
		vb := harness.VertexBuffer{StepMode: step}
		offsets := make([]uint64, len(attrs))
		for i, a := range attrs {
			if len(a.elems) != n {
				return nil, nil, fail(a.node, "vertices: %s has %d values and %s %d: the %s-step attributes share one vertex buffer, one element per %s",
					a.io.Name, len(a.elems), attrs[0].io.Name, n, step, step)
			}
			sz := uint64(harness.VertexFormatSize(a.format))
			offset = (offset + min(4, sz) - 1) / min(4, sz) * min(4, sz)
			offsets[i] = offset
			vb.Attributes = append(vb.Attributes, harness.VertexAttribute{Format: a.format, Offset: offset, ShaderLocation: uint32(a.io.Location)})
			offset += sz
		}
		vb.Stride = (offset + 3) / 4 * 4
		vb.Data = make([]byte, uint64(n)*vb.Stride)
		for i, a := range attrs {
			vi := VertexInput{Name: a.io.Name, Path: a.io.Path, Location: a.io.Location, Format: a.format, StepMode: step, Values: make([]ir.Value, n)}
			sz := uint64(harness.VertexFormatSize(a.format))
			for k, comps := range a.elems {
				b, err := EncodeVertex(a.format, comps)
				if err != nil {
					return nil, nil, fail(a.node, "vertices: %s: values[%d]: %v", a.io.Name, k, err)
				}
				at := uint64(k)*vb.Stride + offsets[i]
				copy(vb.Data[at:at+sz], b)
				if vi.Values[k], err = DecodeVertex(a.format, b, a.io.T); err != nil {
					return nil, nil, fail(a.node, "vertices: %s: %v", a.io.Name, err)
				}
			}
			inputs = append(inputs, vi)
		}
		elements[step] = n
		dr.VertexBuffers = append(dr.VertexBuffers, vb)
	}
	slices.SortStableFunc(inputs, func(a, b VertexInput) int { return a.Location - b.Location })
	countNode := d.root
	if d.root != nil && d.root.get("draw") != nil {
		countNode = d.root.get("draw")
	}
	switch {
	case d.count != nil:
		dr.Count = *d.count
	case d.index != nil:
		n := uint32(len(d.index.Data) / map[string]int{"uint16": 2, "uint32": 4}[d.index.Format])
		if d.firstIndex > n {
			return nil, nil, fail(countNode, "draw: first_index %d is past the %d indices", d.firstIndex, n)
		}
		dr.Count = n - d.firstIndex
	case elements["vertex"] > 0 || d.vertices && hasStep(d.attrs, "vertex"):
		if int(d.firstVertex) > elements["vertex"] {
			return nil, nil, fail(countNode, "draw: first_vertex %d is past the %d vertices of the vertex buffer", d.firstVertex, elements["vertex"])
		}
		dr.Count = uint32(elements["vertex"]) - d.firstVertex
	default:
		dr.Count = d.madeCount
	}
	switch {
	case d.instances != nil:
		dr.InstanceCount = *d.instances
	case hasStep(d.attrs, "instance"):
		if int(d.firstInst) >= elements["instance"] {
			return nil, nil, fail(countNode, "draw: first_instance %d leaves none of the %d elements of the instance-step buffer", d.firstInst, elements["instance"])
		}
		dr.InstanceCount = uint32(elements["instance"]) - d.firstInst
	default:
		dr.InstanceCount = 1
	}
	if d.index != nil && hasStep(d.attrs, "vertex") {
		size := map[string]int{"uint16": 2, "uint32": 4}[d.index.Format]
		restart := uint32(math.MaxUint32)
		if size == 2 {
			restart = math.MaxUint16
		}
		for i := uint64(d.firstIndex); i < uint64(d.firstIndex)+uint64(dr.Count) && int(i)*size+size <= len(d.index.Data); i++ {
			var ix uint32
			if size == 2 {
				ix = uint32(binary.LittleEndian.Uint16(d.index.Data[i*2:]))
			} else {
				ix = binary.LittleEndian.Uint32(d.index.Data[i*4:])
			}
			if d.topology == "triangle-strip" && ix == restart {
				continue
			}
			if v := int64(ix) + int64(d.baseVertex); v < 0 || v >= int64(elements["vertex"]) {
				node := d.indexNode
				if node != nil && node.get("values") != nil && int(i) < len(node.get("values").elems) {
					node = node.get("values").elems[i]
				}
				return nil, nil, fail(node, "indices: index %d (%d) with base_vertex %d fetches vertex %d, past the %d vertices of the vertex buffer (gpudiff draws within its buffers: WebGPU leaves an out-of-bounds vertex fetch to the implementation)",
					i, ix, d.baseVertex, v, elements["vertex"])
			}
		}
	}
	k := harness.Kernel{VertexEntryPoint: st.vs.Name, VertexWGSL: "-"}
	job := harness.Dispatch{Entry: true, Target: size, Attachments: d.attachments, Draw: dr}
	if err := harness.CheckDraw(k, job, "gpudiff", harness.DrawLimits{}); err != nil {
		return nil, nil, fail(countNode, "%s", strings.TrimPrefix(err.Error(), "harness: "))
	}
	return dr, inputs, nil
}

func hasStep(attrs []*attrSpec, step string) bool {
	for _, a := range attrs {
		if a.step == step {
			return true
		}
	}
	return false
}

// DrawInputsJSON is a draw case's inputs in the inputs file's form
// (above): the bindings and textures either stage uses, then the
// vertices (each element's components as the shader reads them), the
// indices, the draw's counts, its primitive state, the targets and the
// size. Parsing it back (a case file's record) gives the same draw.
func DrawInputsJSON(c *Case) json.RawMessage {
	var parts []string
	add := func(key string, v any) {
		k, _ := json.Marshal(key)
		var b []byte
		switch x := v.(type) {
		case json.RawMessage:
			b = x
		default:
			b, _ = json.Marshal(x)
		}
		parts = append(parts, string(k)+": "+string(b))
	}
	mods := []*ir.Module{c.Module}
	if c.TwoModules() {
		mods = []*ir.Module{c.VertexModule, c.Module}
	}
	seen := map[string]bool{}
	for _, m := range mods {
		for _, v := range m.Shared {
			if b, ok := c.Bindings[v.Name]; ok && !seen[v.Name] && v.Space != ir.SpaceWorkgroup {
				seen[v.Name] = true
				one := BindingsJSON(m, map[string]ir.Buffer{v.Name: b})
				parts = append(parts, strings.TrimSuffix(strings.TrimPrefix(string(one), "{"), "}"))
			}
		}
	}
	for _, m := range mods {
		texs, smps := map[string]*interp.Texture{}, map[string]*interp.Sampler{}
		for k, t := range c.Textures {
			if !seen[k] {
				texs[k] = t
			}
		}
		for k, s := range c.Samplers {
			if !seen[k] {
				smps[k] = s
			}
		}
		for _, e := range TexturesJSON(m, texs, smps) {
			parts = append(parts, e)
		}
		for _, v := range m.Textures {
			if _, ok := texs[v.Name]; ok {
				seen[v.Name] = true
			}
			if _, ok := smps[v.Name]; ok {
				seen[v.Name] = true
			}
		}
	}
	d := c.Draw
	if d == nil {
		d = &harness.Draw{}
	}
	var vparts []string
	for _, vi := range c.VertexInputs {
		buf, attr := drawAttribute(d, vi.Location)
		if buf == nil {
			continue
		}
		f, _ := lookupVertexFormat(attr.Format)
		sz := uint64(harness.VertexFormatSize(attr.Format))
		var vals []string
		for at := attr.Offset; at+sz <= uint64(len(buf.Data)) && (buf.Stride > 0 || at == attr.Offset); at += max(buf.Stride, 1) {
			comps := f.decodeComponents(buf.Data[at : at+sz])
			nums := make([]string, len(comps))
			for i, w := range comps {
				switch f.scalar {
				case 'f':
					nums[i] = strconv.FormatFloat(float64(math.Float32frombits(w)), 'g', -1, 32)
				case 'u':
					nums[i] = strconv.FormatUint(uint64(w), 10)
				default:
					nums[i] = strconv.FormatInt(int64(int32(w)), 10)
				}
			}
			if len(nums) == 1 {
				vals = append(vals, nums[0])
			} else {
				vals = append(vals, "["+strings.Join(nums, ", ")+"]")
			}
			if buf.Stride == 0 {
				break
			}
		}
		name, _ := json.Marshal(vi.Name)
		format, _ := json.Marshal(attr.Format)
		step, _ := json.Marshal(vi.StepMode)
		vparts = append(vparts, fmt.Sprintf("%s: {\"format\": %s, \"step_mode\": %s, \"values\": [%s]}", name, format, step, strings.Join(vals, ", ")))
	}
	parts = append(parts, `"vertices": {`+strings.Join(vparts, ", ")+"}")
	if d.Index != nil {
		size := map[string]int{"uint16": 2, "uint32": 4}[d.Index.Format]
		var idx []string
		for i := 0; i+size <= len(d.Index.Data); i += size {
			if size == 2 {
				idx = append(idx, strconv.Itoa(int(binary.LittleEndian.Uint16(d.Index.Data[i:]))))
			} else {
				idx = append(idx, strconv.FormatUint(uint64(binary.LittleEndian.Uint32(d.Index.Data[i:])), 10))
			}
		}
		format, _ := json.Marshal(d.Index.Format)
		parts = append(parts, fmt.Sprintf(`"indices": {"format": %s, "values": [%s]}`, format, strings.Join(idx, ", ")))
	}
	inst := max(d.InstanceCount, 1)
	counts := fmt.Sprintf(`"draw": {"count": %d, "instances": %d, "first_instance": %d`, d.Count, inst, d.FirstInstance)
	if d.Index != nil {
		counts += fmt.Sprintf(`, "first_index": %d, "base_vertex": %d}`, d.FirstIndex, d.BaseVertex)
	} else {
		counts += fmt.Sprintf(`, "first_vertex": %d}`, d.FirstVertex)
	}
	parts = append(parts, counts)
	topology, cull, front := drawState(d)
	add("topology", topology)
	add("cull_mode", cull)
	add("front_face", front)
	var targets []string
	for i, a := range c.Attachments {
		clear := DefaultClear
		if i < len(d.Clear) {
			clear = d.Clear[i]
		}
		cl := make([]string, 4)
		for j, x := range clear {
			cl[j] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		targets = append(targets, fmt.Sprintf(`{"format": %q, "clear": [%s]}`, a, strings.Join(cl, ", ")))
	}
	parts = append(parts, `"targets": [`+strings.Join(targets, ", ")+"]")
	add("size", []uint32{c.Size[0], c.Size[1]})
	var b bytes.Buffer
	b.WriteString("{")
	b.WriteString(strings.Join(parts, ", "))
	b.WriteString("}")
	return b.Bytes()
}

// drawAttribute finds the vertex buffer and attribute of d that feed
// @location(loc).
func drawAttribute(d *harness.Draw, loc int) (*harness.VertexBuffer, *harness.VertexAttribute) {
	for i := range d.VertexBuffers {
		for j := range d.VertexBuffers[i].Attributes {
			if int(d.VertexBuffers[i].Attributes[j].ShaderLocation) == loc {
				return &d.VertexBuffers[i], &d.VertexBuffers[i].Attributes[j]
			}
		}
	}
	return nil, nil
}

// dirOf is the directory an inputs file's relative texture paths are
// read from ("" for a case file's record: its textures are inline).
func dirOf(path string) string {
	if path == "" {
		return ""
	}
	return filepath.Dir(path)
}
