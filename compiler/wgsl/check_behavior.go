package wgsl

import (
	"github.com/gpudiff/gpudiff/ir"
)

// Statement behavior analysis (WGSL #behaviors) over a function's lowered
// IR, which has exactly the desugarings the rules assume (for and while
// as loop, if with an else, loop with a continuing block).

type chkBeh = ir.Behavior

const (
	behNext     = ir.BehNext
	behBreak    = ir.BehBreak
	behContinue = ir.BehContinue
	behReturn   = ir.BehReturn
)

// behSeq and behOf are ir's (ir/behavior.go).
var (
	behSeq = ir.BehaviorSeq
	behOf  = ir.BehaviorOf
)

// behaviors reports a function whose body can fall off its end without
// returning a value, and loops whose behavior is empty (they can never
// exit); end is the offset of the body's closing brace.
func (c *chkCtx) behaviors(f *ir.Func, end int32) {
	b := c.behBlock(f.Body)
	if !f.Result.IsVoid() && b != behReturn {
		c.errorf(end, "missing return at end of function '%s' (its result type is %v)", f.Name, f.Result)
	}
}

func (c *chkCtx) behBlock(b *ir.Block) chkBeh {
	return behSeq(b.Stmts, func(s ir.Stmt) chkBeh { return c.behStmt(s) })
}

func (c *chkCtx) behStmt(s ir.Stmt) chkBeh {
	b, ok := behOf(s, c.behBlock)
	if !ok {
		p := s.Position()
		c.mc.diags.list = append(c.mc.diags.list, &ir.Error{File: c.mc.file, Pos: p, Pass: "check",
			Msg: "this loop can never exit: its behavior is empty (WGSL #behaviors); add a break or return"})
		panic(chkAbort{})
	}
	return b
}
