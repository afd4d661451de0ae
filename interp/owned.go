package interp

import (
	"sync/atomic"

	"github.com/gpudiff/gpudiff/ir"
)

// An owned binding is a storage binding whose every element an
// invocation touches is its own: the entry point accesses it only as
// v[gid.x], or only as v.m[gid.x] for one member m (gid its
// @builtin(global_invocation_id) parameter; a let, or a var never
// changed, bound to gid.x counts as gid.x), the element, or parts of it,
// of that array. In a dispatch whose invocations all have distinct gid.x
// (one invocation high and deep: workgroup size and count 1 in y and z),
// no two invocations touch a leaf in common while they stay inside the
// array: the binding cannot race, and workgroups run in parallel cannot
// collide on it. Such a binding then needs no race shadow and no claims
// (passMemory, dispatchRun.owned): the commonest compute shape
// (`if (i < arrayLength(&y)) { y[i] = f(x[i]); }`) runs without either.
// An invocation that does reach it out of bounds (a dispatch wider than
// the array, unguarded) stops the pass, which starts again with nothing
// owned (runPass): an out-of-bounds access lands anywhere (WGSL
// #out-of-bounds-access-sec) and so may race.

// noOwned turns owned bindings off (tests: the same results without);
// ownedDropped counts the passes started again without them.
var (
	noOwned      bool
	ownedDropped atomic.Int64
)

// ownedVars returns, per shared var of the entry point f of m (vars, in
// entryInfo order), whether it is owned in the sense above at compile
// time, and the member whose array is indexed (-1: the var is the
// array): a read_write storage var without atomics, whose every
// reference in f's call graph is f's own Index{X: the var, or one
// Member of it, Index: gid.x}, or arrayLength of that array.
func ownedVars(m *ir.Module, f *ir.Func, vars []*ir.SharedVar, ids map[string]int) (owned []bool, field []int) {
	owned, field = make([]bool, len(vars)), make([]int, len(vars))
	gid := ""
	for _, p := range f.Params {
		if p.Builtin == "global_invocation_id" {
			gid = p.Name
		}
	}
	if gid == "" {
		return owned, field
	}
	for i, g := range vars {
		owned[i] = g.Space == ir.SpaceStorage && g.Access == ir.AccessReadWrite && !hasAtomic(g.T)
		field[i] = -2 // no access seen yet
	}
	// lets: names of f whose every declaration is a let of gid.x, or a
	// var of gid.x never assigned or passed by pointer afterwards
	// (`var index = gid.x;`, as webgpu-samples' computeBoids writes it).
	lets, changed := map[string]bool{}, map[string]bool{}
	ir.Inspect(f.Body, func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Decl:
			ok := isGidX(x.Init, gid, nil)
			if prev, seen := lets[x.Name]; seen {
				ok = ok && prev
			}
			lets[x.Name] = ok
		case *ir.Assign:
			if id := ir.RootIdent(x.LHS); id != nil {
				changed[id.Name] = true
			}
		case *ir.AddrOf:
			if id := ir.RootIdent(x.X); id != nil {
				changed[id.Name] = true
			}
		}
		return true
	})
	for name := range changed {
		lets[name] = false
	}
	// The references the accesses allow: the Ident of v[gid.x] or
	// v.m[gid.x], and of arrayLength(&v) or arrayLength(&v.m), in f, with
	// the member (-1: none); a var's must all name the same one.
	allowed := map[*ir.Ident]int{}
	array := func(x ir.Expr) (*ir.Ident, int) {
		if mb, ok := x.(*ir.Member); ok {
			id, ok := mb.X.(*ir.Ident)
			if ok && id.Ref == ir.RefShared {
				return id, mb.Field
			}
			return nil, 0
		}
		if id, ok := x.(*ir.Ident); ok && id.Ref == ir.RefShared {
			return id, -1
		}
		return nil, 0
	}
	ir.Inspect(f.Body, func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Index:
			if id, fld := array(x.X); id != nil && isGidX(x.Index, gid, lets) {
				allowed[id] = fld
			}
		case *ir.ArrayLength:
			if id, fld := array(x.X); id != nil {
				allowed[id] = fld
			}
		}
		return true
	})
	for _, fn := range m.CallGraph(f.Name) {
		ir.Inspect(fn.Body, func(n ir.Node) bool {
			if id, ok := n.(*ir.Ident); ok && id.Ref == ir.RefShared {
				i, ok := ids[id.Name]
				if !ok {
					return true
				}
				fld, allow := allowed[id]
				switch {
				case fn != f || !allow || field[i] != -2 && field[i] != fld:
					owned[i] = false
				default:
					field[i] = fld
				}
			}
			return true
		})
	}
	for i, g := range vars {
		if owned[i] {
			if t := arrayOf(g.T, field[i]); t == nil {
				owned[i] = false
			}
		}
	}
	return owned, field
}

// arrayOf is the array type of var type t that an owned var's accesses
// index (member fld, or t itself for -1), or nil when it is not an array.
func arrayOf(t *ir.Type, fld int) *ir.Type {
	if fld >= 0 {
		if t.Kind != ir.KindStruct || fld >= len(t.Struct.Fields) {
			return nil
		}
		t = t.Struct.Fields[fld].Type
	} else if fld != -1 {
		return nil
	}
	if t.Kind != ir.KindArray && t.Kind != ir.KindRuntimeArray {
		return nil
	}
	return t
}

// isGidX reports whether e is gid.x (the parameter gid's component 0),
// or a let or var of lets (names bound only to gid.x; nil: none).
func isGidX(e ir.Expr, gid string, lets map[string]bool) bool {
	switch x := e.(type) {
	case *ir.Swizzle:
		id, ok := x.X.(*ir.Ident)
		return ok && id.Ref == ir.RefParam && id.Name == gid && len(x.Comps) == 1 && x.Comps[0] == 0
	case *ir.Ident:
		return (x.Ref == ir.RefLet || x.Ref == ir.RefVar) && lets[x.Name]
	}
	return false
}

// ownedFor returns, per shared var, whether it is owned in a dispatch of
// workgroups (see above): owned at compile time, every invocation's
// gid.x distinct (the dispatch one invocation high and deep), and the
// array not empty (var i's leaves(i) give a runtime-sized one's length).
func (d *Dispatch) ownedFor(workgroups [3]uint32, leaves func(i int) int32) []bool {
	ws := d.entry.WorkgroupSize
	if noOwned || ws[1]*workgroups[1] != 1 || ws[2]*workgroups[2] != 1 {
		return nil
	}
	var out []bool
	for i, ok := range d.e.owned {
		if !ok {
			continue
		}
		t, fld := d.e.vars[i].T, d.e.ownedField[i]
		arr := arrayOf(t, fld)
		esz, off := int64(size(arr.Elem)), int64(0)
		if fld >= 0 {
			off = int64(fieldOffset(t, fld))
		}
		n := int64(arr.Len)
		if arr.Kind == ir.KindRuntimeArray && esz > 0 {
			n = (int64(leaves(i)) - off) / esz // as sharedRef's Index counts them
		}
		if esz == 0 || n == 0 {
			continue
		}
		if out == nil {
			out = make([]bool, len(d.e.owned))
		}
		out[i] = true
	}
	return out
}
