package spirv

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// ---- external tools ----

// tool returns the path of a spirv-tools binary; a missing tool fails the
// test (it is never skipped).
func tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s not found: install spirv-tools (make deps)", name)
	}
	return p
}

// writeBinary writes words as a SPIR-V file (host order, as spirv-tools
// reads it) in a temporary directory.
func writeBinary(t testing.TB, words []uint32) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, binary.Write(&buf, binary.NativeEndian, words))
	path := filepath.Join(t.TempDir(), "module.spv")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

// spirvVal runs `spirv-val --target-env vulkan1.1` on words and returns
// its complaint, or "" when the module is valid.
func spirvVal(t testing.TB, words []uint32) string {
	t.Helper()
	val := tool(t, "spirv-val")
	out, err := exec.Command(val, "--target-env", "vulkan1.1", writeBinary(t, words)).CombinedOutput()
	if err != nil {
		return strings.TrimSpace(string(out)) + " (" + err.Error() + ")"
	}
	return ""
}

// requireValid fails the test when spirv-val rejects words, showing our
// disassembly.
func requireValid(t testing.TB, words []uint32) {
	t.Helper()
	if msg := spirvVal(t, words); msg != "" {
		dis, err := Disassemble(words)
		if err != nil {
			dis = "(disassembly failed: " + err.Error() + ")"
		}
		t.Fatalf("spirv-val rejects the module:\n%s\n%s", msg, dis)
	}
}

// emitValid emits kernel of m (after checking that the test built valid
// IR) and requires the module to pass spirv-val.
func emitValid(t testing.TB, m *ir.Module, kernel string, opts Options) []uint32 {
	t.Helper()
	require.NoError(t, ir.Verify(m), "test IR must verify:\n%s", printModule(m))
	words, err := Emit(m, kernel, opts)
	require.NoError(t, err, "Emit(%s)", kernel)
	requireValid(t, words)
	return words
}

func printModule(m *ir.Module) string {
	var b strings.Builder
	for _, f := range m.Funcs {
		fmt.Fprintf(&b, "fn %s(...)\n", f.Name)
	}
	return b.String()
}

// ---- IR construction (tests build ir directly) ----

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func lit(v ir.Value) ir.Expr                  { return &ir.Lit{Val: v} }
func i32(v int32) ir.Expr                     { return lit(ir.I32Val(v)) }
func u32(v uint32) ir.Expr                    { return lit(ir.U32Val(v)) }
func f32(v float32) ir.Expr                   { return lit(ir.F32Val(v)) }
func boolLit(v bool) ir.Expr                  { return lit(ir.BoolVal(v)) }
func vecOf(t *ir.Type, xs ...ir.Expr) ir.Expr { return cons(t, xs...) }

func param(name string, t *ir.Type) *ir.Ident  { return &ir.Ident{Name: name, T: t, Ref: ir.RefParam} }
func local(name string, t *ir.Type) *ir.Ident  { return &ir.Ident{Name: name, T: t, Ref: ir.RefVar} }
func letRef(name string, t *ir.Type) *ir.Ident { return &ir.Ident{Name: name, T: t, Ref: ir.RefLet} }
func global(name string, t *ir.Type) *ir.Ident { return &ir.Ident{Name: name, T: t, Ref: ir.RefGlobal} }

func un(op ir.UnaryOp, x ir.Expr) ir.Expr {
	return &ir.Unary{Op: op, X: x, T: must(ir.UnaryResultType(op, x.Type()))}
}

func bin(op ir.BinaryOp, x, y ir.Expr) ir.Expr {
	return &ir.Binary{Op: op, X: x, Y: y, T: must(ir.BinaryResultType(op, x.Type(), y.Type()))}
}

func sel(f, t, c ir.Expr) ir.Expr { return &ir.Select{False: f, True: t, Cond: c, T: f.Type()} }

func callFn(f *ir.Func, args ...ir.Expr) ir.Expr {
	return &ir.Call{Func: f.Name, Args: args, T: f.Result}
}

func bi(fn ir.Builtin, args ...ir.Expr) ir.Expr {
	ts := make([]*ir.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	return &ir.BuiltinCall{Fn: fn, Args: args, T: must(ir.BuiltinResultType(fn, ts))}
}

func cons(t *ir.Type, args ...ir.Expr) ir.Expr { return &ir.Construct{T: t, Args: args} }
func conv(t *ir.Type, x ir.Expr) ir.Expr       { return &ir.Convert{T: t, X: x} }
func bitcast(t *ir.Type, x ir.Expr) ir.Expr    { return &ir.Bitcast{T: t, X: x} }
func index(x, i ir.Expr) ir.Expr               { return &ir.Index{X: x, Index: i, T: x.Type().Elem} }
func member(x ir.Expr, field int) ir.Expr {
	return &ir.Member{X: x, Field: field, T: x.Type().Struct.Fields[field].Type}
}
func swz(x ir.Expr, comps ...uint8) ir.Expr {
	t := x.Type().Elem
	if len(comps) > 1 {
		t = ir.Vec(len(comps), t)
	}
	return &ir.Swizzle{X: x, Comps: comps, T: t}
}

func varDecl(name string, t *ir.Type, init ir.Expr) ir.Stmt {
	return &ir.Decl{Name: name, T: t, Init: init, Mutable: true}
}
func letDecl(name string, init ir.Expr) ir.Stmt {
	return &ir.Decl{Name: name, T: init.Type(), Init: init}
}
func assign(lhs, rhs ir.Expr) ir.Stmt { return &ir.Assign{LHS: lhs, RHS: rhs} }
func assignOp(op ir.BinaryOp, lhs, rhs ir.Expr) ir.Stmt {
	return &ir.Assign{LHS: lhs, Op: op, RHS: rhs}
}
func ret(x ir.Expr) ir.Stmt       { return &ir.Return{Value: x} }
func retVoid() ir.Stmt            { return &ir.Return{} }
func brk() ir.Stmt                { return &ir.Break{} }
func cont() ir.Stmt               { return &ir.Continue{} }
func exprStmt(x ir.Expr) ir.Stmt  { return &ir.ExprStmt{X: x} }
func blk(ss ...ir.Stmt) *ir.Block { return &ir.Block{Stmts: ss} }
func ifElse(c ir.Expr, then, els []ir.Stmt) ir.Stmt {
	return &ir.If{Cond: c, Then: blk(then...), Else: blk(els...)}
}
func ifThen(c ir.Expr, then ...ir.Stmt) ir.Stmt { return ifElse(c, then, nil) }
func loop(body, continuing []ir.Stmt, breakIf ir.Expr) ir.Stmt {
	return &ir.Loop{Body: blk(body...), Continuing: blk(continuing...), BreakIf: breakIf}
}
func switchOf(selector ir.Expr, cases ...*ir.Case) ir.Stmt {
	return &ir.Switch{Selector: selector, Cases: cases}
}
func caseOf(vals []ir.Value, def bool, body ...ir.Stmt) *ir.Case {
	return &ir.Case{Values: vals, Default: def, Body: blk(body...)}
}

func fn(name string, params []*ir.Param, result *ir.Type, body ...ir.Stmt) *ir.Func {
	return &ir.Func{Name: name, Params: params, Result: result, Body: blk(body...)}
}

func params(kv ...any) []*ir.Param {
	var ps []*ir.Param
	for i := 0; i < len(kv); i += 2 {
		ps = append(ps, &ir.Param{Name: kv[i].(string), T: kv[i+1].(*ir.Type)})
	}
	return ps
}

func module(funcs ...*ir.Func) *ir.Module { return &ir.Module{File: "test.wgsl", Funcs: funcs} }

var (
	v2i = ir.Vec(2, ir.I32)
	v3i = ir.Vec(3, ir.I32)
	v4i = ir.Vec(4, ir.I32)
	v2u = ir.Vec(2, ir.U32)
	v3u = ir.Vec(3, ir.U32)
	v4u = ir.Vec(4, ir.U32)
	v2f = ir.Vec(2, ir.F32)
	v3f = ir.Vec(3, ir.F32)
	v4f = ir.Vec(4, ir.F32)
	v2b = ir.Vec(2, ir.Bool)
	v3b = ir.Vec(3, ir.Bool)
	v4b = ir.Vec(4, ir.Bool)
)

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }

// readBinary reads a SPIR-V file written in host order.
func readBinary(t testing.TB, path string) []uint32 {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Zero(t, len(b)%4)
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.NativeEndian.Uint32(b[4*i:])
	}
	return w
}
