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
//     function kernels and compute entry points as written,
//     followed by one error per other construct of the module that is
//     outside the subset (positioned, named);
//   - several candidates: positioned at the first in source order, the
//     message lists them, sorted by name, with their positions;
//   - no name, and the module runs an entry point by default
//     (DefaultRunsEntry) beside helper functions: positioned at its stage
//     attribute, naming --kernel; and no name, helper functions, and the
//     module's @compute or @fragment entry point outside the subset:
//     positioned at the entry point, listing the helpers (a helper is
//     never run in an entry point's place);
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
		if f := defaultEntry(m); f != nil && len(cands) > 0 {
			// A helper is not what the module runs (DefaultRunsEntry).
			return fail(f.StagePos, "the module's entry point %s runs as written by default, not as a function kernel; name a function with --kernel to run it as a function kernel", f.Name)
		}
		if o := opaqueEntry(m); o != nil && len(cands) > 0 {
			// The module's entry point is what its author runs: running a
			// helper instead would test something nobody asked for.
			o = stageOf(o)
			return fail(o.ReasonPos, "the module's %s fn %s, which would run by default, is outside the gpudiff subset; name a function with --kernel (%s) to run it as a function kernel instead",
				strings.TrimSuffix(strings.TrimPrefix(o.Reason, "entry point ("), ")"), o.Name, strings.Join(cands, ", "))
		}
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
	if f != nil && f.Stage == ir.StageFragment {
		return fail(f.StagePos, "kernel %s is a fragment entry point: it runs as written (gpudiff exec --size WxH), not as a function kernel", name)
	}
	if f != nil && f.Stage == ir.StageVertex {
		return fail(f.StagePos, "kernel %s is a vertex entry point: it runs as written in a draw beside a fragment entry point, not as a function kernel", name)
	}
	if f != nil && f.Stage != ir.StageNone {
		return fail(f.StagePos, "kernel %s is a compute entry point: it runs as written (gpudiff exec --no-gpu --workgroups X,Y,Z), not as a function kernel", name)
	}
	if f != nil {
		if err := functionKernelMemory(m, name); err != nil {
			return nil, err
		}
		if d := firstDiscard(m, name); d != nil {
			// The kernel ABI runs it in the compute stage too, where WGSL
			// refuses discard (WGSL #discard-statement).
			return fail(d.Pos, "kernel %s is outside the gpudiff subset: discard statement (a function kernel also runs in the compute stage, where WGSL refuses discard; a @fragment entry point may discard)", name)
		}
	}
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
	for _, p := range f.Params {
		if p.Ptr != 0 {
			// ARCHITECTURE.md "Kernel ABI": arguments are values read
			// from a buffer per invocation.
			return fail(p.PtrPos, "kernel %s is outside the gpudiff subset: pointer parameter", name)
		}
	}
	u := ir.Uniformity(m, ir.UniformityOptions{DerivativeError: uniRuleIsError(m, "derivative_uniformity"), SubgroupError: uniRuleIsError(m, "subgroup_uniformity")})
	if len(u.Errors) > 0 {
		return nil, u.Errors
	}
	for i, p := range f.Params {
		if req, why := u.ParamRequired(name, i); req {
			return fail(p.Pos, "kernel %s: parameter %s must be uniform (it %s), but kernel arguments differ per invocation (WGSL #uniformity)",
				name, p.Name, why)
		}
	}
	return f, nil
}

// kernelModeToday says what gpudiff runs, for refusals of entry points.
const kernelModeToday = "gpudiff runs function kernels (a function that is neither an entry point nor called by another function, " +
	"run once per invocation with arguments from --inputs or --seed), @compute entry points as written, whose functions must all be in the subset, " +
	"and @fragment entry points as written (exec --size WxH)"

// noKernel is Kernel's error for a module without a candidate: at the
// first entry point (a module without a candidate has one, or declares no
// function), then one error per other declaration outside the subset and
// per enable directive, in source order, so that the user sees at once
// what else stands between the module and gpudiff. Where an entry point
// gpudiff would run as written is outside the subset, its cause leads
// (issue 24: the "no kernel" line buried it): "@compute fn main is outside
// gpudiff's subset: CAUSE", positioned at the cause.
func noKernel(m *ir.Module) ir.ErrorList {
	var entry *ir.Opaque
	for _, o := range m.Opaque {
		if o.EntryPoint {
			entry = stageOf(o)
			break
		}
	}
	for _, f := range m.EntryPoints() {
		if entry == nil || f.StagePos.Line < entry.ReasonPos.Line || f.StagePos.Line == entry.ReasonPos.Line && f.StagePos.Col < entry.ReasonPos.Col {
			st := "@" + f.Stage.String()
			entry = &ir.Opaque{Name: f.Name, Reason: "entry point (" + st + ")", ReasonPos: f.StagePos}
		}
		break
	}
	var list, lead ir.ErrorList
	for _, o := range m.Opaque {
		if runnableEntry(o) {
			lead = append(lead, ir.Errorf(m.File, o.ReasonPos, "check", "%s fn %s is outside gpudiff's subset: %s", entryStage(o), o.Name, o.Reason))
			break
		}
	}
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
		case runnableEntry(o):
			// An entry point gpudiff would run as written, but for a
			// construct outside the subset: name the construct (the
			// first one leads).
			if len(lead) > 0 && lead[0].Pos == o.ReasonPos {
				continue
			}
			list = append(list, ir.Errorf(m.File, o.ReasonPos, "check", "also outside gpudiff's subset: %s fn %s: %s", entryStage(o), o.Name, o.Reason))
		case o.EntryPoint:
		case o.Kind == "enable":
			if names := outsideEnables(o.Text); len(names) > 0 {
				list = append(list, ir.Errorf(m.File, o.Pos, "check", "also outside gpudiff's subset: enable %s (enable-extensions)", strings.Join(names, ", ")))
			}
		case o.Reason != "" && !strings.HasSuffix(o.Reason, "(kept verbatim)"):
			what := o.Kind
			if o.Name != "" {
				what += " " + o.Name
			}
			list = append(list, ir.Errorf(m.File, o.ReasonPos, "check", "also outside gpudiff's subset: %s: %s", what, o.Reason))
		}
	}
	return append(lead, list...)
}

// runnableEntry reports whether o is a @compute or @fragment entry point
// gpudiff would run as written but for a construct outside the subset.
func runnableEntry(o *ir.Opaque) bool {
	return o.EntryPoint && (strings.Contains(o.Text, "@compute") || strings.Contains(o.Text, "@fragment")) && o.Reason != "" && !strings.HasPrefix(o.Reason, "entry point (")
}

// entryStage is the stage attribute of the entry point o.
func entryStage(o *ir.Opaque) string {
	if strings.Contains(o.Text, "@compute") {
		return "@compute"
	}
	return "@fragment"
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
		if !called[f.Name] && f.Stage == ir.StageNone {
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

// functionKernelMemory refuses a function kernel whose call graph uses
// memory shared between invocations (a var<workgroup>, var<storage> or
// var<uniform>, an atomic, arrayLength): a function kernel's invocations
// are independent; only an entry point as written runs them together.
func functionKernelMemory(m *ir.Module, name string) error {
	for _, f := range m.CallGraph(name) {
		var bad ir.Node
		var what string
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if bad != nil {
				return false
			}
			switch x := n.(type) {
			case *ir.Ident:
				if x.Ref == ir.RefHandle {
					bad, what = x, "uses texture or sampler "+x.Name
				}
				if x.Ref == ir.RefShared {
					bad, what = x, "uses var<"+m.SharedVar(x.Name).Space.String()+"> "+x.Name
				}
			case *ir.Atomic:
				bad, what = x, "calls "+x.Op.String()
			case *ir.ArrayLength:
				bad, what = x, "calls arrayLength"
			}
			return bad == nil
		})
		if bad != nil {
			return ir.ErrorList{ir.Errorf(m.File, bad.Position(), "check",
				"kernel %s %s, which only a compute entry point as written can use (a function kernel's invocations share no memory)", name, what)}
		}
	}
	return nil
}

// IsEntryMode reports whether name (or, when name is empty, the module's
// default choice) is a compute entry point run as written rather than a
// function kernel: name names an entry point, or name is empty and the
// module has a compute entry point inside the subset, whatever helper
// functions it also declares (ARCHITECTURE.md "Entry points as
// written (compute)"; the default rule: DefaultRunsEntry). With several,
// Entry asks for a name.
func IsEntryMode(m *ir.Module, name string) bool {
	if name != "" {
		f := m.Func(name)
		return f != nil && f.Stage == ir.StageCompute
	}
	return len(computeEntries(m)) > 0
}

// DefaultRunsEntry is the one rule of what a module runs when no kernel
// is named: a module with a @compute entry point runs it as written
// (IsEntryMode), else one with a @fragment entry point runs that
// (IsFragmentMode), each even when the module also declares helper
// functions; only a module without entry points runs a function kernel
// (Kernel). It reports whether the default is an entry point.
func DefaultRunsEntry(m *ir.Module) bool {
	return IsEntryMode(m, "") || IsFragmentMode(m, "")
}

// defaultEntry is the first entry point inside the subset of the stage
// that runs by default (DefaultRunsEntry), or nil.
func defaultEntry(m *ir.Module) *ir.Func {
	st := ir.StageFragment
	if IsEntryMode(m, "") {
		st = ir.StageCompute
	}
	for _, f := range m.EntryPoints() {
		if f.Stage == st {
			return f
		}
	}
	return nil
}

// opaqueEntry is the first @compute or @fragment entry point outside the
// subset, or nil.
func opaqueEntry(m *ir.Module) *ir.Opaque {
	for _, o := range m.Opaque {
		if o.EntryPoint && (strings.Contains(o.Text, "@compute") || strings.Contains(o.Text, "@fragment")) {
			return o
		}
	}
	return nil
}

// computeEntries are the module's compute entry points, in declaration
// order.
func computeEntries(m *ir.Module) []*ir.Func {
	var out []*ir.Func
	for _, f := range m.EntryPoints() {
		if f.Stage == ir.StageCompute {
			out = append(out, f)
		}
	}
	return out
}

// Entry returns the compute entry point to run as written: the one named
// name, else the module's only one. Several without a name is an error
// positioned at the first, listing them all (name one: --kernel).
func Entry(m *ir.Module, name string) (*ir.Func, error) {
	fail := func(pos ir.Pos, format string, args ...any) (*ir.Func, error) {
		return nil, ir.ErrorList{ir.Errorf(m.File, pos, "check", format, args...)}
	}
	if name != "" {
		f := m.Func(name)
		if f == nil || f.Stage != ir.StageCompute {
			if o := m.OpaqueDecl(name); o != nil && o.EntryPoint {
				return fail(o.ReasonPos, "entry point %s is outside the gpudiff subset: %s", name, o.Reason)
			}
			return fail(ir.Pos{}, "no compute entry point named %s", name)
		}
		return f, nil
	}
	eps := computeEntries(m)
	switch len(eps) {
	case 0:
		return fail(ir.Pos{Line: 1, Col: 1}, "the module has no compute entry point inside the gpudiff subset")
	case 1:
		return eps[0], nil
	}
	listed := make([]string, len(eps))
	for i, f := range eps {
		listed[i] = f.Name + " (" + f.StagePos.String() + ")"
	}
	return fail(eps[0].StagePos, "ambiguous entry point: the module has %d compute entry points: %s (name one: --kernel)", len(eps), strings.Join(listed, ", "))
}

// stageOf describes an opaque entry point by its stage attribute: Reason
// "entry point (@stage)" at the attribute, whatever else put it outside
// the subset.
func stageOf(o *ir.Opaque) *ir.Opaque {
	for _, st := range []string{"@compute", "@vertex", "@fragment"} {
		i := strings.Index(o.Text, st)
		if i < 0 {
			continue
		}
		pos := o.Pos
		for _, r := range o.Text[:i] {
			if r == '\n' {
				pos.Line++
				pos.Col = 1
			} else {
				pos.Col += int32(len(string(r)))
			}
		}
		return &ir.Opaque{Name: o.Name, Reason: "entry point (" + st + ")", ReasonPos: pos}
	}
	return o
}

// firstDiscard is the first discard statement in name's call graph, or
// nil.
func firstDiscard(m *ir.Module, name string) *ir.Discard {
	var d *ir.Discard
	for _, g := range m.CallGraph(name) {
		ir.Inspect(g.Body, func(n ir.Node) bool {
			if x, ok := n.(*ir.Discard); ok && d == nil {
				d = x
			}
			return d == nil
		})
		if d != nil {
			return d
		}
	}
	return nil
}

// insideEnables are the enable-extensions whose constructs are in the
// subset (WGSL #extension-f16, #extension-subgroups).
var insideEnables = chkSet(`f16 subgroups`)

// outsideEnables returns the extension names of an enable directive's
// text ("enable f16, clip_distances;") that are outside the subset.
func outsideEnables(text string) []string {
	var out []string
	for _, n := range enableNames(text) {
		if !insideEnables[n] {
			out = append(out, n)
		}
	}
	return out
}

// enableNames returns the extension names of an enable directive's text.
func enableNames(text string) []string {
	body := strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "enable")), ";")
	var out []string
	for _, n := range strings.Split(body, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}
