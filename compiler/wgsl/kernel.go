package wgsl

import (
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// Kernel returns the kernel function to test in m (ARCHITECTURE.md "Kernel
// ABI"): the function named name when name is non-empty, else the only
// function that is not an entry point and that no other function (IR or
// opaque, entry points included) calls.
//
// Errors (ir.ErrorList with pass "check"):
//   - no such function, or no candidate, or several candidates (the
//     message lists them, sorted);
//   - the kernel, or a function it calls, is outside the subset: the error
//     is positioned at the first construct outside the subset and names
//     it ("file:12:5: check: kernel foo is outside the gpudiff subset:
//     pointer parameter");
//   - a kernel parameter must be uniform (WGSL #uniformity: it controls a
//     barrier, derivative or subgroup operation), but kernel arguments
//     differ per invocation.
func Kernel(m *ir.Module, name string) (*ir.Func, error) {
	fail := func(pos ir.Pos, format string, args ...any) (*ir.Func, error) {
		return nil, ir.ErrorList{ir.Errorf(m.File, pos, "check", format, args...)}
	}
	if name == "" {
		cands := kernelCandidates(m)
		switch len(cands) {
		case 0:
			return fail(ir.Pos{}, "no kernel: every function is an entry point or is called by another function")
		case 1:
			name = cands[0]
		default:
			return fail(ir.Pos{}, "ambiguous kernel: candidates are %s (name one)", strings.Join(cands, ", "))
		}
	}
	f := m.Func(name)
	if f == nil {
		o := m.OpaqueDecl(name)
		if o == nil || o.Kind != "fn" {
			return fail(ir.Pos{}, "no function named %s", name)
		}
		return fail(o.ReasonPos, "kernel %s is outside the gpudiff subset: %s", name, o.Reason)
	}
	u := uniAnalyze(m, uniRuleIsError(m, "derivative_uniformity"), uniRuleIsError(m, "subgroup_uniformity"))
	if len(u.errs) > 0 {
		return nil, u.errs
	}
	if t := u.tags[name]; t != nil {
		for i, p := range f.Params {
			if t.paramRequired[i] {
				return fail(p.Pos, "kernel %s: parameter %s must be uniform (it %s), but kernel arguments differ per invocation (WGSL #uniformity)",
					name, p.Name, t.paramWhy[i])
			}
		}
	}
	return f, nil
}

// kernelCandidates lists, sorted, the non-entry-point functions no other
// function calls.
func kernelCandidates(m *ir.Module) []string {
	called := map[string]bool{}
	for _, f := range m.Funcs {
		for _, c := range ir.Callees(f) {
			if c != f.Name {
				called[c] = true
			}
		}
	}
	var opaqueFns []string
	for _, o := range m.Opaque {
		if o.Kind != "fn" {
			continue
		}
		if !o.EntryPoint {
			opaqueFns = append(opaqueFns, o.Name)
		}
		for c := range opaqueCallees(o.Text) {
			if c != o.Name {
				called[c] = true
			}
		}
	}
	cands := map[string]bool{}
	for _, f := range m.Funcs {
		if !called[f.Name] {
			cands[f.Name] = true
		}
	}
	for _, n := range opaqueFns {
		if !called[n] {
			cands[n] = true
		}
	}
	return sortedKeys(cands)
}

// opaqueCallees returns the names called in the source text of an opaque
// function declaration.
func opaqueCallees(text string) map[string]bool {
	out := map[string]bool{}
	decls, _ := parseSource([]byte(text), &diagList{})
	for _, d := range decls {
		if d.body == nil {
			continue
		}
		chkWalk(d.body, func(n any) {
			if c, ok := n.(*astCallExpr); ok {
				out[c.callee.name] = true
			}
		})
	}
	return out
}
