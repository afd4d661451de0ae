package wgsl

import (
	"github.com/gpudiff/gpudiff/ir"
)

// chkAlias is what the alias analysis (WGSL #alias-analysis) records of a
// function, its callees included: the module-scope variables it reads and
// writes, and which of its pointer parameters it reads and writes through.
type chkAlias struct {
	globR, globW map[string]bool
	ptrR, ptrW   []bool // by parameter index
}

// aliasSummary computes f's access sets from its lowered body, its
// callees' summaries standing for their calls (callees are checked
// first: the call graph has no cycles).
func (c *chkCtx) aliasSummary(f *ir.Func) *chkAlias {
	s := &chkAlias{globR: map[string]bool{}, globW: map[string]bool{}, ptrR: make([]bool, len(f.Params)), ptrW: make([]bool, len(f.Params))}
	param := map[string]int{}
	for i, p := range f.Params {
		if p.Ptr != 0 {
			param[p.Name] = i
		}
	}
	note := func(root *ir.Ident, read, write bool) {
		if root == nil {
			return
		}
		switch root.Ref {
		case ir.RefGlobal, ir.RefShared:
			s.globR[root.Name] = s.globR[root.Name] || read
			s.globW[root.Name] = s.globW[root.Name] || write
		case ir.RefPtr:
			if i, ok := param[root.Name]; ok {
				s.ptrR[i] = s.ptrR[i] || read
				s.ptrW[i] = s.ptrW[i] || write
			}
		}
	}
	// indexes walks the index operands of a reference chain (values
	// read) without counting the chain itself as a read.
	var walk func(n ir.Node) bool
	visit := func(n ir.Node) { ir.Inspect(n, func(m ir.Node) bool { return !walk(m) }) }
	indexes := func(e ir.Expr) {
		for {
			switch x := e.(type) {
			case *ir.Index:
				visit(x.Index)
				e = x.X
				continue
			case *ir.Member:
				e = x.X
				continue
			case *ir.Swizzle:
				e = x.X
				continue
			}
			return
		}
	}
	// walk notes n's own accesses and returns true when it walked n's
	// operands itself.
	walk = func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Assign:
			note(ir.RootIdent(x.LHS), x.Op != ir.OpNone, true)
			indexes(x.LHS)
			visit(x.RHS)
			return true // children done
		case *ir.Ident:
			note(x, true, false)
		case *ir.Atomic:
			note(ir.RootIdent(x.Ptr()), true, true)
			indexes(x.Ptr())
			for _, a := range x.Args[1:] {
				visit(a)
			}
			return true
		case *ir.ArrayLength:
			indexes(x.X)
			return true
		case *ir.Call:
			var callee *chkAlias
			if d := c.mc.byName[x.Func]; d != nil {
				callee = d.alias
			}
			for i, a := range x.Args {
				ad, ok := a.(*ir.AddrOf)
				if !ok {
					visit(a)
					continue
				}
				indexes(ad.X)
				if callee != nil && i < len(callee.ptrR) {
					note(ir.RootIdent(ad.X), callee.ptrR[i], callee.ptrW[i])
				}
			}
			if callee != nil {
				for g, r := range callee.globR {
					s.globR[g] = s.globR[g] || r
				}
				for g, w := range callee.globW {
					s.globW[g] = s.globW[g] || w
				}
			}
			return true
		}
		return false
	}
	visit(f.Body)
	return s
}

// aliasCall refuses a call of d whose pointer arguments alias (WGSL
// #alias-analysis, "at each call site"): two pointer arguments with one
// root identifier where the callee writes through either, or a pointer
// argument to a module-scope variable the callee accesses while writing
// through the pointer or writes while reading through it. Positioned at
// the later argument, as Tint does.
func (c *chkCtx) aliasCall(x *astCallExpr, d *chkDecl, args []ir.Expr) {
	a := d.alias
	if a == nil {
		return
	}
	roots := make([]*ir.Ident, len(args))
	for i, e := range args {
		if ad, ok := e.(*ir.AddrOf); ok {
			roots[i] = ir.RootIdent(ad.X)
		}
	}
	for j, rj := range roots {
		if rj == nil {
			continue
		}
		for i, ri := range roots[:j] {
			if ri != nil && ri.Name == rj.Name && ri.Ref == rj.Ref && (a.ptrW[i] || a.ptrW[j]) {
				c.errorf(astExprStart(x.args[j]), "invalid aliased pointer argument: arguments %d and %d of %s both point into '%s' and %s writes through one of them (WGSL #alias-analysis)", i+1, j+1, x.callee.name, rj.Name, x.callee.name)
			}
		}
		if (rj.Ref == ir.RefGlobal || rj.Ref == ir.RefShared) && (a.ptrW[j] && (a.globR[rj.Name] || a.globW[rj.Name]) || a.ptrR[j] && a.globW[rj.Name]) {
			c.errorf(astExprStart(x.args[j]), "invalid aliased pointer argument: argument %d of %s points into module-scope variable '%s', which %s also accesses, one of the two writing (WGSL #alias-analysis)", j+1, x.callee.name, rj.Name, x.callee.name)
		}
	}
}
