package interp

import (
	"github.com/gpudiff/gpudiff/ir"
)

// Short circuits around subgroup calls. A subgroup call in the right
// operand of && or || runs only in the invocations whose left operand
// does not decide the result (WGSL #logical-expr): its active set
// depends on the left operand. interp evaluates && and || as one
// expression (expr.go: logical), which treats an indeterminate left
// operand as an indeterminate result without running the right one —
// right for an operand without effects, but a subgroup call's effect is
// its invocation's part in the others' results. So prepareSubgroups
// turns each such && or || into control flow first:
//
//	a && b   ⇒   var sc = a; if (sc) { sc = b; }   … sc …
//	a || b   ⇒   var sc = a; if (!sc) { sc = b; }  … sc …
//
// before the statement (a break-if's at the end of the continuing
// block), where the if forks on an indeterminate sc as any branch does
// (subgroup.go: an invocation that may or may not run the call makes the
// key uncertain). The lifted parts run before the rest of the
// statement's expression, which reorders loads only, so this is done
// only for statements whose expressions hold no call, atomic or
// workgroupUniformLoad — but for a call that is the statement's whole
// expression (f(&x, a || subgroupAny(p))), which runs after its
// arguments anyway (ir.Normalize already moved calls out of && and ||
// right operands); a subgroup call in a short circuit of any other
// statement is opaque: its result is any value.

// shortLifter lifts the short circuits of one entry point body.
type shortLifter struct {
	names  *ir.Namer
	opaque map[*ir.BuiltinCall]bool
}

// isShort reports whether e is an && or || whose right operand holds a
// subgroup call.
func isShort(e ir.Node) bool {
	b, ok := e.(*ir.Binary)
	return ok && (b.Op == ir.OpLogAnd || b.Op == ir.OpLogOr) && hasSubgroupCall(b.Y)
}

func (l *shortLifter) block(b *ir.Block) {
	if b == nil {
		return
	}
	var out []ir.Stmt
	for _, s := range b.Stmts {
		out = append(out, l.stmt(s)...)
	}
	b.Stmts = out
}

// exprKids returns the expression children of statement s (its blocks
// are not among them).
func exprKids(s ir.Stmt) []ir.Expr {
	var out []ir.Expr
	ir.DoChildren(s, func(n ir.Node) bool {
		if e, ok := n.(ir.Expr); ok && e != nil {
			out = append(out, e)
		}
		return false
	})
	return out
}

func (l *shortLifter) stmt(s ir.Stmt) []ir.Stmt {
	switch x := s.(type) {
	case *ir.Block:
		l.block(x)
		return []ir.Stmt{x}
	case *ir.If:
		l.block(x.Then)
		l.block(x.Else)
	case *ir.Switch:
		for _, c := range x.Cases {
			l.block(c.Body)
		}
	case *ir.Loop:
		l.block(x.Body)
		l.block(x.Continuing)
		if x.BreakIf != nil && ir.Any(x.BreakIf, isShort) {
			if l.effects(x.BreakIf) {
				l.markOpaque(x.BreakIf)
				return []ir.Stmt{x}
			}
			var pre []ir.Stmt
			x.BreakIf = l.expr(x.BreakIf, &pre)
			x.Continuing.Stmts = append(x.Continuing.Stmts, pre...)
		}
		return []ir.Stmt{x}
	}
	kids := exprKids(s)
	short := false
	for _, e := range kids {
		short = short || ir.Any(e, isShort)
	}
	if !short {
		return []ir.Stmt{s}
	}
	for _, e := range kids {
		// A call that is the statement's whole expression runs after its
		// arguments, lifted parts included: only its arguments count.
		parts := []ir.Expr{e}
		if c, ok := e.(*ir.Call); ok {
			parts = c.Args
		}
		for _, p := range parts {
			if l.effects(p) {
				for _, e := range kids {
					l.markOpaque(e)
				}
				return []ir.Stmt{s}
			}
		}
	}
	var pre []ir.Stmt
	ir.EditChildren(s, func(n ir.Node) ir.Node {
		if e, ok := n.(ir.Expr); ok && e != nil {
			return l.expr(e, &pre)
		}
		return n
	})
	return append(pre, s)
}

// effects reports whether evaluating e may have an effect the lifting
// could reorder: a call, an atomic, a workgroupUniformLoad.
func (l *shortLifter) effects(e ir.Expr) bool {
	return ir.Any(e, func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Call, *ir.Atomic:
			return true
		case *ir.BuiltinCall:
			return x.Fn.Info().Class == ir.ClassBarrier
		}
		return false
	})
}

// markOpaque makes every subgroup call in a short circuit of e opaque.
func (l *shortLifter) markOpaque(e ir.Expr) {
	ir.Inspect(e, func(n ir.Node) bool {
		if isShort(n) {
			ir.Inspect(n.(*ir.Binary).Y, func(m ir.Node) bool {
				if b, ok := m.(*ir.BuiltinCall); ok && b.Fn.Info().Class == ir.ClassSubgroup {
					l.opaque[b] = true
				}
				return true
			})
		}
		return true
	})
}

// expr rewrites e, appending to *pre the statements that compute its
// lifted short circuits, in evaluation order.
func (l *shortLifter) expr(e ir.Expr, pre *[]ir.Stmt) ir.Expr {
	if !ir.Any(e, isShort) {
		return e
	}
	if isShort(e) {
		b := e.(*ir.Binary)
		pos := b.Pos
		x := l.expr(b.X, pre)
		name := l.names.Fresh("sg_sc")
		*pre = append(*pre, &ir.Decl{Pos: pos, Name: name, T: ir.Bool, Init: x, Mutable: true})
		id := &ir.Ident{Pos: pos, Name: name, T: ir.Bool, Ref: ir.RefVar}
		var cond ir.Expr = id
		if b.Op == ir.OpLogOr {
			cond = &ir.Unary{Pos: pos, Op: ir.OpNot, X: ir.CloneExpr(id), T: ir.Bool}
		}
		var inner []ir.Stmt
		y := l.expr(b.Y, &inner)
		then := &ir.Block{Pos: pos, Stmts: append(inner, &ir.Assign{Pos: pos, LHS: ir.CloneExpr(id), RHS: y})}
		*pre = append(*pre, &ir.If{Pos: pos, Cond: cond, Then: then, Else: &ir.Block{Pos: pos}})
		return ir.CloneExpr(id)
	}
	ir.EditChildren(e, func(n ir.Node) ir.Node {
		if c, ok := n.(ir.Expr); ok && c != nil {
			return l.expr(c, pre)
		}
		return n
	})
	return e
}
