package ir

// InlineBarriers rewrites a compute entry point for a reference that runs
// barriers only in the entry point's own body (interp's segments): every
// call of a function that calls a barrier builtin (workgroupBarrier,
// storageBarrier, textureBarrier, workgroupUniformLoad), directly or
// through other calls, is inlined, and every workgroupUniformLoad ends up
// as the whole initializer of a let of the entry point's body. The
// emitters keep the calls as written; flatten inlines every call itself.
//
// Inlining terminates: WGSL forbids recursion (the callers refuse it
// first). Inlined statements keep their positions, so errors and race
// reports point into the helper. Evaluation order is kept (WGSL
// #program-order): the operands evaluated before such a call are bound
// to lets first, a compound assignment's load happens before the call,
// and the right side of && or || runs only when it would.
//
// A callee's locals and parameters get fresh names; a value parameter
// becomes a let of its argument, a pointer parameter (function or
// private space, after DirectVariableAccess; its indices are immutable,
// as the front end requires) the argument's view. A callee's result is a
// var assigned where it returns; a return nested in a loop or switch
// also sets a flag that breaks out of each enclosing one, all inside a
// one-iteration loop that the remaining returns break.
//
// m is returned unchanged when the entry point needs none of it; else a
// copy whose entry point is replaced (its other functions are shared).
func InlineBarriers(m *Module, entry string) *Module {
	return inlineCallers(m, entry, ClassBarrier)
}

// inlineCallers inlines into entry every call of a function that calls a
// builtin of one of classes, directly or through other calls (callersOf),
// with InlineBarriers' rules; m unchanged when there is none.
func inlineCallers(m *Module, entry string, classes ...BuiltinClass) *Module {
	f := m.Func(entry)
	if f == nil {
		return m
	}
	in := &inliner{m: m, barrier: callersOf(m, classes...)}
	if !in.needsStmt(f.Body) {
		return m
	}
	in.names = NewNamer(m, m.Funcs...)
	g := *f
	g.Body = in.block(CloneBlock(f.Body))
	out := *m
	out.Funcs = make([]*Func, 0, len(m.Funcs))
	for _, h := range m.Funcs {
		if h == f {
			h = &g
		}
		out.Funcs = append(out.Funcs, h)
	}
	// The helpers inlined everywhere they were called go: a barrier in a
	// function no entry point calls does not verify.
	reach := map[string]bool{}
	for _, h := range out.Funcs {
		if h.Stage != StageNone {
			for _, k := range out.CallGraph(h.Name) {
				reach[k.Name] = true
			}
		}
	}
	funcs := out.Funcs[:0]
	for _, h := range out.Funcs {
		if !in.barrier[h.Name] || reach[h.Name] || h.Stage != StageNone {
			funcs = append(funcs, h)
		}
	}
	out.Funcs = funcs
	return &out
}

// callersOf returns the functions of m that call a builtin of one of
// classes, directly or through calls.
func callersOf(m *Module, classes ...BuiltinClass) map[string]bool {
	out := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, f := range m.Funcs {
			if out[f.Name] {
				continue
			}
			if Any(f.Body, func(n Node) bool {
				switch x := n.(type) {
				case *BuiltinCall:
					c := x.Fn.Info().Class
					for _, k := range classes {
						if c == k {
							return true
						}
					}
				case *Call:
					return out[x.Func]
				}
				return false
			}) {
				out[f.Name] = true
				changed = true
			}
		}
	}
	return out
}

type inliner struct {
	m       *Module
	barrier map[string]bool
	names   *Namer
	pre     []Stmt // statements lifted before the one being rewritten
}

// needs reports whether n holds a call to inline or a workgroupUniformLoad.
func (in *inliner) needs(n Node) bool {
	return Any(n, func(x Node) bool {
		switch x := x.(type) {
		case *BuiltinCall:
			return x.Fn == BWorkgroupUniformLoad
		case *Call:
			return in.barrier[x.Func]
		}
		return false
	})
}

// needsStmt reports whether a statement tree has something to rewrite: a
// call to inline, or a workgroupUniformLoad other than a let's or var's
// whole initializer.
func (in *inliner) needsStmt(n Node) bool {
	found := false
	var do func(Node) bool
	do = func(x Node) bool {
		if found {
			return true
		}
		if d, ok := x.(*Decl); ok {
			if b, ok := d.Init.(*BuiltinCall); ok && b.Fn == BWorkgroupUniformLoad {
				found = in.needs(b.Args[0])
				return found
			}
		}
		switch x := x.(type) {
		case *BuiltinCall:
			if x.Fn == BWorkgroupUniformLoad {
				found = true
			}
		case *Call:
			if in.barrier[x.Func] {
				found = true
			}
		}
		return found || DoChildren(x, do)
	}
	do(n)
	return found
}

func (in *inliner) block(b *Block) *Block {
	var out []Stmt
	for _, s := range b.Stmts {
		out = append(out, in.stmt(s)...)
	}
	b.Stmts = out
	return b
}

// flush returns the lifted statements and s.
func (in *inliner) flush(s ...Stmt) []Stmt {
	out := append(in.pre, s...)
	in.pre = nil
	return out
}

func (in *inliner) stmt(s Stmt) []Stmt {
	switch s := s.(type) {
	case *Block:
		return []Stmt{in.block(s)}
	case *Decl:
		if s.Init == nil || !in.needs(s.Init) {
			return []Stmt{s}
		}
		if b, ok := s.Init.(*BuiltinCall); ok && b.Fn == BWorkgroupUniformLoad {
			b.Args[0] = in.ref(b.Args[0], false)
			return in.flush(s)
		}
		s.Init = in.expr(s.Init, false)
		return in.flush(s)
	case *Assign:
		if !in.needs(s.RHS) && !in.needs(s.LHS) {
			return []Stmt{s}
		}
		rhsNeeds := in.needs(s.RHS)
		s.LHS = in.ref(s.LHS, rhsNeeds)
		if s.Op != OpNone && rhsNeeds {
			// e1 op= e2 loads e1 before evaluating e2 (WGSL #compound-assignment-sec).
			old := in.let(s.Pos, "old", s.LHS)
			s.RHS = &Binary{Pos: s.Pos, Op: s.Op, X: old, Y: in.expr(s.RHS, false), T: s.LHS.Type()}
			s.Op = OpNone
			return in.flush(s)
		}
		s.RHS = in.expr(s.RHS, false)
		return in.flush(s)
	case *ExprStmt:
		if c, ok := s.X.(*Call); ok && in.barrier[c.Func] {
			in.call(c, false)
			return in.flush()
		}
		if !in.needs(s.X) {
			return []Stmt{s}
		}
		s.X = in.expr(s.X, false)
		return in.flush(s)
	case *If:
		if in.needs(s.Cond) {
			s.Cond = in.expr(s.Cond, false)
		}
		pre := in.pre
		in.pre = nil
		s.Then = in.block(s.Then)
		if s.Else != nil {
			s.Else = in.block(s.Else)
		}
		return append(pre, s)
	case *Switch:
		if in.needs(s.Selector) {
			s.Selector = in.expr(s.Selector, false)
		}
		pre := in.pre
		in.pre = nil
		for _, c := range s.Cases {
			c.Body = in.block(c.Body)
		}
		return append(pre, s)
	case *Loop:
		s.Body = in.block(s.Body)
		s.Continuing = in.block(s.Continuing)
		if s.BreakIf != nil && in.needs(s.BreakIf) {
			s.BreakIf = in.expr(s.BreakIf, false)
			s.Continuing.Stmts = append(s.Continuing.Stmts, in.pre...)
			in.pre = nil
		}
		return []Stmt{s}
	case *Return:
		if s.Value != nil && in.needs(s.Value) {
			s.Value = in.expr(s.Value, false)
			return in.flush(s)
		}
	}
	return []Stmt{s}
}

// let binds e to a fresh let (lifted) and returns its name.
func (in *inliner) let(pos Pos, base string, e Expr) Expr {
	name := in.names.Fresh(base)
	in.pre = append(in.pre, &Decl{Pos: pos, Name: name, T: e.Type(), Init: e})
	return &Ident{Pos: pos, Name: name, T: e.Type(), Ref: RefLet}
}

// stable reports whether e's value cannot change before a later operand
// runs: a literal, or a let or parameter.
func stable(e Expr) bool {
	switch x := e.(type) {
	case *Lit:
		return true
	case *Ident:
		return x.Ref == RefLet || x.Ref == RefParam
	}
	return false
}

// expr rewrites a value expression so that it holds no call to inline and
// no workgroupUniformLoad; bind asks that its value be fixed now (a later
// operand needs lifting).
func (in *inliner) expr(e Expr, bind bool) Expr {
	if !in.needs(e) {
		if !bind || stable(e) {
			return e
		}
		if ad, ok := e.(*AddrOf); ok {
			y := *ad
			y.X = in.ref(ad.X, true)
			return &y
		}
		return in.let(e.Position(), "v", e)
	}
	switch x := e.(type) {
	case *Call:
		if in.barrier[x.Func] {
			return in.call(x, true)
		}
	case *BuiltinCall:
		if x.Fn == BWorkgroupUniformLoad {
			r := in.ref(x.Args[0], false)
			return in.let(x.Pos, "wul", &BuiltinCall{Pos: x.Pos, Fn: x.Fn, Args: []Expr{r}, T: x.T})
		}
	case *AddrOf:
		y := *x
		y.X = in.ref(x.X, false)
		return &y
	case *Binary:
		if (x.Op == OpLogAnd || x.Op == OpLogOr) && in.needs(x.Y) {
			// x && y: y runs only when x holds (x || y: when it does not).
			name := in.names.Fresh("sc")
			in.pre = append(in.pre, &Decl{Pos: x.Pos, Name: name, T: Bool, Init: in.expr(x.X, false), Mutable: true})
			t := &Ident{Pos: x.Pos, Name: name, T: Bool, Ref: RefVar}
			var cond Expr = t
			if x.Op == OpLogOr {
				cond = &Unary{Pos: x.Pos, Op: OpNot, X: t, T: Bool}
			}
			outer := in.pre
			in.pre = nil
			y := in.expr(x.Y, false)
			then := &Block{Pos: x.Pos, Stmts: append(in.pre, &Assign{Pos: x.Pos, LHS: t, RHS: y})}
			in.pre = append(outer, &If{Pos: x.Pos, Cond: cond, Then: then, Else: &Block{Pos: x.Pos}})
			return t
		}
	}
	if IsReference(e) {
		return in.ref(e, bind)
	}
	var buf Operands
	ops := ExprOperands(e, &buf)
	last := -1
	for i, o := range ops {
		if in.needs(o) {
			last = i
		}
	}
	kids := make([]Expr, len(ops))
	for i, o := range ops {
		kids[i] = in.expr(o, i < last)
	}
	return WithOperands(e, kids)
}

// ref rewrites a reference: its index operands (in order) lose their
// calls to inline, and are bound to lets where a later operand (or, with
// bind, a later part of the statement) needs lifting.
func (in *inliner) ref(e Expr, bind bool) Expr {
	switch x := e.(type) {
	case *Index:
		y := *x
		y.X = in.ref(x.X, bind || in.needs(x.Index))
		y.Index = in.expr(x.Index, bind)
		return &y
	case *Member:
		y := *x
		y.X = in.ref(x.X, bind)
		return &y
	case *Swizzle:
		y := *x
		y.X = in.ref(x.X, bind)
		return &y
	}
	return e
}

// call inlines c (its arguments evaluated first, in order) and returns
// the result (nil when discarded or void).
func (in *inliner) call(c *Call, value bool) Expr {
	f := in.m.Func(c.Func)
	last := -1
	for i, a := range c.Args {
		if in.needs(a) {
			last = i
		}
	}
	args := make([]Expr, len(c.Args))
	for i, a := range c.Args {
		if ad, ok := a.(*AddrOf); ok {
			args[i] = in.ref(ad.X, true)
			continue
		}
		args[i] = in.expr(a, i < last)
	}
	// The callee, renamed apart.
	body := CloneBlock(f.Body)
	rename := map[string]string{}
	subst := map[string]Expr{}
	for i, p := range f.Params {
		if p.Ptr != 0 {
			subst[p.Name] = args[i]
			continue
		}
		name := in.names.Fresh(p.Name)
		rename[p.Name] = name
		in.pre = append(in.pre, &Decl{Pos: p.Pos, Name: name, T: p.T, Init: args[i]})
	}
	Inspect(body, func(n Node) bool {
		if d, ok := n.(*Decl); ok {
			rename[d.Name] = in.names.Fresh(d.Name)
		}
		return true
	})
	var edit func(Node) Node
	edit = func(n Node) Node {
		switch x := n.(type) {
		case *Decl:
			x.Name = rename[x.Name]
		case *Ident:
			switch x.Ref {
			case RefPtr:
				if r, ok := subst[x.Name]; ok {
					return CloneExpr(r)
				}
			case RefParam:
				if nn, ok := rename[x.Name]; ok {
					return &Ident{Pos: x.Pos, Name: nn, T: x.T, Ref: RefLet}
				}
			case RefLet, RefVar:
				if nn, ok := rename[x.Name]; ok {
					y := *x
					y.Name = nn
					return &y
				}
			}
			return n
		}
		EditChildren(n, edit)
		return n
	}
	EditChildren(body, edit)

	var result *Ident
	if !f.Result.IsVoid() {
		name := in.names.Fresh(f.Name + "_result")
		in.pre = append(in.pre, &Decl{Pos: c.Pos, Name: name, T: f.Result, Mutable: true})
		result = &Ident{Pos: c.Pos, Name: name, T: f.Result, Ref: RefVar}
	}
	// Returns: a trailing one assigns the result; any other breaks out of
	// a one-iteration loop, through a flag where a loop or switch is
	// between.
	var flag *Ident
	if nestedReturn(body, false) {
		name := in.names.Fresh(f.Name + "_returned")
		in.pre = append(in.pre, &Decl{Pos: c.Pos, Name: name, T: Bool, Init: &Lit{Pos: c.Pos, Val: BoolVal(false)}, Mutable: true})
		flag = &Ident{Pos: c.Pos, Name: name, T: Bool, Ref: RefVar}
	}
	if n := len(body.Stmts); n > 0 {
		if r, ok := body.Stmts[n-1].(*Return); ok {
			body.Stmts = body.Stmts[:n-1]
			if r.Value != nil && result != nil {
				body.Stmts = append(body.Stmts, &Assign{Pos: r.Pos, LHS: CloneExpr(result), RHS: r.Value})
			}
		}
	}
	wrap := Any(body, func(n Node) bool { _, ok := n.(*Return); return ok })
	if wrap {
		rewriteReturns(body, result, flag, 0)
		body.Stmts = append(body.Stmts, &Break{Pos: c.Pos})
		body = &Block{Pos: body.Pos, Stmts: []Stmt{&Loop{Pos: c.Pos, Body: body, Continuing: &Block{Pos: c.Pos}}}}
	}
	// Nested calls to inline and workgroupUniformLoads, in the caller's
	// lifted statements.
	pre := in.pre
	in.pre = nil
	body = in.block(body)
	in.pre = append(pre, body)
	if result == nil || !value {
		return nil
	}
	return CloneExpr(result)
}

// nestedReturn reports whether a return sits inside a loop or switch of b
// (inLoop: b itself is inside one).
func nestedReturn(n Node, inLoop bool) bool {
	found := false
	var do func(Node, bool)
	do = func(x Node, in bool) {
		switch x.(type) {
		case *Return:
			if in {
				found = true
			}
			return
		case *Loop, *Switch:
			in = true
		case Expr:
			return
		}
		DoChildren(x, func(c Node) bool { do(c, in); return false })
	}
	do(n, inLoop)
	return found
}

// rewriteReturns replaces every return of b: the result assigned, the
// flag set (depth > 0: inside a loop or switch), then break; after a loop
// or switch holding a return, `if (flag) { break; }`.
func rewriteReturns(b *Block, result, flag *Ident, depth int) {
	var out []Stmt
	for _, s := range b.Stmts {
		switch x := s.(type) {
		case *Return:
			if x.Value != nil && result != nil {
				out = append(out, &Assign{Pos: x.Pos, LHS: CloneExpr(result), RHS: x.Value})
			}
			if depth > 0 {
				out = append(out, &Assign{Pos: x.Pos, LHS: CloneExpr(flag), RHS: &Lit{Pos: x.Pos, Val: BoolVal(true)}})
			}
			out = append(out, &Break{Pos: x.Pos})
			continue
		case *Block:
			rewriteReturns(x, result, flag, depth)
		case *If:
			rewriteReturns(x.Then, result, flag, depth)
			if x.Else != nil {
				rewriteReturns(x.Else, result, flag, depth)
			}
		case *Loop, *Switch:
			has := Any(x, func(n Node) bool { _, ok := n.(*Return); return ok })
			if lp, ok := x.(*Loop); ok {
				rewriteReturns(lp.Body, result, flag, depth+1)
			} else {
				for _, c := range x.(*Switch).Cases {
					rewriteReturns(c.Body, result, flag, depth+1)
				}
			}
			out = append(out, s)
			if has {
				out = append(out, &If{Pos: s.Position(), Cond: CloneExpr(flag), Then: &Block{Pos: s.Position(), Stmts: []Stmt{&Break{Pos: s.Position()}}}, Else: &Block{Pos: s.Position()}})
			}
			continue
		}
		out = append(out, s)
	}
	b.Stmts = out
}
