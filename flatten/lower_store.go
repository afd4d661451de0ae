package flatten

// The lowerer's assignments: references evaluated once, predicated stores.

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// ---- assignments and predicated stores ----

func (l *lowerer) assign(s *ir.Assign) {
	rhsCalls := ir.HasCall(s.RHS)
	ref := l.ref(s.LHS, rhsCalls)
	var cur ir.Expr
	if s.Op != ir.OpNone && l.sharedWritable(ir.RootIdent(ref)) {
		// A compound assignment to shared memory loads it where WGSL
		// does, before the right-hand side, as an access (entry.go).
		cur = l.sharedLoad(ir.CloneExpr(ref))
	} else if s.Op != ir.OpNone && rhsCalls && readsGlobal(ref) {
		// A compound assignment loads its left-hand side before the
		// right-hand side runs (the inlined callee may write it).
		cur = l.bindAlways("cur", ir.CloneExpr(ref))
	}
	if s.Op == ir.OpNone {
		rhs := l.expr(s.RHS)
		l.store(ref, rhs, l.pred(), s.Pos)
		return
	}
	// ref op= rhs is folded as the whole ref op rhs, so a substituted
	// constant never becomes a divisor or shift count WGSL rejects.
	rhs := l.translate(s.RHS)
	load := cur
	if load == nil {
		load = ir.CloneExpr(ref)
	}
	t, err := ir.BinaryResultType(s.Op, load.Type(), rhs.Type())
	if err != nil {
		panic(err) // the input verified
	}
	val := l.finish(&ir.Binary{Pos: s.Pos, Op: s.Op, X: load, Y: rhs, T: t})
	e := l.pred()
	if b, ok := val.(*ir.Binary); ok && e == nil && cur == nil && b.Op == s.Op && exprEqual(b.X, ref) {
		l.emit(&ir.Assign{Pos: s.Pos, LHS: ref, Op: s.Op, RHS: b.Y})
		return
	}
	l.store(ref, val, e, s.Pos)
}

func anyCall(es []ir.Expr) bool {
	for _, e := range es {
		if ir.HasCall(e) {
			return true
		}
	}
	return false
}

func readsGlobal(e ir.Expr) bool {
	return ir.Any(e, func(n ir.Node) bool {
		id, ok := n.(*ir.Ident)
		return ok && id.Ref == ir.RefGlobal
	})
}

// ref translates an assignment's left-hand side: the root becomes the
// twin's variable, index operands are evaluated now (bound to lets, so
// the store and the select read the same element) and, on a predicated
// path, guarded so they stay in bounds where the path is dead.
//
// WGSL evaluates the reference before the right-hand side (WGSL
// #simple-assignment-section: "Evaluates r, then evaluates e, then
// writes"; #compound-assignment-sec: e1 is evaluated once), and the
// reference's index operands innermost first (#program-order: operands
// left to right). So an index operand is a value taken where it is
// evaluated: laterCalls says whether anything evaluated after it — an
// outer index operand of the same reference or the right-hand side —
// inlines a call, which may write a global the index reads (a[gi][h()]
// with h writing gi stores to the row gi had before h ran).
func (l *lowerer) ref(e ir.Expr, laterCalls bool) ir.Expr {
	switch x := e.(type) {
	case *ir.Ident:
		return l.ident(x)
	case *ir.Index:
		base := l.ref(x.X, laterCalls || ir.HasCall(x.Index))
		raw := l.translate(x.Index)
		idx := l.fold(raw, true)
		if constError(&ir.Index{X: base, Index: idx, T: x.T}) {
			idx = l.fold(raw, false)
		}
		idx = l.guard(idx)
		if root := ir.RootIdent(x); root == nil || root.Ref != ir.RefShared {
			// A shared access under a predicate is itself guarded
			// (entry.go), so its own index needs no guard.
			idx = l.guardIndex(idx, x.X.Type().Len)
		}
		// Bind the index unless it is a literal or a name nothing can
		// change before the store (only an inlined call evaluated later
		// can, and only a global).
		if id, ok := idx.(*ir.Ident); !isLit(idx) && !(ok && (id.Ref != ir.RefGlobal || !laterCalls)) {
			idx = l.bindAlways("idx", idx)
		}
		return &ir.Index{Pos: x.Pos, X: base, Index: idx, T: x.T}
	case *ir.Member:
		return &ir.Member{Pos: x.Pos, X: l.ref(x.X, laterCalls), Field: x.Field, T: x.T}
	case *ir.Swizzle:
		return &ir.Swizzle{Pos: x.Pos, X: l.ref(x.X, laterCalls), Comps: append([]uint8(nil), x.Comps...), T: x.T}
	}
	panic(fmt.Sprintf("flatten: %T is not a reference", e))
}

// store emits ref = val under the predicate e: a plain store when e is
// statically true, else ref = select(ref, val, e) — element by element
// for arrays, matrices (column by column) and structs, which WGSL's select
// does not take.
func (l *lowerer) store(ref, val, e ir.Expr, pos ir.Pos) {
	if root := ir.RootIdent(ref); root != nil && root.Ref == ir.RefShared {
		l.sharedStore(ref, val, e, pos)
		return
	}
	if e == nil {
		l.emit(&ir.Assign{Pos: pos, LHS: ref, RHS: val})
		return
	}
	t := ref.Type()
	if t.IsScalar() || t.Kind == ir.KindVec {
		l.emit(&ir.Assign{Pos: pos, LHS: ref, RHS: &ir.Select{Pos: pos, False: ir.CloneExpr(ref), True: val, Cond: e, T: t}})
		return
	}
	val = l.bindAlways("val", val)
	var leaves func(r, v ir.Expr)
	leaves = func(r, v ir.Expr) {
		t := r.Type()
		switch t.Kind {
		case ir.KindArray, ir.KindMat:
			// A matrix is selected column by column: WGSL's select takes
			// no matrices (#select-builtin).
			for k := 0; k < t.Len; k++ {
				i := &ir.Lit{Pos: pos, Val: ir.I32Val(int32(k))}
				leaves(&ir.Index{Pos: pos, X: ir.CloneExpr(r), Index: i, T: t.Elem}, &ir.Index{Pos: pos, X: ir.CloneExpr(v), Index: i, T: t.Elem})
			}
		case ir.KindStruct:
			for k, fd := range t.Struct.Fields {
				leaves(&ir.Member{Pos: pos, X: ir.CloneExpr(r), Field: k, T: fd.Type}, &ir.Member{Pos: pos, X: ir.CloneExpr(v), Field: k, T: fd.Type})
			}
		default:
			l.emit(&ir.Assign{Pos: pos, LHS: r, RHS: &ir.Select{Pos: pos, False: ir.CloneExpr(r), True: v, Cond: e, T: t}})
		}
	}
	leaves(ref, val)
}
