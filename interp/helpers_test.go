package interp

import (
	"fmt"
	"math"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/require"
)

// A small DSL for building IR in tests (the WGSL front end is written
// concurrently; interp must not depend on it anyway).

var (
	tBool = ir.Bool
	tI32  = ir.I32
	tU32  = ir.U32
	tF32  = ir.F32
)

func vecT(n int, t *ir.Type) *ir.Type { return ir.Vec(n, t) }

func lit(v ir.Value) *ir.Lit   { return &ir.Lit{Val: v} }
func iL(v int32) *ir.Lit       { return lit(ir.I32Val(v)) }
func uL(v uint32) *ir.Lit      { return lit(ir.U32Val(v)) }
func fL(v float32) *ir.Lit     { return lit(ir.F32Val(v)) }
func bL(v bool) *ir.Lit        { return lit(ir.BoolVal(v)) }
func iv(v int32) ir.Value      { return ir.I32Val(v) }
func uv(v uint32) ir.Value     { return ir.U32Val(v) }
func fvv(v float32) ir.Value   { return ir.F32Val(v) }
func bv(v bool) ir.Value       { return ir.BoolVal(v) }
func f32bits(b uint32) float32 { return math.Float32frombits(b) }

func vecV(t *ir.Type, es ...ir.Value) ir.Value {
	return ir.CompositeVal(vecT(len(es), t), es...)
}

func param(name string, t *ir.Type) *ir.Ident { return &ir.Ident{Name: name, T: t, Ref: ir.RefParam} }
func local(name string, t *ir.Type) *ir.Ident { return &ir.Ident{Name: name, T: t, Ref: ir.RefVar} }
func letR(name string, t *ir.Type) *ir.Ident  { return &ir.Ident{Name: name, T: t, Ref: ir.RefLet} }
func glob(name string, t *ir.Type) *ir.Ident  { return &ir.Ident{Name: name, T: t, Ref: ir.RefGlobal} }

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func bin(op ir.BinaryOp, x, y ir.Expr) *ir.Binary {
	return &ir.Binary{Op: op, X: x, Y: y, T: must(ir.BinaryResultType(op, x.Type(), y.Type()))}
}

func un(op ir.UnaryOp, x ir.Expr) *ir.Unary {
	return &ir.Unary{Op: op, X: x, T: must(ir.UnaryResultType(op, x.Type()))}
}

func bi(fn ir.Builtin, args ...ir.Expr) *ir.BuiltinCall {
	ts := make([]*ir.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	return &ir.BuiltinCall{Fn: fn, Args: args, T: must(ir.BuiltinResultType(fn, ts))}
}

func sel(f, t, c ir.Expr) *ir.Select { return &ir.Select{False: f, True: t, Cond: c, T: f.Type()} }
func conv(t *ir.Type, x ir.Expr) *ir.Convert {
	return &ir.Convert{T: t, X: x}
}
func bitcast(t *ir.Type, x ir.Expr) *ir.Bitcast { return &ir.Bitcast{T: t, X: x} }
func idx(x, i ir.Expr) *ir.Index                { return &ir.Index{X: x, Index: i, T: x.Type().Elem} }
func swz(x ir.Expr, comps ...uint8) *ir.Swizzle {
	t := x.Type().Elem
	if len(comps) > 1 {
		t = vecT(len(comps), t)
	}
	return &ir.Swizzle{X: x, Comps: comps, T: t}
}
func mem(x ir.Expr, field int) *ir.Member {
	return &ir.Member{X: x, Field: field, T: x.Type().Struct.Fields[field].Type}
}
func construct(t *ir.Type, args ...ir.Expr) *ir.Construct { return &ir.Construct{T: t, Args: args} }
func call(name string, result *ir.Type, args ...ir.Expr) *ir.Call {
	return &ir.Call{Func: name, Args: args, T: result}
}

func ret(e ir.Expr) *ir.Return { return &ir.Return{Value: e} }
func varDecl(name string, t *ir.Type, init ir.Expr) *ir.Decl {
	return &ir.Decl{Name: name, T: t, Init: init, Mutable: true}
}
func letDecl(name string, init ir.Expr) *ir.Decl {
	return &ir.Decl{Name: name, T: init.Type(), Init: init}
}
func assign(lhs, rhs ir.Expr) *ir.Assign { return &ir.Assign{LHS: lhs, RHS: rhs} }
func opAssign(op ir.BinaryOp, lhs, rhs ir.Expr) *ir.Assign {
	return &ir.Assign{LHS: lhs, Op: op, RHS: rhs}
}
func block(ss ...ir.Stmt) *ir.Block { return ir.NewBlock(ir.Pos{}, ss...) }
func ifElse(c ir.Expr, then, els []ir.Stmt) *ir.If {
	return &ir.If{Cond: c, Then: block(then...), Else: block(els...)}
}
func if_(c ir.Expr, then ...ir.Stmt) *ir.If { return ifElse(c, then, nil) }
func loop(body, cont []ir.Stmt, breakIf ir.Expr) *ir.Loop {
	return &ir.Loop{Body: block(body...), Continuing: block(cont...), BreakIf: breakIf}
}
func brk() *ir.Break              { return &ir.Break{} }
func cont() *ir.Continue          { return &ir.Continue{} }
func stmt(e ir.Expr) *ir.ExprStmt { return &ir.ExprStmt{X: e} }

// forLoop is `for (var i: i32 = from; i < to; i++) { body }`.
func forLoop(i string, from, to int32, body ...ir.Stmt) []ir.Stmt {
	iv := local(i, tI32)
	return []ir.Stmt{
		varDecl(i, tI32, iL(from)),
		loop(append([]ir.Stmt{if_(un(ir.OpNot, bin(ir.OpLt, iv, iL(to))), brk())}, body...),
			[]ir.Stmt{opAssign(ir.OpAdd, iv, iL(1))}, nil),
	}
}

type P struct {
	name string
	t    *ir.Type
}

func fn(name string, params []P, result *ir.Type, body ...ir.Stmt) *ir.Func {
	f := &ir.Func{Name: name, Result: result, Body: block(body...)}
	for _, p := range params {
		f.Params = append(f.Params, &ir.Param{Name: p.name, T: p.t})
	}
	return f
}

func module(globals []*ir.Global, funcs ...*ir.Func) *ir.Module {
	return &ir.Module{File: "test.wgsl", Globals: globals, Funcs: funcs}
}

// runOne runs kernel once with args and requires success.
func runOne(t *testing.T, m *ir.Module, kernel string, args ...ir.Value) Invocation {
	t.Helper()
	invs, err := Run(m, kernel, [][]ir.Value{args}, Options{})
	require.NoError(t, err)
	require.Len(t, invs, 1)
	return invs[0]
}

// retOf runs a kernel with a result once and returns its "ret" output.
func retOf(t *testing.T, m *ir.Module, kernel string, args ...ir.Value) Output {
	t.Helper()
	inv := runOne(t, m, kernel, args...)
	require.NoError(t, inv.Err)
	require.NotEmpty(t, inv.Outputs)
	return inv.Outputs[0]
}

// exprKernel wraps e (over parameters ps) as `fn k(ps) -> T { return e; }`.
func exprKernel(e ir.Expr, ps ...P) *ir.Module {
	return module(nil, fn("k", ps, e.Type(), ret(e)))
}

// exact reports whether every leaf of o is exact and determinate.
func exact(o Output) bool { return o.Indeterminate == nil && o.Tolerance == nil }

func indeterminate(o Output) bool {
	for _, b := range o.Indeterminate {
		if b {
			return true
		}
	}
	return false
}

func anyIndeterminate(o Output) bool { return indeterminate(o) }

func allIndeterminate(o Output) bool {
	if len(o.Indeterminate) == 0 {
		return false
	}
	for _, b := range o.Indeterminate {
		if !b {
			return false
		}
	}
	return true
}

func desc(o Output) string { return fmt.Sprint(o) }
