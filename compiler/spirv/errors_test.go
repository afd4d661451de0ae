package spirv

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

func firstError(t *testing.T, err error) *ir.Error {
	t.Helper()
	require.Error(t, err)
	var list ir.ErrorList
	if errors.As(err, &list) {
		require.NotEmpty(t, list)
		return list[0]
	}
	var e *ir.Error
	require.True(t, errors.As(err, &e), "error %T is not an ir.Error/ErrorList: %v", err, err)
	return e
}

// TestEmitErrors: what Emit refuses, with positioned errors of pass
// "spirv" (or the verifier's own errors for IR that does not verify).
func TestEmitErrors(t *testing.T) {
	pos := ir.Pos{Line: 3, Col: 9}
	dpdx := &ir.BuiltinCall{Pos: pos, Fn: ir.BDpdx, Args: []ir.Expr{f32(1)}, T: ir.F32}
	barrier := &ir.BuiltinCall{Pos: ir.Pos{Line: 4, Col: 2}, Fn: ir.BWorkgroupBarrier, T: ir.Void}
	// quadBroadcast's id must be a const-expression (WGSL
	// #quadBroadcast-builtin): a parameter is not one.
	quadID := &ir.Ident{Pos: ir.Pos{Line: 5, Col: 22}, Name: "id", T: ir.U32, Ref: ir.RefParam}
	subgroup := &ir.BuiltinCall{Pos: ir.Pos{Line: 5, Col: 7}, Fn: ir.BQuadBroadcast, Args: []ir.Expr{i32(1), quadID}, T: ir.I32}
	rec := &ir.Func{Pos: ir.Pos{Line: 1, Col: 1}, Name: "r", Params: params("x", ir.I32), Result: ir.I32}
	rec.Body = blk(ret(&ir.Call{Pos: ir.Pos{Line: 2, Col: 12}, Func: "r", Args: []ir.Expr{param("x", ir.I32)}, T: ir.I32}))
	cases := []struct {
		name    string
		m       *ir.Module
		kernel  string
		opts    Options
		pos     ir.Pos
		pass    string
		message string
	}{
		{"unknown kernel", module(fn("k", nil, ir.I32, ret(i32(1)))), "nope", Options{}, ir.Pos{}, pass, `no function "nope"`},
		{"bad mode", module(fn("k", nil, ir.I32, ret(i32(1)))), "k", Options{Mode: "fast"}, ir.Pos{}, pass, `unknown emission mode "fast"`},
		{"derivative", module(fn("k", nil, ir.F32, ret(dpdx))), "k", Options{}, pos, pass, "builtin dpdx is not supported"},
		{"barrier", module(fn("k", nil, ir.Void, &ir.ExprStmt{X: barrier})), "k", Options{}, ir.Pos{Line: 4, Col: 2}, pass, "builtin workgroupBarrier is not supported"},
		{"subgroup", module(fn("k", params("id", ir.U32), ir.I32, ret(subgroup))), "k", Options{Mode: Raw}, ir.Pos{Line: 5, Col: 22}, pass, "quadBroadcast's id must be a const-expression"},
		{"recursion", module(rec, fn("k", nil, ir.I32, ret(callFn(rec, i32(1))))), "k", Options{}, ir.Pos{Line: 2, Col: 12}, pass, "recursion is not allowed"},
		{"invalid IR", module(fn("k", nil, ir.I32, ret(u32(1)))), "k", Options{}, ir.Pos{}, "verify", "return of u32"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			words, err := Emit(c.m, c.kernel, c.opts)
			assert.Nil(t, words)
			e := firstError(t, err)
			assert.Equal(t, c.pos, e.Pos)
			assert.Equal(t, c.pass, e.Pass)
			assert.Equal(t, "test.wgsl", e.File)
			assert.Contains(t, e.Msg, c.message)
		})
	}
}

// TestDebugNamesOff: without DebugNames the module has no OpName or
// OpMemberName and is otherwise the same instruction stream.
func TestDebugNamesOff(t *testing.T) {
	m, _, _ := compositeModule()
	on := emitValid(t, m, "k", Options{DebugNames: true})
	off := emitValid(t, m, "k", Options{})
	onText, err := Disassemble(on)
	require.NoError(t, err)
	offText, err := Disassemble(off)
	require.NoError(t, err)
	assert.NotContains(t, offText, "OpName")
	assert.NotContains(t, offText, "OpMemberName")
	var withoutNames []string
	for _, op := range opcodeSequence(onText) {
		if op != "OpName" && op != "OpMemberName" {
			withoutNames = append(withoutNames, op)
		}
	}
	assert.Equal(t, withoutNames, opcodeSequence(offText))
}

// TestEmitDeterministic: the same module emits the same words.
func TestEmitDeterministic(t *testing.T) {
	for _, c := range testCorpus()[:10] {
		a, err := Emit(c.m, c.kernel, DefaultOptions())
		require.NoError(t, err)
		b, err := Emit(c.m, c.kernel, DefaultOptions())
		require.NoError(t, err)
		assert.Equal(t, a, b, c.name)
	}
}

// TestDemotedLets: a let at the top level of a loop body that the
// continuing block or break-if uses is kept in a variable; lets used only
// in the body, or declared in nested blocks, are not. (ir.Verify does not
// yet let continuing see body lets, although ir.Loop's documentation
// follows WGSL in saying it does; the analysis is ready for both.)
func TestDemotedLets(t *testing.T) {
	x, y, z := letRef("x", ir.I32), letRef("y", ir.I32), letRef("z", ir.I32)
	f := fn("k", nil, ir.Void,
		varDecl("v", ir.I32, i32(0)),
		loop([]ir.Stmt{
			letDecl("x", i32(1)),
			letDecl("y", i32(2)),
			blk(letDecl("z", i32(3)), assign(local("v", ir.I32), z)),
			assign(local("v", ir.I32), y),
		}, []ir.Stmt{assign(local("v", ir.I32), x)}, bin(ir.OpGt, y, i32(0))))
	got := demotedLets(f)
	assert.Equal(t, map[string]bool{"x": true, "y": true}, got)
	assert.Nil(t, demotedLets(fn("k", nil, ir.Void, loop([]ir.Stmt{letDecl("x", i32(1)), brk()}, nil, nil))))
}
