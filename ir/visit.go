package ir

// Traversal helpers, in the style of cmd/compile/internal/ir/visit.go.
// The per-node-type child lists (DoChildren, EditChildren, clone's copy,
// ExprOperands, WithOperands) are generated from the node structs by
// mknode.go into node_gen.go: a node's children are its Expr, Stmt,
// *Block and *Case fields (and slices of them) in declaration order.
//
//go:generate go run mknode.go
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

// Operands holds an expression's operands without a heap allocation when
// it has at most three (every kind but calls and constructors): callers of
// ExprOperands and WithOperands keep one on their stack.
type Operands [3]Expr

// Slots returns n operand slots: buf's when n fits, else a new slice.
func (buf *Operands) Slots(n int) []Expr {
	if n <= len(buf) {
		return buf[:n]
	}
	return make([]Expr, n)
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

// WritesThrough reports whether f may write through its pointer parameter
// name (Param.Ptr): an assignment or atomic rooted at it, or passing it on
// as a pointer argument (WGSL #alias-analysis counts that as the
// callee's access; this is the conservative side of it).
func WritesThrough(f *Func, name string) bool {
	return Any(f.Body, func(n Node) bool {
		var root *Ident
		switch x := n.(type) {
		case *Assign:
			root = RootIdent(x.LHS)
		case *AddrOf:
			root = RootIdent(x.X)
		}
		return root != nil && root.Ref == RefPtr && root.Name == name
	})
}
