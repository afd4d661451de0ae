package ir

// Normalize establishes the IR's construction invariants in every function
// of m, in place, then runs Verify:
//
//  1. Names are made unique per function and distinct from module-scope
//     names: each parameter and local keeps its name when it is free and is
//     renamed name_1, name_2, … otherwise (Tint's renamer). Identifiers are
//     resolved by lexical scope; a Decl's initializer sees the enclosing
//     binding (`let x = x + 1;`), and a loop's continuing block and
//     break-if see the loop body's declarations (WGSL "continuing
//     statement").
//  2. Statements after a break, continue or return in the same block are
//     dropped (they can never run).
//  3. && and || whose right operand contains a user call are lowered to an
//     If on a fresh bool var, so the call runs only when the source would
//     run it. Operands evaluated earlier in the same statement that contain
//     calls or read private globals are first bound to fresh lets, which
//     keeps WGSL's left-to-right evaluation order (WGSL "Program Order
//     Within an Invocation").
//
// Producers of IR (the WGSL parser, the program generator, the shrinker)
// call Normalize once; passes may then key on names. Normalize is
// idempotent. Errors are Verify's.
func Normalize(m *Module) error {
	for _, f := range m.Funcs {
		NormalizeFunc(m, f)
	}
	return Verify(m)
}

// NormalizeFunc normalizes one function of m in place without verifying.
func NormalizeFunc(m *Module, f *Func) {
	r := &renamer{namer: NewNamer(m)}
	r.fn(f)
	dropDeadCode(f.Body)
	l := &scLowerer{namer: NewNamer(m, f)}
	l.block(f.Body)
}

// ---- 1. renaming ----

type renamer struct {
	namer  *Namer
	scopes []map[string]string
}

func (r *renamer) push() { r.scopes = append(r.scopes, map[string]string{}) }
func (r *renamer) pop()  { r.scopes = r.scopes[:len(r.scopes)-1] }

func (r *renamer) declare(name string) string {
	nn := r.namer.Fresh(name)
	r.scopes[len(r.scopes)-1][name] = nn
	return nn
}

func (r *renamer) resolve(name string) (string, bool) {
	for i := len(r.scopes) - 1; i >= 0; i-- {
		if nn, ok := r.scopes[i][name]; ok {
			return nn, true
		}
	}
	return "", false
}

func (r *renamer) fn(f *Func) {
	r.push()
	for _, p := range f.Params {
		p.Name = r.declare(p.Name)
	}
	r.blockStmts(f.Body)
	r.pop()
}

func (r *renamer) blockStmts(b *Block) {
	for _, s := range b.Stmts {
		r.stmt(s)
	}
}

func (r *renamer) block(b *Block) {
	r.push()
	r.blockStmts(b)
	r.pop()
}

func (r *renamer) stmt(s Stmt) {
	switch s := s.(type) {
	case *Block:
		r.block(s)
	case *Decl:
		if s.Init != nil {
			r.expr(s.Init)
		}
		s.Name = r.declare(s.Name)
	case *If:
		r.expr(s.Cond)
		r.block(s.Then)
		r.block(s.Else)
	case *Loop:
		// The body's declarations are in scope in the continuing block,
		// and the break-if is the continuing block's last statement, so
		// it sees the continuing block's declarations too (WGSL
		// #continuing-statement).
		r.push()
		r.blockStmts(s.Body)
		r.push()
		r.blockStmts(s.Continuing)
		if s.BreakIf != nil {
			r.expr(s.BreakIf)
		}
		r.pop()
		r.pop()
	case *Switch:
		r.expr(s.Selector)
		for _, c := range s.Cases {
			r.block(c.Body)
		}
	default:
		DoChildren(s, func(n Node) bool {
			r.expr(n.(Expr))
			return false
		})
	}
}

func (r *renamer) expr(e Expr) {
	Inspect(e, func(n Node) bool {
		if id, ok := n.(*Ident); ok && !id.Ref.IsModuleScope() {
			if nn, ok := r.resolve(id.Name); ok {
				id.Name = nn
			}
		}
		return true
	})
}

// ---- 2. dead code ----

// dropDeadCode removes the statements that follow a break, continue or
// return in the same block (ARCHITECTURE.md: code after a jump is dropped when the
// IR is built). Code after a compound statement that cannot complete (see
// CanComplete) is kept: it is legal WGSL and harmless to passes; emitters
// for front ends that reject it prune it with PruneUnreachable.
func dropDeadCode(n Node) {
	if b, ok := n.(*Block); ok {
		for i, s := range b.Stmts {
			if IsJump(s) {
				for j := i + 1; j < len(b.Stmts); j++ {
					b.Stmts[j] = nil
				}
				b.Stmts = b.Stmts[:i+1]
				break
			}
		}
	}
	DoChildren(n, func(c Node) bool {
		if _, isExpr := c.(Expr); !isExpr {
			dropDeadCode(c)
		}
		return false
	})
}

// PruneUnreachable removes, in n and beneath it, the statements of each
// block that follow one that cannot complete (CanComplete false): a jump,
// or an if whose arms both jump, a loop without a break, a switch whose
// every clause leaves the function or the loop. WGSL permits such
// unreachable code; naga rejects it ("instructions after return").
func PruneUnreachable(n Node) {
	if b, ok := n.(*Block); ok {
		for i, s := range b.Stmts {
			PruneUnreachable(s)
			if !CanComplete(s) {
				for j := i + 1; j < len(b.Stmts); j++ {
					b.Stmts[j] = nil
				}
				b.Stmts = b.Stmts[:i+1]
				return
			}
		}
		return
	}
	DoChildren(n, func(c Node) bool {
		if _, isExpr := c.(Expr); !isExpr {
			PruneUnreachable(c)
		}
		return false
	})
}

// CanComplete reports whether control can reach the statement after s
// (WGSL "Statement Behavior Analysis": s's behaviors include Next).
func CanComplete(s Stmt) bool {
	switch s := s.(type) {
	case *Break, *Continue, *Return:
		return false
	case *Block:
		for _, t := range s.Stmts {
			if !CanComplete(t) {
				return false
			}
		}
		return true
	case *If:
		return CanComplete(s.Then) || CanComplete(s.Else)
	case *Loop:
		// A loop completes only through a break aimed at it or a break-if.
		return s.BreakIf != nil || hasOwnBreak(s.Body)
	case *Switch:
		for _, c := range s.Cases {
			if CanComplete(c.Body) || hasOwnBreak(c.Body) {
				return true
			}
		}
		return false
	}
	return true
}

// hasOwnBreak reports whether n holds a break aimed at the loop or switch
// whose body n is (not one inside a nested loop or switch).
func hasOwnBreak(n Node) bool {
	found := false
	var walk func(Node)
	walk = func(n Node) {
		if found {
			return
		}
		switch n.(type) {
		case *Break:
			found = true
			return
		case *Loop, *Switch, Expr:
			return
		}
		DoChildren(n, func(c Node) bool { walk(c); return found })
	}
	walk(n)
	return found
}

// ---- 3. effectful short-circuit lowering ----

type scLowerer struct {
	namer *Namer
}

func isEffectfulSC(n Node) bool {
	b, ok := n.(*Binary)
	return ok && (b.Op == OpLogAnd || b.Op == OpLogOr) && HasCall(b.Y)
}

func hasEffectfulSC(n Node) bool { return n != nil && Any(n, isEffectfulSC) }

// observesEffects reports whether evaluating e later than written could
// change its value or effects: it calls a function or reads a private
// global (the only state a call can write).
func observesEffects(e Expr) bool {
	return Any(e, func(n Node) bool {
		switch x := n.(type) {
		case *Call:
			return true
		case *Ident:
			return x.Ref.IsModuleScope()
		case *Atomic:
			return true
		}
		return false
	})
}

func (l *scLowerer) block(b *Block) {
	var out []Stmt
	for _, s := range b.Stmts {
		out = append(out, l.stmt(s)...)
	}
	b.Stmts = out
}

// stmt returns the statements replacing s (prelude, then s rewritten).
func (l *scLowerer) stmt(s Stmt) []Stmt {
	var pre []Stmt
	switch s := s.(type) {
	case *Block:
		l.block(s)
	case *If:
		s.Cond = l.expr(s.Cond, &pre)
		l.block(s.Then)
		l.block(s.Else)
	case *Loop:
		l.block(s.Body)
		l.block(s.Continuing)
		if hasEffectfulSC(s.BreakIf) {
			var cpre []Stmt
			s.BreakIf = l.expr(s.BreakIf, &cpre)
			s.Continuing.Stmts = append(s.Continuing.Stmts, cpre...)
		}
	case *Switch:
		s.Selector = l.expr(s.Selector, &pre)
		for _, c := range s.Cases {
			l.block(c.Body)
		}
	case *Decl:
		s.Init = l.expr(s.Init, &pre)
	case *ExprStmt:
		s.X = l.expr(s.X, &pre)
	case *Return:
		s.Value = l.expr(s.Value, &pre)
	case *Assign:
		if !hasEffectfulSC(s.LHS) && !hasEffectfulSC(s.RHS) {
			break
		}
		// The reference is evaluated first (WGSL "Simple Assignment"):
		// bind its index operands, then, for a compound assignment, the
		// loaded value, before the right-hand side's prelude runs.
		s.LHS = l.ref(s.LHS, &pre)
		if s.Op != OpNone {
			cur := l.bind(s.LHS, &pre)
			rhs := l.expr(s.RHS, &pre)
			t, _ := BinaryResultType(s.Op, cur.Type(), rhs.Type())
			s.RHS = &Binary{Pos: s.Pos, Op: s.Op, X: cur, Y: rhs, T: t}
			s.Op = OpNone
		} else {
			s.RHS = l.expr(s.RHS, &pre)
		}
	}
	return append(pre, s)
}

// ref rewrites the index operands of a reference chain so that they are
// evaluated (into lets) before anything hoisted later.
func (l *scLowerer) ref(e Expr, pre *[]Stmt) Expr {
	switch x := e.(type) {
	case *Index:
		x.X = l.ref(x.X, pre)
		x.Index = l.expr(x.Index, pre)
		if observesEffects(x.Index) {
			x.Index = l.bind(x.Index, pre)
		}
	case *Member:
		x.X = l.ref(x.X, pre)
	case *Swizzle:
		x.X = l.ref(x.X, pre)
	}
	return e
}

// bind emits `let t: T = e;` and returns t.
func (l *scLowerer) bind(e Expr, pre *[]Stmt) Expr {
	name := l.namer.Fresh("sc_val")
	*pre = append(*pre, &Decl{Pos: e.Position(), Name: name, T: e.Type(), Init: e})
	return &Ident{Pos: e.Position(), Name: name, T: e.Type(), Ref: RefLet}
}

// expr rewrites e so that it contains no effectful short-circuit,
// appending the statements that must run first to pre.
func (l *scLowerer) expr(e Expr, pre *[]Stmt) Expr {
	if !hasEffectfulSC(e) {
		return e
	}
	if isEffectfulSC(e) {
		b := e.(*Binary)
		x := l.expr(b.X, pre)
		name := l.namer.Fresh("sc_cond")
		id := func() *Ident { return &Ident{Pos: b.Pos, Name: name, T: Bool, Ref: RefVar} }
		*pre = append(*pre, &Decl{Pos: b.Pos, Name: name, T: Bool, Init: x, Mutable: true})
		var inner []Stmt
		y := l.expr(b.Y, &inner)
		inner = append(inner, &Assign{Pos: b.Pos, LHS: id(), RHS: y})
		var cond Expr = id()
		if b.Op == OpLogOr {
			cond = &Unary{Pos: b.Pos, Op: OpNot, X: id(), T: Bool}
		}
		*pre = append(*pre, &If{Pos: b.Pos, Cond: cond, Then: NewBlock(b.Pos, inner...), Else: NewBlock(b.Pos)})
		return id()
	}
	var kids []Expr
	DoChildren(e, func(n Node) bool { kids = append(kids, n.(Expr)); return false })
	last := -1
	for i, k := range kids {
		if hasEffectfulSC(k) {
			last = i
		}
	}
	for i := 0; i < last; i++ {
		if _, ok := e.(*Index); ok && i == 0 && IsReference(kids[0]) {
			// The base of an index is a memory view, not a value: its
			// element is loaded only after the index operand (and its
			// hoisted call) is evaluated (WGSL #memory-views, the load
			// rule). Only the view's own index operands are values
			// evaluated now, before the call: g[u32(c && f())] with f
			// writing g reads f's write, as it does in WGSL.
			kids[0] = l.ref(kids[0], pre)
			continue
		}
		if a, ok := kids[i].(*AddrOf); ok {
			// A pointer argument is a memory view, never a value to
			// bind: only its index operands are evaluated now.
			a.X = l.ref(a.X, pre)
			continue
		}
		kids[i] = l.expr(kids[i], pre)
		if observesEffects(kids[i]) {
			kids[i] = l.bind(kids[i], pre)
		}
	}
	kids[last] = l.expr(kids[last], pre)
	i := 0
	EditChildren(e, func(Node) Node { k := kids[i]; i++; return k })
	return e
}
