package interp

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// exprGen builds random well-typed expressions over one parameter of each
// type in types (parameter i is named p<i>).
type exprGen struct {
	r     *rand.Rand
	types []*ir.Type
	arr   *ir.Type
	// exactOnly restricts f32 expressions to operations that are exact on
	// small integer values (+ - *, neg, abs, min, max, floor, select).
	exactOnly bool
}

func genTypes() []*ir.Type {
	return []*ir.Type{tBool, tI32, tU32, tF32, vecT(2, tI32), vecT(3, tF32), vecT(4, tU32), vecT(2, tBool), vecT(3, tI32), vecT(2, tF32)}
}

func (g *exprGen) params() []P {
	var ps []P
	for i, t := range g.types {
		ps = append(ps, P{fmt.Sprintf("p%d", i), t})
	}
	if g.arr != nil {
		ps = append(ps, P{"arr", g.arr})
	}
	return ps
}

func (g *exprGen) param(t *ir.Type) ir.Expr {
	for i, u := range g.types {
		if ir.Identical(t, u) {
			return param(fmt.Sprintf("p%d", i), t)
		}
	}
	return nil
}

// value returns a random value of t, favoring edge cases.
func (g *exprGen) value(t *ir.Type) ir.Value {
	r := g.r
	switch t.Kind {
	case ir.KindBool:
		return bv(r.Intn(2) == 0)
	case ir.KindI32, ir.KindU32:
		edges := []uint32{0, 1, 2, 31, 32, 33, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFE}
		if g.exactOnly || r.Intn(2) == 0 {
			return ir.ScalarVal(t, edges[r.Intn(len(edges))])
		}
		return ir.ScalarVal(t, r.Uint32())
	case ir.KindF32:
		if g.exactOnly {
			return fvv(float32(r.Intn(9) - 4))
		}
		edges := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, 3, 1e10, -1e10, math.MaxFloat32, -math.MaxFloat32,
			float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 0x1p-140, -0x1p-149, 0x1p-126, math.Pi, 2147483648, 4294967296}
		switch r.Intn(3) {
		case 0:
			return fvv(edges[r.Intn(len(edges))])
		case 1:
			return ir.F32Val(math.Float32frombits(r.Uint32()))
		}
		return fvv(float32(r.Intn(2001)-1000) / 8)
	}
	es := make([]ir.Value, t.Len)
	for i := range es {
		es[i] = g.value(t.Elem)
	}
	return ir.CompositeVal(t, es...)
}

func (g *exprGen) args() []ir.Value {
	var vs []ir.Value
	for _, p := range g.params() {
		vs = append(vs, g.value(p.t))
	}
	return vs
}

func (g *exprGen) leaf(t *ir.Type) ir.Expr {
	if p := g.param(t); p != nil && g.r.Intn(3) != 0 {
		return p
	}
	v := g.value(t)
	if t.Scalar().Kind == ir.KindF32 {
		// Literals must be finite f32 values (WGSL has no others).
		var fix func(v *ir.Value)
		fix = func(v *ir.Value) {
			if v.Elems != nil {
				for i := range v.Elems {
					fix(&v.Elems[i])
				}
			} else if nonFinite(v.Bits) {
				*v = fvv(2)
			}
		}
		fix(&v)
	}
	return lit(v)
}

// nonLit replaces a literal by the parameter of its type (or a
// non-literal expression of it), so that constant-operand rules of WGSL
// (zero divisors, shift counts, indices) cannot apply.
func (g *exprGen) nonLit(e ir.Expr) ir.Expr {
	if _, ok := e.(*ir.Lit); !ok {
		return e
	}
	if p := g.param(e.Type()); p != nil {
		return p
	}
	return construct(e.Type(), g.param(e.Type().Scalar())) // a splat
}

func withScalar(t, s *ir.Type) *ir.Type { return t.WithScalar(s) }

func (g *exprGen) expr(t *ir.Type, depth int) ir.Expr {
	r := g.r
	if depth <= 0 || r.Intn(5) == 0 {
		return g.leaf(t)
	}
	d := depth - 1
	s := t.Scalar()
	switch s.Kind {
	case ir.KindBool:
		return g.boolExpr(t, d)
	case ir.KindF32:
		if g.exactOnly {
			return g.exactF32(t, d)
		}
	}
	for {
		switch r.Intn(12) {
		case 0, 1: // arithmetic, maybe vector-scalar
			ops := []ir.BinaryOp{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv, ir.OpRem}
			xt, yt := t, t
			if t.Kind == ir.KindVec && r.Intn(3) == 0 {
				if r.Intn(2) == 0 {
					xt = s
				} else {
					yt = s
				}
			}
			op := ops[r.Intn(len(ops))]
			y := g.expr(yt, d)
			if op == ir.OpDiv || op == ir.OpRem {
				y = g.nonLit(y) // a constant zero divisor is a shader-creation error
			}
			return bin(op, g.expr(xt, d), y)
		case 2: // bitwise and shifts
			if !s.IsInteger() {
				continue
			}
			ops := []ir.BinaryOp{ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpShl, ir.OpShr}
			op := ops[r.Intn(len(ops))]
			if op == ir.OpShl || op == ir.OpShr {
				return bin(op, g.expr(t, d), g.nonLit(g.expr(withScalar(t, tU32), d)))
			}
			return bin(op, g.expr(t, d), g.expr(t, d))
		case 3: // unary
			switch {
			case s.Kind == ir.KindU32:
				return un(ir.OpCompl, g.expr(t, d))
			case s.Kind == ir.KindI32 && r.Intn(2) == 0:
				return un(ir.OpCompl, g.expr(t, d))
			}
			return un(ir.OpNeg, g.expr(t, d))
		case 4: // select
			ct := tBool
			if t.Kind == ir.KindVec && r.Intn(2) == 0 {
				ct = withScalar(t, tBool)
			}
			return sel(g.expr(t, d), g.expr(t, d), g.expr(ct, d))
		case 5: // conversion or bitcast from another numeric type
			from := []*ir.Type{tI32, tU32, tF32, tBool}[r.Intn(4)]
			if r.Intn(3) == 0 && from.Kind != ir.KindBool {
				return bitcast(t, g.expr(withScalar(t, from), d))
			}
			return conv(t, g.expr(withScalar(t, from), d))
		case 6, 7: // builtins
			if e := g.builtin(t, d); e != nil {
				return e
			}
		case 8: // vector constructor or swizzle
			if t.Kind == ir.KindVec {
				if r.Intn(2) == 0 {
					args := make([]ir.Expr, t.Len)
					for i := range args {
						args[i] = g.expr(s, d)
					}
					return construct(t, args...)
				}
				return construct(t, g.expr(s, d))
			}
			src := vecT(2+r.Intn(3), s)
			return swz(g.expr(src, d), uint8(r.Intn(src.Len)))
		case 9: // run-time index of an array or vector
			it := []*ir.Type{tI32, tU32}[r.Intn(2)]
			i := g.nonLit(g.expr(it, d)) // a constant index must be in bounds
			if ir.Identical(t, tI32) && g.arr != nil {
				return idx(param("arr", g.arr), i)
			}
			if t.IsScalar() {
				return idx(g.expr(vecT(2+r.Intn(3), s), d), i)
			}
		case 10: // dot product, length, distance
			if t.IsScalar() {
				vt := vecT(2+r.Intn(3), s)
				switch {
				case s.Kind != ir.KindF32 || r.Intn(3) == 0:
					return bi(ir.BDot, g.expr(vt, d), g.expr(vt, d))
				case r.Intn(2) == 0:
					return bi(ir.BLength, g.expr(vt, d))
				}
				return bi(ir.BDistance, g.expr(vt, d), g.expr(vt, d))
			}
		default:
			return g.leaf(t)
		}
	}
}

func (g *exprGen) builtin(t *ir.Type, d int) ir.Expr {
	r := g.r
	s := t.Scalar()
	var cands []ir.Builtin
	for b := ir.BAbs; b <= ir.BAny; b++ {
		cands = append(cands, b)
	}
	for tries := 0; tries < 10; tries++ {
		b := cands[r.Intn(len(cands))]
		info := b.Info()
		args := make([]ir.Expr, info.Args)
		switch b {
		case ir.BDot, ir.BLength, ir.BDistance, ir.BAll, ir.BAny:
			continue // scalar results from vectors: handled elsewhere
		case ir.BCross:
			if !ir.Identical(t, vecT(3, tF32)) {
				continue
			}
		case ir.BNormalize:
			if t.Kind != ir.KindVec || s.Kind != ir.KindF32 {
				continue
			}
		case ir.BExtractBits:
			if !s.IsInteger() {
				continue
			}
			return bi(b, g.expr(t, d), g.expr(tU32, d), g.expr(tU32, d))
		case ir.BInsertBits:
			if !s.IsInteger() {
				continue
			}
			return bi(b, g.expr(t, d), g.expr(t, d), g.expr(tU32, d), g.expr(tU32, d))
		case ir.BMix:
			if s.Kind != ir.KindF32 {
				continue
			}
			zt := t
			if t.Kind == ir.KindVec && r.Intn(2) == 0 {
				zt = s
			}
			return bi(b, g.expr(t, d), g.expr(t, d), g.expr(zt, d))
		}
		for i := range args {
			args[i] = g.expr(t, d)
		}
		ts := make([]*ir.Type, len(args))
		for i, a := range args {
			ts[i] = a.Type()
		}
		if rt, err := ir.BuiltinResultType(b, ts); err == nil && ir.Identical(rt, t) {
			return bi(b, args...)
		}
	}
	return nil
}

func (g *exprGen) boolExpr(t *ir.Type, d int) ir.Expr {
	r := g.r
	switch r.Intn(7) {
	case 0, 1: // comparison
		ops := []ir.BinaryOp{ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe}
		num := []*ir.Type{tI32, tU32, tF32}[r.Intn(3)]
		if g.exactOnly {
			num = tF32
		}
		ot := withScalar(t, num)
		return bin(ops[r.Intn(len(ops))], g.expr(ot, d), g.expr(ot, d))
	case 2:
		if t.Kind == ir.KindBool {
			return bin([]ir.BinaryOp{ir.OpLogAnd, ir.OpLogOr}[r.Intn(2)], g.expr(t, d), g.expr(t, d))
		}
		return bin(ir.OpAnd, g.expr(t, d), g.expr(t, d))
	case 3:
		return un(ir.OpNot, g.expr(t, d))
	case 4:
		return bin([]ir.BinaryOp{ir.OpAnd, ir.OpOr, ir.OpEq, ir.OpNe}[r.Intn(4)], g.expr(t, d), g.expr(t, d))
	case 5:
		if t.Kind == ir.KindBool && !g.exactOnly {
			return bi([]ir.Builtin{ir.BAll, ir.BAny}[r.Intn(2)], g.expr(vecT(2, tBool), d))
		}
		return sel(g.expr(t, d), g.expr(t, d), g.expr(tBool, d))
	}
	if g.exactOnly {
		return g.leaf(t)
	}
	return conv(t, g.expr(withScalar(t, []*ir.Type{tI32, tU32, tF32}[r.Intn(3)]), d))
}

// exactF32 builds f32 expressions that stay exact on small integers.
func (g *exprGen) exactF32(t *ir.Type, d int) ir.Expr {
	switch g.r.Intn(8) {
	case 0:
		return bin(ir.OpAdd, g.expr(t, d), g.expr(t, d))
	case 1:
		return bin(ir.OpSub, g.expr(t, d), g.expr(t, d))
	case 2:
		return bin(ir.OpMul, g.expr(t, d), g.expr(t, d))
	case 3:
		return un(ir.OpNeg, g.expr(t, d))
	case 4:
		return bi([]ir.Builtin{ir.BAbs, ir.BFloor, ir.BSign, ir.BTrunc}[g.r.Intn(4)], g.expr(t, d))
	case 5:
		return bi([]ir.Builtin{ir.BMin, ir.BMax, ir.BStep}[g.r.Intn(3)], g.expr(t, d), g.expr(t, d))
	case 6:
		return sel(g.expr(t, d), g.expr(t, d), g.expr(tBool, d))
	}
	return bi(ir.BFloor, bin(ir.OpDiv, g.expr(t, d), fL(2)))
}

// checkOutput verifies the shape invariants of an output of type t.
func checkOutput(t *ir.Type, o Output) error {
	if err := checkValue(o.Value, t); err != nil {
		return err
	}
	n := len(t.ComponentTypes())
	if (o.Indeterminate == nil) != (o.Tolerance == nil) {
		return fmt.Errorf("Indeterminate and Tolerance must be nil together")
	}
	if o.Indeterminate != nil {
		if len(o.Indeterminate) != n || len(o.Tolerance) != n {
			return fmt.Errorf("%d leaves but %d/%d flags", n, len(o.Indeterminate), len(o.Tolerance))
		}
		if o.Why == "" {
			return fmt.Errorf("no Why for %v", o)
		}
		for i, tol := range o.Tolerance {
			if !o.Indeterminate[i] && !(tol >= 0 && tol <= math.MaxFloat32) {
				return fmt.Errorf("leaf %d: bad tolerance %v", i, tol)
			}
		}
	} else if o.Why != "" {
		return fmt.Errorf("Why %q for an exact output", o.Why)
	}
	return nil
}

// TestInterpNeverPanics: for random well-typed expressions (wrapped in a
// kernel with a branch and a loop) and random arguments — NaN, infinities,
// subnormals, INT_MIN, out-of-bounds indices — Compile and Run succeed,
// never panic, and every output is well-formed.
func TestInterpNeverPanics(t *testing.T) {
	params := gopter.DefaultTestParameters()
	params.MinSuccessfulTests = 400
	properties := gopter.NewProperties(params)
	properties.Property("interp never panics and outputs are well-formed", prop.ForAll(
		func(seed int64) (ok bool, failure error) {
			defer func() {
				if p := recover(); p != nil {
					ok, failure = false, fmt.Errorf("seed %d: panic: %v", seed, p)
				}
			}()
			g := &exprGen{r: rand.New(rand.NewSource(seed)), types: genTypes(), arr: ir.ArrayOf(tI32, 3)}
			rt := g.types[g.r.Intn(len(g.types))]
			e1, e2 := g.expr(rt, 4), g.expr(rt, 3)
			cond := g.expr(tBool, 3)
			r := func() *ir.Ident { return local("r", rt) }
			body := []ir.Stmt{varDecl("r", rt, e1), if_(cond, assign(r(), e2))}
			body = append(body, forLoop("i", 0, 2, assign(r(), g.expr(rt, 2)))...)
			body = append(body, ret(r()))
			m := module(nil, fn("k", g.params(), rt, body...))
			p, err := Compile(m, "k")
			if err != nil {
				return false, fmt.Errorf("compile: %v\n%s", err, ir.Print(m))
			}
			var args [][]ir.Value
			for i := 0; i < 4; i++ {
				args = append(args, g.args())
			}
			invs, err := p.Run(args, Options{})
			if err != nil {
				return false, err
			}
			for i, inv := range invs {
				if inv.Err != nil {
					return false, inv.Err
				}
				if err := checkOutput(rt, inv.Outputs[0]); err != nil {
					return false, fmt.Errorf("invocation %d: %v\n%s", i, err, ir.Print(m))
				}
			}
			return true, nil
		},
		gen.Int64(),
	))
	properties.TestingRun(t)
}

// nativeF32 evaluates an exactOnly expression in float64, independently
// of the interpreter (small integers stay exact in float64).
func nativeF32(e ir.Expr, env map[string]ir.Value) ir.Value {
	ev := func(x ir.Expr) ir.Value { return nativeF32(x, env) }
	num := func(v ir.Value) float64 { return float64(v.F32()) }
	mk := func(x float64) ir.Value { return fvv(float32(x)) }
	switch e := e.(type) {
	case *ir.Lit:
		return e.Val
	case *ir.Ident:
		return env[e.Name]
	case *ir.Unary:
		x := ev(e.X)
		if e.Op == ir.OpNot {
			return bv(!x.Bool())
		}
		return mk(-num(x))
	case *ir.Select:
		if ev(e.Cond).Bool() {
			return ev(e.True)
		}
		return ev(e.False)
	case *ir.BuiltinCall:
		a := ev(e.Args[0])
		switch e.Fn {
		case ir.BAbs:
			return mk(math.Abs(num(a)))
		case ir.BFloor:
			return mk(math.Floor(num(a)))
		case ir.BTrunc:
			return mk(math.Trunc(num(a)))
		case ir.BSign:
			switch x := num(a); {
			case x > 0:
				return mk(1)
			case x < 0:
				return mk(-1)
			}
			return mk(0)
		case ir.BAll, ir.BAny:
			return bv(a.Elems[0].Bool() && a.Elems[1].Bool() || e.Fn == ir.BAny && (a.Elems[0].Bool() || a.Elems[1].Bool()))
		}
		b := ev(e.Args[1])
		switch e.Fn {
		case ir.BMin:
			return mk(math.Min(num(a), num(b)))
		case ir.BMax:
			return mk(math.Max(num(a), num(b)))
		}
		if num(a) <= num(b) { // step(edge, x)
			return mk(1)
		}
		return mk(0)
	case *ir.Binary:
		x := ev(e.X)
		if e.Op == ir.OpLogAnd && !x.Bool() || e.Op == ir.OpLogOr && x.Bool() {
			return x
		}
		y := ev(e.Y)
		if x.Type.Kind == ir.KindBool {
			switch e.Op {
			case ir.OpAnd, ir.OpLogAnd:
				return bv(x.Bool() && y.Bool())
			case ir.OpOr, ir.OpLogOr:
				return bv(x.Bool() || y.Bool())
			case ir.OpEq:
				return bv(x.Bool() == y.Bool())
			}
			return bv(x.Bool() != y.Bool())
		}
		a, b := num(x), num(y)
		switch e.Op {
		case ir.OpAdd:
			return mk(a + b)
		case ir.OpSub:
			return mk(a - b)
		case ir.OpMul:
			return mk(a * b)
		case ir.OpDiv:
			return mk(a / b)
		case ir.OpEq:
			return bv(a == b)
		case ir.OpNe:
			return bv(a != b)
		case ir.OpLt:
			return bv(a < b)
		case ir.OpLe:
			return bv(a <= b)
		case ir.OpGt:
			return bv(a > b)
		}
		return bv(a >= b)
	}
	panic(fmt.Sprintf("nativeF32: %T", e))
}

// TestIntegerValuedF32IsExact: expressions of + - *, neg, abs, floor,
// trunc, sign, min, max, step, floor(x / 2), select and comparisons over
// f32 integers in [-4, 4] (depth 3, so magnitudes stay below 2^24) come
// out exact, with the value native float64 arithmetic gives.
func TestIntegerValuedF32IsExact(t *testing.T) {
	properties := gopter.NewProperties(nil)
	properties.Property("integer-valued f32 expressions are exact", prop.ForAll(
		func(seed int64) (bool, error) {
			g := &exprGen{r: rand.New(rand.NewSource(seed)), types: []*ir.Type{tF32, tBool}, exactOnly: true}
			rt := []*ir.Type{tF32, tBool}[g.r.Intn(2)]
			e := g.expr(rt, 3)
			m := exprKernel(e, g.params()...)
			args := g.args()
			invs, err := Run(m, "k", [][]ir.Value{args}, Options{})
			if err != nil {
				return false, err
			}
			o := invs[0].Outputs[0]
			env := map[string]ir.Value{"p0": args[0], "p1": args[1]}
			want := nativeF32(e, env)
			if !exact(o) || !(ir.Equal(o.Value, want) || (rt == tF32 && o.Value.F32() == want.F32())) {
				return false, fmt.Errorf("%s with %v: got %s, want %v", ir.PrintExpr(e), args, desc(o), want)
			}
			return true, nil
		},
		gen.Int64(),
	))
	properties.TestingRun(t)
}
