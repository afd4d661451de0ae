package ir

// Merging the call graphs of several programs into one module (the batch
// modules of check/batch.go): each program's module-scope names are
// renamed apart with a MergeRenamer. Normalize (normalize.go) renames a
// function's locals; this renames a program's declarations; both take
// their fresh names from a Namer (names.go).

// MergeRenamer renames one program's module-scope names (functions,
// globals, structs) apart from the other programs' when the call graphs
// of several programs are copied into one module (check/batch.go's batch
// module), rewriting every reference and every type. Each name becomes
// name+suffix, made fresh by the Namer the programs share (names.go, as
// Normalize's renamer makes locals fresh). A name is renamed once: every
// later use gets the same new name.
type MergeRenamer struct {
	namer   *Namer
	suffix  string
	fns     map[string]string
	globals map[string]string
	structs map[*StructDecl]*StructDecl
	byName  map[string]*StructDecl // original struct name → renamed declaration
	types   map[*Type]*Type
}

// NewMergeRenamer returns the renamer of one program: its names get
// suffix (e.g. "_b0"), made fresh by n.
func NewMergeRenamer(n *Namer, suffix string) *MergeRenamer {
	return &MergeRenamer{namer: n, suffix: suffix, fns: map[string]string{}, globals: map[string]string{},
		structs: map[*StructDecl]*StructDecl{}, byName: map[string]*StructDecl{}, types: map[*Type]*Type{}}
}

// Func returns function name's new name.
func (r *MergeRenamer) Func(name string) string {
	if n, ok := r.fns[name]; ok {
		return n
	}
	n := r.namer.Fresh(name + r.suffix)
	r.fns[name] = n
	return n
}

// Global returns global name's new name.
func (r *MergeRenamer) Global(name string) string {
	if n, ok := r.globals[name]; ok {
		return n
	}
	n := r.namer.Fresh(name + r.suffix)
	r.globals[name] = n
	return n
}

// Struct returns s's renamed declaration (its fields' types renamed),
// made once per struct name.
func (r *MergeRenamer) Struct(s *StructDecl) *StructDecl {
	if n, ok := r.structs[s]; ok {
		return n
	}
	if n, ok := r.byName[s.Name]; ok {
		r.structs[s] = n
		return n
	}
	n := &StructDecl{Pos: s.Pos, Name: r.namer.Fresh(s.Name + r.suffix)}
	r.structs[s], r.byName[s.Name] = n, n
	for _, f := range s.Fields {
		n.Fields = append(n.Fields, Field{Pos: f.Pos, Name: f.Name, Type: r.Type(f.Type)})
	}
	return n
}

// Type returns t with every struct renamed.
func (r *MergeRenamer) Type(t *Type) *Type {
	if t == nil {
		return nil
	}
	if n, ok := r.types[t]; ok {
		return n
	}
	n := t
	switch t.Kind {
	case KindVec, KindArray:
		if e := r.Type(t.Elem); e != t.Elem {
			c := *t
			c.Elem = e
			n = &c
		}
	case KindStruct:
		n = StructType(r.Struct(t.Struct))
	}
	r.types[t] = n
	return n
}

func (r *MergeRenamer) value(v Value) Value {
	v.Type = r.Type(v.Type)
	if v.Elems != nil {
		es := make([]Value, len(v.Elems))
		for i, e := range v.Elems {
			es[i] = r.value(e)
		}
		v.Elems = es
	}
	return v
}

// Node rewrites, in place, the names and types of everything under n (a
// clone: CloneFunc and CloneExpr copy the nodes).
func (r *MergeRenamer) Node(n Node) {
	Inspect(n, func(x Node) bool {
		switch x := x.(type) {
		case *Lit:
			x.Val = r.value(x.Val)
		case *Ident:
			x.T = r.Type(x.T)
			if x.Ref == RefGlobal {
				x.Name = r.Global(x.Name)
			}
		case *Unary:
			x.T = r.Type(x.T)
		case *Binary:
			x.T = r.Type(x.T)
		case *Select:
			x.T = r.Type(x.T)
		case *Call:
			x.T = r.Type(x.T)
			x.Func = r.Func(x.Func)
		case *BuiltinCall:
			x.T = r.Type(x.T)
		case *Construct:
			x.T = r.Type(x.T)
		case *Convert:
			x.T = r.Type(x.T)
		case *Bitcast:
			x.T = r.Type(x.T)
		case *Index:
			x.T = r.Type(x.T)
		case *Member:
			x.T = r.Type(x.T)
		case *Swizzle:
			x.T = r.Type(x.T)
		case *Decl:
			x.T = r.Type(x.T)
		}
		return true
	})
}

// Copy appends to out the declarations of src that funcs need, renamed:
// every struct of src (in module order: a struct's fields only name
// earlier ones), the globals the functions use, and the call graph of
// each function (each function once, in the order first reached). It
// returns the globals' new names (old name → new name).
func (r *MergeRenamer) Copy(out, src *Module, funcs []string) map[string]string {
	var used []*Func
	seen := map[string]bool{}
	for _, fn := range funcs {
		for _, f := range src.CallGraph(fn) {
			if !seen[f.Name] {
				seen[f.Name] = true
				used = append(used, f)
			}
		}
	}
	globals := map[string]string{}
	for _, fn := range funcs {
		for _, g := range src.GlobalsUsed(fn) {
			globals[g.Name] = r.Global(g.Name)
		}
	}
	for _, s := range src.Structs {
		out.Structs = append(out.Structs, r.Struct(s))
	}
	for _, g := range src.Globals {
		if _, ok := globals[g.Name]; !ok {
			continue
		}
		ng := &Global{Pos: g.Pos, Name: globals[g.Name], T: r.Type(g.T), Init: CloneExpr(g.Init)}
		if ng.Init != nil {
			r.Node(ng.Init)
		}
		out.Globals = append(out.Globals, ng)
	}
	for _, f := range used {
		g := CloneFunc(f)
		g.Name = r.Func(f.Name)
		for _, prm := range g.Params {
			prm.T = r.Type(prm.T)
		}
		g.Result = r.Type(g.Result)
		r.Node(g.Body)
		out.Funcs = append(out.Funcs, g)
	}
	return globals
}
