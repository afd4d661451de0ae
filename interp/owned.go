package interp

import "github.com/gpudiff/gpudiff/ir"

// An owned binding is a storage binding whose every element an
// invocation touches is its own: the entry point accesses it only as
// v[gid.x] (gid its @builtin(global_invocation_id) parameter; a let
// bound to gid.x counts as gid.x), the element, or parts of it, of its
// outermost array. In a dispatch whose invocations all have distinct
// gid.x (one invocation high and deep: workgroup size and count 1 in y
// and z) and whose gid.x all index inside the binding, no two
// invocations touch a leaf in common: the binding cannot race, and
// workgroups run in parallel cannot collide on it. Such a binding then
// needs no race shadow and no claims (passMemory, dispatchRun.owned):
// the commonest compute shape (`y[i] = f(x[i])`) runs without either.

// noOwned turns owned bindings off (tests: the same results without).
var noOwned bool

// ownedVars returns, per shared var of the entry point f of m (vars, in
// entryInfo order), whether it is owned in the sense above at compile
// time: a read_write storage array (fixed or runtime-sized) without
// atomics, whose every reference in f's call graph is f's own
// Index{X: the var, Index: gid.x}, or arrayLength of it.
func ownedVars(m *ir.Module, f *ir.Func, vars []*ir.SharedVar, ids map[string]int) []bool {
	owned := make([]bool, len(vars))
	gid := ""
	for _, p := range f.Params {
		if p.Builtin == "global_invocation_id" {
			gid = p.Name
		}
	}
	if gid == "" {
		return owned
	}
	for i, g := range vars {
		k := g.T.Kind
		owned[i] = g.Space == ir.SpaceStorage && g.Access == ir.AccessReadWrite && !hasAtomic(g.T) &&
			(k == ir.KindArray || k == ir.KindRuntimeArray)
	}
	// lets: names of f whose every declaration is a let of gid.x.
	lets := map[string]bool{}
	ir.Inspect(f.Body, func(n ir.Node) bool {
		if d, ok := n.(*ir.Decl); ok {
			ok := !d.Mutable && isGidX(d.Init, gid, nil)
			if prev, seen := lets[d.Name]; seen {
				ok = ok && prev
			}
			lets[d.Name] = ok
		}
		return true
	})
	// The references each var's accesses allow: the Ident of v[gid.x]
	// and of arrayLength(&v), in f.
	allowed := map[*ir.Ident]bool{}
	ir.Inspect(f.Body, func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Index:
			if id, ok := x.X.(*ir.Ident); ok && id.Ref == ir.RefShared && isGidX(x.Index, gid, lets) {
				allowed[id] = true
			}
		case *ir.ArrayLength:
			if id, ok := x.X.(*ir.Ident); ok && id.Ref == ir.RefShared {
				allowed[id] = true
			}
		}
		return true
	})
	for _, fn := range m.CallGraph(f.Name) {
		ir.Inspect(fn.Body, func(n ir.Node) bool {
			if id, ok := n.(*ir.Ident); ok && id.Ref == ir.RefShared {
				if i, ok := ids[id.Name]; ok && (fn != f || !allowed[id]) {
					owned[i] = false
				}
			}
			return true
		})
	}
	return owned
}

// isGidX reports whether e is gid.x (the parameter gid's component 0),
// or a let of lets (names bound only to gid.x; nil: none).
func isGidX(e ir.Expr, gid string, lets map[string]bool) bool {
	switch x := e.(type) {
	case *ir.Swizzle:
		id, ok := x.X.(*ir.Ident)
		return ok && id.Ref == ir.RefParam && id.Name == gid && len(x.Comps) == 1 && x.Comps[0] == 0
	case *ir.Ident:
		return x.Ref == ir.RefLet && lets[x.Name]
	}
	return false
}

// ownedFor returns, per shared var, whether it is owned in a dispatch of
// workgroups (see above): owned at compile time, every invocation's
// gid.x distinct (the dispatch one invocation high and deep), and inside
// the binding (elements of var i: its leaves over the element's).
func (d *Dispatch) ownedFor(workgroups [3]uint32, leaves func(i int) int32) []bool {
	ws := d.entry.WorkgroupSize
	if noOwned || ws[1]*workgroups[1] != 1 || ws[2]*workgroups[2] != 1 {
		return nil
	}
	extent := int64(ws[0]) * int64(workgroups[0])
	var out []bool
	for i, ok := range d.e.owned {
		if !ok {
			continue
		}
		esz := int64(size(d.e.vars[i].T.Elem))
		if esz == 0 || int64(leaves(i))/esz < extent {
			continue
		}
		if out == nil {
			out = make([]bool, len(d.e.owned))
		}
		out[i] = true
	}
	return out
}
