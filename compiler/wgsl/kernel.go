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
//   - no such function;
//   - no candidate: positioned at the first entry point's stage attribute
//     (at 1:1 in a module without functions), saying that gpudiff runs
//     function kernels and not yet entry points as written (issue 14),
//     followed by one error per other construct of the module that is
//     outside the subset (positioned, named);
//   - several candidates: positioned at the first in source order, the
//     message lists them, sorted by name, with their positions;
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
			return nil, noKernel(m)
		case 1:
			name = cands[0]
		default:
			first, listed := ir.Pos{}, make([]string, len(cands))
			for i, c := range cands {
				p := funcPos(m, c)
				if !first.IsValid() || p.IsValid() && (p.Line < first.Line || p.Line == first.Line && p.Col < first.Col) {
					first = p
				}
				listed[i] = c
				if p.IsValid() {
					listed[i] += " (" + p.String() + ")"
				}
			}
			return fail(first, "ambiguous kernel: %d functions are neither entry points nor called by another function, so each could be the kernel: %s (name one: --kernel)",
				len(cands), strings.Join(listed, ", "))
		}
	}
	f := m.Func(name)
	if f == nil {
		o := m.OpaqueDecl(name)
		if o == nil || o.Kind != "fn" {
			return fail(ir.Pos{}, "no function named %s", name)
		}
		if o.EntryPoint {
			return fail(o.ReasonPos, "kernel %s is outside the gpudiff subset: %s; %s", name, o.Reason, kernelModeToday)
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

// kernelModeToday says what gpudiff runs, for refusals of entry points.
const kernelModeToday = "gpudiff runs function kernels today (a function that is neither an entry point nor called by another function, " +
	"run once per invocation with arguments from --inputs or --seed); entry points as written are coming (issue 14)"

// noKernel is Kernel's error for a module without a candidate: at the
// first entry point (a module without a candidate has one, or declares no
// function), then one error per other declaration outside the subset and
// per enable directive, in source order, so that the user sees at once
// what else stands between the module and gpudiff.
func noKernel(m *ir.Module) ir.ErrorList {
	var entry *ir.Opaque
	for _, o := range m.Opaque {
		if o.EntryPoint {
			entry = o
			break
		}
	}
	var list ir.ErrorList
	if entry == nil {
		list = append(list, ir.Errorf(m.File, ir.Pos{Line: 1, Col: 1}, "check",
			"no kernel: the module declares no function; gpudiff runs a function kernel: a function that is neither an entry point nor called by another function, "+
				"e.g. fn k(x: u32) -> u32 { return x * 2u; }, once per invocation with arguments from --inputs or --seed"))
	} else {
		list = append(list, ir.Errorf(m.File, entry.ReasonPos, "check",
			"no kernel: every function is an entry point (the first: %s fn %s) or is called by another function; %s",
			strings.TrimSuffix(strings.TrimPrefix(entry.Reason, "entry point ("), ")"), entry.Name, kernelModeToday))
	}
	for _, o := range m.Opaque {
		if len(list) == 10 {
			break
		}
		switch {
		case o.EntryPoint:
		case o.Kind == "enable":
			list = append(list, ir.Errorf(m.File, o.Pos, "check", "also outside gpudiff's subset: %s (enable-extensions)", strings.TrimSuffix(o.Text, ";")))
		case o.Reason != "" && !strings.HasSuffix(o.Reason, "(kept verbatim)"):
			what := o.Kind
			if o.Name != "" {
				what += " " + o.Name
			}
			list = append(list, ir.Errorf(m.File, o.ReasonPos, "check", "also outside gpudiff's subset: %s: %s", what, o.Reason))
		}
	}
	return list
}

// funcPos is the position of the function (IR or opaque) named name.
func funcPos(m *ir.Module, name string) ir.Pos {
	if f := m.Func(name); f != nil {
		return f.Pos
	}
	if o := m.OpaqueDecl(name); o != nil {
		return o.Pos
	}
	return ir.Pos{}
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
