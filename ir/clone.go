package ir

// CloneExpr returns a deep copy of e (types are shared, values copied).
func CloneExpr(e Expr) Expr {
	if e == nil {
		return nil
	}
	return clone(e).(Expr)
}

// CloneStmt returns a deep copy of s.
func CloneStmt(s Stmt) Stmt { return clone(s).(Stmt) }

// CloneBlock returns a deep copy of b.
func CloneBlock(b *Block) *Block { return clone(b).(*Block) }

// CloneFunc returns a deep copy of f.
func CloneFunc(f *Func) *Func {
	g := *f
	g.Params = make([]*Param, len(f.Params))
	for i, p := range f.Params {
		q := *p
		g.Params[i] = &q
	}
	g.Body = CloneBlock(f.Body)
	return &g
}

// CloneModule returns a deep copy of m's functions and globals; struct
// declarations and opaque declarations are shared (they are immutable).
func CloneModule(m *Module) *Module {
	n := *m
	n.Structs = append([]*StructDecl(nil), m.Structs...)
	n.Opaque = append([]*Opaque(nil), m.Opaque...)
	n.Globals = make([]*Global, len(m.Globals))
	for i, g := range m.Globals {
		h := *g
		h.Init = CloneExpr(g.Init)
		n.Globals[i] = &h
	}
	n.Shared = append([]*SharedVar(nil), m.Shared...)
	n.Textures = append([]*TextureVar(nil), m.Textures...)
	n.Funcs = make([]*Func, len(m.Funcs))
	for i, f := range m.Funcs {
		n.Funcs[i] = CloneFunc(f)
	}
	return &n
}

// clone deep-copies n: a shallow copy (node_gen.go), then each child
// cloned in its slot.
func clone(n Node) Node {
	c := shallowCopy(n)
	EditChildren(c, clone)
	return c
}
