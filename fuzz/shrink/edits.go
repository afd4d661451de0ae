package shrink

import (
	"fmt"
	"sort"

	"github.com/gpudiff/gpudiff/ir"
)

// site is a node found while planning, with where it sits.
type site struct {
	r      ref
	n      ir.Node
	parent ref
	// pnode is the parent node in the planned (original) module.
	pnode ir.Node
	ord   int
	size  int
	// block and index: the innermost statement list around the node and
	// the index of the statement holding it.
	block ref
	index int
	// inLHS marks the reference chain of an assignment's left-hand side
	// (its root, members, indices, swizzles — not index operands).
	inLHS bool
	// inContinuing marks nodes inside a loop's continuing block or
	// break-if.
	inContinuing bool
}

// sites lists the nodes of the functions of c's call graph (pre-order),
// a draw's vertex entry point's included, skipping frozen ones.
func sites(c Case) []site {
	m := c.Module
	fr := frozen(m)
	reach := map[string]bool{}
	for _, f := range callGraph(m, c.roots()) {
		reach[f.Name] = true
	}
	var out []site
	for fi, f := range m.Funcs {
		if !reach[f.Name] {
			continue
		}
		refs := map[ir.Node]ref{}
		type frame struct {
			block        ref
			index        int
			inLHS        bool
			inContinuing bool
		}
		var rec func(n, parent ir.Node, ord int, fr0 frame)
		pre := 0
		rec = func(n, parent ir.Node, ord int, cur frame) {
			r := ref{fi, pre}
			pre++
			refs[n] = r
			if parent != nil && !fr[n] {
				out = append(out, site{r: r, n: n, parent: refs[parent], pnode: parent, ord: ord, size: size(n),
					block: cur.block, index: cur.index, inLHS: cur.inLHS, inContinuing: cur.inContinuing})
			}
			k := 0
			ir.DoChildren(n, func(ch ir.Node) bool {
				next := cur
				switch x := n.(type) {
				case *ir.Block:
					next.block, next.index = r, k
				case *ir.Assign:
					next.inLHS = ch == x.LHS
				case *ir.Index:
					if cur.inLHS && ch == x.Index {
						next.inLHS = false
					}
				case *ir.Loop:
					if ch == x.Continuing || (x.BreakIf != nil && ch == ir.Node(x.BreakIf)) {
						next.inContinuing = true
					}
				}
				rec(ch, n, k, next)
				k++
				return false
			})
		}
		rec(f, nil, 0, frame{})
	}
	return out
}

// bySizeDesc sorts sites biggest first, keeping pre-order among equals.
func bySizeDesc(ss []site) []site {
	out := append([]site(nil), ss...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].size > out[j].size })
	return out
}

// plan lists c's edits in the order of Stream's documentation.
func plan(c Case) []edit {
	var es []edit
	add := func(what string, apply func(*Case) bool) { es = append(es, edit{what, apply}) }

	// 1. invocations
	if n := len(c.Args); n > 1 {
		for i := 0; i < n; i++ {
			add(fmt.Sprintf("keep invocation %d", i), func(d *Case) bool {
				d.Args = d.Args[i : i+1]
				return true
			})
		}
		if n > 2 {
			add("keep the first half of the invocations", func(d *Case) bool { d.Args = d.Args[:n/2]; return true })
			add("keep the second half of the invocations", func(d *Case) bool { d.Args = d.Args[n/2:]; return true })
		}
	}

	// 1b. the workgroup of a compute entry point (entry.go)
	entryEdits(c, add)

	all := sites(c)
	var blocks, stmts, bares, ifs, switches, lps, calls, exprs []site
	for _, s := range all {
		switch x := s.n.(type) {
		case *ir.Block:
			if len(x.Stmts) > 0 {
				blocks = append(blocks, s)
			}
		}
		if _, isStmt := s.n.(ir.Stmt); isStmt {
			if _, inBlock := s.pnode.(*ir.Block); inBlock {
				stmts = append(stmts, s)
				if _, bare := s.n.(*ir.Block); bare {
					bares = append(bares, s)
				}
			}
		}
		switch s.n.(type) {
		case *ir.If:
			ifs = append(ifs, s)
		case *ir.Switch:
			switches = append(switches, s)
		case *ir.Loop:
			lps = append(lps, s)
		case *ir.Call:
			calls = append(calls, s)
		}
		if e, ok := s.n.(ir.Expr); ok && !s.inLHS && !e.Type().IsVoid() {
			exprs = append(exprs, s)
		}
	}

	// 2. empty blocks
	for _, s := range bySizeDesc(blocks) {
		s := s
		if l, ok := s.pnode.(*ir.Loop); ok && s.n == ir.Node(l.Continuing) {
			continue
		}
		add("empty a block", func(d *Case) bool { return emptyBlock(d, s) })
	}
	// 3. drop statements
	for _, s := range bySizeDesc(stmts) {
		s := s
		add("drop a statement", func(d *Case) bool {
			replaceChild(nodeAt(d.Module, s.parent), s.ord, nil)
			return true
		})
	}
	// 3b. keep only a statement's value: `_ = e`
	for _, s := range stmts {
		s := s
		var val ir.Expr
		switch x := s.n.(type) {
		case *ir.Decl:
			val = x.Init
		case *ir.Assign:
			val = x.RHS
		case *ir.If:
			val = x.Cond
		case *ir.Switch:
			val = x.Selector
		}
		if val == nil {
			continue
		}
		add("replace a statement by a phony assignment of its value", func(d *Case) bool {
			var v ir.Expr
			switch x := nodeAt(d.Module, s.r).(type) {
			case *ir.Decl:
				v = x.Init
			case *ir.Assign:
				v = x.RHS
			case *ir.If:
				v = x.Cond
			case *ir.Switch:
				v = x.Selector
			}
			return splice(d, s, []ir.Stmt{&ir.ExprStmt{Pos: v.Position(), X: v}})
		})
	}
	// 4. if → arm
	for _, s := range ifs {
		s := s
		iff := s.n.(*ir.If)
		for _, arm := range []string{"then", "else"} {
			arm := arm
			if (arm == "then" && len(iff.Then.Stmts) == 0) || (arm == "else" && len(iff.Else.Stmts) == 0) {
				continue
			}
			add("replace an if by its "+arm+" arm", func(d *Case) bool {
				x := nodeAt(d.Module, s.r).(*ir.If)
				b := x.Then
				if arm == "else" {
					b = x.Else
				}
				return splice(d, s, b.Stmts)
			})
		}
	}
	// 4b. switch → one clause; drop a clause; unwrap bare blocks
	for _, s := range switches {
		s := s
		sw := s.n.(*ir.Switch)
		for ci, cs := range sw.Cases {
			ci := ci
			if !breaksOut(cs.Body.Stmts) {
				add("replace a switch by one clause", func(d *Case) bool {
					x := nodeAt(d.Module, s.r).(*ir.Switch)
					return splice(d, s, x.Cases[ci].Body.Stmts)
				})
			}
			if !cs.Default {
				add("drop a switch clause", func(d *Case) bool {
					x := nodeAt(d.Module, s.r).(*ir.Switch)
					x.Cases = append(append([]*ir.Case(nil), x.Cases[:ci]...), x.Cases[ci+1:]...)
					return true
				})
			}
		}
	}
	for _, s := range bares {
		s := s
		add("unwrap a block", func(d *Case) bool {
			return splice(d, s, nodeAt(d.Module, s.r).(*ir.Block).Stmts)
		})
	}
	// 5. loops
	loopBounds := map[ir.Node]*ir.LoopBound{}
	for _, li := range loops(c.Module.Funcs) {
		loopBounds[li.block.Stmts[li.index]] = li.bound
	}
	for _, s := range lps {
		s := s
		lb := loopBounds[s.n]
		if lb != nil && lb.Counter != "" && lb.MaxEntries > 1 {
			seen := map[int64]bool{}
			for _, j := range []int64{int64(lb.MaxEntries - 1), int64(lb.MaxEntries-1) / 2} {
				if j < 1 || seen[j] {
					continue
				}
				seen[j] = true
				shift := j * lb.Step
				add(fmt.Sprintf("cut a loop's trip count by %d", j), func(d *Case) bool { return cutTrips(d, s, lb.Counter, shift) })
			}
		}
		add("replace a loop by one copy of its body", func(d *Case) bool { return unrollOnce(d, s) })
	}
	// 6. inline calls
	callCount := map[string]int{}
	for _, f := range c.Module.Funcs {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if x, ok := n.(*ir.Call); ok {
				callCount[x.Func]++
			}
			return true
		})
	}
	for _, s := range calls {
		s := s
		call := s.n.(*ir.Call)
		callee := c.Module.Func(call.Func)
		if callee == nil || callCount[call.Func] != 1 || s.inContinuing || c.Module.FindCycle(call.Func) != nil || !inlinable(callee) {
			continue
		}
		add("inline a call of "+call.Func, func(d *Case) bool { return inline(d, s) })
	}
	// 7. unused parameters (not a draw's vertex entry point's: its inputs
	// are the draw's vertex buffers and builtins, draw.go)
	vertex := map[string]bool{}
	for _, v := range c.vertexEntries() {
		vertex[v] = true
	}
	for _, f := range callGraph(c.Module, c.roots()) {
		if vertex[f.Name] {
			continue
		}
		for i, p := range f.Params {
			if paramUsed(f, p.Name) {
				continue
			}
			name, i := f.Name, i
			add("drop unused parameter "+p.Name+" of "+f.Name, func(d *Case) bool { return dropParam(d, name, i) })
		}
	}
	// 8. unused struct members
	for si, st := range c.Module.Structs {
		for fi := range st.Fields {
			if memberUsed(c.Module, st.Name, fi) {
				continue
			}
			si, fi := si, fi
			add("drop unused member "+st.Fields[fi].Name+" of "+st.Name, func(d *Case) bool { return dropMember(d, si, fi) })
		}
	}
	// 8b. workgroup variables and barriers (entry.go)
	sharedEdits(c, add)
	// 9. expressions
	for _, s := range exprs {
		s := s
		e := s.n.(ir.Expr)
		t := e.Type()
		k := 0
		ir.DoChildren(e, func(ch ir.Node) bool {
			if ce, ok := ch.(ir.Expr); ok && ir.Identical(ce.Type(), t) {
				ord := k
				add("replace an expression by its operand", func(d *Case) bool {
					x := nodeAt(d.Module, s.r)
					var pick ir.Node
					j := 0
					ir.DoChildren(x, func(c ir.Node) bool {
						if j == ord {
							pick = c
						}
						j++
						return false
					})
					replaceChild(nodeAt(d.Module, s.parent), s.ord, pick)
					return true
				})
			}
			k++
			return false
		})
		for _, v := range constants(t) {
			v := v
			if l, ok := e.(*ir.Lit); ok && ir.Equal(l.Val, v) {
				continue
			}
			add("replace an expression by "+v.String(), func(d *Case) bool {
				replaceChild(nodeAt(d.Module, s.parent), s.ord, &ir.Lit{Pos: e.Position(), Val: v.Clone()})
				return true
			})
		}
		for _, p := range c.Module.Funcs[s.r.fn].Params {
			if !ir.Identical(p.T, t) {
				continue
			}
			if id, ok := e.(*ir.Ident); ok && id.Name == p.Name {
				continue
			}
			p := p
			add("replace an expression by parameter "+p.Name, func(d *Case) bool {
				replaceChild(nodeAt(d.Module, s.parent), s.ord, &ir.Ident{Pos: e.Position(), Name: p.Name, T: p.T, Ref: ir.RefParam})
				return true
			})
		}
	}
	// 9b. repeated expressions, every occurrence at once
	repeatedExprEdits(c, exprs, add)
	return es
}

// repeatedExprEdits adds, for each expression that occurs more than once
// in one function (equal printed form and type, none inside another),
// the edits replacing every occurrence together by a constant of its
// type: a value computed twice and then cancelled (clamp(x, e, e),
// e - e, select(e, e, c)) is gone only when both copies go at once.
func repeatedExprEdits(c Case, exprs []site, add func(string, func(*Case) bool)) {
	type group struct {
		key   string
		t     *ir.Type
		sites []site
	}
	var order []*group
	byKey := map[string]*group{}
	for _, s := range exprs {
		e := s.n.(ir.Expr)
		if _, lit := e.(*ir.Lit); lit {
			continue
		}
		if _, id := e.(*ir.Ident); id {
			continue
		}
		key := fmt.Sprintf("%d|%s|%s", s.r.fn, e.Type(), ir.PrintExpr(e))
		g := byKey[key]
		if g == nil {
			g = &group{key: key, t: e.Type()}
			byKey[key] = g
			order = append(order, g)
		}
		g.sites = append(g.sites, s)
	}
	for _, g := range order {
		if len(g.sites) < 2 || nested(g.sites) {
			continue
		}
		g := g
		for _, v := range constants(g.t) {
			v := v
			add(fmt.Sprintf("replace %d copies of an expression by %s", len(g.sites), v), func(d *Case) bool {
				// Last first: replacing a later subtree leaves the
				// pre-order positions of earlier ones unchanged.
				for i := len(g.sites) - 1; i >= 0; i-- {
					s := g.sites[i]
					replaceChild(nodeAt(d.Module, s.parent), s.ord, &ir.Lit{Pos: s.n.(ir.Expr).Position(), Val: v.Clone()})
				}
				return true
			})
		}
	}
}

// nested reports whether one of ss lies inside another (pre-order
// positions within the other's subtree), or two are in different
// functions.
func nested(ss []site) bool {
	for i := 1; i < len(ss); i++ {
		prev, cur := ss[i-1], ss[i]
		if prev.r.fn != cur.r.fn || cur.r.pre < prev.r.pre+subtreeNodes(prev.n) {
			return true
		}
	}
	return false
}

// subtreeNodes counts the nodes of n's subtree, n included (the span of
// its pre-order positions).
func subtreeNodes(n ir.Node) int {
	k := 0
	ir.Inspect(n, func(ir.Node) bool { k++; return true })
	return k
}

// constants returns the zero value of t, then one (1, 1u, 1.0f, true,
// splatted for vectors) when t is a scalar or vector.
func constants(t *ir.Type) []ir.Value {
	out := []ir.Value{ir.Zero(t)}
	s := t.Scalar()
	if s == nil {
		return out
	}
	one := ir.ScalarVal(s, 1)
	if s.Kind == ir.KindF32 {
		one = ir.F32Val(1)
	}
	if t.Kind == ir.KindVec {
		es := make([]ir.Value, t.Len)
		for i := range es {
			es[i] = one
		}
		return append(out, ir.CompositeVal(t, es...))
	}
	return append(out, one)
}

// splice replaces the statement at site s (a child of a block) by stmts.
func splice(d *Case, s site, stmts []ir.Stmt) bool {
	b, ok := nodeAt(d.Module, s.parent).(*ir.Block)
	if !ok || s.ord >= len(b.Stmts) {
		return false
	}
	out := append([]ir.Stmt(nil), b.Stmts[:s.ord]...)
	out = append(out, stmts...)
	out = append(out, b.Stmts[s.ord+1:]...)
	b.Stmts = out
	return true
}

// emptyBlock removes a block's statements, keeping what the block needs
// to stay valid and terminating: a function body keeps its final return,
// a loop body its leading exit test and counter updates.
func emptyBlock(d *Case, s site) bool {
	b := nodeAt(d.Module, s.r).(*ir.Block)
	parent := nodeAt(d.Module, s.parent)
	var keep []ir.Stmt
	switch p := parent.(type) {
	case *ir.Func:
		if n := len(b.Stmts); n > 0 {
			if r, ok := b.Stmts[n-1].(*ir.Return); ok && r.Value != nil {
				keep = append(keep, r)
			}
		}
	case *ir.Loop:
		if p.Body != b {
			return false
		}
		for i, st := range b.Stmts {
			if i == 0 && isExitTest(st) {
				keep = append(keep, st)
				continue
			}
			if a, ok := st.(*ir.Assign); ok {
				if _, isID := a.LHS.(*ir.Ident); isID {
					keep = append(keep, st) // possibly the counter update
				}
			}
		}
	}
	if len(keep) == len(b.Stmts) {
		return false
	}
	b.Stmts = keep
	return true
}

// cutTrips moves a bounded loop's counter start by shift (a multiple of
// its step), so the loop runs fewer iterations.
func cutTrips(d *Case, s site, counter string, shift int64) bool {
	b, ok := nodeAt(d.Module, s.parent).(*ir.Block)
	if !ok {
		return false
	}
	for j := s.ord - 1; j >= 0; j-- {
		var l *ir.Lit
		switch st := b.Stmts[j].(type) {
		case *ir.Decl:
			if st.Name == counter {
				l, _ = st.Init.(*ir.Lit)
				if l == nil {
					return false
				}
			}
		case *ir.Assign:
			if id, isID := st.LHS.(*ir.Ident); isID && id.Name == counter && st.Op == ir.OpNone {
				l, _ = st.RHS.(*ir.Lit)
				if l == nil {
					return false
				}
			}
		}
		if l == nil {
			continue
		}
		v := l.Val.Int64() + shift
		switch l.Val.Type.Kind {
		case ir.KindI32:
			if v < -1<<31 || v > 1<<31-1 {
				return false
			}
			l.Val = ir.I32Val(int32(v))
		case ir.KindU32:
			if v < 0 || v > 1<<32-1 {
				return false
			}
			l.Val = ir.U32Val(uint32(v))
		default:
			return false
		}
		return true
	}
	return false
}

// unrollOnce replaces a loop by its body (without a leading exit test)
// and continuing block, when no break or continue in them targets the
// loop.
func unrollOnce(d *Case, s site) bool {
	l := nodeAt(d.Module, s.r).(*ir.Loop)
	body := l.Body.Stmts
	if len(body) > 0 && isExitTest(body[0]) {
		body = body[1:]
	}
	if targetsLoop(body) {
		return false
	}
	stmts := append(append([]ir.Stmt(nil), body...), l.Continuing.Stmts...)
	return splice(d, s, stmts)
}

func paramUsed(f *ir.Func, name string) bool {
	return ir.Any(f.Body, func(n ir.Node) bool {
		id, ok := n.(*ir.Ident)
		return ok && id.Ref == ir.RefParam && id.Name == name
	})
}

// dropParam removes parameter i of fn, the matching argument at every
// call site and, for the kernel, column i of Args.
func dropParam(d *Case, fn string, i int) bool {
	f := d.Module.Func(fn)
	if f == nil || i >= len(f.Params) {
		return false
	}
	f.Params = append(append([]*ir.Param(nil), f.Params[:i]...), f.Params[i+1:]...)
	for _, g := range d.Module.Funcs {
		ir.Inspect(g.Body, func(n ir.Node) bool {
			if c, ok := n.(*ir.Call); ok && c.Func == fn && i < len(c.Args) {
				c.Args = append(append([]ir.Expr(nil), c.Args[:i]...), c.Args[i+1:]...)
			}
			return true
		})
	}
	if fn == d.Kernel {
		for k, inv := range d.Args {
			if i < len(inv) {
				d.Args[k] = append(append([]ir.Value(nil), inv[:i]...), inv[i+1:]...)
			}
		}
	}
	return true
}
