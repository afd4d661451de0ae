package ir

// Traversal helpers, in the style of cmd/compile/internal/ir/visit.go.
//
// DoChildren calls a function on each immediate child of a node; it is the
// building block: a visitor that wants to walk the whole tree calls
// DoChildren again from inside its function. Any and Inspect are the two
// common whole-tree walks built from it. EditChildren replaces each
// immediate child with the result of a function — the building block of
// rewriting passes, which recurse the same way.
//
// Children are visited in WGSL evaluation order (left to right; an
// assignment's left-hand side before its right-hand side, WGSL
// "Simple Assignment"), statements in program order. Lit and Ident have no
// children. A nil optional child (Decl.Init, Return.Value, Loop.BreakIf,
// Global.Init) is skipped.

// DoChildren calls do(c) for each immediate child c of n, in evaluation
// order, stopping at and returning true for the first call that returns
// true.
func DoChildren(n Node, do func(Node) bool) bool {
	exprs := func(es []Expr) bool {
		for _, e := range es {
			if e != nil && do(e) {
				return true
			}
		}
		return false
	}
	switch n := n.(type) {
	case *Lit, *Ident, *Break, *Continue:
		return false
	case *Unary:
		return do(n.X)
	case *Binary:
		return do(n.X) || do(n.Y)
	case *Select:
		return do(n.False) || do(n.True) || do(n.Cond)
	case *Call:
		return exprs(n.Args)
	case *BuiltinCall:
		return exprs(n.Args)
	case *Construct:
		return exprs(n.Args)
	case *Convert:
		return do(n.X)
	case *Bitcast:
		return do(n.X)
	case *Index:
		return do(n.X) || do(n.Index)
	case *Member:
		return do(n.X)
	case *Swizzle:
		return do(n.X)
	case *Block:
		for _, s := range n.Stmts {
			if do(s) {
				return true
			}
		}
		return false
	case *Decl:
		return n.Init != nil && do(n.Init)
	case *Assign:
		return do(n.LHS) || do(n.RHS)
	case *ExprStmt:
		return do(n.X)
	case *If:
		return do(n.Cond) || do(n.Then) || do(n.Else)
	case *Loop:
		return do(n.Body) || do(n.Continuing) || (n.BreakIf != nil && do(n.BreakIf))
	case *Switch:
		if do(n.Selector) {
			return true
		}
		for _, c := range n.Cases {
			if do(c) {
				return true
			}
		}
		return false
	case *Case:
		return do(n.Body)
	case *Return:
		return n.Value != nil && do(n.Value)
	case *Func:
		return do(n.Body)
	}
	panic("ir.DoChildren: unknown node type")
}

// Any reports whether n or any node beneath it satisfies cond, visiting in
// pre-order and stopping at the first match.
func Any(n Node, cond func(Node) bool) bool {
	var do func(Node) bool
	do = func(x Node) bool { return cond(x) || DoChildren(x, do) }
	return do(n)
}

// Inspect visits n and the nodes beneath it in pre-order; when f returns
// false the children of that node are skipped.
func Inspect(n Node, f func(Node) bool) {
	var do func(Node) bool
	do = func(x Node) bool {
		if f(x) {
			DoChildren(x, do)
		}
		return false
	}
	do(n)
}

// EditChildren replaces each immediate child c of n with edit(c), in
// evaluation order. edit must return a node of a kind that fits the slot:
// an Expr for an expression, a *Block for a block, a *Case for a case, a
// Stmt for a statement in a block. Returning nil for a statement in a
// block removes it.
func EditChildren(n Node, edit func(Node) Node) {
	ex := func(e Expr) Expr {
		if e == nil {
			return nil
		}
		return edit(e).(Expr)
	}
	exprs := func(es []Expr) {
		for i, e := range es {
			es[i] = ex(e)
		}
	}
	blk := func(b *Block) *Block { return edit(b).(*Block) }
	switch n := n.(type) {
	case *Lit, *Ident, *Break, *Continue:
	case *Unary:
		n.X = ex(n.X)
	case *Binary:
		n.X = ex(n.X)
		n.Y = ex(n.Y)
	case *Select:
		n.False = ex(n.False)
		n.True = ex(n.True)
		n.Cond = ex(n.Cond)
	case *Call:
		exprs(n.Args)
	case *BuiltinCall:
		exprs(n.Args)
	case *Construct:
		exprs(n.Args)
	case *Convert:
		n.X = ex(n.X)
	case *Bitcast:
		n.X = ex(n.X)
	case *Index:
		n.X = ex(n.X)
		n.Index = ex(n.Index)
	case *Member:
		n.X = ex(n.X)
	case *Swizzle:
		n.X = ex(n.X)
	case *Block:
		out := n.Stmts[:0]
		for _, s := range n.Stmts {
			if r := edit(s); r != nil {
				out = append(out, r.(Stmt))
			}
		}
		for i := len(out); i < len(n.Stmts); i++ {
			n.Stmts[i] = nil
		}
		n.Stmts = out
	case *Decl:
		n.Init = ex(n.Init)
	case *Assign:
		n.LHS = ex(n.LHS)
		n.RHS = ex(n.RHS)
	case *ExprStmt:
		n.X = ex(n.X)
	case *If:
		n.Cond = ex(n.Cond)
		n.Then = blk(n.Then)
		n.Else = blk(n.Else)
	case *Loop:
		n.Body = blk(n.Body)
		n.Continuing = blk(n.Continuing)
		n.BreakIf = ex(n.BreakIf)
	case *Switch:
		n.Selector = ex(n.Selector)
		for i, c := range n.Cases {
			n.Cases[i] = edit(c).(*Case)
		}
	case *Case:
		n.Body = blk(n.Body)
	case *Return:
		n.Value = ex(n.Value)
	case *Func:
		n.Body = blk(n.Body)
	default:
		panic("ir.EditChildren: unknown node type")
	}
}

// HasCall reports whether n contains a user function call.
func HasCall(n Node) bool {
	return Any(n, func(x Node) bool { _, ok := x.(*Call); return ok })
}

// IsReference reports whether e denotes a memory view rather than a
// value (WGSL #memory-views, #forming-references-and-pointers): an
// identifier of a var (function or private address space), or an Index,
// a Member or a single-component Swizzle of a reference. A
// multi-component swizzle always yields a value, even of a reference
// (WGSL #vector-multi-component: the load rule is applied to its
// operand), and so does every other expression. The distinction is when
// the memory is read: a reference is loaded only where its value is
// used, after every operand of the expression that forms it.
func IsReference(e Expr) bool {
	for {
		switch x := e.(type) {
		case *Ident:
			return x.Ref.Mutable()
		case *Index:
			e = x.X
		case *Member:
			e = x.X
		case *Swizzle:
			if len(x.Comps) != 1 {
				return false
			}
			e = x.X
		default:
			return false
		}
	}
}

// RootIdent returns the Ident at the root of a reference chain
// (Index/Member/Swizzle of … of an Ident), or nil.
func RootIdent(e Expr) *Ident {
	for {
		switch x := e.(type) {
		case *Ident:
			return x
		case *Index:
			e = x.X
		case *Member:
			e = x.X
		case *Swizzle:
			e = x.X
		default:
			return nil
		}
	}
}
