package shrink

import "github.com/gpudiff/gpudiff/ir"

// inlinable reports whether f's only return (if any) is its last
// top-level statement, so its body can run in place of a call.
func inlinable(f *ir.Func) bool {
	n := len(f.Body.Stmts)
	var last ir.Stmt
	if n > 0 {
		last = f.Body.Stmts[n-1]
	}
	return !ir.Any(f.Body, func(x ir.Node) bool {
		r, ok := x.(*ir.Return)
		return ok && ir.Stmt(r) != last
	})
}

// inline replaces the call at site s by the callee's body, placed before
// the statement holding the call:
//
//	var inl: T;
//	{ let p0' = arg0; …; <callee body>; inl = <returned value>; }
//	… inl …
//
// (a call statement becomes just the block). Arguments are bound to fresh
// names in order, so they are evaluated once, left to right, before the
// body, as in a call (WGSL {#function-calls}); what the holding statement
// evaluated before the call now runs after it.
func inline(d *Case, s site) bool {
	m := d.Module
	call, ok := nodeAt(m, s.r).(*ir.Call)
	if !ok {
		return false
	}
	parent := nodeAt(m, s.parent)
	blk, ok := nodeAt(m, s.block).(*ir.Block)
	if !ok || s.index >= len(blk.Stmts) {
		return false
	}
	caller := m.Funcs[s.r.fn]
	callee := m.Func(call.Func)
	if callee == nil || callee == caller || len(call.Args) != len(callee.Params) {
		return false
	}
	namer := ir.NewNamer(m, caller, callee)
	body := ir.CloneBlock(callee.Body).Stmts
	rename := map[string]string{}
	var stmts []ir.Stmt
	for i, p := range callee.Params {
		nn := namer.Fresh(p.Name)
		rename[p.Name] = nn
		stmts = append(stmts, &ir.Decl{Pos: p.Pos, Name: nn, T: p.T, Init: call.Args[i]})
	}
	for _, st := range body {
		ir.Inspect(st, func(x ir.Node) bool {
			if id, ok := x.(*ir.Ident); ok && id.Ref == ir.RefParam {
				id.Name, id.Ref = rename[id.Name], ir.RefLet
			}
			return true
		})
	}
	var result ir.Expr
	if n := len(body); n > 0 {
		if r, ok := body[n-1].(*ir.Return); ok {
			body, result = body[:n-1], r.Value
		}
	}
	if !callee.Result.IsVoid() && result == nil {
		return false
	}
	stmts = append(stmts, body...)
	holder := blk.Stmts[s.index]
	if es, ok := holder.(*ir.ExprStmt); ok && es.X == ir.Expr(call) {
		if result != nil {
			stmts = append(stmts, &ir.ExprStmt{Pos: call.Pos, X: result})
		}
		blk.Stmts[s.index] = &ir.Block{Pos: call.Pos, Stmts: stmts}
		return true
	}
	if result == nil {
		return false
	}
	name := namer.Fresh("inl")
	id := func() *ir.Ident { return &ir.Ident{Pos: call.Pos, Name: name, T: call.T, Ref: ir.RefVar} }
	stmts = append(stmts, &ir.Assign{Pos: call.Pos, LHS: id(), RHS: result})
	replaceChild(parent, s.ord, id())
	pre := []ir.Stmt{&ir.Decl{Pos: call.Pos, Name: name, T: call.T, Mutable: true}, &ir.Block{Pos: call.Pos, Stmts: stmts}}
	out := append([]ir.Stmt(nil), blk.Stmts[:s.index]...)
	out = append(out, pre...)
	blk.Stmts = append(out, blk.Stmts[s.index:]...)
	return true
}
