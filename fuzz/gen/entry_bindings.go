package gen

import "github.com/gpudiff/gpudiff/ir"

// EntryBindings fills every storage and uniform binding of a hand-written
// module m for its entry point f deterministically from seed, with Inputs'
// values (edge values first, then small pseudo-random ones): the elements
// of an array are consecutive "invocations" of one generated parameter, so
// they start with the edges.
// A runtime-sized array (whole binding or a struct's last member) gets one
// element per invocation of a dispatch of wg workgroups; atomics take
// their scalar's values. exec and the drivers matrix seed entry points
// without inputs through it; a generated program's bindings come from
// Bindings, which keeps the campaign's draws.
func EntryBindings(seed uint64, m *ir.Module, f *ir.Func, wg [3]uint32) map[string]ir.Value {
	ws := f.WorkgroupSize
	n := int(ws[0] * ws[1] * ws[2] * wg[0] * wg[1] * wg[2])
	out := map[string]ir.Value{}
	for i, v := range m.Shared {
		if v.Space == ir.SpaceWorkgroup {
			continue
		}
		out[v.Name] = seedValue(seed+uint64(i)*0x9e3779b9, v.T, n)
	}
	return out
}

// seedValue generates a value of binding type t (runtime-sized arrays of
// length n).
func seedValue(seed uint64, t *ir.Type, n int) ir.Value {
	switch t.Kind {
	case ir.KindAtomic:
		return seedValue(seed, t.Elem, n)
	case ir.KindArray, ir.KindRuntimeArray:
		count := t.Len
		if t.Kind == ir.KindRuntimeArray {
			count = n
		}
		v := ir.Value{Type: t, Elems: make([]ir.Value, count)}
		if plain(t.Elem) {
			rows := Inputs(seed, []*ir.Param{{Name: "e", T: t.Elem}}, count)
			for i, r := range rows {
				v.Elems[i] = r[0]
			}
			return v
		}
		for i := range v.Elems {
			v.Elems[i] = seedValue(seed+uint64(i)+1, t.Elem, n)
		}
		return v
	case ir.KindStruct:
		v := ir.Value{Type: t, Elems: make([]ir.Value, len(t.Struct.Fields))}
		for i, fd := range t.Struct.Fields {
			v.Elems[i] = seedValue(seed+uint64(i)*31+7, fd.Type, n)
		}
		return v
	}
	return Inputs(seed, []*ir.Param{{Name: "x", T: t}}, 1)[0][0]
}

// plain reports whether t holds no atomics and no runtime-sized arrays
// (gen.Inputs takes it as a parameter type).
func plain(t *ir.Type) bool {
	switch t.Kind {
	case ir.KindAtomic, ir.KindRuntimeArray:
		return false
	case ir.KindArray, ir.KindVec:
		return plain(t.Elem)
	case ir.KindStruct:
		for _, f := range t.Struct.Fields {
			if !plain(f.Type) {
				return false
			}
		}
	}
	return true
}
