package gen

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// variable is a name in scope with its type and kind.
type variable struct {
	name string
	t    *ir.Type
	ref  ir.RefKind
	// readonly marks variables the generator must never assign although
	// WGSL would allow it: loop counters (ir.BoundLoop requires exactly
	// one update per iteration).
	readonly bool
}

func (v *variable) ident() *ir.Ident { return &ir.Ident{Name: v.name, T: v.t, Ref: v.ref} }

func (v *variable) writable() bool { return v.ref.Mutable() && !v.readonly }

// ctl is an enclosing breakable construct.
type ctl struct {
	loop bool // a loop (else a switch)
	// noContinue: a continue would skip the loop's counter update.
	noContinue bool
	// depth is the nesting depth of the construct's body.
	depth int
}

// fnGen generates one function body, threading the typing context:
// variables in scope (with types and mutability), enclosing loops and
// switches, the nesting depth, the loop multiplier and the budgets.
type fnGen struct {
	g *generator
	r *chooser
	f *ir.Func
	// callNest counts the calls whose arguments are being generated: an
	// argument starts a fresh expression depth, so only this bounds how
	// deep calls nest in calls (maxCallNest).
	callNest int
	// kernel marks the kernel (the outside-subset constructs go there).
	kernel bool
	// noReturn forbids early returns (a compute entry point's: a return
	// before a barrier would leave it non-uniform).
	noReturn bool

	scopes [][]*variable
	ctl    []ctl
	// bare holds the body depths of the enclosing bare blocks.
	bare  []int
	depth int // statement nesting depth (0 = function body)
	// mult is the product of the trip counts of the enclosing loops: how
	// many times a statement here runs per call.
	mult int
	// budget is the number of statements still to generate.
	budget int
	// cost is the estimated dynamic statement count so far.
	cost int
	// copies is the function's unroll count so far (unroll.go): it only
	// grows, and never past g.maxUnroll.
	copies int
	// maxCalleeDepth: only helpers with depth ≤ maxCalleeDepth may be
	// called; calleeDepth is the deepest one called so far.
	maxCalleeDepth, calleeDepth int
	// noCalls > 0 forbids calls (loop exit tests, assignment targets).
	noCalls int
	// inIndex > 0 while generating a run-time index.
	inIndex int
	seq     int
	// wroteGlobal records a private-global write in this function.
	wroteGlobal bool
	// outsideAt is the budget at which the kernel's outside-subset
	// construct is placed (top level); -1 when there is none or it is
	// placed.
	outsideAt int
}

func newFnGen(g *generator, f *ir.Func, budget, maxCalleeDepth int) *fnGen {
	c := &fnGen{g: g, r: g.r, f: f, mult: 1, budget: budget, maxCalleeDepth: maxCalleeDepth, outsideAt: -1}
	c.scopes = [][]*variable{nil}
	for _, gl := range g.m.Globals {
		c.scopes[0] = append(c.scopes[0], &variable{name: gl.Name, t: gl.T, ref: ir.RefGlobal})
	}
	return c
}

func (c *fnGen) push() { c.scopes = append(c.scopes, nil) }
func (c *fnGen) pop()  { c.scopes = c.scopes[:len(c.scopes)-1] }

func (c *fnGen) declare(name string, t *ir.Type, ref ir.RefKind, readonly bool) *variable {
	v := &variable{name: name, t: t, ref: ref, readonly: readonly}
	c.scopes[len(c.scopes)-1] = append(c.scopes[len(c.scopes)-1], v)
	return v
}

// fresh returns a new local name (prefix + a per-function counter).
func (c *fnGen) fresh(prefix string) string {
	c.seq++
	return fmt.Sprintf("%s%d", prefix, c.seq-1)
}

// vars returns the variables in scope satisfying keep, innermost last.
func (c *fnGen) vars(keep func(*variable) bool) []*variable {
	var out []*variable
	for _, s := range c.scopes {
		for _, v := range s {
			if keep(v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// pickVar picks one of vs, preferring locals and parameters to globals
// (weight 3:1).
func (c *fnGen) pickVar(vs []*variable) *variable {
	ws := make([]int, len(vs))
	for i, v := range vs {
		ws[i] = 3
		if v.ref == ir.RefGlobal {
			ws[i] = 1
		}
	}
	return vs[c.r.weighted(ws...)]
}

// body generates the function body: parameters in scope, the statements,
// and a final return (or, for void functions that wrote no global, a
// global write).
func (c *fnGen) body() {
	c.push()
	for _, p := range c.f.Params {
		c.declare(p.Name, p.T, ir.RefParam, false)
	}
	if c.kernel && c.g.outside != "" {
		c.outsideAt = c.r.between(0, max(0, c.budget-1))
	}
	var stmts []ir.Stmt
	switch {
	case c.kernel && c.g.shape.kind == shapeExpression:
		// The body is the return alone.
	case c.kernel && c.g.shape.kind == shapeStatement:
		stmts = c.stmtList(1)
	default:
		stmts = c.stmtList(c.budget)
	}
	if c.outsideAt >= 0 {
		stmts = append(stmts, c.outsideStmts()...)
	}
	if c.f.Result.IsVoid() {
		if !c.wroteGlobal {
			stmts = append(stmts, c.globalWrite())
		}
	} else {
		stmts = append(stmts, &ir.Return{Value: c.expr(c.f.Result, c.g.exprDepth)})
	}
	c.pop()
	c.f.Body = &ir.Block{Stmts: stmts}
}

// globalWrite assigns a private global (always possible: g0 exists).
func (c *fnGen) globalWrite() ir.Stmt {
	gs := c.vars(func(v *variable) bool { return v.ref == ir.RefGlobal })
	v := gs[c.r.intn(len(gs))]
	c.wroteGlobal = true
	return &ir.Assign{LHS: v.ident(), RHS: c.expr(v.t, c.g.exprDepth)}
}

// ---- callees ----

// callees returns the helpers a call here may target: result type t
// (nil: any result, including void), call depth within bounds and cost
// within MaxCost at the current loop multiplier. (The unroll cap is
// checked by call, once a callee is picked: see unroll.go.)
func (c *fnGen) callees(t *ir.Type) []*helper {
	if c.noCalls > 0 {
		return nil
	}
	var out []*helper
	for _, h := range c.g.helpers {
		if h.f == c.f || h.depth > c.maxCalleeDepth {
			continue
		}
		if t != nil && !ir.Identical(h.f.Result, t) {
			continue
		}
		if c.cost+c.mult*h.cost > MaxCost {
			continue
		}
		out = append(out, h)
	}
	return out
}

// pickCallee prefers deep helpers (weight = depth²), which builds long
// call chains.
func (c *fnGen) pickCallee(hs []*helper) *helper {
	ws := make([]int, len(hs))
	for i, h := range hs {
		ws[i] = h.depth * h.depth
	}
	return hs[c.r.weighted(ws...)]
}

// maxCallNest bounds calls nested in calls' arguments, `h0(h0(h0(…)))`.
// Each call's arguments start a fresh expression depth, so a byte source
// (FromBytes) that keeps choosing a call nested them past the WGSL front
// end's limit of 1,000 levels (FuzzWGSLRoundTrip found it); random seeds
// reach 16 levels with a negligible probability (the call weight to the
// 16th power), so seeded programs are unchanged.
const maxCallNest = 16

// call builds a call of h with generated arguments and accounts for it;
// nil when h's unroll count does not fit the cap here, or calls already
// nest maxCallNest deep. The count is
// reserved before the arguments are generated, so calls inside them are
// checked against it.
func (c *fnGen) call(h *helper) *ir.Call {
	if c.callNest >= maxCallNest || !c.copiesFit(h.copies) {
		return nil
	}
	c.addCopies(h.copies)
	args := make([]ir.Expr, len(h.f.Params))
	c.callNest++
	for i, p := range h.f.Params {
		args[i] = c.expr(p.T, c.g.exprDepth-1)
	}
	c.callNest--
	c.cost += c.mult * h.cost
	c.calleeDepth = max(c.calleeDepth, h.depth)
	return &ir.Call{Func: h.f.Name, Args: args, T: h.f.Result}
}

// callExpr returns a call of a helper returning t, or nil.
func (c *fnGen) callExpr(t *ir.Type) ir.Expr {
	hs := c.callees(t)
	if len(hs) == 0 || t.IsVoid() {
		return nil
	}
	if call := c.call(c.pickCallee(hs)); call != nil {
		return call
	}
	return nil
}
