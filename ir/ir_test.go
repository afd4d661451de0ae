package ir

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func id(name string, t *Type, k RefKind) *Ident { return &Ident{Name: name, T: t, Ref: k} }
func lit(v Value) *Lit                          { return &Lit{Val: v} }

// shade is the reference text's §8.1 example, built by hand.
func shade() *Module {
	x := func() *Ident { return id("x", F32, RefParam) }
	f := &Func{Name: "shade", Params: []*Param{{Name: "x", T: F32}}, Result: F32, Body: NewBlock(Pos{},
		&If{Cond: &Binary{Op: OpGt, X: x(), Y: lit(F32Val(0.5)), T: Bool},
			Then: NewBlock(Pos{}, &Return{Value: &Binary{Op: OpMul, X: x(), Y: lit(F32Val(2)), T: F32}}),
			Else: NewBlock(Pos{})},
		&Return{Value: x()},
	)}
	return &Module{File: "shade.wgsl", Funcs: []*Func{f}}
}

func TestPrintShade(t *testing.T) {
	m := shade()
	require.NoError(t, Verify(m))
	want := "fn shade(x: f32) -> f32 {\n  if (x > 0.5f) {\n    return x * 2.0f;\n  }\n  return x;\n}\n"
	assert.Equal(t, want, Print(m))
}

func TestVerifyRejectsFallOffEnd(t *testing.T) {
	m := shade()
	f := m.Funcs[0]
	f.Body.Stmts = f.Body.Stmts[:1]
	err := Verify(m)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "can reach its end without returning")
}

func TestNormalizeRenamesShadowing(t *testing.T) {
	// fn f(x: i32) -> i32 { let y = x; { let x = y + 1; return x; } }
	inner := NewBlock(Pos{},
		&Decl{Name: "x", T: I32, Init: &Binary{Op: OpAdd, X: id("y", I32, RefLet), Y: lit(I32Val(1)), T: I32}},
		&Return{Value: id("x", I32, RefLet)})
	f := &Func{Name: "f", Params: []*Param{{Name: "x", T: I32}}, Result: I32, Body: NewBlock(Pos{},
		&Decl{Name: "y", T: I32, Init: id("x", I32, RefParam)}, inner)}
	m := &Module{Funcs: []*Func{f}}
	require.NoError(t, Normalize(m))
	out := Print(m)
	assert.Contains(t, out, "let x_1: i32 = y + 1i;")
	assert.Contains(t, out, "return x_1;")
	assert.Contains(t, out, "let y: i32 = x;")
}

func TestNormalizeLowersEffectfulShortCircuit(t *testing.T) {
	// var<private> g: i32; fn eff() -> bool { g = g + 1; return true; }
	// fn k(a: bool) -> i32 { if (a && eff()) { return 1; } return g; }
	g := &Global{Name: "g", T: I32}
	gid := func() *Ident { return id("g", I32, RefGlobal) }
	eff := &Func{Name: "eff", Result: Bool, Body: NewBlock(Pos{},
		&Assign{LHS: gid(), RHS: &Binary{Op: OpAdd, X: gid(), Y: lit(I32Val(1)), T: I32}},
		&Return{Value: lit(BoolVal(true))})}
	k := &Func{Name: "k", Params: []*Param{{Name: "a", T: Bool}}, Result: I32, Body: NewBlock(Pos{},
		&If{Cond: &Binary{Op: OpLogAnd, X: id("a", Bool, RefParam), Y: &Call{Func: "eff", T: Bool}, T: Bool},
			Then: NewBlock(Pos{}, &Return{Value: lit(I32Val(1))}), Else: NewBlock(Pos{})},
		&Return{Value: gid()})}
	m := &Module{Globals: []*Global{g}, Funcs: []*Func{eff, k}}
	require.NoError(t, Normalize(m))
	out := PrintFunc(k)
	assert.NotContains(t, out, "&&")
	// The call now sits inside an if on the left operand.
	assert.True(t, strings.Index(out, "if (sc_cond)") < strings.Index(out, "eff()"), out)
	assert.Equal(t, []string{"k"}, m.Kernels())
}

func TestBoundLoopFor(t *testing.T) {
	// var i: i32 = 0; loop { if (!(i < 4)) { break; } continuing { i += 1; } }
	i := func() *Ident { return id("i", I32, RefVar) }
	loop := &Loop{
		Body: NewBlock(Pos{}, &If{Cond: &Unary{Op: OpNot, X: &Binary{Op: OpLt, X: i(), Y: lit(I32Val(4)), T: Bool}, T: Bool},
			Then: NewBlock(Pos{}, &Break{}), Else: NewBlock(Pos{})}),
		Continuing: NewBlock(Pos{}, &Assign{LHS: i(), Op: OpAdd, RHS: lit(I32Val(1))}),
	}
	b := NewBlock(Pos{}, &Decl{Name: "i", T: I32, Init: lit(I32Val(0)), Mutable: true}, loop)
	lb, err := BoundLoop(b, 1)
	require.NoError(t, err)
	// Entries with i = 0, 1, 2, 3 run the body; the fifth entry breaks.
	assert.Equal(t, 5, lb.MaxEntries)
	assert.True(t, lb.Exact)

	// A step of 3 from 0 below 10: i = 0, 3, 6, 9 then 12 exits.
	loop.Continuing.Stmts[0].(*Assign).RHS = lit(I32Val(3))
	loop.Body.Stmts[0].(*If).Cond.(*Unary).X.(*Binary).Y = lit(I32Val(10))
	lb, err = BoundLoop(b, 1)
	require.NoError(t, err)
	assert.Equal(t, 5, lb.MaxEntries)

	// i < min(n, 3) is bounded by 3.
	n := id("n", I32, RefParam)
	loop.Continuing.Stmts[0].(*Assign).RHS = lit(I32Val(1))
	loop.Body.Stmts[0].(*If).Cond = &Unary{Op: OpNot, T: Bool, X: &Binary{Op: OpLt, X: i(), T: Bool,
		Y: &BuiltinCall{Fn: BMin, Args: []Expr{n, lit(I32Val(3))}, T: I32}}}
	lb, err = BoundLoop(b, 1)
	require.NoError(t, err)
	assert.Equal(t, 4, lb.MaxEntries)

	// i < n is unbounded.
	loop.Body.Stmts[0].(*If).Cond = &Unary{Op: OpNot, T: Bool, X: &Binary{Op: OpLt, X: i(), Y: n, T: Bool}}
	_, err = BoundLoop(b, 1)
	assert.Error(t, err)

	// Counting up to INT_MAX by 2 from 0 wraps before it exits.
	loop.Continuing.Stmts[0].(*Assign).RHS = lit(I32Val(2))
	loop.Body.Stmts[0].(*If).Cond = &Unary{Op: OpNot, T: Bool, X: &Binary{Op: OpLt, X: i(), Y: lit(I32Val(2147483647)), T: Bool}}
	_, err = BoundLoop(b, 1)
	assert.Error(t, err)
}

func TestLayout(t *testing.T) {
	// WGSL "Alignment and Size" examples: struct { a: f32, b: vec3<f32> }
	// puts b at 16 and has size 32.
	s := &StructDecl{Name: "S", Fields: []Field{{Name: "a", Type: F32}, {Name: "b", Type: Vec(3, F32)}}}
	st := StructType(s)
	assert.Equal(t, []int{0, 16}, FieldOffsets(s))
	assert.Equal(t, 32, SizeOf(st))
	assert.Equal(t, 16, AlignOf(st))
	assert.Equal(t, 16, ArrayStride(ArrayOf(Vec(3, F32), 2)))
	assert.Equal(t, 8, SizeOf(Vec(2, U32)))
}

func TestCanonicalTextIgnoresNames(t *testing.T) {
	a := shade()
	b := shade()
	b.Funcs[0].Name = "other"
	b.Funcs[0].Params[0].Name = "y"
	Inspect(b.Funcs[0].Body, func(n Node) bool {
		if id, ok := n.(*Ident); ok {
			id.Name = "y"
		}
		return true
	})
	assert.NotEqual(t, ProgramText(a, "shade"), ProgramText(b, "other"))
	assert.Equal(t, CanonicalHash(a, "shade"), CanonicalHash(b, "other"))
	assert.Contains(t, CanonicalText(a, "shade"), "fn n0(n1: f32) -> f32")
	assert.Contains(t, CanonicalText(a, "shade"), "n1 * 2.0f", "literal suffixes untouched")
	// A program that differs in structure differs canonically.
	c := shade()
	c.Funcs[0].Body.Stmts[0].(*If).Cond.(*Binary).Op = OpLt
	assert.NotEqual(t, CanonicalHash(a, "shade"), CanonicalHash(c, "shade"))
}

// TestPrintAvoidsTemplateDiscovery: WGSL's template-list discovery
// (#template-lists-sec) treats `ident <` … `>` as a template unless a
// parenthesis, `;`, `&&` or `||` intervenes, so the printer must keep
// `a < b >> c` and `f(a < b, c > d)` from reading as templates.
func TestPrintAvoidsTemplateDiscovery(t *testing.T) {
	a, b, c, d := id("a", I32, RefParam), id("b", I32, RefParam), id("c", U32, RefParam), id("d", I32, RefParam)
	shr := &Binary{Op: OpShr, X: b, Y: c, T: I32}
	lt := &Binary{Op: OpLt, X: a, Y: shr, T: Bool}
	assert.Equal(t, "a < (b >> c)", PrintExpr(lt))
	gt := &Binary{Op: OpGt, X: d, Y: a, T: Bool}
	sel := &Select{False: &Binary{Op: OpLt, X: a, Y: b, T: Bool}, True: gt, Cond: lit(BoolVal(true)), T: Bool}
	assert.Equal(t, "select((a < b), d > a, true)", PrintExpr(sel))
	// Shift operands of > need no parentheses (no template can start there).
	assert.Equal(t, "d > b >> c", PrintExpr(&Binary{Op: OpGt, X: d, Y: shr, T: Bool}))
}

// TestVerifyContinuingSeesBodyDeclarations: a loop's continuing block and
// break-if may use the body's declarations (WGSL #continuing-statement).
func TestVerifyContinuingSeesBodyDeclarations(t *testing.T) {
	// fn f() -> i32 { var i: i32 = 0; loop { let step: i32 = 2; continuing { i += step; break if i > 5; } } return i; }
	i := func() *Ident { return id("i", I32, RefVar) }
	step := func() *Ident { return id("step", I32, RefLet) }
	loop := &Loop{
		Body:       NewBlock(Pos{}, &Decl{Name: "step", T: I32, Init: lit(I32Val(2))}),
		Continuing: NewBlock(Pos{}, &Assign{LHS: i(), Op: OpAdd, RHS: step()}),
		BreakIf:    &Binary{Op: OpGt, X: i(), Y: step(), T: Bool},
	}
	f := &Func{Name: "f", Result: I32, Body: NewBlock(Pos{},
		&Decl{Name: "i", T: I32, Init: lit(I32Val(0)), Mutable: true}, loop, &Return{Value: i()})}
	m := &Module{Funcs: []*Func{f}}
	require.NoError(t, Verify(m))
	// After the loop, the body's declaration is out of scope.
	f.Body.Stmts[2] = &Return{Value: step()}
	assert.Error(t, Verify(m))
}

func TestPruneUnreachable(t *testing.T) {
	ret := func(v int32) Stmt { return &Return{Value: lit(I32Val(v))} }
	x := func() *Ident { return id("x", I32, RefParam) }
	cond := &Binary{Op: OpGt, X: x(), Y: lit(I32Val(0)), T: Bool}
	// fn f(x: i32) -> i32 { { return 1; } return 2; }
	f := &Func{Name: "f", Params: []*Param{{Name: "x", T: I32}}, Result: I32, Body: NewBlock(Pos{},
		NewBlock(Pos{}, ret(1)), ret(2))}
	// fn g(x: i32) -> i32 { if (x > 0) { return 1; } else { return 3; } return 2; }
	g := &Func{Name: "g", Params: []*Param{{Name: "x", T: I32}}, Result: I32, Body: NewBlock(Pos{},
		&If{Cond: cond, Then: NewBlock(Pos{}, ret(1)), Else: NewBlock(Pos{}, ret(3))}, ret(2))}
	// fn h(x: i32) -> i32 { loop { if (x > 0) { break; } } return 2; }: the
	// loop can break, so the return stays.
	h := &Func{Name: "h", Params: []*Param{{Name: "x", T: I32}}, Result: I32, Body: NewBlock(Pos{},
		&Loop{Body: NewBlock(Pos{}, &If{Cond: CloneExpr(cond), Then: NewBlock(Pos{}, &Break{}), Else: NewBlock(Pos{})}), Continuing: NewBlock(Pos{})},
		ret(2))}
	m := &Module{Funcs: []*Func{f, g, h}}
	require.NoError(t, Normalize(m))
	assert.Len(t, f.Body.Stmts, 2, "Normalize drops code after jumps only")
	for _, fn := range m.Funcs {
		PruneUnreachable(fn.Body)
	}
	assert.Len(t, f.Body.Stmts, 1)
	assert.Len(t, g.Body.Stmts, 1)
	assert.Len(t, h.Body.Stmts, 2)
}

func TestPrintVoidBuiltinStatement(t *testing.T) {
	s := &ExprStmt{X: &BuiltinCall{Fn: BWorkgroupBarrier, T: Void}}
	assert.Equal(t, "workgroupBarrier();\n", PrintStmt(s, 0))
	s = &ExprStmt{X: &BuiltinCall{Fn: BAbs, Args: []Expr{lit(I32Val(-1))}, T: I32}}
	assert.Equal(t, "_ = abs(-1i);\n", PrintStmt(s, 0))
}

// A compound assignment is x = x op y (WGSL #compound-assignment): a
// constant zero divisor or a constant shift count ≥ 32 in it is the same
// shader-creation error as in the binary expression — the shrinker once
// saved `g %= 0u;` in a dead switch case, which the WGSL front end then
// refused to read back.
func TestVerifyRejectsConstantOperandsOfCompoundAssignment(t *testing.T) {
	for _, c := range []struct {
		op   BinaryOp
		rhs  Value
		want string
	}{
		{OpRem, U32Val(0), "constant zero divisor"},
		{OpDiv, I32Val(0), "constant zero divisor"},
		{OpShl, U32Val(32), "shift count ≥ 32"},
		{OpRem, U32Val(3), ""},
		{OpShr, U32Val(31), ""},
	} {
		typ := c.rhs.Type
		if c.op == OpShl || c.op == OpShr {
			typ = I32
		}
		f := &Func{Name: "k", Params: []*Param{{Name: "x", T: typ}}, Result: typ, Body: NewBlock(Pos{},
			&Decl{Name: "v", T: typ, Init: id("x", typ, RefParam), Mutable: true},
			&Assign{Op: c.op, LHS: id("v", typ, RefVar), RHS: lit(c.rhs)},
			&Return{Value: id("v", typ, RefVar)})}
		err := Verify(&Module{Funcs: []*Func{f}})
		if c.want == "" {
			assert.NoError(t, err, "%s= %v", c.op, c.rhs)
		} else if assert.Error(t, err, "%s= %v", c.op, c.rhs) {
			assert.Contains(t, err.Error(), c.want)
		}
	}
}
