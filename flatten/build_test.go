package flatten_test

import (
	"github.com/gpudiff/gpudiff/ir"
)

// Small IR builders for tests that construct functions by hand. Types are
// computed with the ir tables, so a mistake panics instead of building
// IR that does not verify.

func li(v int32) *ir.Lit   { return &ir.Lit{Val: ir.I32Val(v)} }
func lu(v uint32) *ir.Lit  { return &ir.Lit{Val: ir.U32Val(v)} }
func lf(v float32) *ir.Lit { return &ir.Lit{Val: ir.F32Val(v)} }
func lb(v bool) *ir.Lit    { return &ir.Lit{Val: ir.BoolVal(v)} }

func prm(name string, t *ir.Type) *ir.Ident  { return &ir.Ident{Name: name, T: t, Ref: ir.RefParam} }
func vr(name string, t *ir.Type) *ir.Ident   { return &ir.Ident{Name: name, T: t, Ref: ir.RefVar} }
func let(name string, t *ir.Type) *ir.Ident  { return &ir.Ident{Name: name, T: t, Ref: ir.RefLet} }
func glob(name string, t *ir.Type) *ir.Ident { return &ir.Ident{Name: name, T: t, Ref: ir.RefGlobal} }

func bin(op ir.BinaryOp, x, y ir.Expr) *ir.Binary {
	t, err := ir.BinaryResultType(op, x.Type(), y.Type())
	if err != nil {
		panic(err)
	}
	return &ir.Binary{Op: op, X: x, Y: y, T: t}
}

func not(x ir.Expr) *ir.Unary { return &ir.Unary{Op: ir.OpNot, X: x, T: x.Type()} }

func call(m *ir.Module, name string, args ...ir.Expr) *ir.Call {
	return &ir.Call{Func: name, Args: args, T: m.Func(name).Result}
}

func builtin(name string, args ...ir.Expr) *ir.BuiltinCall {
	b, ok := ir.LookupBuiltin(name)
	if !ok {
		panic(name)
	}
	ts := make([]*ir.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	t, err := ir.BuiltinResultType(b, ts)
	if err != nil {
		panic(err)
	}
	return &ir.BuiltinCall{Fn: b, Args: args, T: t}
}

func index(x, i ir.Expr) *ir.Index { return &ir.Index{X: x, Index: i, T: x.Type().Elem} }

func blk(ss ...ir.Stmt) *ir.Block { return ir.NewBlock(ir.Pos{}, ss...) }

func iff(c ir.Expr, then *ir.Block, els ...ir.Stmt) *ir.If {
	return &ir.If{Cond: c, Then: then, Else: blk(els...)}
}

func ret(e ir.Expr) *ir.Return { return &ir.Return{Value: e} }

func set(lhs, rhs ir.Expr) *ir.Assign { return &ir.Assign{LHS: lhs, RHS: rhs} }

func setOp(op ir.BinaryOp, lhs, rhs ir.Expr) *ir.Assign {
	return &ir.Assign{LHS: lhs, Op: op, RHS: rhs}
}

func varDecl(name string, t *ir.Type, init ir.Expr) *ir.Decl {
	return &ir.Decl{Name: name, T: t, Init: init, Mutable: true}
}

func letDecl(name string, init ir.Expr) *ir.Decl {
	return &ir.Decl{Name: name, T: init.Type(), Init: init}
}

// forLoop is WGSL `for (var i: T = a; i < b; i++) { body }` as the IR
// builds it: { var i = a; loop { if (!(i < b)) { break; } body; continuing { i += 1; } } }.
func forLoop(i string, t *ir.Type, a, b ir.Expr, body ...ir.Stmt) *ir.Block {
	one := ir.Expr(li(1))
	if t.Kind == ir.KindU32 {
		one = lu(1)
	}
	test := iff(not(bin(ir.OpLt, vr(i, t), b)), blk(&ir.Break{}))
	return blk(varDecl(i, t, a), &ir.Loop{
		Body:       blk(append([]ir.Stmt{test}, body...)...),
		Continuing: blk(setOp(ir.OpAdd, vr(i, t), one)),
	})
}

func fn(name string, result *ir.Type, params []*ir.Param, body ...ir.Stmt) *ir.Func {
	return &ir.Func{Name: name, Params: params, Result: result, Body: blk(body...)}
}

func params(ps ...any) []*ir.Param {
	var out []*ir.Param
	for i := 0; i < len(ps); i += 2 {
		out = append(out, &ir.Param{Name: ps[i].(string), T: ps[i+1].(*ir.Type)})
	}
	return out
}

func module(fs ...*ir.Func) *ir.Module { return &ir.Module{File: "test.wgsl", Funcs: fs} }
