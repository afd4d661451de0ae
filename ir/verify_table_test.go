package ir_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// TestVerifyRejects: each case parses a valid module (which must verify),
// breaks one IR invariant by hand, and expects ir.Verify to name it,
// positioned. The messages are the verifier's; each case's invariant is
// ARCHITECTURE.md's "The IR" (unique names, a return on every path, typed
// operands, jumps only where structured control flow allows them).
func TestVerifyRejects(t *testing.T) {
	const src = `var<private> g: i32;
fn k(x: i32, b: bool) -> i32 {
  var v: i32 = x;
  let c: u32 = 2u;
  if (b) {
    v = v + 1;
  }
  loop {
    if (v > 3) { break; }
    v += 1;
    continuing {
      break if v > 10;
    }
  }
  switch x {
    case 1: { v = 2; }
    default: { }
  }
  return v;
}
`
	body := func(m *ir.Module) []ir.Stmt { return m.Func("k").Body.Stmts }
	decl := func(m *ir.Module, i int) *ir.Decl { return body(m)[i].(*ir.Decl) }
	ifAt := func(m *ir.Module) *ir.If { return body(m)[2].(*ir.If) }
	loopAt := func(m *ir.Module) *ir.Loop { return body(m)[3].(*ir.Loop) }
	switchAt := func(m *ir.Module) *ir.Switch { return body(m)[4].(*ir.Switch) }
	for _, tc := range []struct {
		name   string
		break_ func(m *ir.Module)
		want   string
	}{
		{"a local declared twice", func(m *ir.Module) { decl(m, 1).Name = "v" }, `name "v" declared twice in function`},
		{"a local named like a global", func(m *ir.Module) { decl(m, 1).Name = "g" }, `local "g" collides with a module-scope name`},
		{"falling off the end of a function with a result", func(m *ir.Module) {
			f := m.Func("k")
			f.Body.Stmts = f.Body.Stmts[:len(f.Body.Stmts)-1]
		}, "can reach its end without returning"},
		{"a let without initializer", func(m *ir.Module) { decl(m, 1).Init = nil }, "let c has no initializer"},
		{"an initializer of the wrong type", func(m *ir.Module) { decl(m, 1).T = ir.I32 }, "c: initializer has type u32, want i32"},
		{"an if condition that is not bool", func(m *ir.Module) {
			ifAt(m).Cond = &ir.Ident{Name: "x", T: ir.I32, Ref: ir.RefParam}
		}, "has type i32, want bool"},
		{"an assignment to a let", func(m *ir.Module) {
			ifAt(m).Then.Stmts[0].(*ir.Assign).LHS = &ir.Ident{Name: "c", T: ir.U32, Ref: ir.RefLet}
		}, "cannot assign to let c"},
		{"break in a continuing block", func(m *ir.Module) {
			lp := loopAt(m)
			lp.Continuing.Stmts = append(lp.Continuing.Stmts, &ir.Break{})
		}, "continuing block may not break"},
		{"continue outside a loop", func(m *ir.Module) {
			ifAt(m).Then.Stmts = append(ifAt(m).Then.Stmts, &ir.Continue{})
		}, "continue outside a loop"},
		{"a statement after a jump", func(m *ir.Module) {
			th := ifAt(m).Then
			th.Stmts = append([]ir.Stmt{&ir.Return{Value: &ir.Lit{Val: ir.I32Val(0)}}}, th.Stmts...)
		}, "unreachable statement after *ir.Return"},
		{"a return of the wrong type", func(m *ir.Module) {
			f := m.Func("k")
			f.Body.Stmts[len(f.Body.Stmts)-1] = &ir.Return{Value: &ir.Lit{Val: ir.U32Val(1)}}
		}, "return of u32 in a function returning i32"},
		{"a switch without default", func(m *ir.Module) {
			sw := switchAt(m)
			sw.Cases = sw.Cases[:1]
		}, "switch must have exactly one default clause, has 0"},
		{"a duplicate case value", func(m *ir.Module) {
			sw := switchAt(m)
			sw.Cases[1].Values = []ir.Value{ir.I32Val(1)}
		}, "duplicate case value"},
		{"an undeclared name", func(m *ir.Module) {
			ifAt(m).Then.Stmts[0].(*ir.Assign).RHS = &ir.Ident{Name: "nope", T: ir.I32, Ref: ir.RefVar}
		}, "var nope is not declared in scope"},
		{"a call of an unknown function", func(m *ir.Module) {
			decl(m, 0).Init = &ir.Call{Func: "missing", T: ir.I32}
		}, "call of unknown function missing"},
		{"a stored type that disagrees with the operands", func(m *ir.Module) {
			ifAt(m).Then.Stmts[0].(*ir.Assign).RHS.(*ir.Binary).T = ir.U32
		}, "has stored type u32, operands imply i32"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := wgsl.Parse("v.wgsl", []byte(src))
			require.NoError(t, err)
			require.NoError(t, ir.Verify(m), "the unbroken module verifies")
			tc.break_(m)
			err = ir.Verify(m)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "v.wgsl:", "positioned in the module's file")
		})
	}
}
