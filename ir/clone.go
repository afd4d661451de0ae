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
	n.Funcs = make([]*Func, len(m.Funcs))
	for i, f := range m.Funcs {
		n.Funcs[i] = CloneFunc(f)
	}
	return &n
}

func clone(n Node) Node {
	var c Node
	switch n := n.(type) {
	case *Lit:
		x := *n
		x.Val = n.Val.Clone()
		return &x
	case *Ident:
		x := *n
		return &x
	case *Unary:
		x := *n
		c = &x
	case *Binary:
		x := *n
		c = &x
	case *Select:
		x := *n
		c = &x
	case *Call:
		x := *n
		x.Args = append([]Expr(nil), n.Args...)
		c = &x
	case *BuiltinCall:
		x := *n
		x.Args = append([]Expr(nil), n.Args...)
		c = &x
	case *Construct:
		x := *n
		x.Args = append([]Expr(nil), n.Args...)
		c = &x
	case *Convert:
		x := *n
		c = &x
	case *Bitcast:
		x := *n
		c = &x
	case *Index:
		x := *n
		c = &x
	case *Member:
		x := *n
		c = &x
	case *Swizzle:
		x := *n
		x.Comps = append([]uint8(nil), n.Comps...)
		c = &x
	case *Block:
		x := *n
		x.Stmts = append([]Stmt(nil), n.Stmts...)
		c = &x
	case *Decl:
		x := *n
		c = &x
	case *Assign:
		x := *n
		c = &x
	case *ExprStmt:
		x := *n
		c = &x
	case *If:
		x := *n
		c = &x
	case *Loop:
		x := *n
		c = &x
	case *Switch:
		x := *n
		x.Cases = append([]*Case(nil), n.Cases...)
		c = &x
	case *Case:
		x := *n
		x.Values = make([]Value, len(n.Values))
		for i, v := range n.Values {
			x.Values[i] = v.Clone()
		}
		c = &x
	case *Break:
		x := *n
		return &x
	case *Continue:
		x := *n
		return &x
	case *Return:
		x := *n
		c = &x
	default:
		panic("ir.clone: unknown node type")
	}
	EditChildren(c, clone)
	return c
}
