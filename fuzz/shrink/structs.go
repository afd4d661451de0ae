package shrink

import "github.com/gpudiff/gpudiff/ir"

// memberUsed reports whether any expression of m reads or writes field fi
// of the struct named name.
func memberUsed(m *ir.Module, name string, fi int) bool {
	for _, f := range m.Funcs {
		if ir.Any(f.Body, func(n ir.Node) bool {
			x, ok := n.(*ir.Member)
			if !ok || x.Field != fi {
				return false
			}
			t := x.X.Type()
			return t.Kind == ir.KindStruct && t.Struct.Name == name
		}) {
			return true
		}
	}
	return false
}

// dropMember removes field fi of struct si: constructors lose that
// argument, constants and arguments that component, later members shift
// down, and every type mentioning the struct (directly or through arrays,
// runtime-sized arrays and other structs) is rebuilt on new declarations
// — those of private globals, storage, uniform and workgroup variables
// (an entry point's bindings: whoever fills them fits their values to
// the new type), parameters, results and expressions.
func dropMember(d *Case, si, fi int) bool {
	m := d.Module
	old := m.Structs[si]
	if fi >= len(old.Fields) || len(old.Fields) < 2 {
		return false // a struct needs a member (ir.Verify)
	}
	isOld := func(t *ir.Type) bool { return t != nil && t.Kind == ir.KindStruct && t.Struct.Name == old.Name }

	// Pass 1: structure, while every type still names the old declaration.
	var dropVal func(v ir.Value) ir.Value
	dropVal = func(v ir.Value) ir.Value {
		if v.Elems == nil {
			return v
		}
		es := make([]ir.Value, 0, len(v.Elems))
		for i, e := range v.Elems {
			if isOld(v.Type) && i == fi {
				continue
			}
			es = append(es, dropVal(e))
		}
		return ir.Value{Type: v.Type, Bits: v.Bits, Elems: es}
	}
	structural := func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Member:
			if isOld(x.X.Type()) && x.Field > fi {
				x.Field--
			}
		case *ir.Construct:
			if isOld(x.T) && len(x.Args) == len(old.Fields) {
				x.Args = append(append([]ir.Expr(nil), x.Args[:fi]...), x.Args[fi+1:]...)
			}
		case *ir.Lit:
			x.Val = dropVal(x.Val)
		}
		return true
	}
	for _, g := range m.Globals {
		if g.Init != nil {
			ir.Inspect(g.Init, structural)
		}
	}
	for _, f := range m.Funcs {
		ir.Inspect(f.Body, structural)
	}
	for _, inv := range d.Args {
		for j := range inv {
			inv[j] = dropVal(inv[j])
		}
	}

	// Pass 2: new declarations for the struct and every struct containing
	// it, then every type remapped onto them.
	ns := &ir.StructDecl{Pos: old.Pos, Name: old.Name}
	ns.Fields = append(append([]ir.Field(nil), old.Fields[:fi]...), old.Fields[fi+1:]...)
	decls := map[string]*ir.StructDecl{old.Name: ns}
	memo := map[*ir.Type]*ir.Type{}
	var remap func(t *ir.Type) *ir.Type
	remap = func(t *ir.Type) *ir.Type {
		if t == nil {
			return nil
		}
		if r, ok := memo[t]; ok {
			return r
		}
		r := t
		switch t.Kind {
		case ir.KindArray:
			if e := remap(t.Elem); e != t.Elem {
				r = ir.ArrayOf(e, t.Len)
			}
		case ir.KindRuntimeArray:
			if e := remap(t.Elem); e != t.Elem {
				r = ir.RuntimeArrayOf(e)
			}
		case ir.KindStruct:
			if nd, ok := decls[t.Struct.Name]; ok {
				r = ir.StructType(nd)
			}
		}
		memo[t] = r
		return r
	}
	for changed := true; changed; {
		changed = false
		for _, s := range m.Structs {
			if decls[s.Name] != nil {
				continue
			}
			for _, f := range s.Fields {
				if mentions(f.Type, decls) {
					decls[s.Name] = &ir.StructDecl{Pos: s.Pos, Name: s.Name, Fields: append([]ir.Field(nil), s.Fields...)}
					changed = true
					break
				}
			}
		}
	}
	memo = map[*ir.Type]*ir.Type{}
	for _, nd := range decls {
		for i := range nd.Fields {
			nd.Fields[i].Type = remap(nd.Fields[i].Type)
		}
	}
	for i, s := range m.Structs {
		if nd := decls[s.Name]; nd != nil {
			m.Structs[i] = nd
		}
	}
	var remapVal func(v ir.Value) ir.Value
	remapVal = func(v ir.Value) ir.Value {
		out := ir.Value{Type: remap(v.Type), Bits: v.Bits}
		if v.Elems != nil {
			out.Elems = make([]ir.Value, len(v.Elems))
			for i, e := range v.Elems {
				out.Elems[i] = remapVal(e)
			}
		}
		return out
	}
	types := func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Lit:
			x.Val = remapVal(x.Val)
		case *ir.Ident:
			x.T = remap(x.T)
		case *ir.Unary:
			x.T = remap(x.T)
		case *ir.Binary:
			x.T = remap(x.T)
		case *ir.Select:
			x.T = remap(x.T)
		case *ir.Call:
			x.T = remap(x.T)
		case *ir.BuiltinCall:
			x.T = remap(x.T)
		case *ir.Construct:
			x.T = remap(x.T)
		case *ir.Convert:
			x.T = remap(x.T)
		case *ir.Bitcast:
			x.T = remap(x.T)
		case *ir.Index:
			x.T = remap(x.T)
		case *ir.Member:
			x.T = remap(x.T)
		case *ir.Swizzle:
			x.T = remap(x.T)
		case *ir.Decl:
			x.T = remap(x.T)
		}
		return true
	}
	for _, g := range m.Globals {
		g.T = remap(g.T)
		if g.Init != nil {
			ir.Inspect(g.Init, types)
		}
	}
	for i, v := range m.Shared {
		// ir.CloneModule shares the SharedVar nodes: copy before editing.
		if t := remap(v.T); t != v.T {
			nv := *v
			nv.T = t
			m.Shared[i] = &nv
		}
	}
	for _, f := range m.Funcs {
		for _, p := range f.Params {
			p.T = remap(p.T)
		}
		f.Result = remap(f.Result)
		ir.Inspect(f.Body, types)
	}
	for _, inv := range d.Args {
		for j := range inv {
			inv[j] = remapVal(inv[j])
		}
	}
	return true
}

// mentions reports whether t is or contains a struct named in decls.
func mentions(t *ir.Type, decls map[string]*ir.StructDecl) bool {
	switch t.Kind {
	case ir.KindArray, ir.KindRuntimeArray:
		return mentions(t.Elem, decls)
	case ir.KindStruct:
		return decls[t.Struct.Name] != nil
	}
	return false
}
