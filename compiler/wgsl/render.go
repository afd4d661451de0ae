package wgsl

import (
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// Render pipelines as written (issue 39): a draw case's @vertex and
// @fragment entry points, their IO flattened to leaves, and the
// interface between them.

// StageIO is one leaf of an entry point's IO (WGSL
// #entry-point-io-types): a builtin (Builtin ≠ "", Location -1) or a
// user-defined @location(Location) value, its type (a numeric scalar or
// vector; bool for front_facing), its @interpolate as written (the zero
// value where none is; Interp.Resolved(T) gives the defaults), where it
// is — Path is [parameter] or [parameter, member] for an input, [] or
// [member] for an output — and its name ("p", "p.member"; "ret" or the
// member's name for an output).
type StageIO struct {
	Location int
	Builtin  string
	T        *ir.Type
	Interp   ir.Interpolation
	Path     []int
	Name     string
	Pos      ir.Pos // the parameter or member's declaration
}

// StageInputs lists f's inputs in declaration order, structs flattened
// to their members. An ordinary function or a compute entry point lists
// its parameters' builtins the same way.
func StageInputs(f *ir.Func) []StageIO {
	var out []StageIO
	for i, p := range f.Params {
		if p.Builtin == "" && !p.HasLocation && p.T.Kind == ir.KindStruct {
			for j, fl := range p.T.Struct.Fields {
				out = append(out, fieldIO(fl, []int{i, j}, p.Name+"."+fl.Name))
			}
			continue
		}
		io := StageIO{Location: -1, Builtin: p.Builtin, T: p.T, Interp: p.Interp, Path: []int{i}, Name: p.Name, Pos: p.Pos}
		if p.HasLocation {
			io.Location = p.Location
		}
		out = append(out, io)
	}
	return out
}

// StageOutputs lists f's outputs in declaration order: a bare result
// (its builtin, e.g. a vertex entry point's position, or its @location),
// or a struct result's members. A void function has none.
func StageOutputs(f *ir.Func) []StageIO {
	switch {
	case f.Result.IsVoid():
		return nil
	case f.Result.Kind == ir.KindStruct:
		var out []StageIO
		for j, fl := range f.Result.Struct.Fields {
			out = append(out, fieldIO(fl, []int{j}, fl.Name))
		}
		return out
	case f.ResultBuiltin != "":
		return []StageIO{{Location: -1, Builtin: f.ResultBuiltin, T: f.Result, Path: []int{}, Name: "ret", Pos: f.Pos}}
	}
	return []StageIO{{Location: f.ResultLocation, T: f.Result, Interp: f.ResultInterp, Path: []int{}, Name: "ret", Pos: f.Pos}}
}

func fieldIO(fl ir.Field, path []int, name string) StageIO {
	io := StageIO{Location: -1, Builtin: fl.Builtin, T: fl.Type, Interp: fl.Interp, Path: path, Name: name, Pos: fl.Pos}
	if fl.HasLocation {
		io.Location = fl.Location
	}
	return io
}

// CheckInterface checks that the fragment entry point fs can follow the
// vertex entry point vs in one render pipeline (WebGPU
// #abstract-opdef-validating-inter-stage-interfaces): every @location
// input of fs has a vertex output at that location of the same type and
// the same interpolation type and sampling (the defaults filled in,
// ir.Interpolation.Resolved); vertex outputs fs does not read are
// allowed. Its errors are an ir.ErrorList positioned at the fragment
// input, pass "check", with File empty (CheckInterfaceIn names the
// fragment's file).
func CheckInterface(vs, fs *ir.Func) error { return CheckInterfaceIn("", vs, fs) }

// CheckInterfaceIn is CheckInterface with fsFile, the fragment module's
// file name, in its errors.
func CheckInterfaceIn(fsFile string, vs, fs *ir.Func) error {
	if vs == nil || vs.Stage != ir.StageVertex || fs == nil || fs.Stage != ir.StageFragment {
		return fmt.Errorf("check: CheckInterface needs a vertex and a fragment entry point")
	}
	outs := map[int]StageIO{}
	for _, o := range StageOutputs(vs) {
		if o.Location >= 0 {
			outs[o.Location] = o
		}
	}
	var errs ir.ErrorList
	for _, in := range StageInputs(fs) {
		if in.Location < 0 {
			continue
		}
		o, ok := outs[in.Location]
		switch {
		case !ok:
			errs = append(errs, ir.Errorf(fsFile, in.Pos, "check", "fragment input %s at @location(%d) of %s has no vertex output of %s at that location (WebGPU #abstract-opdef-validating-inter-stage-interfaces)", in.Name, in.Location, fs.Name, vs.Name))
		case !ir.Identical(o.T, in.T):
			errs = append(errs, ir.Errorf(fsFile, in.Pos, "check", "fragment input %s at @location(%d) of %s is %v, but vertex output %s of %s there is %v (WebGPU #abstract-opdef-validating-inter-stage-interfaces)", in.Name, in.Location, fs.Name, in.T, o.Name, vs.Name, o.T))
		case o.Interp.Resolved(o.T) != in.Interp.Resolved(in.T):
			errs = append(errs, ir.Errorf(fsFile, in.Pos, "check", "fragment input %s at @location(%d) of %s is interpolated %s, but vertex output %s of %s is %s (WebGPU #abstract-opdef-validating-inter-stage-interfaces)", in.Name, in.Location, fs.Name, interpWords(in.Interp.Resolved(in.T)), o.Name, vs.Name, interpWords(o.Interp.Resolved(o.T))))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func interpWords(i ir.Interpolation) string { return i.Type.String() + ", " + i.Sampling.String() }

// IsDrawMode reports whether the module, run as written with no name
// given, is a draw: it has no compute entry point and has a vertex and a
// fragment entry point inside the subset (issue 39's draw case; which
// pair, when it has several, VertexEntry and DrawFragmentEntry ask).
func IsDrawMode(m *ir.Module) bool {
	if len(computeEntries(m)) > 0 {
		return false
	}
	var v, f bool
	for _, e := range m.EntryPoints() {
		v = v || e.Stage == ir.StageVertex
		f = f || e.Stage == ir.StageFragment
	}
	return v && f
}

// maxInterStageLocations is WebGPU's default maxInterStageShaderVariables
// and maxVertexAttributes (WebGPU #limits): locations 0 to 15 every
// adapter takes.
const maxInterStageLocations = 16

// stageEntry picks an entry point of stage st: the one named name, else
// the module's only one (several: an error listing them; flag names the
// option that picks one).
func stageEntry(m *ir.Module, name string, st ir.Stage, flag string) (*ir.Func, error) {
	fail := func(pos ir.Pos, format string, args ...any) (*ir.Func, error) {
		return nil, ir.ErrorList{ir.Errorf(m.File, pos, "check", format, args...)}
	}
	if name != "" {
		f := m.Func(name)
		if f == nil || f.Stage != st {
			if o := m.OpaqueDecl(name); o != nil && o.EntryPoint {
				return fail(o.ReasonPos, "entry point %s is outside the gpudiff subset: %s", name, o.Reason)
			}
			return fail(ir.Pos{}, "no %s entry point named %s", st, name)
		}
		return f, nil
	}
	var eps []*ir.Func
	for _, e := range m.EntryPoints() {
		if e.Stage == st {
			eps = append(eps, e)
		}
	}
	switch len(eps) {
	case 0:
		for _, o := range m.Opaque {
			if o.EntryPoint && strings.Contains(o.Text, "@"+st.String()) {
				return fail(o.ReasonPos, "%s entry point %s is outside the gpudiff subset: %s", st, o.Name, o.Reason)
			}
		}
		return fail(ir.Pos{Line: 1, Col: 1}, "the module has no %s entry point inside the gpudiff subset", st)
	case 1:
		return eps[0], nil
	}
	listed := make([]string, len(eps))
	for i, e := range eps {
		listed[i] = e.Name + " (" + e.StagePos.String() + ")"
	}
	return fail(eps[0].StagePos, "ambiguous entry point: the module has %d %s entry points: %s (name one: %s)", len(eps), st, strings.Join(listed, ", "), flag)
}

// VertexEntry returns the vertex entry point to draw as written (issue
// 39's draw case): the one named name, else the module's only one. Its
// errors are ir.ErrorList values positioned at the construct, pass
// "check": several vertex entry points and no name (listing them, name
// one: --vertex); a named one that is not a vertex entry point or is
// outside the subset (its reason); an attribute or varying at a location
// past 15 (WebGPU's default maxVertexAttributes and
// maxInterStageShaderVariables, 16). Uniform and read-only storage
// buffers, textures and samplers are inside; the front end has refused
// what WGSL refuses in the vertex stage (read_write storage, workgroup
// memory, barriers, derivatives, implicit-derivative sampling, discard).
func VertexEntry(m *ir.Module, name string) (*ir.Func, error) {
	f, err := stageEntry(m, name, ir.StageVertex, "--vertex")
	if err != nil {
		return nil, err
	}
	for _, io := range append(StageInputs(f), StageOutputs(f)...) {
		if io.Location >= maxInterStageLocations {
			return nil, ir.ErrorList{ir.Errorf(m.File, io.Pos, "check", "vertex entry point %s: %s is at @location(%d): gpudiff takes locations 0 to %d, the %d every adapter supports (WebGPU's maxVertexAttributes, maxInterStageShaderVariables)",
				f.Name, io.Name, io.Location, maxInterStageLocations-1, maxInterStageLocations)}
		}
	}
	return f, nil
}

// DrawFragmentEntry returns the fragment entry point to draw as written
// after a vertex entry point (issue 39's draw case): the one named name,
// else the module's only one. Beside FragmentEntry's output rules (one
// attachment per location 0 to k-1, 32-bit colour formats, 32 bytes per
// pixel) it takes @location varyings (locations 0 to 15),
// @builtin(front_facing), structs of inputs, discard, and uniform and
// read-only storage buffers, textures and samplers. Refused, positioned:
// a read_write storage buffer or an atomic (writable storage in the
// fragment stage is outside v1) and a storage texture it may write.
// Several fragment entry points and no name: name one (--fragment).
func DrawFragmentEntry(m *ir.Module, name string) (*ir.Func, error) {
	f, err := stageEntry(m, name, ir.StageFragment, "--fragment")
	if err != nil {
		return nil, err
	}
	if err := fragmentOutputs(m, f); err != nil {
		return nil, err
	}
	for _, io := range StageInputs(f) {
		if io.Location >= maxInterStageLocations {
			return nil, ir.ErrorList{ir.Errorf(m.File, io.Pos, "check", "fragment entry point %s: input %s is at @location(%d): gpudiff takes locations 0 to %d (WebGPU's maxInterStageShaderVariables, 16)",
				f.Name, io.Name, io.Location, maxInterStageLocations-1)}
		}
	}
	if bad, what := firstFragmentBinding(m, f, true); bad != nil {
		return nil, ir.ErrorList{ir.Errorf(m.File, bad.Position(), "check", "fragment entry point %s %s", f.Name, what)}
	}
	return f, nil
}

// firstFragmentBinding is the first use in f's call graph of a binding a
// fragment entry point cannot take, and why: writable storage (a
// read_write storage buffer, an atomic, a storage texture it may write)
// always; with draw false (FragmentEntry's full-screen triangle) every
// storage and uniform buffer too.
func firstFragmentBinding(m *ir.Module, f *ir.Func, draw bool) (ir.Node, string) {
	for _, g := range m.CallGraph(f.Name) {
		var bad ir.Node
		var what string
		ir.Inspect(g.Body, func(n ir.Node) bool {
			if bad != nil {
				return false
			}
			switch x := n.(type) {
			case *ir.Ident:
				if x.Ref == ir.RefHandle {
					if v := m.TextureVar(x.Name); v != nil && v.T.Kind == ir.KindTexture && v.T.Tex.Class == ir.TexStorage && v.T.Tex.Access != ir.TexRead {
						bad, what = x, "uses storage texture "+x.Name+" with "+v.T.Tex.Access.String()+" access: gpudiff's fragment entry points take sampled and read-only textures and samplers, no writable bindings yet"
					}
				}
				if x.Ref == ir.RefShared {
					v := m.SharedVar(x.Name)
					switch {
					case !draw:
						bad, what = x, "uses var<"+v.Space.String()+"> "+x.Name+": gpudiff's fragment entry points take no bindings yet"
					case v.Writable():
						bad, what = x, "uses var<storage, read_write> "+x.Name+": writable storage in the fragment stage is outside gpudiff's v1 render pipelines (uniform and read-only storage buffers are inside)"
					}
				}
			case *ir.Atomic:
				bad, what = x, "calls "+x.Op.String()+": gpudiff's fragment entry points take no writable bindings yet"
			case *ir.ArrayLength:
				if !draw {
					bad, what = x, "calls arrayLength: gpudiff's fragment entry points take no bindings yet"
				}
			}
			return bad == nil
		})
		if bad != nil {
			return bad, what
		}
	}
	return nil, ""
}

// fragmentOutputs checks f's outputs against what gpudiff reads back
// (FragmentEntry's rules).
func fragmentOutputs(m *ir.Module, f *ir.Func) error {
	fail := func(pos ir.Pos, format string, args ...any) error {
		return ir.ErrorList{ir.Errorf(m.File, pos, "check", format, args...)}
	}
	outs := FragmentOutputs(f)
	if len(outs) == 0 {
		return fail(f.StagePos, "fragment entry point %s has no @location output: gpudiff compares a fragment's outputs", f.Name)
	}
	bytes := 0
	for i, o := range outs {
		if o.T.Kind == ir.KindVec && o.T.Len == 3 {
			return fail(f.Pos, "fragment output %s is %v: no 32-bit colour format has three components (use vec4)", o.Name, o.T)
		}
		if o.Location != i {
			return fail(f.Pos, "fragment output %s is at @location(%d): gpudiff takes outputs at locations 0 to %d, one attachment each", o.Name, o.Location, len(outs)-1)
		}
		bytes += ir.SizeOf(o.T)
	}
	if bytes > maxFragmentBytes {
		return fail(f.Pos, "the outputs of fragment entry point %s take %d bytes per pixel, more than the %d every adapter supports (WebGPU's maxColorAttachmentBytesPerSample)", f.Name, bytes, maxFragmentBytes)
	}
	return nil
}

// EmitStage returns a WGSL module that runs the vertex or fragment entry
// point entry of m as written: the structs (with their IO attributes),
// private globals and functions of entry's call graph rewritten for mode,
// the helpers portable mode needs, and the bindings the call graph uses
// (var<uniform>, var<storage>, textures, samplers, with their @group and
// @binding). The entry point keeps its name and its IO attributes.
// Errors: an unknown name or a function that is not a vertex or fragment
// entry point, an unknown mode.
func EmitStage(m *ir.Module, entry string, opts EmitOptions) (string, error) {
	return emitRender(m, []string{entry}, opts)
}

// EmitDraw returns one WGSL module holding both entry points of a draw
// (vs, a vertex entry point, and fs, a fragment one, of m) as EmitStage
// emits each: their call graphs' union, each function once, and the
// bindings either uses.
func EmitDraw(m *ir.Module, vs, fs string, opts EmitOptions) (string, error) {
	if f := m.Func(vs); f == nil || f.Stage != ir.StageVertex {
		return "", fmt.Errorf("emit: no vertex entry point %q in module", vs)
	}
	if f := m.Func(fs); f == nil || f.Stage != ir.StageFragment {
		return "", fmt.Errorf("emit: no fragment entry point %q in module", fs)
	}
	return emitRender(m, []string{vs, fs}, opts)
}

func emitRender(m *ir.Module, entries []string, opts EmitOptions) (string, error) {
	for _, name := range entries {
		if f := m.Func(name); f == nil || !f.Stage.IsRenderStage() {
			return "", fmt.Errorf("emit: no vertex or fragment entry point %q in module", name)
		}
	}
	mode := opts.Mode
	if mode == "" {
		mode = Portable
	}
	if mode != Portable && mode != Raw {
		return "", fmt.Errorf("emit: unknown mode %q", mode)
	}
	e := newEmitter(m, entries[0], mode)
	e.omitSubgroups = opts.OmitSubgroupsEnable
	m = e.m // DirectVariableAccess's module
	if len(entries) > 1 {
		seen := map[string]bool{}
		var funcs []*ir.Func
		globals := map[string]bool{}
		for _, name := range entries {
			for _, f := range m.CallGraph(name) {
				if !seen[f.Name] {
					seen[f.Name] = true
					funcs = append(funcs, f)
				}
			}
			for _, g := range m.GlobalsUsed(name) {
				globals[g.Name] = true
			}
		}
		e.funcs = funcs
		e.globals = nil
		for _, g := range m.Globals {
			if globals[g.Name] {
				e.globals = append(e.globals, g)
			}
		}
		e.namer = ir.NewNamer(nil, e.funcs...)
		for _, g := range e.globals {
			e.namer.Reserve(g.Name)
		}
	}
	used := map[string]bool{}
	for _, f := range e.funcs {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if id, ok := n.(*ir.Ident); ok && (id.Ref == ir.RefHandle || id.Ref == ir.RefShared) {
				used[id.Name] = true
			}
			return true
		})
	}
	var extra []*ir.Type
	var decls []string
	for _, v := range m.Shared {
		if used[v.Name] {
			e.namer.Reserve(v.Name)
			extra = append(extra, v.T)
			decls = append(decls, v.Decl())
		}
	}
	for _, v := range m.Textures {
		if used[v.Name] {
			e.namer.Reserve(v.Name)
			decls = append(decls, v.Decl())
		}
	}
	e.structs = usedStructs(m, e.funcs, e.globals, extra...)
	for _, s := range e.structs {
		e.namer.Reserve(s.Name)
	}
	e.prepare()
	dirs := e.directives(extra...)
	if len(decls) == 0 {
		return dirs + e.body.String(), nil
	}
	return dirs + strings.Join(decls, "\n") + "\n\n" + e.body.String(), nil
}
