package testcase

import (
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// WithFunction is c's inputs carried over to function fn of m (a
// shrinking candidate of c's program, fuzz/shrink): a function kernel
// runs with args (the candidate's arguments, as the shrinker leaves them);
// a compute entry point keeps its workgroups, and the bindings m still
// declares, each fitted to m's type (bindingValue: a struct the shrinker
// dropped members of keeps the values of the members it still has). A
// binding m dropped, or whose value does not fit, is left out: Execute
// then fills it with zeros. Textures and samplers m still declares keep
// their contents (the shrinker never changes a texture's type). Other
// kinds keep their target and textures; a draw its draw, vertex inputs
// and bindings, fn naming its fragment entry point (and the vertex entry
// point of the same name in m when one module holds both).
func (c *Case) WithFunction(m *ir.Module, fn string, args [][]ir.Value) *Case {
	switch c.Kind {
	case KindKernel:
		return NewKernelCase(m, fn, args)
	case KindCompute:
		bufs := map[string]ir.Buffer{}
		for name, v := range BindingValues(c.Bindings) {
			if g := m.SharedVar(name); g != nil && g.Space != ir.SpaceWorkgroup {
				if fv, ok := bindingValue(v, g.T); ok {
					if b, err := ir.NewBuffer(g.T, fv); err == nil {
						bufs[name] = b
					}
				}
			}
		}
		out := NewComputeCase(m, fn, c.Workgroups, bufs)
		for _, v := range m.Textures {
			if t, ok := c.Textures[v.Name]; ok {
				if out.Textures == nil {
					out.Textures = map[string]*interp.Texture{}
				}
				out.Textures[v.Name] = t
			}
			if s, ok := c.Samplers[v.Name]; ok {
				if out.Samplers == nil {
					out.Samplers = map[string]*interp.Sampler{}
				}
				out.Samplers[v.Name] = s
			}
		}
		return out
	}
	out := *c
	out.Module, out.Func = m, m.Func(fn)
	if c.Kind == KindDraw && !c.TwoModules() && c.Vertex != nil {
		// One module holds both stages: the candidate's vertex entry
		// point is its own.
		out.VertexModule, out.Vertex = m, m.Func(c.Vertex.Name)
	}
	if c.Kind == KindDraw && out.Func != nil && out.Vertex != nil {
		// A draw binds what its stages use (WGSL #resource-interface):
		// a binding, texture or sampler the candidate's stages no longer
		// read is dropped from its inputs, which its case file could not
		// name (DrawInputsJSON refuses an unused binding).
		used := map[string]bool{}
		for _, st := range []struct {
			m  *ir.Module
			fn string
		}{{out.VertexModuleOrModule(), out.Vertex.Name}, {m, fn}} {
			for _, v := range st.m.SharedUsed(st.fn) {
				used[v.Name] = true
			}
			for name := range UsedHandles(st.m, st.fn) {
				used[name] = true
			}
		}
		out.Bindings = keepUsed(c.Bindings, used)
		out.Textures = keepUsed(c.Textures, used)
		out.Samplers = keepUsed(c.Samplers, used)
	}
	return &out
}

// keepUsed is the entries of m whose names used holds (nil for none).
func keepUsed[V any](m map[string]V, used map[string]bool) map[string]V {
	var out map[string]V
	for k, v := range m {
		if used[k] {
			if out == nil {
				out = map[string]V{}
			}
			out[k] = v
		}
	}
	return out
}

// bindingValue fits v, a binding's value in the shape check.ComputeCase
// takes (an atomic as its scalar), to the binding type t of a shrinking
// candidate. ir.Identical is not enough: structs are nominal, and the
// shrinker drops unused members of a struct (fuzz/shrink edit 8) without
// renaming it, so the value of the original Params would no longer match
// the candidate's Params (its bytes misplaced, its case file unreadable:
// "struct Params has no member f0"). A struct takes the members t still
// has, by name; arrays, vectors and matrices element by element (same
// length); scalars as they are. It reports false when v cannot fit t.
func bindingValue(v ir.Value, t *ir.Type) (ir.Value, bool) {
	if t.Kind == ir.KindAtomic {
		t = t.Elem
	}
	switch t.Kind {
	case ir.KindStruct:
		if v.Type.Kind != ir.KindStruct || v.Type.Struct.Name != t.Struct.Name {
			return ir.Value{}, false
		}
		out := ir.Value{Type: t, Elems: make([]ir.Value, len(t.Struct.Fields))}
		for i, f := range t.Struct.Fields {
			j := -1
			for k, g := range v.Type.Struct.Fields {
				if g.Name == f.Name {
					j = k
				}
			}
			if j < 0 {
				return ir.Value{}, false
			}
			e, ok := bindingValue(v.Elems[j], f.Type)
			if !ok {
				return ir.Value{}, false
			}
			out.Elems[i] = e
		}
		return out, true
	case ir.KindArray, ir.KindRuntimeArray, ir.KindVec, ir.KindMat:
		if v.Type.Kind != t.Kind || (t.Kind != ir.KindRuntimeArray && len(v.Elems) != t.Len) {
			return ir.Value{}, false
		}
		out := ir.Value{Type: t, Elems: make([]ir.Value, len(v.Elems))}
		for i, e := range v.Elems {
			fe, ok := bindingValue(e, t.Elem)
			if !ok {
				return ir.Value{}, false
			}
			out.Elems[i] = fe
		}
		return out, true
	}
	return v, ir.Identical(v.Type, t)
}
