package flatten

import (
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// isFlat reports whether f is already branchless and call-free: no If,
// Loop, Switch, Break, Continue or user call, and no Return except as its
// last top-level statement. Such a function is its own twin.
func isFlat(f *ir.Func) bool { return shapeViolation(f) == "" }

// shapeViolation describes the first way f is not of the twin shape
// (issue item 2), or returns "": no If, Loop, Switch, Break, Continue or
// user call; at most one Return, the last top-level statement; exactly
// one when the function has a result.
func shapeViolation(f *ir.Func) string {
	msg := ""
	stmts := f.Body.Stmts
	var last ir.Stmt
	if len(stmts) > 0 {
		last = stmts[len(stmts)-1]
	}
	ir.Inspect(f.Body, func(n ir.Node) bool {
		if msg != "" {
			return false
		}
		if x, ok := n.(*ir.If); ok && isGuard(x) && f.Stage == ir.StageCompute {
			return false // an entry point's guard (entry.go)
		}
		switch x := n.(type) {
		case *ir.If, *ir.Loop, *ir.Switch, *ir.Break, *ir.Continue:
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

// residuals lists what the folds would still change in the finished twin
// (Options.Strict; daslang-flatten §8.6 strict_fold): the pipeline ran to
// a fixed point, so any hit is a fold that failed to fire. Each is
// positioned at the source expression it came from.
func residuals(p *pipe) ir.ErrorList {
	var errs ir.ErrorList
	for _, s := range p.stmts() {
		f := &folder{}
		c := ir.CloneStmt(s)
		editReads(c, f.expr)
		at := map[ir.Pos]bool{} // a chain of rewrites at one node is one residual: its first rule
		for _, ev := range f.events {
			if ev.n != nil && !at[ev.n.Position()] {
				at[ev.n.Position()] = true
				errs.Add(p.m.File, ev.n.Position(), "flatten", "strict: residual %s left unfolded: %s", ev.rule, ir.PrintExpr(ev.n))
			}
		}
		if noOp(s) {
			errs.Add(p.m.File, s.Position(), "flatten", "strict: residual statement without effect left: %s", strings.TrimSpace(ir.PrintStmt(s, 0)))
		}
	}
	errs.Sort()
	return dedupe(errs)
}
