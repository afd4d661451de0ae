package flatten

import (
	"maps"
	"sort"

	"github.com/gpudiff/gpudiff/ir"
)

// Cleanup passes over the twin's straight-line body. Straight-line code
// makes each of them a single forward (or, for dse, backward) walk:
// there are no merges, and program order is evaluation order.

// editReads replaces every expression s reads with f(expression): a
// declaration's initializer, an assignment's right-hand side and the
// index operands of its left-hand side, an expression statement, a
// return value. The root of an assignment's reference is never handed to
// f. An index operand that f would turn into an out-of-range constant,
// and a compound assignment's operand that f would turn into a constant
// zero divisor or too-wide shift count, are left as they were.
func editReads(s ir.Stmt, f func(ir.Expr) ir.Expr) {
	switch x := s.(type) {
	case *ir.Decl:
		if x.Init != nil {
			x.Init = f(x.Init)
		}
	case *ir.Assign:
		x.LHS = editRef(x.LHS, f)
		rhs := f(x.RHS)
		if x.Op != ir.OpNone && isLit(rhs) && !isLit(x.RHS) && constError(&ir.Binary{Op: x.Op, X: x.LHS, Y: rhs, T: x.LHS.Type()}) {
			rhs = x.RHS // lhs op= c would be a shader-creation error (4e)
		}
		x.RHS = rhs
	case *ir.ExprStmt:
		x.X = f(x.X)
	case *ir.Return:
		if x.Value != nil {
			x.Value = f(x.Value)
		}
	case *ir.If: // an entry point's guard (isGuard)
		x.Cond = f(x.Cond)
		editReads(guardInner(x), f)
	}
}

// guardWrite returns the root of the variable a guard (isGuard) may
// assign, or nil: a predicated, partial redefinition.
func guardWrite(s ir.Stmt) *ir.Ident {
	if x, ok := s.(*ir.If); ok {
		if a, ok := guardInner(x).(*ir.Assign); ok {
			return ir.RootIdent(a.LHS)
		}
	}
	return nil
}

func editRef(e ir.Expr, f func(ir.Expr) ir.Expr) ir.Expr {
	switch x := e.(type) {
	case *ir.Index:
		x.X = editRef(x.X, f)
		idx := f(x.Index)
		if !constError(&ir.Index{X: x.X, Index: idx, T: x.T}) {
			x.Index = idx
		}
	case *ir.Member:
		x.X = editRef(x.X, f)
	case *ir.Swizzle:
		x.X = editRef(x.X, f)
	}
	return e
}

// forEachRead calls f for every identifier s reads (a compound
// assignment also reads its left-hand side's root).
func forEachRead(s ir.Stmt, f func(*ir.Ident)) {
	visit := func(e ir.Expr) ir.Expr {
		ir.Inspect(e, func(n ir.Node) bool {
			if id, ok := n.(*ir.Ident); ok {
				f(id)
			}
			return true
		})
		return e
	}
	editReads(s, visit)
	if a, ok := s.(*ir.Assign); ok && a.Op != ir.OpNone {
		f(ir.RootIdent(a.LHS))
	}
	if x, ok := s.(*ir.If); ok {
		if a, ok := guardInner(x).(*ir.Assign); ok && a.Op != ir.OpNone {
			f(ir.RootIdent(a.LHS))
		}
	}
}

// mapIdents returns e with every identifier id replaced by fn(id) (fn
// returns id itself to keep it). e is not modified.
func mapIdents(e ir.Expr, fn func(*ir.Ident) ir.Expr) ir.Expr {
	switch x := e.(type) {
	case *ir.Ident:
		return fn(x)
	case *ir.Lit:
		return x
	}
	var ob, kb ir.Operands
	orig := ir.ExprOperands(e, &ob)
	kids := kb.Slots(len(orig))
	same := true
	for i, k := range orig {
		kids[i] = mapIdents(k, fn)
		same = same && kids[i] == k
	}
	if same {
		return e
	}
	return ir.WithOperands(e, kids)
}

// foldReads folds every expression s reads (editReads, in place) and
// returns the rewrites that stay: those of an expression editReads gives
// back its run-time form (a compound assignment's operand or an index
// the folded constant would make a shader-creation error) go with it.
// An expression was given back when it is still in s: a fold that fired
// returns a node other than its input (folder.expr never modifies it).
func foldReads(s ir.Stmt) []event {
	type fold struct {
		in     ir.Expr
		events []event
	}
	var folds []fold
	editReads(s, func(e ir.Expr) ir.Expr {
		f := &folder{}
		out := f.expr(e)
		if len(f.events) > 0 {
			folds = append(folds, fold{e, f.events})
		}
		return out
	})
	if len(folds) == 0 {
		return nil
	}
	in := map[ir.Expr]bool{}
	ir.Inspect(s, func(n ir.Node) bool {
		if e, ok := n.(ir.Expr); ok {
			in[e] = true
		}
		return true
	})
	var events []event
	for _, f := range folds {
		if !in[f.in] {
			events = append(events, f.events...)
		}
	}
	return events
}

// foldPass applies the folds to every expression and drops statements
// that do nothing: self-assignments (x = x, what a select with a false
// condition folds to), compound assignments by an identity (x += 0) and
// phony assignments of pure expressions — but never a kept loop's mask
// update (isMaskUpdate), even where it folded to m = m.
func foldPass(p *pipe) bool {
	f := &folder{}
	changed := false
	var run func(b *ir.Block, mask string)
	run = func(b *ir.Block, mask string) {
		out := b.Stmts[:0]
		for _, s := range b.Stmts {
			if lp, ok := s.(*ir.Loop); ok {
				run(lp.Body, loopMask(lp))
				lp.BreakIf = f.expr(lp.BreakIf)
				out = append(out, s)
				continue
			}
			if len(foldReads(s)) > 0 {
				changed = true
			}
			if noOp(s) && !isMaskUpdate(s, mask) {
				changed = true
				continue
			}
			if x, ok := s.(*ir.If); ok {
				// A guard whose condition folded: the access as written, or
				// none.
				if v, ok := litVal(x.Cond); ok {
					changed = true
					if !v.Bool() {
						continue
					}
					s = guardInner(x)
				}
			}
			out = append(out, s)
		}
		clear(b.Stmts[len(out):])
		b.Stmts = out
	}
	run(p.twin.Body, "")
	return changed || f.changed()
}

// loopMask returns the mask m of a kept loop, the bool var its exit
// `break if !m` tests (keptLoopViolation), or "".
func loopMask(lp *ir.Loop) string {
	if m := keptExitMask(lp); m != nil && m.Ref == ir.RefVar {
		return m.Name
	}
	return ""
}

// keptExitMask is the mask m a kept loop's exit tests: `break if !m`, or
// `break if !subgroupAny(m)` (a masked loop that holds a subgroup
// operation iterates as one subgroup: subgroupExit); nil for any other
// exit.
func keptExitMask(lp *ir.Loop) *ir.Ident {
	u, ok := lp.BreakIf.(*ir.Unary)
	if !ok || u.Op != ir.OpNot {
		return nil
	}
	x := u.X
	if c, ok := x.(*ir.BuiltinCall); ok && c.Fn == ir.BSubgroupAny && len(c.Args) == 1 {
		x = c.Args[0]
	}
	m, _ := x.(*ir.Ident)
	return m
}

// isMaskUpdate reports whether s, a statement of a kept loop's body
// whose mask is mask, is the whole assignment of the mask (masked.go:
// m = brk && live, what the iteration left of it). It stays even as
// m = m: a loop none of whose exits can fire once entered (the source's
// `loop { continuing { break if false; } }`) keeps its form, whose exit
// test then reads a mask that never turns false — the source's
// non-termination in every invocation that enters it, and one
// masked-off iteration in every other (doc.go "Loops in twins").
func isMaskUpdate(s ir.Stmt, mask string) bool {
	a, ok := s.(*ir.Assign)
	if !ok || mask == "" || a.Op != ir.OpNone {
		return false
	}
	id, ok := a.LHS.(*ir.Ident)
	return ok && id.Name == mask
}

// noOp reports whether s has no effect.
func noOp(s ir.Stmt) bool {
	switch x := s.(type) {
	case *ir.Assign:
		if x.Op == ir.OpNone {
			return exprEqual(x.LHS, x.RHS)
		}
		t, err := ir.BinaryResultType(x.Op, x.LHS.Type(), x.RHS.Type())
		if err != nil {
			return false
		}
		r, _ := rewriteBinary(&ir.Binary{Op: x.Op, X: x.LHS, Y: x.RHS, T: t})
		return r == x.LHS
	case *ir.ExprStmt:
		if id, ok := x.X.(*ir.Ident); ok && id.Ref == ir.RefGlobal {
			return false // keepABI's phony read of a global
		}
		if _, ok := x.X.(*ir.Atomic); ok {
			return false
		}
		if _, ok := x.X.(*ir.TextureCall); ok {
			return false // textureStore, or a read kept as a statement
		}
		bc, ok := x.X.(*ir.BuiltinCall)
		return !ok || !bc.T.IsVoid()
	}
	return false
}

// propagatable reports whether constants of t are substituted at uses:
// scalars and vectors. Array and struct constants are not (a run-time
// index into a constant array is a portability hazard, and they are
// large).
func propagatable(t *ir.Type) bool { return t.IsScalar() || t.Kind == ir.KindVec }

// propagate replaces reads of tracked locals whose current value is a
// literal by that literal: lets with a literal initializer, and vars from
// a declaration or whole-value assignment of a literal up to their next
// assignment.
func propagate(p *pipe, track func(name string) bool) bool {
	env := map[string]ir.Value{}
	f := &folder{lookup: func(id *ir.Ident) (ir.Value, bool) {
		if id.Ref == ir.RefGlobal {
			return ir.Value{}, false
		}
		v, ok := env[id.Name]
		return v, ok
	}}
	var run func(stmts []ir.Stmt)
	run = func(stmts []ir.Stmt) {
		for _, s := range stmts {
			if lp, ok := s.(*ir.Loop); ok {
				// A kept loop: what it assigns is unknown at its head
				// (the back edge) and after it.
				for n := range assignedIn(lp) {
					delete(env, n)
				}
				saved := maps.Clone(env)
				run(lp.Body.Stmts) // the break-if, !m, stays as it is
				env = saved
				continue
			}
			editReads(s, f.expr)
			if r := guardWrite(s); r != nil {
				delete(env, r.Name)
			}
			switch x := s.(type) {
			case *ir.Decl:
				if !track(x.Name) || !propagatable(x.T) {
					continue
				}
				if x.Init == nil {
					if x.Mutable {
						env[x.Name] = ir.Zero(x.T)
					}
				} else if v, ok := litVal(x.Init); ok {
					env[x.Name] = v
				}
			case *ir.Assign:
				r := ir.RootIdent(x.LHS)
				cur, known := env[r.Name]
				delete(env, r.Name)
				if _, whole := x.LHS.(*ir.Ident); !whole || r.Ref == ir.RefGlobal || !track(r.Name) || !propagatable(r.T) {
					continue
				}
				rhs, ok := litVal(x.RHS)
				if !ok {
					continue
				}
				if x.Op != ir.OpNone {
					// v op= c with v known: v = (its value op c), when exact.
					if !known {
						continue
					}
					v, st := evalBinary(x.Op, cur, rhs, r.T)
					if st != evalOK || !representable(v) {
						continue
					}
					x.Op, x.RHS = ir.OpNone, &ir.Lit{Pos: x.RHS.Position(), Val: v}
					f.fired(x.RHS, "constant compound assignment")
					rhs = v
				}
				env[r.Name] = rhs
			}
		}
	}
	run(p.stmts())
	return f.changed()
}

// assignedIn returns the roots of the variables n assigns anywhere in it
// (guards included).
func assignedIn(n ir.Node) map[string]bool {
	out := map[string]bool{}
	ir.Inspect(n, func(k ir.Node) bool {
		if a, ok := k.(*ir.Assign); ok {
			if r := ir.RootIdent(a.LHS); r != nil {
				out[r.Name] = true
			}
		}
		return true
	})
	return out
}

// readIn returns the names n reads anywhere in it.
func readIn(n ir.Node) map[string]bool {
	out := map[string]bool{}
	ir.Inspect(n, func(k ir.Node) bool {
		if id, ok := k.(*ir.Ident); ok {
			out[id.Name] = true
		}
		return true
	})
	return out
}

// maskPropPass is mask constant propagation: only flatten's masks.
func maskPropPass(p *pipe) bool {
	return propagate(p, func(n string) bool { return p.info[n] == tempMask })
}

// constPropPass is constant propagation over every local.
func constPropPass(p *pipe) bool {
	return propagate(p, func(string) bool { return true })
}

// copyPropPass replaces reads of a local a defined as a copy of a name b
// (let a = b, var a = b, a = b) by b, until a or b is assigned again —
// predicated assignments included, so a copy is never propagated across
// a predicated redefinition.
func copyPropPass(p *pipe) bool {
	env := map[string]*ir.Ident{}
	users := map[string][]string{}
	changed := false
	// Inside a kept loop every change to env and users is journaled
	// (their former entries), and undone after the loop's body: cloning
	// both maps per kept loop, as before, made the pass quadratic in a
	// function of many kept loops.
	type undo struct {
		key  string
		src  *ir.Ident // env's entry, or
		us   []string  // users' entry
		had  bool
		isUs bool
	}
	var journal []undo
	depth := 0
	setEnv := func(k string, v *ir.Ident) {
		if depth > 0 {
			old, had := env[k]
			journal = append(journal, undo{key: k, src: old, had: had})
		}
		if v == nil {
			delete(env, k)
		} else {
			env[k] = v
		}
	}
	setUsers := func(k string, v []string, del bool) {
		if depth > 0 {
			old, had := users[k]
			journal = append(journal, undo{key: k, us: old, had: had, isUs: true})
		}
		if del {
			delete(users, k)
		} else {
			users[k] = v
		}
	}
	kill := func(name string) {
		setEnv(name, nil)
		for _, a := range users[name] {
			if src := env[a]; src != nil && src.Name == name {
				setEnv(a, nil)
			}
		}
		setUsers(name, nil, true)
	}
	subst := func(e ir.Expr) ir.Expr {
		return mapIdents(e, func(id *ir.Ident) ir.Expr {
			if id.Ref.IsModuleScope() {
				return id
			}
			if src := env[id.Name]; src != nil {
				changed = true
				return &ir.Ident{Pos: id.Pos, Name: src.Name, T: src.T, Ref: src.Ref}
			}
			return id
		})
	}
	record := func(a string, rhs ir.Expr) {
		if src, ok := rhs.(*ir.Ident); ok && src.Name != a && src.Ref != ir.RefShared {
			setEnv(a, src)
			setUsers(src.Name, append(users[src.Name], a), false)
		}
	}
	var run func(stmts []ir.Stmt)
	run = func(stmts []ir.Stmt) {
		for _, s := range stmts {
			if lp, ok := s.(*ir.Loop); ok {
				// A kept loop: no copy of or from what it assigns holds at
				// its head (the back edge) or after it.
				for n := range assignedIn(lp) {
					kill(n)
				}
				mark := len(journal)
				depth++
				run(lp.Body.Stmts) // the break-if, !m, stays as it is
				depth--
				for i := len(journal) - 1; i >= mark; i-- {
					u := journal[i]
					switch {
					case u.isUs && u.had:
						users[u.key] = u.us
					case u.isUs:
						delete(users, u.key)
					case u.had:
						env[u.key] = u.src
					default:
						delete(env, u.key)
					}
				}
				journal = journal[:mark]
				continue
			}
			editReads(s, subst)
			if r := guardWrite(s); r != nil {
				kill(r.Name)
			}
			switch x := s.(type) {
			case *ir.Decl:
				if x.Init != nil {
					record(x.Name, x.Init)
				}
			case *ir.Assign:
				r := ir.RootIdent(x.LHS)
				kill(r.Name)
				if _, whole := x.LHS.(*ir.Ident); whole && x.Op == ir.OpNone && r.Ref != ir.RefGlobal {
					record(r.Name, x.RHS)
				}
			}
		}
	}
	run(p.stmts())
	return changed
}

// forwardPass replaces a definition read exactly once by its value at
// the read, when nothing the value reads is assigned in between:
//
//   - a let of flatten's (the user's own lets keep their names);
//   - a whole-value store to a local var (v = e, or var v = e), when the
//     one read of that value comes before v is next stored as a whole and
//     no partial store to v (v.x = …) comes first.
//
// A constant value (no identifier in it) is left to constprop, whose
// substitution keeps operands WGSL would reject as constants, and a value
// deeper than maxForwardDepth stays put, so expressions stay shallow
// enough for every WGSL compiler.
func forwardPass(p *pipe) bool {
	return forwardBlock(p, p.twin.Body, nil)
}

// forwardBlock is forwardPass over one block: the function's body, or
// (loop non-nil) the body of a kept loop, where only values declared in
// the body itself move (a var declared outside is carried around the back
// edge) and the break-if counts as a read after the last statement. A
// kept loop inside the block counts as reading twice every name it reads
// (nothing moves into a loop, whose body runs many times) and as a
// partial write of every name it assigns; its body is forwarded on its
// own.
func forwardBlock(p *pipe, b *ir.Block, loop *ir.Loop) bool {
	stmts := b.Stmts
	type write struct {
		at    int
		whole bool
	}
	changed := false
	reads := map[string][]int{} // statement index per read, in order
	writes := map[string][]write{}
	declared := map[string]bool{}
	for i, s := range stmts {
		if lp, ok := s.(*ir.Loop); ok {
			changed = forwardBlock(p, lp.Body, lp) || changed
			for n := range readIn(lp) {
				reads[n] = append(reads[n], i, i)
			}
			for n := range assignedIn(lp) {
				writes[n] = append(writes[n], write{i, false})
			}
			continue
		}
		forEachRead(s, func(id *ir.Ident) { reads[id.Name] = append(reads[id.Name], i) })
		if a, ok := s.(*ir.Assign); ok {
			r := ir.RootIdent(a.LHS)
			_, whole := a.LHS.(*ir.Ident)
			writes[r.Name] = append(writes[r.Name], write{i, whole && a.Op == ir.OpNone})
		}
		if r := guardWrite(s); r != nil {
			writes[r.Name] = append(writes[r.Name], write{i, false})
		}
		if d, ok := s.(*ir.Decl); ok {
			declared[d.Name] = true
		}
	}
	end0 := len(stmts) - 1
	if loop != nil {
		end0 = len(stmts)
		for n := range readIn(loop.BreakIf) {
			reads[n] = append(reads[n], len(stmts))
		}
	}
	writtenBetween := func(name string, i, j int) bool {
		ws := writes[name]
		k := sort.Search(len(ws), func(k int) bool { return ws[k].at > i })
		return k < len(ws) && ws[k].at < j
	}
	removed := make([]bool, len(stmts))
	for i, s := range stmts {
		var name string
		var val ir.Expr
		switch x := s.(type) {
		case *ir.Decl:
			if x.Init == nil || (!x.Mutable && p.info[x.Name] == 0) || p.info[x.Name] == tempRet || p.info[x.Name] == tempShared {
				continue
			}
			name, val = x.Name, x.Init
		case *ir.Assign:
			id, ok := x.LHS.(*ir.Ident)
			if !ok || x.Op != ir.OpNone || id.Ref != ir.RefVar || p.info[id.Name] == tempRet {
				continue
			}
			if loop != nil && !declared[id.Name] {
				continue // carried around the back edge
			}
			name, val = id.Name, x.RHS
		default:
			continue
		}
		if !ir.Any(val, func(n ir.Node) bool { _, ok := n.(*ir.Ident); return ok }) || exprDepth(val) > maxForwardDepth || accessesShared(val) || hasSubgroup(val) {
			continue
		}
		// The value lives until the next store to name: it must be whole.
		end := end0
		ws := writes[name]
		if k := sort.Search(len(ws), func(k int) bool { return ws[k].at > i }); k < len(ws) {
			if !ws[k].whole {
				continue
			}
			end = ws[k].at
		}
		rs := reads[name]
		k := sort.SearchInts(rs, i+1)
		if k >= len(rs) || rs[k] > end || (k+1 < len(rs) && rs[k+1] <= end) {
			continue // not read, or read more than once
		}
		j := rs[k]
		if j >= len(stmts) {
			continue // read by the break-if only
		}
		if _, ok := stmts[j].(*ir.Loop); ok {
			continue
		}

		safe := true
		ir.Inspect(val, func(n ir.Node) bool {
			if id, ok := n.(*ir.Ident); ok && id.Ref.Mutable() && writtenBetween(id.Name, i, j) {
				safe = false
			}
			return safe
		})
		if !safe {
			continue
		}
		editReads(stmts[j], func(e ir.Expr) ir.Expr {
			return mapIdents(e, func(id *ir.Ident) ir.Expr {
				if id.Name == name {
					return val
				}
				return id
			})
		})
		if d, ok := s.(*ir.Decl); ok && d.Mutable {
			d.Init = nil
		} else {
			removed[i] = true
		}
		changed = true
	}
	if changed {
		out := stmts[:0]
		for i, s := range stmts {
			if !removed[i] {
				out = append(out, s)
			}
		}
		clear(stmts[len(out):])
		b.Stmts = out
	}
	return changed
}

// maxForwardDepth bounds the depth of an expression forwardPass moves.
const maxForwardDepth = 24

func exprDepth(e ir.Expr) int {
	d := 0
	ir.DoChildren(e, func(n ir.Node) bool {
		d = max(d, exprDepth(n.(ir.Expr)))
		return false
	})
	return d + 1
}

// A value that calls a subgroup builtin stays where the lowering bound it
// (subgroup.go): moved into a guard or into the right operand of && or
// ||, it would run in only some of the invocations.

// accessesShared reports whether e reads shared memory or runs an atomic:
// such a value is never moved (doc.go "Entry points").
func accessesShared(e ir.Expr) bool {
	return ir.Any(e, func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Atomic, *ir.TextureCall:
			return true // a texture read may read what a textureStore wrote
		case *ir.Ident:
			return x.Ref == ir.RefShared
		}
		return false
	})
}
