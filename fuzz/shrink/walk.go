package shrink

import "github.com/gpudiff/gpudiff/ir"

// Addressing nodes across clones. An edit is planned on the original
// module and applied to a deep copy (ir.CloneModule), so nodes are named by
// position, not pointer: the function's index in Module.Funcs and the
// node's number in a pre-order walk of the function (DoChildren order,
// the function itself being 0). Clones walk identically, so a ref names
// the same node in every clone.

type ref struct {
	fn, pre int
}

// visitor receives each node with its ref, its parent and its ordinal
// among the parent's children (DoChildren/EditChildren order).
type visitor func(r ref, n, parent ir.Node, ord int)

// walkFunc visits f (pre 0) and every node beneath it in pre-order.
func walkFunc(fi int, f *ir.Func, visit visitor) {
	pre := 0
	var rec func(n, parent ir.Node, ord int)
	rec = func(n, parent ir.Node, ord int) {
		visit(ref{fi, pre}, n, parent, ord)
		pre++
		k := 0
		ir.DoChildren(n, func(c ir.Node) bool {
			rec(c, n, k)
			k++
			return false
		})
	}
	rec(f, nil, 0)
}

// walkModule visits every function of m.
func walkModule(m *ir.Module, visit visitor) {
	for i, f := range m.Funcs {
		walkFunc(i, f, visit)
	}
}

// nodeAt returns the node r names in m (nil when there is none).
func nodeAt(m *ir.Module, r ref) ir.Node {
	if r.fn < 0 || r.fn >= len(m.Funcs) {
		return nil
	}
	var found ir.Node
	pre := 0
	var rec func(n ir.Node) bool
	rec = func(n ir.Node) bool {
		if pre == r.pre {
			found = n
			return true
		}
		pre++
		return ir.DoChildren(n, rec)
	}
	rec(m.Funcs[r.fn])
	return found
}

// replaceChild replaces the ord-th child of parent by repl (nil removes a
// statement from a block).
func replaceChild(parent ir.Node, ord int, repl ir.Node) {
	k := 0
	ir.EditChildren(parent, func(c ir.Node) ir.Node {
		defer func() { k++ }()
		if k == ord {
			return repl
		}
		return c
	})
}

// size counts the nodes of n's subtree.
func size(n ir.Node) int {
	s := 0
	ir.Inspect(n, func(ir.Node) bool { s++; return true })
	return s
}

// isExitTest reports whether s is `if (c) { break; }` (no else).
func isExitTest(s ir.Stmt) bool {
	iff, ok := s.(*ir.If)
	if !ok || len(iff.Else.Stmts) != 0 || len(iff.Then.Stmts) != 1 {
		return false
	}
	_, brk := iff.Then.Stmts[0].(*ir.Break)
	return brk
}

// targetsLoop reports whether stmts hold a break or continue that would
// leave or restart the enclosing loop (jumps inside nested loops, and
// breaks inside nested switches, target those instead).
func targetsLoop(stmts []ir.Stmt) bool {
	found := false
	var walk func(n ir.Node, inSwitch bool)
	walk = func(n ir.Node, inSwitch bool) {
		if found {
			return
		}
		switch x := n.(type) {
		case *ir.Loop:
			return
		case *ir.Continue:
			found = true
			return
		case *ir.Break:
			found = !inSwitch
			return
		case *ir.Switch:
			for _, c := range x.Cases {
				walk(c.Body, true)
			}
			return
		case ir.Expr:
			return
		}
		ir.DoChildren(n, func(c ir.Node) bool { walk(c, inSwitch); return found })
	}
	for _, s := range stmts {
		walk(s, false)
	}
	return found
}

// loopInfo is what the shrinker knows about one loop.
type loopInfo struct {
	block *ir.Block
	index int
	bound *ir.LoopBound // nil: ir.BoundLoop cannot bound it
}

// loops returns every loop in fs with its bound.
func loops(fs []*ir.Func) []loopInfo {
	var out []loopInfo
	for _, f := range fs {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			b, ok := n.(*ir.Block)
			if !ok {
				_, isExpr := n.(ir.Expr)
				return !isExpr
			}
			for i, s := range b.Stmts {
				if _, isLoop := s.(*ir.Loop); isLoop {
					lb, err := ir.BoundLoop(b, i)
					if err != nil {
						lb = nil
					}
					out = append(out, loopInfo{block: b, index: i, bound: lb})
				}
			}
			return true
		})
	}
	return out
}

// frozen returns the nodes no edit may change except by removing (or
// replacing) an enclosing node whole: everything inside a loop
// ir.BoundLoop cannot bound, the statements before such a loop in its
// block that declare or assign a variable its exit conditions read, the
// bodies of functions on a call cycle and the arguments of calls to them.
// Editing those could turn a terminating program into one that does not
// (a count-down by 1 made a count-down by 0, a recursion depth made
// unbounded); ir.BoundLoop cannot tell.
func frozen(m *ir.Module) map[ir.Node]bool {
	fr := map[ir.Node]bool{}
	freeze := func(n ir.Node) {
		ir.Inspect(n, func(x ir.Node) bool { fr[x] = true; return true })
	}
	for _, li := range loops(m.Funcs) {
		if li.bound != nil {
			continue
		}
		l := li.block.Stmts[li.index].(*ir.Loop)
		ir.DoChildren(l, func(c ir.Node) bool { freeze(c); return false })
		// Variables the exit conditions read.
		reads := map[string]bool{}
		note := func(e ir.Expr) {
			ir.Inspect(e, func(x ir.Node) bool {
				if id, ok := x.(*ir.Ident); ok {
					reads[id.Name] = true
				}
				return true
			})
		}
		for _, s := range l.Body.Stmts {
			if iff, ok := s.(*ir.If); ok && ir.Any(iff.Then, func(x ir.Node) bool { _, b := x.(*ir.Break); return b }) {
				note(iff.Cond)
			}
		}
		if l.BreakIf != nil {
			note(l.BreakIf)
		}
		for _, s := range li.block.Stmts[:li.index] {
			hit := false
			if d, ok := s.(*ir.Decl); ok && reads[d.Name] {
				hit = true
			}
			if ir.Any(s, func(x ir.Node) bool {
				a, ok := x.(*ir.Assign)
				if !ok {
					return false
				}
				r := ir.RootIdent(a.LHS)
				return r != nil && reads[r.Name]
			}) {
				hit = true
			}
			if hit {
				freeze(s)
			}
		}
	}
	cyclic := map[string]bool{}
	for _, f := range m.Funcs {
		if cyc := m.FindCycle(f.Name); cyc != nil {
			for _, n := range cyc {
				cyclic[n] = true
			}
		}
	}
	for _, f := range m.Funcs {
		if cyclic[f.Name] {
			freeze(f.Body)
		}
		ir.Inspect(f.Body, func(x ir.Node) bool {
			if c, ok := x.(*ir.Call); ok && cyclic[c.Func] {
				for _, a := range c.Args {
					freeze(a)
				}
			}
			return true
		})
	}
	return fr
}

// breaksOut reports whether stmts hold a break that would leave the
// enclosing switch (breaks inside nested loops and switches do not).
func breaksOut(stmts []ir.Stmt) bool {
	found := false
	var walk func(n ir.Node)
	walk = func(n ir.Node) {
		if found {
			return
		}
		switch n.(type) {
		case *ir.Loop, *ir.Switch, ir.Expr:
			return
		case *ir.Break:
			found = true
			return
		}
		ir.DoChildren(n, func(c ir.Node) bool { walk(c); return found })
	}
	for _, s := range stmts {
		walk(s)
	}
	return found
}
