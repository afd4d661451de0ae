package wgsl

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// convertMatrix checks matCxR<T>(e) for e a matCxR<S>, S ≠ T (WGSL
// #matrix-builtin: the conversion of each component, f16 ↔ f32). The IR's
// conversions are of scalars and vectors (ir.Convert), so the conversion
// lowers to the matrix of its converted columns, matCxR<T>(vecR<T>(e[0]),
// …): a constant e folds; an e without calls (an identifier, a member or
// an index of one; it reads memory only) is evaluated once per column,
// which reads the same value each time; an e that calls a function is
// passed once to a helper function that converts its parameter so
// (matConvHelper).
func (c *chkCtx) convertMatrix(t *chkType, a chkOp, off int32) chkOp {
	col := t.elem
	if a.c != nil {
		el := make([]cVal, t.n)
		for i, e := range a.c.el {
			v, err := cvConvert(e, col)
			if err != nil {
				return c.cvResult(off, v, err, t)
			}
			el[i] = v
		}
		return c.constOp(cVal{t: t, el: el}, off)
	}
	if !callFree(a.e) {
		// Evaluated once, as the argument of a helper function that
		// converts its parameter column by column.
		name := c.mc.matConvHelper(a.t, t, c.pos(off))
		return chkOp{t: t, e: &ir.Call{Pos: c.pos(off), Func: name, Args: []ir.Expr{a.e}, T: t.toIR()}, off: off}
	}
	return chkOp{t: t, e: matConvColumns(a.e, a.t, t, c.pos(off)), off: off}
}

// matConvColumns is matCxR<T>(vecR<T>(e[0]), …) for e of matrix type from,
// a call-free expression evaluated once per column.
func matConvColumns(e ir.Expr, from, t *chkType, pos ir.Pos) ir.Expr {
	col := t.elem
	args := make([]ir.Expr, t.n)
	for i := range args {
		x := e
		if i > 0 {
			x = ir.CloneExpr(e)
		}
		idx := &ir.Index{Pos: pos, X: x, Index: &ir.Lit{Pos: pos, Val: ir.I32Val(int32(i))}, T: from.elem.toIR()}
		args[i] = &ir.Convert{Pos: pos, T: col.toIR(), X: idx}
	}
	return &ir.Construct{Pos: pos, T: t.toIR(), Args: args}
}

// matConvHelper returns the name of the module's helper function that
// converts a from matrix to a t matrix (fn NAME(m: FROM) -> T { return
// T(vecR<T>(m[0]), …); }), made at the first conversion that needs one
// (a call's result: matConvColumns would repeat the call) at pos. Its
// name is one no declaration of the module has; assemble adds the
// helpers a function of the IR calls. The printed module declares it like
// any function, so it round-trips.
func (mc *chkModule) matConvHelper(from, t *chkType, pos ir.Pos) string {
	key := from.String() + "->" + t.String()
	if f := mc.matConv[key]; f != nil {
		return f.Name
	}
	base := fmt.Sprintf("gpudiff_mat%dx%d_%v_to_%v", t.n, t.elem.n, from.elem.elem, t.elem.elem)
	name := base
	for i := 1; mc.byName[name] != nil || mc.matConvTaken(name); i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	prm := &ir.Param{Pos: pos, Name: "m", T: from.toIR()}
	arg := &ir.Ident{Pos: pos, Name: "m", T: prm.T, Ref: ir.RefParam}
	f := &ir.Func{Pos: pos, Name: name, Params: []*ir.Param{prm}, Result: t.toIR(),
		Body: &ir.Block{Pos: pos, Stmts: []ir.Stmt{&ir.Return{Pos: pos, Value: matConvColumns(arg, from, t, pos)}}}}
	if mc.matConv == nil {
		mc.matConv = map[string]*ir.Func{}
	}
	mc.matConv[key] = f
	mc.matConvOrder = append(mc.matConvOrder, f)
	return name
}

func (mc *chkModule) matConvTaken(name string) bool {
	for _, f := range mc.matConvOrder {
		if f.Name == name {
			return true
		}
	}
	return false
}

// addMatConvHelpers appends to m the helpers (matConvHelper) that its
// functions call.
func (mc *chkModule) addMatConvHelpers(m *ir.Module) {
	if len(mc.matConvOrder) == 0 {
		return
	}
	called := map[string]bool{}
	for _, f := range m.Funcs {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if c, ok := n.(*ir.Call); ok {
				called[c.Func] = true
			}
			return true
		})
	}
	for _, f := range mc.matConvOrder {
		if called[f.Name] {
			m.Funcs = append(m.Funcs, f)
		}
	}
}

// callFree reports whether e calls no function and does no atomic or
// impure builtin operation: evaluating it again gives the same value and
// no effect (its memory reads aside, which nothing in between writes).
func callFree(e ir.Expr) bool {
	ok := true
	ir.Inspect(e, func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Call, *ir.Atomic:
			ok = false
		case *ir.BuiltinCall:
			if !x.Fn.Info().Pure() {
				ok = false
			}
		}
		return ok
	})
	return ok
}
