package flatten

// discard in a fragment entry point's twin: a demote mask.
//
// WGSL's discard (#discard-statement) demotes the invocation to a helper:
// it keeps running — so derivatives and implicit-LOD sampling in its quad
// still see its values — its later stores to memory are dropped and its
// outputs are not written. A twin is branchless, so a discard under the
// predicate P becomes `demoted = select(demoted, true, P)` on one bool
// var declared at the twin's start (false), and the twin demotes once,
// at its end, with the one guard `if (demoted) { discard; }` before its
// final return (finalcheck allows exactly that one, in a fragment twin).
// Where the source discards in every invocation the mask folds to true
// and the fold leaves the guard's statement, a bare `discard;`, in its
// place: the same demotion (WGSL #discard-statement: the invocation
// demotes and runs on to its return), which finalcheck allows there too.
//
// Demoting at the end instead of where the source discards is exact
// because nothing the twin does after the source's discard is
// observable but through its outputs and memory stores: the fragment
// entry points flatten takes write no memory (a writable storage buffer
// or storage texture in the fragment stage is refused by the front end's
// DrawFragmentEntry and FragmentEntry, and by flatten itself, for a
// module flattened on its own, where the call graph discards:
// writeAfterDemote), private and function memory is
// the invocation's own, and the outputs are dropped by the final demote
// either way. Derivatives keep uniform control flow: the twin has no
// branch, and demotion does not change uniformity (WGSL #uniformity).

import "github.com/gpudiff/gpudiff/ir"

// hasDiscard reports whether f's call graph holds a discard.
func hasDiscard(m *ir.Module, f *ir.Func) bool {
	found := false
	for _, g := range m.CallGraph(f.Name) {
		ir.Inspect(g.Body, func(n ir.Node) bool {
			if _, ok := n.(*ir.Discard); ok {
				found = true
			}
			return !found
		})
	}
	return found
}

// beginDemote declares the demote mask of a fragment twin that discards.
func (l *lowerer) beginDemote(f *ir.Func) {
	if f.Stage != ir.StageFragment || !hasDiscard(l.m, f) {
		return
	}
	name := l.fresh("demoted", tempMask)
	l.emit(&ir.Decl{Pos: f.Pos, Name: name, T: ir.Bool, Init: &ir.Lit{Pos: f.Pos, Val: ir.BoolVal(false)}, Mutable: true})
	l.demoted = &ir.Ident{Pos: f.Pos, Name: name, T: ir.Bool, Ref: ir.RefVar}
}

// discard sets the demote mask where the source discards; outside a
// fragment twin it is refused (the front end has refused it in every
// other stage; a function flattened on its own may still hold one).
func (l *lowerer) discard(s *ir.Discard) {
	if l.demoted == nil {
		l.errorf(s.Pos, "discard outside a fragment entry point (WGSL #discard-statement: fragment stage only)")
		return
	}
	l.discarded = true
	if l.fault == "demote-callee-dropped" && !l.fr.root {
		return // the fault: an inlined helper's discard is lost
	}
	l.store(ir.CloneExpr(l.demoted), &ir.Lit{Pos: s.Pos, Val: ir.BoolVal(true)}, l.pred(), s.Pos)
}

// endDemote emits the twin's one demotion.
func (l *lowerer) endDemote(f *ir.Func) {
	if l.demoted == nil {
		return
	}
	l.emit(&ir.If{Pos: f.Pos, Cond: ir.CloneExpr(l.demoted), Then: ir.NewBlock(f.Pos, &ir.Discard{Pos: f.Pos}), Else: ir.NewBlock(f.Pos)})
}

// isDemoteGuard reports whether s is `if (c) { discard; }` with an empty
// else.
func isDemoteGuard(s *ir.If) bool {
	if len(s.Else.Stmts) != 0 || len(s.Then.Stmts) != 1 {
		return false
	}
	_, ok := s.Then.Stmts[0].(*ir.Discard)
	return ok
}

// isDemotion reports whether s is a fragment twin's demotion: the demote
// guard, or the bare `discard;` the fold makes of a guard whose
// condition is true (the source discards in every invocation).
func isDemotion(s ir.Stmt) bool {
	switch x := s.(type) {
	case *ir.If:
		return isDemoteGuard(x)
	case *ir.Discard:
		return true
	}
	return false
}

// demotionAt returns the index in f's body of its demotion — the last
// statement before the final return, or the last statement of a body
// without one — or -1 when f is no fragment or that statement is not a
// demotion (isDemotion).
func demotionAt(f *ir.Func) int {
	if f.Stage != ir.StageFragment {
		return -1
	}
	stmts := f.Body.Stmts
	i := len(stmts) - 1
	if i >= 0 {
		if _, ok := stmts[i].(*ir.Return); ok {
			i--
		}
	}
	if i < 0 || !isDemotion(stmts[i]) {
		return -1
	}
	return i
}

// writeAfterDemote refuses, at pos, a write to memory (a store to
// writable storage, an atomic, textureStore) in a fragment twin that
// discards: the twin demotes only at its end, so the write would take
// effect in an invocation the source has already demoted, whose writes
// WGSL drops (#discard-statement). The front end keeps writable storage
// out of the fragment stages it draws; a module flattened on its own
// may still hold one. It reports whether the write may be lowered.
func (l *lowerer) writeAfterDemote(pos ir.Pos) bool {
	if l.demoted == nil {
		return true
	}
	l.errorf(pos, "a write to memory in a fragment entry point that discards: its twin demotes at its end (a demote mask), so the write would take effect in invocations the source has already demoted, whose writes WGSL drops (#discard-statement); flatten's render stages read only read-only bindings")
	return false
}
