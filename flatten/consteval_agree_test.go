package flatten

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The three evaluators of WGSL's integer semantics — the front end's
// constant evaluation (compiler/wgsl), flatten's folding (evalNode) and the
// interpreter — take their values from ir/wgslsem; this test checks that
// they agree where they meet, on a sweep of edge operands.

var (
	agreeI32 = []int32{0, 1, -1, 2, -2, 5, 31, 32, 33, math.MinInt32, math.MinInt32 + 1, math.MaxInt32, math.MaxInt32 - 1, 0x55555555, -0x40000000}
	agreeU32 = []uint32{0, 1, 2, 5, 31, 32, 33, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xF0, 0xAAAAAAAA}
	// agreeCounts are shift counts, offsets and bit counts (u32).
	agreeCounts = []uint32{0, 1, 4, 8, 16, 31, 32, 33, 0xFFFFFFFF}
	agreeF32    = []float32{0, -0.5, 0.99, 3.9, -3.9, 1e20, -1e20, 2147483520, 2147483648, -2147483648, 4294967040, 4294967296, 16777217}
)

// agreeCase is one operation: expr is a format with %[1]s … %[4]s for the
// operands; vals holds each operand's sweep.
type agreeCase struct {
	name   string
	result string
	expr   string
	vals   [][]ir.Value
}

func i32s(vs []int32) []ir.Value {
	out := make([]ir.Value, len(vs))
	for i, v := range vs {
		out[i] = ir.I32Val(v)
	}
	return out
}

func u32s(vs []uint32) []ir.Value {
	out := make([]ir.Value, len(vs))
	for i, v := range vs {
		out[i] = ir.U32Val(v)
	}
	return out
}

// wgslLit spells v as a WGSL const-expression of its type.
func wgslLit(v ir.Value) string {
	switch v.Type.Kind {
	case ir.KindI32:
		return fmt.Sprintf("i32(%d)", v.I32()) // AbstractInt converted: -2147483648 is a valid i32
	case ir.KindU32:
		return fmt.Sprintf("%du", v.Bits)
	case ir.KindF32:
		return strconv.FormatFloat(float64(v.F32()), 'e', -1, 32) + "f"
	case ir.KindVec:
		parts := make([]string, len(v.Elems))
		for i, e := range v.Elems {
			parts[i] = wgslLit(e)
		}
		return fmt.Sprintf("%s(%s)", v.Type, strings.Join(parts, ", "))
	}
	panic("wgslLit: " + v.Type.String())
}

// tuples is the cartesian product of the sweeps.
func tuples(vals [][]ir.Value) [][]ir.Value {
	out := [][]ir.Value{nil}
	for _, vs := range vals {
		var next [][]ir.Value
		for _, t := range out {
			for _, v := range vs {
				next = append(next, append(append([]ir.Value(nil), t...), v))
			}
		}
		out = next
	}
	return out
}

// withLits returns e, whose operands are the parameters a, b, c, d, with
// each parameter replaced by the literal of its value.
func withLits(t *testing.T, e ir.Expr, args map[string]ir.Value) ir.Expr {
	lit := func(x ir.Expr) ir.Expr {
		id, ok := x.(*ir.Ident)
		require.True(t, ok, "operand %s is not a parameter", ir.PrintExpr(x))
		return &ir.Lit{Val: args[id.Name]}
	}
	switch x := e.(type) {
	case *ir.Binary:
		return &ir.Binary{Op: x.Op, X: lit(x.X), Y: lit(x.Y), T: x.T}
	case *ir.Unary:
		return &ir.Unary{Op: x.Op, X: lit(x.X), T: x.T}
	case *ir.Convert:
		return &ir.Convert{X: lit(x.X), T: x.T}
	case *ir.BuiltinCall:
		b := &ir.BuiltinCall{Fn: x.Fn, T: x.T}
		for _, a := range x.Args {
			b.Args = append(b.Args, lit(a))
		}
		return b
	}
	t.Fatalf("withLits: %T", e)
	return nil
}

func agreeCases() []agreeCase {
	counts := u32s(agreeCounts)
	var cs []agreeCase
	for _, ty := range []struct {
		name string
		vals []ir.Value
	}{{"i32", i32s(agreeI32)}, {"u32", u32s(agreeU32)}} {
		v := ty.vals
		T := ty.name
		add := func(name, result, expr string, vals ...[]ir.Value) {
			cs = append(cs, agreeCase{T + " " + name, result, expr, vals})
		}
		for _, op := range []string{"+", "-", "*", "/", "%", "&", "|", "^"} {
			add(op, T, "%[1]s "+strings.ReplaceAll(op, "%", "%%")+" %[2]s", v, v)
		}
		add("<<", T, "%[1]s << %[2]s", v, counts)
		add(">>", T, "%[1]s >> %[2]s", v, counts)
		add("~", T, "~%[1]s", v)
		if T == "i32" {
			add("unary -", T, "-%[1]s", v)
			add("sign", T, "sign(%[1]s)", v)
		}
		for _, fn := range []string{"abs", "countOneBits", "reverseBits", "firstLeadingBit", "firstTrailingBit"} {
			add(fn, T, fn+"(%[1]s)", v)
		}
		add("min", T, "min(%[1]s, %[2]s)", v, v)
		add("max", T, "max(%[1]s, %[2]s)", v, v)
		add("clamp", T, "clamp(%[1]s, %[2]s, %[3]s)", v, v, v)
		add("extractBits", T, "extractBits(%[1]s, %[2]s, %[3]s)", v, counts, counts)
		few := []ir.Value{v[0], v[2], v[len(v)-3]}
		add("insertBits", T, "insertBits(%[1]s, %[2]s, %[3]s, %[4]s)", few, few, counts, counts)
		var vecs []ir.Value
		for _, x := range []ir.Value{v[2], v[7], v[9], v[11]} {
			for _, y := range []ir.Value{v[1], v[8], v[10]} {
				vecs = append(vecs, ir.CompositeVal(ir.Vec(2, x.Type), x, y))
			}
		}
		add("dot", T, "dot(%[1]s, %[2]s)", vecs, vecs)
		fs := make([]ir.Value, len(agreeF32))
		for i, f := range agreeF32 {
			fs[i] = ir.F32Val(f)
		}
		add("conversion from f32", T, T+"(%[1]s)", fs)
	}
	return cs
}

// TestIntegerSemanticsAgree: for every integer operator and builtin and
// every combination of edge operands, the front end rejects the
// const-expression exactly when flatten refuses to fold it (evalError),
// and otherwise the front end's constant, flatten's folded value and the
// interpreter's run-time value are equal. The one exception is a left
// shift that overflows (WGSL #bit-expr): a shader-creation error as a
// const-expression, but flatten may fold it, since the literal it leaves is
// no const-expression; there the folded value must be the run-time one.
func TestIntegerSemanticsAgree(t *testing.T) {
	names := []string{"a", "b", "c", "d"}
	for _, c := range agreeCases() {
		t.Run(c.name, func(t *testing.T) {
			ops := make([]any, len(c.vals))
			var params []string
			for i, vs := range c.vals {
				ops[i] = names[i]
				params = append(params, names[i]+": "+vs[0].Type.String())
			}
			src := fmt.Sprintf("fn k(%s) -> %s { return %s; }", strings.Join(params, ", "), c.result, fmt.Sprintf(c.expr, ops...))
			m, err := wgsl.Parse("run.wgsl", []byte(src))
			require.NoError(t, err, src)
			runtime := m.Func("k").Body.Stmts[0].(*ir.Return).Value
			args := tuples(c.vals)
			invs, err := interp.Run(m, "k", args, interp.Options{})
			require.NoError(t, err)
			for i, tup := range args {
				lits := make([]any, len(tup))
				byName := map[string]ir.Value{}
				for j, v := range tup {
					lits[j] = wgslLit(v)
					byName[names[j]] = v
				}
				constSrc := fmt.Sprintf("fn k() -> %s { return %s; }", c.result, fmt.Sprintf(c.expr, lits...))
				require.NoError(t, invs[i].Err, constSrc)
				got := invs[i].Outputs[0]
				require.Nil(t, got.Indeterminate, "interp: %s is indeterminate", constSrc)
				folded, st := evalNode(withLits(t, runtime, byName))
				cm, feErr := wgsl.Parse("const.wgsl", []byte(constSrc))
				if feErr != nil {
					if strings.Contains(c.expr, "<<") && strings.Contains(feErr.Error(), "<<") && strings.Contains(feErr.Error(), "overflows") {
						if assert.Equal(t, evalOK, st, "%s: flatten folds an overflowing left shift", constSrc) {
							assert.True(t, ir.Equal(got.Value, folded), "%s: flatten %v, interp %v", constSrc, folded, got.Value)
						}
						continue
					}
					assert.Equal(t, evalError, st, "%s: the front end rejects it (%v), flatten must not fold it", constSrc, feErr)
					continue
				}
				lit, ok := cm.Func("k").Body.Stmts[0].(*ir.Return).Value.(*ir.Lit)
				require.True(t, ok, "%s: the front end folds it to a literal", constSrc)
				assert.True(t, ir.Equal(lit.Val, got.Value), "%s: front end %v, interp %v", constSrc, lit.Val, got.Value)
				if assert.Equal(t, evalOK, st, "%s: flatten folds what the front end accepts", constSrc) {
					assert.True(t, ir.Equal(folded, got.Value), "%s: flatten %v, interp %v", constSrc, folded, got.Value)
				}
			}
		})
	}
}
