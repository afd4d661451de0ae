package flatten

import (
	"maps"

	"github.com/gpudiff/gpudiff/ir"
)

// dsePass is dead-store elimination, a backward liveness walk over the
// straight-line body. A local is live at a point when a later statement
// reads it before a whole-value assignment overwrites it. Private globals
// are always live (they are the function's outputs), so stores to them
// are kept. Removed:
//
//   - an assignment to a local that is not live after it (its value, a
//     pure expression, is never read);
//   - a let, or a var no kept statement mentions, that is not live after
//     its declaration;
//   - the initializer of a var that is not live after its declaration
//     but is assigned later (the declaration stays, zero-initialized).
//
// A kept loop (masked.go) is live-through: every name it reads is live
// before it and at the end of its body (the back edge), so inside it only
// stores to names that neither the loop nor anything after it reads are
// dead.
func dsePass(p *pipe) bool {
	mentioned := map[string]bool{}
	return dseBlock(p, p.twin.Body, map[string]bool{}, mentioned)
}

// dseBlock runs dsePass's backward walk over b with live the names live
// after it; on return live holds the names live before it.
func dseBlock(p *pipe, b *ir.Block, live, mentioned map[string]bool) bool {
	stmts := b.Stmts
	keep := make([]bool, len(stmts))
	changed := false
	reads := func(s ir.Stmt) {
		forEachRead(s, func(id *ir.Ident) {
			live[id.Name] = true
			mentioned[id.Name] = true
		})
	}
	for i := len(stmts) - 1; i >= 0; i-- {
		switch x := stmts[i].(type) {
		case *ir.Loop:
			keep[i] = true
			for n := range readIn(x) {
				live[n] = true
				mentioned[n] = true
			}
			for n := range assignedIn(x) {
				mentioned[n] = true
			}
			inner := maps.Clone(live)
			changed = dseBlock(p, x.Body, inner, mentioned) || changed
			// What the loop reads stays live before it: the body may not
			// run its kills (a predicated store is no kill anyway).
		case *ir.Assign:
			r := ir.RootIdent(x.LHS)
			if !r.Ref.IsModuleScope() && !live[r.Name] {
				changed = true
				continue
			}
			keep[i] = true
			mentioned[r.Name] = true
			if _, whole := x.LHS.(*ir.Ident); whole && x.Op == ir.OpNone && r.Ref != ir.RefGlobal {
				delete(live, r.Name)
			}
			reads(x)
		case *ir.Decl:
			switch {
			case live[x.Name], x.Init != nil && p.info[x.Name] == tempShared:
				keep[i] = true
				delete(live, x.Name)
				reads(x)
			case x.Mutable && mentioned[x.Name]:
				keep[i] = true
				if x.Init != nil {
					x.Init = nil
					changed = true
				}
			default:
				changed = true
			}
		default:
			keep[i] = true
			if r := guardWrite(x); r != nil {
				mentioned[r.Name] = true
			}
			reads(x)
		}
	}
	if changed {
		out := stmts[:0]
		for i, s := range stmts {
			if keep[i] {
				out = append(out, s)
			}
		}
		clear(stmts[len(out):])
		b.Stmts = out
	}
	return changed
}
