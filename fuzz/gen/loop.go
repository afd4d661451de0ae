package gen

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// maxMult caps the product of the trip counts of nested loops.
const maxMult = 64

// Loop forms. Every loop the generator emits inside flatten's subset has a
// counter var k (never assigned elsewhere: it is readonly in the typing
// context) declared with a constant right before the loop, a constant
// step, and an exit test no continue can skip, so ir.BoundLoop proves its
// bound (the package tests assert it for every loop):
//
//	For       var k = A; loop { if (!(k < L)) { break; } … continuing { k += S; } }
//	          (or k >= L; descending: !(k > L) / k <= L with k -= S)
//	ForMin    var k = A; loop { if (!(k < min(n, C))) { break; } … continuing { k += S; } }
//	WhileTop  var k = A; loop { if (k >= L) { break; } k += S; … }
//	WhileEnd  var k = A; loop { if (k >= L) { break; } …; k += S; }   (no continue in …)
//	BreakIf   var k = A; loop { … continuing { k += S; break if k >= L; } }
//
// WGSL {#for-statement}, {#while-statement} and {#loop-statement} lower
// to these (ir.Loop).
const (
	lFor = iota
	lForMin
	lWhileTop
	lWhileEnd
	lBreakIf
	lData // dataLoop: not a counter loop
)

// loopHeader is a counter loop before its body is generated.
type loopHeader struct {
	decl *ir.Decl
	loop *ir.Loop
	// at is where the generated body statements go in loop.Body.
	at         int
	noContinue bool
}

// loop generates a counter loop of a form the profile picks, with its
// body; nil when the unroll cap leaves no room for a loop here.
func (c *fnGen) loop() []ir.Stmt {
	w := c.g.prof.Loop
	var form int
	if w.Data > 0 {
		form = c.r.weighted(w.For, w.ForMin, w.WhileTop, w.WhileEnd, w.BreakIf, w.Data)
		if form == lData {
			return c.dataLoop()
		}
	} else {
		form = c.r.weighted(w.For, w.ForMin, w.WhileTop, w.WhileEnd, w.BreakIf)
	}
	t := ir.I32
	if c.r.chance(30) {
		t = ir.U32
	}
	maxT := c.g.prof.MaxTrips
	for maxT > 0 && c.mult*(maxT+1) > maxMult {
		maxT--
	}
	trips := 0
	if maxT > 0 && !c.r.chance(10) {
		trips = c.r.between(1, maxT)
	}
	// The unroll cap (unroll.go): the loop creates c.mult copies per
	// entry of its body, at most trips+1 entries. Clamping after the
	// draw leaves every program that fits the cap as it was.
	room := c.copiesRoom()
	if room < 1 {
		return nil
	}
	trips = min(trips, room-1)
	h := c.loopHeader(form, t, trips)
	hb := &ir.Block{Stmts: []ir.Stmt{h.decl, h.loop}}
	lb, err := ir.BoundLoop(hb, 1)
	if err != nil {
		panic(fmt.Sprintf("gen: generated loop is not bounded (generator bug): %v\n%s", err, ir.PrintStmt(hb, 0)))
	}
	if !c.copiesFit(lb.MaxEntries) {
		panic(fmt.Sprintf("gen: loop of %d entries at multiplier %d exceeds the unroll cap %d (generator bug)\n%s",
			lb.MaxEntries, c.mult, c.g.maxUnroll, ir.PrintStmt(hb, 0)))
	}
	c.addCopies(lb.MaxEntries)
	wrap := form != lBreakIf && c.r.chance(40)
	if wrap {
		c.push()
	}
	c.declare(h.decl.Name, t, ir.RefVar, true)

	// The body: its own scope, one level deeper, multiplied by the bound.
	saved := c.mult
	c.mult *= lb.MaxEntries
	c.push()
	c.depth++
	c.ctl = append(c.ctl, ctl{loop: true, noContinue: h.noContinue, depth: c.depth})
	body := c.stmtList(c.r.between(1, min(5, max(1, c.budget))))
	c.ctl = c.ctl[:len(c.ctl)-1]
	c.depth--
	c.pop()
	c.mult = saved

	stmts := h.loop.Body.Stmts
	h.loop.Body.Stmts = append(append(append([]ir.Stmt(nil), stmts[:h.at]...), body...), stmts[h.at:]...)
	if wrap {
		c.pop()
		return []ir.Stmt{&ir.Block{Stmts: []ir.Stmt{h.decl, h.loop}}}
	}
	return []ir.Stmt{h.decl, h.loop}
}

// loopHeader builds the counter, exit test and update of a loop running
// trips times (ceil((L-A)/S) = trips).
func (c *fnGen) loopHeader(form int, t *ir.Type, trips int) *loopHeader {
	r := c.r
	step := int64(r.between(1, 3))
	if r.chance(50) {
		step = 1
	}
	down := form == lFor && r.chance(30)
	if form == lBreakIf && trips == 0 {
		trips = 1 // the body of a break-if loop always runs once
	}
	var start, limit int64
	if !down {
		if t.Kind == ir.KindI32 {
			start = int64(r.between(-4, 4))
		} else {
			start = int64(r.between(0, 4))
		}
		limit = start
		if trips > 0 {
			limit = start + int64(trips-1)*step + int64(r.between(1, int(step)))
		}
	} else {
		if t.Kind == ir.KindI32 {
			limit = int64(r.between(-4, 4))
		} else {
			// k > L with k -= S on u32 must not wrap: L ≥ 2S.
			limit = 2*step + int64(r.between(0, 3))
		}
		start = limit
		if trips > 0 {
			start = limit + int64(trips-1)*step + int64(r.between(1, int(step)))
		}
	}
	name := c.fresh("i")
	k := func() ir.Expr { return &ir.Ident{Name: name, T: t, Ref: ir.RefVar} }
	L := func() ir.Expr { return lit(scalarValue(t, limit)) }
	h := &loopHeader{decl: &ir.Decl{Name: name, T: t, Init: lit(scalarValue(t, start)), Mutable: true}}

	update := func() ir.Stmt {
		op := ir.OpAdd
		if down {
			op = ir.OpSub
		}
		s := lit(scalarValue(t, step))
		if r.chance(30) {
			return &ir.Assign{LHS: k(), RHS: bin(op, k(), s)}
		}
		return &ir.Assign{LHS: k(), Op: op, RHS: s}
	}
	// exit is true once k has passed the limit.
	exit := func() ir.Expr {
		switch {
		case down && r.chance(50):
			return un(ir.OpNot, bin(ir.OpGt, k(), L()))
		case down:
			return bin(ir.OpLe, k(), L())
		case r.chance(50):
			return un(ir.OpNot, bin(ir.OpLt, k(), L()))
		}
		return bin(ir.OpGe, k(), L())
	}
	brk := func(e ir.Expr) ir.Stmt {
		return &ir.If{Cond: e, Then: ir.NewBlock(ir.Pos{}, &ir.Break{}), Else: &ir.Block{}}
	}
	l := &ir.Loop{Body: &ir.Block{}, Continuing: &ir.Block{}}
	h.loop = l
	switch form {
	case lFor:
		l.Body.Stmts = []ir.Stmt{brk(exit())}
		l.Continuing.Stmts = []ir.Stmt{update()}
		h.at = 1
	case lForMin:
		c.noCalls++
		n := c.nonConst(c.expr(t, 1))
		c.noCalls--
		var bound ir.Expr = builtin(ir.BMin, n, L())
		if r.chance(50) {
			bound = builtin(ir.BMin, L(), n)
		}
		l.Body.Stmts = []ir.Stmt{brk(un(ir.OpNot, bin(ir.OpLt, k(), bound)))}
		l.Continuing.Stmts = []ir.Stmt{update()}
		h.at = 1
	case lWhileTop:
		l.Body.Stmts = []ir.Stmt{brk(exit()), update()}
		h.at = 2
	case lWhileEnd:
		l.Body.Stmts = []ir.Stmt{brk(exit()), update()}
		h.at = 1
		h.noContinue = true
	case lBreakIf:
		l.Continuing.Stmts = []ir.Stmt{update()}
		l.BreakIf = exit()
		h.at = 0
	}
	return h
}

// outsideStmts places the kernel's outside-subset construct (once).
func (c *fnGen) outsideStmts() []ir.Stmt {
	c.outsideAt = -1
	switch c.g.outside {
	case OutsideUnboundedLoop:
		return c.unboundedLoop()
	case OutsideRecursion:
		h := c.g.recursive
		c.noCalls++
		depth := builtin(ir.BClamp, c.nonConst(c.expr(ir.I32, 1)), lit(ir.I32Val(0)), lit(ir.I32Val(4)))
		c.noCalls--
		arg := c.expr(h.f.Params[1].T, c.g.exprDepth-1)
		c.cost += c.mult * h.cost
		call := &ir.Call{Func: h.f.Name, Args: []ir.Expr{depth, arg}, T: h.f.Result}
		name := c.fresh("v")
		c.declare(name, h.f.Result, ir.RefLet, false)
		return []ir.Stmt{&ir.Decl{Name: name, T: h.f.Result, Init: call}}
	}
	return nil
}

// unboundedLoop is the outside-subset loop
//
//	var k: i32 = clamp(e, 0i, 8i);
//	loop { if (k <= 0i) { break; } … continuing { k -= 1i; } }
//
// It runs at most 8 times, but its counter starts at a run-time value, so
// ir.BoundLoop cannot bound it and flatten must refuse it.
func (c *fnGen) unboundedLoop() []ir.Stmt {
	name := c.fresh("u")
	k := func() ir.Expr { return &ir.Ident{Name: name, T: ir.I32, Ref: ir.RefVar} }
	c.noCalls++
	start := builtin(ir.BClamp, c.nonConst(c.expr(ir.I32, 1)), lit(ir.I32Val(0)), lit(ir.I32Val(8)))
	c.noCalls--
	decl := &ir.Decl{Name: name, T: ir.I32, Init: start, Mutable: true}
	c.declare(name, ir.I32, ir.RefVar, true)
	l := &ir.Loop{
		Body: ir.NewBlock(ir.Pos{}, &ir.If{Cond: bin(ir.OpLe, k(), lit(ir.I32Val(0))),
			Then: ir.NewBlock(ir.Pos{}, &ir.Break{}), Else: &ir.Block{}}),
		Continuing: ir.NewBlock(ir.Pos{}, &ir.Assign{LHS: k(), Op: ir.OpSub, RHS: lit(ir.I32Val(1))}),
	}
	saved := c.mult
	c.mult *= 9
	c.push()
	c.depth++
	c.ctl = append(c.ctl, ctl{loop: true, depth: c.depth})
	body := c.stmtList(c.r.between(1, 4))
	c.ctl = c.ctl[:len(c.ctl)-1]
	c.depth--
	c.pop()
	c.mult = saved
	l.Body.Stmts = append(l.Body.Stmts, body...)
	return []ir.Stmt{decl, l}
}

// dataLoop generates a loop whose trip count is a run-time value, bounded
// by construction: a var w, never assigned by the body (readonly to the
// statement generator), holding a value derived from the program's data,
// and one of
//
//	down      var w = clamp(e, 0, T); loop { if (w <= 0) { break; } … continuing { w -= 1; } }
//	halve     var w = e & (2^T - 1);  loop { if (w == 0) { break; } … continuing { w = w >> 1; } }
//	do-while  var w = clamp(e, 0, T); loop { … continuing { w -= 1; break if w <= 0; } }
//	end-exit  var w = clamp(e, 0, T); loop { …; if (w <= 0) { break; } w -= 1; }   (no continue)
//
// (e of type i32, or u32 for halve; T = MaxTrips). ir.BoundLoop bounds
// none of them (w starts at a run-time value), so flatten keeps each as a
// loop of the twin; the body runs at most T + 1 times. The end-exit and
// do-while forms test their exit after the body (what the
// masked-exit-first fault breaks). nil when the unroll cap leaves no room.
func (c *fnGen) dataLoop() []ir.Stmt {
	r := c.r
	trips := max(1, c.g.prof.MaxTrips)
	for trips > 1 && c.mult*(trips+1) > maxMult {
		trips--
	}
	if c.copiesRoom() < 1 {
		return nil
	}
	c.addCopies(1) // flatten lowers a kept loop's body once
	form := r.intn(4)
	t := ir.I32
	if form == 1 {
		t = ir.U32
	}
	name := c.fresh("w")
	w := func() ir.Expr { return &ir.Ident{Name: name, T: t, Ref: ir.RefVar} }
	c.noCalls++
	e := c.nonConst(c.expr(t, 1))
	c.noCalls--
	var start ir.Expr
	switch form {
	case 1:
		start = bin(ir.OpAnd, e, lit(ir.U32Val(uint32(1)<<min(trips, 8)-1)))
	default:
		start = builtin(ir.BClamp, e, lit(ir.I32Val(0)), lit(ir.I32Val(int32(trips))))
	}
	decl := &ir.Decl{Name: name, T: t, Init: start, Mutable: true}
	brk := func(e ir.Expr) ir.Stmt {
		return &ir.If{Cond: e, Then: ir.NewBlock(ir.Pos{}, &ir.Break{}), Else: &ir.Block{}}
	}
	dec := func() ir.Stmt { return &ir.Assign{LHS: w(), Op: ir.OpSub, RHS: lit(ir.I32Val(1))} }
	l := &ir.Loop{Body: &ir.Block{}, Continuing: &ir.Block{}}
	noContinue := false
	switch form {
	case 0:
		l.Body.Stmts = []ir.Stmt{brk(bin(ir.OpLe, w(), lit(ir.I32Val(0))))}
		l.Continuing.Stmts = []ir.Stmt{dec()}
	case 1:
		l.Body.Stmts = []ir.Stmt{brk(bin(ir.OpEq, w(), lit(ir.U32Val(0))))}
		l.Continuing.Stmts = []ir.Stmt{&ir.Assign{LHS: w(), RHS: bin(ir.OpShr, w(), lit(ir.U32Val(1)))}}
	case 2:
		l.Continuing.Stmts = []ir.Stmt{dec()}
		l.BreakIf = bin(ir.OpLe, w(), lit(ir.I32Val(0)))
	case 3:
		noContinue = true
	}
	c.declare(name, t, ir.RefVar, true)
	saved := c.mult
	c.mult *= trips + 1
	c.push()
	c.depth++
	c.ctl = append(c.ctl, ctl{loop: true, noContinue: noContinue, depth: c.depth})
	body := c.stmtList(r.between(1, min(4, max(1, c.budget))))
	c.ctl = c.ctl[:len(c.ctl)-1]
	c.depth--
	c.pop()
	c.mult = saved
	l.Body.Stmts = append(l.Body.Stmts, body...)
	if form == 3 {
		l.Body.Stmts = append(l.Body.Stmts, brk(bin(ir.OpLe, w(), lit(ir.I32Val(0)))), dec())
	}
	return []ir.Stmt{decl, l}
}
