package ir

import "fmt"

// UsesSubgroups reports whether the call graph of the function name calls
// a subgroup or quad builtin (ClassSubgroup) or, for an entry point, takes
// a subgroup builtin value (subgroup_invocation_id, subgroup_size): the
// module needs `enable subgroups;` and an adapter with WebGPU's
// "subgroups" feature, and its results depend on the subgroup partition.
func (m *Module) UsesSubgroups(name string) bool {
	found := false
	for _, f := range m.CallGraph(name) {
		for _, b := range subgroupBuiltins {
			if builtinParam(f, b) != nil {
				return true
			}
		}
		Inspect(f.Body, func(n Node) bool {
			if c, ok := n.(*BuiltinCall); ok && c.Fn.Info().Class == ClassSubgroup {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// LanguageFeatureUses returns, for each WGSL language extension the call
// graph of the function name needs (BuiltinInfo.LanguageFeature), its
// first call in call-graph order; nil when it needs none.
func (m *Module) LanguageFeatureUses(name string) []*BuiltinCall {
	var uses []*BuiltinCall
	seen := map[string]bool{}
	for _, f := range m.CallGraph(name) {
		Inspect(f.Body, func(n Node) bool {
			if c, ok := n.(*BuiltinCall); ok {
				if lf := c.Fn.Info().LanguageFeature; lf != "" && !seen[lf] {
					seen[lf] = true
					uses = append(uses, c)
				}
			}
			return true
		})
	}
	return uses
}

// UsesF16 reports whether the call graph of the function name, or a
// binding it uses, has an f16 type: the module needs `enable f16;` and an
// adapter with WebGPU's "shader-f16" feature.
func (m *Module) UsesF16(name string) bool {
	for _, v := range m.SharedUsed(name) {
		if v.T.HasF16() {
			return true
		}
	}
	for _, g := range m.GlobalsUsed(name) {
		if g.T.HasF16() {
			return true
		}
	}
	found := false
	for _, f := range m.CallGraph(name) {
		if f.Result.HasF16() {
			return true
		}
		for _, p := range f.Params {
			if p.T.HasF16() {
				return true
			}
		}
		Inspect(f.Body, func(n Node) bool {
			if e, ok := n.(Expr); ok && e.Type().HasF16() {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// SubgroupProbeVar is the name of the storage binding AddSubgroupProbe
// adds; SubgroupProbeStride is its element's size in bytes.
const (
	SubgroupProbeVar    = "gpudiff_subgroup_probe"
	SubgroupProbeStride = 16
)

// SubgroupProbe is what AddSubgroupProbe added: the binding (a
// read_write array<vec4<u32>> at Var.Group, Var.Binding) whose element
// g·W + l, for the invocation of local_invocation_index l in the
// workgroup of linear index g (workgroup_id.x + num_workgroups.x ·
// (workgroup_id.y + num_workgroups.y · workgroup_id.z)) and W invocations
// per workgroup, holds (subgroup_invocation_id,
// subgroupBroadcastFirst(local_invocation_index), subgroup_size, 1) as
// the invocation saw them at the start of the entry point — in uniform
// control flow, so the whole subgroup is active and the second component
// is the local index of its invocation of subgroup_invocation_id 0: an
// identity of the subgroup (the WebGPU CTS's way, webgpu/shader/execution/expression/
// call/builtin/subgroup*). The fourth component tells an invocation that
// ran from one that did not: 1, or, when the module reads
// @builtin(subgroup_id) (IDs), 1 + subgroup_id — the implementation's
// numbering of the workgroup's subgroups, which the reference must use.
type SubgroupProbe struct {
	Var *SharedVar
	// IDs reports that the fourth component is 1 + subgroup_id.
	IDs bool
}

// usesBuiltin reports whether an entry point of entries takes the builtin
// value name.
func usesBuiltin(m *Module, name string, entries []string) bool {
	for _, e := range entries {
		if f := m.Func(e); f != nil && builtinParam(f, name) != nil {
			return true
		}
	}
	return false
}

// builtinParam returns an expression reading the builtin value name that
// f takes — its parameter, or the member of a struct parameter — or nil.
func builtinParam(f *Func, name string) Expr {
	for _, p := range f.Params {
		if p.Builtin == name {
			return &Ident{Pos: f.Pos, Name: p.Name, T: p.T, Ref: RefParam}
		}
		if p.T != nil && p.T.Kind == KindStruct {
			for i, fl := range p.T.Struct.Fields {
				if fl.Builtin == name {
					return &Member{Pos: f.Pos, X: &Ident{Pos: f.Pos, Name: p.Name, T: p.T, Ref: RefParam}, Field: i, T: fl.Type}
				}
			}
		}
	}
	return nil
}

// AddSubgroupProbe adds to m (in place: clone it first) the binding of
// SubgroupProbe and, at the start of each named compute entry point, the
// store of the invocation's subgroup facts into it. The entry points'
// builtin parameters are reused where they exist (WGSL allows each
// builtin once per entry point) and added otherwise. The binding takes
// group g, binding b+1, where b is the largest binding number of group g,
// and g the largest group any binding of m uses (0 without bindings).
// Errors: an entry point that does not exist or is not a compute entry
// point.
func AddSubgroupProbe(m *Module, entries ...string) (*SubgroupProbe, error) {
	group, binding := 0, -1
	for _, v := range m.Shared {
		if v.Space == SpaceWorkgroup {
			continue
		}
		if v.Group > group {
			group, binding = v.Group, -1
		}
		if v.Group == group && v.Binding > binding {
			binding = v.Binding
		}
	}
	for _, t := range m.Textures {
		if t.Group > group {
			group, binding = t.Group, -1
		}
		if t.Group == group && t.Binding > binding {
			binding = t.Binding
		}
	}
	elem := Vec(4, U32)
	ids := usesBuiltin(m, "subgroup_id", entries)
	pv := &SharedVar{Name: SubgroupProbeVar, T: &Type{Kind: KindRuntimeArray, Elem: elem}, Space: SpaceStorage, Access: AccessReadWrite, Group: group, Binding: binding + 1}
	m.Shared = append(m.Shared, pv)
	for _, name := range entries {
		f := m.Func(name)
		if f == nil || f.Stage != StageCompute {
			return nil, fmt.Errorf("ir: subgroup probe: %q is not a compute entry point of the module", name)
		}
		get := func(builtin string, t *Type) Expr {
			if e := builtinParam(f, builtin); e != nil {
				return e
			}
			p := &Param{Pos: f.Pos, Name: freshParamName(f, "gpudiff_"+builtin), T: t, Builtin: builtin}
			f.Params = append(f.Params, p)
			return &Ident{Pos: f.Pos, Name: p.Name, T: t, Ref: RefParam}
		}
		pos := f.Pos
		u := func(v uint32) Expr { return &Lit{Pos: pos, Val: U32Val(v)} }
		lidx := get("local_invocation_index", U32)
		wid := get("workgroup_id", Vec(3, U32))
		nwg := get("num_workgroups", Vec(3, U32))
		sid := get("subgroup_invocation_id", U32)
		size := get("subgroup_size", U32)
		comp := func(x Expr, i uint8) Expr { return &Swizzle{Pos: pos, X: x, Comps: []uint8{i}, T: U32} }
		add := func(x, y Expr) Expr { return &Binary{Pos: pos, Op: OpAdd, X: x, Y: y, T: U32} }
		mul := func(x, y Expr) Expr { return &Binary{Pos: pos, Op: OpMul, X: x, Y: y, T: U32} }
		// g = wid.x + nwg.x * (wid.y + nwg.y * wid.z)
		g := add(comp(wid, 0), mul(comp(nwg, 0), add(comp(wid, 1), mul(comp(nwg, 1), comp(wid, 2)))))
		w := f.WorkgroupSize[0] * max(f.WorkgroupSize[1], 1) * max(f.WorkgroupSize[2], 1)
		idx := add(mul(g, u(w)), lidx)
		first := &BuiltinCall{Pos: pos, Fn: BSubgroupBroadcastFirst, Args: []Expr{CloneExpr(lidx)}, T: U32}
		var marker Expr = u(1)
		if ids {
			marker = add(get("subgroup_id", U32), u(1))
		}
		val := &Construct{Pos: pos, T: elem, Args: []Expr{sid, first, size, marker}}
		st := &Assign{Pos: pos, LHS: &Index{Pos: pos, X: &Ident{Pos: pos, Name: pv.Name, T: pv.T, Ref: RefShared}, Index: idx, T: elem}, RHS: val}
		f.Body.Stmts = append([]Stmt{st}, f.Body.Stmts...)
	}
	return &SubgroupProbe{Var: pv, IDs: ids}, nil
}

// freshParamName returns base, or base with a numeric suffix, unused by
// f's parameters and locals.
func freshParamName(f *Func, base string) string {
	used := map[string]bool{}
	for _, p := range f.Params {
		used[p.Name] = true
	}
	Inspect(f.Body, func(n Node) bool {
		if id, ok := n.(*Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	name := base
	for i := 2; used[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	return name
}
