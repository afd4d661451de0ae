package wgsl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// FragmentOutput is one @location output of a fragment entry point: its
// location, its type (a numeric scalar, vec2 or vec4) and, for a struct
// result, the member it is (Member < 0: the whole result).
type FragmentOutput struct {
	Location int
	T        *ir.Type
	Member   int
	Name     string // the member's name, or "ret"
}

// FragmentOutputs lists f's @location outputs in location order.
func FragmentOutputs(f *ir.Func) []FragmentOutput {
	if f.Result.IsVoid() {
		return nil
	}
	if f.Result.Kind != ir.KindStruct {
		return []FragmentOutput{{Location: f.ResultLocation, T: f.Result, Member: -1, Name: "ret"}}
	}
	var out []FragmentOutput
	for i, fl := range f.Result.Struct.Fields {
		out = append(out, FragmentOutput{Location: fl.Location, T: fl.Type, Member: i, Name: fl.Name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Location < out[j].Location })
	return out
}

// maxFragmentBytes is the bytes per pixel of the outputs that every
// adapter takes: WebGPU's default maxColorAttachmentBytesPerSample
// (WebGPU #limits), for 32-bit formats the sum of the outputs' sizes.
const maxFragmentBytes = 32

// IsFragmentMode reports whether name (or, when name is empty, the
// module's default choice) is a fragment entry point run as written: name
// names one, or name is empty, the module has no compute entry point and
// it has a fragment entry point inside the subset, whatever helper
// functions it also declares (DefaultRunsEntry).
func IsFragmentMode(m *ir.Module, name string) bool {
	if name != "" {
		f := m.Func(name)
		return f != nil && f.Stage == ir.StageFragment
	}
	if len(computeEntries(m)) > 0 {
		return false
	}
	for _, f := range m.EntryPoints() {
		if f.Stage == ir.StageFragment {
			return true
		}
	}
	if len(kernelCandidates(m)) > 0 {
		return false
	}
	// A fragment entry point outside the subset: FragmentEntry says why,
	// where.
	return opaqueFragment(m) != nil && !opaqueCompute(m)
}

// opaqueFragment is the first @fragment entry point outside the subset,
// or nil.
func opaqueFragment(m *ir.Module) *ir.Opaque {
	for _, o := range m.Opaque {
		if o.EntryPoint && strings.Contains(o.Text, "@fragment") {
			return o
		}
	}
	return nil
}

// opaqueCompute reports whether a @compute entry point is outside the
// subset.
func opaqueCompute(m *ir.Module) bool {
	for _, o := range m.Opaque {
		if o.EntryPoint && strings.Contains(o.Text, "@compute") {
			return true
		}
	}
	return false
}

// FragmentEntry returns the fragment entry point to run as written
// (ARCHITECTURE.md "Entry points as written (fragment)"): the one named
// name, else the module's only one. Its errors are ir.ErrorList values
// positioned at the construct gpudiff cannot run, pass "check":
//   - several fragment entry points and no name (listing them);
//   - no @location output;
//   - an output type with no 32-bit colour format of as many components
//     (vec3: r32, rg32 and rgba32 formats exist, rgb32 does not);
//   - outputs at locations other than 0, 1, …, k-1 (each location is an
//     attachment, every attachment written);
//   - outputs of more than 32 bytes per pixel (WebGPU's default
//     maxColorAttachmentBytesPerSample, which every adapter supports);
//   - in its call graph, a storage or uniform binding or workgroup
//     variable, an atomic or arrayLength, or a storage texture it may
//     write (the subset's fragment entry points take sampled and
//     read-only textures and samplers, no other bindings yet);
//   - drawn alone, inputs other than @builtin(position) (a @location
//     varying, front_facing, a struct of inputs) and discard, at the
//     input or the statement: DrawFragmentEntry takes them after a
//     vertex entry point.
//
// Derivatives (dpdx & co) and implicit-derivative sampling are inside:
// the reference runs fragments in 2×2 quads (interp.Program.RunQuads).
func FragmentEntry(m *ir.Module, name string) (*ir.Func, error) {
	fail := func(pos ir.Pos, format string, args ...any) (*ir.Func, error) {
		return nil, ir.ErrorList{ir.Errorf(m.File, pos, "check", format, args...)}
	}
	var f *ir.Func
	if name != "" {
		f = m.Func(name)
		if f == nil || f.Stage != ir.StageFragment {
			if o := m.OpaqueDecl(name); o != nil && o.EntryPoint {
				return fail(o.ReasonPos, "entry point %s is outside the gpudiff subset: %s", name, o.Reason)
			}
			return fail(ir.Pos{}, "no fragment entry point named %s", name)
		}
	} else {
		var eps []*ir.Func
		for _, e := range m.EntryPoints() {
			if e.Stage == ir.StageFragment {
				eps = append(eps, e)
			}
		}
		switch len(eps) {
		case 0:
			if o := opaqueFragment(m); o != nil {
				return fail(o.ReasonPos, "fragment entry point %s is outside the gpudiff subset: %s", o.Name, o.Reason)
			}
			return fail(ir.Pos{Line: 1, Col: 1}, "the module has no fragment entry point inside the gpudiff subset")
		case 1:
			f = eps[0]
		default:
			listed := make([]string, len(eps))
			for i, e := range eps {
				listed[i] = e.Name + " (" + e.StagePos.String() + ")"
			}
			return fail(eps[0].StagePos, "ambiguous entry point: the module has %d fragment entry points: %s (name one: --kernel)", len(eps), strings.Join(listed, ", "))
		}
	}
	if err := fragmentOutputs(m, f); err != nil {
		return nil, err
	}
	// Drawn alone (one full-screen triangle from gpudiff's own vertex
	// stage), a fragment gets its position and nothing else.
	for _, p := range f.Params {
		switch {
		case p.HasLocation:
			return fail(p.Pos, "fragment entry point %s is outside the gpudiff subset: fragment input @location (gpudiff's vertex stage passes no values to the fragment stage; draw it after a @vertex entry point: DrawFragmentEntry)", f.Name)
		case p.Builtin == "" && p.T.Kind == ir.KindStruct:
			return fail(p.Pos, "fragment entry point %s is outside the gpudiff subset: a structure of fragment inputs drawn alone (take @builtin(position) as a parameter, or draw it after a @vertex entry point)", f.Name)
		case p.Builtin != "" && p.Builtin != "position":
			return fail(p.Pos, "fragment entry point %s is outside the gpudiff subset: fragment input @builtin(%s) drawn alone (gpudiff's full-screen triangle gives only @builtin(position); draw it after a @vertex entry point)", f.Name, p.Builtin)
		}
	}
	if d := firstDiscard(m, f.Name); d != nil {
		return fail(d.Pos, "fragment entry point %s is outside the gpudiff subset: discard statement (drawn alone, a demoted fragment writes nothing, which gpudiff would have to tell from a written zero; draw it after a @vertex entry point)", f.Name)
	}
	if bad, what := firstFragmentBinding(m, f, false); bad != nil {
		return fail(bad.Position(), "fragment entry point %s %s", f.Name, what)
	}
	return f, nil
}

// EmitFragment returns a WGSL module that runs the fragment entry point
// entry of m as written: the structs (with their @location and @builtin
// attributes), private globals and functions of entry's call graph, entry
// itself with its @fragment, @builtin(position) and @location attributes,
// all rewritten for mode as every emitted function is, and the helpers
// portable mode needs. No wrapper is added; the entry point keeps its
// name. A flattened twin of a fragment entry point is one too (flatten
// keeps its stage and outputs). Errors: an unknown name or a function
// that is not a fragment entry point, an unknown mode.
func EmitFragment(m *ir.Module, entry string, opts EmitOptions) (string, error) {
	f := m.Func(entry)
	if f == nil || f.Stage != ir.StageFragment {
		return "", fmt.Errorf("emit: no fragment entry point %q in module", entry)
	}
	mode := opts.Mode
	if mode == "" {
		mode = Portable
	}
	if mode != Portable && mode != Raw {
		return "", fmt.Errorf("emit: unknown mode %q", mode)
	}
	dirs, body := emitFunctions(m, entry, mode, opts)
	if len(m.Textures) == 0 {
		return dirs + body, nil
	}
	// The texture and sampler bindings the entry point's functions use
	// (issue 24: a fragment entry point as written samples them).
	used := map[string]bool{}
	for _, g := range m.CallGraph(entry) {
		ir.Inspect(g.Body, func(n ir.Node) bool {
			if id, ok := n.(*ir.Ident); ok && id.Ref == ir.RefHandle {
				used[id.Name] = true
			}
			return true
		})
	}
	var b strings.Builder
	for _, v := range m.Textures {
		if used[v.Name] {
			b.WriteString(v.Decl() + "\n")
		}
	}
	return dirs + b.String() + "\n" + body, nil
}
