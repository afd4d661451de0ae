package spirv

import (
	"fmt"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
)

var bothModes = []Options{{Mode: Portable, DebugNames: true}, {Mode: Raw, DebugNames: false}}

// scalarAndVectorTypes are bool, i32, u32, f32 and vec2..4 of each.
func scalarAndVectorTypes() []*ir.Type {
	var ts []*ir.Type
	for _, s := range []*ir.Type{ir.Bool, ir.I32, ir.U32, ir.F32} {
		ts = append(ts, s, ir.Vec(2, s), ir.Vec(3, s), ir.Vec(4, s))
	}
	return ts
}

// phonyKernel builds a module whose void kernel "k" takes params of the
// given types and evaluates each of exprs (built from those params) in a
// helper function of its own, called for its value (WGSL `_ = h(...)`).
// Every helper is emitted, so spirv-val checks each expression.
func phonyKernel(ptypes []*ir.Type, exprs []func(ps []ir.Expr) ir.Expr) *ir.Module {
	m := module()
	var ps []*ir.Param
	var refs []ir.Expr
	for i, t := range ptypes {
		n := fmt.Sprintf("p%d", i)
		ps = append(ps, &ir.Param{Name: n, T: t})
		refs = append(refs, param(n, t))
	}
	var calls []ir.Stmt
	for i, mk := range exprs {
		x := mk(refs)
		h := fn(fmt.Sprintf("h%d", i), ps, x.Type(), ret(x))
		m.Funcs = append(m.Funcs, h)
		calls = append(calls, exprStmt(callFn(h, refs...)))
	}
	m.Funcs = append(m.Funcs, fn("k", ps, ir.Void, calls...))
	return m
}

func validateBothModes(t *testing.T, m *ir.Module) {
	t.Helper()
	for _, o := range bothModes {
		emitValid(t, m, "k", o)
	}
}

// TestOperatorsValidate emits every unary and binary operator (and every
// compound assignment) on every scalar and vector type it is defined for,
// including scalar-vector mixing, and checks the modules with spirv-val.
func TestOperatorsValidate(t *testing.T) {
	types := scalarAndVectorTypes()
	for _, x := range types {
		var others []*ir.Type
		for _, y := range types {
			if ir.Identical(x, y) || (x.Scalar() == y.Scalar() && (x.Kind != ir.KindVec) != (y.Kind != ir.KindVec)) ||
				ir.Identical(y, x.WithScalar(ir.U32)) {
				others = append(others, y)
			}
		}
		for _, y := range others {
			var exprs []func([]ir.Expr) ir.Expr
			var stmts []ir.Stmt
			for op := ir.OpAdd; op <= ir.OpGe; op++ {
				rt, err := ir.BinaryResultType(op, x, y)
				if err != nil {
					continue
				}
				op := op
				exprs = append(exprs, func(ps []ir.Expr) ir.Expr { return bin(op, ps[0], ps[1]) })
				if op.Info().Compound && ir.Identical(rt, x) {
					v := fmt.Sprintf("v%d", op)
					stmts = append(stmts, varDecl(v, x, param("p0", x)), assignOp(op, local(v, x), param("p1", y)))
				}
			}
			if ir.Identical(x, y) {
				for op := ir.OpNeg; op <= ir.OpCompl; op++ {
					if _, err := ir.UnaryResultType(op, x); err == nil {
						op := op
						exprs = append(exprs, func(ps []ir.Expr) ir.Expr { return un(op, ps[0]) })
					}
				}
			}
			if len(exprs) == 0 {
				continue
			}
			t.Run(fmt.Sprintf("%v,%v", x, y), func(t *testing.T) {
				m := phonyKernel([]*ir.Type{x, y}, exprs)
				if len(stmts) > 0 {
					m.Funcs = append([]*ir.Func{fn("compound", params("p0", x, "p1", y), ir.Void, stmts...)}, m.Funcs...)
					k := m.Funcs[len(m.Funcs)-1]
					k.Body.Stmts = append(k.Body.Stmts, exprStmt(callFn(m.Funcs[0], param("p0", x), param("p1", y))))
				}
				validateBothModes(t, m)
			})
		}
	}
}

// builtinSignatures returns every argument-type list of the subset's
// scalar and vector types that b accepts.
func builtinSignatures(b ir.Builtin) [][]*ir.Type {
	var out [][]*ir.Type
	n := b.Info().Args
	try := func(ts ...*ir.Type) {
		if _, err := ir.BuiltinResultType(b, ts); err == nil {
			out = append(out, ts)
		}
	}
	for _, t := range scalarAndVectorTypes() {
		same := make([]*ir.Type, n)
		for i := range same {
			same[i] = t
		}
		try(same...)
		switch n {
		case 3:
			try(t, t, ir.F32)      // mix(vecN, vecN, f32)
			try(t, ir.U32, ir.U32) // extractBits
		case 4:
			try(t, t, ir.U32, ir.U32) // insertBits
		}
	}
	return out
}

// TestBuiltinsValidate emits every pure builtin of the subset on every
// overload (both modes) and checks the modules with spirv-val.
func TestBuiltinsValidate(t *testing.T) {
	for b := ir.BAbs; b <= ir.BAny; b++ {
		sigs := builtinSignatures(b)
		if len(sigs) == 0 {
			t.Errorf("%v: no overload found among scalar and vector types", b)
			continue
		}
		t.Run(b.String(), func(t *testing.T) {
			for _, sig := range sigs {
				m := phonyKernel(sig, []func([]ir.Expr) ir.Expr{func(ps []ir.Expr) ir.Expr { return bi(b, ps...) }})
				validateBothModes(t, m)
			}
		})
	}
}

// TestConversionsValidate emits every value conversion and bitcast
// between scalar types and between vectors of one width.
func TestConversionsValidate(t *testing.T) {
	for _, w := range []int{1, 2, 3, 4} {
		shape := func(s *ir.Type) *ir.Type {
			if w == 1 {
				return s
			}
			return ir.Vec(w, s)
		}
		for _, from := range []*ir.Type{ir.Bool, ir.I32, ir.U32, ir.F32} {
			var exprs []func([]ir.Expr) ir.Expr
			for _, to := range []*ir.Type{ir.Bool, ir.I32, ir.U32, ir.F32} {
				to := shape(to)
				exprs = append(exprs, func(ps []ir.Expr) ir.Expr { return conv(to, ps[0]) })
				if from.Kind != ir.KindBool && to.Scalar().Kind != ir.KindBool {
					exprs = append(exprs, func(ps []ir.Expr) ir.Expr { return bitcast(to, ps[0]) })
				}
			}
			t.Run(fmt.Sprintf("from %v", shape(from)), func(t *testing.T) {
				validateBothModes(t, phonyKernel([]*ir.Type{shape(from)}, exprs))
			})
		}
	}
}
