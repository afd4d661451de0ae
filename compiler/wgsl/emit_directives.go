package wgsl

import (
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// The enable directives an emitted module needs (WGSL #enable-extensions-sec):
// `enable f16;` when any type it declares or uses holds f16
// (ir.Type.HasF16; WGSL #extension-f16), `enable subgroups;` when it calls a
// subgroup or quad builtin (ir.ClassSubgroup) or takes
// @builtin(subgroup_invocation_id) or @builtin(subgroup_size)
// (ir.SubgroupBuiltin; WGSL #extension-subgroups) — unless
// EmitOptions.OmitSubgroupsEnable, for a stack whose WGSL front end takes
// subgroup builtins without the directive (naga, behind its SUBGROUP
// feature) or refuses it. The directives come first, before every
// declaration, as WGSL requires (#directives).

// moduleNeeds is what the enable directives of an emitted module answer.
type moduleNeeds struct {
	f16, subgroups bool
}

// directives returns the enable directives for what the emitter emits —
// its functions, structs and private globals, and the types of the
// shared variables and texture declarations in extra — each on its own
// line, or "" when none is needed.
func (e *emitter) directives(extra ...*ir.Type) string {
	n := e.needs(extra...)
	return n.text(e.omitSubgroups) + e.diagnostics()
}

// needs is what the emitter's output needs (directives).
func (e *emitter) needs(extra ...*ir.Type) moduleNeeds {
	var n moduleNeeds
	for _, s := range e.structs {
		n.structNeeds(s)
	}
	for _, g := range e.globals {
		n.typeNeeds(g.T)
	}
	for _, t := range extra {
		n.typeNeeds(t)
	}
	for _, f := range e.funcs {
		n.funcNeeds(f)
	}
	return n
}

// diagnostics returns the module's global diagnostic directives
// (`diagnostic(off, subgroup_uniformity);`, WGSL #diagnostic-directive),
// kept verbatim as ir.Opaque declarations, each on its own line (and a
// blank line after them), or "": they set the severity of the uniformity
// rules the emitted functions were checked under, so a stack's front end
// must see them too (a subgroup operation in divergent control flow is
// valid only under `diagnostic(off, subgroup_uniformity)`).
func (e *emitter) diagnostics() string {
	s := ""
	for _, o := range e.m.Opaque {
		if o.Kind == "diagnostic" {
			t := strings.TrimSpace(o.Text)
			if !strings.HasSuffix(t, ";") {
				t += ";"
			}
			s += t + "\n"
		}
	}
	if s != "" {
		s += "\n"
	}
	return s
}

func (n *moduleNeeds) text(omitSubgroups bool) string {
	s := ""
	if n.f16 {
		s += "enable f16;\n"
	}
	if n.subgroups && !omitSubgroups {
		s += "enable subgroups;\n"
	}
	if s != "" {
		s += "\n"
	}
	return s
}

func (n *moduleNeeds) typeNeeds(t *ir.Type) {
	if t != nil && t.HasF16() {
		n.f16 = true
	}
}

func (n *moduleNeeds) structNeeds(s *ir.StructDecl) {
	for _, f := range s.Fields {
		n.typeNeeds(f.Type)
		if ir.SubgroupBuiltin(f.Builtin) {
			n.subgroups = true
		}
	}
}

// funcNeeds records what f's signature and body need: every expression's
// type (a literal, a let's value, a conversion's result) and every
// subgroup builtin call.
func (n *moduleNeeds) funcNeeds(f *ir.Func) {
	n.typeNeeds(f.Result)
	for _, p := range f.Params {
		n.typeNeeds(p.T)
		if ir.SubgroupBuiltin(p.Builtin) {
			n.subgroups = true
		}
		if p.T.Kind == ir.KindStruct {
			n.structNeeds(p.T.Struct)
		}
	}
	if f.Body == nil {
		return
	}
	ir.Inspect(f.Body, func(x ir.Node) bool {
		switch x := x.(type) {
		case *ir.BuiltinCall:
			if x.Fn.Info().Class == ir.ClassSubgroup {
				n.subgroups = true
			}
		case *ir.Decl:
			n.typeNeeds(x.T)
		}
		if e, ok := x.(ir.Expr); ok {
			n.typeNeeds(e.Type())
		}
		return true
	})
}

// ModuleNeedsF16 reports whether m declares or uses a type holding f16
// (its structs, private and shared variables, and its functions'
// signatures and expressions; opaque declarations aside): a module that
// needs `enable f16;` and an adapter with the shader-f16 feature (WGSL
// #extension-f16, WebGPU #shader-f16).
func ModuleNeedsF16(m *ir.Module) bool { return moduleNeedsOf(m).f16 }

// ModuleNeedsSubgroups reports whether m calls a subgroup or quad builtin
// or takes @builtin(subgroup_invocation_id) or @builtin(subgroup_size):
// a module that needs an adapter with the subgroups feature (WGSL
// #extension-subgroups, WebGPU #subgroups).
func ModuleNeedsSubgroups(m *ir.Module) bool { return moduleNeedsOf(m).subgroups }

func moduleNeedsOf(m *ir.Module) moduleNeeds {
	var n moduleNeeds
	for _, s := range m.Structs {
		n.structNeeds(s)
	}
	for _, g := range m.Globals {
		n.typeNeeds(g.T)
	}
	for _, v := range m.Shared {
		n.typeNeeds(v.T)
	}
	for _, f := range m.Funcs {
		n.funcNeeds(f)
	}
	return n
}
