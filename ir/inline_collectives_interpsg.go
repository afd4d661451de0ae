package ir

// InlineCollectives is InlineBarriers for a reference that runs subgroup
// operations, as well as barriers, only in the entry point's own body
// (interp's subgroups: a subgroup builtin's dynamic instance is keyed by
// its call site and the iteration counts of the loops around it, which
// needs every call on the way inlined): every call of a function that
// calls a barrier builtin or a subgroup or quad builtin (ClassSubgroup),
// directly or through other calls, is inlined, with InlineBarriers'
// rules (evaluation order kept, returns through a one-iteration loop,
// workgroupUniformLoad as a let's whole initializer).
//
// m is returned unchanged when the entry point needs none of it; else a
// copy whose entry point is replaced (its other functions are shared).
func InlineCollectives(m *Module, entry string) *Module {
	f := m.Func(entry)
	if f == nil {
		return m
	}
	in := &inliner{m: m, barrier: collectiveFuncs(m)}
	if !in.needsStmt(f.Body) {
		return m
	}
	in.names = NewNamer(m, m.Funcs...)
	g := *f
	g.Body = in.block(CloneBlock(f.Body))
	out := *m
	out.Funcs = make([]*Func, 0, len(m.Funcs))
	for _, h := range m.Funcs {
		if h == f {
			h = &g
		}
		out.Funcs = append(out.Funcs, h)
	}
	// As in InlineBarriers: a helper inlined everywhere it was called
	// goes (a barrier in a function no entry point calls does not
	// verify).
	reach := map[string]bool{}
	for _, h := range out.Funcs {
		if h.Stage != StageNone {
			for _, k := range out.CallGraph(h.Name) {
				reach[k.Name] = true
			}
		}
	}
	funcs := out.Funcs[:0]
	for _, h := range out.Funcs {
		if !in.barrier[h.Name] || reach[h.Name] || h.Stage != StageNone {
			funcs = append(funcs, h)
		}
	}
	out.Funcs = funcs
	return &out
}

// collectiveFuncs returns the functions of m that call a barrier builtin
// or a subgroup builtin, directly or through calls.
func collectiveFuncs(m *Module) map[string]bool {
	out := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, f := range m.Funcs {
			if out[f.Name] {
				continue
			}
			if Any(f.Body, func(n Node) bool {
				switch x := n.(type) {
				case *BuiltinCall:
					c := x.Fn.Info().Class
					return c == ClassBarrier || c == ClassSubgroup
				case *Call:
					return out[x.Func]
				}
				return false
			}) {
				out[f.Name] = true
				changed = true
			}
		}
	}
	return out
}
