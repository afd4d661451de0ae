package flatten

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/ir"
)

// TestStrictListsResiduals: the strict check names every residual of a
// twin — constant-condition select, unfolded identity, all-constant call,
// !const, a statement without effect — at its source position, in order.
func TestStrictListsResiduals(t *testing.T) {
	x := &ir.Ident{Name: "x", T: ir.F32, Ref: ir.RefParam}
	at := func(l, c int32) ir.Pos { return ir.Pos{Line: l, Col: c} }
	f32 := func(v float32) *ir.Lit { return &ir.Lit{Val: ir.F32Val(v)} }
	a := &ir.Ident{Name: "a", T: ir.F32, Ref: ir.RefVar}
	twin := &ir.Func{Name: "f_flat", Params: []*ir.Param{{Name: "x", T: ir.F32}}, Result: ir.F32, Body: ir.NewBlock(ir.Pos{},
		&ir.Decl{Pos: at(2, 3), Name: "a", T: ir.F32, Mutable: true,
			Init: &ir.Select{Pos: at(2, 14), False: x, True: f32(1), Cond: &ir.Lit{Val: ir.BoolVal(true)}, T: ir.F32}},
		&ir.Assign{Pos: at(3, 3), LHS: a, RHS: &ir.Binary{Pos: at(3, 9), Op: ir.OpMul, X: a, Y: f32(1), T: ir.F32}},
		&ir.Decl{Pos: at(4, 3), Name: "c", T: ir.I32, Init: &ir.BuiltinCall{Pos: at(4, 16), Fn: ir.BMin,
			Args: []ir.Expr{&ir.Lit{Val: ir.I32Val(2)}, &ir.Lit{Val: ir.I32Val(3)}}, T: ir.I32}},
		&ir.Decl{Pos: at(5, 3), Name: "d", T: ir.Bool, Init: &ir.Unary{Pos: at(5, 17), Op: ir.OpNot, X: &ir.Lit{Val: ir.BoolVal(true)}, T: ir.Bool}},
		&ir.Assign{Pos: at(6, 3), LHS: a, RHS: a},
		&ir.Return{Pos: at(7, 3), Value: a},
	)}
	p := &pipe{m: &ir.Module{File: "t.wgsl"}, twin: twin}
	var got []string
	for _, e := range residuals(p) {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		"t.wgsl:2:14: flatten: strict: residual constant-condition select left unfolded: select(x, 1.0f, true)",
		"t.wgsl:3:9: flatten: strict: residual identity x*1 left unfolded: a * 1.0f",
		"t.wgsl:4:16: flatten: strict: residual all-constant call min(…) left unfolded: min(2i, 3i)",
		"t.wgsl:5:17: flatten: strict: residual !const left unfolded: !true",
		"t.wgsl:6:3: flatten: strict: residual statement without effect left: a = a;",
	}, got)
	assert.Contains(t, ir.PrintFunc(twin), "var a: f32 = select(x, 1.0f, true);\n  a = a * 1.0f;\n", "the check does not change the twin")
}

// TestStrictListsBooleanResiduals: the Boolean residuals of issue 12 — a
// store of a location's own value spelled as a select, and a mask that is
// a contradiction hidden in a conjunction chain — fail the strict check.
func TestStrictListsBooleanResiduals(t *testing.T) {
	sc := &ir.Ident{Name: "sc_cond_1", T: ir.Bool, Ref: ir.RefVar}
	g := &ir.Ident{Name: "g1", T: ir.Bool, Ref: ir.RefGlobal}
	live := &ir.Ident{Name: "live_13", T: ir.Bool, Ref: ir.RefLet}
	at := func(l, c int32) ir.Pos { return ir.Pos{Line: l, Col: c} }
	twin := &ir.Func{Name: "f_flat", Result: ir.Void, Body: ir.NewBlock(ir.Pos{},
		&ir.Decl{Pos: at(2, 3), Name: "sc_cond_1", T: ir.Bool, Mutable: true, Init: g},
		&ir.Assign{Pos: at(3, 3), LHS: sc, RHS: &ir.Select{Pos: at(3, 15), False: sc, True: &ir.Lit{Val: ir.BoolVal(true)}, Cond: sc, T: ir.Bool}},
		&ir.Decl{Pos: at(4, 3), Name: "p_26", T: ir.Bool, Init: &ir.Binary{Pos: at(4, 20), Op: ir.OpLogAnd,
			X: &ir.Binary{Op: ir.OpLogAnd, X: live, Y: &ir.Unary{Op: ir.OpNot, X: g, T: ir.Bool}, T: ir.Bool}, Y: g, T: ir.Bool}},
	)}
	p := &pipe{m: &ir.Module{File: "t.wgsl"}, twin: twin}
	var got []string
	for _, e := range residuals(p) {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		"t.wgsl:3:15: flatten: strict: residual select(c, b, c) left unfolded: select(sc_cond_1, true, sc_cond_1)",
		"t.wgsl:4:20: flatten: strict: residual Boolean identity left unfolded: live_13 && !g1 && g1",
	}, got)
}

// TestPassOrderChecked: the pipeline table obeys its ordering constraints,
// and the check rejects a table that breaks one, names an unknown pass,
// or splits the cleanup rows.
func TestPassOrderChecked(t *testing.T) {
	assert.NoError(t, checkPassOrder(passes, passOrder))
	assert.Equal(t, []string{"precheck", "lower", "fold", "maskprop", "constprop", "copyprop", "forward", "dse", "keepabi", "finalcheck", "strict"}, PassNames())

	swapped := append([]pass(nil), passes...)
	swapped[4], swapped[5] = swapped[5], swapped[4] // copyprop before constprop
	assert.EqualError(t, checkPassOrder(swapped, passOrder), "flatten: pass constprop must run before copyprop: a constant is better than a copy")

	unknown := append(append([]struct{ a, b, why string }(nil), passOrder...), struct{ a, b, why string }{"fold", "gvn", "x"})
	assert.EqualError(t, checkPassOrder(passes, unknown), "flatten: ordering constraint fold < gvn names an unknown pass")

	split := append([]pass(nil), passes...)
	split[3], split[8] = split[8], split[3] // keepabi among the cleanup rows
	assert.ErrorContains(t, checkPassOrder(split, nil), "is not contiguous with the other cleanup passes")
}
