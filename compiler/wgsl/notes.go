package wgsl

import (
	"github.com/gpudiff/gpudiff/ir"
)

// Notes returns what the front end has to say about a module it accepted
// that is not an error: today, that m uses a subgroup or quad builtin
// function or the builtin value subgroup_invocation_id or subgroup_size
// without `enable subgroups;`. WGSL requires the directive (WGSL
// #extension-subgroups) and Tint refuses such a module; naga accepts it
// behind its SUBGROUP feature, and so does Parse. The emitter writes the
// directive unless EmitOptions.OmitSubgroupsEnable.
//
// Each note is an *ir.Error with Pass "note", positioned at the first use
// in source order (it prints "file:line:col: note: message"), for the
// caller to print beside the override notes (check/testcase's loader).
// Only declarations in the subset are looked at: one outside it never
// runs. nil when there is nothing to say.
func Notes(m *ir.Module) []*ir.Error {
	if m == nil || hasEnable(m, "subgroups") {
		return nil
	}
	first, what := firstSubgroupUse(m)
	if !first.IsValid() {
		return nil
	}
	return []*ir.Error{ir.Errorf(m.File, first, "note",
		"%s without `enable subgroups;`: WGSL requires the directive (WGSL #extension-subgroups) and Tint refuses the module without it; "+
			"naga accepts it (its SUBGROUP feature), and so does gpudiff, whose emitted WGSL has the directive unless the stack takes it without; "+
			"as naga, gpudiff checks no subgroup uniformity here (the emitted WGSL says diagnostic(off, subgroup_uniformity)), and results of subgroup operations in divergent control flow are judged as depending on reconvergence",
		what)}
}

// hasEnable reports whether one of m's enable directives names ext.
func hasEnable(m *ir.Module, ext string) bool {
	for _, o := range m.Opaque {
		if o.Kind != "enable" {
			continue
		}
		for _, n := range enableNames(o.Text) {
			if n == ext {
				return true
			}
		}
	}
	return false
}

// firstSubgroupUse returns the position of the first subgroup builtin
// call or subgroup builtin value (a parameter or a struct member an
// entry point takes) among m's functions, and how to name it.
func firstSubgroupUse(m *ir.Module) (ir.Pos, string) {
	var pos ir.Pos
	what := ""
	note := func(p ir.Pos, w string) {
		if p.IsValid() && (!pos.IsValid() || p.Line < pos.Line || p.Line == pos.Line && p.Col < pos.Col) {
			pos, what = p, w
		}
	}
	for _, f := range m.Funcs {
		for _, p := range f.Params {
			if ir.SubgroupBuiltin(p.Builtin) {
				note(p.Pos, "@builtin("+p.Builtin+")")
			}
			if p.T.Kind == ir.KindStruct && f.Stage != ir.StageNone {
				for _, fl := range p.T.Struct.Fields {
					if ir.SubgroupBuiltin(fl.Builtin) {
						note(fl.Pos, "@builtin("+fl.Builtin+")")
					}
				}
			}
		}
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if b, ok := n.(*ir.BuiltinCall); ok && b.Fn.Info().Class == ir.ClassSubgroup {
				note(b.Pos, b.Fn.Info().Name)
			}
			return true
		})
	}
	return pos, what
}
