package flatten

import (
	"github.com/gpudiff/gpudiff/ir"
)

// The Boolean fold. Predication builds its conditions, masks and selects
// from Booleans, and the named rules of fold.go (x && true, select(c, b,
// c), ...) cannot list every identity of Boolean algebra (absorption,
// a select whose arm negates its condition, ...). This rule decides from
// the semantics instead: a scalar Boolean expression built from !, &&,
// ||, &, |, ==, != and select over at most maxBoolAtoms atoms (its
// maximal other subexpressions: identifiers, comparisons of
// non-Booleans, calls, loads) is replaced by a constant, one of its
// atoms, or the negation of one, when its truth table is that of one of
// them. Atoms are compared structurally (exprEqual), so two reads of one
// name are one atom: an expression of a twin has no effects (calls are
// inlined; stores are statements), so a read cannot change within it.
// Every operand of a twin's expression is total (flatten's guards), so
// dropping one changes no result. The strict check (residual.go) re-runs
// the folds, this one included, so a twin that keeps such an expression
// fails Options.Strict.

const maxBoolAtoms = 5

// boolOperator reports whether e is one of the Boolean operators the
// check evaluates (on scalar bool).
func boolOperator(e ir.Expr) bool {
	if !ir.Identical(e.Type(), ir.Bool) {
		return false
	}
	switch x := e.(type) {
	case *ir.Lit:
		return true
	case *ir.Unary:
		return x.Op == ir.OpNot
	case *ir.Binary:
		switch x.Op {
		case ir.OpLogAnd, ir.OpLogOr, ir.OpAnd, ir.OpOr:
			return true
		case ir.OpEq, ir.OpNe:
			return ir.Identical(x.X.Type(), ir.Bool)
		}
	case *ir.Select:
		return true
	}
	return false
}

// boolAtoms collects e's atoms (distinct by exprEqual) into atoms; false
// when there are more than maxBoolAtoms.
func boolAtoms(e ir.Expr, atoms *[]ir.Expr) bool {
	if !boolOperator(e) {
		for _, a := range *atoms {
			if exprEqual(a, e) {
				return true
			}
		}
		*atoms = append(*atoms, e)
		return len(*atoms) <= maxBoolAtoms
	}
	if s, ok := e.(*ir.Select); ok {
		return boolAtoms(s.False, atoms) && boolAtoms(s.True, atoms) && boolAtoms(s.Cond, atoms)
	}
	ok := true
	ir.DoChildren(e, func(n ir.Node) bool {
		ok = ok && boolAtoms(n.(ir.Expr), atoms)
		return false
	})
	return ok
}

// truthTable evaluates e for every assignment of its atoms (bit i of the
// row number is atom i); bit r of the result is e's value in row r.
func truthTable(e ir.Expr, atoms []ir.Expr) uint64 {
	var t uint64
	for row := 0; row < 1<<len(atoms); row++ {
		if evalBool(e, atoms, row) {
			t |= 1 << row
		}
	}
	return t
}

func evalBool(e ir.Expr, atoms []ir.Expr, row int) bool {
	if !boolOperator(e) {
		for i, a := range atoms {
			if exprEqual(a, e) {
				return row>>i&1 == 1
			}
		}
		panic("flatten: atom not collected")
	}
	switch x := e.(type) {
	case *ir.Lit:
		return x.Val.Bool()
	case *ir.Unary:
		return !evalBool(x.X, atoms, row)
	case *ir.Binary:
		a, b := evalBool(x.X, atoms, row), evalBool(x.Y, atoms, row)
		switch x.Op {
		case ir.OpLogAnd, ir.OpAnd:
			return a && b
		case ir.OpLogOr, ir.OpOr:
			return a || b
		case ir.OpEq:
			return a == b
		default: // OpNe
			return a != b
		}
	case *ir.Select:
		if evalBool(x.Cond, atoms, row) {
			return evalBool(x.True, atoms, row)
		}
		return evalBool(x.False, atoms, row)
	}
	panic("flatten: not a Boolean operator")
}

// atomTable is the truth table of atom i alone over n atoms.
func atomTable(i, n int) uint64 {
	var t uint64
	for row := 0; row < 1<<n; row++ {
		if row>>i&1 == 1 {
			t |= 1 << row
		}
	}
	return t
}

// rewriteBoolean returns what the Boolean expression e reduces to — a
// literal, one of its atoms, or an atom's negation — or nil when it does
// not reduce or already has that form.
func rewriteBoolean(e ir.Expr) ir.Expr {
	if !boolOperator(e) {
		return nil
	}
	if _, ok := e.(*ir.Lit); ok {
		return nil
	}
	if u, ok := e.(*ir.Unary); ok && !boolOperator(u.X) {
		return nil
	}
	var atoms []ir.Expr
	if !boolAtoms(e, &atoms) {
		return nil
	}
	n := len(atoms)
	t := truthTable(e, atoms)
	all := uint64(1)<<(1<<n) - 1
	pos := e.Position()
	switch t {
	case 0:
		return &ir.Lit{Pos: pos, Val: ir.BoolVal(false)}
	case all:
		return &ir.Lit{Pos: pos, Val: ir.BoolVal(true)}
	}
	for i, a := range atoms {
		switch t {
		case atomTable(i, n):
			return a
		case all &^ atomTable(i, n):
			return &ir.Unary{Pos: pos, Op: ir.OpNot, X: a, T: ir.Bool}
		}
	}
	return nil
}
