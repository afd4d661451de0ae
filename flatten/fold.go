package flatten

import (
	"math"

	"github.com/gpudiff/gpudiff/ir"
)

// The folds (issue item 5; daslang-flatten §8.2 "Constant folding"), each
// exact under WGSL's rules — no fast-math fold that changes NaN, Inf,
// signed zero or rounding:
//
//	x * 1, 1 * x, x / 1          → x      (int, f32 and f16, scalar and vector,
//	                                         when x has the result type)
//	x + 0, 0 + x, x - 0          → x      (integers; for floats only x + -0.0
//	                                         and x - 0.0, since -0 + 0 = +0)
//	x * -1, -1 * x               → -x     (i32, f32 and f16; not matrices:
//	                                         WGSL has no matrix negation)
//	x * 0, 0 * x                 → 0      (integer scalars only: for f32,
//	                                         NaN * 0 and Inf * 0 are NaN)
//	true && x, x && true, false || x, x || false → x
//	false && x, x && false       → false  (x is pure in a twin)
//	true || x, x || true         → true
//	!!x, -(-x)                   → x
//	select(f, t, true)           → t,  select(f, t, false) → f
//	select(false, true, c)       → c   (c ? true : false)
//	select(true, false, c)       → !c
//	select(a, a, c)              → a
//	select(f, t, !c)             → select(t, f, c)
//	select(f, select(g, t, c), c) → select(f, t, c), and the mirror
//	any node whose operands are all literals → its value (consteval.go:
//	  constant constructors, !const, constant-argument exact builtins,
//	  constant arithmetic), when the value is exact and representable
//
// Substituting constants for identifiers (loop counters in unrolled
// copies, constant propagation) goes through the same walk: after a
// node's operands are substituted and folded, a node that would become a
// WGSL shader-creation error (constError, or a constant evaluation that
// fails) gets its run-time operands back instead (issue item 4e).

// folder rewrites expressions bottom-up with the fold rules, optionally
// substituting constants for identifiers.
type folder struct {
	// lookup, when set, returns the constant value of an identifier read.
	lookup func(*ir.Ident) (ir.Value, bool)
	// events lists the rewrites done so far (rules that fired and
	// substitutions); a rewrite undone to avoid a shader-creation error is
	// removed again.
	events []event
}

type event struct {
	n    ir.Expr // the node the rule rewrote (nil for a substitution)
	rule string
}

// changed reports whether any rewrite happened.
func (f *folder) changed() bool { return len(f.events) > 0 }

func (f *folder) fired(n ir.Expr, rule string) { f.events = append(f.events, event{n, rule}) }

// expr returns e folded (and substituted). e itself is never modified.
func (f *folder) expr(e ir.Expr) ir.Expr {
	switch x := e.(type) {
	case *ir.Lit:
		return x
	case *ir.Ident:
		if f.lookup != nil {
			if v, ok := f.lookup(x); ok {
				f.fired(nil, "")
				return &ir.Lit{Pos: x.Pos, Val: v}
			}
		}
		return x
	}
	var ob, kb ir.Operands
	var mb [len(ir.Operands{}) + 1]int
	orig := ir.ExprOperands(e, &ob)
	kids := kb.Slots(len(orig))
	var marks []int // events of kid i are events[marks[i]:marks[i+1]]
	if n := len(orig) + 1; n <= len(mb) {
		marks = mb[:n]
	} else {
		marks = make([]int, n)
	}
	same, newLit := true, false
	for i, c := range orig {
		marks[i] = len(f.events)
		kids[i] = f.expr(c)
		marks[i+1] = len(f.events)
		if kids[i] != c {
			same = false
			if isLit(kids[i]) && !isLit(c) {
				newLit = true
			}
		}
	}
	n := e
	if !same {
		n = ir.WithOperands(e, kids)
	}
	r, bad := f.node(n)
	if !bad || !newLit {
		return r
	}
	// The node would be a shader-creation error with the constants its
	// operands became: give those operands their run-time form back (and
	// forget the rewrites made inside them).
	kept := f.events[:marks[0]]
	for i := range kids {
		if isLit(kids[i]) && !isLit(orig[i]) {
			kids[i] = orig[i]
		} else {
			kept = append(kept, f.events[marks[i]:marks[i+1]]...)
		}
	}
	f.events = kept
	r, _ = f.node(ir.WithOperands(e, kids))
	return r
}

// node applies the rules at the root of n, whose operands are already
// folded. bad reports that n, as given, is a const-expression WGSL
// rejects (the caller may then restore run-time operands).
func (f *folder) node(n ir.Expr) (r ir.Expr, bad bool) {
	for range 8 {
		if allLit(n) {
			v, st := evalNode(n)
			switch st {
			case evalOK:
				if !representable(v) {
					return n, true
				}
				f.fired(n, describeNode(n))
				return &ir.Lit{Pos: n.Position(), Val: v}, false
			case evalKeep:
				return n, false
			default:
				return n, true
			}
		}
		if constError(n) || constArrayIndexed(n) {
			return n, true
		}
		m, rule := rewrite(n)
		if m == nil {
			return n, false
		}
		f.fired(n, rule)
		n = m
		if _, ok := n.(*ir.Lit); ok {
			return n, false
		}
	}
	return n, false
}

// constArrayIndexed reports an array constant indexed by a run-time
// value: folding never creates one (WGSL compilers differ in how they
// materialize a constant array for a dynamic index), so a substituted
// array constant there gets its run-time form back.
func constArrayIndexed(n ir.Expr) bool {
	x, ok := n.(*ir.Index)
	return ok && isLit(x.X) && x.X.Type().Kind == ir.KindArray && !isLit(x.Index)
}

// representable reports whether v can be printed as a WGSL literal
// (finite f32 components).
func representable(v ir.Value) bool {
	if v.Type.Kind == ir.KindF32 {
		f := v.F32()
		return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0)
	}
	if v.Type.Kind == ir.KindF16 {
		return math.Abs(v.Float()) <= 65504 // NaN fails too
	}
	for _, e := range v.Elems {
		if !representable(e) {
			return false
		}
	}
	return true
}

// describeNode names the constant fold of an all-literal node, for
// strict-mode residual reports.
func describeNode(n ir.Expr) string {
	switch x := n.(type) {
	case *ir.BuiltinCall:
		return "all-constant call " + x.Fn.String() + "(…)"
	case *ir.Construct:
		return "constant constructor " + x.T.String() + "(…)"
	case *ir.Unary:
		if x.Op == ir.OpNot {
			return "!const"
		}
		return "constant operation " + x.Op.String()
	case *ir.Binary:
		return "constant operation " + x.Op.String()
	case *ir.Select:
		return "constant-condition select"
	}
	return "constant expression"
}

// isSplat reports whether e is a literal whose every scalar component has
// the given bits (after conversion to its type: 1, 0, -1, -0.0).
func isSplat(e ir.Expr, want func(ir.Value) bool) bool {
	v, ok := litVal(e)
	if !ok || v.Type.Scalar() == nil {
		return false
	}
	if v.Type.Kind == ir.KindVec {
		for _, c := range v.Elems {
			if !want(c) {
				return false
			}
		}
		return true
	}
	return want(v)
}

func isOne(c ir.Value) bool {
	switch c.Type.Kind {
	case ir.KindF32:
		return c.F32() == 1
	case ir.KindF16:
		return c.Bits == 0x3c00
	case ir.KindI32, ir.KindU32:
		return c.Bits == 1
	}
	return false
}

func isMinusOne(c ir.Value) bool {
	switch c.Type.Kind {
	case ir.KindF32:
		return c.F32() == -1
	case ir.KindF16:
		return c.Bits == 0xbc00
	case ir.KindI32:
		return c.I32() == -1
	}
	return false
}

func isIntZero(c ir.Value) bool { return c.Type.IsInteger() && c.Bits == 0 }
func isPosZero(c ir.Value) bool { return c.Type.IsFloat() && c.Bits == 0 }
func isNegZero(c ir.Value) bool {
	return c.Type.Kind == ir.KindF32 && c.Bits == 0x80000000 || c.Type.Kind == ir.KindF16 && c.Bits == 0x8000
}
func isBoolLit(e ir.Expr, b bool) bool {
	v, ok := litVal(e)
	return ok && v.Type.Kind == ir.KindBool && v.Bool() == b
}

// rewrite applies one algebraic rule at the root of n, returning the
// replacement and the rule's name, or nil.
func rewrite(n ir.Expr) (ir.Expr, string) {
	switch x := n.(type) {
	case *ir.Binary:
		if r, rule := rewriteBinary(x); r != nil {
			return r, rule
		}
	case *ir.Unary:
		if in, ok := x.X.(*ir.Unary); ok && in.Op == x.Op {
			return in.X, "double " + x.Op.String()
		}
	case *ir.Select:
		if r, rule := rewriteSelect(x); r != nil {
			return r, rule
		}
	}
	if r := rewriteBoolean(n); r != nil {
		return r, "Boolean identity"
	}
	return nil, ""
}

func rewriteBinary(x *ir.Binary) (ir.Expr, string) {
	keep := func(e ir.Expr) bool { return ir.Identical(e.Type(), x.T) }
	if c := x.Op.Info().Class; (c == ir.ClassOrder || c == ir.ClassEquality) && x.X.Type().IsInteger() {
		if v, ok := compareRanges(x.Op, x.X, x.Y); ok {
			return &ir.Lit{Pos: x.Pos, Val: ir.BoolVal(v)}, "comparison decided by operand ranges"
		}
	}
	if (x.Op == ir.OpAnd || x.Op == ir.OpOr) && ir.Identical(x.T, ir.Bool) {
		// On scalar bool, & and | are && and || without the short
		// circuit, which a twin (no effects in an expression) never needs.
		op := ir.OpLogAnd
		if x.Op == ir.OpOr {
			op = ir.OpLogOr
		}
		if r, rule := rewriteBinary(&ir.Binary{Pos: x.Pos, Op: op, X: x.X, Y: x.Y, T: x.T}); r != nil {
			return r, rule
		}
	}
	if (x.Op == ir.OpEq || x.Op == ir.OpNe) && ir.Identical(x.X.Type(), x.T) && x.T.Scalar().Kind == ir.KindBool {
		// b == true is b, b == false is !b; != the other way round.
		for _, p := range [][2]ir.Expr{{x.X, x.Y}, {x.Y, x.X}} {
			v, c := p[0], p[1]
			for _, lit := range []bool{true, false} {
				if isSplat(c, func(cv ir.Value) bool { return cv.Bool() == lit }) {
					if lit == (x.Op == ir.OpEq) {
						return v, "b == true"
					}
					return &ir.Unary{Pos: x.Pos, Op: ir.OpNot, X: v, T: x.T}, "b == false"
				}
			}
		}
	}
	switch x.Op {
	case ir.OpMul:
		for _, p := range [][2]ir.Expr{{x.X, x.Y}, {x.Y, x.X}} {
			v, c := p[0], p[1]
			switch {
			case isSplat(c, isOne) && keep(v):
				return v, "identity x*1"
			case isSplat(c, isMinusOne) && keep(v) && !x.T.IsMat(): // WGSL has no -m
				return &ir.Unary{Pos: x.Pos, Op: ir.OpNeg, X: v, T: x.T}, "identity x*-1"
			case x.T.IsInteger() && isSplat(c, isIntZero):
				return &ir.Lit{Pos: x.Pos, Val: ir.Zero(x.T)}, "identity x*0"
			}
		}
	case ir.OpDiv:
		if isSplat(x.Y, isOne) && keep(x.X) {
			return x.X, "identity x/1"
		}
	case ir.OpAdd:
		for _, p := range [][2]ir.Expr{{x.X, x.Y}, {x.Y, x.X}} {
			if (isSplat(p[1], isIntZero) || isSplat(p[1], isNegZero)) && keep(p[0]) {
				return p[0], "identity x+0"
			}
		}
	case ir.OpSub:
		if (isSplat(x.Y, isIntZero) || isSplat(x.Y, isPosZero)) && keep(x.X) {
			return x.X, "identity x-0"
		}
	case ir.OpLogAnd:
		if u, ok := x.Y.(*ir.Unary); ok && u.Op == ir.OpNot {
			if rest, ok := dropConjunct(u.X, x.X); ok {
				return &ir.Binary{Pos: x.Pos, Op: ir.OpLogAnd, X: x.X, Y: not(rest), T: ir.Bool}, "a && !(a && b)"
			}
		}
		switch {
		case isBoolLit(x.X, true):
			return x.Y, "true && x"
		case isBoolLit(x.Y, true):
			return x.X, "x && true"
		case isBoolLit(x.X, false), isBoolLit(x.Y, false):
			return &ir.Lit{Pos: x.Pos, Val: ir.BoolVal(false)}, "false && x"
		case exprEqual(x.X, x.Y):
			return x.X, "x && x"
		case isNegation(x.X, x.Y) || isNegation(x.Y, x.X):
			return &ir.Lit{Pos: x.Pos, Val: ir.BoolVal(false)}, "x && !x"
		}
	case ir.OpLogOr:
		switch {
		case isBoolLit(x.X, false):
			return x.Y, "false || x"
		case isBoolLit(x.Y, false):
			return x.X, "x || false"
		case isBoolLit(x.X, true), isBoolLit(x.Y, true):
			return &ir.Lit{Pos: x.Pos, Val: ir.BoolVal(true)}, "true || x"
		case exprEqual(x.X, x.Y):
			return x.X, "x || x"
		case isNegation(x.X, x.Y) || isNegation(x.Y, x.X):
			return &ir.Lit{Pos: x.Pos, Val: ir.BoolVal(true)}, "x || !x"
		}
	}
	return nil, ""
}

func rewriteSelect(x *ir.Select) (ir.Expr, string) {
	if c, ok := litVal(x.Cond); ok {
		if c.Type.Kind == ir.KindBool {
			if c.Bool() {
				return x.True, "constant-condition select"
			}
			return x.False, "constant-condition select"
		}
		all, none := true, true
		for _, e := range c.Elems {
			all = all && e.Bool()
			none = none && !e.Bool()
		}
		if all {
			return x.True, "constant-condition select"
		}
		if none {
			return x.False, "constant-condition select"
		}
	}
	if exprEqual(x.False, x.True) {
		return x.True, "select(a, a, c)"
	}
	if isSplat(x.False, func(v ir.Value) bool { return v.Type.Kind == ir.KindBool && !v.Bool() }) &&
		isSplat(x.True, func(v ir.Value) bool { return v.Type.Kind == ir.KindBool && v.Bool() }) &&
		ir.Identical(x.Cond.Type(), x.T) {
		return x.Cond, "c ? true : false"
	}
	if isSplat(x.False, func(v ir.Value) bool { return v.Type.Kind == ir.KindBool && v.Bool() }) &&
		isSplat(x.True, func(v ir.Value) bool { return v.Type.Kind == ir.KindBool && !v.Bool() }) &&
		ir.Identical(x.Cond.Type(), x.T) {
		return &ir.Unary{Pos: x.Pos, Op: ir.OpNot, X: x.Cond, T: x.T}, "c ? false : true"
	}
	if u, ok := x.Cond.(*ir.Unary); ok && u.Op == ir.OpNot {
		return &ir.Select{Pos: x.Pos, False: x.True, True: x.False, Cond: u.X, T: x.T}, "select of !c"
	}
	if in, ok := x.True.(*ir.Select); ok && exprEqual(in.Cond, x.Cond) {
		return &ir.Select{Pos: x.Pos, False: x.False, True: in.True, Cond: x.Cond, T: x.T}, "nested select on one condition"
	}
	if in, ok := x.False.(*ir.Select); ok && exprEqual(in.Cond, x.Cond) {
		return &ir.Select{Pos: x.Pos, False: in.False, True: x.True, Cond: x.Cond, T: x.T}, "nested select on one condition"
	}
	if ir.Identical(x.Cond.Type(), x.T) {
		// Boolean selects whose condition is an arm: c ? b : c is c && b,
		// c ? c : a is c || a (& and | lane-wise for vectors).
		and, or := ir.OpLogAnd, ir.OpLogOr
		if x.T.Kind == ir.KindVec {
			and, or = ir.OpAnd, ir.OpOr
		}
		if exprEqual(x.False, x.Cond) {
			return &ir.Binary{Pos: x.Pos, Op: and, X: x.Cond, Y: x.True, T: x.T}, "select(c, b, c)"
		}
		if exprEqual(x.True, x.Cond) {
			return &ir.Binary{Pos: x.Pos, Op: or, X: x.Cond, Y: x.False, T: x.T}, "select(a, c, c)"
		}
	}
	return nil, ""
}

// dropConjunct returns the conjunction e (a && b && …) without its
// conjunct a, when it has one and is not just a.
func dropConjunct(e, a ir.Expr) (ir.Expr, bool) {
	b, ok := e.(*ir.Binary)
	if !ok || b.Op != ir.OpLogAnd {
		return nil, false
	}
	if exprEqual(b.Y, a) {
		return b.X, true
	}
	if exprEqual(b.X, a) {
		return b.Y, true
	}
	if rest, ok := dropConjunct(b.X, a); ok {
		return &ir.Binary{Pos: b.Pos, Op: ir.OpLogAnd, X: rest, Y: b.Y, T: ir.Bool}, true
	}
	return nil, false
}

// not returns !e, folding a negated negation or literal.
func not(e ir.Expr) ir.Expr {
	if u, ok := e.(*ir.Unary); ok && u.Op == ir.OpNot {
		return u.X
	}
	if v, ok := litVal(e); ok {
		return &ir.Lit{Pos: e.Position(), Val: ir.BoolVal(!v.Bool())}
	}
	return &ir.Unary{Pos: e.Position(), Op: ir.OpNot, X: e, T: e.Type()}
}

// intRange returns bounds lo ≤ e ≤ hi of an integer scalar expression
// (as int64; u32 values are nonnegative): exact for literals, derived
// through min, max, clamp, & and % by a constant, else the type's range.
func intRange(e ir.Expr) (lo, hi int64) {
	t := e.Type()
	tlo, thi := int64(math.MinInt32), int64(math.MaxInt32)
	if t.Kind == ir.KindU32 {
		tlo, thi = 0, math.MaxUint32
	}
	if v, ok := litVal(e); ok {
		return v.Int64(), v.Int64()
	}
	switch x := e.(type) {
	case *ir.BuiltinCall:
		switch x.Fn {
		case ir.BMin, ir.BMax:
			alo, ahi := intRange(x.Args[0])
			blo, bhi := intRange(x.Args[1])
			if x.Fn == ir.BMin {
				return min(alo, blo), min(ahi, bhi)
			}
			return max(alo, blo), max(ahi, bhi)
		case ir.BClamp:
			// clamp(e, l, h) = min(max(e, l), h) for integers.
			llo, _ := intRange(x.Args[1])
			_, hhi := intRange(x.Args[2])
			_, lhi := intRange(x.Args[1])
			hlo, _ := intRange(x.Args[2])
			return min(llo, hlo), max(lhi, hhi)
		}
	case *ir.Binary:
		if t.Kind == ir.KindU32 {
			switch x.Op {
			case ir.OpAnd:
				_, ahi := intRange(x.X)
				_, bhi := intRange(x.Y)
				return 0, min(ahi, bhi)
			case ir.OpRem:
				if c, ok := litVal(x.Y); ok && c.Bits != 0 {
					_, ahi := intRange(x.X)
					return 0, min(ahi, int64(c.Bits)-1)
				}
			}
		}
	}
	return tlo, thi
}

// compareRanges decides an integer comparison from its operands' ranges,
// when every pair of values gives the same answer.
func compareRanges(op ir.BinaryOp, a, b ir.Expr) (result, ok bool) {
	if isLit(a) && isLit(b) {
		return false, false // constant evaluation's business
	}
	alo, ahi := intRange(a)
	blo, bhi := intRange(b)
	switch op {
	case ir.OpLt:
		if ahi < blo {
			return true, true
		}
		if alo >= bhi {
			return false, true
		}
	case ir.OpLe:
		if ahi <= blo {
			return true, true
		}
		if alo > bhi {
			return false, true
		}
	case ir.OpGt:
		return compareRanges(ir.OpLt, b, a)
	case ir.OpGe:
		return compareRanges(ir.OpLe, b, a)
	case ir.OpEq, ir.OpNe:
		if ahi < blo || bhi < alo {
			return op == ir.OpNe, true
		}
	}
	return false, false
}

// isNegation reports whether b is !a.
func isNegation(a, b ir.Expr) bool {
	u, ok := b.(*ir.Unary)
	return ok && u.Op == ir.OpNot && exprEqual(u.X, a)
}

// exprEqual reports whether a and b are the same expression (same shape,
// operators, names and literal bits). Twin expressions are pure, so equal
// expressions evaluated at one point have equal values.
func exprEqual(a, b ir.Expr) bool {
	if a == b {
		return true
	}
	switch x := a.(type) {
	case *ir.Lit:
		y, ok := b.(*ir.Lit)
		return ok && ir.Equal(x.Val, y.Val)
	case *ir.Ident:
		y, ok := b.(*ir.Ident)
		return ok && x.Name == y.Name && x.Ref == y.Ref
	case *ir.Unary:
		y, ok := b.(*ir.Unary)
		return ok && x.Op == y.Op && exprEqual(x.X, y.X)
	case *ir.Binary:
		y, ok := b.(*ir.Binary)
		return ok && x.Op == y.Op && exprEqual(x.X, y.X) && exprEqual(x.Y, y.Y)
	case *ir.Select:
		y, ok := b.(*ir.Select)
		return ok && exprEqual(x.False, y.False) && exprEqual(x.True, y.True) && exprEqual(x.Cond, y.Cond)
	case *ir.BuiltinCall:
		y, ok := b.(*ir.BuiltinCall)
		return ok && x.Fn == y.Fn && exprsEqual(x.Args, y.Args)
	case *ir.Construct:
		y, ok := b.(*ir.Construct)
		return ok && ir.Identical(x.T, y.T) && exprsEqual(x.Args, y.Args)
	case *ir.Convert:
		y, ok := b.(*ir.Convert)
		return ok && ir.Identical(x.T, y.T) && exprEqual(x.X, y.X)
	case *ir.Bitcast:
		y, ok := b.(*ir.Bitcast)
		return ok && ir.Identical(x.T, y.T) && exprEqual(x.X, y.X)
	case *ir.Index:
		y, ok := b.(*ir.Index)
		return ok && exprEqual(x.X, y.X) && exprEqual(x.Index, y.Index)
	case *ir.Member:
		y, ok := b.(*ir.Member)
		return ok && x.Field == y.Field && exprEqual(x.X, y.X)
	case *ir.Swizzle:
		y, ok := b.(*ir.Swizzle)
		if !ok || len(x.Comps) != len(y.Comps) || !exprEqual(x.X, y.X) {
			return false
		}
		for i := range x.Comps {
			if x.Comps[i] != y.Comps[i] {
				return false
			}
		}
		return true
	}
	return false
}

func exprsEqual(a, b []ir.Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !exprEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}
