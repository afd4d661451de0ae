package wgsl

import (
	"math"
	"strings"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ptParse parses src, requiring success.
func ptParse(t *testing.T, src string) *ir.Module {
	t.Helper()
	m, err := Parse("test.wgsl", []byte(src))
	require.NoError(t, err)
	require.NotNil(t, m)
	return m
}

// ptFunc returns the IR function name of src.
func ptFunc(t *testing.T, src, name string) *ir.Func {
	t.Helper()
	f := ptParse(t, src).Func(name)
	require.NotNil(t, f, "function %s is not in the subset", name)
	return f
}

// ptReturn returns the value of the last statement (a return) of f.
func ptReturn(t *testing.T, src string) ir.Expr {
	t.Helper()
	f := ptFunc(t, src, "f")
	require.NotEmpty(t, f.Body.Stmts)
	r, ok := f.Body.Stmts[len(f.Body.Stmts)-1].(*ir.Return)
	require.True(t, ok, "last statement is %T", f.Body.Stmts[len(f.Body.Stmts)-1])
	require.NotNil(t, r.Value)
	return r.Value
}

func ptLit(t *testing.T, e ir.Expr) ir.Value {
	t.Helper()
	l, ok := e.(*ir.Lit)
	require.True(t, ok, "want a Lit, got %T (%s)", e, ir.PrintExpr(e))
	return l.Val
}

func ptIdent(t *testing.T, e ir.Expr, name string) {
	t.Helper()
	id, ok := e.(*ir.Ident)
	require.True(t, ok, "want Ident %s, got %T", name, e)
	assert.Equal(t, name, id.Name)
}

func ptBinary(t *testing.T, e ir.Expr, op ir.BinaryOp) *ir.Binary {
	t.Helper()
	b, ok := e.(*ir.Binary)
	require.True(t, ok, "want Binary %s, got %T (%s)", op, e, ir.PrintExpr(e))
	require.Equal(t, op, b.Op)
	return b
}

// TestPrecedence checks operator precedence and associativity (WGSL
// #operator-precedence-associativity) through the shape of the IR.
func TestPrecedence(t *testing.T) {
	t.Run("1 + 2 * x multiplies first", func(t *testing.T) {
		add := ptBinary(t, ptReturn(t, "fn f(x: i32) -> i32 { return 1 + 2 * x; }"), ir.OpAdd)
		assert.Equal(t, ir.I32Val(1), ptLit(t, add.X))
		mul := ptBinary(t, add.Y, ir.OpMul)
		assert.Equal(t, ir.I32Val(2), ptLit(t, mul.X))
		ptIdent(t, mul.Y, "x")
	})
	t.Run("(1 + 2) * x folds the constant operand", func(t *testing.T) {
		mul := ptBinary(t, ptReturn(t, "fn f(x: i32) -> i32 { return (1 + 2) * x; }"), ir.OpMul)
		assert.Equal(t, ir.I32Val(3), ptLit(t, mul.X))
		ptIdent(t, mul.Y, "x")
	})
	t.Run("subtraction is left-associative", func(t *testing.T) {
		outer := ptBinary(t, ptReturn(t, "fn f(x: i32) -> i32 { return x - 1 - 2; }"), ir.OpSub)
		assert.Equal(t, ir.I32Val(2), ptLit(t, outer.Y))
		inner := ptBinary(t, outer.X, ir.OpSub)
		ptIdent(t, inner.X, "x")
	})
	t.Run("unary minus binds tighter than *", func(t *testing.T) {
		mul := ptBinary(t, ptReturn(t, "fn f(x: i32) -> i32 { return -x * 2; }"), ir.OpMul)
		u, ok := mul.X.(*ir.Unary)
		require.True(t, ok)
		assert.Equal(t, ir.OpNeg, u.Op)
	})
	t.Run("comparison binds looser than +, && looser than ==", func(t *testing.T) {
		and := ptBinary(t, ptReturn(t, "fn f(x: i32, b: bool) -> bool { return x + 1 < 3 && b == true; }"), ir.OpLogAnd)
		lt := ptBinary(t, and.X, ir.OpLt)
		ptBinary(t, lt.X, ir.OpAdd)
		ptBinary(t, and.Y, ir.OpEq)
	})
	t.Run("a & b & c chains one operator", func(t *testing.T) {
		outer := ptBinary(t, ptReturn(t, "fn f(a: u32, b: u32, c: u32) -> u32 { return a & b & c; }"), ir.OpAnd)
		ptBinary(t, outer.X, ir.OpAnd)
		ptIdent(t, outer.Y, "c")
	})
}

// TestSyntaxErrorsForOperatorMixing checks WGSL's no-mixing rules: these
// need parentheses (WGSL #expression-grammar).
func TestSyntaxErrorsForOperatorMixing(t *testing.T) {
	for _, expr := range []string{"a & b | c", "a | b ^ c", "a && b || c", "a < b < c", "a << 1u << 1u", "a + b << 1u", "a << 1u + b", "a == b & c"} {
		t.Run(expr, func(t *testing.T) {
			src := "fn f(a: u32, b: u32, c: u32) -> bool { let x = " + expr + "; return true; }"
			_, err := Parse("test.wgsl", []byte(src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "test.wgsl:1:")
			assert.Contains(t, err.Error(), ": parse: ")
		})
	}
}

// TestConstructorsFold checks that constructors of constants become one
// Lit of the concretized type (WGSL #concretization).
func TestConstructorsFold(t *testing.T) {
	tests := []struct {
		expr, ret string
		want      ir.Value
	}{
		{"vec3(1, 2, 3)", "vec3<i32>", ir.CompositeVal(ir.Vec(3, ir.I32), ir.I32Val(1), ir.I32Val(2), ir.I32Val(3))},
		{"vec3(1.0, 2, 3)", "vec3<f32>", ir.CompositeVal(ir.Vec(3, ir.F32), ir.F32Val(1), ir.F32Val(2), ir.F32Val(3))},
		{"vec3<f32>(1, 2, 3)", "vec3<f32>", ir.CompositeVal(ir.Vec(3, ir.F32), ir.F32Val(1), ir.F32Val(2), ir.F32Val(3))},
		{"vec2u(7)", "vec2<u32>", ir.CompositeVal(ir.Vec(2, ir.U32), ir.U32Val(7), ir.U32Val(7))},
		{"vec4(vec2(1, 2), 3, 4).wzyx", "vec4<i32>", ir.CompositeVal(ir.Vec(4, ir.I32), ir.I32Val(4), ir.I32Val(3), ir.I32Val(2), ir.I32Val(1))},
		{"array(1u, 2u)", "array<u32, 2>", ir.CompositeVal(ir.ArrayOf(ir.U32, 2), ir.U32Val(1), ir.U32Val(2))},
		{"array<f32, 2>()", "array<f32, 2>", ir.CompositeVal(ir.ArrayOf(ir.F32, 2), ir.F32Val(0), ir.F32Val(0))},
		{"vec3<bool>()", "vec3<bool>", ir.CompositeVal(ir.Vec(3, ir.Bool), ir.BoolVal(false), ir.BoolVal(false), ir.BoolVal(false))},
		{"vec3<i32>(vec3(1.5, -2.5, 3.9))", "vec3<i32>", ir.CompositeVal(ir.Vec(3, ir.I32), ir.I32Val(1), ir.I32Val(-2), ir.I32Val(3))},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			v := ptLit(t, ptReturn(t, "fn f() -> "+tc.ret+" { return "+tc.expr+"; }"))
			assert.True(t, ir.Equal(tc.want, v), "got %v, want %v", v, tc.want)
		})
	}
	t.Run("vec3(x, 1, 2) converts the constants to f32", func(t *testing.T) {
		c, ok := ptReturn(t, "fn f(x: f32) -> vec3<f32> { return vec3(x, 1, 2); }").(*ir.Construct)
		require.True(t, ok)
		assert.Equal(t, "vec3<f32>", c.T.String())
		require.Len(t, c.Args, 3)
		assert.Equal(t, ir.F32Val(1), ptLit(t, c.Args[1]))
	})
	t.Run("struct constructor of constants", func(t *testing.T) {
		v := ptLit(t, ptReturn(t, "struct S { a: i32, b: f32 } fn f() -> S { return S(1, 2); }"))
		assert.Equal(t, "S(1i, 2.0f)", v.String())
	})
}

// TestConcretization checks abstract values in concrete contexts (WGSL
// #conversion-rank, #concretization).
func TestConcretization(t *testing.T) {
	t.Run("let x = 1 + 2 is let x: i32 = 3i", func(t *testing.T) {
		d := ptFunc(t, "fn f() { let x = 1 + 2; }", "f").Body.Stmts[0].(*ir.Decl)
		assert.Equal(t, "i32", d.T.String())
		assert.Equal(t, ir.I32Val(3), ptLit(t, d.Init))
	})
	t.Run("x * (1.0 / 3.0) rounds the f64 quotient to f32", func(t *testing.T) {
		mul := ptBinary(t, ptReturn(t, "fn f(x: f32) -> f32 { return x * (1.0 / 3.0); }"), ir.OpMul)
		assert.Equal(t, ir.F32Val(float32(1.0/3.0)), ptLit(t, mul.Y))
	})
	t.Run("-2147483648 in an i32 context", func(t *testing.T) {
		assert.Equal(t, ir.I32Val(math.MinInt32), ptLit(t, ptReturn(t, "fn f() -> i32 { return -2147483648; }")))
	})
	t.Run("abstract argument converts to the parameter type", func(t *testing.T) {
		call, ok := ptReturn(t, "fn g(x: f32) -> f32 { return x; } fn f() -> f32 { return g(1); }").(*ir.Call)
		require.True(t, ok)
		assert.Equal(t, ir.F32Val(1), ptLit(t, call.Args[0]))
	})
	t.Run("u32 context for an abstract int", func(t *testing.T) {
		add := ptBinary(t, ptReturn(t, "fn f(x: u32) -> u32 { return 1 + x; }"), ir.OpAdd)
		assert.Equal(t, ir.U32Val(1), ptLit(t, add.X))
	})
	t.Run("module const is substituted as a Lit", func(t *testing.T) {
		assert.Equal(t, ir.U32Val(8), ptLit(t, ptReturn(t, "const N = 4u; fn f() -> u32 { return N * 2; }")))
	})
	t.Run("function-scope const is substituted", func(t *testing.T) {
		add := ptBinary(t, ptReturn(t, "fn f(x: f32) -> f32 { const k = 2.5; return x + k; }"), ir.OpAdd)
		assert.Equal(t, ir.F32Val(2.5), ptLit(t, add.Y))
	})
	t.Run("var without initializer has nil Init and explicit type", func(t *testing.T) {
		d := ptFunc(t, "fn f() { var y: vec2<f32>; }", "f").Body.Stmts[0].(*ir.Decl)
		assert.True(t, d.Mutable)
		assert.Nil(t, d.Init)
		assert.Equal(t, "vec2<f32>", d.T.String())
	})
	t.Run("identity conversion f32(x) is x", func(t *testing.T) {
		ptIdent(t, ptReturn(t, "fn f(x: f32) -> f32 { return f32(x); }"), "x")
	})
	t.Run("i32(f) is a Convert", func(t *testing.T) {
		c, ok := ptReturn(t, "fn f(x: f32) -> i32 { return i32(x); }").(*ir.Convert)
		require.True(t, ok)
		assert.Equal(t, "i32", c.T.String())
	})
}

// TestLoweredFor checks for (init; cond; update) body →
// { init; loop { if (!(cond)) { break; } body continuing { update; } } }.
func TestLoweredFor(t *testing.T) {
	f := ptFunc(t, `fn f(n: i32) -> i32 {
  var s = 0;
  for (var i = 0; i < n; i++) {
    s += i;
  }
  return s;
}`, "f")
	require.Len(t, f.Body.Stmts, 3)
	blk, ok := f.Body.Stmts[1].(*ir.Block)
	require.True(t, ok, "for lowers to a block, got %T", f.Body.Stmts[1])
	require.Len(t, blk.Stmts, 2)
	init := blk.Stmts[0].(*ir.Decl)
	assert.Equal(t, "i", init.Name)
	assert.Equal(t, "i32", init.T.String())
	loop := blk.Stmts[1].(*ir.Loop)
	require.Len(t, loop.Body.Stmts, 2)
	test := loop.Body.Stmts[0].(*ir.If)
	not, ok := test.Cond.(*ir.Unary)
	require.True(t, ok, "exit test is !(cond)")
	assert.Equal(t, ir.OpNot, not.Op)
	ptBinary(t, not.X, ir.OpLt)
	require.Len(t, test.Then.Stmts, 1)
	assert.IsType(t, &ir.Break{}, test.Then.Stmts[0])
	assert.Empty(t, test.Else.Stmts)
	body := loop.Body.Stmts[1].(*ir.Assign)
	assert.Equal(t, ir.OpAdd, body.Op)
	require.Len(t, loop.Continuing.Stmts, 1)
	upd := loop.Continuing.Stmts[0].(*ir.Assign)
	assert.Equal(t, ir.OpAdd, upd.Op, "i++ is i += 1")
	assert.Equal(t, ir.I32Val(1), ptLit(t, upd.RHS))
	assert.Nil(t, loop.BreakIf)
	assert.Contains(t, ir.PrintFunc(f), "if (!(i < n)) {")
}

func TestLoweredConditionSplitsAndChains(t *testing.T) {
	f := ptFunc(t, `fn f(n: i32) -> i32 {
  var s = 0;
  for (var i = 0; i < 8 && s < n && s != 7; i++) { s += i; }
  return s;
}`, "f")
	loop := f.Body.Stmts[1].(*ir.Block).Stmts[1].(*ir.Loop)
	require.Len(t, loop.Body.Stmts, 4, "three exit tests then the body")
	for i, op := range []ir.BinaryOp{ir.OpLt, ir.OpLt, ir.OpNe} {
		test := loop.Body.Stmts[i].(*ir.If)
		ptBinary(t, test.Cond.(*ir.Unary).X, op)
	}
	bound, err := ir.BoundLoop(f.Body.Stmts[1].(*ir.Block), 1)
	require.NoError(t, err, "the counter test stays visible to BoundLoop")
	assert.Equal(t, "i", bound.Counter)
	assert.Equal(t, 9, bound.MaxEntries, "i = 0..7 enter the body, the 9th entry exits")
}

func TestLoweredWhileAndLoop(t *testing.T) {
	f := ptFunc(t, `fn f(x0: u32) -> u32 {
  var x = x0;
  while (x > 1u) { x = x / 2u; }
  loop {
    x += 3u;
    continuing { break if x > 100u; }
  }
  while (true) { break; }
  return x;
}`, "f")
	w := f.Body.Stmts[1].(*ir.Loop)
	require.Len(t, w.Body.Stmts, 2)
	ptBinary(t, w.Body.Stmts[0].(*ir.If).Cond.(*ir.Unary).X, ir.OpGt)
	assert.Empty(t, w.Continuing.Stmts)
	l := f.Body.Stmts[2].(*ir.Loop)
	require.NotNil(t, l.BreakIf)
	ptBinary(t, l.BreakIf, ir.OpGt)
	inf := f.Body.Stmts[3].(*ir.Loop)
	assert.Equal(t, ir.BoolVal(false), ptLit(t, inf.Body.Stmts[0].(*ir.If).Cond), "!(true) folds to false")
}

func TestLoweredStatements(t *testing.T) {
	f := ptFunc(t, `fn f(a: i32) -> i32 {
  var x = a;
  var u = 3u;
  x--;
  u++;
  _ = x + 1;
  if (a > 0) { x = 1; } else if (a < 0) { x = 2; } else { x = 3; }
  switch (a) {
    case 1, 2, default: { x += 1; }
    case 3: { x -= 1; }
  }
  return x;
}`, "f")
	s := f.Body.Stmts
	dec := s[2].(*ir.Assign)
	assert.Equal(t, ir.OpSub, dec.Op)
	assert.Equal(t, ir.I32Val(1), ptLit(t, dec.RHS))
	inc := s[3].(*ir.Assign)
	assert.Equal(t, ir.OpAdd, inc.Op)
	assert.Equal(t, ir.U32Val(1), ptLit(t, inc.RHS), "u++ adds 1u")
	assert.IsType(t, &ir.ExprStmt{}, s[4])
	iff := s[5].(*ir.If)
	require.Len(t, iff.Else.Stmts, 1)
	elif, ok := iff.Else.Stmts[0].(*ir.If)
	require.True(t, ok, "else if nests an If in the else block")
	assert.Len(t, elif.Else.Stmts, 1)
	sw := s[6].(*ir.Switch)
	require.Len(t, sw.Cases, 2)
	assert.True(t, sw.Cases[0].Default)
	assert.Equal(t, []ir.Value{ir.I32Val(1), ir.I32Val(2)}, sw.Cases[0].Values)
	assert.False(t, sw.Cases[1].Default)
}

func TestSwizzlesAndMembers(t *testing.T) {
	sw, ok := ptReturn(t, "fn f(v: vec4<f32>) -> vec3<f32> { return v.bgr; }").(*ir.Swizzle)
	require.True(t, ok)
	assert.Equal(t, []uint8{2, 1, 0}, sw.Comps)
	assert.Equal(t, "vec3<f32>", sw.T.String())

	f := ptFunc(t, "struct S { a: i32, b: vec2<f32> } fn f(s: S) -> f32 { var t = s; t.b.y = 2.0; return t.b.x; }", "f")
	as := f.Body.Stmts[1].(*ir.Assign)
	lhs := as.LHS.(*ir.Swizzle)
	assert.Equal(t, []uint8{1}, lhs.Comps)
	m := lhs.X.(*ir.Member)
	assert.Equal(t, 1, m.Field)
}

func TestPositions(t *testing.T) {
	f := ptFunc(t, "fn f() -> i32 {\n  let x = 1;\n    return x;\n}\n", "f")
	assert.Equal(t, ir.Pos{Line: 1, Col: 1}, f.Pos)
	assert.Equal(t, ir.Pos{Line: 2, Col: 3}, f.Body.Stmts[0].Position())
	assert.Equal(t, ir.Pos{Line: 3, Col: 5}, f.Body.Stmts[1].Position())
}

func TestNormalizeRenamesShadowedNames(t *testing.T) {
	f := ptFunc(t, "fn f(x: i32) -> i32 { let y = x; { let x = y + 1; return x; } }", "f")
	assert.Contains(t, ir.PrintFunc(f), "let x_1: i32 = y + 1i;")
}

func TestPrivateGlobals(t *testing.T) {
	m := ptParse(t, "var<private> g = 3u; var<private> h: vec2<f32>; fn f() -> u32 { g += 1u; return g; }")
	require.Len(t, m.Globals, 2)
	assert.Equal(t, "u32", m.Globals[0].T.String())
	assert.Equal(t, ir.U32Val(3), ptLit(t, m.Globals[0].Init))
	assert.Nil(t, m.Globals[1].Init)
	ptIdent(t, m.Func("f").Body.Stmts[1].(*ir.Return).Value, "g")
}

// TestNestingIsBounded checks that pathologically deep inputs are
// positioned syntax errors, not deep recursion in later passes. (A
// left-associative chain nests no level: TestChainsAreBoundedNotNested.)
func TestNestingIsBounded(t *testing.T) {
	tests := map[string]string{
		"parentheses":                  "fn f() -> i32 { return " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + "; }",
		"parenthesized right operands": "fn f() -> i32 { return " + strings.Repeat("1 + (", 5000) + "1" + strings.Repeat(")", 5000) + "; }",
		"unary chain":                  "fn f() -> i32 { return " + strings.Repeat("-", 5000) + "1; }",
		"blocks":                       "fn f() { " + strings.Repeat("{", 5000) + strings.Repeat("}", 5000) + " }",
		"else if chain":                "fn f(x: i32) { if (x == 0) {}" + strings.Repeat(" else if (x == 1) {}", 5000) + " }",
		"member chain":                 "fn f(v: vec4<f32>) -> f32 { return v" + strings.Repeat(".xyzw", 5000) + ".x; }",
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("deep.wgsl", []byte(src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "may nest at most 1000 levels deep")
		})
	}
	t.Run("999 nested parentheses are fine", func(t *testing.T) {
		src := "fn f() -> i32 { return " + strings.Repeat("(", 990) + "1" + strings.Repeat(")", 990) + "; }"
		assert.Equal(t, ir.I32Val(1), ptLit(t, ptReturn(t, src)))
	})
}
