package wgsl

import (
	"github.com/gpudiff/gpudiff/ir"
)

// Statement behavior analysis (WGSL #behaviors) over a function's lowered
// IR, which has exactly the desugarings the rules assume (for and while
// as loop, if with an else, loop with a continuing block).

type chkBeh uint8

const (
	behNext chkBeh = 1 << iota
	behBreak
	behContinue
	behReturn
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

// behSeq applies the sequence rule: s1 s2 has (B1 \ {Next}) ∪ B2 when
// Next is in B1, else B1.
func behSeq(ss []ir.Stmt, beh func(ir.Stmt) chkBeh) chkBeh {
	acc := behNext
	for _, s := range ss {
		b := beh(s)
		if acc&behNext != 0 {
			acc = acc&^behNext | b
		}
	}
	return acc
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

// behOf computes the behavior of one statement given a block analyzer;
// ok is false for a loop with an empty behavior.
func behOf(s ir.Stmt, block func(*ir.Block) chkBeh) (chkBeh, bool) {
	switch x := s.(type) {
	case *ir.Block:
		return block(x), true
	case *ir.Return:
		return behReturn, true
	case *ir.Break:
		return behBreak, true
	case *ir.Continue:
		return behContinue, true
	case *ir.If:
		return block(x.Then) | block(x.Else), true
	case *ir.Loop:
		b1 := block(x.Body)
		b2 := block(x.Continuing)
		if x.BreakIf != nil && b2&behNext != 0 {
			b2 = b2&^behNext | behBreak | behNext
		}
		if b1 == behReturn {
			return behReturn, true
		}
		u := b1 | b2
		if u&behBreak == 0 {
			r := u &^ (behContinue | behNext)
			return r, r != 0
		}
		return (u | behNext) &^ (behBreak | behContinue), true
	case *ir.Switch:
		var u chkBeh
		for _, cs := range x.Cases {
			u |= block(cs.Body)
		}
		if u&behBreak != 0 {
			u = (u | behNext) &^ behBreak
		}
		return u, true
	}
	return behNext, true
}
