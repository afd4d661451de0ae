package flatten

import (
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// isFlat reports whether f is already branchless and call-free: no If,
// Loop, Switch, Break, Continue or user call, and no Return except as its
// last top-level statement. Such a function is its own twin.
func isFlat(f *ir.Func) bool { return shapeViolation(f, false) == "" }

// shapeViolation describes the first way f breaks the twin contract
// (doc.go "Twin shape", "Loops in twins"), or returns "": no If (an
// entry point's guards aside), Switch, Break, Continue or user call; no
// subgroup operation in a guard or in the right operand of && or || (it
// would run in only some invocations: subgroup.go); at most one Return, the last top-level statement; exactly one when the
// function has a result; and, with loops, no Loop but kept loops
// (isKeptLoop) — without, no Loop at all.
func shapeViolation(f *ir.Func, loops bool) string {
	msg := ""
	stmts := f.Body.Stmts
	var last ir.Stmt
	if len(stmts) > 0 {
		last = stmts[len(stmts)-1]
	}
	// The one demotion a fragment twin may have: the last statement
	// before the final return (or the last; demotionAt).
	var demote ir.Stmt
	if i := demotionAt(f); i >= 0 {
		demote = stmts[i]
	}
	ir.Inspect(f.Body, func(n ir.Node) bool {
		if msg != "" {
			return false
		}
		if x, ok := n.(*ir.If); ok && isGuard(x) && f.Stage == ir.StageCompute {
			if hasSubgroup(x) {
				msg = fmt.Sprintf("a subgroup operation in the guard at %v (subgroup.go)", x.Pos)
			}
			return false // an entry point's guard (entry.go)
		}
		if x, ok := n.(*ir.Binary); ok && (x.Op == ir.OpLogAnd || x.Op == ir.OpLogOr) && hasSubgroup(x.Y) {
			msg = fmt.Sprintf("a subgroup operation in the right operand of %s at %v, which runs only where the left one decides nothing (subgroup.go)", x.Op, x.Pos)
			return false
		}
		if s, ok := n.(ir.Stmt); ok && demote != nil && s == demote {
			return false // a fragment twin's one demotion, at its end (demote.go)
		}
		switch x := n.(type) {
		case *ir.Loop:
			if !loops {
				msg = fmt.Sprintf("%T at %v", x, x.Position())
			} else if why := keptLoopViolation(x); why != "" {
				msg = fmt.Sprintf("loop at %v is not a kept loop: %s", x.Pos, why)
			}
		case *ir.If, *ir.Switch, *ir.Break, *ir.Continue, *ir.Discard:
			msg = fmt.Sprintf("%T at %v", x, x.Position())
		case *ir.Call:
			msg = fmt.Sprintf("call of %s at %v", x.Func, x.Pos)
		case *ir.Return:
			if n != last {
				msg = fmt.Sprintf("return at %v is not the last statement", x.Pos)
			}
		}
		return true
	})
	if msg == "" && !f.Result.IsVoid() {
		if _, ok := last.(*ir.Return); !ok {
			msg = "no final return"
		}
	}
	return msg
}

// keptLoopViolation says how lp differs from the one loop form a twin
// keeps (masked.go): an empty continuing block and the break-if !m, m a
// bool var the loop's body assigns, as the only exit (the body's jumps
// are shapeViolation's to find); "" when it does not.
func keptLoopViolation(lp *ir.Loop) string {
	if len(lp.Continuing.Stmts) != 0 {
		return "its continuing block is not empty"
	}
	if u, ok := lp.BreakIf.(*ir.Unary); !ok || u.Op != ir.OpNot {
		return "its exit is not `break if !m`"
	}
	m := keptExitMask(lp)
	if m == nil || m.Ref != ir.RefVar || m.T.Kind != ir.KindBool {
		return "its exit does not test a bool var"
	}
	if !assignedIn(lp.Body)[m.Name] {
		return fmt.Sprintf("its mask %s is never cleared in the body", m.Name)
	}
	return ""
}

// residuals lists what the folds would still change in the finished twin
// (Options.Strict; daslang-flatten §8.6 strict_fold): the pipeline ran to
// a fixed point, so any hit is a fold that failed to fire. Each is
// positioned at the source expression it came from.
func residuals(p *pipe) ir.ErrorList {
	var errs ir.ErrorList
	var all []ir.Stmt
	exits := map[ir.Stmt]bool{} // kept loops' break-ifs, as statements, and mask updates (isMaskUpdate)
	var flat func(stmts []ir.Stmt)
	flat = func(stmts []ir.Stmt) {
		for _, s := range stmts {
			if lp, ok := s.(*ir.Loop); ok {
				mask := loopMask(lp)
				for _, b := range lp.Body.Stmts {
					if isMaskUpdate(b, mask) {
						exits[b] = true
					}
				}
				flat(lp.Body.Stmts)
				exit := &ir.ExprStmt{Pos: lp.Pos, X: lp.BreakIf}
				exits[exit] = true
				all = append(all, exit)
				continue
			}
			all = append(all, s)
		}
	}
	flat(p.stmts())
	for _, s := range all {
		at := map[ir.Pos]bool{} // a chain of rewrites at one node is one residual: its first rule
		for _, ev := range foldReads(ir.CloneStmt(s)) {
			if ev.n != nil && !at[ev.n.Position()] {
				at[ev.n.Position()] = true
				errs.Add(p.m.File, ev.n.Position(), "flatten", "strict: residual %s left unfolded: %s", ev.rule, ir.PrintExpr(ev.n))
			}
		}
		if noOp(s) && !exits[s] {
			errs.Add(p.m.File, s.Position(), "flatten", "strict: residual statement without effect left: %s", strings.TrimSpace(ir.PrintStmt(s, 0)))
		}
	}
	errs.Sort()
	return dedupe(errs)
}
