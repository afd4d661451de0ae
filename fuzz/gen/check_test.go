package gen

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// Static checkers of the generator's guarantees, used by the tests. They
// re-derive each guarantee from the IR alone, independently of how the
// generator meant to establish it.

// walkExprs calls f(e, parent) for every expression of m (parent is nil
// for a statement's direct operand).
func walkExprs(m *ir.Module, f func(e, parent ir.Expr)) {
	walkFuncExprs(m, func(_ *ir.Func, e, parent ir.Expr) { f(e, parent) })
}

// walkFuncExprs is walkExprs with the enclosing function (nil for global
// initializers).
func walkFuncExprs(m *ir.Module, f func(fn *ir.Func, e, parent ir.Expr)) {
	var cur *ir.Func
	var visit func(n ir.Node, parent ir.Expr)
	visit = func(n ir.Node, parent ir.Expr) {
		e, isExpr := n.(ir.Expr)
		if isExpr {
			f(cur, e, parent)
		}
		ir.DoChildren(n, func(c ir.Node) bool {
			if isExpr {
				visit(c, e)
			} else {
				visit(c, nil)
			}
			return false
		})
	}
	for _, g := range m.Globals {
		if g.Init != nil {
			visit(g.Init, nil)
		}
	}
	for _, fn := range m.Funcs {
		cur = fn
		visit(fn.Body, nil)
	}
}

// hoisted returns, per function, the initializers of the sc_val lets
// ir.Normalize introduces when it lowers an effectful && / || (it binds
// earlier operands of the same statement to lets to keep evaluation order).
func hoisted(m *ir.Module) map[*ir.Func]map[string]ir.Expr {
	out := map[*ir.Func]map[string]ir.Expr{}
	for _, fn := range m.Funcs {
		out[fn] = map[string]ir.Expr{}
		ir.Inspect(fn.Body, func(n ir.Node) bool {
			if d, ok := n.(*ir.Decl); ok && !d.Mutable && strings.HasPrefix(d.Name, "sc_val") {
				out[fn][d.Name] = d.Init
			}
			return true
		})
	}
	return out
}

func isLit(e ir.Expr) bool { _, ok := e.(*ir.Lit); return ok }

// constExpr mirrors WGSL const-expressions of the subset: literals and
// constructors/operators of them.
func constExpr(e ir.Expr) bool {
	switch e.(type) {
	case *ir.Lit:
		return true
	case *ir.Ident, *ir.Call:
		return false
	}
	all := true
	ir.DoChildren(e, func(n ir.Node) bool {
		if !constExpr(n.(ir.Expr)) {
			all = false
		}
		return !all
	})
	return all
}

// scalars returns the scalar components of a constant.
func scalars(v ir.Value) []ir.Value {
	if v.Type.IsScalar() {
		return []ir.Value{v}
	}
	var out []ir.Value
	for _, e := range v.Elems {
		out = append(out, scalars(e)...)
	}
	return out
}

// litIs reports whether e is a literal all of whose components satisfy ok.
func litIs(e ir.Expr, ok func(ir.Value) bool) bool {
	l, isL := e.(*ir.Lit)
	if !isL {
		return false
	}
	for _, s := range scalars(l.Val) {
		if !ok(s) {
			return false
		}
	}
	return true
}

func f32Eq(x float64) func(ir.Value) bool {
	return func(v ir.Value) bool { return v.Type.Kind == ir.KindF32 && float64(v.F32()) == x }
}

func isBuiltin(e ir.Expr, fn ir.Builtin) (*ir.BuiltinCall, bool) {
	b, ok := e.(*ir.BuiltinCall)
	return b, ok && b.Fn == fn
}

// exactViolations lists the places where m could leave the exact f32
// domain (integers with |v| ≤ FloatBound); see FloatBound for the
// induction each rule below is a step of.
func exactViolations(m *ir.Module) []string {
	var out []string
	bad := func(e ir.Expr, why string) { out = append(out, why+": "+ir.PrintExpr(e)) }
	const B = FloatBound
	isClampTo := func(e ir.Expr, b float64) bool {
		c, ok := isBuiltin(e, ir.BClamp)
		return ok && litIs(c.Args[1], f32Eq(-b)) && litIs(c.Args[2], f32Eq(b))
	}
	lets := hoisted(m)
	walkFuncExprs(m, func(fn *ir.Func, e, parent ir.Expr) {
		// Look through Normalize's sc_val lets to the expression they bind.
		see := func(o ir.Expr) ir.Expr {
			if id, ok := o.(*ir.Ident); ok && id.Ref == ir.RefLet && fn != nil {
				if init, ok := lets[fn][id.Name]; ok {
					return init
				}
			}
			return o
		}
		if l, ok := e.(*ir.Lit); ok {
			for _, s := range scalars(l.Val) {
				if s.Type.Kind == ir.KindF32 {
					f := float64(s.F32())
					if f != math.Trunc(f) || math.Abs(f) > B || math.IsNaN(f) {
						bad(e, fmt.Sprintf("f32 literal %v outside the exact domain", f))
					}
				}
			}
			return
		}
		t := e.Type()
		isF := t != nil && t.Scalar() != nil && t.Scalar().Kind == ir.KindF32
		switch x := e.(type) {
		case *ir.Binary:
			xf := x.X.Type().Scalar() != nil && x.X.Type().Scalar().Kind == ir.KindF32
			if !xf || x.T.Scalar().Kind == ir.KindBool {
				return
			}
			switch x.Op {
			case ir.OpAdd, ir.OpSub:
				if parent == nil || !isClampTo(parent, B) || parent.(*ir.BuiltinCall).Args[0] != e {
					bad(e, "f32 +/- not reconditioned by clamp(…, ±2^23)")
				}
			case ir.OpMul:
				for _, o := range []ir.Expr{see(x.X), see(x.Y)} {
					small := litIs(o, func(v ir.Value) bool { return math.Abs(float64(v.F32())) <= mulBound })
					if !small && !isClampTo(o, mulBound) {
						bad(e, "f32 * operand not bounded by ±2^11")
					}
				}
			case ir.OpDiv:
				pow2 := litIs(x.Y, func(v ir.Value) bool {
					f := float64(v.F32())
					fr, _ := math.Frexp(f)
					return f >= 2 && fr == 0.5
				})
				_, fl := isBuiltin(parent, ir.BFloor)
				_, tr := isBuiltin(parent, ir.BTrunc)
				if parent == nil || !pow2 || !(fl || tr) {
					bad(e, "f32 / not by a power of two under floor/trunc")
				}
			default:
				bad(e, "f32 operator "+x.Op.String())
			}
		case *ir.BuiltinCall:
			if isPackRoundTrip(x) {
				return // exact: expr.go packRoundTrip's argument
			}
			if p, ok := parent.(*ir.BuiltinCall); ok && isPackRoundTrip(p) && p.Args[0] == e {
				return // the unpack inside it
			}
			if !isF {
				if len(x.Args) > 0 && x.Args[0].Type().Scalar() != nil && x.Args[0].Type().Scalar().Kind == ir.KindF32 {
					bad(e, "builtin of f32 with non-f32 result")
				}
				return
			}
			switch x.Fn {
			case ir.BAbs, ir.BMin, ir.BMax, ir.BSign, ir.BFloor, ir.BCeil, ir.BRound, ir.BTrunc, ir.BStep:
			case ir.BClamp:
				for _, o := range x.Args[1:] {
					if !isLit(o) {
						bad(e, "f32 clamp with run-time bounds")
					}
				}
			default:
				bad(e, "inexact f32 builtin "+x.Fn.String())
			}
		case *ir.Convert:
			from := x.X.Type().Scalar().Kind
			to := x.T.Scalar().Kind
			switch {
			case to == ir.KindF32 && from == ir.KindI32:
				if !isClampTo(x.X, B) && !func() bool {
					c, ok := isBuiltin(x.X, ir.BClamp)
					return ok && litIs(c.Args[1], func(v ir.Value) bool { return int64(v.I32()) == -B }) &&
						litIs(c.Args[2], func(v ir.Value) bool { return int64(v.I32()) == B })
				}() {
					bad(e, "i32 → f32 of an unclamped value")
				}
			case to == ir.KindF32 && from == ir.KindU32:
				mn, ok := isBuiltin(x.X, ir.BMin)
				if !ok || !litIs(mn.Args[1], func(v ir.Value) bool { return v.U32() == B }) {
					bad(e, "u32 → f32 of an unbounded value")
				}
			case to == ir.KindU32 && from == ir.KindF32:
				if _, ok := isBuiltin(x.X, ir.BAbs); !ok {
					bad(e, "f32 → u32 of a possibly negative value")
				}
			}
		case *ir.Bitcast:
			if x.T.Scalar().Kind == ir.KindF32 || x.X.Type().Scalar().Kind == ir.KindF32 {
				bad(e, "bitcast involving f32")
			}
		}
	})
	return out
}

// hazards lists WGSL shader-creation errors and indeterminate values m
// could produce: operators with only const-expression operands (possible
// const overflow), constant clamp bounds with low > high, extractBits /
// insertBits ranges past 32 bits, select of a non-scalar/vector, and
// run-time indices not reduced into range. (ir.Verify already rejects
// literal zero divisors, literal shifts ≥ 32 and out-of-range literal
// indices.)
func hazards(m *ir.Module) []string {
	var out []string
	bad := func(e ir.Expr, why string) { out = append(out, why+": "+ir.PrintExpr(e)) }
	lets := hoisted(m)
	walkFuncExprs(m, func(fn *ir.Func, e, parent ir.Expr) {
		switch e.(type) {
		case *ir.Unary, *ir.Binary, *ir.BuiltinCall, *ir.Convert, *ir.Bitcast:
			if constExpr(e) {
				bad(e, "operator applied to const-expressions only")
			}
		}
		switch x := e.(type) {
		case *ir.Binary:
			if (x.Op == ir.OpDiv || x.Op == ir.OpRem || x.Op == ir.OpShl || x.Op == ir.OpShr) && constExpr(x.Y) && !isLit(x.Y) {
				bad(e, "constant divisor or shift count that is not a literal")
			}
		case *ir.BuiltinCall:
			switch x.Fn {
			case ir.BClamp:
				lo, okL := x.Args[1].(*ir.Lit)
				hi, okH := x.Args[2].(*ir.Lit)
				if !okL || !okH {
					bad(e, "clamp with run-time bounds (median vs min-max differ when low > high)")
					break
				}
				ls, hs := scalars(lo.Val), scalars(hi.Val)
				for i := range ls {
					var less bool
					switch ls[i].Type.Kind {
					case ir.KindI32:
						less = hs[i].I32() < ls[i].I32()
					case ir.KindU32:
						less = hs[i].U32() < ls[i].U32()
					case ir.KindF32:
						less = hs[i].F32() < ls[i].F32()
					}
					if less {
						bad(e, "clamp with low > high")
					}
				}
			case ir.BExtractBits, ir.BInsertBits:
				n := len(x.Args)
				o, okO := x.Args[n-2].(*ir.Lit)
				c, okC := x.Args[n-1].(*ir.Lit)
				if !okO || !okC || uint64(o.Val.U32())+uint64(c.Val.U32()) > 32 {
					bad(e, "bit range not constant within 32 bits")
				}
			}
		case *ir.Select:
			if !x.T.IsScalar() && x.T.Kind != ir.KindVec {
				bad(e, "select of "+x.T.String())
			}
		case *ir.Index:
			n := uint32(x.X.Type().Len)
			ixe := x.Index
			if id, ok := ixe.(*ir.Ident); ok && fn != nil && lets[fn][id.Name] != nil {
				ixe = lets[fn][id.Name] // an index ir.Normalize bound to a let
			}
			switch ix := ixe.(type) {
			case *ir.Lit:
			case *ir.Binary:
				if ix.Op != ir.OpRem || !litIs(ix.Y, func(v ir.Value) bool { return v.U32() == n }) {
					bad(e, "run-time index not reduced modulo the length")
				}
			case *ir.BuiltinCall:
				if ix.Fn != ir.BMin || !litIs(ix.Args[1], func(v ir.Value) bool { return v.U32() == n-1 }) {
					bad(e, "run-time index not clamped to the length")
				}
			default:
				bad(e, "run-time index not reduced into range")
			}
		}
	})
	return out
}

// afterFinishedBlock lists statements that follow a bare block ending in a
// jump: naga rejects them ("instructions after return"), though WGSL
// allows unreachable code.
func afterFinishedBlock(m *ir.Module) []string {
	var finishes func(s ir.Stmt) bool
	finishes = func(s ir.Stmt) bool {
		if ir.IsJump(s) {
			return true
		}
		b, ok := s.(*ir.Block)
		return ok && len(b.Stmts) > 0 && finishes(b.Stmts[len(b.Stmts)-1])
	}
	var out []string
	for _, f := range m.Funcs {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if b, ok := n.(*ir.Block); ok {
				for i, s := range b.Stmts {
					if finishes(s) && i < len(b.Stmts)-1 {
						out = append(out, ir.PrintStmt(b.Stmts[i+1], 0))
					}
				}
			}
			_, isExpr := n.(ir.Expr)
			return !isExpr
		})
	}
	return out
}

// loopReport checks every loop of m with ir.BoundLoop and returns the
// unbounded ones (printed) and the bounds. Data loops (dataLoop, whose
// bound is a run-time value by construction) are in neither.
func loopReport(m *ir.Module) (unbounded []string, bounds []*ir.LoopBound) {
	var visit func(n ir.Node)
	visit = func(n ir.Node) {
		if b, ok := n.(*ir.Block); ok {
			for i, s := range b.Stmts {
				if l, isLoop := s.(*ir.Loop); isLoop {
					if isDataLoop(l) {
						continue
					}
					lb, err := ir.BoundLoop(b, i)
					if err != nil {
						unbounded = append(unbounded, err.Error()+"\n"+ir.PrintStmt(s, 0))
					} else {
						bounds = append(bounds, lb)
					}
				}
			}
		}
		ir.DoChildren(n, func(c ir.Node) bool {
			if _, isExpr := c.(ir.Expr); !isExpr {
				visit(c)
			}
			return false
		})
	}
	for _, f := range m.Funcs {
		visit(f.Body)
	}
	return unbounded, bounds
}

var dataLoopVar = regexp.MustCompile(`^w\d+$`)

// isDataLoop reports whether l is one of dataLoop's loops: its count
// variable (named w<N>) is updated by `w -= 1` or `w = w >> 1`.
func isDataLoop(l *ir.Loop) bool {
	for _, s := range append(append([]ir.Stmt(nil), l.Body.Stmts...), l.Continuing.Stmts...) {
		if a, ok := s.(*ir.Assign); ok {
			if id, ok := a.LHS.(*ir.Ident); ok && dataLoopVar.MatchString(id.Name) {
				return true
			}
		}
	}
	return false
}

// isPackRoundTrip reports whether c is a data packing builtin applied to
// its own unpack (expr.go packRoundTrip): exact on every conforming
// implementation although its operand is f32.
func isPackRoundTrip(c *ir.BuiltinCall) bool {
	pairs := map[ir.Builtin]ir.Builtin{ir.BPack4x8Unorm: ir.BUnpack4x8Unorm, ir.BPack4x8Snorm: ir.BUnpack4x8Snorm,
		ir.BPack2x16Unorm: ir.BUnpack2x16Unorm, ir.BPack2x16Snorm: ir.BUnpack2x16Snorm, ir.BPack2x16Float: ir.BUnpack2x16Float}
	un, ok := pairs[c.Fn]
	if !ok || len(c.Args) != 1 {
		return false
	}
	in, ok := c.Args[0].(*ir.BuiltinCall)
	return ok && in.Fn == un
}
