package testcase

import (
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// The loader's arm for a draw (KindDraw): which entry points, from one
// module or two, and which inputs — a case file's record, --inputs, the
// inputs file beside the (first) file, or made up (drawfill.go).

// isDraw reports whether module m (with o's names) loads as a draw: a
// second file is given, or --vertex is, or --fragment is and m has a
// vertex entry point (without one, --fragment E is E drawn alone, as
// --kernel E: fragmentAlone), or m has a vertex and a fragment entry
// point and no compute one (wgsl.IsDrawMode) and --kernel names none of
// its other functions.
func isDraw(m *ir.Module, o LoadOptions) bool {
	if o.Fragment != "" || o.VertexEntry != "" {
		return true
	}
	if o.FragmentEntry != "" {
		return hasVertexEntry(m)
	}
	if !wgsl.IsDrawMode(m) {
		return false
	}
	if o.Kernel == "" {
		return true
	}
	f := m.Func(o.Kernel)
	return f != nil && f.Stage.IsRenderStage()
}

// hasVertexEntry reports whether m has a @vertex entry point, inside the
// subset or outside it (wgsl.VertexEntry then gives its reason).
func hasVertexEntry(m *ir.Module) bool {
	for _, e := range m.EntryPoints() {
		if e.Stage == ir.StageVertex {
			return true
		}
	}
	for _, op := range m.Opaque {
		if op.EntryPoint && strings.Contains(op.Text, "@vertex") {
			return true
		}
	}
	return false
}

// fragmentAlone is o for module m of a .wgsl file: --fragment E with no
// second file and no --vertex, on a module with no vertex entry point,
// names the fragment entry point E drawn alone — --kernel E (a fragment
// case, or a draw after the full-screen triangle gpudiff writes:
// fullscreen.go). --kernel naming another function beside it is a
// *FlagError.
func (o LoadOptions) fragmentAlone(m *ir.Module) (LoadOptions, error) {
	if o.FragmentEntry == "" || o.Fragment != "" || o.VertexEntry != "" || hasVertexEntry(m) {
		return o, nil
	}
	if o.Kernel != "" && o.Kernel != o.FragmentEntry {
		return o, flagf("--kernel %s and --fragment %s name two entry points (the module has no vertex entry point: --fragment names the fragment entry point drawn alone)", o.Kernel, o.FragmentEntry)
	}
	o.Kernel, o.FragmentEntry = o.FragmentEntry, ""
	return o, nil
}

// pickDrawStages resolves the draw's entry points: the fragment entry
// point (--fragment, else --kernel when it names a fragment entry point,
// else the record's, else the module's only one: wgsl.DrawFragmentEntry),
// then the vertex one (--vertex, --kernel naming one, the record's, else
// the module's only one — or, among several, the only one whose outputs
// the fragment's inputs match: wgsl.CheckInterface), and checks their
// interface (wgsl.CheckInterfaceIn) and the two modules' bindings.
func pickDrawStages(vm, fm *ir.Module, o LoadOptions, savedVS, savedFS string) (drawStages, error) {
	vname, fname := o.VertexEntry, o.FragmentEntry
	if o.Kernel != "" {
		if f := fm.Func(o.Kernel); f != nil && f.Stage == ir.StageFragment {
			if fname != "" && fname != o.Kernel {
				return drawStages{}, flagf("--kernel %s and --fragment %s name two fragment entry points", o.Kernel, fname)
			}
			fname = o.Kernel
		} else if f := vm.Func(o.Kernel); f != nil && f.Stage == ir.StageVertex {
			if vname != "" && vname != o.Kernel {
				return drawStages{}, flagf("--kernel %s and --vertex %s name two vertex entry points", o.Kernel, vname)
			}
			vname = o.Kernel
		} else {
			return drawStages{}, flagf("--kernel %s: a draw's entry points are named with --vertex and --fragment (the module has no vertex or fragment entry point %s)", o.Kernel, o.Kernel)
		}
	}
	if fname == "" {
		fname = savedFS
	}
	if vname == "" {
		vname = savedVS
	}
	fs, err := wgsl.DrawFragmentEntry(fm, fname)
	if err != nil {
		return drawStages{}, err
	}
	if vname == "" {
		var match []*ir.Func
		n := 0
		for _, e := range vm.EntryPoints() {
			if e.Stage == ir.StageVertex {
				n++
				if wgsl.CheckInterface(e, fs) == nil {
					match = append(match, e)
				}
			}
		}
		if n > 1 && len(match) == 1 {
			vname = match[0].Name
		}
		if len(match) > 1 {
			vname = pairByName(fs.Name, match)
		}
	}
	vs, err := wgsl.VertexEntry(vm, vname)
	if err != nil {
		return drawStages{}, err
	}
	if err := wgsl.CheckInterfaceIn(fm.File, vs, fs); err != nil {
		return drawStages{}, err
	}
	st := drawStages{vm: vm, fm: fm, vs: vs, fs: fs}
	return st, st.checkBindings()
}

// loadDraw loads a draw's case. c.Module is the first file's module (the
// vertex module when o.Fragment names a second file); saved is the case
// file's draw (nil for a module): its entry points, inputs, size and
// recorded mode are the defaults, as a fragment case file's are.
func (c *Case) loadDraw(path string, o LoadOptions, saved *Case) error {
	for _, fl := range []struct {
		name  string
		given bool
	}{{"invocations", o.Invocations != 0}, {"workgroups", o.Workgroups != nil}} {
		if fl.given {
			return flagf("--%s is for kernels and compute entry points; a draw runs its vertex stage per vertex of the draw and its fragment stage per pixel of --size WxH", fl.name)
		}
	}
	if o.Stages != nil && !(len(o.Stages) == 1 && o.Stages[0] == oracle.StageFragment) {
		return flagf("--stage %s: a draw runs as written, its vertex and fragment stages", StagesText(o.Stages))
	}
	c.Kind = KindDraw
	vm, fm := c.Module, c.Module
	var savedVS, savedFS string
	if saved != nil {
		vm, fm = saved.VertexModuleOrModule(), saved.Module
		savedVS, savedFS = saved.Vertex.Name, saved.Func.Name
		rec := c.Record
		c.Flat, c.SPIRV = o.recorded(c.Flat, o.Flat, rec.Flat), o.recorded(c.SPIRV, o.SPIRV, rec.SPIRV)
		if o.Mode == "" && rec.Mode != "" {
			var err error
			if c.Mode, err = wgsl.ParseMode(rec.Mode); err != nil {
				return o.usagef("%s: case record: %v", path, err)
			}
		}
	} else if o.Fragment != "" {
		m, src, err := LoadModule(o.Fragment, o)
		if err != nil {
			return err
		}
		fm = m
		c.VertexSource, c.Source = c.Source, src
	}
	st, err := pickDrawStages(vm, fm, o, savedVS, savedFS)
	if err != nil {
		return err
	}
	if saved != nil && (st.vs.Name != savedVS || st.fs.Name != savedFS) {
		return flagf("%s records the draw of %s and %s; --vertex, --fragment and --kernel cannot name other entry points of a case file", path, savedVS, savedFS)
	}
	c.Module, c.Func, c.Vertex = fm, st.fs, st.vs
	c.VertexModule = vm
	d := newDrawSpec(st)
	a := newDepAnalysis(st.vs)
	fed := positionFed(a)
	d.madeCount = madeVertexCount(a, fed)
	inputs := o.Inputs
	if inputs == "" && saved == nil && o.Seed == nil && o.Fill == "" {
		inputs = BesideInputs(path, "")
	}
	fill := o.fill("")
	switch {
	case saved != nil && o.Inputs == "" && o.Seed == nil && o.Fill == "":
		// A case file carries its whole draw.
		c.Bindings, c.Textures, c.Samplers = saved.Bindings, saved.Textures, saved.Samplers
		c.Draw, c.VertexInputs, c.Attachments, c.Size, c.Fill = saved.Draw, saved.VertexInputs, saved.Attachments, saved.Size, saved.Fill
		if o.Size != nil {
			c.Size = *o.Size
		}
		return o.checkDrawSize(c.Size)
	case inputs != "":
		data, err := o.read(inputs)
		if err != nil {
			return err
		}
		root, err := parseJSONTree(data)
		if err != nil {
			return o.usagef("%s: %v", jsonPos(inputs, data, err), err)
		}
		if err := parseDrawInputs(jsonDoc{file: inputs, data: data}, root, st, d, dirOf(inputs)); err != nil {
			return err
		}
		if !d.vertices {
			// No "vertices": made up, as without an inputs file.
			madeAttributes(a, d.attrs, d.madeCount)
		}
		if err := d.fillMissing(st, fill, o.seed(), o.Fill != ""); err != nil {
			return err
		}
		if o.Fill != "" {
			c.Fill = fill
		}
	default:
		madeAttributes(a, d.attrs, d.madeCount)
		if err := d.fillMissing(st, fill, o.seed(), true); err != nil {
			return err
		}
		c.Fill = fill
		if fill == "" {
			c.Fill = FillSmall
		}
		o.warnSeed(c.Fill)
	}
	return c.finishDraw(st, d, o)
}

// finishDraw lays d out into c (buildDraw) with the target --size, the
// inputs' size or DefaultFragmentSize.
func (c *Case) finishDraw(st drawStages, d *drawSpec, o LoadOptions) error {
	c.Size = DefaultFragmentSize
	if d.size != nil {
		c.Size = *d.size
	}
	if o.Size != nil {
		c.Size = *o.Size
	}
	if err := o.checkDrawSize(c.Size); err != nil {
		return err
	}
	dr, inputs, err := d.buildDraw(st, c.Size)
	if err != nil {
		return err
	}
	c.Draw, c.VertexInputs, c.Attachments = dr, inputs, d.attachments
	c.Bindings, c.Textures, c.Samplers = d.bufs, d.texs, d.smps
	return nil
}

func (o *LoadOptions) checkDrawSize(size [2]uint32) error {
	n := int64(size[0]) * int64(size[1])
	if n > MaxFragmentPixels {
		return flagf("--size %dx%d is %d pixels, over the %d a draw's reference runs", size[0], size[1], n, MaxFragmentPixels)
	}
	if o.MaxInvocations != 0 && n > int64(o.MaxInvocations) {
		return flagf("--size %dx%d is %d pixels, over the limit of %d invocations (raise it with --max-invocations)", size[0], size[1], n, o.MaxInvocations)
	}
	return nil
}

// fillMissing gives every binding, texture and sampler the stages use
// that d lacks a value: made up (madeBinding, FillTextures) when made is
// set, else zeroed (WebGPU's new buffers and textures are), a sampler
// nearest and clamp-to-edge.
func (d *drawSpec) fillMissing(st drawStages, fill Fill, seed uint64, made bool) error {
	shared, order := st.bindings()
	for i, name := range order {
		if _, ok := d.bufs[name]; ok {
			continue
		}
		g := shared[name]
		f := fill
		if f == FillEdges {
			f = FillRandom
		}
		if !made {
			f = FillZero
		}
		fl := newFiller(f, seed+uint64(i)*0x9e3779b97f4a7c15, madeRuntimeLength)
		b, err := ir.NewBuffer(g.T, madeBinding(g.T, f, fl))
		if err != nil {
			return fmt.Errorf("check: internal error: made-up binding %s: %v", name, err)
		}
		d.bufs[name] = b
	}
	vars, mods := st.handles()
	texFill := fill
	if texFill == "" {
		texFill = FillSmall
	}
	if !made {
		texFill = FillZero
	}
	for _, m := range st.modules() {
		texs, smps, err := FillTextures(texFill, seed, m)
		if err != nil {
			return err
		}
		for name, v := range vars {
			if mods[name] != m || d.givenHandles[name] {
				continue
			}
			if v.T.Kind == ir.KindSampler {
				d.smps[name] = smps[name]
			} else {
				d.texs[name] = texs[name]
			}
		}
	}
	return nil
}

// drawFromRecord builds a draw case file's case: its modules (fm, the
// file's; vm its record's vertex_source module, or fm), entry points and
// inputs (the record's "inputs", parsed as an inputs file, positioned in
// the case file: doc).
func drawFromRecord(file string, vm, fm *ir.Module, rec *CaseRecord, doc jsonDoc) (*Case, error) {
	st, err := pickDrawStages(vm, fm, LoadOptions{}, rec.Vertex, rec.Kernel)
	if err != nil {
		return nil, err
	}
	if st.vs.Name != rec.Vertex || rec.Kernel != "" && st.fs.Name != rec.Kernel {
		return nil, fmt.Errorf("%s: case record: vertex %q and kernel %q are not the draw's entry points", file, rec.Vertex, rec.Kernel)
	}
	root, err := parseJSONTree(rec.Inputs)
	if err != nil {
		return nil, fmt.Errorf("%s: case record: inputs: %v", file, err)
	}
	d := newDrawSpec(st)
	if err := parseDrawInputs(doc, root, st, d, ""); err != nil {
		return nil, err
	}
	if !d.vertices && len(d.attrs) > 0 {
		return nil, doc.errorf(root, "case record: inputs: no \"vertices\" for the @location inputs of %s", st.vs.Name)
	}
	if err := d.fillMissing(st, "", 0, false); err != nil {
		return nil, err
	}
	c := &Case{Kind: KindDraw, Module: fm, Func: st.fs, VertexModule: vm, Vertex: st.vs, Record: rec, Fill: Fill(rec.Fill), Mode: wgsl.Portable}
	if d.size == nil {
		return nil, doc.errorf(root, "case record: inputs: no \"size\"")
	}
	if len(rec.Size) != 2 || rec.Size[0] != d.size[0] || rec.Size[1] != d.size[1] {
		return nil, fmt.Errorf("%s: case record: size %v disagrees with the inputs' size %v", file, rec.Size, *d.size)
	}
	if uint64(d.size[0])*uint64(d.size[1]) > MaxFragmentPixels || uint64(rec.Invocations) != uint64(d.size[0])*uint64(d.size[1]) {
		return nil, fmt.Errorf("%s: case record: size %dx%d with %d invocations (want one invocation per pixel, at most %d pixels)", file, d.size[0], d.size[1], rec.Invocations, MaxFragmentPixels)
	}
	if err := c.finishDraw(st, d, LoadOptions{}); err != nil {
		return nil, err
	}
	return c, nil
}

// parseDrawRecord checks a draw's record against the case file's module
// m (the fragment stage's; the vertex stage's too unless the record
// carries vertex_source, the vertex module's WGSL) and builds the case.
// src is the case file; inputsAt the offset of the record's "inputs" in
// it, where its errors are positioned.
func parseDrawRecord(file string, src []byte, m *ir.Module, rec *CaseRecord, inputsAt int) (*Case, error) {
	vm := m
	if rec.VertexSource != "" {
		var err error
		if vm, err = wgsl.Parse(file+"#vertex_source", []byte(rec.VertexSource)); err != nil {
			return nil, err
		}
	}
	c, err := drawFromRecord(file, vm, m, rec, jsonDoc{file: file, data: src, base: inputsAt})
	if err != nil {
		return nil, err
	}
	c.Source = src
	if rec.VertexSource != "" {
		c.VertexSource = []byte(rec.VertexSource)
	}
	return c, nil
}

// SetDraw fills r's draw fields from draw case c (check.NewCaseRecord's
// arm; README "Case files"): Kernel the fragment entry point, Vertex the
// vertex one, VertexSource the vertex module as canonical WGSL when it
// is a module of its own, Size and Invocations (one per pixel), Inputs
// (DrawInputsJSON) and Fill.
func (r *CaseRecord) SetDraw(c *Case) {
	r.Kernel, r.Vertex = c.Func.Name, c.Vertex.Name
	r.VertexSource = ""
	if c.TwoModules() {
		r.VertexSource = ir.Print(c.VertexModule)
	}
	r.Size = []uint32{c.Size[0], c.Size[1]}
	r.Invocations = int(c.Size[0]) * int(c.Size[1])
	r.Inputs = DrawInputsJSON(c)
	r.Fill = string(c.Fill)
}

// drawLabel names a draw's entry points for messages: "vs_main + fs_main".
func drawLabel(c *Case) string {
	if c.Vertex == nil || c.Func == nil {
		return ""
	}
	return c.Vertex.Name + " + " + c.Func.Name
}

// DrawEntries picks a draw's vertex and fragment entry points as Load
// does (o's Kernel, VertexEntry and FragmentEntry; the only ones; a
// vertex entry point by its interface among several), vm being the
// vertex stage's module and fm the fragment stage's (the same module for
// one file), and checks their interface and the two modules' bindings:
// gpudiff emit and flatten take a draw without its inputs. Errors are
// positioned (wgsl.VertexEntry's, DrawFragmentEntry's,
// CheckInterfaceIn's) or a *FlagError.
func DrawEntries(vm, fm *ir.Module, o LoadOptions) (vs, fs *ir.Func, err error) {
	st, err := pickDrawStages(vm, fm, o, "", "")
	if err != nil {
		return nil, nil, err
	}
	return st.vs, st.fs, nil
}

// IsDrawOf reports whether m with o's names loads as a draw (Load's
// rule): a second file, --vertex or --fragment given, or a module with a
// vertex and a fragment entry point and no compute one whose --kernel,
// if given, names one of them.
func IsDrawOf(m *ir.Module, o LoadOptions) bool { return isDraw(m, o) }

// vertexAlone refuses a module whose only entry points are vertex ones
// and that has no function kernel: a vertex stage is drawn before a
// fragment stage, from this module or a second file.
func vertexAlone(m *ir.Module) error {
	var vs *ir.Func
	for _, e := range m.EntryPoints() {
		if e.Stage != ir.StageVertex {
			return nil
		}
		if vs == nil {
			vs = e
		}
	}
	if vs == nil {
		return nil
	}
	if _, err := wgsl.Kernel(m, ""); err == nil {
		return nil // a function kernel beside it runs as before
	}
	return ir.ErrorList{ir.Errorf(m.File, vs.StagePos, "check", "vertex entry point %s has no fragment entry point to draw after it: give the fragment stage's file too (gpudiff exec VERT.wgsl FRAG.wgsl)", vs.Name)}
}

// pairByName picks, among several vertex entry points whose outputs a
// fragment entry point's inputs match, the one named like it — as
// samples pair vs_2d with fs_2d, vsIndexedU32BarycentricCoordinateBasedLines
// with fsBarycentricCoordinateBasedLines: each name without its stage
// prefix (vs, fs, vert, frag, vertex, fragment, then _), the longest common
// suffix wins, a tie goes to the shorter name (the plain vsIndexedU32
// for a plain fs). It is "" (Load then asks for --vertex, listing them)
// when that leaves a tie.
func pairByName(fs string, vss []*ir.Func) string {
	rest := func(name string) string {
		l := strings.ToLower(name)
		for _, p := range []string{"fragment", "vertex", "frag", "vert", "fs", "vs"} {
			if strings.HasPrefix(l, p) {
				name = name[len(p):]
				break
			}
		}
		return strings.TrimPrefix(name, "_")
	}
	suffix := func(a, b string) int {
		n := 0
		for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
			n++
		}
		return n
	}
	fr := rest(fs)
	best, bestScore, bestLen, tie := "", -1, 0, false
	for _, v := range vss {
		r := rest(v.Name)
		sc := suffix(fr, r)
		switch {
		case sc > bestScore || sc == bestScore && len(r) < bestLen:
			best, bestScore, bestLen, tie = v.Name, sc, len(r), false
		case sc == bestScore && len(r) == bestLen:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}
